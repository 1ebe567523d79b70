"""Stage 6, serve: answering from an index. ``serving`` (what the servers share: opening an index, checking
regions, finding their PDFs), ``render`` (boxes drawn on PDF pages), ``mcp_server`` (``sjt mcp``), ``audit``
(``sjt serve``, the audit page), ``diagnose`` (``sjt diagnose``'s figures)."""
