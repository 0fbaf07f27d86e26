"""Blocks: the leaf-level units of content a page is read in, computed over a Snapshot.

A block is a *block-level* row together with the text it owns: its own text nodes and
those of its inline descendants (links, spans, emphasis, images), down to the next
block-level row, which owns its own. The choices, one per case:

- block-level rows (`BLOCK_LEVEL`, tags.py): paragraphs, headings, list items (`li`, `dt`, `dd`),
  table rows and cells, `pre`, figures and their captions, quotes, and every container
  (`div`, `section`, `article`). A container's own text — "a text run directly inside a
  div", including runs split by `<br>` — is one block, owned by the container, between
  the blocks of its children;
- atomic rows (`ATOMIC`): `p`, `h1`–`h6`, `pre`, `figure`, `blockquote` and data tables
  are one block each with everything inside them (a `div` a script put inside a `p`, a
  figure's image with its caption, a quote's paragraphs): a reader keeps or drops them
  whole;
- in a layout table each cell is a block (its direct text; the paragraphs it holds are
  blocks of their own): the columns of a table-laid-out page are a sidebar and an
  article, not one row of content;
- a data table (a `table` with a `th`, `caption` or `thead`, no table inside it and no
  block-level row in its cells) is one block: its rows mean nothing apart; any other
  table is a layout table;
- form widgets (button, select, input, textarea, …) and everything inside them own no
  text, as the renderer shows none of it; code and hidden rows own none either
  (features.gone);
- a block exists when it owns visible characters or a visible image with a source
  (`img` rows with a url): an image-only block is content a text truth cannot label;
- a displayed formula (a `math` row the capture marks displayed, math.py) is a block of
  its own, as the page shows it: between paragraphs, not part of its container's text.

Everything is computed with numpy over the preorder arrays: `owner` per row by pointer
doubling (Snapshot.nearest), per-block sums with bincount.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import math as math_mod
from ..features import Features, filled, tag_in
from ..snapshot import Snapshot
from ..tags import BLOCK_LEVEL, HEADINGS, TABLE_PARTS, WIDGET_TAGS

# Block-level rows that own everything inside them.
ATOMIC = frozenset({"p", "pre", "figure", "blockquote", "listing", "plaintext", "xmp"}) | HEADINGS
# What makes a table a data table (with no table nested inside it).
DATA_TABLE_MARKS = frozenset({"th", "caption", "thead"})


@dataclass(frozen=True, eq=False)
class Blocks:
    """The blocks of one snapshot. `rows` are block rows in document order; per-row
    arrays have the snapshot's length, per-block arrays that of `rows`."""

    owner: np.ndarray      # per row: the block-level row whose block its own text joins
    shown: np.ndarray      # per row: its own text and images are shown (not gone, no widget)
    rows: np.ndarray       # block rows (own characters or an image), document order
    chars: np.ndarray      # per block: visible non-space characters it owns
    linked: np.ndarray     # per block: of those, characters inside links
    links: np.ndarray      # per block: links (a rows with href) it owns
    images: np.ndarray     # per block: visible images with a source it owns
    pieces: np.ndarray     # per block: non-blank text nodes it owns
    data: np.ndarray       # per row: a data table (data_tables)

    @property
    def count(self) -> int:
        return len(self.rows)

    def index(self, n: int) -> np.ndarray:
        """Per row of the snapshot, its block's position in `rows` (-1 for rows of no block)."""
        at = np.full(n, -1, np.int64)
        at[self.rows] = np.arange(len(self.rows))
        return at


def data_tables(snap: Snapshot) -> np.ndarray:
    """Rows that are data tables: a th, caption or thead inside, no nested table, and no
    block-level row inside but the table's own parts (cells hold inline content only)."""
    tables = tag_in(snap, frozenset({"table"}))
    if not tables.any():
        return tables
    marks = snap.subtree_sum(tag_in(snap, DATA_TABLE_MARKS).astype(np.int64))
    other = tag_in(snap, BLOCK_LEVEL - TABLE_PARTS) | tables
    inner = snap.subtree_sum(other.astype(np.int64))
    return tables & (marks > 0) & (inner == 1)


def compute(snap: Snapshot, feats: Features) -> Blocks:
    """The blocks of `snap` (see the module docstring for what a block is), computed once
    per page (the element choice by expected F1 and the block stage both read them)."""
    return feats.memo(("blocks",), lambda: _compute(snap, feats))


def _compute(snap: Snapshot, feats: Features) -> Blocks:
    data = data_tables(snap)
    atomic = tag_in(snap, ATOMIC) | data
    level = (tag_in(snap, BLOCK_LEVEL) | atomic | math_mod.displayed_rows(snap)) & ~snap.below(atomic)
    level[0] = True
    owner = snap.nearest(level)

    widget = tag_in(snap, WIDGET_TAGS)
    shown = ~feats.gone & ~(widget | snap.below(widget))
    own = np.where(shown, feats.own_chars, 0)
    n = snap.n
    chars = np.bincount(owner, weights=own, minlength=n)
    linked = np.bincount(owner, weights=np.where(feats.in_link, own, 0), minlength=n)
    links = np.bincount(owner, weights=snap.link & shown, minlength=n)
    image = shown & tag_in(snap, IMG) & filled(snap, "url")
    images = np.bincount(owner, weights=image, minlength=n)
    pieces = np.bincount(owner, weights=np.where(shown, feats.own_texts, 0), minlength=n)
    rows = np.flatnonzero(level & ((chars > 0) | (images > 0)))
    return Blocks(owner=owner, shown=shown, rows=rows,
                  chars=chars[rows].astype(np.int64), linked=linked[rows].astype(np.int64),
                  links=links[rows].astype(np.int64), images=images[rows].astype(np.int64),
                  pieces=pieces[rows].astype(np.int64), data=data)


