"""The block stage: inside the chosen element, keep the blocks that are content and drop the rest.

After a method has chosen an element, every block of it (segment.py) gets a probability from
the block model (pipeline/models/blocks.json, written by `pith train-blocks`, documented in
models/BLOCKS.md) over the block features (features.py). By default (option
`blocks_rule`, 'blend') the decision is the model file's cross-validated blend with the
method's own answer (its element less what it dropped, its parts): a block the method
shows stays unless under the model's `threshold`, a block it does not show is taken in
only at `add` or above; the rule 'boundary' keeps a text block when p >= BOUNDARY, the
classifier's own boundary. What is read, exported and shown in the reader is exactly the
kept blocks (`Choice.kept`, rendered through `drop` and `quiet`); the answer's node, which
the outline, grow and shrink use, is their lowest common ancestor.

Decisions a change must keep:
- scope: the method's element grown `blocks_grow` times (the model knows which blocks lie
  in the method's own element); a reader's include / exclude is decided in the same scope;
  after a grow or a shrink, the reader's element as it is;
- a block with no text cannot be judged from a text truth: it is kept when a text block
  next to it is kept, so an article's images stay and a sidebar's thumbnails go;
- code, data tables and figures with an image inside the method's element are kept
  whatever the model says (`blocks_keep_structured`), but a service page's code blocks,
  its product's demos, are left out (`blocks_service_code`, demos.py);
- blocks inside page furniture (auto.furniture) outside the method's element are dropped
  (`auto_furniture`): widening must not bring back what the method left out; nor are
  blocks inside a tooltip (auto.hover) that shows less than `auto_furniture_max` of the
  kept text, wherever the element grew (`without_hover`);
- a passage the kept blocks hold twice (`copies`: a page shipping its content twice, one
  copy for a layout a stylesheet hides) is read once (`blocks_drop_copies`); on a product
  page a shorter passage too (`page_copies`: a description shipped once per layout); a
  quote holding earlier kept blocks' texts is left out (`quoted_copies`: a forum reply
  quoting a whole earlier post, `blocks_drop_quoted`);
- when the model keeps no text block, the element is answered whole (never empty);
- a snapshot without layout uses the model's static half, as CLG does; the rendered half
  may be the static one too (the trainer ships it when it reads rendered pages as well:
  train_blocks.choose_rendered), and then no layout column is computed;
- with auto's element chosen by expected F1 (select.py, `auto_block_choice`), every block
  of the page is judged once (`judge_page`, the vote's element as the method's) and every
  later decision on the page reads those probabilities (`apply(page=...)`).
"""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import features as bf
from . import segment as blocks_mod
from .. import cards
from .. import demos
from .. import math as math_mod
from .. import pagetype
from .. import prices
from .. import teasers
from ..algorithms.auto import furniture, furniture_inside, hover, lowest_common_ancestor
from ..algorithms.base import Choice
from ..codes import first_seen
from .. import modelfile
from ..features import Features, tag_in
from ..options import Options
from ..snapshot import Snapshot

# Rows a tree walk takes at once (Model.margin): every row walks every tree, so a batch
# holds rows x trees node indices per level; 4096 rows x 200 trees (the model has 100)
# keep that to a few MB (cache-resident) where all the blocks of a 1,000,000-element page
# at once took gigabytes and twice the time (tests/bench_host_scale.py).
MARGIN_BATCH_ROWS = 4096

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "blocks.json"

# The 'boundary' rule's bar: the block model is fitted by log loss, so its probability is
# calibrated and 0.5 is where a block is as likely content as not (no threshold fitted to
# a dataset's truth convention; NOTES.md, 'Why blocks_rule is blend').
BOUNDARY = 0.5

