"""The tag vocabularies every stage shares: which elements start a block, a line, a cell, a widget.

A leaf module (it imports nothing of pith), so the methods (algorithms/), the block stage
(blocks/) and the output formats (render.py) read the same sets without importing one
another. A set only one module reads stays in that module.
"""
from __future__ import annotations

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Elements that start a new block of text (a blank line in plain text).
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
    "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li",
    "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot",
    "thead", "ul", "iframe", "frame", "frameset", "noframes", "search",
})
# Elements that end a line but not a paragraph.
LINE_TAGS = frozenset({"br", "tr"})
CELL_TAGS = frozenset({"td", "th"})
# Interactive widgets: their labels are UI, not content.
WIDGET_TAGS = frozenset({"button", "select", "input", "textarea", "option", "svg", "canvas",
                         "object", "embed", "audio", "video", "map"})
PRE_TAGS = frozenset({"pre", "textarea", "listing", "plaintext", "xmp"})
# Rows that start a block of the block stage of their own (with the root, which owns what
# nothing else does): BLOCK_TAGS with table rows and cells and the preformatted elements.
BLOCK_LEVEL = frozenset({
    "html", "body", "address", "article", "aside", "blockquote", "caption", "center",
    "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
    "figure", "footer", "form", "header", "hgroup", "hr", "legend", "li", "main", "menu",
    "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead",
    "tr", "td", "th", "ul", "iframe", "frame", "frameset", "noframes", "search", "listing",
    "plaintext", "xmp",
}) | HEADINGS
# The rows a data table is made of; any other block-level row inside (a paragraph, a div,
# a list in a cell) makes it a layout table, whose rows are blocks of their own.
TABLE_PARTS = frozenset({"table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th",
                         "colgroup"})
