"""`pith train-pagetype`: learn the page type model from WCXB's and magic_html's labels, on training sites only.

Every labelled page (an index row with a `page_type` of pagetype.CLASSES) is captured
statically, run through the pipeline (the chosen element is a feature), and turned into
one row of pagetype.features. The by-site split is datasets.side_of(site_of(...)), the
rule every trainer uses: the model is fitted on the training sites and measured on the
validation sites, never fitted on them. The learner is a multinomial logistic regression
with an L2 penalty (L-BFGS), written to pipeline/models/pagetype.json with its model card
models/PAGETYPE.md (datasets and their licences, features, validation figures).
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .datasets import MODELS_DIR, all_datasets, pages_of, side_of, site_of
from ..errors import PithError
from ..pages import static
from ..pipeline import pagetype
from ..pipeline.select import select
from ..pipeline.snapshot import from_json

MODEL_FILE = "pagetype.json"
CARD_FILE = "PAGETYPE.md"
# The datasets with page type labels, and what the card says of each.
LABELLED = ("wcxb_dev_full", "magic_html")
CREDITS = {
    "wcxb_dev_full": "WCXB development split (Murrough Foley, 2026; "
                     "https://github.com/Murrough-Foley/web-content-extraction-benchmark), "
                     "CC-BY-4.0: `page_type` labels of metadata.json",
    "magic_html": "magic-html benchmark (OpenDataLab, 2024; "
                  "https://github.com/opendatalab/magic-html), Apache-2.0: article / forum "
                  "folders",
}
# The L2 penalty on the standardised weights, per training page: chosen by 5-fold
# cross-validation by site on the training side (train_pagetype.choose_l2).
L2_GRID = (0.003, 0.01, 0.03, 0.1, 0.3)
# The least L2 chosen (the grid's smaller values are scored, not taken): a less
# regularised model is surer of every class, and comments.FORUM_SURE reads its
# probability; at 0.01 a blog post under its comments was typed a forum sure enough to
# read the thread as the post (NOTES.md, 'Why the page type reads no text shares of tag
# groups').
L2_LEAST = 0.03
FOLDS = 5
MAX_NODES = 2_000_000


@dataclass
class Rows:
    """Feature rows of labelled pages: x (pages, NAMES), class index, side, site, key."""

    x: np.ndarray
    y: np.ndarray
    side: list[str]
    site: list[str]
    key: list[str]


def page_row(dataset: Path, entry: dict) -> np.ndarray | None:
    """The feature row of one dataset page, statically captured (None: unreadable or no
    content)."""
    try:
        html, _ = static.decode_html(static.read_page(dataset / entry["html"]), None, "replace")
        snap = from_json(static.snapshot_from_html(html, entry.get("url") or ""), MAX_NODES)
        sel = select(snap)
    except PithError:
        return None
    return pagetype.features(sel.snap, sel.feats, sel.node)


def collect(datasets: list[Path], quiet: bool = False) -> Rows:
    """The rows of every labelled page of `datasets` (both sides)."""
    xs, ys, sides, sites, keys = [], [], [], [], []
    for d in datasets:
        name, entries = pages_of(d, quiet)
        for entry in entries:
            label = entry.get("page_type")
            if label not in pagetype.CLASSES:
                continue
            row = page_row(d, entry)
            if row is None:
                continue
            site = site_of({**entry, "dataset": name})
            xs.append(row)
            ys.append(pagetype.CLASSES.index(label))
            sides.append(side_of(site))
            sites.append(site)
            keys.append(f"{name}/{entry['id']}")
    x = np.array(xs, np.float64).reshape(len(xs), len(pagetype.NAMES))
    return Rows(x, np.array(ys, np.int64), sides, sites, keys)


def fit(x: np.ndarray, y: np.ndarray, l2: float, n_classes: int = len(pagetype.CLASSES)) -> dict:
    """Multinomial logistic regression on standardised features, L2 `l2` (per page) on
    the weights, fitted by L-BFGS from zero; the model file's dict."""
    from scipy.optimize import minimize
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    n, k = z.shape
    onehot = np.eye(n_classes)[y]

    def loss(theta):
        w = theta[:k * n_classes].reshape(k, n_classes)
        b = theta[k * n_classes:]
        s = z @ w + b
        s = s - s.max(axis=1, keepdims=True)
        logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        p = np.exp(logp)
        value = -(onehot * logp).sum() / n + 0.5 * l2 * (w * w).sum()
        g = (p - onehot) / n
        return value, np.concatenate(((z.T @ g + l2 * w).ravel(), g.sum(axis=0)))

    theta = minimize(loss, np.zeros(k * n_classes + n_classes), jac=True, method="L-BFGS-B",
                     options={"maxiter": 2000}).x
    return {"kind": "multinomial_logistic", "classes": list(pagetype.CLASSES[:n_classes])
            if n_classes == len(pagetype.CLASSES) else [str(c) for c in range(n_classes)],
            "features": list(pagetype.NAMES), "l2": l2,
            "mean": mean.tolist(), "scale": scale.tolist(),
            "weights": theta[:k * n_classes].reshape(k, n_classes).tolist(),
            "intercept": theta[k * n_classes:].tolist()}


