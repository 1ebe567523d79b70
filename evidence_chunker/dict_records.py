"""JSON dicts of the package's data classes, written and read from their fields: one description per class.

A class that derives from :class:`DictRecord` is declared once, as a dataclass; ``to_dict`` and
``from_dict`` follow its fields and their annotations:

* ``to_dict`` writes every field in declaration order, None included: a set becomes a sorted list, a tuple
  a list, a nested record (or pydantic model, semantic_json's ``PageBox``) its own dict.
* ``from_dict`` reads those dicts back. A key that is missing, or None for a field that is not optional,
  takes the field's default; every other value must have the annotated type (an int is accepted for a
  float), else :class:`~evidence_chunker.errors.CorpusFormatError` names the class, the field and what
  was found. Keys that name no field are refused unless the class sets ``refuse_unknown_keys = False``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, ClassVar, Literal, TypeVar, Union

from pydantic import BaseModel, ValidationError

from .errors import CorpusFormatError

R = TypeVar("R", bound="DictRecord")


class DictRecord:
    """Mixin for dataclasses: ``to_dict`` and ``from_dict`` read from the fields (see the module)."""

    #: Whether ``from_dict`` refuses keys that name no field (else they are ignored).
    refuse_unknown_keys: ClassVar[bool] = True

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of every field, in declaration order."""
        return {f.name: to_json(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls: type[R], data: Any) -> R:
        """Inverse of ``to_dict``; CorpusFormatError names the field that is missing or of the wrong type."""
        return cls.read_json(data, cls.__name__)

    @classmethod
    def read_json(cls: type[R], data: Any, where: str) -> R:
        """``from_dict`` for a dict found at ``where`` ("TextChunk.parts[2]"), the path errors name."""
        return cls(**_field_values(cls, data, where, field_types(cls), _required_fields(cls), cls.refuse_unknown_keys))


def _field_values(cls: type, data: Any, where: str, known: dict[str, Any], required: frozenset[str],
                  refuse_unknown_keys: bool) -> dict[str, Any]:
    """The values of the fields ``known`` (name: annotation) read from the JSON object ``data`` found at
    ``where``; a field absent, or None where None cannot stand, is left out (it takes its default)."""
    _checked(data, isinstance(data, dict), "a JSON object", where)
    unknown = set(data) - set(known)
    if unknown and refuse_unknown_keys:
        raise CorpusFormatError(f"{where}: unknown fields {sorted(unknown)}")
    values = {}
    for field, hint in known.items():
        if field not in data and field in required:
            raise CorpusFormatError(f"{where}.{field}: missing; every {cls.__name__} has one")
        value = data.get(field)
        if value is None and field not in required and not _is_optional(hint):
            continue  # absent, or None where None cannot stand: the default
        values[field] = from_json(value, hint, f"{where}.{field}")
    return values


def _read_model(cls: type[BaseModel], data: Any, where: str) -> BaseModel:
    """A pydantic model (semantic_json's ``PageBox``) read field by field like a record, keys that name no
    field ignored; what the model itself refuses (a page below 1) is a CorpusFormatError naming ``where``."""
    known = {name: info.annotation for name, info in cls.model_fields.items()}
    required = frozenset(name for name, info in cls.model_fields.items() if info.is_required())
    try:
        return cls(**_field_values(cls, data, where, known, required, refuse_unknown_keys=False))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CorpusFormatError(f"{where}: {problems}") from None


@cache
def field_types(cls: type) -> dict[str, Any]:
    """The resolved annotation of each dataclass field of ``cls``, in declaration order."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


@cache
def _required_fields(cls: type) -> frozenset[str]:
    """Fields of ``cls`` without a default."""
    return frozenset(f.name for f in dataclasses.fields(cls)
                     if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)


def _is_optional(hint: Any) -> bool:
    return _is_union(hint) and type(None) in typing.get_args(hint)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType)


def to_json(value: Any) -> Any:
    """``value`` as JSON data: records (anything with ``to_dict``) as dicts, sets as sorted lists, tuples as
    lists, keys as strings."""
    if isinstance(value, DictRecord):
        return value.to_dict()
    if hasattr(value, "to_dict"):
        return to_json(value.to_dict())
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(to_json(item) for item in value)
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    return value


def from_json(value: Any, hint: Any, where: str) -> Any:
    """``value`` read as the annotation ``hint`` says; CorpusFormatError naming ``where`` when it does not fit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if _is_union(hint):
        if value is None and type(None) in args:
            return None
        (inner,) = [arg for arg in args if arg is not type(None)]
        return from_json(value, inner, where)
    if origin is Literal:
        return _checked(value, value in args, f"one of {list(args)}", where)
    if isinstance(hint, type) and issubclass(hint, DictRecord):
        return hint.read_json(value, where)
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return _read_model(hint, value, where)
    if origin in (list, set, frozenset, tuple):
        return _read_collection(value, origin, args, where)
    if origin is dict:
        _checked(value, isinstance(value, dict), "a JSON object", where)
        return {key: from_json(item, args[1], f"{where}[{key!r}]") for key, item in value.items()}
    return _read_scalar(value, hint, where)


def _read_collection(value: Any, origin: type, args: tuple[Any, ...], where: str) -> Any:
    """A list, set or tuple from a JSON array, each item read as its annotation says."""
    _checked(value, isinstance(value, (list, tuple, set, frozenset)), "a JSON array", where)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        _checked(value, len(value) == len(args), f"an array of {len(args)} items", where)
        return tuple(from_json(item, arg, f"{where}[{i}]") for i, (item, arg) in enumerate(zip(value, args)))
    items = [from_json(item, args[0], f"{where}[{i}]") for i, item in enumerate(value)]
    return origin(items)


def _read_scalar(value: Any, hint: type, where: str) -> Any:
    """A str, bool, int or float; an int is accepted for a float, a bool never for a number."""
    if hint is float:
        _checked(value, isinstance(value, (int, float)) and not isinstance(value, bool), "a number", where)
        return float(value)
    if hint is int:
        return _checked(value, isinstance(value, int) and not isinstance(value, bool), "a whole number", where)
    if hint in (str, bool):
        return _checked(value, isinstance(value, hint), "a string" if hint is str else "true or false", where)
    raise TypeError(f"{where}: records cannot hold a {hint!r}")  # a programming error: the class is wrong


def _checked(value: Any, ok: bool, expected: str, where: str) -> Any:
    """``value`` when ``ok``, else CorpusFormatError saying what ``where`` should have held."""
    if not ok:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise CorpusFormatError(f"{where}: expected {expected}, got {type(value).__name__} {shown}")
    return value
