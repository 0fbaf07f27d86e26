"""The rows around the chosen element and how they are searched: a subtree's text, the rows' strings in one pattern pass, the page's texts.

The byline and the date line look for their candidates in the rows around the chosen
element (WINDOW_ROWS before its top and after it, and the last WINDOW_ROWS of it: an author
box at the end of the text), in one regular-expression pass per column (the rows' strings
joined, each match mapped back to its row: no Python loop over rows), then rank them by
their distance to the element's top. Rows that are code or hidden are not read.
"""
from __future__ import annotations

import re

import numpy as np

from ..codes import ascending_distinct, used
from ..features import column_lengths, lower_in_place, string_lengths, tag_in

# Rows before the chosen element that count as "its top": a header of a headline, a
# byline, a date and share buttons runs to a hundred rows or two.
WINDOW_ROWS = 300
# A byline element holds a name or two: more rows than this is an author box or a list.
MAX_BYLINE_ROWS = 30
# Rows after the chosen element read for a date line when none is above it or inside.
AFTER_ROWS = 300
# Candidates read before giving up (each costs a subtree's text).
MAX_TRIES = 12


def text_of(snap, row: int, sep: str = "") -> str:
    """The text of `row`'s subtree (text and tails in document order), whitespace
    collapsed; `sep` "\n" puts a newline between the texts of different elements (a
    byline's name and date in two spans, which a static snapshot cannot tell apart from
    one word), collapsing the rest of the whitespace of each line. Found once per
    snapshot, row and `sep` (Snapshot.subtree_texts)."""
    cache = snap.subtree_texts()
    key = (int(row), sep)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _text_of(snap, int(row), sep)
    return got


def _text_of(snap, row: int, sep: str, skip: frozenset[str] = frozenset()) -> str:
    """`text_of` uncached; the subtrees of `skip`'s tags left out (their tails kept)."""
    end = int(snap.end[row])
    text, tail, stop, tag = snap.text, snap.tail, snap.end, snap.tag
    parts = [text[row]]
    open_ends: list[tuple[int, int]] = []
    skipped_to = 0
    for j in range(row + 1, end):
        if j < skipped_to:
            continue
        while open_ends and open_ends[-1][0] <= j:
            parts.append(tail[open_ends.pop()[1]])
        if tag[j] in skip:
            skipped_to = int(stop[j])
        else:
            parts.append(" " if tag[j] == "br" else text[j])     # a line break is a space
        open_ends.append((int(stop[j]), j))
    while open_ends:
        parts.append(tail[open_ends.pop()[1]])
    if sep == "\n":
        return "\n".join(x for x in (" ".join(p.split()) for p in parts) if x)
    return " ".join(sep.join(parts).split())


def matching_rows(snap, column: str, rx: re.Pattern, rows: np.ndarray) -> np.ndarray:
    """Rows of `rows` whose lower-cased `column` string matches `rx`: one search over the
    strings joined, each after a newline (a match is mapped to the row it starts in)."""
    return Rows(snap, column, rows).matching(rx)


class Rows:
    """Rows whose `column` strings several patterns search (`matching`): the strings picked,
    joined and lower-cased once (Searched), the first time a pattern asks (the byline's "By"
    lines and its credit sentences search the same short texts). With `blank_empty`, a
    string of whitespace alone is searched as "" (`blank_emptied`)."""

    def __init__(self, snap, column: str, rows: np.ndarray, blank_empty: bool = False) -> None:
        self.snap, self.column, self.rows = snap, column, rows
        self.blank_empty = blank_empty
        self.searched: Searched | None = None

    def matching(self, rx: re.Pattern) -> np.ndarray:
        """The rows whose lower-cased string matches `rx` (matching_rows's answer)."""
        if not len(self.rows):
            return np.zeros(0, np.int64)
        if self.searched is None:
            strings = self.snap.cols[self.column][self.rows]
            if self.blank_empty:
                strings = blank_emptied(strings, column_lengths(self.snap, self.column)[self.rows])
            self.searched = Searched(strings.tolist())
        return self.rows[self.searched.find(rx)]


def blank_emptied(strings: np.ndarray, solid: np.ndarray) -> np.ndarray:
    r"""`strings` (an object array) with those of no character but whitespace (`solid`, their
    non-space counts: features.column_lengths, counted once a snapshot) made "": the text a
    search of the byline's short texts reads is a third as long, its engine tries no blank
    string's inner newlines (a page's layout whitespace between tags is most of its short
    texts), and every one of those patterns finds the same strings: none starts a match in
    whitespace, each string keeps its own newline before it (a "By" line's match that takes
    the newline after it takes no later string's), and between two strings there is
    whitespace still, as much as `\s+`, `\b` and `[ \t\n]` ask (str.isspace is both the
    count's whitespace and `\s`; tests/test_metadata_window.py compares the two searches).
    NOTES.md, 'Why blank short texts are not searched'."""
    blank = solid == 0
    if not blank.any():
        return strings
    out = strings.copy()
    out[blank] = ""
    return out


def matching_names(snap, column: str, rx: re.Pattern, rows: np.ndarray) -> np.ndarray:
    """`matching_rows` for a pattern that never reads a newline, over a column whose rows
    repeat their strings (class and id names: the window `around` a page's element holds
    a median 353 rows, 54 distinct classes and 20 distinct ids on the shared datasets'
    pages): each distinct string is searched once (its number on the snapshot,
    Snapshot.string_codes), and its rows follow its answer."""
    return Names(snap, column, rows).matching(rx)


