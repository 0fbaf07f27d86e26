"""CLG, learning and grouping on the rendered layout (Wu, Liu, Fan): score, group, refine.

The paper's method, in the order `run` applies it:
  1. learning (§5): every node gets p(v) = σ(β₀ + Σ βᵢ·xᵢ) over the 17 adjusted features
     of §4 (clg_features.py); weights, "perfect" values and tag scores come from
     `pith train` (train.py, models/MODEL.md);
  2. candidates: the nodes with p > clg_threshold, compacted (a node with a candidate
     ancestor is dropped), in depth-first order;
  3. grouping (§6.1): the link between consecutive candidates vᵢ, vᵢ₊₁ is broken unless
     (1) vᵢ, vᵢ₊₁ overlap or POR > T, (2) they have the same parent, (3) vᵢ, vᵢ₊₂
     overlap or POR > T, or (4) vᵢ₋₁, vᵢ₊₁ overlap or POR > T; POR = max over the two axes of
     min(overlap / length₁, overlap / length₂);
  4. group selection (§6.2): the group with the largest mean score × covered area, the
     area of the union of its rectangles (exact, by a sweep: `union_area`);
  5. refining (§6.3, Algorithm 1, θ₁..θ₄ and d) from the best group;
  6. a missing H1–H6 title at the top of the selection is added.
The answer is the refined set of nodes: `Choice.parts` in document order (or the one
node), `Choice.node` their lowest common ancestor, `Choice.score` = p for every row.
clg_mode "lr" stops after step 2 (parts = all compacted candidates) and "lr_a" returns
the best single node: the paper's baselines LR and LR_A (§7.2).

Choices where the paper is vague, written down:
- "Contain overlap area" = the intersection of the two regions has a positive area.
  A projection of zero length (a node without a box) gives a ratio of 0.
- A candidate's rectangle is its region (clg_features: bounding box of its subtree's
  visible boxes, clipped to the page); s(v) in Algorithm 1 is that rectangle's area,
  S_page the page's area.
- Algorithm 1, step 2 stops at the root; "depth" in step 3(a) counts the root `html` as
  level 1, so d = 3 keeps html, body and one wrapper out, as §7.1 explains; step
  3(b)(i) stops at a node without children; step 3(c) returns the best group itself.
- No node above the threshold (a page the model finds no content on): the best single
  node is returned (LR_A), as a reader expects some answer.
- Title (§6.3 names only H1–H6 and "the location of the top of the selection"): a
  visible heading outside the selection whose region ends at most clg_title_gap px
  above the selection's top and overlaps it horizontally; the most preferred level
  wins (h1 first), then the nearest. It is added unless the selection already holds a
  heading of that level or a more preferred one.
- Without layout (static snapshots, or every box empty) the fallback model of
  clg_features.STATIC_FEATURES scores the nodes, and the page is the one column a
  screen reader sees: a node's rectangle spans the whole width and, vertically, its
  characters in reading order; "area" is characters, S_page all of them, and the title
  gap is clg_title_gap_chars. Every pair of candidates is then aligned horizontally
  (POR = 1): without boxes there is no spatial evidence to split the candidates, so
  they form one group and refining alone shapes the answer (NOTES.md, 'Why CLG
  without layout puts every candidate in one group').

The paper's θ and d were fitted to users' clips, which are rarely above 40% of a page;
the truths here often are, and step 3(b) then drills down to one block and loses the
rest. The defaults stay the paper's; the combined pipeline may choose (auto_clg_wide;
NOTES.md, 'Why CLG's defaults stay the paper's').
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...errors import NoContent
from .. import modelfile
from ..codes import distinct
from ..features import Features, tag_in
from ..options import Options
from ..snapshot import Snapshot
from .base import Choice
from .clg_features import Relative, adjusted, relative

MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "clg.json"
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Slabs of the union-area sweep handled per numpy step (bounds memory to ~8 MB per step).
SWEEP_CHUNK = 512


# --------------------------------------------------------------------------- model
@dataclass(frozen=True, eq=False)
class Model:
    """One trained logistic regression over one feature set (rendered or static)."""

    kind: str
    names: tuple[str, ...]
    best: dict[str, float]
    mean: np.ndarray
    std: np.ndarray
    coef: np.ndarray
    intercept: float
    tag_table: dict[str, float]
    tag_prior: float

    @classmethod
    def from_dict(cls, kind: str, d: dict) -> "Model":
        return cls(kind=kind, names=tuple(d["features"]), best=dict(d["best"]),
                   mean=np.asarray(d["mean"], float), std=np.asarray(d["std"], float),
                   coef=np.asarray(d["coef"], float), intercept=float(d["intercept"]),
                   tag_table=dict(d["tag_score"]), tag_prior=float(d["tag_prior"]))

    def matrix(self, snap: Snapshot, rel: Relative) -> np.ndarray:
        """Adjusted features, standardised as in training."""
        x = adjusted(snap.tag, rel, self.names, self.best, self.tag_table, self.tag_prior)
        return (x - self.mean) / self.std

    def predict(self, snap: Snapshot, rel: Relative) -> np.ndarray:
        # ((x - mean) / std) @ coef with the standardisation folded into the weights: one
        # product over the raw matrix, no standardised copy of it (a large page's is
        # hundreds of MB)
        x = adjusted(snap.tag, rel, self.names, self.best, self.tag_table, self.tag_prior,
                     snap.tag_codes())
        weights = self.coef / self.std
        z = x @ weights + (self.intercept - self.mean @ weights)
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))


@lru_cache(maxsize=4)
def load_models(path: str = str(MODEL_PATH)) -> dict[str, Model]:
    """The trained models of models/clg.json, keyed "rendered" and "static"."""
    return modelfile.load(path, "CLG model", "pith train", lambda data: {
        kind: Model.from_dict(kind, d) for kind, d in data["models"].items()})


# --------------------------------------------------------------------------- space
@dataclass(frozen=True, eq=False)
class Space:
    """Where nodes are: rectangles (x0, y0, x1, y1), sizes s(v) and the page's size."""

    rect: np.ndarray        # (n, 4)
    size: np.ndarray        # s(v)
    page: float             # S_page
    layout: bool            # rendered boxes (else the one-column reading order)


