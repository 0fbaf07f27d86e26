"""`pith train-blocks`: learn the block classifier (keep.py) from the training sites of the shared datasets.

Stages:
  1. pages: every dataset's index, each page on the side of the site split (datasets.py:
     the same rule as CLG's, so `pith bench --split validation` pages are never seen here);
     `wcxb_dev` is left out when `wcxb_dev_full` is there (its 380 pages are inside it,
     same ids and bytes);
  2. per training page and mode — rendered (the snapshot cache `pith bench` fills) and
     static (parsed from the HTML) — the default pipeline's element (auto, block stage
     off), its blocks, their features (pipeline/blocks/features.py) and labels: a block is content
     when at least half of its characters lie in text nodes the truth covers (train.py's
     `truth_units`: 4-token shingles, as the scorer); blocks without a token are not
     labelled (an image, a "|"); the post's title is content whatever the truth says: the
     heading showing the page's title (`headline.matches`), or without one the h1 right
     above the first content block in the post's own container (`post_heading`);
  3. the learner is picked by site-grouped cross-validation on the training pages only
     (`FOLDS` folds, no site in two folds): logistic regression (numpy, train.py's
     Newton solver) against gradient-boosted trees (LightGBM), and the decision
     threshold on a grid; the measure is the mean page F1 (shingles, the scorer's
     `score_pair`) of the kept blocks' text, which is what the bench counts; then the
     winner's best `SHORTLIST` rules (keep / add thresholds) are scored through the whole
     default pipeline, each page read with the model of the fold that left it out, and
     the best of them is the rule (`pipeline_cv`) — unless the rule of the model file
     in the package, scored beside them, is within RULE_MARGIN of it: then that rule
     stays (`choose_piped`);
  4. the static half first, then the rendered one; the rendered pages are then also read
     through the pipeline by the static half's fold models at its rule, and unless the
     rendered half's best beats that by more than RENDERED_MARGIN, the static half reads
     rendered pages too (`choose_rendered`: its features are columns every snapshot has);
  5. the winner is refitted on every training page and written with its threshold to
     models/blocks.json (a rendered half that is the static one is its copy, marked
     "source": "static"), with models/BLOCKS.md saying what was measured.

Weights: each page weighs 1, shared by its labelled blocks in proportion to the square
root of their characters — a page of 300 comments does not outweigh twenty articles,
and a long paragraph counts more than a date line without drowning it.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..pipeline import headline
from ..pipeline.algorithms.auto import lowest_common_ancestor
from ..pipeline.blocks import features as bf
from ..pipeline.blocks import keep
from ..pipeline.blocks import segment as blocks_mod
from ..pages import static
from ..errors import PithError
from ..pipeline.features import compute, tag_in
from ..pipeline.options import Options
from ..pipeline.select import select
from ..pipeline.snapshot import Snapshot, from_json
from .datasets import (MODELS_DIR, SnapshotCache, all_datasets, cache_root, datasets_to_use, load_scorer, pages_of,
                       side_of, site_of)
from .train import MAX_NODES, _units, truth_units

MODEL_FILE = "blocks.json"
FOLDS = 3
# Prefixed to a site before hashing it into a fold (`folds_of`): a hash independent of
# the one that puts the site on the training side (NOTES.md, 'Why the trainer's folds hash
# a salted site').
FOLD_SALT = "fold/"
# Share of a block's characters that must be truth for the block to be content.
CONTENT_SHARE = 0.5
# The post's heading (`post_heading`): an h1 — of the headings the rule finds on the static
# training pages (2026-11-27), 57 of the 60 h1s are the page's own heading under a
# `<title>` that differs from it ("Dental Care" of "Dental Care | ONE Health Ohio", a
# two-word title under MIN_CHARS; "Dec 18 2025 Preparing a transition in Debusine"),
# against 5 of 12 h2s and 3 of 22 h3–h6s ("Table of Contents", "FAQs", a forum poster's
# name, "Share With") ...
POST_HEADING_TAGS = frozenset({"h1"})
# ... nearest before the first content block is the post's own when the blocks between
# hold at most this many characters (a byline, a date line, share buttons: a dateline is
# at most 120, metadata/dateline.py) ...
POST_HEADING_GAP = 200
# ... and at least this share of the labelled characters of the smallest element holding
# both (the heading aside) is content: the post's container, not the column a menu's or a
# sidebar's heading shares with the post ("Recent posts", "bbc.co.uk navigation" before a
# Dragnet post whose title is in a div; NOTES.md, 'Why the block model is
# retrained on dragnet_train and magic_html').
POST_HEADING_PURITY = 0.9
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.1, 0.61, 0.05))
# Blend: a block the method does not show is taken in at or above this probability (the
# method's blocks stay unless under the threshold); 1.01 never takes one in.
ADD_THRESHOLDS = (0.6, 0.7, 0.8, 0.9, 1.01)
# The rules the whole pipeline scores (`pipeline_cv`): the within-element CV's best this
# many of the chosen learner. The within-element CV judges the blocks of the method's
# element; the pipeline reads the model over the whole page first (the element of highest
# expected F1), and its curve can peak elsewhere: for the static half on 2026-11-26 the
# within-element CV's best was keep 0.35 (0.8589, flat from 0.25) and the pipeline's 0.25
# (0.8674 against 0.8658; NOTES.md, 'Why the trainer picks its rule through the whole
# pipeline'). Six: the curves are flat over a few neighbouring rules, and each rule costs
# one pass of the pipeline over a mode's training pages (about two minutes here).
SHORTLIST = 6
# LightGBM settings: shallow trees (the host walks all trees at once, one numpy step per
# level: the walk's time is blocks x trees x depth, a tenth of the host's time per page at
# 200 trees), a fixed seed, one thread (deterministic); NOTES.md, 'Why the block model's
# trees are shallow'. 100 rounds at twice the learning rate scored what 200 did in the
# pipeline's site-grouped CV and halve the walk (NOTES.md, 'Why the block model has 100
# trees'). Larger leaves, hessian floors, feature sampling and path smoothing moved nothing
# (NOTES.md, 'Why the block model is not regularised harder').
TREE_ROUNDS = 100
TREE_PARAMS = {"objective": "binary", "learning_rate": 0.16, "num_leaves": 31, "max_depth": 6,
               "min_data_in_leaf": 40, "bagging_fraction": 0.8, "bagging_freq": 1,
               "feature_fraction": 0.8, "lambda_l2": 1.0, "seed": 7, "deterministic": True,
               "num_threads": 1, "verbose": -1}
LOGISTIC_L2 = 1.0
MODES = ("rendered", "static")
# How much better through the pipeline the rendered half must score on the rendered
# training pages to be shipped instead of the box-free one: the spread of the pipeline CV
# between LightGBM seeds. On 2026-11-26, the static half at one rule over seeds 7-10:
# 0.8676, 0.8681, 0.8676, 0.8701; the day's first training put the box-free half 0.0003
# above the rendered one on the rendered pages, its second the rendered half 0.0011 above.
RENDERED_MARGIN = 0.002
# How much better through the pipeline a rule must score than the rule the shipped model
# file uses (the incumbent, scored beside the shortlist) to replace it: the same seed
# spread. Neighbouring rules score within it of each other, so without a margin each
# retraining would move the rule on noise, and every move changes what readers see on
# some page (NOTES.md, 'Why the trainer's folds hash a salted site').
RULE_MARGIN = RENDERED_MARGIN


# What the model card (BLOCKS.md) says of each dataset a model learns from: its licence
# and the credit it asks (each dataset's SOURCE.md). A model trained on AGPLv3 data says
# so; CC-BY-4.0 asks for attribution (NOTES.md, 'Why the block model is retrained
# on dragnet_train and magic_html').
DATASET_CARDS = {
    "cleaneval": "CleanEval shared task (ACL SIGWAC, 2007), https://cleaneval.sigwac.org.uk, "
                 "via github.com/j-szulc/html-cleaning-dataset-merged; no licence stated, "
                 "distributed for research use",
    "readability": "Mozilla Readability test pages, github.com/mozilla/readability "
                   "(test/test-pages); Apache License 2.0",
    "wcxb_dev_full": "WCXB: A Multi-Type Web Content Extraction Benchmark, © 2026 Murrough "
                     "Foley, github.com/Murrough-Foley/web-content-extraction-benchmark "
                     "(dev split), arXiv 2605.21097; Creative Commons Attribution 4.0 "
                     "(CC-BY-4.0)",
    "dragnet_train": "Dragnet data (Moz, 2012; pages collected by Kurtis Bohrnstedt), "
                     "github.com/seomoz/dragnet_data, the official training list; the data "
                     "is licensed under the GNU Affero General Public License v3 (AGPLv3): "
                     "this model is trained on it",
    "magic_html": "magic-html benchmark (OpenDataLab, 2024), github.com/opendatalab/"
                  "magic-html (benchmark/data); Apache License 2.0",
}


@dataclass
class Page:
    """One page in one mode: its blocks' features, labels, weights and texts."""

    key: str
    site: str
    side: str
    x: np.ndarray
    y: np.ndarray          # 1 content, 0 not, -1 unlabelled
    w: np.ndarray
    shown: np.ndarray      # the blocks the method's own answer shows
    texts: list[str]       # the text nodes of the scope in reading order
    piece_block: np.ndarray  # the block (row of x) of each of `texts`
    has_text: np.ndarray
    truth: str


