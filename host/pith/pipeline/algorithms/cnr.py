"""CNR, the chars-nodes ratio of López, Silva and Insa: Algorithms 1 and 2 of the paper.

Algorithm 1 gives every node weight = nodes in its subtree (elements and text nodes),
textLength = non-space characters of its text nodes, CNR = textLength / weight; a
"nonContentNode" (options.cnr_non_content, and hidden or code elements) has weight 1,
no characters, and its subtree is not counted. Algorithm 2 takes the top-rated nodes,
drops those below another pick, replaces picks that are siblings by their parent until
nothing changes, and the block with the most text wins.

Choices where the paper is vague, written down:
- Text nodes are not rows of the snapshot; each non-blank text node still weighs 1 in
  its element (whitespace-only text nodes, produced by source indentation, weigh
  nothing: the paper wants independence from formatting).
- "Top-rated" = the first options.cnr_top_fraction of the elements holding text, in
  decreasing CNR, ties in document order (see options.py for the default's source).
  Text nodes do not compete themselves: an element stands for its text. Letting them
  compete (CNR = length) fails the paper's own Example 3.2 — the footer's text nodes
  are picked, merge with the content and the body wins — and scored lower on two of
  the three dev sets (NOTES.md, 'Why text nodes do not compete in CNR's top-rated set').
- After each merge round the set is made an antichain again (a new parent may sit
  above another pick); line (1) of the algorithm, re-applied.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import NoContent
from .base import Choice
from ..codes import distinct
from ..features import Features, shown_noscript, tag_in
from ..options import Options
from ..snapshot import Snapshot


@dataclass(frozen=True, eq=False)
class CnrScores:
    """Algorithm 1's three attributes per row (rows inside a nonContentNode: all 0)."""

    weight: np.ndarray
    chars: np.ndarray
    cnr: np.ndarray
    counted: np.ndarray  # rows Algorithm 1 visits (not inside a nonContentNode)


def compute_cnr(snap: Snapshot, feats: Features, opts: Options) -> CnrScores:
    """Algorithm 1 for every row at once."""
    non_content = (tag_in(snap, opts.cnr_non_content) & ~shown_noscript(snap)) | feats.gone
    counted = ~snap.below(non_content)
    content = counted & ~non_content
    weight = snap.subtree_sum(counted.astype(np.int64) + np.where(content, feats.own_texts, 0))
    chars = snap.subtree_sum(np.where(content, feats.own_chars, 0))
    weight = np.where(counted, weight, 0)
    cnr = np.divide(chars, weight, out=np.zeros(snap.n), where=weight > 0)
    return CnrScores(weight=weight, chars=chars, cnr=cnr, counted=counted)


def top_rated(scores: CnrScores, opts: Options) -> np.ndarray:
    """Rows Algorithm 2 starts from: the top cnr_top_fraction of text-holding rows by CNR."""
    eligible = np.flatnonzero(scores.counted & (scores.chars > 0))
    if not len(eligible):
        return eligible
    k = max(1, int(np.ceil(opts.cnr_top_fraction * len(eligible))))
    ranked = eligible[np.argsort(-scores.cnr[eligible], kind="stable")]
    return np.sort(ranked[:k])


def antichain(snap: Snapshot, rows: np.ndarray) -> np.ndarray:
    """Line (1): drop every row that lies inside the subtree of another row of the set."""
    rows = distinct(rows)
    if len(rows) < 2:
        return rows
    reach = np.maximum.accumulate(snap.end[rows])
    inside = np.concatenate(([False], rows[1:] < reach[:-1]))
    return rows[~inside]


def blocks(snap: Snapshot, picks: np.ndarray) -> np.ndarray:
    """Lines (2)–(3): replace sibling picks by their parent until a fixpoint."""
    current = antichain(snap, picks)
    while len(current) > 1:
        parents = snap.parent[current]
        uniq, counts = np.unique(parents[parents >= 0], return_counts=True)
        shared = uniq[counts > 1]
        if not len(shared):
            break
        merged = np.isin(parents, shared)
        current = antichain(snap, np.concatenate((current[~merged], shared)))
    return current


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """Algorithms 1 and 2: the block with the most text among the merged top-rated nodes."""
    scores = compute_cnr(snap, feats, opts)
    picks = top_rated(scores, opts)
    if not len(picks):
        raise NoContent("the page has no visible text to choose from")
    final = blocks(snap, picks)
    final = final[np.lexsort((final, -scores.chars[final]))]  # most text first
    return Choice(node=int(final[0]), score=scores.cnr, blocks=final)