def space_of(rel: Relative) -> Space:
    geo = rel.geo
    if geo.layout:
        rect = np.stack((geo.left, geo.top, geo.right, geo.bottom), axis=1)
        return Space(rect, geo.area, geo.page_area, True)
    n = len(rel.chars)
    rect = np.stack((np.zeros(n), rel.start, np.ones(n), rel.end), axis=1)
    return Space(rect, rel.chars, 1.0, False)


# --------------------------------------------------------------------------- geometry
def union_area(rects: np.ndarray) -> float:
    """Exact area of the union of axis-aligned rectangles (k, 4): x0, y0, x1, y1.

    Sweep over x: between consecutive distinct x coordinates (a slab) the covered
    length in y is the union of the y-intervals of the rectangles spanning the slab;
    with the rectangles sorted by y0 it is Σ max(0, y1ⱼ - max(y0ⱼ, max_{i<j} y1ᵢ)), a
    running maximum, so every slab is one vectorised row: O(k²) work, no recursion.
    """
    rects = np.asarray(rects, np.float64).reshape(-1, 4)
    rects = rects[(rects[:, 2] > rects[:, 0]) & (rects[:, 3] > rects[:, 1])]
    if not len(rects):
        return 0.0
    rects = rects[np.argsort(rects[:, 1], kind="stable")]
    x0, y0, x1, y1 = rects.T
    xs = distinct(np.concatenate((x0, x1)))    # np.unique's: no NaN passed the filter
    total = 0.0
    for lo in range(0, len(xs) - 1, SWEEP_CHUNK):
        a, b = xs[lo:lo + SWEEP_CHUNK], xs[lo + 1:lo + 1 + SWEEP_CHUNK]
        a = a[:len(b)]
        mid = (a + b) / 2
        cover = (x0 <= mid[:, None]) & (x1 > mid[:, None])            # (slabs, k)
        reach = np.maximum.accumulate(np.where(cover, y1, -np.inf), axis=1)
        prev = np.concatenate((np.full((len(mid), 1), -np.inf), reach[:, :-1]), axis=1)
        seg = np.where(cover, np.clip(y1 - np.maximum(y0, prev), 0, None), 0.0)
        total += float(seg.sum(axis=1) @ (b - a))
    return total


def _axis_ratio(a0, a1, b0, b1) -> np.ndarray:
    """min(l / l₁, l / l₂) for the projections [a0, a1] and [b0, b1]; 0 if one is empty."""
    la, lb = a1 - a0, b1 - b0
    inter = np.clip(np.minimum(a1, b1) - np.maximum(a0, b0), 0, None)
    ok = (la > 0) & (lb > 0)
    ra = np.divide(inter, la, out=np.zeros_like(inter), where=ok)
    rb = np.divide(inter, lb, out=np.zeros_like(inter), where=ok)
    return np.minimum(ra, rb)