# Copies (`copies`, option blocks_drop_copies): a block takes part when it holds at least
# COPY_MIN_BLOCK_CHARS characters (shorter lines — "Reply", "$10", "Yes" — repeat by
# nature), and a copied run is dropped when it holds at least COPY_MIN_RUN_CHARS: a
# passage of several paragraphs, where a repeated pull quote or a pricing table's
# repeated feature lines are shorter.
COPY_MIN_RUN_CHARS = 500
COPY_MIN_BLOCK_CHARS = 20
# ... and on a page the page type model calls a product's, at least
# PRODUCT_COPY_MIN_RUN_CHARS (`page_copies`): a shop ships its description once per layout
# (a tab for the desktop, an accordion for the phone), and a description is three or four
# lines, 300 to 400 characters; a service page's tiers and a reference's parameter lines
# repeat passages that short which their readers keep (NOTES.md, 'Why the block stage
# drops copied passages').
PRODUCT_COPY_MIN_RUN_CHARS = 250
# The page type (pagetype.CLASSES) whose shorter copies go: a product page's.
PRODUCT = "product"
# Quoted copies (`quoted_copies`, option blocks_drop_quoted): a quote is one block
# (segment.ATOMIC), so a forum reply quoting a whole earlier post holds that post's
# paragraphs inside one block, and no run of blocks repeats; it is a copy when the earlier
# blocks' texts found in it hold COPY_MIN_RUN_CHARS and at least QUOTED_SHARE of its
# characters: mostly a copy, where a reply quoting a line and answering at length is not
# (the rest of a quoted post is its image addresses, written as text; NOTES.md, 'Why a
# quote of an earlier post is read once').
QUOTED_SHARE = 0.5
# The blocks searched for quoted passages: quotes. The search is a string search per long
# block and earlier block, and a page's few quotes bound it (every long block of a 2,000
# block page took 0.6 s).
QUOTE_TAGS = frozenset({"blockquote"})

# The structured blocks kept whatever the model says (`structured`): code and figures.
CODE_BLOCK_TAGS = frozenset({"pre", "listing", "xmp", "plaintext"})
FIGURE_TAGS = frozenset({"figure"})


