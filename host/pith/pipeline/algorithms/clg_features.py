"""CLG's per-node features (Wu, Liu, Fan §4): relative values of every row at once, then the
17 adjusted values the logistic regression reads (and the box-free set of the fallback).

The paper computes each feature bottom-up with a "union" (equation 1): sums for
characters, merged histograms for font colour and size, min/max for the four edges,
the area of the union of regions for the area. Here every union is a prefix-sum
difference or a segment reduction over the preorder ranges of `Snapshot.end`, so no
Python loop visits nodes:

- characters, tags, links: `Snapshot.subtree_sum` of the visible own counts;
- colour and size histograms: popularity Σ_i φ_ki·φ_ri is linear in the node's
  characters, so it is the subtree sum of (own chars × page share of the row's colour)
  divided by the node's chars — the histogram itself is never built;
- edges: `subtree_extents`, one `np.minimum/maximum.reduceat` over the interleaved
  (start, end) row ranges; boxes are first clipped to the page, so an element parked at
  x = -9999 (screen-reader text) or a menu sticking out of the page adds nothing.

Choices where the paper is vague, written down:

- Region of a node = the bounding box of the visible boxes in its subtree (the union
  for the four edges, as the paper says). Its area is the area of that bounding box: a
  rendered element's own box contains its in-flow descendants, so for one node the
  union of its regions is its bounding box except for rare overflow (the exact union is
  computed where it matters, over the several nodes of a group: clg.union_area).
- Relative values are divided by the page's size (`page` of the snapshot: document
  scroll width and height; the extent of the root's boxes when absent).
- POS_DIST = 1 - d / √2, with d the Euclidean distance of the node's relative centre to
  (BEST_CENTERX, BEST_CENTERY): in [0, 1], higher is better, like the other POS_*.
- AREA_DIST = |ln(AREA_SIZE) - ln(BEST_AREA)|, the log-difference the paper describes,
  with AREA_SIZE floored at AREA_FLOOR (a node without a box is as far as a
  one-pixel-per-megapixel node, not infinitely far).
- A node without any visible box gets POS_* = 0 (the worst) and AREA_SIZE = 0.
- Font colour of a character = the computed colour of the element whose own text it is
  (`color`); font size likewise (`fs`, rounded to 0.01 px so 13.333 and 13.3333 meet).
  FONT_SIZE scales with the page's smallest and largest sizes of visible characters
  (0 on a page with a single size). Nodes without characters get 0 for the three.
- TEXT_RATIO: the snapshot has no boxes for text nodes, so the text area of a row is
  estimated as chars × fs² × GLYPH_EM2 (an average glyph advance of about half an em
  times a 1.2 line height); the image area is the clipped box area of IMAGE_TAGS rows.
- TAG_SCORE of a tag = the share of positive nodes among training nodes with that
  tag, smoothed towards the overall share (train.py); unknown tags get the overall share.
- Hidden and code rows (`Features.gone`) count for nothing: no characters, tags, links
  or boxes; their own scores are set to 0 by clg.py.

Without layout (static snapshots, or a rendered page whose boxes are all empty) the
seven position and area features do not exist. The fallback model (clg.py) reads the
box-free features plus four reading-order analogues: a node's text span in the page's
text, START and END (chars before its first and after its last character, relative to
the page's visible characters), their middle, and TEXT_DIST, the log-distance of
VISIBLE_CHAR to the "perfect" share — the one-dimensional page a screen reader sees,
standing in for the two-dimensional one.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import repeat

import numpy as np

from ..codes import distinct_inverse
from ..features import Features, tag_in
from ..snapshot import Snapshot

# The 17 adjusted features of §4, in the paper's order (positions, area, font, text,
# tag, link). Changing a name or a definition means retraining (`pith train`).
FEATURES = (
    "pos_left", "pos_right", "pos_top", "pos_bottom", "pos_centerx", "pos_centery",
    "pos_dist", "area_size", "area_dist",
    "font_color_popularity", "font_size_popularity", "font_size",
    "visible_char", "text_ratio", "tag_score", "tag_density", "link_density",
)
# The fallback model's features: the ten of the 17 that need no box and carry meaning
# in a static snapshot (colour is unknown there, image area needs boxes), plus the
# reading-order analogues of the position and area features.
STATIC_FEATURES = (
    "pos_start", "pos_end", "pos_middle", "text_dist",
    "font_size_popularity", "font_size", "visible_char", "tag_score", "tag_density",
    "link_density",
)
# The "perfect" relative values (§4.1, §5) each feature set learns from top ground-truth nodes.
BEST_KEYS = {"rendered": ("left", "right", "top", "bottom", "centerx", "centery", "area"),
             "static": ("start", "end", "middle", "chars")}
# Elements whose box is image area for TEXT_RATIO (no text of their own, drawn content).
IMAGE_TAGS = frozenset({"img", "svg", "video", "canvas", "embed", "object", "picture"})
# Area of one character in em²: ~0.5 em average advance × 1.2 em line height.
GLYPH_EM2 = 0.6
# Smallest relative area/character share the log-distances use (one millionth).
AREA_FLOOR = 1e-6
# Font sizes are compared after rounding to this many decimals of a CSS px.
FS_DECIMALS = 2
# The colours a browser's own style sheet gives a link (Chromium's and Firefox's:
# unvisited, visited). A page whose links show them was drawn without its style sheets
# (a saved page whose CSS did not load): its boxes are the browser's defaults, every
# block one full-width column, not the page's design (NOTES.md, 'Why CLG reads a page
# drawn without its style sheets as it reads a static one').
DEFAULT_LINK_COLOURS = ("rgb(0, 0, 238)", "rgb(85, 26, 139)")
# Share of the page's visible text links in DEFAULT_LINK_COLOURS from which it is unstyled:
# on the 1,813 cached rendered training pages the share is 0.3 or under, or 0.9 and over
# (nothing between): 0.5 sits in that gap.
UNSTYLED_LINK_SHARE = 0.5
# Visible text links a page needs before its links' colours say it is unstyled: one or
# two links in a default colour are as likely a page's own choice.
UNSTYLED_MIN_LINKS = 3
LINK_TAGS = frozenset({"a"})
# What the browser draws text with when no style sheet says otherwise (Chromium's and
# Firefox's user-agent sheet): the body's 8 px margin as the left edge, a 16 px font,
# black. A page whose text is nearly all drawn so was drawn without its style sheets,
# links or none (option clg_unstyled_text; NOTES.md, 'Why a page whose text is drawn in
# the browser's defaults is read without boxes').
DEFAULT_BODY_MARGIN = 8.0
DEFAULT_FONT_SIZE = 16.0
DEFAULT_TEXT_COLOUR = "rgb(0, 0, 0)"
# Left edges within this many px of DEFAULT_BODY_MARGIN count as at it (sub-pixel layout).
MARGIN_SLACK = 0.5


@dataclass(frozen=True, eq=False)
class Geometry:
    """Per-row region: the bounding box of the subtree's visible boxes, clipped to the page."""

    left: np.ndarray
    top: np.ndarray
    right: np.ndarray
    bottom: np.ndarray
    has_box: np.ndarray     # some visible box in the subtree
    area: np.ndarray        # (right - left) * (bottom - top), 0 without a box
    page_w: float
    page_h: float
    layout: bool            # the snapshot has usable boxes at all

    @property
    def page_area(self) -> float:
        return self.page_w * self.page_h

    def rects(self, rows: np.ndarray) -> np.ndarray:
        """(k, 4) array of x0, y0, x1, y1 of `rows`."""
        return np.stack((self.left[rows], self.top[rows], self.right[rows],
                         self.bottom[rows]), axis=1)


