"""Adjacent repeats: a block whose text is the text of the block just before it (a carousel's clone, a layout's second copy, a photo credit under every picture), which the reader needs once.

Decisions a change must keep (NOTES.md, 'Why a line said twice in a row is read once'):
- only the next text block, whitespace aside, a line of REPEAT_CHARS to REPEAT_MAX_CHARS
  characters: "Credit: The Spruce Eats" under twelve pictures in a row, a carousel's cards
  each written twice; a paragraph said twice is the copied-passage rule's;
- of a run of copies the one the model judges likeliest stays as judged (a layout's
  shown copy may be the second), the others are judged no content.
"""
from __future__ import annotations

import dataclasses

import numpy as np

# A line said twice in a row is a copy when it holds at least this many characters: a
# credit line ("Credit: The Spruce Eats", 23) or a card's title; a table's "Yes" / "Yes"
# cells or a pricing grid's "Unlimited" are shorter.
REPEAT_CHARS = 20
# ... and at most this many: a line (a credit, a caption, a card's title and its one
# sentence; CrowdStrike's cards 150). A paragraph said twice is left to the copied-passage
# rule (blocks.keep.copies, 'Why the block stage drops copied passages'), which keeps one
# paragraph said twice on purpose; Readability's test pages repeat a 450-character
# paragraph and their truths keep every copy.
REPEAT_MAX_CHARS = 200


def later_copies(texts: list[str], chars: np.ndarray) -> np.ndarray:
    """Bool per block: its text (whitespace collapsed, as segment.texts gives them; REPEAT_CHARS to
    REPEAT_MAX_CHARS characters) is the previous text block's."""
    at = np.flatnonzero(chars > 0)
    out = np.zeros(len(texts), bool)
    if len(at) < 2:
        return out
    # equal texts are of equal length: only line-long texts as long as the text before
    # them are compared (NOTES.md, 'Why the line rules search a page's texts at once')
    size = np.fromiter(map(len, texts), np.int64, len(texts))[at]
    pair = ((size[1:] == size[:-1]) & (size[1:] >= REPEAT_CHARS)
            & (size[1:] <= REPEAT_MAX_CHARS)).nonzero()[0]
    if len(pair):
        same = [texts[b] == texts[a]
                for a, b in zip(at[pair].tolist(), at[pair + 1].tolist())]
        out[at[pair + 1][np.array(same, bool)]] = True
    return out


def without(page, blocks):
    """`page` (keep.Judged) with every copy of a run but the one the model judges likeliest
    (the first of those, on a tie) judged no content: a shop writes a name three times,
    once per layout, and the model keeps the copy its layout shows; as it is when there is
    no run."""
    copies = later_copies(page.texts, blocks.chars)
    if not copies.any():
        return page
    at = np.flatnonzero(blocks.chars > 0)
    later = copies[at]
    starts = np.flatnonzero(~later)
    run = np.cumsum(~later) - 1                       # each text block's run
    q = page.p[at]
    top = q == np.maximum.reduceat(q, starts)[run]    # at its run's best
    seen = np.cumsum(top)
    first_top = top & (seen - (seen - top)[starts][run] == 1)
    repeated = np.bincount(run)[run] > 1
    p = page.p.copy()
    p[at[repeated & ~first_top]] = 0.0
    return dataclasses.replace(page, p=p)
