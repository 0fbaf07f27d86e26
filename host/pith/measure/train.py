"""`pith train`: learn CLG's model (Wu, Liu, Fan §4–5) from the shared datasets' training split.

Stages:
  1. split the pages of every dataset by web site (datasets.py: `site_of`, the host of
     the index's url without "www.", the dataset and id for a page without url) into
     train and validation with a hash of the site, so no site is on both sides; written
     to models/clg-split.json, which `pith bench --split validation` reads;
     training reads `wcxb_dev_full` and not `wcxb_dev` when both are there (its pages
     are inside the full one: datasets.py `datasets_to_use`, as `pith train-blocks`);
  2. per page, the cached rendered snapshot (never re-rendered: `pith bench` fills the
     cache) and a static snapshot of the same HTML; per snapshot, the nodes labelled
     positive / negative / neutral from the truth text (`label`) and their relative
     feature values (clg_features.relative);
  3. from the training pages only: the "perfect" values BEST_* (`best_values`) and the
     tag scores (`tag_table`);
  4. one logistic regression per feature set (rendered: the 17 of §4; static: the
     fallback's), fitted by Newton's method in numpy from a zero start for a fixed
     number of iterations — deterministic: the same pages give the same weights;
  5. node-level metrics on both sides; models/clg.json and models/MODEL.md written.

Labelling (§5 with a truth text instead of a user's clip). The page's visible text
nodes are read in document order as one token stream (tokens = lower-cased \\w+ runs,
like the scorer's); a token is "in the truth" when one of the 4-token shingles covering
it occurs in the truth text, and a text node belongs to the truth when at least half
of its tokens do (a text node without a token — "|", "»" — belongs to neither side).
Shingles across text-node boundaries let a one-word heading or a bold word inside a
sentence match with its neighbours. Then, per node, with its subtree's characters on
each side: positive when all are truth (rule c), negative when none are (rules a, b,
e), neutral when both kinds are present (rule d: the ancestors of the selection).
(PURITY could relax "all"; the paper's rule stays: NOTES.md, 'Why CLG's labels keep
the paper's strict rule (PURITY 1.0)'.)
A node without characters on either side is positive inside a positive node (an
image in the article) and negative elsewhere (rule e). Hidden and code rows are not
nodes of the page (no box, no visible text) and are left out. As in the paper, the
regression's two classes are positive and the rest (neutral included).

Choices where the paper is vague, written down:
- BEST_* = the mean relative value of the "top" ground-truth nodes (positive, parent
  not positive). Each page weighs 1 and its top nodes share it by their characters:
  a text truth splits one article into as many top nodes as it has blocks wherever a
  stray line (a share button, a caption marked as boilerplate) makes the container
  neutral, and the plain mean of §5 would let one long thread of 300 paragraphs set
  the "perfect" position for every page.
- TAG_SCORE of a tag = (positives + TAG_SMOOTHING · prior) / (nodes + TAG_SMOOTHING)
  over the training nodes of that tag, prior = the overall share of positives; tags
  seen fewer than TAG_MIN_COUNT times are left to the prior (the paper: "a simple
  statistical calculation").
- Training rows: up to ROWS_PER_PAGE visible nodes per page, drawn with a seed derived
  from the page id (all nodes of smaller pages): a 10,000-node page no longer outweighs
  twenty ordinary ones, and training stays within a minute or two on two cores.
- Features are standardised (training mean and deviation, stored with the weights);
  an L2 penalty of L2 on the weights (not the intercept) keeps Newton's steps defined
  when a feature is constant.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..pages import static
from ..pipeline.algorithms import clg_features as cf
from ..errors import PithError
from ..pipeline.features import Features, compute
from ..pipeline.snapshot import Snapshot, from_json
from .datasets import (MODELS_DIR, SPLIT_FILE, SnapshotCache, all_datasets, cache_root,
                       datasets_to_use, make_split, pages_of, write_split)

MODEL_FILE = "clg.json"
# Shingle length of the truth matching: the scorer's (4-token shingles).
SHINGLE = 4
# A text node belongs to the truth when at least this share of its tokens is covered.
UNIT_SHARE = 0.5
# A node is positive when at least this share of its subtree's characters is truth.
PURITY = 1.0
ROWS_PER_PAGE = 400
TAG_SMOOTHING = 20.0
TAG_MIN_COUNT = 30
L2 = 1.0
NEWTON_STEPS = 30
# Label codes of `label`.
POSITIVE, NEGATIVE, NEUTRAL, IGNORED = 1, 0, 2, -1
MAX_NODES = 1_000_000
_TOKEN = re.compile(r"\w+")


# --------------------------------------------------------------------------- labels
def _units(snap: Snapshot, feats: Features) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Visible text nodes in reading order: (owner row, non-space chars, string)."""
    live = ~feats.gone
    parent_live = np.concatenate(([False], live[snap.parent[1:]]))
    text_rows = np.flatnonzero(live & (feats.text_chars > 0))
    tail_rows = np.flatnonzero(parent_live & (feats.tail_chars > 0))
    # text[i] is read when i opens; tail[i] after its subtree, before row end[i] opens,
    # the deeper of two tails closing at the same row first
    pos = np.concatenate((text_rows, snap.end[tail_rows]))
    stage = np.concatenate((np.zeros(len(text_rows)), -np.ones(len(tail_rows))))
    deep = np.concatenate((np.zeros(len(text_rows)), -snap.depth[tail_rows]))
    order = np.lexsort((deep, stage, pos))
    owner = np.concatenate((text_rows, snap.parent[tail_rows]))[order]
    chars = np.concatenate((feats.text_chars[text_rows], feats.tail_chars[tail_rows]))[order]
    strings = [snap.text[i] for i in text_rows] + [snap.tail[i] for i in tail_rows]
    return owner, chars, [strings[k] for k in order]


