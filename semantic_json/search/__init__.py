"""Search in two stages: candidates from the engine the index lives in (``candidates``), then the library's
own fusion of their scores with the document priors (``fusion``) and entity-safe region assembly over the
candidate documents (``regions``). The repository (semantic_json.repository) keeps documents and storage and
runs these in order.

A search's filters (``where=``, ``sjt search --where``) are public here: ``parse_where`` reads them from
``key=value`` pairs and ``SearchFilterError`` says which one is wrong."""

from .filters import SearchFilterError, parse_where

__all__ = ["SearchFilterError", "parse_where"]
