"""DoclingParser: Docling's standard PDF pipeline (layout model + TableFormer) into a ParsedDoc."""

from __future__ import annotations

import importlib.util
import inspect
import os
import socket
from contextlib import suppress
from pathlib import Path

from ..errors import ExtraNotInstalledError, ModelsUnavailableError, OcrUnavailableError
from .ocr import HOW_TO_INSTALL_OCR, OcrOptions, find_tessdata
from .parsed import ParsedDoc
from .pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, inspect_pdf

#: Where Docling's weights are fetched from when they are not on disk.
MODEL_HOST = ("huggingface.co", 443)
#: Seconds to wait when probing whether the model host can be reached.
PROBE_TIMEOUT = 2.0
#: Hugging Face repositories that hold the layout and TableFormer weights.
MODEL_REPOS = ("docling-project--docling-layout", "docling-project--docling-models", "ds4sd--docling-models")
HOW_TO_GET_MODELS = (
    "run `docling-tools models download` on a machine with network access and pass its output folder as "
    "artifacts_path= (CLI: --artifacts-path), or use the model-free lite parser (parser='lite')"
)


#: Docling's own cache folder (docling.datamodel.settings: ``cache_dir``, read from DOCLING_CACHE_DIR).
DOCLING_CACHE_ENV = "DOCLING_CACHE_DIR"
DOCLING_DEFAULT_CACHE = Path("~/.cache/docling")


def docling_installed() -> bool:
    """True when the docling package can be imported; it is looked up, not imported (importing docling
    takes seconds and pulls in torch)."""
    try:
        spec = importlib.util.find_spec("docling")
    except (ImportError, ValueError):
        return False
    # find_spec of a submodule would import the package; look for the converter's file instead
    locations = spec.submodule_search_locations if spec is not None else None
    return bool(locations) and any((Path(folder) / "document_converter.py").is_file() for folder in locations)


def _hub_cache_dirs() -> list[Path]:
    """Where downloaded Docling weights may be: the Hugging Face hub cache and Docling's own cache
    (found from the environment as docling finds it, without importing docling)."""
    dirs = []
    with suppress(ImportError):
        from huggingface_hub import constants

        dirs.append(Path(constants.HF_HUB_CACHE))
    docling_cache = os.environ.get(DOCLING_CACHE_ENV)
    dirs.append(Path(docling_cache).expanduser() if docling_cache else DOCLING_DEFAULT_CACHE.expanduser())
    dirs[-1] = dirs[-1] / "models"
    return dirs


def models_on_disk(artifacts_path: str | Path | None = None) -> bool:
    """True when the layout and table models are in ``artifacts_path`` or a local model cache."""
    if artifacts_path is not None:
        path = Path(artifacts_path)
        return path.is_dir() and any(path.iterdir())
    for cache in _hub_cache_dirs():
        if not cache.is_dir():
            continue
        names = " ".join(p.name for p in cache.iterdir())
        if "docling-layout" in names and ("docling-models" in names or "tableformer" in names.lower()):
            return True
    return False


def model_host_reachable(timeout: float = PROBE_TIMEOUT) -> bool:
    """True when the Hugging Face hub answers on its port (and offline mode is not set)."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes"):
        return False
    try:
        with socket.create_connection(MODEL_HOST, timeout=timeout):
            return True
    except OSError:
        return False


def models_status(artifacts_path: str | Path | None = None) -> tuple[bool, str]:
    """Whether Docling's model pipeline can run here, and why not when it cannot."""
    if not docling_installed():
        return False, 'Docling is not installed (pip install "semantic-json-transport[docling]")'
    if artifacts_path is not None:
        if models_on_disk(artifacts_path):
            return True, f"models in {artifacts_path}"
        return False, f"artifacts_path {artifacts_path} does not exist or is empty"
    if models_on_disk():
        return True, "models in the local cache"
    if model_host_reachable():
        return True, "models will be downloaded from the Hugging Face hub"
    return False, "Docling's layout/TableFormer models are not on disk and the Hugging Face hub cannot be reached"