@dataclass(frozen=True, eq=False)
class Model:
    """A binary classifier over named features: gradient-boosted trees (all trees' nodes
    in flat arrays) or a logistic regression, with its decision threshold.

    The trees' arrays are indexed by slot: node i of the concatenated trees has slots 2i
    (its left child's way) and 2i+1 (its right's), and holds its feature, split and value
    at both; `children` maps a slot to the child's first slot. The walk reads the same
    trees laid out as complete binary heaps of `depth` levels (`heap_slot`: the slot each
    heap node stands for; a leaf above the last level goes on as a split no row passes,
    split +inf, to its left copy), so a step is arithmetic, `2 i + 1 + right`, not a
    gather of the child (NOTES.md, 'Why masks go down the tree by a running sum and the
    block trees walk as heaps')."""

    names: tuple[str, ...]
    threshold: float                   # keep at or above (a block the method shows, with `add`)
    kind: str                          # "trees" or "logistic"
    add: float | None = None           # take in a block the method does not show at or above
    base: float = 0.0
    roots: np.ndarray | None = None    # trees: each tree's root's first slot
    feature: np.ndarray | None = None  # per slot: the node's split feature (0 at leaves)
    split: np.ndarray | None = None    # per slot: go left when x <= split (inf at leaves)
    children: np.ndarray | None = None  # per slot 2i + r: the first slot of node i's left
                                       # (r 0) or right (r 1) child; a leaf's is its own
    value: np.ndarray | None = None    # per slot: the leaf's value (0 at splits)
    depth: int = 0
    heap_slot: np.ndarray | None = None   # per heap node (tree t's at t * heap_size): its slot
    heap_split: np.ndarray | None = None  # per heap node: its split (+inf: a leaf going on)
    heap_value: np.ndarray | None = None  # per heap node: the leaf value at the last level
    heap_size: int = 0                    # nodes of one tree's heap: 2 ** (depth + 1) - 1
    weights: np.ndarray | None = None  # logistic: per feature, on standardised values
    mean: np.ndarray | None = None
    scale: np.ndarray | None = None

    @property
    def reads_layout(self) -> bool:
        """Whether one of the model's features is a layout column (features.py's
        LAYOUT_NAMES beyond NAMES), which only rendered snapshots have."""
        return not set(self.names) <= set(bf.NAMES)

    def columns(self, names: tuple[str, ...]) -> np.ndarray:
        """Where the model's features are among `names` (the matrix's columns)."""
        return _columns(self.names, names)

    def probability(self, x: np.ndarray, columns: np.ndarray | None = None) -> np.ndarray:
        """Per row of `x`, the probability of keeping; the model's features are the
        columns `columns` of `x` (all of them, in order, when None)."""
        if self.kind == "logistic":
            x = x if columns is None else x[:, columns]
            z = self.base + ((x - self.mean) / self.scale) @ self.weights
        else:
            z = self.base + self.margin(x, columns)
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))

    def margin(self, x: np.ndarray, columns: np.ndarray | None = None) -> np.ndarray:
        """Sum of the trees' leaf values per row: every row walks every tree at once,
        one numpy step per tree level, over the flat slot arrays (a leaf's children are
        itself, so rows that reached a leaf stay there). The model's feature k is column
        columns[k] of `x`: the splits read the wide matrix in place, with no copy of its
        model columns."""
        feature = self.feature if columns is None else np.asarray(columns)[self.feature]
        if len(x) > MARGIN_BATCH_ROWS:    # bounded memory: one batch of rows at a time
            return np.concatenate([self._walk(x[i:i + MARGIN_BATCH_ROWS], feature)
                                   for i in range(0, len(x), MARGIN_BATCH_ROWS)])
        return self._walk(x, feature)

    def _walk(self, x: np.ndarray, feature: np.ndarray) -> np.ndarray:
        b, t = len(x), len(self.roots)
        if not b:
            return np.zeros(0)
        flat = np.ascontiguousarray(x, np.float64).ravel()
        base = (np.arange(b) * x.shape[1])[:, None]
        column = feature.take(self.heap_slot)          # per heap node, its column of x
        split = self.heap_split
        tree = np.arange(t) * self.heap_size           # each tree's root in the heaps
        step = 1 - tree                                # t*T + i -> t*T + 2 i + 1
        # take, not a[idx]: the same gather of a flat array by an index array, a quarter
        # faster (the walk is most of the block stage's model time); the array's method,
        # not np.take, whose Python wrapper costs a call on top
        if not self.depth:
            return self.heap_value.take(np.broadcast_to(tree, (b, t))).sum(axis=1)
        # the first level: every row at its tree's root, whose column and split are the
        # tree's own (no gather of them per row); the same comparisons, the same nodes
        right = flat.take(base + column.take(tree)) > split.take(tree)
        node = right + (tree + 1)                      # 2 * tree + step + right
        for _ in range(self.depth - 1):
            right = flat.take(base + column.take(node)) > split.take(node)
            node *= 2
            node += step
            node += right
        return self.heap_value.take(node).sum(axis=1)

    @classmethod
    def from_json(cls, obj: dict) -> "Model":
        names = tuple(obj["features"])
        add = float(obj["add"]) if obj.get("add") is not None else None
        if obj["kind"] == "logistic":
            return cls(names=names, threshold=float(obj["threshold"]), kind="logistic", add=add,
                       base=float(obj["intercept"]), weights=np.array(obj["weights"]),
                       mean=np.array(obj["mean"]), scale=np.array(obj["scale"]))
        trees = obj["trees"]
        sizes = np.array([len(tr["feature"]) for tr in trees], np.int64)
        roots = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        cat = lambda key: np.concatenate([np.asarray(tr[key]) for tr in trees])  # noqa: E731
        own = np.arange(int(sizes.sum()))
        offset = np.repeat(roots, sizes)
        feature, left, right = cat("feature"), cat("left"), cat("right")
        leaf = feature < 0
        left = np.where(leaf, own, left + offset)
        right = np.where(leaf, own, right + offset)
        both = lambda a: np.repeat(a, 2)        # noqa: E731  (a node's value at its 2 slots)
        depth = int(obj["depth"])
        split = both(np.where(leaf, np.inf, cat("split")).astype(np.float64))
        children = 2 * np.stack((left, right), axis=1).ravel()
        value = both(cat("value").astype(np.float64))
        heap_slot, heap_split, heap_value = _heaps(2 * roots, split, children, value, depth)
        return cls(names=names, threshold=float(obj["threshold"]), kind="trees", add=add,
                   base=float(obj.get("base", 0.0)), roots=2 * roots,
                   feature=both(np.where(leaf, 0, feature).astype(np.int64)),
                   split=split, children=children, value=value, depth=depth,
                   heap_slot=heap_slot, heap_split=heap_split, heap_value=heap_value,
                   heap_size=2 ** (depth + 1) - 1)