def block_labels(snap: Snapshot, blocks: blocks_mod.Blocks, which: np.ndarray,
                 truth: str) -> np.ndarray:
    """1 / 0 / -1 per block at `which` (see the module docstring)."""
    feats = compute(snap)
    owner, chars, strings = _units(snap, feats)
    side = truth_units(strings, truth)
    at = blocks.index(snap.n)[blocks.owner[owner]]
    ok = at >= 0
    pos = np.bincount(at[ok & (side == 1)], weights=chars[ok & (side == 1)],
                      minlength=len(blocks.rows))
    neg = np.bincount(at[ok & (side == 0)], weights=chars[ok & (side == 0)],
                      minlength=len(blocks.rows))
    pos, neg = pos[which], neg[which]
    out = np.where(pos >= CONTENT_SHARE * (pos + neg), 1, 0)
    out = np.where(pos + neg > 0, out, -1)
    # the page's own title heading is content whatever the truth says: the truths differ
    # (of the title headings in the element on the static training pages, the truth keeps
    # 535 of 588 on dragnet_train and 40 of 46 on cleaneval, 222 of 558 on wcxb_dev_full,
    # 34 of 102 on magic_html, 10 of 42 on readability), a reader expects the title
    # (NOTES.md, 'Why the block model is retrained on dragnet_train and magic_html')
    title_rows = headline.matches(snap, feats)
    titled = np.zeros(len(blocks.rows), bool)
    if len(title_rows):
        at_title = blocks.index(snap.n)[blocks.owner[title_rows]]
        titled[at_title[at_title >= 0]] = True
    if titled[which].any():
        return np.where(titled[which], 1, out)
    # no heading shows the title: the post's heading is found by where it stands
    at = post_heading(snap, feats, blocks, which, out, pos + neg)
    if at >= 0:
        out[at] = 1
    return out


