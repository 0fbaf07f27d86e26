"""The combined method: several seed methods propose a block, the proposal the others agree with most wins.

Each member (option `auto_members`) runs on the same features and proposes its block;
with `auto_clg_wide`, CLG proposes a second time with `clg_depth` 0, so that a common
ancestor high in the tree — a listing's or a collection's repeated items as one block —
is returned whole instead of being drilled into. With `auto_filters_vote`, the DOM
filters method (Agarwal et al.) votes without proposing: its "first subtree with 500
characters of paragraph text" is a partial block by design, but where it lands says
where the paragraphs are (a voter is asked through its module's `vote` when it has one:
the same covered text, with less work). Two proposals agree in proportion to the visible
text they share: the characters of the rows both cover over the characters either covers (a
weighted Jaccard over rows; a proposal covers the subtrees of its roots minus the rows it
dropped). The winner is the medoid — the proposal with the largest summed agreement with
the others — so a method that wanders off alone (a sidebar, a single paragraph) is
outvoted, while a block most methods land on or around wins. Ties go to the earlier
member. With `auto_furniture`, page furniture — the landmarks a page itself declares as
not its main content: footer, nav, aside, dialogs and their ARIA roles — does not count
in the agreement (two methods that both reach into the footer do not agree on content),
a proposal wholly inside it cannot win while another proposal lies outside it (a page
without its style sheet, or a static snapshot, shows a closed privacy-policy modal as
the page's longest text), and inside the winner it is dropped unless it holds nearly
all of it (`auto_furniture_max`). Link lists inside the winner are then dropped with the
LQF cleaner (`auto_clean`), unless they are a large share of its text (`auto_clean_max`,
a quarter): the block is then itself a list, a listing's items, and the reader wants
them.

The per-row score (the reply's `score`, shrink's ranking) is LQF's: the row's share of
the page's text outside link lists, one scale whichever member won.

Nothing here is fitted to a single page or site: the members, the voters and the
threshold were chosen on the training side of the site split
(host/pith/pipeline/models/clg-split.json), and the validation side is what
host/BENCHMARKS.md reports.
"""
from __future__ import annotations

import dataclasses
import importlib
from functools import lru_cache

import numpy as np

from ...errors import NoContent
from .. import sidebars
from ..codes import distinct
from ..features import Features, role_codes, tag_in
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


def jaccard(masks: list[np.ndarray], weight: np.ndarray) -> np.ndarray:
    """Weighted Jaccard of every pair of proposals (zero diagonal)."""
    m = np.array(masks, dtype=np.float64) * weight          # proposals × rows
    both = m @ np.array(masks, dtype=np.float64).T           # shared weight
    sizes = m.sum(axis=1)
    either = sizes[:, None] + sizes[None, :] - both
    jac = np.divide(both, either, out=np.zeros_like(both), where=either > 0)
    np.fill_diagonal(jac, 0.0)
    return jac


def agreement(masks: list[np.ndarray], weight: np.ndarray) -> np.ndarray:
    """Summed weighted-Jaccard agreement of each proposal with all the others."""
    return jaccard(masks, weight).sum(axis=1)


def lowest_common_ancestor(snap: Snapshot, rows: np.ndarray) -> int:
    """The deepest row whose subtree holds every row of `rows` (document order)."""
    first, last = int(rows.min()), int(rows.max())
    node = first
    while node > 0 and snap.end[node] <= last:
        node = int(snap.parent[node])
    return max(node, 0)


def union(snap: Snapshot, proposals: list[Choice], masks: list[np.ndarray],
          jac: np.ndarray, votes: np.ndarray, proposes: np.ndarray, win: int,
          agree: float) -> Choice:
    """The winner plus every other proposal that shows none of the rows shown so far and
    that another ballot entry agrees with (weighted Jaccard >= `agree`), best voted first.

    The medoid vote keeps one block; on a page whose content is spread (a listing's
    items beside a featured one, a product's description beside its specifications)
    a second block that two entries of the ballot find, apart from the winner, is
    content by two methods' tests, as SST keeps every satisfiable subtree, not one."""
    shown = masks[win].copy()
    added = []
    for i in np.argsort(-votes, kind="stable"):
        i = int(i)
        if i == win or not proposes[i] or (masks[i] & shown).any():
            continue
        if jac[i].max(initial=0.0) >= agree:
            added.append(i)
            shown |= masks[i]
    if not added:
        return proposals[win]
    chosen = [proposals[win]] + [proposals[i] for i in added]
    parts = distinct(np.concatenate([c.roots for c in chosen]).astype(np.int64))
    drops = [c.drop for c in chosen if c.drop is not None]
    drop = np.logical_or.reduce(drops) if drops else None
    best = proposals[win]
    node = lowest_common_ancestor(snap, parts)
    blocks = np.concatenate(([node], best.blocks[best.blocks != node]))
    return dataclasses.replace(best, node=node, parts=parts, drop=drop, blocks=blocks)


