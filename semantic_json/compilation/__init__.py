"""Stage 1 of semantic_json, compilation: plain text (+ provenance segments) → SemanticDocument. ``compiler``
composes ``layout`` (blocks), ``sentences``, ``propositions`` and ``entities``."""