def post_heading(snap: Snapshot, feats, blocks: blocks_mod.Blocks, which: np.ndarray,
                 labels: np.ndarray, chars: np.ndarray) -> int:
    """The position (in `which`) of the post's own heading, which the truth leaves out and
    the title convention labels content (-1: none): the visible h1–h6 nearest before the
    first content block (`labels`, the truth's, per block at `which`; `chars`, the
    labelled characters of each) when that block is no heading, the heading is one of
    POST_HEADING_TAGS, at most POST_HEADING_GAP characters of blocks lie between them, and
    the smallest element holding both has at least POST_HEADING_PURITY of its labelled
    characters besides the heading content. A post whose `<title>` names the blog alone ("Garden
    Notes") shows its title in a heading `headline.matches` does not find."""
    content = np.flatnonzero(labels == 1)
    if not len(content):
        return -1
    first = int(content[0])
    rows = blocks.rows[which]
    if snap.tag[rows[first]] in headline.HEADINGS:     # the truth has the post's heading
        return -1
    heading = tag_in(snap, headline.HEADINGS)[rows[:first]] & ~feats.gone[rows[:first]] \
        & (blocks.chars[which[:first]] > 0)
    if not heading.any():
        return -1
    at = int(np.flatnonzero(heading)[-1])
    if snap.tag[rows[at]] not in POST_HEADING_TAGS:
        return -1
    if blocks.chars[which[at + 1:first]].sum() > POST_HEADING_GAP:
        return -1
    lca = lowest_common_ancestor(snap, rows[[at, first]])      # the smallest holding both
    inside = (rows >= lca) & (rows < snap.end[lca]) & (labels >= 0)
    inside[at] = False
    held = chars[inside].sum()
    return at if held > 0 and chars[inside & (labels == 1)].sum() >= POST_HEADING_PURITY * held \
        else -1


def page_of(key: str, site: str, side: str, snap: Snapshot, truth: str,
            grow: int = Options().blocks_grow) -> Page | None:
    """Features and labels of the blocks of the default element grown `grow` times, as
    the block stage sees them (None: no block). Not every block of the page as
    keep.judge_page reads them: tried, and not better on the validation sites (NOTES.md,
    'Why the block model still learns from the grown element only')."""
    opts = Options.from_overrides({"blocks": False})
    try:
        sel = select(snap, opts)
    except PithError:
        return None
    blocks = blocks_mod.compute(snap, sel.feats)
    element = keep.widen(snap, sel.feats, sel.node, grow)
    which = keep.scope(snap, blocks, element)
    if not len(which):
        return None
    sig = bf.page_signals(snap, sel.feats, sel.options, element)
    x = bf.matrix(snap, sel.feats, blocks, sig, element, which, sel.result.drop,
                  sel.result.parts, layout=snap.layout, method=sel.node)
    y = block_labels(snap, blocks, which, truth)
    root = np.sqrt(blocks.chars[which].astype(np.float64)) * (y >= 0)
    w = root / root.sum() if root.sum() > 0 else root
    piece_block, texts = blocks_mod.pieces(snap, blocks, which)
    shown = bf.method_keeps(snap, blocks, blocks.rows[which], sel.node, sel.result.drop,
                            sel.result.parts)
    return Page(key=key, site=site, side=side, x=x.astype(np.float32), y=y, w=w, shown=shown,
                texts=texts, piece_block=piece_block,
                has_text=blocks.chars[which] > 0, truth=truth)