def predict(model: dict, x: np.ndarray) -> np.ndarray:
    """Class probabilities of `x` under a fitted model dict (as the host evaluates it)."""
    return pagetype.Model.from_json(model).probabilities(x)


def folds_of(sites: list[str], k: int = FOLDS) -> np.ndarray:
    """A fold per row, by site (a site's pages share one fold), from the site's hash."""
    import hashlib
    return np.array([int(hashlib.sha1(s.encode()).hexdigest()[:8], 16) % k for s in sites])


def choose_l2(x: np.ndarray, y: np.ndarray, sites: list[str]) -> tuple[float, dict]:
    """The L2 of L2_GRID, at least L2_LEAST, with the best cross-validated accuracy (folds
    by site); the scores of every L2 of the grid."""
    folds = folds_of(sites)
    scores = {}
    for l2 in L2_GRID:
        right = 0
        for f in range(FOLDS):
            fit_on, test = folds != f, folds == f
            if not test.any() or len(set(y[fit_on])) < 2:
                continue
            model = fit(x[fit_on], y[fit_on], l2)
            right += int((predict(model, x[test]).argmax(axis=1) == y[test]).sum())
        scores[l2] = right / len(y)
    return max((l2 for l2 in scores if l2 >= L2_LEAST),
               key=lambda l2: (scores[l2], l2)), scores


def confusion(y: np.ndarray, pred: np.ndarray, n: int = len(pagetype.CLASSES)) -> np.ndarray:
    """Rows: truth, columns: prediction."""
    m = np.zeros((n, n), np.int64)
    np.add.at(m, (y, pred), 1)
    return m


def figures(y: np.ndarray, pred: np.ndarray) -> dict:
    """Accuracy, per-class precision / recall / support and the confusion matrix."""
    m = confusion(y, pred)
    per = {}
    for i, c in enumerate(pagetype.CLASSES):
        if m[i].sum() == 0 and m[:, i].sum() == 0:
            continue
        per[c] = {"precision": round(m[i, i] / m[:, i].sum(), 3) if m[:, i].sum() else None,
                  "recall": round(m[i, i] / m[i].sum(), 3) if m[i].sum() else None,
                  "support": int(m[i].sum())}
    return {"pages": int(len(y)), "accuracy": round(float((y == pred).mean()), 4) if len(y) else None,
            "classes": per, "confusion": m.tolist()}


def train(datasets: list[Path], out_dir: Path = MODELS_DIR, quiet: bool = False,
          rows: Rows | None = None) -> dict:
    """Collect, choose L2 by cross-validation on the training sites, fit on them, measure
    on the validation sites per dataset, write the model and its card; the model dict."""
    rows = rows or collect(datasets, quiet)
    train_mask = np.array([s == "train" for s in rows.side])
    if not train_mask.any():
        raise PithError("no labelled training pages in the datasets given")
    sites = [s for s, t in zip(rows.site, train_mask) if t]
    l2, cv = choose_l2(rows.x[train_mask], rows.y[train_mask], sites)
    model = fit(rows.x[train_mask], rows.y[train_mask], l2)
    pred = predict(model, rows.x).argmax(axis=1)
    validation = {}
    for name in sorted({k.split("/")[0] for k in rows.key}):
        mask = np.array([k.split("/")[0] == name and s == "validation"
                         for k, s in zip(rows.key, rows.side)])
        validation[name] = figures(rows.y[mask], pred[mask])
    model["trained"] = {
        "datasets": {name: CREDITS.get(name, name) for name in
                     sorted({k.split("/")[0] for k in rows.key})},
        "pages": {"train": int(train_mask.sum()), "validation": int((~train_mask).sum())},
        "cv_accuracy": {str(k): round(v, 4) for k, v in cv.items()},
        "validation": validation,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MODEL_FILE).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    write_card(out_dir / CARD_FILE, model)
    return model


