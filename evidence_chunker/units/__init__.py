"""Stage 2, units: a parsed document's tables become Evidence Units (``build``), each read by ``tables``
(headers, flattened rows), named by ``captions`` / ``titles``, given its ``context``, rendered by
``table_render`` and cut to the token limit by ``split``; ``filing`` reads which filing a document is."""
