"""SST, the satisfiable sub-trees of Qi and Sun: the union of the maximal satisfiable sub-trees is the content.

The paper's method, section 3.2: from every non-blank text node go up G generations to a
sub-tree root. The sub-tree is *satisfiable* when (1) within G generations below its root
there is a text node of length ≥ α, and (2) its text nodes hold SL_text ≥ β characters of
which the anchor text nodes hold SL_anchor ≤ γ · SL_text. Satisfiable sub-trees inside
another satisfiable one are deleted; the roots left, ROOT(SST_max), are printed in
document order. Paper values: G = 2, α = 40, β = 100, γ = 0.3 (options.sst_*). The title
node the method discards is recovered from the page's title (options.sst_title).

Choices where the paper is vague, written down:
- Generations are counted from the text node: its owning element is generation 1, so
  "up G generations" is G - 1 elements above the owner (with G = 2, the owner's parent),
  stopping at the root. Text nodes are not snapshot rows: `text[i]` is owned by i and
  `tail[c]` by parent[c]. "Within G generations below" the root likewise means a text
  node whose owner is at most G - 1 levels below it.
- LENGTH is the number of non-space characters (features.text_chars / tail_chars), as
  everywhere in Pith. The paper's portals are Chinese, where that is the trimmed length;
  English text has about one space per five letters, so α = 40 is about 48 characters.
- An anchor text node is a text node inside a link. Text inside code or hidden elements
  is not a text node at all (the paper's filtering step removes scripts and styles first).
- Choice.node is the lowest common ancestor of the parts, the element the extension
  outlines; Choice.parts are the parts. A row's score is its share of the parts' text,
  so shrink moves toward the parts.
- Title: when no visible h1 lies inside the parts, the first visible h1 (or, without
  one, the `<title>`) goes before them as Choice.preface.
- No satisfiable sub-tree is NoContent: the paper returns an empty string (its short
  news and forum pages, 3% of its sample).
"""
from __future__ import annotations

import numpy as np

from ...errors import NoContent
from ..codes import distinct
from ..features import Features, tag_in
from ..options import Options
from ..snapshot import Snapshot
from .base import Choice
from .cnr import antichain

HEADLINE = frozenset({"h1"})


def ancestors(snap: Snapshot, rows: np.ndarray, k: int) -> np.ndarray:
    """Each row's ancestor k levels up (the root when the tree is not that deep)."""
    for _ in range(k):
        up = snap.parent[rows]
        rows = np.where(up >= 0, up, rows)
    return rows


def longest_text_node(snap: Snapshot, feats: Features) -> np.ndarray:
    """Per row, the length of its longest visible own text node (its text or a child's tail)."""
    longest = feats.text_chars.copy()
    np.maximum.at(longest, snap.parent[1:], feats.tail_chars[1:])
    return np.where(feats.gone, 0, longest)


def satisfiable(snap: Snapshot, feats: Features, opts: Options) -> np.ndarray:
    """ROOT(SST): the sub-tree roots reached from text nodes that satisfy both conditions,
    sorted; computed once per page and option set (SST runs in auto, the block stage
    reads it again)."""
    key = ("sst", opts.sst_generations, opts.sst_min_text, opts.sst_min_total,
           opts.sst_max_anchor)
    return feats.memo(key, lambda: _satisfiable(snap, feats, opts))


def _satisfiable(snap: Snapshot, feats: Features, opts: Options) -> np.ndarray:
    g = opts.sst_generations
    owners = (~feats.gone & (feats.own_texts > 0)).nonzero()[0]
    candidates = distinct(ancestors(snap, owners, g - 1))
    # condition 1: a text node of length >= alpha within G generations below the root
    longest = longest_text_node(snap, feats)
    near = np.zeros(snap.n, np.bool_)
    reach = ((longest > 0) & (longest >= opts.sst_min_text)).nonzero()[0]
    near[reach] = True
    for _ in range(g - 1):
        reach = distinct(snap.parent[reach])
        reach = reach[reach >= 0]
        near[reach] = True
    # condition 2: enough text, little of it anchor text
    total, anchor = feats.chars[candidates], feats.linked_chars[candidates]
    ok = near[candidates] & (total >= opts.sst_min_total) & (anchor <= opts.sst_max_anchor * total)
    return candidates[ok]


def common_ancestor(snap: Snapshot, first: int, last: int) -> int:
    """Lowest common ancestor of rows first <= last: the deepest row whose subtree holds both."""
    holds = np.flatnonzero(snap.end[:first + 1] > last)
    return int(holds[-1])


def headline(snap: Snapshot, feats: Features, covered: np.ndarray) -> tuple[str, ...]:
    """The page's headline as a preface, unless a visible h1 lies in `covered` rows."""
    from ..render import to_text  # the text of one small subtree, rendered as the output is
    h1 = np.flatnonzero(tag_in(snap, HEADLINE) & ~feats.gone & (feats.chars > 0))
    if len(h1) and covered[h1].any():
        return ()
    text = to_text(snap, feats, [int(h1[0])]) if len(h1) else snap.meta.get("title", "")
    text = " ".join(text.split())
    return (text,) if text else ()


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """The maximal satisfiable sub-trees as parts, their common ancestor as the node."""
    if not feats.chars[0]:
        raise NoContent("the page has no visible text to choose from")
    parts = antichain(snap, satisfiable(snap, feats, opts))
    if not len(parts):
        raise NoContent(f"no sub-tree satisfies the SST conditions (a text node of "
                        f"{opts.sst_min_text}+ characters, {opts.sst_min_total}+ in all, "
                        f"at most {opts.sst_max_anchor:g} of it anchor text)")
    node = common_ancestor(snap, int(parts[0]), int(parts[-1]))
    root = np.zeros(snap.n, np.bool_)
    root[parts] = True
    covered = root | snap.below(root)
    content = snap.subtree_sum(np.where(covered & ~feats.gone, feats.own_chars, 0))
    others = parts[parts != node]
    others = others[np.lexsort((others, -feats.chars[others]))]
    return Choice(node=node, score=content / max(int(content[0]), 1),
                  blocks=np.concatenate(([node], others)), parts=parts,
                  preface=headline(snap, feats, covered) if opts.sst_title else ())