def collect(datasets: list[Path], cache_dir: Path, sides: tuple[str, ...] = ("train",),
            quiet: bool = False, grow: int = Options().blocks_grow,
            modes: tuple[str, ...] = MODES) -> dict[str, list[Page]]:
    """Pages per mode, for the pages of `sides`."""
    out: dict[str, list[Page]] = {m: [] for m in MODES}
    for d in datasets_to_use(datasets):
        name, pages = pages_of(d, quiet)
        for e in pages:
            site = site_of({**e, "dataset": name})
            side = side_of(site)
            if side not in sides or e.get("synthetic_fixture"):
                continue
            truth = (d / e.get("truth", f"truth/{e['id']}.txt")).read_text(
                encoding="utf-8", errors="replace")
            key = f"{name}/{e['id']}"
            snap = rendered_snapshot(cache_dir, name, e) if "rendered" in modes else None
            if snap is not None:
                page = page_of(key, site, side, snap, truth, grow)
                if page is not None:
                    out["rendered"].append(page)
            snap = static_snapshot(d, e) if "static" in modes else None
            if snap is not None:
                page = page_of(key, site, side, snap, truth, grow)
                if page is not None:
                    out["static"].append(page)
    return out


def rendered_snapshot(cache_dir: Path, name: str, entry: dict) -> Snapshot | None:
    """The cached rendered snapshot of a dataset page (None: not cached, no layout, or
    not a valid snapshot)."""
    cached = cache_dir / name / f"{entry['id']}.json"
    if not cached.is_file():
        return None
    try:
        snap = from_json(json.loads(cached.read_text(encoding="utf-8")), MAX_NODES)
    except (PithError, ValueError):
        return None
    return snap if snap.layout else None


def static_snapshot(dataset: Path, entry: dict) -> Snapshot | None:
    """The static snapshot of a dataset page from its HTML (None: not readable)."""
    try:
        html, _ = static.decode_html(static.read_page(dataset / entry["html"]), None, "replace")
        return from_json(static.snapshot_from_html(html, entry.get("url") or ""), MAX_NODES)
    except PithError:
        return None


def snapshot_loader(datasets: list[Path], cache_dir: Path, mode: str):
    """key ("dataset/id", as Page.key) -> that page's snapshot in `mode`, or None."""
    where = {}
    for d in datasets_to_use(datasets):
        name, pages = pages_of(d, True)
        where.update({f"{name}/{e['id']}": (d, name, e) for e in pages})

    def load(key: str) -> Snapshot | None:
        if key not in where:
            return None
        d, name, entry = where[key]
        return rendered_snapshot(cache_dir, name, entry) if mode == "rendered" \
            else static_snapshot(d, entry)
    return load


# --------------------------------------------------------------------------- learners
def fit_trees(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict:
    """LightGBM trees, exported as arrays keep.Model evaluates with numpy."""
    import lightgbm
    data = lightgbm.Dataset(x, label=y, weight=w * len(w) / max(w.sum(), 1e-12))
    return export_trees(lightgbm.train(TREE_PARAMS, data, num_boost_round=TREE_ROUNDS))


def export_trees(booster) -> dict:
    """The booster's trees as flat arrays (feature, split, left, right, value per node)."""
    dump = booster.dump_model()
    trees, depth = [], 0
    for info in dump["tree_info"]:
        feature, split, left, right, value = [], [], [], [], []

        def walk(node, level):
            nonlocal depth
            k = len(feature)
            feature.append(-1)
            split.append(0.0)
            left.append(-1)
            right.append(-1)
            value.append(0.0)
            if "leaf_value" in node:
                value[k] = float(node["leaf_value"])
                depth = max(depth, level)
                return k
            if node.get("decision_type", "<=") != "<=":
                raise PithError(f"tree split {node.get('decision_type')} not supported")
            feature[k] = int(node["split_feature"])
            split[k] = float(node["threshold"])
            left[k] = walk(node["left_child"], level + 1)
            right[k] = walk(node["right_child"], level + 1)
            return k
        walk(info["tree_structure"], 0)
        trees.append({"feature": feature, "split": split, "left": left, "right": right,
                      "value": value})
    return {"kind": "trees", "trees": trees, "depth": depth, "base": 0.0}


def fit_logistic_model(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict:
    """Weighted L2 logistic regression on standardised features (Newton, from zero)."""
    mean = np.average(x, axis=0, weights=w)
    scale = np.sqrt(np.average((x - mean) ** 2, axis=0, weights=w))
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    a = np.hstack((np.ones((len(z), 1)), z))
    beta = np.zeros(a.shape[1])
    pen = np.full(a.shape[1], LOGISTIC_L2 / max(w.sum(), 1e-9) * 1e-3)
    pen[0] = 0.0
    ws = w / w.mean()
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ beta, -50, 50)))
        grad = a.T @ (ws * (p - y)) + pen * beta * len(z)
        hess = (a * (ws * p * (1 - p))[:, None]).T @ a + np.diag(pen * len(z)) \
            + 1e-6 * np.eye(a.shape[1])
        beta = beta - np.linalg.solve(hess, grad)
    return {"kind": "logistic", "intercept": float(beta[0]), "weights": beta[1:].tolist(),
            "mean": mean.tolist(), "scale": scale.tolist()}


