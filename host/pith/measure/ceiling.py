"""The best F1 any single element of a page reaches, taken whole: how far choosing one element can go.

`pith bench --ceiling` reports it beside the methods, with the block-level ceiling
(`best_blocks`): the page's blocks (blocks.py) that the truth labels content, kept
wherever they are on the page — what an answer made of blocks could reach. It reads the truth, so it is an
oracle, not a method: a grow or a shrink shows one element's text, and so does any
selection that drops nothing inside its element, so no choice of element, however clever,
scores above this on a page. What a method scores above it comes from cleaning inside the element
(auto's dropped link lists and furniture, SST's and CLG's parts); what lies between a
method and it is what a better choice could still win.

Candidates are the elements whose visible non-space characters are within CANDIDATE_SPAN
times the truth's, less the wrappers that show exactly their parent's text (same text, same
score). Text is rendered as `pith extract` renders it (render.to_text), with the default
options' idea of what is visible.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..pipeline.blocks import segment as blocks_mod
from ..pipeline import render
from ..pipeline.features import Features
from ..pipeline.snapshot import Snapshot

# An element with a tenth of the truth's characters, or ten times them, scores F1 <= 0.18
# against it, so wider would only cost time (NOTES.md, 'Why the ceiling's candidate span
# is (0.1, 10)').
CANDIDATE_SPAN = (0.1, 10.0)


def candidates(snap: Snapshot, feats: Features, truth_chars: int) -> np.ndarray:
    """Rows worth scoring against a truth of `truth_chars` non-space characters (what
    features count), in document order."""
    chars = feats.chars
    low, high = CANDIDATE_SPAN
    in_span = (chars >= low * truth_chars) & (chars <= high * truth_chars) & (chars > 0)
    parent_chars = np.where(snap.parent >= 0, chars[np.maximum(snap.parent, 0)], -1)
    return np.flatnonzero(in_span & (chars != parent_chars))


def best(snap: Snapshot, feats: Features, truth: str,
         score: Callable[[str, str], tuple]) -> tuple[int | None, str, float]:
    """(row, its text, its F1) of the best candidate; (None, "", 0.0) when none has text.

    `score(prediction, truth)` returns (precision, recall, f1), as the shared scorer's
    score_pair does.
    """
    top: tuple[int | None, str, float] = (None, "", 0.0)
    for row in candidates(snap, feats, len("".join(truth.split()))):
        text = render.to_text(snap, feats, [int(row)])
        f1 = score(text, truth)[2]
        if f1 > top[2]:
            top = (int(row), text, f1)
    return top


def best_blocks(snap: Snapshot, feats: Features, truth: str) -> str:
    """The text of every block of the page labelled content by the truth (train_blocks:
    at least half of its characters in truth-covered text nodes), in document order;
    "" when none is."""
    from .train_blocks import block_labels
    blocks = blocks_mod.compute(snap, feats)
    if not blocks.count:
        return ""
    keep = block_labels(snap, blocks, np.arange(blocks.count), truth) == 1
    if not keep.any():
        return ""
    drop, quiet = blocks_mod.render_masks(snap, blocks, keep, 0)
    return render.to_text(snap, feats, [0], drop, quiet)