def truth_units(strings: list[str], truth: str) -> np.ndarray:
    """Per text node: 1 in the truth, 0 not, -1 no token (see the module docstring)."""
    truth_tokens = _TOKEN.findall(truth.lower())
    tokens_of = [_TOKEN.findall(s.lower()) for s in strings]
    counts = np.fromiter(map(len, tokens_of), np.int64, len(strings))
    stream = [t for toks in tokens_of for t in toks]
    out = np.full(len(strings), -1, np.int64)
    if not stream:
        return out
    if not truth_tokens:
        out[counts > 0] = 0
        return out
    n = min(SHINGLE, len(truth_tokens))
    grams = set(zip(*(truth_tokens[k:] for k in range(n))))
    m = len(stream)
    matched = np.fromiter((g in grams for g in zip(*(stream[k:] for k in range(n)))),
                          bool, max(m - n + 1, 0))
    cover = np.zeros(m + 1, np.int64)
    starts = np.flatnonzero(matched)
    np.add.at(cover, starts, 1)
    np.add.at(cover, starts + n, -1)
    covered = np.cumsum(cover[:-1]) > 0
    unit_of = np.repeat(np.arange(len(strings)), counts)
    hits = np.bincount(unit_of, weights=covered, minlength=len(strings))
    has = counts > 0
    out[has] = (hits[has] >= UNIT_SHARE * counts[has]).astype(np.int64)
    return out


def label(snap: Snapshot, feats: Features, truth: str) -> np.ndarray:
    """POSITIVE / NEGATIVE / NEUTRAL per row (IGNORED for hidden and code rows)."""
    owner, chars, strings = _units(snap, feats)
    side = truth_units(strings, truth)
    pos_own = np.bincount(owner[side == 1], weights=chars[side == 1], minlength=snap.n)
    neg_own = np.bincount(owner[side == 0], weights=chars[side == 0], minlength=snap.n)
    pos, neg = snap.subtree_sum(pos_own), snap.subtree_sum(neg_own)
    pure = (pos > 0) & (pos >= PURITY * (pos + neg))
    empty = (pos == 0) & (neg == 0)
    positive = pure | (empty & snap.below(pure))
    out = np.where(positive, POSITIVE, np.where(pos > 0, NEUTRAL, NEGATIVE))
    return np.where(feats.gone, IGNORED, out).astype(np.int64)


