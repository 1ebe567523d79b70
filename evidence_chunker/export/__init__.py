"""Adapters that hand a retrieval corpus (``evidence_chunker.corpus``) to other tools.

``langchain`` and ``llamaindex`` (Documents / TextNodes; the ``langchain`` / ``llamaindex`` extras),
``vectorstores`` (LanceDB, PostgreSQL + pgvector; their extras) and ``semantic`` (the bridge to
``semantic_json``). None is imported here, so importing this package loads no optional dependency.
"""
