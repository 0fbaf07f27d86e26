"""What a page only shows about itself, gathered (Shown): its headline (the shown h1s), with the byline, the date line and the URL's date.

The byline is byline.py's, the date line dateline.py's; both, and the headline, read the
rows around the chosen element (window.py).
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..features import tag_in
from . import dates
from .byline import byline, label_after, poster_term
from .dateline import dateline
from .window import WINDOW_ROWS, _text_of, text_of

# The shown h1s a page's title is looked for among: a logo, a section name and the
# headline, rarely more.
MAX_HEADLINES = 6
# What a heading ends with besides its words: a permalink's pilcrow or hash (Sphinx,
# Django's docs, GitHub's READMEs).
HEADING_MARKS = re.compile(r"[\s¶#🔗§]+$")


H1 = frozenset(("h1",))


def shown_h1(snap, gone: np.ndarray) -> np.ndarray:
    """The page's h1 rows that are not `gone`, in document order (the h1 rows found once
    per snapshot, by tag code: the title's choice and the headline both ask)."""
    h1 = snap.memo(("h1_rows",), lambda: np.flatnonzero(tag_in(snap, H1)))
    return h1[~gone[h1]]


# Controls a heading may hold whose words are no part of it: a "Copy item path" button
# (rustdoc), a "Copy link" one.
HEADING_CONTROLS = frozenset(("button",))


def heading_text(snap, row: int) -> str:
    """A heading's text without its HEADING_CONTROLS' words (the control rows found once
    per snapshot, by tag code)."""
    controls = snap.memo(("heading_controls",), lambda: tag_in(snap, HEADING_CONTROLS))
    if not controls[row + 1:int(snap.end[row])].any():
        return text_of(snap, row)
    return _text_of(snap, row, "", HEADING_CONTROLS)


def headlines(snap, gone: np.ndarray, node: int) -> list[tuple[str, int]]:
    """The page's first MAX_HEADLINES shown h1s as (text without a permalink mark, a
    control's words or a leading label, the distance of its row from the chosen
    element's top), empty ones left out."""
    rows = shown_h1(snap, gone)[:MAX_HEADLINES]
    out = []
    for row in rows.tolist():
        t = without_label(snap, row, HEADING_MARKS.sub("", heading_text(snap, row)))
        if t:
            out.append((t, abs(row - node)))
    return out


# A class that marks a heading's first element as a label set before the title: a
# forum thread's prefix (XenForo's `<span class="label">News</span>`), a badge.
LABEL_NAMES = re.compile(r"(?:^|[\s_-])(?:label|badge|prefix)(?:$|[\s_-])")
# A label is a word or a few ("Tips/Techniques", "[Vocabulary]", "Info").
MAX_LABEL_WORDS = 3


def without_label(snap, row: int, t: str) -> str:
    """A heading's text `t` without its first element's text when that element is a
    label (LABEL_NAMES, MAX_LABEL_WORDS at most) before any text of the heading's own:
    "<h1><span class=label>News</span>Digital cameras</h1>" is "Digital cameras"."""
    first = row + 1
    if first >= snap.end[row] or snap.parent[first] != row or snap.text[row].strip() \
            or not LABEL_NAMES.search(snap.cls[first].lower()):
        return t
    label = text_of(snap, first)
    if not label or len(label.split()) > MAX_LABEL_WORDS or not t.startswith(label):
        return t
    return t[len(label):].strip() or t


def headline(snap, gone: np.ndarray, node: int) -> str | None:
    """The first shown h1 from the window on, else the page's first shown h1."""
    h1 = shown_h1(snap, gone)
    if not len(h1):
        return None
    after = h1[h1 >= node - WINDOW_ROWS]
    for row in (after.tolist() + h1.tolist())[:4]:
        t = HEADING_MARKS.sub("", heading_text(snap, int(row)))
        if t:
            return t
    return None


class Shown:
    """The fields of what the page shows, each found on first `get` (a page that declares
    its authors and date is never searched for a byline): title (the h1), authors,
    by_line (the names of the nearest "By" line alone), published (a <time> or date line
    near the choice), url_date."""

    def __init__(self, snap, gone: np.ndarray, node: int, us_order=None) -> None:
        self.snap, self.gone, self.node = snap, gone, node
        # a numeric date's order (dates.NumericOrder, merge's): month first for lang
        # en-US when not given
        self.us_order = us_order
        self.found: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        if name not in self.found:
            self.found[name] = self._find(name)
        return self.found[name]

    def _find(self, name: str) -> Any:
        snap, gone, node = self.snap, self.gone, self.node
        declared = snap.meta.get("declared") or {}
        if name == "title":
            return headline(snap, gone, node)
        if name == "headlines":
            return headlines(snap, gone, node)
        if name == "authors":
            links = [r for r, rel, _h in declared.get("links", ()) if "author" in rel.split()]
            return byline(snap, gone, node, links) or label_after(snap, gone, node) \
                or poster_term(snap, gone, node) or None
        if name == "by_line":
            return byline(snap, gone, node, [], only=1) or None
        if name == "published":
            us = self.us_order
            if us is None:
                us = (snap.meta.get("lang") or "").lower().startswith("en-us")
            return dateline(snap, gone, node, declared.get("times", []), us)
        if name == "url_date":
            return dates.from_url(snap.meta.get("url") or "")
        raise KeyError(name)


def fields(snap, gone: np.ndarray, node: int) -> dict[str, Any]:
    """Every field of what the page shows that it shows (Shown, all read)."""
    seen = Shown(snap, gone, node)
    return {k: v for k in ("title", "authors", "published", "url_date") if (v := seen.get(k))}