class DoclingParser:
    """Docling's standard PDF pipeline with table structure (TableFormer ``accurate`` by default).

    ``artifacts_path`` is a folder made by ``docling-tools models download`` for air-gapped use.
    ``ocr`` is the OCR choice the lite parser follows too: on, Docling reads bitmap areas (a scan's pages)
    with Tesseract (tesserocr) in its languages. OCR is off when neither ``ocr`` nor ``do_ocr=True`` is given.
    Where Tesseract's language data is missing Docling runs without OCR, and a PDF that then yields no
    text raises OcrUnavailableError naming the packages.
    """

    name = "docling"

    def __init__(
        self,
        artifacts_path: str | Path | None = None,
        do_ocr: bool | None = None,
        table_mode: str = "accurate",
        num_threads: int | None = None,
        max_bytes: int = DEFAULT_MAX_PDF_BYTES,
        max_pages: int = DEFAULT_MAX_PAGES,
        ocr: OcrOptions | None = None,
    ):
        if not docling_installed():
            raise ExtraNotInstalledError("DoclingParser", "docling", "docling")
        self.artifacts_path = Path(artifacts_path) if artifacts_path is not None else None
        if self.artifacts_path is not None and not models_on_disk(self.artifacts_path):
            raise ModelsUnavailableError(
                f"Docling models not found in artifacts_path={self.artifacts_path}; {HOW_TO_GET_MODELS}"
            )
        ocr = ocr or OcrOptions(enabled=bool(do_ocr))
        if do_ocr is not None and do_ocr != ocr.enabled:
            ocr = OcrOptions(enabled=do_ocr, languages=ocr.languages, tessdata=ocr.tessdata)
        self.ocr = ocr
        self.do_ocr = ocr.enabled
        #: Why OCR could not be set up (empty when it could, or was not asked for).
        self.ocr_missing = ""
        self.table_mode = table_mode
        self.num_threads = num_threads
        self.max_bytes = max_bytes
        self.max_pages = max_pages
        self._converter = None

    def pipeline_options(self):
        """Docling's PdfPipelineOptions for this parser: table structure, and OCR by Tesseract (tesserocr)
        in the OCR choice's languages when it is on and the language data is found."""
        from docling.datamodel.pipeline_options import PdfPipelineOptions, TableFormerMode, TesseractOcrOptions

        options = PdfPipelineOptions(artifacts_path=self.artifacts_path)
        options.do_ocr = False
        if self.do_ocr:
            folder, self.ocr_missing = find_tessdata(self.ocr.languages, self.ocr.tessdata)
            if folder is not None:
                options.do_ocr = True
                options.ocr_options = TesseractOcrOptions(lang=self.ocr.languages.split("+"), path=str(folder) + os.sep)
        options.do_table_structure = True
        options.table_structure_options.mode = (
            TableFormerMode.ACCURATE if self.table_mode == "accurate" else TableFormerMode.FAST
        )
        if self.num_threads is not None:
            options.accelerator_options.num_threads = self.num_threads
        return options

    def _make_converter(self):
        from docling.datamodel.base_models import InputFormat
        from docling.document_converter import DocumentConverter, PdfFormatOption

        options = self.pipeline_options()
        return DocumentConverter(format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=options)})

    def parse(self, path: str | Path, page_range: tuple[int, int] | None = None, on_page=None) -> ParsedDoc:
        """The PDF's DoclingDocument; ``page_range`` (first, last: 1-based, inclusive) converts only those
        pages; ``on_page(done, total)`` is called as each page completes (Docling versions that report
        progress)."""
        info = inspect_pdf(path, self.max_bytes, self.max_pages)
        options: dict = {} if page_range is None else {"page_range": tuple(page_range)}
        try:
            if self._converter is None:
                self._converter = self._make_converter()
            if on_page is not None and "progress_callback" in inspect.signature(self._converter.convert).parameters:
                options["progress_callback"] = _page_progress(on_page)
            result = self._converter.convert(str(info.path), raises_on_error=True, **options)
        except ModelsUnavailableError:
            raise
        except Exception as exc:
            if _is_model_fetch_failure(exc):
                raise ModelsUnavailableError(
                    f"Docling's layout/TableFormer models are missing and could not be fetched ({exc.__class__.__name__}: "
                    f"{str(exc).splitlines()[0] if str(exc) else ''}); {HOW_TO_GET_MODELS}"
                ) from exc
            raise
        document = result.document
        if self.ocr_missing and not document.texts and not document.tables:
            raise OcrUnavailableError(info.path, f"{self.ocr_missing}; {HOW_TO_INSTALL_OCR}")
        return ParsedDoc(
            document=document,
            path=info.path,
            sha256=info.sha256,
            parser=self.name,
            page_count=info.page_count if page_range is None else len(result.document.pages),
        )


def _page_progress(on_page):
    """A Docling progress callback that reports completed pages to ``on_page(done, total)``."""

    def report(event) -> None:
        if getattr(event, "kind", None) == "page_completed":
            on_page(event.completed_pages, event.total_pages)

    return report


def _is_model_fetch_failure(exc: BaseException) -> bool:
    """True for the errors Hugging Face downloads and missing local weights raise."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    markers = {"LocalEntryNotFoundError", "HfHubHTTPError", "ConnectionError", "OfflineModeIsEnabled", "RepositoryNotFoundError"}
    if names & markers:
        return True
    text = str(exc).lower()
    return any(word in text for word in ("huggingface", "hf_hub", "snapshot_download", "model", "artifacts")) and (
        "not found" in text or "connect" in text or "offline" in text or "download" in text
    )