class Names:
    """`rows`' distinct `column` names (matching_names's), numbered, joined and lower-cased
    once for every pattern that searches them (`matching`)."""

    def __init__(self, snap, column: str, rows: np.ndarray) -> None:
        codes, self.strings = snap.string_codes(column)
        self.rows = rows
        self.code = codes[rows]
        self.distinct = used(self.code, len(self.strings))
        self.searched = Searched([self.strings[i] for i in self.distinct.tolist()])

    def matching(self, rx: re.Pattern) -> np.ndarray:
        """The rows whose lower-cased name matches `rx` (matching_names's answer)."""
        if not len(self.rows):
            return np.zeros(0, np.int64)
        hit = np.zeros(len(self.strings), np.bool_)
        hit[self.distinct[self.searched.find(rx)]] = True
        return self.rows[hit[self.code]]


def window_names(snap, column: str, node: int) -> Names:
    """The distinct `column` names of the rows `around` `node`, prepared once per snapshot
    and element: the byline's class words and the date line's search the same window."""
    return snap.memo(("window_names", column, int(node)),
                     lambda: Names(snap, column, around(snap, node)))


def matching_strings(strings: list[str], rx: re.Pattern, lower: bool = True) -> np.ndarray:
    """Indices of the `strings` whose lower-cased text (as written, `lower` False) matches
    `rx`: one search over the strings joined, each after a newline (a match is mapped to
    the string it starts in)."""
    return Searched(strings, lower).find(rx)


class Searched:
    """`strings` joined, each after a newline, and lower-cased (as written, `lower` False)
    once, for every pattern `find` is asked with."""

    def __init__(self, strings: list[str], lower: bool = True) -> None:
        big = "\n" + "\n".join(strings)
        if lower and big.isascii():                     # a flag Python keeps: no scan
            big = big.lower()
        elif lower:
            # each string lower-cased alone: one holding a character beyond ASCII takes
            # str.lower's slow path, not the whole text with it; the same text unless a
            # string grows (İ), and then lower_in_place keeps the positions
            low = "\n" + "\n".join(map(str.lower, strings))
            big = low if len(low) == len(big) else lower_in_place(big)
        self.strings, self.big = strings, big
        self.starts: np.ndarray | None = None   # each string's place in `big`, on a first hit

    def find(self, rx: re.Pattern) -> np.ndarray:
        """Indices of the strings `rx` matches (a match is mapped to the string it starts in)."""
        hits = [m.start() for m in rx.finditer(self.big)]
        if not hits:
            return np.zeros(0, np.int64)
        if self.starts is None:
            lengths = np.fromiter(map(len, self.strings), np.int64, len(self.strings)) + 1
            self.starts = lengths.cumsum() - lengths
        return ascending_distinct(self.starts.searchsorted(hits, side="right") - 1)   # hits ascend


def around(snap, node: int) -> np.ndarray:
    """The rows looked at: WINDOW_ROWS before the chosen element's top and after it, and
    its last WINDOW_ROWS."""
    end = int(snap.end[node])
    top = np.arange(max(0, node - WINDOW_ROWS), min(end, node + WINDOW_ROWS))
    bottom = np.arange(max(node + WINDOW_ROWS, end - WINDOW_ROWS), end)
    return np.concatenate([top, bottom])


def short_rows(snap, column: str, rows: np.ndarray, limit: int) -> np.ndarray:
    """The rows of `rows` whose `column` string is 1..limit characters long (the
    snapshot's lengths, counted once: features.string_lengths)."""
    lengths = string_lengths(snap, column)[rows]
    return rows[(lengths > 0) & (lengths <= limit)]


def near(snap, node: int, rows: np.ndarray) -> np.ndarray:
    """`rows` inside the chosen element or up to WINDOW_ROWS before it, nearest its top
    first (before it: by distance up; inside: by distance down)."""
    if not len(rows):
        return rows                # none: the same empty array, without five numpy calls
    lo, hi = node - WINDOW_ROWS, int(snap.end[node])
    rows = rows[(rows >= lo) & (rows < hi)]
    return rows[np.abs(rows - node).argsort(kind="stable")]


def page_text(snap) -> str:
    """Every text and tail of the page, a newline apart (joined once a page, and only when
    asked: a numeric date's order, dates.NumericOrder; whether a declared author is shown,
    merge.unshown). Its own join, not the features' counts' kept (NOTES.md, 'Why the
    metadata joins the page's text itself')."""
    return snap.memo(("page_text",), lambda: "\n".join(snap.cols["text"].tolist()
                                                         + snap.cols["tail"].tolist()))


# Where a page names itself besides its title: its banner and its footer ("© Site").
SITE_PLACE_TAGS = frozenset(("header", "footer"))
SITE_PLACE_ROLES = ("banner", "contentinfo")
# Rows of a header or footer read for the site's name (a mega-footer is a sitemap).
MAX_PLACE_ROWS = 2000


def site_places_text(snap, gone: np.ndarray) -> str:
    """The folded text of the page's shown headers and footers (tags and ARIA roles)."""
    rows = np.flatnonzero((tag_in(snap, SITE_PLACE_TAGS) | np.isin(snap.role, SITE_PLACE_ROLES))
                          & ~gone & (snap.end - np.arange(snap.n) <= MAX_PLACE_ROWS))
    return " ".join(text_of(snap, int(r)) for r in rows[:10]).casefold()