def _heaps(roots: np.ndarray, split: np.ndarray, children: np.ndarray, value: np.ndarray,
           depth: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slot, split, value) per node of the trees laid out as complete binary heaps of
    `depth` levels below the root (Model's docstring), level by level: a split's heap
    children are its two children's slots, a leaf's are itself (at +inf, the left one is
    taken), and the last level holds the value where the slot walk would stop."""
    t, size = len(roots), 2 ** (depth + 1) - 1
    slot = np.zeros(t * size, np.int64)
    slot[np.arange(t) * size] = roots
    tree = (np.arange(t) * size)[:, None]
    for level in range(depth):
        first = 2 ** level - 1
        local = np.arange(first, 2 * first + 1)[None, :]
        at = (tree + local).ravel()
        here = slot[at]
        slot[(tree + 2 * local + 1).ravel()] = children[here]
        slot[(tree + 2 * local + 2).ravel()] = children[here + 1]
    heap_split = split[slot]                # a leaf's split is +inf: no row goes right
    last = (tree + np.arange(2 ** depth - 1, size)[None, :]).ravel()
    heap_value = np.zeros(t * size)
    heap_value[last] = value[slot[last]]
    return slot, heap_split, heap_value


@lru_cache(maxsize=8)
def _columns(wanted: tuple[str, ...], names: tuple[str, ...]) -> np.ndarray:
    modelfile.check_features(wanted, names, "block model", "pith train-blocks")
    return np.array([names.index(n) for n in wanted], np.int64)


@lru_cache(maxsize=4)
def load_models(path: str = str(MODEL_PATH)) -> dict[str, Model]:
    """{"rendered": Model, "static": Model} from the package's model file."""
    return modelfile.load(path, "block model", "pith train-blocks", lambda obj: {
        kind: Model.from_json(obj[kind]) for kind in ("rendered", "static")})


def scope(snap: Snapshot, blocks: blocks_mod.Blocks, element: int) -> np.ndarray:
    """Positions (in blocks.rows) of the blocks inside `element`, itself included, and,
    for an element that is not a block row (a span, a cell of a data table), the block
    that holds its own text."""
    rows = blocks.rows
    inside = (rows >= element) & (rows < snap.end[element])
    # an element that is not a block row shows its own text, which its block holds
    inside |= rows == blocks.owner[element]
    return np.flatnonzero(inside)


def decide(p: np.ndarray, threshold: float, has_text: np.ndarray,
           shown: np.ndarray | None = None, add: float | None = None) -> np.ndarray:
    """Keep per block: text blocks by the model — with `add`, a block the method shows
    (`shown`) stays unless p < threshold and another is taken in only when p >= add, so
    the model overrides the method where it is sure —, text-less ones by their text
    neighbours (the previous or the next text block kept); every block when no text
    block is kept."""
    if add is not None and shown is not None:
        keep = np.where(shown, p >= threshold, p >= add) & has_text
    else:
        keep = (p >= threshold) & has_text
    if not keep.any():
        return np.ones(len(p), np.bool_)
    idx = np.arange(len(p))
    text_at = np.where(has_text, idx, -1)
    prev = np.maximum.accumulate(text_at)                                # last text block <= i
    nxt = np.minimum.accumulate(np.where(has_text, idx, len(p))[::-1])[::-1]
    kept_prev = np.where(prev >= 0, keep[np.maximum(prev, 0)], False)
    kept_next = np.where(nxt < len(p), keep[np.minimum(nxt, len(p) - 1)], False)
    return np.where(has_text, keep, kept_prev | kept_next)


def copies(texts: list[str], chars: np.ndarray, min_block: int = COPY_MIN_BLOCK_CHARS,
           min_run: int = COPY_MIN_RUN_CHARS) -> np.ndarray:
    """Which blocks (texts in reading order, spaces collapsed as blocks.texts gives them;
    their non-space `chars`) repeat a passage read
    before: a run of consecutive blocks whose texts are, in order, those of an earlier run
    of consecutive blocks, with two different texts at least (one paragraph said twice is
    not a copy, the same sequence read again is) and `min_run` characters. That is a page
    shipping its content twice, one copy for a layout a stylesheet hides (a static snapshot
    sees both) or a carousel's clones; a reader wants it once. Blocks under `min_block`
    characters are passed over: they neither make nor break a run."""
    n = len(texts)
    out = np.zeros(n, np.bool_)
    at = np.flatnonzero(chars >= min_block)
    if len(at) < 4:                    # a copied run and its original: two blocks each
        return out
    keys = [texts[i].lower() for i in at.tolist()]
    code = first_seen(keys, len(keys))                    # a text's first block
    f = np.where(code < np.arange(len(keys)), code, -1)    # the earlier block it repeats
    pair = (f[:-1] >= 0) & (f[1:] == f[:-1] + 1) & (code[:-1] != code[1:])
    mark = np.zeros(len(keys), np.bool_)
    mark[:-1] |= pair
    mark[1:] |= pair
    if not mark.any():
        return out
    start = mark & ~np.concatenate(([False], pair))           # a run begins here
    run = np.cumsum(start) - 1
    size = np.bincount(run[mark], weights=chars[at][mark])
    out[at[mark]] = size[run[mark]] >= min_run
    return out


def quoted_copies(texts: list[str], chars: np.ndarray, quotes: np.ndarray | None = None,
                  min_block: int = COPY_MIN_BLOCK_CHARS, min_run: int = COPY_MIN_RUN_CHARS,
                  share: float = QUOTED_SHARE) -> np.ndarray:
    """Which blocks (as `copies` reads them) quote passages read before: a block of at
    least `min_run` characters holding, in order, the texts of two or more different
    earlier blocks (each of `min_block` characters or more) that together are `min_run`
    characters and `share` of its own; only the blocks `quotes` marks (bool per block,
    None: every one) are searched. That is a reply quoting a whole earlier post (a quote
    is one block, so `copies` finds no run); a reader has the post already."""
    n = len(texts)
    out = np.zeros(n, np.bool_)
    at = np.flatnonzero(chars >= min_block)
    if len(at) < 3:                    # two paragraphs and the quote holding them
        return out
    sizes = chars[at]
    # a string search has no array form; only the few long blocks are searched, and only
    # for the shorter blocks before them
    long = sizes >= min_run
    if quotes is not None:
        long &= quotes[at]
    if not long.any():                 # most pages: no quote, no text read
        return out
    keys = [" ".join(texts[i].lower().split()) for i in at.tolist()]
    for k in np.flatnonzero(long).tolist():
        body = keys[k]
        inside = [j for j in np.flatnonzero(sizes[:k] < sizes[k]).tolist() if keys[j] in body]
        pos, found, seen = 0, 0, set()
        for j in inside:                   # in reading order, each after the one before
            hit = -1 if keys[j] in seen else body.find(keys[j], pos)
            if hit >= 0:
                pos, found = hit + len(keys[j]), found + int(sizes[j])
                seen.add(keys[j])
        out[at[k]] = len(seen) >= 2 and found >= max(min_run, share * sizes[k])
    return out


def page_copies(snap: Snapshot, feats: Features, node: int, texts: list[str],
                chars: np.ndarray) -> np.ndarray:
    """`copies` with the page's bar: PRODUCT_COPY_MIN_RUN_CHARS on a page the page type
    model calls a product's (`node` the method's element), COPY_MIN_RUN_CHARS on any other
    or without the model. The page type is asked for only when a run between the two
    bars is found (the shorter bar's copies hold the longer's)."""
    short = copies(texts, chars, min_run=PRODUCT_COPY_MIN_RUN_CHARS)
    if not short.any():
        return short
    kind = pagetype.classify(snap, feats, node)
    return short if kind is not None and kind[0] == PRODUCT else copies(texts, chars)


def structured(snap: Snapshot, blocks: blocks_mod.Blocks, which: np.ndarray,
               captioned: bool = False) -> np.ndarray:
    """Which blocks at `which` are code (`pre` and its old spellings), data tables,
    figures with an image (without `captioned`: only those with no text, a caption being
    text the model judges like any block), or displayed formulas (NOTES.md, 'Why a
    captioned figure stays in the answer')."""
    rows = blocks.rows[which]
    code = tag_in(snap, CODE_BLOCK_TAGS)[rows]
    figure = (tag_in(snap, FIGURE_TAGS)[rows] & (blocks.images[which] > 0)
              & (captioned | (blocks.chars[which] == 0)))
    return code | figure | blocks.data[rows] | math_mod.displayed_rows(snap)[rows]


def small_form(snap: Snapshot, feats: Features, element: int, share: float) -> np.ndarray:
    """Rows inside a `form` holding less than `share` of `element`'s text (option
    blocks_form_max)."""
    forms = np.flatnonzero(tag_in(snap, frozenset({"form"})))
    small = forms[feats.chars[forms] < share * max(int(feats.chars[element]), 1)]
    if not len(small):
        return np.zeros(snap.n, np.bool_)
    return snap.subtrees(small)


def widen(snap: Snapshot, feats: Features, node: int, times: int) -> int:
    """`node` grown `times` times, each to the nearest ancestor with more visible text
    (the grow button's rule), stopping at the root."""
    chars, parent = feats.chars, snap.parent
    for _ in range(times):
        up = int(parent[node])
        while up >= 0 and chars[up] <= chars[node]:
            up = int(parent[up])
        if up < 0:
            break
        node = up
    return node


# Models read instead of the model file while `models_in_use` is on (None: the file's).
_IN_USE: dict[str, Model] | None = None


@contextmanager
def models_in_use(models: dict[str, Model]):
    """Read `models` ({"rendered": Model, "static": Model}) instead of the model file
    inside the `with` block: the trainer runs the whole pipeline with each fold's model
    (train_blocks.pipeline_cv). Not for concurrent use (the host is one thread)."""
    global _IN_USE
    before, _IN_USE = _IN_USE, models
    try:
        yield
    finally:
        _IN_USE = before


def model_of(snap: Snapshot, model_path: str = str(MODEL_PATH)) -> Model:
    """The block model for this snapshot: the rendered half with layout, else the static."""
    models = _IN_USE if _IN_USE is not None else load_models(model_path)
    return models["rendered" if snap.layout else "static"]


@dataclass(frozen=True, eq=False)
class Judged:
    """Every block of a page judged at once (`judge_page`): the probability of each block
    (by position in blocks.rows; 0 without text), each block's text (whitespace collapsed
    already: segment.texts) and the texts joined as the block features read them
    (features.Joined; None when not made: the line rules join them then)."""

    p: np.ndarray
    texts: list[str]
    join: bf.Joined | None = None

    def dropping(self, found: np.ndarray) -> "Judged":
        """This page with every block `found` marks (bool per block) judged no content;
        itself when none is: what each line rule after the choice does with its finds."""
        if not found.any():
            return self
        return dataclasses.replace(self, p=np.where(found, 0.0, self.p))


def judge_page(snap: Snapshot, feats: Features, opts: Options, method: Choice,
               model_path: str = str(MODEL_PATH)) -> Judged | None:
    """Every block of the page judged at once, with `method`'s element as the method's;
    None past `blocks_max` blocks (a runaway page keeps the method's element)."""
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(len(blocks.rows))
    if not len(which) or len(which) > opts.blocks_max:
        return None
    has_text = blocks.chars > 0
    texts = blocks_mod.texts(snap, blocks, which)
    join = bf.joined(texts)           # the features' and the line rules' (select) join
    p, _ = probabilities(snap, feats, opts, 0, method, blocks, which, model_path,
                         judged=has_text, strings=texts, join=join)
    return Judged(p=np.where(has_text, p, 0.0), texts=texts, join=join)


def probabilities(snap: Snapshot, feats: Features, opts: Options, element: int,
                  method: Choice, blocks: blocks_mod.Blocks, which: np.ndarray,
                  model_path: str = str(MODEL_PATH),
                  judged: np.ndarray | None = None,
                  strings: list[str] | None = None,
                  join: bf.Joined | None = None) -> tuple[np.ndarray, Model]:
    """(probability per block at `which`, the model) for this snapshot. With `judged` (a
    mask over `which`), a tree model walks those blocks only and the others get 0: each
    block walks the trees on its own, so the probabilities of the judged are the same
    (a logistic model, one matrix product, scores them all). `strings` and `join`: the
    blocks' texts and their features.joined, when made already."""
    model = model_of(snap, model_path)
    sig = bf.page_signals(snap, feats, opts, element, read=blocks.rows[which])
    # the layout columns only for a model that reads one (a box-free model reads
    # rendered pages too: train_blocks.choose_rendered)
    layout = snap.layout and model.reads_layout
    x = bf.matrix(snap, feats, blocks, sig, element, which, method.drop, method.parts,
                  layout=layout, method=method.node, strings=strings, join=join)
    columns = model.columns(bf.LAYOUT_NAMES if layout else bf.NAMES)
    if judged is None or model.kind != "trees" or judged.all():
        return model.probability(x, columns), model
    p = np.zeros(len(x))
    p[judged] = model.probability(x[judged], columns)
    return p, model


def apply(snap: Snapshot, feats: Features, opts: Options, element: int, method: Choice,
          include: np.ndarray | None = None, exclude: np.ndarray | None = None,
          answer: int | None = None, model_path: str = str(MODEL_PATH),
          page: Judged | None = None, leave_out: np.ndarray | None = None) -> Choice:
    """The method's choice answered by the kept blocks inside `element` (the method's
    node or an ancestor of it; see the module docstring). A reader's own decisions
    override the model's: every block inside an `include` row is kept, then every block
    inside an `exclude` row is left out. The answer's node is `answer` (a row inside
    `element`; the blocks outside it are left out), or, when None, the lowest common
    ancestor of the kept blocks: the outline goes round what is kept. `page`: every block
    of the page already judged (`judge_page`): its probabilities and texts are read
    instead of computing the element's blocks' own. `leave_out` (bool per row): blocks
    never kept whatever the model says, though a reader's include brings them back (a
    comment thread under the post, comments.py)."""
    blocks = blocks_mod.compute(snap, feats)
    which = scope(snap, blocks, element)
    if not len(which):
        return method if element == method.node else pin(method, element)
    if len(which) > opts.blocks_max:        # a runaway page: the element, as without blocks
        node = method.node if answer is None else answer
        return method if node == method.node else pin(method, node)
    # decide reads no probability of a block without text (its neighbours decide it)
    has_text = blocks.chars[which] > 0
    if page is None:
        strings = blocks_mod.texts(snap, blocks, which)   # the features' and the copies' texts
        p, model = probabilities(snap, feats, opts, element, method, blocks, which,
                                 model_path, judged=has_text, strings=strings)
    else:
        strings = [page.texts[i] for i in which.tolist()]
        p, model = page.p[which], model_of(snap, model_path)
    rows = blocks.rows[which]
    if opts.blocks_rule == "blend":
        shown = bf.method_keeps(snap, blocks, rows, method.node, method.drop, method.parts)
        keep = decide(p, model.threshold, has_text, shown, model.add)
    else:
        keep = decide(p, BOUNDARY, has_text)
    in_method = bf.method_mask(snap, blocks, rows, method.node)
    if opts.blocks_keep_structured:
        keep |= structured(snap, blocks, which, opts.blocks_keep_captioned_figures) & in_method
    if opts.blocks_service_code:     # a service page's code is its product's demo
        keep = demos.left_out(snap, feats, method.node, rows, keep, CODE_BLOCK_TAGS)
    if opts.blocks_item_names:       # a listed item's name between its kept lines
        keep = cards.names(snap, feats, method.node, rows, keep, has_text,
                           blocks.chars[which], strings)
    if opts.blocks_card_controls:    # a listed card's buttons ("Add to cart", "Compare")
        keep = cards.controls(snap, feats, method.node, keep, strings)
    if opts.blocks_product_price:    # a product's price beside its kept name
        keep = prices.beside_name(snap, feats, method.node, rows, keep, has_text,
                                  blocks.chars[which], strings)
    if opts.blocks_product_teasers:  # other products' cards after the product
        keep = teasers.after_product(snap, feats, method.node, rows, keep, has_text,
                                     blocks.chars[which], p,
                                     strings if opts.blocks_product_price_cards else None,
                                     opts.blocks_product_own_lines,
                                     opts.blocks_product_tail_lines)
    if opts.blocks_form_max > 0:
        keep &= ~small_form(snap, feats, element, opts.blocks_form_max)[rows]
    if opts.auto_furniture:          # widening never brings back furniture the method left
        land = furniture(snap)
        if land.any():
            keep &= in_method | ~snap.subtrees(np.flatnonzero(land))[rows]
    if opts.auto_furniture:
        # nor hover text the element grew over (NOTES.md, 'Why a tooltip is left out of the answer')
        keep = without_hover(snap, feats, opts, blocks, rows, keep)
    if opts.blocks_drop_quoted:      # a reply quoting a whole earlier post
        kept_text = np.flatnonzero(keep & has_text)
        keep[kept_text[quoted_copies([strings[i] for i in kept_text.tolist()],
                                     blocks.chars[which[kept_text]],
                                     tag_in(snap, QUOTE_TAGS)[rows[kept_text]])]] = False
    if opts.blocks_drop_copies:
        kept_text = np.flatnonzero(keep & has_text)
        keep[kept_text[page_copies(snap, feats, method.node,
                                   [strings[i] for i in kept_text.tolist()],
                                   blocks.chars[which[kept_text]])]] = False
    if leave_out is not None and (keep & has_text & ~leave_out[rows]).any():
        keep &= ~leave_out[rows]           # never to nothing: then the thread is what is left
    for chosen, value in ((include, True), (exclude, False)):
        if chosen is not None and len(chosen):
            keep = np.where(snap.subtrees(chosen)[rows], value, keep)
    node = answer if answer is not None else (
        lowest_common_ancestor(snap, rows[keep]) if keep.any() else element)
    inside = (rows >= node) & (rows < snap.end[node])
    base = method if node == method.node else pin(method, node)
    return with_blocks(snap, blocks, base, which[inside], keep[inside])


def without_hover(snap: Snapshot, feats: Features, opts: Options, blocks: blocks_mod.Blocks,
                  rows: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """`keep` (a mask over the block rows `rows`) without the blocks inside a tooltip
    (auto.hover) that shows less than `auto_furniture_max` of the kept text: auto drops
    the ones inside its own element, and an element grown or moved after it (a question
    above its answers, posts.question; choose_by_blocks) holds others."""
    tips = hover(snap)
    if not tips.any() or not keep.any():
        return keep
    kept_rows = np.zeros(snap.n, np.bool_)
    kept_rows[rows[keep]] = True
    inner = furniture_inside(snap, feats, kept_rows[blocks.owner], tips, opts.auto_furniture_max)
    if not inner.any():
        return keep
    return keep & ~snap.subtrees(np.flatnonzero(inner))[rows]


def pin(choice: Choice, node: int) -> Choice:
    """`choice` moved to `node`: one subtree, nothing dropped, the method's blocks after it."""
    blocks = np.concatenate(([node], choice.blocks[choice.blocks != node]))
    return dataclasses.replace(choice, node=node, blocks=blocks, parts=None, drop=None,
                               quiet=None, kept=None, appendix=(), preface=())


def with_blocks(snap: Snapshot, blocks: blocks_mod.Blocks, choice: Choice, which: np.ndarray,
                keep: np.ndarray) -> Choice:
    """`choice` showing only the blocks `which[keep]` of its element."""
    full = np.zeros(len(blocks.rows), np.bool_)
    full[which[keep]] = True
    drop, quiet = blocks_mod.render_masks(snap, blocks, full, choice.node)
    return dataclasses.replace(choice, drop=drop if drop.any() else None,
                               quiet=quiet if quiet.any() else None, parts=None,
                               preface=(), kept=blocks.rows[which[keep]])
