"""Stage 5, ingest: PDFs into an index. ``run`` (parse → units → corpus → compile, in worker processes, into one
repository), ``batch`` (inputs, failures by name, atomic outputs), ``deadline`` (the per-document time limit),
``ray_ingest`` (the same on a Ray cluster)."""