# --------------------------------------------------------------------------- pages
@dataclass
class PageRows:
    """The sampled training rows of one snapshot of one page."""

    key: str
    rel: cf.Relative          # relative values of the sampled rows
    tags: np.ndarray
    y: np.ndarray             # 1 positive, 0 the rest
    best: dict[str, float]    # this page's character-weighted top-node means (may be empty)
    tag_pos: dict[str, int] = field(default_factory=dict)
    tag_all: dict[str, int] = field(default_factory=dict)


def _page_best(kind: str, rel: cf.Relative, labels: np.ndarray, snap: Snapshot,
               feats: Features) -> dict[str, float]:
    positive = labels == POSITIVE
    par = snap.parent
    top = positive & ~np.concatenate(([False], positive[par[1:]]))
    if kind == "rendered":
        top &= rel.geo.has_box
    rows = np.flatnonzero(top & (feats.chars > 0))
    if not len(rows):
        return {}
    w = feats.chars[rows].astype(np.float64)
    w /= w.sum()
    return {k: float(w @ getattr(rel, k)[rows]) for k in cf.BEST_KEYS[kind]}


def page_rows(key: str, kind: str, snap: Snapshot, truth: str) -> PageRows | None:
    """Labels, top-node means and a sample of rows of one snapshot (None if unusable)."""
    feats = compute(snap)
    rel = cf.relative(snap, feats)
    if kind == "rendered" and not rel.geo.layout:
        return None
    labels = label(snap, feats, truth)
    live = np.flatnonzero(labels != IGNORED)
    if not len(live) or not (labels == POSITIVE).any():
        return None
    seed = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16)
    rows = live if len(live) <= ROWS_PER_PAGE else np.sort(
        np.random.default_rng(seed).choice(live, ROWS_PER_PAGE, replace=False))
    tags_live = snap.tag[live]
    pos_live = labels[live] == POSITIVE
    uniq, inv = np.unique(tags_live.astype(str), return_inverse=True)
    all_c = np.bincount(inv, minlength=len(uniq))
    pos_c = np.bincount(inv, weights=pos_live, minlength=len(uniq))
    return PageRows(key=key, rel=rel.take(rows), tags=snap.tag[rows],
                    y=(labels[rows] == POSITIVE).astype(np.float64),
                    best=_page_best(kind, rel, labels, snap, feats),
                    tag_pos={str(t): int(c) for t, c in zip(uniq, pos_c)},
                    tag_all={str(t): int(c) for t, c in zip(uniq, all_c)})


def best_values(kind: str, pages: list[PageRows]) -> dict[str, float]:
    """BEST_*: the mean over pages of each page's top-node mean."""
    have = [p.best for p in pages if p.best]
    return {k: float(np.mean([b[k] for b in have])) for k in cf.BEST_KEYS[kind]}


def tag_table(pages: list[PageRows]) -> tuple[dict[str, float], float]:
    """TAG_SCORE per tag and the prior (see the module docstring)."""
    pos: dict[str, int] = {}
    cnt: dict[str, int] = {}
    for p in pages:
        for t, c in p.tag_all.items():
            cnt[t] = cnt.get(t, 0) + c
            pos[t] = pos.get(t, 0) + p.tag_pos.get(t, 0)
    prior = sum(pos.values()) / max(sum(cnt.values()), 1)
    table = {t: round((pos[t] + TAG_SMOOTHING * prior) / (cnt[t] + TAG_SMOOTHING), 6)
             for t in sorted(cnt) if cnt[t] >= TAG_MIN_COUNT}
    return table, round(prior, 6)