def pieces(snap: Snapshot, blocks: Blocks,
           which: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """The text nodes of the blocks at `which` (positions in blocks.rows; all by
    default) in reading order: (index into `which` per piece, the piece's string). A
    container's runs before and after its child blocks stay where they are read."""
    want = np.full(len(blocks.rows), -1, np.int64)
    sel = np.arange(len(blocks.rows)) if which is None else np.asarray(which, np.int64)
    want[sel] = np.arange(len(sel))
    at = blocks.index(snap.n)
    blk_text = np.where(at[blocks.owner] >= 0, want[np.maximum(at[blocks.owner], 0)], -1)
    blk_tail = np.concatenate(([-1], blk_text[snap.parent[1:]]))  # a tail is its parent's
    shown_parent = np.concatenate(([False], blocks.shown[snap.parent[1:]]))
    t_rows = np.flatnonzero(blocks.shown & (blk_text >= 0) & filled(snap, "text"))
    l_rows = np.flatnonzero(shown_parent & (blk_tail >= 0) & filled(snap, "tail"))
    # reading order: text[i] at i, tail[i] once i's subtree is done (deeper tails first)
    pos = np.concatenate((t_rows, snap.end[l_rows]))
    stage = np.concatenate((np.zeros(len(t_rows)), -np.ones(len(l_rows))))
    deep = np.concatenate((np.zeros(len(t_rows)), -snap.depth[l_rows]))
    order = np.lexsort((deep, stage, pos))
    blk = np.concatenate((blk_text[t_rows], blk_tail[l_rows]))[order]
    strings = np.concatenate((snap.text[t_rows], snap.tail[l_rows]))[order]
    return blk, strings.tolist()


def texts(snap: Snapshot, blocks: Blocks, which: np.ndarray | None = None) -> list[str]:
    """The text each block at `which` owns (all by default): its text nodes joined in
    reading order, spaces collapsed. The pieces are put in block order by one stable
    sort (reading order kept within a block) and each block joins its run of them: no
    Python step a piece (NOTES.md, 'Why the stages read tags by their codes')."""
    blk, strings = pieces(snap, blocks, which)
    k = len(blocks.rows) if which is None else len(which)
    ordered = np.array(strings, dtype=object)[np.argsort(blk, kind="stable")].tolist()
    out, start = [], 0
    for stop in np.cumsum(np.bincount(blk, minlength=k)).tolist():
        out.append(" ".join(" ".join(ordered[start:stop]).split()))
        start = stop
    return out


# An inline SVG smaller than this on either side (CSS px) is an icon, not a figure (the
# reader's collector, extension/inject/collect.js MIN_FIGURE_PX, draws the same line).
MIN_FIGURE_PX = 48
# Single tags the stage picks rows by (features.tag_in: by the snapshot's tag codes).
IMG, SVG, SCRIPT = frozenset(("img",)), frozenset(("svg",)), frozenset(("script",))


def figure_svgs(snap: Snapshot) -> np.ndarray:
    """`svg` rows drawn at least MIN_FIGURE_PX a side: figures the reader shows, kept
    with their block although they own no text (no size without layout: none)."""
    return tag_in(snap, SVG) & (snap.w >= MIN_FIGURE_PX) & (snap.h >= MIN_FIGURE_PX)


def render_masks(snap: Snapshot, blocks: Blocks, keep: np.ndarray,
                 root: int) -> tuple[np.ndarray, np.ndarray]:
    """(drop, quiet) for the renderers, for the subtree of `root` showing only the kept
    blocks (`keep`: bool per block). `drop` marks the topmost rows under `root` whose
    subtree holds no kept text or image; `quiet` marks rows whose own text (text and
    children's tails) is left out because their block is dropped while a kept block lies
    below them (a container's "Share this" run around a kept paragraph)."""
    kept_row = np.zeros(snap.n, np.bool_)
    kept_row[blocks.rows[keep]] = True
    kept_owner = kept_row[blocks.owner]
    image = tag_in(snap, IMG) & filled(snap, "url")
    # shown although the blocks leave them out (a drawing is a widget to them, a TeX
    # source script is code): a figure, and a formula nothing typeset (math.py)
    drawn = (figure_svgs(snap) & (snap.hidden == 0)) | (tag_in(snap, SCRIPT) & math_mod.formula_rows(snap))
    # kept content sits where it is read: a row's text and image at the row, its tail
    # at its parent (a dropped row's tail is still emitted)
    own = (kept_owner & ((blocks.shown & (filled(snap, "text") | image)) | drawn)).astype(np.int64)
    tails = np.flatnonzero(np.concatenate(([False], (kept_owner & blocks.shown)[snap.parent[1:]]))
                           & filled(snap, "tail"))
    np.add.at(own, snap.parent[tails], 1)
    has = snap.subtree_sum(own) > 0
    inside = snap.subtrees([root])
    inside[root] = False
    empty = inside & ~has
    drop = empty & ~snap.below(empty)
    quiet = snap.subtrees([root]) & ~kept_owner & has
    return drop, quiet
