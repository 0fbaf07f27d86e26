"""What a reply may carry of a page: its strings cut, its row lists bounded (a leaf module).

The browser refuses a host message over 1 MB (host/PROTOCOL.md), and a page controls its
title, URL, classes, ids, tags and link texts: a 1.2 MB title once made every `select`
of its page `reply_too_large`. Every page string a reply echoes goes through
`page_string`, every row list is cut at MAX_BLOCK_ROWS; select.py and reader.py read
these, so no page can make its own answer too large.
"""
from __future__ import annotations

from typing import Any

# Most rows one list of a reply carries (`blocks`, clean's `drop` and `quiet`).
MAX_BLOCK_ROWS = 20_000

# A page's title and URL (the extension keeps its own; these are for logs and tools).
MAX_PAGE_CHARS = 2048
# A node's tag, id and class (a check of the path against the live page; utility-CSS
# class lists run to a few hundred characters).
MAX_NAME_CHARS = 256
# The runner-ups and parts list their paths only this deep (the depth at which Chromium's
# parser stops nesting): a path is a number per level, and a hundred runner-ups of a
# page nested 100,000 deep would be 20 MB. The chosen node's path is always whole.
MAX_LISTED_PATH = 512
# Most parts of a multi-part answer (SST, CLG) the reply lists.
MAX_LISTED_PARTS = 200
# Marks a string the reply cut.
CUT_MARK = "…"


def page_string(value: Any, limit: int) -> str:
    """`value` (a page's string) as a reply echoes it: at most `limit` characters, the
    last one CUT_MARK when it was cut."""
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + CUT_MARK
