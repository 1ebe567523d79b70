"""The lite parser (no model weights, born-digital PDFs; OCR for pages without a text layer), by stage:
``pdfium`` / ``page_prep`` / ``ocr_pages`` / ``text_layer`` (a page read: glyphs, rules, figures), ``text`` /
``spacing`` (glyphs → words → lines), ``furniture`` / ``zones`` / ``page_layout`` (running heads, text columns,
reading order, paragraphs), ``found_tables`` / ``ruled`` / ``borderless`` / ``toc`` and the header stages
(``headings``, ``ruled_headings``, ``column_groups``, ``table_headers``, ``values``), composed by ``parser``
(LiteParser) with every threshold in ``settings`` (LiteSettings)."""
