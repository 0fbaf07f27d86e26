"""Teaser lists: sibling items that each link to another page of the site under a headline-sized link ("Related stories", "More from <site>", "Most read").

A news page ends its article with lists of other stories: repeated items, each a headline
linking to another page of the same site, often with a date and an excerpt. Their words
look like content (sentences, dates, no furniture names), which is why the block model
kept them; what gives them away is the shape, which this module reads:

- an item is a row among siblings of the same tag and class under one parent (the items
  of a list, the cards of a grid);
- it is a teaser when it holds a link to another page of the page's own site (same
  host, or a relative link; not the page itself, not an in-page anchor, not a script
  link) whose text is at least TEASER_LINK_CHARS characters long — a headline, not "Home"
  or "Next" — and it holds at most TEASER_ITEM_MAX_CHARS characters (a teaser, not a post
  with a link in it);
- a group of items is a teaser list when at least TEASER_MIN_ITEMS of its items are
  teasers and they are at least TEASER_SHARE of its items that hold text.

`teaser_items` gives every row of such a list's items (their subtrees included) the
log of one plus the number of teasers in the list, and 0 elsewhere: a column of the block
model (block_features.py), which weighs it with everything else (a listing page's truth
is such a list). Vectorised over the whole page: no loop over rows.
"""
from __future__ import annotations

import urllib.parse

import numpy as np

from ..features import Features
from ..snapshot import Snapshot

# A headline: a link text shorter than this is a menu entry, a "Read more", a page number.
TEASER_LINK_CHARS = 15
# A teaser is short: a headline, a date, an excerpt of a sentence or two.
TEASER_ITEM_MAX_CHARS = 600
# Two items are a pair, three a list (a "related" box holds three or more).
TEASER_MIN_ITEMS = 3
# Most of the list's items are teasers (a list of paragraphs with one link is not).
TEASER_SHARE = 0.5


# Link targets that are not pages.
_NOT_PAGES = ("javascript:", "mailto:", "tel:", "data:")


def _bare_url(url: str) -> str:
    """A link's target as compared with the page's: no fragment, no "www.", no trailing
    slash, lower case; "" for an in-page anchor."""
    url = url.split("#", 1)[0].lower().replace("://www.", "://", 1)
    return url.rstrip("/")


def _bare_host(host: str) -> str:
    host = host.lower()
    return host[4:] if host.startswith("www.") else host


def site_links(snap: Snapshot, feats: Features) -> np.ndarray:
    """Per row: a link to another page of the page's own site with a headline-sized text."""
    out = np.zeros(snap.n, np.bool_)
    rows = np.flatnonzero((snap.link == 1) & (feats.chars >= TEASER_LINK_CHARS))
    if not len(rows):
        return out
    page_url = snap.meta.get("url") or ""
    page_host = _bare_host(urllib.parse.urlsplit(page_url).hostname or "")
    page = _bare_url(page_url)
    hosts = np.array(list(map(_bare_host, snap.host[rows].tolist())), dtype=object)
    same = (hosts == "") | (hosts == page_host)
    bare = list(map(_bare_url, snap.url[rows].tolist()))   # links only: hundreds, not rows
    other = np.array([u != "" and u != page and not u.startswith(_NOT_PAGES) for u in bare],
                     np.bool_)
    out[rows[same & other]] = True
    return out


def teaser_items(snap: Snapshot, feats: Features) -> np.ndarray:
    """Per row, log(1 + teasers in its list) for the rows inside a teaser list's items
    (see the module docstring), 0 elsewhere."""
    out = np.zeros(snap.n)
    head = site_links(snap, feats)
    if snap.n < 2 or head.sum() < TEASER_MIN_ITEMS:
        return out
    codes, names = snap.tag_codes()
    rows = np.flatnonzero(feats.chars > 0)          # items hold text; the root has no siblings
    rows = rows[rows > 0]
    names_of = snap.cls[rows].tolist()
    ids = {c: i for i, c in enumerate(dict.fromkeys(names_of))}
    cls = np.fromiter(map(ids.__getitem__, names_of), np.int64, len(rows))
    # one integer per (parent, tag, class): siblings alike share it
    key = (snap.parent[rows] * len(names) + codes[rows]) * max(len(ids), 1) + cls
    _, group = np.unique(key, return_inverse=True)
    group = group.ravel()
    chars = feats.chars[rows]
    teaser = (snap.subtree_sum(head.astype(np.int64))[rows] > 0) & (chars <= TEASER_ITEM_MAX_CHARS)
    k = int(group.max()) + 1 if len(group) else 0
    teasers = np.bincount(group, weights=teaser, minlength=k)
    items = np.bincount(group, minlength=k)
    listed = (teasers >= TEASER_MIN_ITEMS) & (teasers >= TEASER_SHARE * np.maximum(items, 1))
    item = np.zeros(snap.n, np.bool_)
    item[rows] = listed[group]
    if not item.any():
        return out
    value = np.zeros(snap.n)
    value[rows] = np.where(listed[group], np.log1p(teasers[group]), 0.0)
    at = snap.nearest(item)                  # the item a row lies in (the root: none)
    return np.where(item[at], value[at], 0.0)