def ballot(opts: Options) -> list[tuple[str, dict, bool]]:
    """(method, option overrides, proposes) for every member and voter, in tie order."""
    out = [(m, {}, True) for m in opts.auto_members]
    if opts.auto_clg_wide and "clg" in opts.auto_members:
        out.append(("clg", {"clg_depth": 0}, True))
    if opts.auto_filters_vote and "filters" not in opts.auto_members:
        out.append(("filters", {}, False))
    return out


def member_options(opts: Options, method: str, overrides: dict) -> Options:
    """`opts` as one ballot member runs with: its algorithm and overrides."""
    return _member_options(opts, method, tuple(sorted(overrides.items())))


# Options are frozen and hashable: a member's options are made once per distinct Options
# (a replace copies every field, seven times a page), not once per page. A process sees a
# few distinct Options (the defaults, a reader's or a bench's overrides), each with
# seven ballot entries: 64 holds them all.
MEMBER_OPTIONS_CACHE_SIZE = 64


@lru_cache(maxsize=MEMBER_OPTIONS_CACHE_SIZE)
def _member_options(opts: Options, method: str, overrides: tuple) -> Options:
    return dataclasses.replace(opts, algorithm=method, **dict(overrides))


def clean(snap: Snapshot, feats: Features, opts: Options, choice: Choice,
          link_list: np.ndarray) -> Choice:
    """`choice` without the link lists inside it, unless they hold more than
    `auto_clean_max` of its visible text (then the list is the content)."""
    if not link_list.any():
        return choice
    inside = lqf.inside(snap, choice.roots) & link_list
    if not inside.any() or lists_are_content(snap, feats, covered(snap, choice), inside, opts):
        return choice
    drop = inside if choice.drop is None else inside | choice.drop
    return dataclasses.replace(choice, drop=drop)


def lists_are_content(snap: Snapshot, feats: Features, shown: np.ndarray, lists: np.ndarray,
                      opts: Options) -> bool:
    """Whether the link lists `lists` (with their subtrees) hold more than `auto_clean_max`
    of the visible text of the rows `shown`: the block is then itself a list. The reader
    view's cleaner (reader.py) asks the same of any block."""
    weight = np.where(feats.gone, 0, feats.own_chars)
    total = int(weight[shown].sum())
    held = int(weight[shown & (lists | snap.below(lists))].sum())
    return bool(total) and held > opts.auto_clean_max * total


# Landmarks a page declares as furniture (HTML5 sectioning tags and their ARIA roles).
# `header`/`banner` are not here: an article's own header holds its headline.
FURNITURE_TAGS = ("footer", "nav", "aside", "dialog")
FURNITURE_ROLES = ("contentinfo", "navigation", "complementary", "dialog", "alertdialog")
# Text shown only on hover or focus: dropped from the answer like furniture inside it,
# but not furniture to the vote or the block model (NOTES.md, 'Why a tooltip is left out
# of the answer').
HOVER_ROLES = ("tooltip",)


def furniture(snap: Snapshot) -> np.ndarray:
    """Rows that are a furniture landmark themselves (not their descendants); found once
    per snapshot."""
    return snap.memo(("furniture",), lambda: _furniture(snap))


def _furniture(snap: Snapshot) -> np.ndarray:
    return tag_in(snap, frozenset(FURNITURE_TAGS)) | _roles(snap, FURNITURE_ROLES)


def hover(snap: Snapshot) -> np.ndarray:
    """Rows whose role is shown on hover or focus only (HOVER_ROLES); found once per
    snapshot."""
    return snap.memo(("hover",), lambda: _roles(snap, HOVER_ROLES))