# --------------------------------------------------------------------------- fit
def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2,
                 steps: int = NEWTON_STEPS) -> tuple[np.ndarray, float]:
    """Weights and intercept of an L2-penalised logistic regression, Newton's method
    from zero for a fixed number of steps (deterministic)."""
    n, k = x.shape
    a = np.hstack((np.ones((n, 1)), x))
    beta = np.zeros(k + 1)
    penalty = np.full(k + 1, l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ beta, -50, 50)))
        grad = a.T @ (p - y) + penalty * beta
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(k + 1)
        beta = beta - np.linalg.solve(hess, grad)
    return beta[1:], float(beta[0])


def metrics(p: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, float]:
    """Node-level figures: log-loss, accuracy, precision and recall at the threshold, AUC."""
    eps = 1e-12
    pred = p > threshold
    tp = float((pred & (y == 1)).sum())
    ranks = np.empty(len(p))
    order = np.argsort(p, kind="stable")
    ranks[order] = np.arange(1, len(p) + 1)
    npos, nneg = float((y == 1).sum()), float((y == 0).sum())
    auc = (ranks[y == 1].sum() - npos * (npos + 1) / 2) / max(npos * nneg, 1.0)
    return {"nodes": int(len(y)), "positive_share": round(npos / max(len(y), 1), 4),
            "log_loss": round(float(-np.mean(y * np.log(p + eps)
                                             + (1 - y) * np.log(1 - p + eps))), 4),
            "accuracy": round(float((pred == (y == 1)).mean()), 4),
            "precision": round(tp / max(float(pred.sum()), 1.0), 4),
            "recall": round(tp / max(npos, 1.0), 4), "auc": round(float(auc), 4)}


def design(kind: str, pages: list[PageRows], best: dict, table: dict,
           prior: float) -> tuple[np.ndarray, np.ndarray]:
    names = cf.FEATURES if kind == "rendered" else cf.STATIC_FEATURES
    if not pages:
        return np.zeros((0, len(names))), np.zeros(0)
    x = np.vstack([cf.adjusted(p.tags, p.rel, names, best, table, prior) for p in pages])
    return x, np.concatenate([p.y for p in pages])


def fit_model(kind: str, train_pages: list[PageRows]) -> dict:
    """BEST_*, tag scores, standardisation and weights of one feature set."""
    best = best_values(kind, train_pages)
    table, prior = tag_table(train_pages)
    x, y = design(kind, train_pages, best, table, prior)
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1.0
    coef, intercept = fit_logistic((x - mean) / std, y)
    names = cf.FEATURES if kind == "rendered" else cf.STATIC_FEATURES
    return {"features": list(names), "best": {k: round(v, 6) for k, v in best.items()},
            "tag_prior": prior, "tag_score": table,
            "mean": [round(float(v), 8) for v in mean], "std": [round(float(v), 8) for v in std],
            "coef": [round(float(v), 8) for v in coef], "intercept": round(intercept, 8)}


def evaluate(kind: str, model: dict, pages: list[PageRows], threshold: float) -> dict:
    x, y = design(kind, pages, model["best"], model["tag_score"], model["tag_prior"])
    if not len(y):
        return {}
    z = ((x - np.array(model["mean"])) / np.array(model["std"])) @ np.array(model["coef"])
    p = 1.0 / (1.0 + np.exp(-np.clip(z + model["intercept"], -50, 50)))
    return metrics(p, y, threshold)


# --------------------------------------------------------------------------- data
@dataclass
class Corpus:
    """Sampled rows per side and kind, and what was skipped."""

    rows: dict[tuple[str, str], list[PageRows]] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)

    def add(self, side: str, kind: str, rows: PageRows | None, why: str) -> None:
        if rows is None:
            self.skipped[f"{kind}: {why}"] = self.skipped.get(f"{kind}: {why}", 0) + 1
        else:
            self.rows.setdefault((side, kind), []).append(rows)


