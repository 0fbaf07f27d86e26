"""Listed items' cards: a short link between two kept blocks of a listing is kept too (an item's title between its rank and its score), a card's button label is not.

A listing's or a collection's items are cards: the item's name, a link to its own page,
with a rank, a price, a score or a line of summary. The block model, fitted over all page
types, doubts a short linked line (a menu's entry looks the same): on the training sites
it kept every item's rank and score of a software ranking but judged each product's name
0.05 to 0.25 likely content, and left it out (a shop's brand line above each product's
name too, but it repeats on every card like a button's label, and stays out). The reader
got "1. 9.1 2. 9.0" without the names. A link whose neighbours in reading order, the text
blocks just before and after it, are both kept is part of what is kept, not a menu beside
it: a menu's entries sit among other entries, not between two kept lines.

Decisions a change must keep (NOTES.md, 'Why a listed item keeps its name'):
- only on a page the page type model calls a listing or a collection (pagetype.classify,
  the method's element; its most likely class, LISTED): an article's link line between two
  paragraphs ("Read more: ...") is another story's teaser, which readers leave out;
- only a text block whose text is a link leading off the page (links.linked) of at most
  NAME_MAX_CHARS visible characters, holding a letter (a count, "6207", links to reviews),
  whose text no other block repeats ("Add to Cart", "Compare": a card's buttons), both of
  whose neighbouring text blocks in the scope are kept; the first and the last text block
  of the scope have one neighbour and stay as decided.

A card's controls are left out (`controls`; NOTES.md, 'Why a listed card's buttons are left
out'): a text block that is the whole label of a shop card's button or toggle ("Add to
cart", "Compare", "+ Wishlist", "Quick view"; CONTROL_LABEL), only on those page types too.
The block model kept them between the cards' lines; the training truths of listings and
collections never keep one.
"""
from __future__ import annotations

import re

import numpy as np

from . import links, pagetype
from .codes import first_seen
from .features import Features
from .snapshot import Snapshot

# The page types (pagetype.CLASSES) whose pages are their items' cards.
LISTED = frozenset({"listing", "collection"})
# An item's name is a line (a product's, a book's, a film's title); a longer link is an
# excerpt or a teaser's sentence, which the block model judges as it judges text.
NAME_MAX_CHARS = 120
# A card's control: the whole text of a block (lower-cased, spaces collapsed) that is a
# shop card's button or toggle label. Only labels the training truths of listings and
# collections never keep: "Shop now", "Learn more" and "Sold out" are kept by some sites'
# truths and stay (NOTES.md, 'Why a listed card's buttons are left out').
CONTROL_LABEL = re.compile(
    r"^\+?\s?(?:add to (?:cart|bag|basket|wishlist|compare)|wishlist|compare|quick ?view"
    r"|view details|(?:select|choose) options)$")


def between(keep: np.ndarray, has_text: np.ndarray, linked: np.ndarray,
            chars: np.ndarray, texts: list[str]) -> np.ndarray:
    """Per block (in reading order, `texts` their texts): a text block that is `linked`,
    of at most NAME_MAX_CHARS `chars`, holding a letter, whose text no other block
    repeats, and whose previous and next text blocks are both kept."""
    text = has_text.nonzero()[0]
    out = np.zeros(len(keep), np.bool_)
    if len(text) < 3:
        return out
    kt = keep[text]
    mid = np.zeros(len(text), np.bool_)
    mid[1:-1] = kt[:-2] & kt[2:]
    out[text] = mid & linked[text] & (chars[text] <= NAME_MAX_CHARS)
    if not out.any():               # most pages: no text is read
        return out
    code = first_seen([t.lower() for t in texts], len(texts))
    out &= np.bincount(code, minlength=len(texts))[code] == 1
    at = out.nonzero()[0]        # a name is words: a count ("6207") is a link to reviews
    out[at] = [any(c.isalpha() for c in texts[i]) for i in at.tolist()]
    return out


def names(snap: Snapshot, feats: Features, node: int, rows: np.ndarray, keep: np.ndarray,
          has_text: np.ndarray, chars: np.ndarray, texts: list[str]) -> np.ndarray:
    """`keep` (per block, `rows` their rows in reading order) with the listed items' names
    `between` kept blocks kept too, on a page the page type model calls a listing or a
    collection (`node` the method's element); `keep` as it is on any other page."""
    link = links.linked(snap, feats)[rows]
    add = between(keep, has_text, link, chars, texts) & ~keep
    if not add.any():
        return keep
    kind = pagetype.classify(snap, feats, node)
    if kind is None or kind[0] not in LISTED:
        return keep
    return keep | add


def control_labels(texts: list[str]) -> np.ndarray:
    """Bool per block text: the whole text is a card's control label (CONTROL_LABEL)."""
    out = np.zeros(len(texts), np.bool_)
    for i, text in enumerate(texts):    # a regular expression per short block
        if 0 < len(text) <= 40:
            out[i] = CONTROL_LABEL.match(" ".join(text.split()).lower()) is not None
    return out


def controls(snap: Snapshot, feats: Features, node: int, keep: np.ndarray,
             texts: list[str]) -> np.ndarray:
    """`keep` (per block, `texts` their texts) without the kept cards' control labels
    (`control_labels`), on a page the page type model calls a listing or a collection
    (`node` the method's element); `keep` as it is on any other page."""
    drop = keep & control_labels(texts)
    if not drop.any():
        return keep
    kind = pagetype.classify(snap, feats, node)
    if kind is None or kind[0] not in LISTED:
        return keep
    return keep & ~drop
