"""The host pipeline, and the only module that knows its stage order.

Stages of `select`:
  1. validate the capture into a read-only Snapshot (snapshot.from_json);
  2. compute per-node features (features.compute);
  3. score and choose with the selected algorithm (algorithms.<name>.run); when hiding
     leaves no text, or less than options.hidden_min_visible of the page's text (text
     hidden on purpose, by display:none or aria-hidden, not counted), score with nothing
     hidden (`hidden_ignored`): the page is then in a state no reader sees as final (an anti-flicker `opacity:0` on the body, sections a scroll animation has
     not revealed yet, content scripts never revealed offline), and its text is still the
     best evidence;
     with `lqf_clean`, the link lists inside the choice are then dropped (lqf.clean);
     a `pin` (the element a reader's per-site rule names) replaces the choice's node,
     keeping the method's scores for shrink and its blocks as runners-up;
  4. describe the choice: node, path, score, runner-up candidates, stage timings.

`grow` and `shrink` move a choice afterwards, and every press changes the text the reader
sees (a press that only moves the outline to a wrapper with the same text looks broken,
and the one-click figure of `pith bench` counts it as a wasted press):
  - grow = the nearest ancestor with more visible text than the selection shows; wrappers
    whose visible characters equal it are passed over. What the selection shows is the
    node's subtree, except for the method's own answer made of several parts (SST, CLG),
    which shows only those parts: growing from it may land on the parts' common ancestor's
    wrapper, whose whole subtree is already more text;
  - shrink = the child with the highest score of the method (the CNR for cnr, as the paper
    says; each method's own score otherwise), and through it down while that child shows
    the same text as the selection (a single-text-child wrapper), to the first block that
    differs; a shrink right after a grow returns to the node the grow came from (the
    caller passes that trail, most recent last; the grown-from node may lie several
    wrappers below).
Measured on the training side of the site split (`pith bench --split train`, rendered;
one-click = mean page F1 of the best of selection, grow, shrink, averaged over cleaneval,
readability and wcxb_dev): grow = parent and shrink = best child gave cnr 0.819, lqf
0.837, sst 0.832, clg 0.842; this rule gives 0.832, 0.843, 0.833, 0.846: the old grow
left the text as it was on 15% (sst) to 53% (cnr) of the pages. For auto the rule alone
is neutral (0.861 → 0.860); with auto's score for shrink (its share of the text outside
link lists) it is 0.863.
"""
from __future__ import annotations

import dataclasses
import importlib
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import features as features_mod
from . import snapshot as snapshot_mod
from .algorithms import lqf
from .algorithms.base import Choice
from .errors import BadNode, NoContent
from .options import Options

def runner(name: str):
    """`run` of the algorithm module `name` (imported on first use)."""
    return importlib.import_module(f"{__package__}.algorithms.{name}").run


@dataclass(eq=False)
class Selection:
    """A scored page and the node chosen on it; kept by the host for grow/shrink."""

    snap: snapshot_mod.Snapshot
    feats: features_mod.Features
    result: Choice
    options: Options
    timings: dict[str, float] = field(default_factory=dict)
    hidden_ignored: bool = False   # stage 3 fell back to scoring hidden text
    pinned: bool = False           # the node is the caller's pin, not the method's choice

    @property
    def node(self) -> int:
        return self.result.node

    def describe(self, node: int) -> dict[str, Any]:
        """The wire form of one node: id, path, tag, score and text size."""
        return {
            "node": node,
            "path": self.snap.path(node),
            "tag": str(self.snap.tag[node]),
            "id": str(self.snap.id[node]),
            "cls": str(self.snap.cls[node]),
            "score": round(float(self.result.score[node]), 4),
            "chars": int(self.feats.chars[node]),
        }

    def to_wire(self) -> dict[str, Any]:
        out = self.describe(self.node)
        out["algorithm"] = self.options.algorithm
        out["title"] = self.snap.meta["title"]
        out["url"] = self.snap.meta["url"]
        out["hidden_ignored"] = self.hidden_ignored
        out["pinned"] = self.pinned
        if self.result.parts is not None:
            out["parts"] = [self.snap.path(int(p)) for p in self.result.parts]
        out["candidates"] = [self.describe(int(b))
                             for b in self.result.blocks[1:1 + self.options.candidates]]
        out["timings"] = {k: round(v, 3) for k, v in self.timings.items()}
        return out


