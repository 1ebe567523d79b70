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
#: Tesseract's confidences are percentages.
_PERCENT = 100.0
_MS_PER_S = 1000
#: Tesseract uses OpenMP threads within a page; pages already run in parallel, one per worker process,
#: and extra threads on the same cores only add contention.
_THREADS_ENV = "OMP_THREAD_LIMIT"


class OcrWord(NamedTuple):
    """A word as Tesseract read it: text, box in image pixels (top-down), the box of its text line
    (pixels), and its confidence (0..1)."""

    text: str
    x0: int
    top: int
    x1: int
    bottom: int
    line_top: int
    line_bottom: int
    confidence: float


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

    def __init__(self, api: Any, languages: str):
        self._api = api
        self.languages = languages

    def read(self, image: Any, timeout: float) -> OcrPage:
        """Words of a PIL image; Tesseract's own words are joined where it printed no space between them
        (Korean comes back a syllable per word), each with its text line's top and bottom."""
        import tesserocr

        api = self._api
        api.SetImage(image)
        if not api.Recognize(timeout=max(1, int(timeout * _MS_PER_S))):
            api.Clear()
            return OcrPage([], True)
        level, line_level = tesserocr.RIL.WORD, tesserocr.RIL.TEXTLINE
        words: list[OcrWord] = []
        joined: list[int] = []  # characters in each word, to weigh the confidences of joined pieces
        iterator = api.GetIterator()
        for piece in tesserocr.iterate_level(iterator, level):
            text = (piece.GetUTF8Text(level) or "").strip()
            box = piece.BoundingBox(level)
            if not text or box is None:
                continue
            line = piece.BoundingBox(line_level) or box
            confidence = max(0.0, piece.Confidence(level)) / _PERCENT
            starts_line = piece.IsAtBeginningOf(line_level)
            if words and not starts_line and piece.BlanksBeforeWord() == 0:
                last, chars = words[-1], joined[-1]
                words[-1] = OcrWord(
                    last.text + text, min(last.x0, box[0]), min(last.top, box[1]), max(last.x1, box[2]),
                    max(last.bottom, box[3]), last.line_top, last.line_bottom,
                    (last.confidence * chars + confidence * len(text)) / (chars + len(text)),
                )
                joined[-1] = chars + len(text)
                continue
            words.append(OcrWord(text, *box, line[1], line[3], confidence))
            joined.append(len(text))
        api.Clear()
        return OcrPage(words, False)


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
        try:
            api = tesserocr.PyTessBaseAPI(path=str(folder) + os.sep, lang=languages, psm=psm)
        except RuntimeError as exc:
            raise OcrUnavailableError(pdf_path, f"Tesseract could not load {languages} from {folder} ({exc}); "
                                                f"{HOW_TO_INSTALL_OCR}") from None
        engine = _ENGINES[key] = OcrEngine(api, languages)
    return engine
