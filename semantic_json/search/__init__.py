"""Search in two stages: candidates from the engine the index lives in (``candidates``), then the library's
own fusion of their scores with the document priors (``fusion``) and entity-safe region assembly over the
candidate documents (``regions``). The repository (semantic_json.repository) keeps documents and storage and
runs these in order."""
