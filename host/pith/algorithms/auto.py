"""The combined method: several seed methods propose a block, the proposal the others agree with most wins.

Each member (option `auto_members`) runs on the same features. Two proposals agree in
proportion to the visible text they share: the characters of the rows both cover over the
characters either covers (a weighted Jaccard over rows; a proposal covers the subtrees
of its roots minus the rows it dropped). The winner is the medoid — the proposal with the
largest summed agreement with the others — so a method that wanders off alone (a
sidebar, a single paragraph) is outvoted, while a block most methods land on or around
wins. Ties go to the earlier member. Link lists inside the winner are then dropped with
the LQF cleaner (`auto_clean`). Nothing here is fitted to a dataset: the members and the
cleaner were chosen on the training side of the site split (host/pith/models/clg-split.json)
and the validation side is what the README reports.
"""
from __future__ import annotations

import dataclasses
import importlib

import numpy as np

from ..errors import NoContent
from ..features import Features
from ..options import Options
from ..snapshot import Snapshot
from . import lqf
from .base import Choice


def covered(snap: Snapshot, choice: Choice) -> np.ndarray:
    """Rows whose text the proposal shows: its roots' subtrees minus dropped subtrees."""
    diff = np.zeros(snap.n + 1, np.int64)
    roots = choice.roots.astype(np.int64)
    np.add.at(diff, roots, 1)
    np.add.at(diff, snap.end[roots], -1)
    mask = np.cumsum(diff[:-1]) > 0
    if choice.drop is not None:
        dropped = choice.drop | snap.below(choice.drop)
        mask &= ~dropped
    return mask


def agreement(masks: list[np.ndarray], weight: np.ndarray) -> np.ndarray:
    """Summed weighted-Jaccard agreement of each proposal with all the others."""
    m = np.array(masks, dtype=np.float64) * weight          # proposals × rows
    both = m @ np.array(masks, dtype=np.float64).T           # shared weight
    sizes = m.sum(axis=1)
    either = sizes[:, None] + sizes[None, :] - both
    jac = np.divide(both, either, out=np.zeros_like(both), where=either > 0)
    np.fill_diagonal(jac, 0.0)
    return jac.sum(axis=1)


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    proposals: list[Choice] = []
    for member in opts.auto_members:
        module = importlib.import_module(f"{__package__}.{member}")
        try:
            proposals.append(module.run(snap, feats, dataclasses.replace(opts, algorithm=member)))
        except NoContent:
            continue
    if not proposals:
        raise NoContent("the page has no visible text to choose from")
    weight = np.where(feats.gone, 0, feats.own_chars).astype(np.float64)
    votes = agreement([covered(snap, p) for p in proposals], weight)
    best = proposals[int(np.argmax(votes))]
    return lqf.clean(snap, feats, opts, best) if opts.auto_clean else best
