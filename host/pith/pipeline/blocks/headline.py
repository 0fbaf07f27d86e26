"""The page's headline — the first h1 (else h2) whose words are the document title's — and, per row, where it stands to it.

A post starts at its headline: the sidebar list, the "popular posts" and the comment
thread that can hold more text than a short post lie beside or after the headline's
container, not in it. The title of the document (`<title>`, which the snapshot carries;
it usually reads "Headline | Site") names the headline: a heading is the headline when
at least TITLE_MATCH of its words are words of the title and it has MIN_WORDS words or
more (a one-word "Menu" is in many titles); of several, the one matching most of the
title's words.

`headline_columns` gives the block model two columns per row: whether the row comes at
or after the headline in document order, and the share of the page's text held by the
lowest common ancestor of the row and the headline (small inside the post's own
container, near 1 for a sidebar or a footer); -1 for both on a page without a headline.
"""
from __future__ import annotations

import re

import numpy as np

from ..features import Features
from ..snapshot import Snapshot

# Share of a heading's words that must be words of the title.
TITLE_MATCH = 0.6
# Fewer words than this say too little to name the headline.
MIN_WORDS = 2
# The tags a headline is looked for in, the first preferred on a tie (many blogs set the
# site name as h1 and the post's title as h2: the match decides first).
HEADLINE_TAGS = (("h1",), ("h2",))
# Headings of a tag read at most (a page of a thousand h2 is a listing, not a post).
MAX_HEADINGS = 50
# Words a title is read in: runs of letters and digits, lower-cased.
_WORD = re.compile(r"\w+")


def heading_text(snap: Snapshot, row: int) -> str:
    """The text inside `row`: its rows' text and the tails of the rows below it."""
    end = int(snap.end[row])
    return " ".join([str(snap.text[row])] + [f"{t} {s}" for t, s in zip(
        snap.text[row + 1:end].tolist(), snap.tail[row + 1:end].tolist())])


def headline(snap: Snapshot, feats: Features) -> int:
    """The headline's row, -1 when no heading matches the title: of the h1 and h2 rows
    whose words are the title's, the one matching most of the title's words (a site name
    set as h1 matches fewer than the post's title), an h1 before an h2, the first of
    equals."""
    title = set(_WORD.findall(str(snap.meta.get("title") or "").lower()))
    if not title:
        return -1
    codes, names = snap.tag_codes()
    best, best_key = -1, (0, 0)
    for rank, tags in enumerate(HEADLINE_TAGS):
        wanted = [code for code, name in enumerate(names) if name in tags]
        rows = np.flatnonzero(np.isin(codes, wanted) & (feats.chars > 0))[:MAX_HEADINGS]
        for row in rows.tolist():
            words = _WORD.findall(heading_text(snap, row).lower())
            if len(words) < MIN_WORDS:
                continue
            hits = sum(w in title for w in words)
            key = (len(title & set(words)), -rank)
            if hits >= TITLE_MATCH * len(words) and key > best_key:
                best, best_key = row, key
    return best


def headline_columns(snap: Snapshot, feats: Features, head: int,
                     rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(at or after the headline, the share of the page's text in the lowest common
    ancestor of the row and the headline) for `rows`; -1 both without a headline."""
    if head < 0:
        return np.full(len(rows), -1.0), np.full(len(rows), -1.0)
    path = [head]
    while snap.parent[path[-1]] >= 0:
        path.append(int(snap.parent[path[-1]]))
    path = np.array(path[::-1], np.int64)                   # root ... headline
    inside = (rows[:, None] >= path[None, :]) & (rows[:, None] < snap.end[path][None, :])
    lca = path[np.maximum(inside.sum(axis=1) - 1, 0)]       # nested: the deepest holding it
    share = feats.chars[lca] / max(float(feats.chars[0]), 1.0)
    return (rows >= head).astype(np.float64), share.astype(np.float64)