@dataclass(frozen=True, eq=False)
class Relative:
    """Relative (normalised) values per row, before any learned "perfect" value."""

    geo: Geometry
    left: np.ndarray        # edges and centre over the page size (NaN without a box)
    right: np.ndarray
    top: np.ndarray
    bottom: np.ndarray
    centerx: np.ndarray
    centery: np.ndarray
    area: np.ndarray        # AREA_SIZE
    start: np.ndarray       # reading-order span over the page's visible chars
    end: np.ndarray
    middle: np.ndarray
    chars: np.ndarray       # VISIBLE_CHAR
    color_pop: np.ndarray   # FONT_COLOR_POPULARITY (0 without layout: only the rendered
                            # model reads it, and only pages with layout train or use it)
    size_pop: np.ndarray    # FONT_SIZE_POPULARITY
    font_size: np.ndarray   # FONT_SIZE
    text_ratio: np.ndarray  # TEXT_RATIO
    tag_density: np.ndarray
    link_density: np.ndarray

    def take(self, rows: np.ndarray) -> "Relative":
        """The same values for `rows` only (training keeps a sample of each page)."""
        return Relative(geo=self.geo, **{f.name: getattr(self, f.name)[rows]
                                         for f in fields(self) if f.name != "geo"})


def subtree_extents(snap: Snapshot, values: np.ndarray, ufunc: np.ufunc,
                    empty: float) -> np.ndarray:
    """Per row, `ufunc` (np.minimum or np.maximum) of `values` over its subtree.

    One `reduceat` over the indices (0, end[0], 1, end[1], …): the even segments are
    the subtrees; the odd ones are discarded. Cost: the sum of subtree sizes.
    """
    n = snap.n
    arr = np.append(values.astype(np.float64), empty)   # index n is valid for end == n
    idx = np.empty(2 * n, np.int64)
    idx[0::2] = np.arange(n)
    idx[1::2] = snap.end
    return ufunc.reduceat(arr, idx)[0::2]