def select(capture: dict | snapshot_mod.Snapshot, options: Options | None = None,
           pin: int | None = None) -> Selection:
    """Run stages 1–4 on a decoded capture (or an already validated Snapshot); `pin`,
    a row of that capture, is then the chosen node (BadNode when it is not a row)."""
    opts = options or Options()
    t0 = time.perf_counter()
    if isinstance(capture, snapshot_mod.Snapshot):
        snap = capture
    else:
        snap = snapshot_mod.from_json(capture, opts.max_nodes)
    t1 = time.perf_counter()
    feats = features_mod.compute(snap, skip_hidden=opts.skip_hidden)
    t2 = time.perf_counter()
    run = runner(opts.algorithm)
    hidden_ignored = False
    try:
        if mostly_hidden(snap, feats, opts):
            raise NoContent("too little visible text")
        result = run(snap, feats, opts)
    except NoContent:
        if not opts.skip_hidden or not feats.hidden.any():
            raise
        opts = dataclasses.replace(opts, skip_hidden=False)
        feats = features_mod.compute(snap, skip_hidden=False)
        result = run(snap, feats, opts)
        hidden_ignored = True
    if pin is not None:
        result = pin_choice(result, snap.check_node(pin))
    if opts.lqf_clean:
        result = lqf.clean(snap, feats, opts, result)
    t3 = time.perf_counter()
    timings = {"validate_ms": (t1 - t0) * 1e3, "features_ms": (t2 - t1) * 1e3,
               "score_ms": (t3 - t2) * 1e3, "total_ms": (t3 - t0) * 1e3}
    return Selection(snap=snap, feats=feats, result=result, options=opts, timings=timings,
                     hidden_ignored=hidden_ignored, pinned=pin is not None)


def mostly_hidden(snap: snapshot_mod.Snapshot, feats: features_mod.Features,
                  opts: Options) -> bool:
    """Whether less than opts.hidden_min_visible of the page's text is visible, counting
    only text that waits to be revealed (opacity:0, visibility:hidden) as hidden; code and
    text hidden on purpose (features.HIDDEN_ON_PURPOSE) do not count."""
    if not opts.skip_hidden or not feats.hidden.any():
        return False
    out = features_mod.code_rows(snap) | ((snap.hidden & features_mod.HIDDEN_ON_PURPOSE) > 0)
    total = int(feats.own_chars[~(out | snap.below(out))].sum())
    return int(feats.chars[0]) < opts.hidden_min_visible * total


def pin_choice(result: Choice, node: int) -> Choice:
    """`result` with `node` as the choice: one subtree, the method's blocks after it."""
    blocks = np.concatenate(([node], result.blocks[result.blocks != node]))
    return dataclasses.replace(result, node=node, blocks=blocks, parts=None, drop=None,
                               appendix=(), preface=())


def shown_chars(sel: Selection, node: int) -> int:
    """Visible characters of what selecting `node` shows: the method's parts when `node` is
    its multi-part answer, else the node's subtree."""
    parts = sel.result.parts
    if node != sel.node or parts is None:
        return int(sel.feats.chars[node])
    inside = sel.snap.subtrees(parts)
    return int(np.where(inside & ~sel.feats.gone, sel.feats.own_chars, 0).sum())


def grow(sel: Selection, node: int) -> dict[str, Any]:
    """The nearest ancestor of `node` that shows more text; BadNode when none does."""
    node = sel.snap.check_node(node)
    parent, chars = sel.snap.parent, sel.feats.chars
    shown = shown_chars(sel, node)
    up = int(parent[node])
    while up >= 0 and chars[up] <= shown:
        up = int(parent[up])
    if up < 0:
        raise BadNode("the selection already shows the whole page; it cannot grow", node=node)
    return sel.describe(up)


def shrink(sel: Selection, node: int, trail: list[int] | None = None) -> dict[str, Any]:
    """Back down the grow trail if it leads here, else the child with the highest score
    (the CNR for the cnr method, as the paper says; each method's own score otherwise),
    passing through children that show the same text as `node`."""
    snap = sel.snap
    node = snap.check_node(node)
    if trail:
        last = snap.check_node(trail[-1])
        if node < last < snap.end[node]:
            return sel.describe(last)
    chars, score = sel.feats.chars, sel.result.score
    shown = shown_chars(sel, node)
    at = node
    while True:
        kids = snap.children(at)
        kids = kids[chars[kids] > 0]
        if not len(kids):
            raise BadNode("the selection has no smaller block with text; it cannot shrink",
                          node=node)
        best = int(kids[np.lexsort((-chars[kids], -score[kids]))[0]])
        if chars[best] != shown:
            return sel.describe(best)
        at = best