def por(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Projection overlap ratio of rectangle pairs (rows of a and b), §6.1, Figure 7."""
    return np.maximum(_axis_ratio(a[:, 0], a[:, 2], b[:, 0], b[:, 2]),
                      _axis_ratio(a[:, 1], a[:, 3], b[:, 1], b[:, 3]))


def aligned(a: np.ndarray, b: np.ndarray, threshold: float) -> np.ndarray:
    """Pairwise test of conditions (1)/(3)/(4): the regions overlap, or POR > threshold."""
    ix = np.minimum(a[:, 2], b[:, 2]) - np.maximum(a[:, 0], b[:, 0])
    iy = np.minimum(a[:, 3], b[:, 3]) - np.maximum(a[:, 1], b[:, 1])
    return ((ix > 0) & (iy > 0)) | (por(a, b) > threshold)


def links_kept(rects: np.ndarray, parents: np.ndarray, threshold: float) -> np.ndarray:
    """For k candidates in order, k-1 booleans: the link vᵢ—vᵢ₊₁ survives (§6.1)."""
    k = len(rects)
    if k < 2:
        return np.zeros(0, bool)
    keep = aligned(rects[:-1], rects[1:], threshold)                    # (1)
    keep |= parents[:-1] == parents[1:]                                 # (2)
    if k >= 3:
        skip = aligned(rects[:-2], rects[2:], threshold)
        keep[:-1] |= skip                                               # (3) vᵢ, vᵢ₊₂
        keep[1:] |= skip                                                # (4) vᵢ₋₁, vᵢ₊₁
    return keep


def groups_of(nodes: np.ndarray, keep: np.ndarray) -> list[np.ndarray]:
    """Split the ordered candidates where a link is broken."""
    cuts = np.flatnonzero(~keep) + 1
    return [g for g in np.split(nodes, cuts) if len(g)]


def group_values(groups: list[np.ndarray], score: np.ndarray, space: Space) -> np.ndarray:
    """Mean score × covered area of each group (§6.2).

    The covered area lies between the largest rectangle of the group and the sum of its
    rectangles; the exact union (`union_area`) is computed only for the groups whose
    upper bound reaches the best lower bound — the only ones that can win — and the
    others keep their lower bound (it only orders the runner-up blocks).
    """
    nodes = np.concatenate(groups)
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    counts = np.array([len(g) for g in groups])
    mean = np.add.reduceat(score[nodes], starts) / counts
    size = space.size[nodes]
    lower = mean * np.maximum.reduceat(size, starts)
    upper = mean * np.add.reduceat(size, starts)
    value = lower.copy()
    for k in np.flatnonzero((counts > 1) & (upper >= lower.max())):
        value[k] = mean[k] * union_area(space.rect[groups[k]])
    return value


# --------------------------------------------------------------------------- tree
def compact(snap: Snapshot, mask: np.ndarray) -> np.ndarray:
    """Candidates without a candidate ancestor, in document order (§5, Figure 5)."""
    return np.flatnonzero(mask & ~snap.below(mask))


def lca(snap: Snapshot, nodes: np.ndarray) -> int:
    """Lowest common ancestor of rows (a subtree is a row range, so: the deepest
    ancestor of the first row whose range reaches the last)."""
    lo, hi = int(np.min(nodes)), int(np.max(nodes))
    v = lo
    while snap.end[v] <= hi:
        v = int(snap.parent[v])
    return v


def refine(snap: Snapshot, group: np.ndarray, score: np.ndarray, space: Space,
           opts: Options) -> np.ndarray:
    """Algorithm 1: expand a small group to an ancestor, drill into a huge one."""
    s, page = space.size, space.page
    v = lca(snap, group)
    s1 = s[v]
    if s1 < opts.clg_theta1 * page:                                      # step 2
        while s1 < opts.clg_theta2 * page and snap.parent[v] >= 0:
            v = int(snap.parent[v])
            s1 = s[v]
    level = int(snap.depth[v]) + 1                                       # html = level 1
    if level > opts.clg_depth or s1 <= opts.clg_theta3 * page:           # 3(a)
        return np.array([v])
    if s1 >= opts.clg_theta4 * page:                                     # 3(b)
        while s[v] >= opts.clg_theta4 * page:                            # (i)
            kids = snap.children(v)
            if not len(kids):
                break
            v = int(kids[np.argmax(s[kids])])
        par = int(snap.parent[v])
        pool = snap.children(par) if par >= 0 else np.array([v])         # (ii)
        return np.array([int(pool[np.argmax(score[pool] * s[pool])])])
    return np.asarray(group)                                             # 3(c)


def find_title(snap: Snapshot, feats: Features, parts: np.ndarray, space: Space,
               opts: Options) -> int | None:
    """The heading to add above the selection, or None (see the module docstring)."""
    heads = tag_in(snap, frozenset(HEADINGS)) & ~feats.gone & (feats.chars > 0)
    inside = np.zeros(snap.n + 1, np.int64)
    np.add.at(inside, parts, 1)
    np.add.at(inside, snap.end[parts], -1)
    inside = np.cumsum(inside[:-1]) > 0
    rows = np.flatnonzero(heads & ~inside)
    if not len(rows):
        return None
    rect = space.rect
    top = rect[parts, 1].min()
    left, right = rect[parts, 0].min(), rect[parts, 2].max()
    first = int(parts.min())
    gap_max = opts.clg_title_gap if space.layout else opts.clg_title_gap_chars
    unit = 1.0 if space.layout else 1.0 / max(float(feats.chars[0]), 1.0)
    gap = (top - rect[rows, 3]) / unit
    above = (gap >= 0) & (gap <= gap_max) & (rect[rows, 1] < top)
    if space.layout:
        above &= (np.minimum(rect[rows, 2], right) - np.maximum(rect[rows, 0], left)) > 0
    else:
        above &= rows < first
    above &= snap.end[rows] <= first          # not an ancestor of the selection
    rows, gap = rows[above], gap[above]
    if not len(rows):
        return None
    level = np.array([HEADINGS.index(t) for t in snap.tag[rows]])
    best = int(rows[np.lexsort((gap, level))[0]])
    best_level = HEADINGS.index(snap.tag[best])
    held = np.flatnonzero(heads & inside)
    if any(HEADINGS.index(t) <= best_level for t in snap.tag[held]):
        return None
    return best


# --------------------------------------------------------------------------- run
def scores(snap: Snapshot, feats: Features, plain: float = 0.0
           ) -> tuple[np.ndarray, Relative, str]:
    """p(v) of every row (0 for hidden and code rows), the relative values, and which
    model scored them ("rendered", or "static" without layout); computed once per page
    (CLG proposes twice in auto, and the block stage reads p), p returned as a copy.
    `plain`: option clg_unstyled_text (clg_features.unstyled)."""
    def compute_scores():
        rel = relative(snap, feats, plain)
        kind = "rendered" if rel.geo.layout else "static"
        p = load_models()[kind].predict(snap, rel)
        p[feats.gone] = 0.0
        return p, rel, kind
    p, rel, kind = feats.memo(("clg", plain), compute_scores)
    return p.copy(), rel, kind


def _choice(snap: Snapshot, parts: np.ndarray, score: np.ndarray,
            others: list[int] | None = None) -> Choice:
    parts = distinct(np.asarray(parts, np.int64))
    node = int(parts[0]) if len(parts) == 1 else lca(snap, parts)
    blocks = [node] + [b for b in dict.fromkeys(others or []) if b != node]
    return Choice(node=node, score=score, blocks=np.array(blocks, np.int64),
                  parts=parts if len(parts) > 1 else None)


def _groups(snap: Snapshot, rel: Relative, cands: np.ndarray, p: np.ndarray,
            opts: Options) -> tuple[Space, list[np.ndarray], np.ndarray]:
    """(the space, the groups of linked candidates, the groups best first): steps 3–4,
    which do not depend on clg_depth (CLG runs twice in auto, once with depth 0)."""
    space = space_of(rel)
    if not space.layout and opts.clg_overlap < 1.0:
        # one column (module docstring): every pair spans the width, a POR of exactly 1,
        # above the threshold, so links_kept would keep every link
        keep = np.ones(max(len(cands) - 1, 0), np.bool_)
    else:
        keep = links_kept(space.rect[cands], snap.parent[cands], opts.clg_overlap)
    groups = groups_of(cands, keep)
    value = group_values(groups, p, space)
    return space, groups, np.lexsort((np.arange(len(groups)), -value))


def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """Steps 1–6 of the module docstring (or the LR / LR_A baselines, by clg_mode)."""
    if not (feats.chars > 0).any():
        raise NoContent("the page has no visible text to choose from")
    p, rel, _kind = scores(snap, feats, opts.clg_unstyled_text)
    # the candidates depend on the threshold alone (CLG runs twice in auto)
    cands = feats.memo(("clg_candidates", opts.clg_threshold),
                       lambda: compact(snap, p > opts.clg_threshold))
    if opts.clg_mode == "lr_a" or not len(cands):
        ranked = np.lexsort((np.arange(snap.n), -p))
        return _choice(snap, ranked[:1], p, list(ranked[1:1 + opts.candidates]))
    if opts.clg_mode == "lr":
        return _choice(snap, cands, p)
    space, groups, order = feats.memo(
        ("clg_groups", opts.clg_threshold, opts.clg_overlap),
        lambda: _groups(snap, rel, cands, p, opts))
    best = groups[int(order[0])]
    parts = refine(snap, best, p, space, opts)
    if opts.clg_title:
        title = find_title(snap, feats, parts, space, opts)
        if title is not None:
            parts = np.concatenate(([title], parts))
    others = [lca(snap, groups[int(i)]) for i in order[1:1 + opts.candidates]]
    return _choice(snap, parts, p, others)