def unstyled(snap: Snapshot, feats: Features, plain: float = 0.0) -> bool:
    """Whether a rendered page was drawn without its style sheets: at least
    UNSTYLED_MIN_LINKS visible text links, and UNSTYLED_LINK_SHARE of them or more in the
    browser's own link colours (DEFAULT_LINK_COLOURS); or, with `plain` > 0 (option
    clg_unstyled_text), `plain` or more of its visible characters drawn in the browser's
    defaults (`default_drawn_share`)."""
    links = tag_in(snap, LINK_TAGS) & ~feats.gone & (feats.chars > 0)
    count = int(links.sum())
    if count >= UNSTYLED_MIN_LINKS:
        default = np.isin(snap.color[links], DEFAULT_LINK_COLOURS)
        if default.sum() >= UNSTYLED_LINK_SHARE * count:
            return True
    return plain > 0 and default_drawn_share(snap, feats) >= plain


def default_drawn_share(snap: Snapshot, feats: Features) -> float:
    """Share of the page's visible own characters in drawn rows whose left edge is the
    body's default margin, in the default font size and text colour: the text of a page
    that no style sheet placed, sized or coloured."""
    own = np.where(~feats.gone & (snap.w > 0) & (snap.h > 0), feats.own_chars, 0)
    total = int(own.sum())
    if not total:
        return 0.0
    plain = ((np.abs(snap.x - DEFAULT_BODY_MARGIN) <= MARGIN_SLACK)
             & (snap.fs == DEFAULT_FONT_SIZE) & (snap.color == DEFAULT_TEXT_COLOUR))
    return float(own[plain].sum()) / total


def geometry(snap: Snapshot, feats: Features, plain: float = 0.0) -> Geometry:
    """Regions of every row; `layout` is false when no visible row has a box, or when the
    page was drawn without its style sheets (`unstyled`, `plain` its text share): its
    boxes and colours are the browser's defaults, and CLG reads it as a static page."""
    live = ~feats.gone
    page = snap.meta.get("page") or [0, 0]
    page_w = float(page[0]) if len(page) > 0 else 0.0
    page_h = float(page[1]) if len(page) > 1 else 0.0
    x0, y0 = snap.x, snap.y
    x1, y1 = snap.x + snap.w, snap.y + snap.h
    boxed = live & (snap.w > 0) & (snap.h > 0)
    if page_w <= 0 or page_h <= 0:          # no page size: the extent of the boxes
        page_w = float(x1[boxed].max()) if boxed.any() else 0.0
        page_h = float(y1[boxed].max()) if boxed.any() else 0.0
    layout = bool(snap.layout and boxed.any() and page_w > 0 and page_h > 0
                  and not unstyled(snap, feats, plain))
    if not layout:
        zeros = np.zeros(snap.n)
        return Geometry(zeros, zeros, zeros, zeros, np.zeros(snap.n, bool), zeros,
                        0.0, 0.0, False)
    cx0, cx1 = np.clip(x0, 0, page_w), np.clip(x1, 0, page_w)
    cy0, cy1 = np.clip(y0, 0, page_h), np.clip(y1, 0, page_h)
    valid = boxed & (cx1 > cx0) & (cy1 > cy0)
    inf = np.inf
    left = subtree_extents(snap, np.where(valid, cx0, inf), np.minimum, inf)
    top = subtree_extents(snap, np.where(valid, cy0, inf), np.minimum, inf)
    right = subtree_extents(snap, np.where(valid, cx1, -inf), np.maximum, -inf)
    bottom = subtree_extents(snap, np.where(valid, cy1, -inf), np.maximum, -inf)
    has_box = np.isfinite(left)
    left, top = np.where(has_box, left, 0.0), np.where(has_box, top, 0.0)
    right, bottom = np.where(has_box, right, 0.0), np.where(has_box, bottom, 0.0)
    area = (right - left) * (bottom - top)
    return Geometry(left, top, right, bottom, has_box, area, page_w, page_h, True)