LEARNERS = {"trees": fit_trees, "logistic": fit_logistic_model}


def stack(pages: list[Page]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.vstack([p.x for p in pages]).astype(np.float64)
    y = np.concatenate([p.y for p in pages])
    w = np.concatenate([p.w for p in pages])
    ok = y >= 0
    return x[ok], y[ok].astype(np.float64), w[ok]


def page_f1(scorer, page: Page, keep_mask: np.ndarray) -> float:
    """Page F1 of the kept blocks' text nodes in reading order, joined as render joins
    them: nothing between the pieces of one block (inline runs), a break between blocks."""
    chosen = np.flatnonzero(keep_mask[page.piece_block])
    blk = page.piece_block[chosen]
    breaks = np.concatenate(([False], blk[1:] != blk[:-1]))
    text = "".join(("\n" if b else "") + page.texts[i] for i, b in zip(chosen.tolist(), breaks))
    return scorer.score_pair(text, page.truth)[2]


def folds_of(pages: list[Page]) -> np.ndarray:
    """Fold per page by a hash of its site (no site in two folds), salted with FOLD_SALT:
    the train/validation split takes the unsalted hash modulo 3 (datasets.side_of), so
    the training sites all share a residue class of it and folds by that same hash
    modulo 3 left fold 0 empty — the 'three' folds were two, each model fitted on half
    the training pages (until 2026-11-27)."""
    return np.array([int(hashlib.sha1((FOLD_SALT + p.site).encode()).hexdigest(), 16) % FOLDS
                     for p in pages])


def cross_validate(pages: list[Page], names: tuple[str, ...], scorer,
                   learners=("logistic", "trees"), fold_models: dict | None = None) -> dict:
    """Mean page F1 per learner and threshold over site-grouped folds, with the
    element-whole and oracle (labels) figures of the same pages beside them. Each fold's
    fitted model goes into `fold_models[(learner, fold)]` when a dict is given."""
    fold = folds_of(pages)
    probs: dict[str, list[np.ndarray]] = {k: [None] * len(pages) for k in learners}
    for f in range(FOLDS):
        train = [p for p, k in zip(pages, fold) if k != f]
        x, y, w = stack(train)
        for learner in learners:
            fitted = LEARNERS[learner](x, y, w)
            if fold_models is not None:
                fold_models[(learner, f)] = fitted
            model = keep.Model.from_json({**fitted, "features": list(names), "threshold": 0.5})
            for i in np.flatnonzero(fold == f):
                probs[learner][i] = model.probability(pages[i].x.astype(np.float64))
    out = {"whole": float(np.mean([page_f1(scorer, p, np.ones(len(p.y), bool)) for p in pages])),
           "method": float(np.mean([page_f1(scorer, p, p.shown) for p in pages])),
           "oracle": float(np.mean([page_f1(scorer, p, p.y == 1) for p in pages]))}
    for learner in learners:
        for t in THRESHOLDS:
            f1 = [page_f1(scorer, p, keep.decide(pr, t, p.has_text))
                  for p, pr in zip(pages, probs[learner])]
            out[rule_key(learner, t, None)] = float(np.mean(f1))
            for add in ADD_THRESHOLDS:
                f1 = [page_f1(scorer, p, keep.decide(pr, t, p.has_text, p.shown, add))
                      for p, pr in zip(pages, probs[learner])]
                out[rule_key(learner, t, add)] = float(np.mean(f1))
    return out


def parse_rule(key: str) -> tuple[str, float, float | None]:
    """(learner, keep threshold, add threshold or None) of a rule key ("learner@keep" or
    "learner@keep+add", as cross_validate names them)."""
    learner, _, rule = key.partition("@")
    threshold, _, add = rule.partition("+")
    return learner, float(threshold), float(add) if add else None


def choose_rule(cv: dict[str, float]) -> str:
    """The key of the best cross-validated rule (its learner is the one chosen)."""
    return max((k for k in cv if "@" in k), key=lambda k: cv[k])


def shortlist(cv: dict[str, float], learner: str, n: int = SHORTLIST) -> list[str]:
    """The `n` best cross-validated rules of `learner`, best first (ties in key order)."""
    return sorted((k for k in cv if k.startswith(learner + "@")), key=lambda k: (-cv[k], k))[:n]


def rule_key(learner: str, threshold: float, add: float | None) -> str:
    """The key of a rule, as cross_validate names it ("trees@0.25+0.7", "logistic@0.3")."""
    return f"{learner}@{threshold}" + (f"+{add}" if add is not None else "")


def incumbent(model_file: Path, mode: str) -> str | None:
    """The rule key of `mode`'s half in an existing model file (None: no readable file,
    or no such half). A half that is the static one (`source`) has the static rule."""
    try:
        half = json.loads(model_file.read_text(encoding="utf-8"))[mode]
        return rule_key(half["learner"], float(half["threshold"]),
                        float(half["add"]) if half.get("add") is not None else None)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def choose_piped(piped: dict[str, float], rules: list[str], held: str | None,
                 margin: float = RULE_MARGIN) -> str:
    """The rule to ship from the pipeline CV's scores: the best of `rules` (a tie goes to
    the within-element CV's order, `rules`' order), unless the incumbent `held` was
    scored and the best beats it by `margin` or less — then the incumbent stays."""
    best = max(rules, key=lambda k: (piped[k], -rules.index(k)))
    if held is not None and held in piped and piped[best] <= piped[held] + margin:
        return held
    return best


def pipeline_cv(pages: list[Page], fold_models: dict[int, dict], names: tuple[str, ...],
                rules: list[str], snapshot_of, scorer, quiet: bool = True) -> dict[str, float]:
    """Mean page F1 per rule of the whole default pipeline (auto, block stage on, the
    element by expected F1), each page read with its fold's model (`fold_models[fold]`,
    fitted without the page's site) at the rule's thresholds. `snapshot_of(key)` gives a
    page's snapshot (None: the page is left out, for every rule alike)."""
    fold = folds_of(pages)
    models = {f: [keep.Model.from_json({**fold_models[f], "features": list(names),
                                        "threshold": t, "add": a})
                  for _, t, a in map(parse_rule, rules)] for f in range(FOLDS)}
    total, counted = np.zeros(len(rules)), 0
    for page, f in _progress(list(zip(pages, fold)), quiet, "pipeline cv"):
        snap = snapshot_of(page.key)
        if snap is None:
            continue
        counted += 1
        for r, model in enumerate(models[f]):
            with keep.models_in_use({"rendered": model, "static": model}):
                try:
                    text = select(snap).output("text")
                except PithError:
                    text = ""
            total[r] += scorer.score_pair(text, page.truth)[2]
    return {k: float(v / max(counted, 1)) for k, v in zip(rules, total)}


def choose_rendered(own: float, boxfree: float, margin: float = RENDERED_MARGIN) -> str:
    """Which half reads rendered pages: "static" (the box-free model, which reads every
    snapshot's NAMES columns) unless `own` — the best of the model fitted on the rendered
    blocks — beats the box-free half by more than `margin` through the whole pipeline on
    the rendered training pages; else "rendered". A near-tie goes to the box-free half: no
    layout column to compute, one model to retrain (NOTES.md, 'Why rendered pages are read
    by the box-free model')."""
    return "rendered" if own > boxfree + margin else "static"


def _report(mode: str, cv: dict, piped: dict, record: dict, quiet: bool) -> None:
    if not quiet:
        extra = "".join(f"; box-free {k} {v:.4f}" for k, v in
                        record.get("pipeline_boxfree", {}).items())
        print(f"{mode}: {record['pages']} pages; cv " + ", ".join(
            f"{k} {v:.4f}" for k, v in cv.items()) + "; pipeline " + ", ".join(
            f"{k} {v:.4f}" for k, v in piped.items()) + extra, file=sys.stderr)


def _progress(items: list, quiet: bool, what: str):
    """`items` behind a progress bar drawn only on a terminal and not when `quiet` (as
    datasets.pages_of draws its own)."""
    from tqdm import tqdm
    return tqdm(items, desc=what, unit="page", file=sys.stderr,
                disable=quiet or not sys.stderr.isatty(), dynamic_ncols=True)


def kept_rendered(model_file: Path) -> dict | None:
    """The rendered half a static-only training keeps from the model file it replaces:
    None when that half is the static one (`source`: the new static half is copied in its
    place, the choice `choose_rendered` made stays), else that half unchanged. PithError
    without a readable model file: nothing would read rendered pages."""
    try:
        half = json.loads(model_file.read_text(encoding="utf-8"))["rendered"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PithError(f"--static-only keeps the rendered half of {model_file}, "
                        f"which has none ({exc})") from None
    return None if half.get("source") == "static" else half


def train(datasets: list[Path], cache_dir: Path, out_dir: Path = MODELS_DIR,
          quiet: bool = False, corpus_cache: Path | None = None,
          static_only: bool = False) -> dict:
    scorer = load_scorer()
    t0 = time.perf_counter()
    held_rendered = kept_rendered(keep.MODEL_PATH) if static_only else None
    modes = ("static",) if static_only else MODES
    reused = corpus_cache is not None and corpus_cache.is_file()
    if reused:
        pages = pickle.loads(corpus_cache.read_bytes())
    else:
        pages = collect(datasets, cache_dir, quiet=quiet, modes=modes)
        if corpus_cache is not None:
            corpus_cache.parent.mkdir(parents=True, exist_ok=True)
            corpus_cache.write_bytes(pickle.dumps(pages))
    t1 = time.perf_counter()
    result: dict = {"version": 1, "trained": _dt.date.today().isoformat(),
                    "command": "pith train-blocks", "config": {
                        "folds": FOLDS, "content_share": CONTENT_SHARE, "trees": TREE_PARAMS, "tree_rounds": TREE_ROUNDS,
                        "logistic_l2": LOGISTIC_L2, "shortlist": SHORTLIST},
                    "data": {"datasets": [d.name for d in datasets_to_use(datasets)],
                             "cache": cache_dir.name, "corpus_reused": reused,
                             "static_only": static_only}, "cv": {}}
    boxfree: tuple[dict, str] | None = None       # the static half's fold models and rule
    for mode in ("static", "rendered"):           # the box-free half first: see below
        if mode not in modes:   # static-only: the rendered half as kept_rendered says
            result[mode] = held_rendered or {**result["static"], "source": "static"}
            continue
        names = bf.LAYOUT_NAMES if mode == "rendered" else bf.NAMES
        mp = pages[mode]
        if not mp:
            raise PithError(f"no training page for the {mode} block model (is the snapshot "
                            f"cache {cache_dir} filled? run `pith bench` first)")
        folds: dict = {}
        cv = cross_validate(mp, names, scorer, fold_models=folds)
        learner = parse_rule(choose_rule(cv))[0]
        rules = shortlist(cv, learner)
        # the shipped model's rule is scored too, if it is one of this learner's
        held = incumbent(keep.MODEL_PATH, mode)
        held = held if held in cv and held.startswith(learner + "@") else None
        scored = rules + ([held] if held is not None and held not in rules else [])
        loader = snapshot_loader(datasets, cache_dir, mode)
        mine = {f: folds[(learner, f)] for f in range(FOLDS)}
        piped = pipeline_cv(mp, mine, names, scored, loader, scorer, quiet)
        best = choose_piped(piped, rules, held)
        if mode == "static":
            boxfree = (mine, best)
        x, y, w = stack(mp)
        record = result["cv"][mode] = {
            "pages": len(mp), "blocks": int(len(y)), "content_share": round(float(y.mean()), 3),
            **{k: round(v, 4) for k, v in cv.items()},
            "pipeline": {k: round(v, 4) for k, v in piped.items()}, "incumbent": held}
        if mode == "rendered":
            # the box-free half through the same pipeline on the same rendered pages, each
            # read with the box-free model of the fold that left its site out
            static_folds, static_rule = boxfree
            score = pipeline_cv(mp, static_folds, bf.NAMES, [static_rule], loader, scorer,
                                quiet)[static_rule]
            record["pipeline_boxfree"] = {static_rule: round(score, 4)}
            if choose_rendered(piped[best], score) == "static":
                result[mode] = {**result["static"], "source": "static"}
        if mode not in result:
            _, threshold, add = parse_rule(best)
            result[mode] = {**LEARNERS[learner](x, y, w), "features": list(names),
                            "threshold": threshold, "add": add, "learner": learner}
        _report(mode, cv, piped, record, quiet)
    result["seconds"] = {"collect": round(t1 - t0, 1), "fit": round(time.perf_counter() - t1, 1)}
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MODEL_FILE).write_text(json.dumps(result) + "\n", encoding="utf-8")
    write_md(out_dir / "BLOCKS.md", result)
    keep.load_models.cache_clear()
    return result


def write_md(path: Path, result: dict) -> None:
    """BLOCKS.md: what the model is, its data, and the cross-validation table."""
    lines = [
        "# Block model (`blocks.json`)",
        "",
        "The block classifier of the block stage (`pith/pipeline/blocks/keep.py`), written by "
        "`pith train-blocks` (`make train-blocks`); features in `pith/pipeline/blocks/features.py`, "
        "blocks in `pith/pipeline/blocks/segment.py`, training in `pith/measure/train_blocks.py`. Do not edit by hand.",
        "",
        f"- trained: {result['trained']}, {result['seconds']['collect']} s collecting"
        + (" (labelled blocks read from a `--corpus` file made by the same code)"
           if result["data"].get("corpus_reused") else "")
        + f", {result['seconds']['fit']} s cross-validating and fitting",
        f"- data: the training sites of {', '.join(result['data']['datasets'])} (site split "
        "of `clg-split.json`'s rule); rendered snapshots from the cache "
        f"`.cache/snapshots/{result['data']['cache']}`, static ones from the HTML",
        f"- labels: a block is content when ≥ {result['config']['content_share']} of its "
        "characters are in truth-covered text nodes (4-token shingles); the post's title "
        "is content whatever the truth says (the heading showing the page's `<title>` or "
        "og:title, or without one the h1 right above the first content block in the post's "
        "own container: `block_labels`, `post_heading`)",
        f"- learner chosen by {result['config']['folds']}-fold site-grouped "
        "cross-validation on the training pages (mean page F1 of the kept blocks' text in "
        "the method's element); the rule (keep / add at) of the winner's best "
        f"{result['config'].get('shortlist', SHORTLIST)} by the same folds through the whole "
        "default pipeline (mean page F1 of its text, each page read with the model fitted "
        "without its site); rendered pages are read by the static (box-free) half unless the "
        "rendered half's best beats it that way on the rendered training pages by more than "
        f"{RENDERED_MARGIN} (`choose_rendered`); the rule of the model file this one replaced is "
        f"scored too and stays unless the best beats it by more than {RULE_MARGIN} "
        "(`choose_piped`)",
        *([f"- static only (`--static-only`): the rendered half was not retrained; rendered "
           "pages are read by " + ("the static half, as the model this one replaced chose"
                                   if result["rendered"].get("source") == "static" else
                                   "the rendered half of the model this one replaced"), ""]
          if result["data"].get("static_only") else [""]),
        "| mode | learner | keep at | add at | pages | blocks | content | element whole | "
        "method | oracle | logistic (best) | trees (best) | pipeline (rule) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for mode in MODES:
        if mode not in result["cv"]:
            continue
        cv, m = result["cv"][mode], result[mode]
        best = {lr: max(v for k, v in cv.items() if k.startswith(lr + "@"))
                for lr in ("logistic", "trees")}
        rule = rule_key(m["learner"], m["threshold"], m.get("add"))
        boxfree = m.get("source") == "static" and mode != "static"
        piped = cv.get("pipeline_boxfree" if boxfree else "pipeline", {}).get(rule)
        learner = f"{m['learner']} (the static half)" if boxfree else m["learner"]
        lines.append(f"| {mode} | {learner} | {m['threshold']} | {m.get('add') or '-'} | "
                     f"{cv['pages']} | {cv['blocks']} | {cv['content_share']} | "
                     f"{cv['whole']:.4f} | {cv['method']:.4f} | {cv['oracle']:.4f} | "
                     f"{best['logistic']:.4f} | {best['trees']:.4f} | "
                     f"{'-' if piped is None else f'{piped:.4f}'} |")
    lines.append("")
    for mode in MODES:
        piped = result["cv"].get(mode, {}).get("pipeline", {})
        if piped:
            lines.append(f"Pipeline CV, {mode} (rule: within-element CV, pipeline): " + "; ".join(
                f"{k} {result['cv'][mode].get(k, float('nan')):.4f}, {v:.4f}"
                for k, v in piped.items()) + "." + "".join(
                f" The static half through the pipeline on these pages: {k} {v:.4f}."
                for k, v in result["cv"][mode].get("pipeline_boxfree", {}).items()))
    lines += ["", "## Data: licences and credit", ""] + [
        f"- `{name}`: {DATASET_CARDS.get(name, 'see its SOURCE.md in the shared datasets')}"
        for name in result["data"]["datasets"]]
    lines += ["", "'element whole' is the mean page F1 of all the blocks of the (grown) element; "
              "'method' of the blocks the method's own answer shows (its element less what it "
              "dropped, its parts); 'oracle' keeps exactly the blocks labelled content (the "
              "block-level ceiling inside the element). 'keep at' / 'add at': a block the "
              "method shows is kept when p ≥ keep at, another one is taken in when p ≥ add at "
              "('-': every block by keep at alone). Figures are cross-validated on training "
              "sites; validation sites are reported by `pith bench --split validation`.", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def main(args) -> int:
    datasets = args.datasets or all_datasets()
    cache_dir = SnapshotCache(cache_root(args.cache), "rendered").dir
    corpus = args.corpus
    t0 = time.perf_counter()
    train(datasets, cache_dir, args.out, quiet=args.quiet, corpus_cache=corpus,
          static_only=getattr(args, "static_only", False))
    print(f"pith train-blocks: wrote {args.out / MODEL_FILE} and {args.out / 'BLOCKS.md'} "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0