def matrix_md(fig: dict) -> list[str]:
    """The confusion matrix of `fig` as a Markdown table (rows truth, columns predicted)."""
    shown = [i for i, c in enumerate(pagetype.CLASSES) if c in fig["classes"]]
    head = "| truth \\ predicted | " + " | ".join(pagetype.CLASSES[i] for i in shown) + " |"
    lines = [head, "|" + "---|" * (len(shown) + 1)]
    for i in shown:
        lines.append(f"| {pagetype.CLASSES[i]} | "
                     + " | ".join(str(fig["confusion"][i][j]) for j in shown) + " |")
    return lines


def write_card(path: Path, model: dict) -> None:
    """models/PAGETYPE.md: what the model is, what it learned from, how well it does."""
    t = model["trained"]
    lines = [
        "# The page type model (pagetype.json)",
        "",
        "Written by `pith train-pagetype` (host/pith/measure/train_pagetype.py); evaluated by",
        "host/pith/pipeline/pagetype.py in numpy. A multinomial logistic regression over",
        f"{len(model['features'])} page-level features of a static or rendered snapshot, "
        f"L2 {model['l2']} (the best of at least {L2_LEAST} by {FOLDS}-fold",
        "cross-validation by site on the training side: "
        + ", ".join(f"{k}: {v}" for k, v in t["cv_accuracy"].items()) + ").",
        "",
        "## Data (training sites only; the split is datasets.side_of, by site)",
        "",
    ]
    lines += [f"- `{name}`: {credit}" for name, credit in t["datasets"].items()]
    lines += ["", f"Pages: {t['pages']['train']} training, {t['pages']['validation']} validation "
              "(statically captured).", "",
              "## Features", "",
              "The visible text's size and its share in links, links per character; counts "
              "of inputs, buttons, images, headings, `time`, `article`, `pre`, tables and "
              "paragraphs; sibling structures repeated with the same tag and class; the "
              "chosen element's share of the text and its links' share; prices and furniture "
              "words (forum, shop, listing, service, article, docs, '… ago') in short text "
              "nodes; words of class and id names; words of the URL's path and host name, "
              "its depth, a year folder, its slug's words, a query; words of the title; the "
              "mean paragraph's length, headings per character, the short text nodes' share; "
              "the schema.org and OpenGraph types the page declares (JSON-LD, microdata, "
              "og:type) when the snapshot carries them. Not read: the tag groups' shares of "
              "the text, `tel:` links, the chosen element's list items and paragraphs "
              "(host/NOTES.md, 'Why the page type reads no text shares of tag groups'). "
              "Names: " + ", ".join(f"`{n}`" for n in model["features"]) + ".", "",
              "## Validation sites", ""]
    for name, fig in t["validation"].items():
        lines += [f"### {name}: accuracy {fig['accuracy']} ({fig['pages']} pages)", "",
                  "| class | precision | recall | pages |", "|---|---|---|---|"]
        lines += [f"| {c} | {v['precision']} | {v['recall']} | {v['support']} |"
                  for c, v in fig["classes"].items()]
        lines += [""] + matrix_md(fig) + [""]
    path.write_text("\n".join(lines), encoding="utf-8")


def main(args) -> int:
    """`pith train-pagetype`: collect, fit, write, print the validation figures."""
    datasets = args.datasets or [d for d in all_datasets() if d.name in LABELLED]
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
    t0 = time.perf_counter()
    model = train(datasets, args.out, quiet=args.quiet)
    for name, fig in model["trained"]["validation"].items():
        print(f"{name}: validation accuracy {fig['accuracy']} on {fig['pages']} pages")
        for line in matrix_md(fig):
            print(line)
    print(f"pith train-pagetype: wrote {args.out / MODEL_FILE}, {args.out / CARD_FILE} in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0
