"""LQF, the link-quota filter of Mantratzis, Orgun and Cassidy: find link lists, then extract or clean.

The paper's method, section 3: elements are "structurally important" (options.lqf_structural)
or flattened into their nearest structurally important ancestor, which makes a *section*.
Per section, the first-level values are counted over its flattened content: non-empty
anchors, non-empty tags, linked characters, all characters. Bottom-up, every section's
values are added to its parent section's, "decreased by a percentage analogous to the
distance". Last sweep: anchors / tags ≥ 0.5 is one point, linked / all characters ≥ 0.4
is another; two points = a link list (navigation, syndication, ad links), one = doubtful.

Choices where the paper is vague, written down:
- "Tags that contain at least one character" are counted over the flattened section: each
  visible anchor with text is one tag (and an anchor), and each non-blank text node
  outside anchors is one tag too — an anonymous inline box, as the flattened section is
  a run of inline content. Styling wrappers (b, span) add nothing of their own, so
  `<b>x</b> y` and `x y` weigh the same, and the text between anchors (the pipes of a
  pipe-separated list, the prose around an inline link) weighs against them.
- Characters are visible non-space characters (features); hidden and code rows count nothing.
- Decay: each structural level a value is pulled up multiplies it by 1 - options.lqf_decay,
  so a section k levels below contributes (1 - d)^k of its first-level values: the
  percentage lost grows with the distance, as the paper asks. Aggregated level by level,
  deepest first (one numpy step per structural depth).
- A section with no text earns no point (there is nothing to judge).
- A *link list* is a two-point section none of whose sub-sections with text (itself
  included) has zero points: a body that is link-heavy on the whole but holds a plain
  article is a mix, not a list; the article, a zero-point section, keeps it. A doubtful
  one-point part (a teaser with a short description) does not break a list.

Two uses. `run` extracts: link lists are dropped; the block is found by walking down from
the root into the child section that holds more than options.lqf_block_share of the text
left, unless that child is a leaf section (all its remaining text in its own flattened
content: a paragraph, not a block) that does not hold all of it; the walk stops where no
child qualifies. The score of a row is its share of the page's remaining text. `clean`
drops the link lists inside another method's choice (options.lqf_clean).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ...errors import NoContent
from ..features import Features, tag_in
from ..options import Options
from ..snapshot import Snapshot
from .base import Choice

# Columns of the per-section value matrix pulled bottom-up.
ANCHORS, TAGS, LINKED, CHARS = range(4)


@dataclass(frozen=True, eq=False)
class LinkQuota:
    """Per-row results of the filter (rows that are not sections: section fields are 0)."""

    structural: np.ndarray   # bool: the row is a section root
    section: np.ndarray      # nearest structural ancestor-or-self of every row
    values: np.ndarray       # (n, 4) pulled anchors, tags, linked chars, chars per section
    points: np.ndarray       # 0, 1 or 2 per section; 0 elsewhere
    link_list: np.ndarray    # bool: a two-point section with no zero-point text inside


def link_quota(snap: Snapshot, feats: Features, opts: Options) -> LinkQuota:
    """The paper's section 3 over every section at once (computed once per page and
    option set: auto, its cleaner, the reader and the block stage all read it)."""
    key = ("lqf", opts.lqf_structural, opts.lqf_decay, opts.lqf_anchor_ratio,
           opts.lqf_text_ratio)
    return feats.memo(key, lambda: _link_quota(snap, feats, opts))


def _link_quota(snap: Snapshot, feats: Features, opts: Options) -> LinkQuota:
    n = snap.n
    structural = tag_in(snap, opts.lqf_structural)
    structural[0] = True
    section = snap.nearest(structural)
    live = ~feats.gone
    in_link = feats.in_link

    # first-level values, counted on each row and added to the row's section
    own = np.zeros((n, 4))
    anchor = snap.link & ~snap.below(snap.link) & live & (feats.chars > 0)
    own[:, ANCHORS] = anchor
    own[:, TAGS] = anchor + np.where(live & ~in_link, feats.own_texts, 0)
    own[:, CHARS] = np.where(live, feats.own_chars, 0)
    own[:, LINKED] = np.where(in_link, own[:, CHARS], 0)
    values = np.stack([np.bincount(section, own[:, k], minlength=n) for k in range(4)], axis=1)

    # bottom-up, deepest structural level first, with the decay per level
    secs = structural.nonzero()[0]
    up = section[snap.parent[secs[1:]]]          # parent section of each non-root section
    level = _structural_depth(snap, secs)[1:]
    keep = 1.0 - opts.lqf_decay
    order = np.argsort(-level, kind="stable")
    kids, up, level = secs[1:][order], up[order], level[order]
    bounds = np.flatnonzero(np.diff(level)) + 1
    for lo, hi in zip(np.concatenate(([0], bounds)), np.concatenate((bounds, [len(kids)]))):
        np.add.at(values, up[lo:hi], keep * values[kids[lo:hi]])

    a, t, l, c = values.T
    points = (structural & (t > 0) & (a >= opts.lqf_anchor_ratio * t)).astype(np.int64)
    points += structural & (c > 0) & (l >= opts.lqf_text_ratio * c)
    plain = structural & (c > 0) & (points == 0)
    link_list = (points == 2) & (snap.subtree_sum(plain.astype(np.int64)) == 0)
    return LinkQuota(structural=structural, section=section, values=values, points=points,
                     link_list=link_list)


def _structural_depth(snap: Snapshot, secs: np.ndarray) -> np.ndarray:
    """Number of strict structural ancestors of each row in `secs` (a prefix sum over
    the subtree ranges)."""
    diff = np.zeros(snap.n + 1, np.int64)
    np.add.at(diff, secs + 1, 1)
    np.add.at(diff, snap.end[secs], -1)
    return np.cumsum(diff[:-1])[secs]


def inside(snap: Snapshot, roots: np.ndarray) -> np.ndarray:
    """Rows strictly inside the subtree of one of `roots`."""
    mask = np.zeros(snap.n, np.bool_)
    mask[roots] = True
    return snap.below(mask)


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """LQF as an extractor: drop link lists, then the block that holds the remaining text."""
    lq = link_quota(snap, feats, opts)
    dropped = lq.link_list | snap.below(lq.link_list)
    kept = snap.subtree_sum(np.where(dropped | feats.gone, 0, feats.own_chars))
    total = int(kept[0])
    if total == 0:
        raise NoContent("the page has no visible text outside link lists"
                        if feats.chars[0] else "the page has no visible text to choose from")

    # a section's own remaining text (its flattened content), to tell leaves from blocks
    flat = np.bincount(lq.section, np.where(dropped | feats.gone, 0, feats.own_chars),
                       minlength=snap.n).astype(np.int64)
    secs = lq.structural.nonzero()[0][1:]
    up = lq.section[snap.parent[secs]]
    dominant = kept[secs] > opts.lqf_block_share * kept[up]
    step = dominant & ((kept[secs] > flat[secs]) | (kept[secs] == kept[up]))
    stop = np.zeros(snap.n, np.bool_)
    stop[secs[~step]] = True
    path = secs[step & ~snap.below(stop)[secs]]   # the walk from the root: one chain
    node = int(path[-1]) if len(path) else 0

    # runner-up blocks: other sections where such a walk would stop, most text first
    has_step = np.zeros(snap.n, np.bool_)
    has_step[up[step]] = True
    ends = (lq.structural & ~has_step & (kept > flat) & (kept > 0)).nonzero()[0]
    ends = ends[ends != node]
    ends = ends[np.lexsort((ends, -kept[ends]))]
    drop = lq.link_list & inside(snap, np.array([node]))
    return Choice(node=node, score=kept / total, blocks=np.concatenate(([node], ends)),
                  drop=drop if drop.any() else None)


def clean(snap: Snapshot, feats: Features, opts: Options, choice: Choice) -> Choice:
    """`choice` with the link lists inside its roots added to `drop` (never a root itself,
    so never the chosen node or one of its ancestors)."""
    lq = link_quota(snap, feats, opts)
    drop = lq.link_list & inside(snap, choice.roots)
    if choice.drop is not None:
        drop |= choice.drop
    if not drop.any():
        return choice
    return dataclasses.replace(choice, drop=drop)
