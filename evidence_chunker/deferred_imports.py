"""Modules imported on first use: stand-ins for modules that a dependency imports when it loads although
this package never, or seldom, uses them.

- docling-core imports pandas (and pandas pyarrow: about 75 MB of memory and a second of start-up in
  every process) for its DataFrame exports, which parsing, chunking and ingest never make
  (:func:`pandas_deferred`).
- docling-core's chunker package imports transformers (and through it torch) for a default tokenizer
  that is never asked for when a tokenizer is given (see ``corpus/text_chunks.py``).

Whatever uses a name of a stand-in imports the real module then, so code that does want it gets it.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

__all__ = ["DeferredModule", "pandas_deferred"]


class DeferredModule(types.ModuleType):
    """Stands in for a module until one of its names is used, then imports the real one in its place."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__dict__["_real"] = None

    def _load(self) -> types.ModuleType:
        real = self.__dict__["_real"]
        if real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = self.__dict__["_real"] = importlib.import_module(self.__name__)
        return real

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):  # the import system probing (__path__, ...)
            raise AttributeError(name)
        return getattr(self._load(), name)

    def deferred(self, name: str) -> Callable[..., Any]:
        """A function calling the real module's function ``name`` (importing the module then)."""

        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(self._load(), name)(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        return call


#: pandas names docling-core evaluates while it loads: return annotations (``-> pd.DataFrame``).
_PANDAS_ANNOTATIONS = ("DataFrame",)


@contextmanager
def pandas_deferred() -> Iterator[None]:
    """While the block runs (importing docling-core), ``import pandas`` gives a stand-in.

    docling-core evaluates ``pd.DataFrame`` in a few return annotations as it loads; the stand-in answers
    those with a class that makes a real DataFrame if it is ever called. Once the block is over, the
    stand-in leaves ``sys.modules`` (a later ``import pandas`` is the real one) and the modules that hold
    it import pandas at their first use of it. Nothing is deferred when pandas is already imported.
    """
    if "pandas" in sys.modules:
        yield
        return
    stand_in = DeferredModule("pandas")
    for name in _PANDAS_ANNOTATIONS:
        stand_in.__dict__[name] = _annotation_class("pandas", name)
    sys.modules["pandas"] = stand_in
    try:
        yield
    finally:
        for name in _PANDAS_ANNOTATIONS:
            stand_in.__dict__.pop(name, None)
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]


def _annotation_class(module: str, name: str) -> type:
    """A class named ``module.name`` for annotations; calling it calls the real ``module.name``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return type(name, (), {"__new__": __new__, "__module__": module, "__doc__": f"Stands for {module}.{name} in annotations."})