def collect(datasets: list[Path], split: dict, cache_dir: Path, quiet: bool = False) -> Corpus:
    """Labels and sampled rows of every page, rendered (from the cache) and static."""
    corpus = Corpus()
    for d in datasets:
        name, pages = pages_of(d, quiet)
        for e in pages:
            pid, side = e["id"], split["pages"][name][e["id"]]
            if e.get("synthetic_fixture"):
                corpus.add(side, "rendered", None, "synthetic fixture")
                continue
            truth = (d / e.get("truth", f"truth/{pid}.txt")).read_text(
                encoding="utf-8", errors="replace")
            key = f"{name}/{pid}"
            cached = cache_dir / name / f"{pid}.json"
            if cached.is_file():
                try:
                    snap = from_json(json.loads(cached.read_text(encoding="utf-8")), MAX_NODES)
                    corpus.add(side, "rendered", page_rows(key, "rendered", snap, truth),
                               "no layout or no positive node")
                except PithError:
                    corpus.add(side, "rendered", None, "invalid snapshot")
            else:
                corpus.add(side, "rendered", None, "not in the snapshot cache")
            try:
                html, _ = static.decode_html(static.read_page(d / e["html"]), None, "replace")
                snap = from_json(static.snapshot_from_html(html, e.get("url") or ""), MAX_NODES)
            except PithError:
                corpus.add(side, "static", None, "static capture failed")
                continue
            corpus.add(side, "static", page_rows(key, "static", snap, truth),
                       "no positive node")
    return corpus


