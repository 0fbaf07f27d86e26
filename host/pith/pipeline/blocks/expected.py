"""The element whose text has the highest expected F1 under the block model's probabilities of all the page's blocks.

auto's vote picks an element from the five methods' proposals; on listings, collections
and service pages it often picks a part of the content (one card grid of three) or a
neighbour of it. The block model already says, block by block, how likely each block is
content; read over the whole page, those probabilities give every element an expected
score: with p_b the probability of block b and c_b its visible characters,

    expected true positives of element E  TP(E) = sum over the blocks inside E of p_b c_b
    expected content of the page          T     = sum over all blocks of p_b c_b
    expected F1 of E                      2 TP(E) / (size(E) + T),  size(E) = sum of c_b in E

(F1 = 2 TP / (predicted + truth), characters for tokens). The element chosen is the one
with the highest expected F1 (`choose`); the block stage then keeps blocks inside it by
the same probabilities. Nothing here is fitted: the rule has no parameter, and the
probabilities are the shipped block model's (option `auto_block_choice`; NOTES.md, 'Why
auto chooses its element by expected F1').

Decisions a change must keep:
- a block's characters are its own visible ones (blocks.chars); blocks without text have
  probability 0 and weigh nothing;
- ties (wrappers holding the same blocks) go to the first row in document order, the
  outermost: the answer's outline is the kept blocks' common ancestor anyway;
- a page whose blocks all have probability 0 keeps the method's element (`choose` returns
  None).
"""
from __future__ import annotations

import numpy as np

from . import segment as blocks_mod
from ..snapshot import Snapshot


def expected_f1(snap: Snapshot, blocks: blocks_mod.Blocks, p: np.ndarray) -> np.ndarray:
    """Per row of `snap`, the expected F1 of its subtree's blocks, given the probability
    `p` of each block (by position in blocks.rows) being content."""
    chars = blocks.chars.astype(np.float64)
    hit = np.bincount(blocks.rows, weights=p * chars, minlength=snap.n)
    size = np.bincount(blocks.rows, weights=chars, minlength=snap.n)
    tp = snap.subtree_sum(hit)
    return np.divide(2.0 * tp, snap.subtree_sum(size) + hit.sum(),
                     out=np.zeros(snap.n), where=(tp > 0))


def choose(snap: Snapshot, blocks: blocks_mod.Blocks, p: np.ndarray,
           among: np.ndarray | None = None) -> int | None:
    """The row with the highest expected F1 (the first of equals), None when no block has
    a probability above 0; with `among` (bool per row), the best of those rows."""
    score = expected_f1(snap, blocks, p)
    if among is not None:
        score = np.where(among, score, 0.0)
    best = int(np.argmax(score))
    return best if score[best] > 0 else None
