"""Small PDFs made in tests: good, encrypted, empty, corrupt, image-only."""

from __future__ import annotations

from pathlib import Path


def text_pdf(path: Path, lines: list[str] | None = None) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    for i, line in enumerate(lines or ["Revenue grew by 12.2% in 2024."]):
        c.drawString(72, 760 - 14 * i, line)
    c.showPage()
    c.save()
    return path


def encrypted_pdf(path: Path) -> Path:
    from reportlab.lib.pdfencrypt import StandardEncryption
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), encrypt=StandardEncryption("user-secret", "owner-secret"))
    c.drawString(72, 760, "confidential")
    c.showPage()
    c.save()
    return path


def image_only_pdf(path: Path) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    c.setFillGray(0.4)
    for i in range(12):
        c.rect(72, 700 - 30 * i, 400, 18, fill=1, stroke=0)  # what a scan's text looks like: ink, no characters
    c.showPage()
    c.save()
    return path


def zero_page_pdf(path: Path) -> Path:
    """A well-formed PDF whose page tree is empty, with a correct xref table."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def corrupt_pdf(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    return path


#: Cell text size of the statement lines below.
STATEMENT_FONT = ("FONTSIZE", (0, 0), (-1, -1), 8)
#: Rows set close together (one point of padding above and below), as statements print their headings.
TIGHT = [("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]


def statement_line(cells: list[str], widths: list[int], bold_first: bool = False, tight: bool = False):
    """One unruled line of a statement (a reportlab Table of one row): figures right-aligned, the first
    cell in bold when asked."""
    from reportlab.platypus import Table, TableStyle

    line = Table([cells], colWidths=widths, hAlign="LEFT")
    style = [("ALIGN", (1, 0), (-1, 0), "RIGHT"), STATEMENT_FONT, *(TIGHT if tight else [])]
    if bold_first:
        style.append(("FONTNAME", (0, 0), (0, 0), "Helvetica-Bold"))
    line.setStyle(TableStyle(style))
    return line


def statement_body(rows: list[list[str]], widths: list[int], ruled: bool = True, tight: bool = False):
    """A statement's body rows (a reportlab Table): figures right-aligned, every cell ruled when asked."""
    from reportlab.platypus import Table, TableStyle

    body = Table(rows, colWidths=widths, hAlign="LEFT")
    style = [("ALIGN", (1, 0), (-1, -1), "RIGHT"), STATEMENT_FONT, *(TIGHT if tight else [])]
    if ruled:
        style.insert(0, ("GRID", (0, 0), (-1, -1), 0.5, "black"))
    body.setStyle(TableStyle(style))
    return body


def draw_ruled_grid(c, bounds: list[float], top: float, pitch: float, rows: list[list[str]], size: float = 8,
                    bold_rows: int = 0) -> None:
    """Draw ``rows`` on the reportlab canvas ``c`` as a ruled grid: every row and column boundary a rule
    (``bounds``: column boundaries in points; ``top``: the grid's top in points from the bottom; rows
    ``pitch`` points apart), labels left-aligned and figures right-aligned, the first ``bold_rows`` in bold;
    then the page and the file are finished."""
    c.setLineWidth(0.5)
    for r in range(len(rows) + 1):
        c.line(bounds[0], top - r * pitch, bounds[-1], top - r * pitch)
    for x in bounds:
        c.line(x, top, x, top - len(rows) * pitch)
    for r, row in enumerate(rows):
        base = top - (r + 1) * pitch + 3
        c.setFont("Helvetica-Bold" if r < bold_rows else "Helvetica", size)
        c.drawString(bounds[0] + 2, base, row[0])
        for k, text in enumerate(row[1:], start=1):
            c.drawRightString(bounds[k + 1] - 3, base, text)
    c.showPage()
    c.save()
