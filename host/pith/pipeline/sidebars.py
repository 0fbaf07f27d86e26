"""Named sidebars and page headers: a column or a banner a page names by its id or class, which is not the post beside or under it.

A blog puts its sidebar beside the post: the author's profile, a disclaimer widget, a
list of events, an "About me" box. Its lines are often prose, and beside a short post
the block model may judge them as likely content as the post's paragraphs; the vote
landed in the sidebar or the element of highest expected F1 moved there (issue 33's
wrong part: dragnet_train R183, a 43 Rumors post answered with its sidebar's
"Disclaimer" widget, page F1 0.00). A row whose id or a class starts with "sidebar"
(`sidebar`, `sidebar2`, `sidebar-left-1`, `sidebar_primary`: SIDEBAR_NAME) is that
column.

Decisions a change must keep (NOTES.md, 'Why a named sidebar is not the post'):
- only a name that is the word, with at most a side or rank and a number:
  "has-sidebar", "no-sidebar", "with-sidebar" (a property of the page),
  "content-sidebar-wrap", "right-sidebar", "sidebar-layout" and "sidebar-content" (a
  theme's wrapper of the post and its sidebar) do not; "widget" alone does not either
  (many WordPress themes wrap the post itself in widget classes); nor does a named row
  holding the page's `main` or an `article` (Django's "container sidebar-right");
- in the vote it is furniture, as an aside is (algorithms/auto.py): it counts for
  nothing in the agreement, a proposal inside it cannot win while one outside can, and
  inside the winner it is dropped unless it holds nearly all of it;
- its blocks are judged no content before the element is chosen, as a comment thread's
  and a teaser list's are (select.choose_by_blocks), unless it holds the headline or,
  without one, the vote's element: a theme that wraps the post in a sidebar-named row
  keeps it;
- a row whose id or a class is the word "header" (HEADER_NAME: `header`, `header2`) is
  the page's banner, judged as a named sidebar is when option `auto_page_headers` is on
  (`headers`): an old blog's `div#header` holds its name and its tagline, and a
  tagline of a few sentences outweighed a short post under it (NOTES.md, 'Why a named
  page header is not the post'). "page-header", "entry-header", "article-header" name
  a post's own title area and do not count; the headline's or the vote's element's
  holder keeps it, as a sidebar's does.
"""
from __future__ import annotations

import re

import numpy as np

from .features import containing, role_codes, tag_in
from .snapshot import Snapshot

# An id or a class (lower-cased) naming a sidebar: the word, with at most a side or rank
# and a number ("sidebar", "sidebar2", "sidebar-left-1", "sidebar_primary"); a part after
# it names something else ("sidebar-layout", "sidebar-content": a theme's wrapper of the
# post and its sidebar; "sidebar-block", one widget of it).
SIDEBAR_NAME = re.compile(r"(?:^|\s)sidebar(?:[-_]?(?:left|right|primary|secondary))?"
                          r"(?:[-_]?\d+)?(?=\s|$)")
# An id or a class (lower-cased) naming the page's banner: the word, with at most a number
# ("header", "header2"); a part before or after it names a post's title area
# ("page-header", "entry-header") or one piece of the banner ("header-inner").
HEADER_NAME = re.compile(r"(?:^|\s)header(?:[-_]?\d+)?(?=\s|$)")
# Tags whose row inside a sidebar-named one makes it the page's layout, not a sidebar: the
# page's main landmark or its article ("container sidebar-right" holding Django's docs).
MAIN_TAGS = frozenset({"main", "article"})
# The word every name SIDEBAR_NAME reads holds (lower-cased): a string without it is not read.
SIDEBAR_WORD = ("sidebar",)
# ... and every name HEADER_NAME reads.
HEADER_WORD = ("header",)


def named(snap: Snapshot) -> np.ndarray:
    """Rows whose id or a class names a sidebar (SIDEBAR_NAME, any case) and which hold
    no `main` or `article` (MAIN_TAGS) nor a row whose role is main."""
    return snap.memo(("sidebars",), lambda: _named(snap, SIDEBAR_NAME, SIDEBAR_WORD))


def headers(snap: Snapshot) -> np.ndarray:
    """Rows whose id or a class names the page's banner (HEADER_NAME, any case) and which
    hold no `main` or `article` nor a row whose role is main (a theme's "header" row
    wrapping the whole page is its layout)."""
    return snap.memo(("page headers",), lambda: _named(snap, HEADER_NAME, HEADER_WORD))


def _named(snap: Snapshot, name: re.Pattern, word: tuple[str, ...]) -> np.ndarray:
    # each distinct id and class string holding the `word` tested once
    # (Snapshot.string_codes; NOTES.md, 'Why the line rules search a page's texts at
    # once'), the rows follow their string's answer
    out = np.zeros(snap.n, np.bool_)
    for column in ("id", "cls"):
        codes, strings = snap.string_codes(column)
        found = containing(strings, word)
        if len(found):
            hit = np.zeros(len(strings), np.bool_)
            hit[found] = [name.search(strings[i].lower()) is not None
                          for i in found.tolist()]
            out |= hit[codes]
    if out.any():
        # a named row holding the page's main landmark or an article is its layout
        codes, roles = role_codes(snap)
        mains = tag_in(snap, MAIN_TAGS) | (roles == "main")[codes]
        if mains.any():
            out &= snap.subtree_sum(mains.astype(np.int64)) == 0
    return out


def left_out(snap: Snapshot, blocks, keep: np.ndarray, p: np.ndarray,
             rows: np.ndarray | None = None) -> np.ndarray:
    """`p` (per block of `blocks`) with the blocks inside a named sidebar (or the rows
    `rows`: `headers`) that is not one of the rows `keep` (bool per row: the headline's
    or the vote's element's holders) judged no content; `p` itself when there is none."""
    rows = (named(snap) if rows is None else rows) & ~keep
    if not rows.any():
        return p
    inside = snap.subtrees(np.flatnonzero(rows & ~snap.below(rows)))[blocks.rows]
    return np.where(inside, 0.0, p) if inside.any() else p