def train(datasets: list[Path], cache_dir: Path, out_dir: Path = MODELS_DIR,
          threshold: float = 0.55, quiet: bool = False) -> dict:
    """Stages 1–5; returns the model dict (also written to out_dir)."""
    t0 = time.perf_counter()
    split = make_split(datasets)          # every dataset's pages: bench reads the split
    datasets = datasets_to_use(datasets)
    corpus = collect(datasets, split, cache_dir, quiet)
    t1 = time.perf_counter()
    models, report = {}, {}
    for kind in ("rendered", "static"):
        train_pages = corpus.rows.get(("train", kind), [])
        if not train_pages:
            raise PithError(f"no training page for the {kind} model (is the snapshot "
                            f"cache {cache_dir} filled? run `pith bench` first)")
        models[kind] = fit_model(kind, train_pages)
        report[kind] = {
            "pages": {s: len(corpus.rows.get((s, kind), [])) for s in ("train", "validation")},
            "train": evaluate(kind, models[kind], train_pages, threshold),
            "validation": evaluate(kind, models[kind],
                                   corpus.rows.get(("validation", kind), []), threshold)}
    t2 = time.perf_counter()
    model = {
        "version": 1,
        "trained": _dt.date.today().isoformat(),
        "command": "pith train",
        "threshold": threshold,
        "config": {"rows_per_page": ROWS_PER_PAGE, "shingle": SHINGLE, "unit_share": UNIT_SHARE,
                   "tag_smoothing": TAG_SMOOTHING, "tag_min_count": TAG_MIN_COUNT, "l2": L2,
                   "newton_steps": NEWTON_STEPS},
        "data": {"datasets": [d.name for d in datasets], "cache": cache_dir.name,
                 "skipped": dict(sorted(corpus.skipped.items()))},
        "metrics": report,
        "seconds": {"load_and_label": round(t1 - t0, 1), "fit": round(t2 - t1, 1)},
        "models": models,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    split_out = write_split(split, out_dir / SPLIT_FILE)
    (out_dir / MODEL_FILE).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    write_model_md(out_dir / "MODEL.md", model, split_out)
    return model


BENCH_MARK = "<!-- bench figures: kept by `pith train` below this line -->"


def write_model_md(path: Path, model: dict, split: dict) -> None:
    """MODEL.md: features, data, split, metrics, date, command (bench section kept)."""
    kept = ""
    if path.is_file():
        old = path.read_text(encoding="utf-8")
        if BENCH_MARK in old:
            kept = old.split(BENCH_MARK, 1)[1]
    lines = [
        "# CLG model (`clg.json`)",
        "",
        "Logistic regressions of CLG (Wu, Liu, Fan: learning and grouping), written by "
        "`pith train` (`make train`); read by `pith/pipeline/algorithms/clg.py`. Do not edit by hand.",
        "",
        f"- trained: {model['trained']}, in {model['seconds']['load_and_label']} s of loading "
        f"and labelling + {model['seconds']['fit']} s of fitting",
        f"- reproduce: `pith train` (reads the rendered snapshot cache "
        f"`.cache/snapshots/{model['data']['cache']}` that `pith bench` fills, and the HTML "
        f"for the static model); the same data gives the same weights",
        f"- data: shared datasets {', '.join(model['data']['datasets'])}; labels from the "
        f"truth texts (train.py docstring: shingle-covered tokens, text nodes, rules of §5)",
        f"- training rows: up to {model['config']['rows_per_page']} visible nodes per page "
        f"(seeded by page id); Newton's method, {model['config']['newton_steps']} steps, L2 "
        f"{model['config']['l2']}, standardised features",
        "",
        "## Split (by web site: no site on both sides)",
        "",
        f"Rule: {split['rule']}. Sites: {split['sites']['train']} train, "
        f"{split['sites']['validation']} validation. Pages: "
        + "; ".join(f"{n} {c['train']} train / {c['validation']} validation"
                    for n, c in split["counts"].items())
        + ". The page list is `clg-split.json`; `pith bench --split validation` scores "
          "only the validation pages.",
        "",
        "Skipped pages: " + (", ".join(f"{k} {v}" for k, v in model["data"]["skipped"].items())
                             or "none") + ".",
        "",
        "## Models and node-level metrics (threshold "
        f"{model['threshold']}; positive vs the rest, as in §5)",
    ]
    for kind, m in model["models"].items():
        r = model["metrics"][kind]
        lines += ["", f"### {kind}: {len(m['features'])} features, pages "
                      f"{r['pages']['train']} train / {r['pages']['validation']} validation", "",
                  "| side | nodes | positive | log-loss | accuracy | precision | recall | AUC |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for side in ("train", "validation"):
            s = r[side]
            if s:
                lines.append(f"| {side} | {s['nodes']} | {s['positive_share']} | {s['log_loss']} "
                             f"| {s['accuracy']} | {s['precision']} | {s['recall']} | {s['auc']} |")
        lines += ["", "| feature | weight (standardised) |", "|---|---:|"]
        lines += [f"| {f} | {w:+.3f} |" for f, w in zip(m["features"], m["coef"])]
        lines += [f"| (intercept) | {m['intercept']:+.3f} |", "",
                  "BEST values: " + ", ".join(f"{k} {v:.3f}" for k, v in m["best"].items())
                  + f"; tag scores for {len(m['tag_score'])} tags, prior {m['tag_prior']}."]
    lines += ["", BENCH_MARK]
    path.write_text("\n".join(lines) + (kept if kept else "\n"), encoding="utf-8")


def main(args) -> int:
    """`pith train`: train on the shared datasets and print where and how long."""
    datasets = args.datasets or all_datasets()
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
    cache_dir = SnapshotCache(cache_root(args.cache), "rendered").dir
    t0 = time.perf_counter()
    model = train(datasets, cache_dir, args.out, quiet=args.quiet)
    seconds = time.perf_counter() - t0
    for kind, r in model["metrics"].items():
        v = r["validation"] or {}
        print(f"{kind}: {r['pages']['train']} train pages, {r['pages']['validation']} "
              f"validation; validation AUC {v.get('auc')}, log-loss {v.get('log_loss')}")
    print(f"pith train: wrote {args.out / MODEL_FILE}, {args.out / SPLIT_FILE}, "
          f"{args.out / 'MODEL.md'} in {seconds:.1f} s")
    return 0
