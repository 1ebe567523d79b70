"""Tesseract OCR for pages without a usable text layer: words with boxes and confidences.

Tesseract runs in process through tesserocr (one engine per process and language set, loaded once):
docs/parsers.md has the measurement that chose it over pytesseract, which starts the ``tesseract``
program and reloads its language data for every page. The language data (``*.traineddata``) comes from
the operating system's packages (Debian: tesseract-ocr, tesseract-ocr-kor, tesseract-ocr-eng); nothing is
downloaded. Born-digital pages never reach this module, so neither tesserocr nor the language data is
needed to read them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import OcrUnavailableError
from .ocr_rereads import languages_without_latin, reread_figures
from .ocr_words import OcrWord, join_pieces, read_pieces

__all__ = [
    "OcrOptions", "OcrEngine", "OcrPage", "OcrWord", "TESSERACT_APT_PACKAGES", "HOW_TO_INSTALL_OCR", "find_tessdata", "ocr_engine",
]

#: What Debian and Ubuntu install for OCR in Korean and English (the language data Tesseract reads).
TESSERACT_APT_PACKAGES = ("tesseract-ocr", "tesseract-ocr-kor", "tesseract-ocr-eng")
HOW_TO_INSTALL_OCR = (
    f"install Tesseract's language data with `apt-get install {' '.join(TESSERACT_APT_PACKAGES)}` "
    "(macOS: `brew install tesseract tesseract-lang`) and the binding with "
    '`pip install "semantic-json-transport[ocr]"`; or turn OCR off (LiteSettings(ocr=False), sjt --no-ocr)'
)
#: Languages read by default: Korean and English (Tesseract's names, joined by "+").
DEFAULT_OCR_LANGUAGES = "kor+eng"


@dataclass(frozen=True)
class OcrOptions:
    """The OCR choice both parsers follow: whether pages without a usable text layer are read by OCR, in
    which Tesseract languages ("kor+eng"), and where the language data is ("" finds it)."""

    enabled: bool = True
    languages: str = DEFAULT_OCR_LANGUAGES
    tessdata: str = ""

    def lite_settings(self) -> dict[str, Any]:
        """The LiteSettings fields this choice sets."""
        return {"ocr": self.enabled, "ocr_languages": self.languages, "ocr_tessdata": self.tessdata}


#: Tesseract's own variable naming the folder of its language data.
TESSDATA_ENV = "TESSDATA_PREFIX"
#: Where packages put the language data when TESSDATA_PREFIX is not set (Debian/Ubuntu, Fedora, local
#: builds, Homebrew), tried in order.
TESSDATA_FOLDERS = (
    "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
    "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
)
_MS_PER_S = 1000
#: Tesseract uses OpenMP threads within a page; pages already run in parallel, one per worker process,
#: and extra threads on the same cores only add contention.
_THREADS_ENV = "OMP_THREAD_LIMIT"


class OcrPage(NamedTuple):
    """What OCR made of one page image: its words in reading order, and whether it ran out of time."""

    words: list[OcrWord]
    timed_out: bool


def find_tessdata(languages: str, folder: str = "") -> tuple[Path | None, str]:
    """The folder holding ``<lang>.traineddata`` for every language of ``languages`` ("kor+eng"), and
    why none does: ``folder`` when given, else $TESSDATA_PREFIX when set, else the usual package folders."""
    names = languages.split("+")
    if folder:
        candidates, where = [Path(folder)], f"ocr_tessdata={folder}"
    elif os.environ.get(TESSDATA_ENV):
        candidates, where = [Path(os.environ[TESSDATA_ENV])], f"{TESSDATA_ENV}={os.environ[TESSDATA_ENV]}"
    else:
        candidates, where = [Path(f) for f in TESSDATA_FOLDERS], "the usual folders (" + ", ".join(TESSDATA_FOLDERS) + ")"
    for candidate in candidates:
        if all((candidate / f"{name}.traineddata").is_file() for name in names):
            return candidate, ""
    missing = [n for n in names if not any((c / f"{n}.traineddata").is_file() for c in candidates)]
    return None, f"no language data for {'+'.join(missing)} in {where}"


class OcrEngine:
    """One Tesseract engine (tesserocr) for a language set; ``read`` turns a page image into words."""

    def __init__(self, api: Any, languages: str, line_api: Any = None, line_readers: dict[str, Any] | None = None,
                 latinless: frozenset[str] = frozenset()):
        self._api = api
        self.languages = languages
        self._line_api = line_api
        #: Each language of a multi-language set alone, reading one text line, and those of them without
        #: Latin letters, for :mod:`.ocr_rereads`.
        self.line_readers = line_readers or {}
        self.latinless = latinless

    def read(self, image: Any, timeout: float) -> OcrPage:
        """Words of a PIL image; Tesseract's own words are joined where it printed no space between them
        (Korean comes back a syllable per word), each with its text line's top and bottom; words that
        a language without Latin letters read as figures are read again (:func:`.ocr_rereads.reread_figures`)."""
        api = self._api
        api.SetImage(image)
        if not api.Recognize(timeout=max(1, int(timeout * _MS_PER_S))):
            api.Clear()
            return OcrPage([], True)
        words = join_pieces(read_pieces(api))
        api.Clear()
        if self.line_readers:
            words = reread_figures(words, image, self.line_readers, self.latinless, timeout)
        return OcrPage([w.word for w in words], False)

    def read_line(self, image: Any, timeout: float) -> list[OcrWord]:
        """Words of a PIL image holding one line of text: the most confident reading (by characters) of
        the engine's languages together and, for a set with a language without Latin letters, of each
        alone (:mod:`.ocr_rereads`); none on timeout."""
        best: list[OcrWord] = []
        best_confidence = -1.0
        for api in [self._line_api or self._api, *self.line_readers.values()]:
            api.SetImage(image)
            if not api.Recognize(timeout=max(1, int(timeout * _MS_PER_S))):
                api.Clear()
                continue
            words = [w.word for w in join_pieces(read_pieces(api))]
            api.Clear()
            chars = sum(len(w.text) for w in words)
            confidence = sum(w.confidence * len(w.text) for w in words) / chars if chars else 0.0
            if confidence > best_confidence:
                best, best_confidence = words, confidence
        return best


_ENGINES: dict[tuple[str, str, int], OcrEngine] = {}
#: Tesseract's page segmentation mode when none is given: automatic.
DEFAULT_PSM = 3


def ocr_engine(languages: str, tessdata: str, pdf_path: Path, psm: int = DEFAULT_PSM) -> OcrEngine:
    """The process's engine for ``languages`` and page segmentation mode ``psm`` (loaded on first use);
    OcrUnavailableError naming what to install when tesserocr or the language data is missing
    (``pdf_path`` is the PDF that needed it)."""
    folder, why = find_tessdata(languages, tessdata)
    if folder is None:
        raise OcrUnavailableError(pdf_path, f"{why}; {HOW_TO_INSTALL_OCR}")
    key = (str(folder), languages, psm)
    engine = _ENGINES.get(key)
    if engine is None:
        os.environ.setdefault(_THREADS_ENV, "1")  # read when the library loads
        try:
            import tesserocr
        except ImportError:
            raise OcrUnavailableError(pdf_path, f"the tesserocr binding is not installed; {HOW_TO_INSTALL_OCR}") from None
        def load(names: str, mode: int) -> Any:
            try:
                return tesserocr.PyTessBaseAPI(path=str(folder) + os.sep, lang=names, psm=mode)
            except RuntimeError as exc:
                raise OcrUnavailableError(pdf_path, f"Tesseract could not load {names} from {folder} ({exc}); "
                                                    f"{HOW_TO_INSTALL_OCR}") from None

        api = load(languages, psm)
        names = languages.split("+")
        latinless = languages_without_latin(folder, names) if len(names) > 1 else frozenset()
        readers = {name: load(name, tesserocr.PSM.SINGLE_LINE) for name in names} if latinless else {}
        line_api = load(languages, tesserocr.PSM.SINGLE_LINE)
        engine = _ENGINES[key] = OcrEngine(api, languages, line_api, readers, latinless)
    return engine
