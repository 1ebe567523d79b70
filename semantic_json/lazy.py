"""A package's public names imported on first use (PEP 562): importing the package loads none of the modules
behind them, so a command pays only for what it uses."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, namespace: MutableMapping[str, Any], exports: Mapping[str, str],
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (``namespace``: its globals()) for
    ``exports``: public name → the module that holds it, relative to the package (".model", "..errors").
    A name is imported when first read, then kept in ``namespace``."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(import_module(module, package), name)
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