def _codes(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense integer codes of a column's values and how many: numbers in sorted order (one
    np.unique), strings in first-seen order (a dict, not a sort of Python strings). Which
    value gets which code changes no popularity: each value's share is summed the same."""
    if values.dtype.kind == "f":
        uniq, codes = distinct_inverse(values)
        return codes, len(uniq)
    table = {v: k for k, v in enumerate(dict.fromkeys(values.tolist()))}
    return np.fromiter(map(table.__getitem__, values.tolist()), np.int64, len(values)), len(table)


def _popularity(snap: Snapshot, own: np.ndarray, chars: np.ndarray,
                keys: np.ndarray) -> np.ndarray:
    """Σ_i φ_ki·φ_ri for every node k: the page share of each row's key, weighted by the
    node's characters (the paper's font colour / size popularity)."""
    codes, m = _codes(keys)
    total = own.sum()
    if total <= 0:
        return np.zeros(snap.n)
    share = np.bincount(codes, weights=own, minlength=m) / total   # φ_r
    num = snap.subtree_sum(own * share[codes])
    return np.divide(num, chars, out=np.zeros(snap.n), where=chars > 0)


def reading_span(snap: Snapshot, feats: Features) -> tuple[np.ndarray, np.ndarray]:
    """Visible chars before each row's text starts, and before it ends, in reading order.

    `text[i]` is read when row i opens, `tail[i]` after its subtree closes (at row
    end[i]); the span of i runs from what precedes its opening to that plus its chars.
    """
    n = snap.n
    live = ~feats.gone
    text_vis = np.where(live, feats.text_chars, 0).astype(np.float64)
    parent_live = np.concatenate(([False], live[snap.parent[1:]]))
    tail_vis = np.where(parent_live, feats.tail_chars, 0).astype(np.float64)
    at_close = np.zeros(n + 1)
    np.add.at(at_close, snap.end, tail_vis)           # tails read before row end[i] opens
    before = np.concatenate(([0.0], np.cumsum(text_vis)[:-1])) + np.cumsum(at_close)[:n]
    return before, before + feats.chars


def relative(snap: Snapshot, feats: Features, plain: float = 0.0) -> Relative:
    """Every relative value of §4 for every row (the learned "perfect" values come later);
    `plain`: option clg_unstyled_text (`unstyled`)."""
    geo = geometry(snap, feats, plain)
    live = ~feats.gone
    own = np.where(live, feats.own_chars, 0).astype(np.float64)
    chars = feats.chars.astype(np.float64)
    total = max(float(own.sum()), 1.0)

    if geo.layout:
        nan = np.where(geo.has_box, 1.0, np.nan)
        left, right = geo.left / geo.page_w * nan, geo.right / geo.page_w * nan
        top, bottom = geo.top / geo.page_h * nan, geo.bottom / geo.page_h * nan
        area = geo.area / geo.page_area
    else:
        left = right = top = bottom = np.full(snap.n, np.nan)
        area = np.zeros(snap.n)

    before, after = reading_span(snap, feats)
    fs = np.round(snap.fs, FS_DECIMALS)
    visible_fs = fs[own > 0]
    zmin, zmax = (visible_fs.min(), visible_fs.max()) if len(visible_fs) else (0.0, 0.0)
    if zmax > zmin:
        size_num = snap.subtree_sum(own * (fs - zmin) / (zmax - zmin))
        font_size = np.divide(size_num, chars, out=np.zeros(snap.n), where=chars > 0)
    else:
        font_size = np.zeros(snap.n)

    text_area = snap.subtree_sum(own * snap.fs ** 2 * GLYPH_EM2)
    if geo.layout:
        image = tag_in(snap, IMAGE_TAGS) & live
        # clipped own box of image rows (not the subtree region: <picture> holds its <img>)
        w = np.clip(snap.x + snap.w, 0, geo.page_w) - np.clip(snap.x, 0, geo.page_w)
        h = np.clip(snap.y + snap.h, 0, geo.page_h) - np.clip(snap.y, 0, geo.page_h)
        img_own = np.where(image & ~snap.below(image),
                           np.clip(w, 0, None) * np.clip(h, 0, None), 0.0)
        image_area = snap.subtree_sum(img_own)
    else:
        image_area = np.zeros(snap.n)
    tags = feats.tags.astype(np.float64)
    return Relative(
        geo=geo, left=left, right=right, top=top, bottom=bottom,
        centerx=(left + right) / 2, centery=(top + bottom) / 2, area=np.clip(area, 0, 1),
        start=before / total, end=after / total, middle=(before + after) / 2 / total,
        chars=chars / total,
        color_pop=(_popularity(snap, own, chars, snap.color) if geo.layout
                   else np.zeros(snap.n)),
        size_pop=_popularity(snap, own, chars, fs),
        font_size=font_size,
        text_ratio=text_area / (text_area + image_area + 1.0),
        tag_density=tags / (chars + 1.0),
        link_density=feats.links / (tags + 1.0),
    )