def _roles(snap: Snapshot, roles) -> np.ndarray:
    """Rows whose role attribute is one of `roles` (lower case), any letter case."""
    codes, low = role_codes(snap)                 # each distinct role tested once
    hit = np.isin(low, roles)
    hit[0] = False                                 # code 0: no role
    return hit[codes]


def furniture_inside(snap: Snapshot, feats: Features, shown: np.ndarray, landmarks: np.ndarray,
                     max_share: float) -> np.ndarray:
    """The furniture landmarks whose subtree shows some of the `shown` rows' visible text,
    but less than `max_share` of it (one holding nearly all of it is the block itself)."""
    if not landmarks.any():          # a page without furniture (landmarks may be a memo)
        return np.zeros(snap.n, np.bool_)
    chars = np.where(shown & ~feats.gone, feats.own_chars, 0)
    in_row = snap.subtree_sum(chars)
    return landmarks & (in_row > 0) & (in_row < max_share * max(int(chars.sum()), 1))


def drop_furniture(snap: Snapshot, feats: Features, opts: Options, choice: Choice,
                   landmarks: np.ndarray) -> Choice:
    """`choice` without the furniture landmarks whose text it shows (a part of SST's answer
    may lie deep inside a dialog), except one showing at least `auto_furniture_max` of it."""
    if not landmarks.any():
        return choice
    inner = furniture_inside(snap, feats, covered(snap, choice), landmarks,
                             opts.auto_furniture_max)
    if not inner.any():
        return choice
    drop = inner if choice.drop is None else inner | choice.drop
    parts = choice.parts
    if parts is not None:            # a part inside dropped furniture goes with it
        parts = parts[~(drop | snap.below(drop))[parts]]
        if not len(parts):           # every part was furniture: nothing else to show
            return choice
    return dataclasses.replace(choice, drop=drop, parts=parts)


@lru_cache(maxsize=None)
def _method(name: str):
    """The method's module, imported once (import_module's Python steps, five a page)."""
    return importlib.import_module(f"{__package__}.{name}")


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    proposals: list[Choice] = []
    proposes: list[bool] = []
    for method, overrides, proposer in ballot(opts):
        module = _method(method)
        # a voter is read only for the text it covers: a method may answer that faster
        answer = module.run if proposer else getattr(module, "vote", module.run)
        try:
            proposals.append(answer(snap, feats, member_options(opts, method, overrides)))
        except NoContent:
            continue
        proposes.append(proposer)
    if not any(proposes):
        raise NoContent("the page has no visible text to choose from")
    weight = np.where(feats.gone, 0, feats.own_chars).astype(np.float64)
    if opts.auto_furniture:
        landmarks = furniture(snap)
        if opts.auto_sidebars:
            landmarks = landmarks | sidebars.named(snap)
        if landmarks.any():
            outside = np.where(landmarks | snap.below(landmarks), 0.0, weight)
            if outside.any():        # sharing a footer is no agreement (unless all is footer)
                weight = outside
    masks = [covered(snap, p) for p in proposals]
    jac = jaccard(masks, weight)
    votes = jac.sum(axis=1)
    votes[~np.array(proposes)] = -np.inf
    if opts.auto_furniture:
        # no text outside furniture: a footer, or a block wrapping only a cookie dialog
        inside = np.array([not weight[m].any() for m in masks])
        if (np.array(proposes) & ~inside).any():
            votes[inside] = -np.inf
    win = int(np.argmax(votes))
    best = proposals[win]
    if opts.auto_union:
        best = union(snap, proposals, masks, jac, votes, np.array(proposes), win,
                     opts.auto_union_agree)
    if opts.auto_furniture:
        best = drop_furniture(snap, feats, opts, best, landmarks | hover(snap))

    lq = lqf.link_quota(snap, feats, opts)
    dropped = lq.link_list | snap.below(lq.link_list)
    kept = snap.subtree_sum(np.where(dropped | feats.gone, 0, feats.own_chars))
    best = dataclasses.replace(best, score=kept / max(int(kept[0]), 1))
    return clean(snap, feats, opts, best, lq.link_list) if opts.auto_clean else best
