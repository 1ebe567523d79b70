"""`sjt serve`: a local audit page where a person checks search results and cited answers against the PDFs.

`create_app(index_path)` is the Starlette application (server-rendered HTML, no build step); `command`
registers the subcommand without importing the web stack. Needs the extra ``serve``.
"""
