"""Modules imported on first use: stand-ins for modules that a dependency imports when it loads although
this package never, or seldom, uses them.

- docling-core imports pandas (and pandas pyarrow: about 75 MB of memory and a second of start-up in
  every process) for its DataFrame exports, and OpenCV (about 20 MB) to encode images as PNG; parsing,
  chunking and ingest do neither (:func:`heavy_imports_deferred`).
- docling-core's chunker package imports transformers (and through it torch) for a default tokenizer
  that is never asked for when a tokenizer is given (see ``corpus/text_chunks.py``).

Whatever uses a name of a stand-in imports the real module then, so code that does want it gets it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

__all__ = ["DeferredModule", "heavy_imports_deferred"]


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


#: Modules docling-core imports as it loads, with the names of theirs it reads meanwhile (return
#: annotations such as ``-> pd.DataFrame``).
HEAVY_MODULES: dict[str, tuple[str, ...]] = {"pandas": ("DataFrame",), "cv2": ()}


@contextmanager
def heavy_imports_deferred() -> Iterator[None]:
    """While the block runs (importing docling-core), importing one of ``HEAVY_MODULES`` gives a stand-in.

    The names docling-core reads while it loads are answered with classes that call the real ones if
    they are ever called. Once the block is over, the stand-ins leave ``sys.modules`` (a later import is
    the real module) and the modules that hold one import the real module at their first use of it. A
    module already imported, or not installed, is left alone (``import cv2`` must still fail where
    OpenCV is missing).
    """
    stand_ins: dict[str, DeferredModule] = {}
    for module, names in HEAVY_MODULES.items():
        if module in sys.modules or importlib.util.find_spec(module) is None:
            continue
        stand_in = stand_ins[module] = DeferredModule(module)
        for name in names:
            stand_in.__dict__[name] = _annotation_class(module, name)
        sys.modules[module] = stand_in
    try:
        yield
    finally:
        for module, stand_in in stand_ins.items():
            for name in HEAVY_MODULES[module]:
                stand_in.__dict__.pop(name, None)
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def _annotation_class(module: str, name: str) -> type:
    """A class named ``module.name`` for annotations; calling it calls the real ``module.name``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return type(name, (), {"__new__": __new__, "__module__": module, "__doc__": f"Stands for {module}.{name} in annotations."})
