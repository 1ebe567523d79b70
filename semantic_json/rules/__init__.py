"""Report-text rules both packages use (a public module of semantic_json, so evidence_chunker may import it
without breaking the layering): ``patterns`` (figures, years, units, captions, list markers, lead-ins, in
English and Korean) and ``textnorm`` (word-level normalisation and a text's language)."""