def tag_scores(tags: np.ndarray, table: dict[str, float], prior: float,
               coded: tuple[np.ndarray, list[str]] | None = None) -> np.ndarray:
    """TAG_SCORE of every row: the learned share of positives of its tag. `coded`, the
    same tags as (code per row, tag per code) (Snapshot.tag_codes), looks each distinct
    tag up once instead of each row."""
    if coded is not None:
        codes, names = coded
        return np.fromiter(map(table.get, names, repeat(prior)), np.float64, len(names))[codes]
    return np.fromiter(map(table.get, tags.tolist(), repeat(prior)), np.float64, len(tags))


def _closeness(value: np.ndarray, best: float) -> np.ndarray:
    """1 - |best - value| (the paper's POS_* form), 0 where the value is unknown."""
    return finite(1.0 - np.abs(best - value))


_LARGEST = np.finfo(np.float64).max


def finite(x: np.ndarray) -> np.ndarray:
    """`np.nan_to_num(x, nan=0.0)` of a float64 array, in place: NaN 0, the infinities the
    largest finite values, by three ufuncs, without the module function's Python steps
    (three calls a page; tests/test_clg_features.py compares the two)."""
    np.minimum(x, _LARGEST, out=x)       # NaN stays NaN through both
    np.maximum(x, -_LARGEST, out=x)
    np.copyto(x, 0.0, where=np.isnan(x))
    return x


def _log_distance(value: np.ndarray, best: float) -> np.ndarray:
    return np.abs(np.log(np.maximum(value, AREA_FLOOR)) - np.log(max(best, AREA_FLOOR)))


def adjusted(tags: np.ndarray, rel: Relative, names: tuple[str, ...], best: dict[str, float],
             tag_table: dict[str, float], tag_prior: float,
             coded: tuple[np.ndarray, list[str]] | None = None) -> np.ndarray:
    """The (n, len(names)) matrix of adjusted values, columns in the order of `names`;
    `tags` is the tag column of the same rows as `rel` (`coded`: as tag_scores reads it)."""
    def column(name: str) -> np.ndarray:
        if name.startswith("pos_") and name[4:] in ("left", "right", "top", "bottom",
                                                     "centerx", "centery", "start", "end",
                                                     "middle"):
            return _closeness(getattr(rel, name[4:]), best[name[4:]])
        if name == "pos_dist":
            d = np.hypot(rel.centerx - best["centerx"], rel.centery - best["centery"])
            return finite(1.0 - d / np.sqrt(2.0))
        if name == "area_size":
            return rel.area
        if name == "area_dist":
            return _log_distance(rel.area, best["area"])
        if name == "text_dist":
            return _log_distance(rel.chars, best["chars"])
        if name == "tag_score":
            return tag_scores(tags, tag_table, tag_prior, coded)
        field = {"font_color_popularity": "color_pop", "font_size_popularity": "size_pop",
                 "visible_char": "chars"}.get(name, name)
        return getattr(rel, field)
    return np.stack([column(name) for name in names], axis=1, dtype=np.float64)
