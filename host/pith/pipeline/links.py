"""Links leading off the page: which rows are such links, and which rows' text lies in them (a linked title, a linked name)."""
from __future__ import annotations

import numpy as np

from .features import Features
from .snapshot import Snapshot

# A heading or a card is linked when at least this share of its visible text lies inside
# links leading off the page: a title made a link whole, with room for a counter or an
# icon's label beside it.
LINKED_SHARE = 0.8


def away_links(snap: Snapshot) -> np.ndarray:
    """Bool per row: a link (`a`/`area` with an href) leading off the page, not to a
    place on it (`#section`, the page's own address with a fragment)."""
    rows = np.flatnonzero(snap.link > 0)
    out = np.zeros(snap.n, np.bool_)
    if not len(rows):
        return out
    page = str(snap.meta.get("url") or "").partition("#")[0]
    urls = snap.url[rows].tolist()
    here = [u.startswith("#") or (("#" in u) and u.partition("#")[0] == page) for u in urls]
    out[rows[~np.array(here, np.bool_)]] = True
    return out


def linked(snap: Snapshot, feats: Features) -> np.ndarray:
    """Bool per row (read-only): at least LINKED_SHARE of its visible text (at least one
    character) lies inside links leading off the page. Found once per page: the teasers
    and the listed items' names (cards) both read it, and `away_links` reads every link's
    address in Python."""
    return feats.memo(("linked",), lambda: _linked(snap, feats))


def _linked(snap: Snapshot, feats: Features) -> np.ndarray:
    away = away_links(snap)
    if not away.any():
        return away
    inside = away | snap.below(away)
    chars = snap.subtree_sum(np.where(inside & ~feats.gone, feats.own_chars, 0))
    return (feats.chars > 0) & (chars >= LINKED_SHARE * feats.chars)
