"""`python -m pith.measure.title_choice DATASET`: the page title chosen by a learned model among its candidates, cross-validated by site against the hand rule (`merge.choose_title`).

Each training page's title inputs are recorded once through the static pipeline (what
`pith bench --metadata` runs), its candidates listed by `merge.title_candidates`, and each
candidate described by FEATURES (where it comes from and in what form, how many sources
agree on it, its length, whether it is the site's name or holds it, how near the nearest
h1 that writes it stands to the chosen element, how far it agrees with the h1s and the
declared titles, and whether the rule chose it). A logistic regression with an L2 penalty
scores the candidates, and the page takes its best-scored one. Folds hash a salted site,
as the block trainer's do (NOTES.md, 'Why the trainer's folds hash a salted site'), so no
site is both fitted and scored. Printed: the rule's share of labels matched, the
candidates' reach (the ceiling of any choice), and each penalty's cross-validated share
with the pages it gains and loses against the rule. Training sites only: the by-site split
of datasets.side_of; the validation sites are never read. The measurement behind NOTES.md,
'Why the title's choice stays a rule, not a learned one'.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import PithError
from ..pages import static
from ..pipeline.metadata import merge
from .datasets import load_split
from .metadata_bench import fold, label, ours
from .train_blocks import FOLD_SALT

# The sources of a title's candidates, in choose_title's order of its declared list, then
# JSON-LD's entity headline and the shown h1s; and the forms a source's title is offered in.
SOURCES = ("meta", "items", "doc", "ld", "h1")
FORMS = ("whole", "nosite", "first", "last")
FEATURES = ("bias", "rule", *(f"{s}_{f}" for s in SOURCES for f in FORMS), "sources", "wholes",
            "words", "chars", "site", "holds_site", "root", "h1_nearest", "h1_distance",
            "agrees_h1", "agrees_declared", "rule_h1", "h1s", "separator", "rule_root",
            "rule_sources")
# The penalties scored (per page, on standardised features) and the folds of sites.
L2_GRID = (0.01, 0.1, 1.0)
FOLDS = 5
# Newton steps of the fit: the loss is convex and a few dozen features converge in ten.
NEWTON_STEPS = 25


@dataclass
class Page:
    """One labelled page: its site, its candidates' features (one row each, FEATURES; the
    rule's answer is the row whose `rule` is 1) and which of them the label is."""

    site: str
    x: np.ndarray
    y: np.ndarray


def forms(title: str, site: str | None, host: str | None, heading: bool) -> list[tuple[str, str]]:
    """(form, text) of one source's title: whole, without its site, its first part as the
    rule cuts it, and its first and last parts at PART_SEPARATORS."""
    nosite = merge.strip_site(title, site, host)
    first = (merge._first_if_longest(nosite, merge.HEADING_PART_SEPARATORS) if heading
             else merge.first_part(nosite))
    out = [("whole", title), ("nosite", nosite), ("first", first)]
    parts = merge.title_parts(title, merge.PART_SEPARATORS)
    if len(parts) > 1:
        out += [("first", parts[0]), ("last", parts[-1])]
    return out


def candidates(inputs: tuple, rule: str | None) -> tuple[list[str], np.ndarray]:
    """The folded candidates of one page's title inputs (choose_title's arguments) and their
    FEATURES rows; the rule's answer is always one."""
    declared, entity, heads, site, host, root = inputs[:6]
    declared = [merge._filled(c, site, host) for c in declared]
    sources = [*zip(("meta", "items", "doc"), declared), ("ld", entity)]
    found: dict[str, dict] = {}

    def add(text: str, key: str, distance: int | None = None) -> None:
        text = " ".join(text.split())
        if text:
            c = found.setdefault(fold(text), {"text": text, "keys": set(), "distance": None})
            c["keys"].add(key)
            if distance is not None and (c["distance"] is None or distance < c["distance"]):
                c["distance"] = distance

    if rule:
        add(rule, "rule")
    offered = [t for _, t in sources if t]
    for name, t in sources:
        if t:
            for form, text in forms(t, site, host, False):
                add(text, f"{name}_{form}")
    for t, distance in heads:
        if not merge._names_the_site(t, site, host, offered):
            for form, text in forms(t, site, host, True):
                add(text, f"h1_{form}", distance)
    if site:
        add(site, "site")
    for text in merge.title_candidates(declared, entity, heads, site, host):
        add(text, "other")
    nearest = fold(min(heads, key=lambda h: h[1])[0]) if heads else None
    rule_keys = found.get(fold(rule or ""), {"keys": set()})["keys"]
    index = {n: i for i, n in enumerate(FEATURES)}
    keys, rows = [], np.zeros((len(found), len(FEATURES)))
    for row, (key, c) in zip(rows, found.items()):
        keys.append(key)
        text, named = c["text"], c["keys"]
        for k in named:
            if k in index:
                row[index[k]] = 1.0
        n_sources = len({k.split("_")[0] for k in named if "_" in k})
        row[index["bias"]] = 1.0
        row[index["sources"]] = n_sources
        row[index["wholes"]] = sum(k.endswith("_whole") for k in named)
        row[index["words"]] = min(len(text.split()), 30) / 10
        row[index["chars"]] = math.log1p(len(text)) / 5
        row[index["holds_site"]] = float(bool(site) and merge.fold(site) in merge.fold(text)
                                         and merge.fold(site) != merge.fold(text))
        row[index["root"]] = float(root)
        row[index["h1_nearest"]] = float(key == nearest)
        row[index["h1_distance"]] = (math.log1p(c["distance"]) / 8 if c["distance"] is not None
                                     else 1.5)
        row[index["agrees_h1"]] = max((merge.agreement(h, text) for h, _ in heads), default=0.0)
        row[index["agrees_declared"]] = max((merge.agreement(text, t) for t in offered),
                                            default=0.0)
        row[index["rule_h1"]] = float(any(k.startswith("h1_") for k in rule_keys))
        row[index["h1s"]] = min(len(heads), 6) / 6
        row[index["separator"]] = float(any(s in text for s in merge.PART_SEPARATORS))
        row[index["rule_root"]] = row[index["rule"]] * float(root)
        row[index["rule_sources"]] = row[index["rule"]] * n_sources
    return keys, rows


def record(dataset: Path, split: str = "train", limit: int | None = None) -> list[Page]:
    """The labelled pages of `dataset`'s `split` sites, each with its candidates."""
    entries = [json.loads(line) for line in
               (dataset / "index.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    sides = load_split().get("pages", {}).get(name, {})
    pages = []
    for entry in [e for e in entries if sides.get(e["id"]) == split][: limit or None]:
        want = label(entry, "title")
        try:
            html, _ = static.decode_html(static.read_page(dataset / entry["html"]), None, "replace")
            got, _, _ = ours(html, entry.get("url") or "")
        except PithError:
            continue
        if not want or got.get("title_inputs") is None:
            continue
        keys, x = candidates(got["title_inputs"], got.get("title"))
        pages.append(Page(merge.host_site(entry.get("url") or "") or entry["id"], x,
                          np.array([k == fold(want) for k in keys])))
    return pages


def folds_of(pages: list[Page], k: int = FOLDS) -> np.ndarray:
    """Fold per page by a salted hash of its site (the block trainer's FOLD_SALT)."""
    return np.array([int(hashlib.sha1((FOLD_SALT + p.site).encode()).hexdigest(), 16) % k
                     for p in pages])


def fit(pages: list[Page], l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weights, mean, scale): a logistic regression of "this candidate is the label" over
    every candidate of `pages`, on standardised features, L2 penalty `l2` per page
    (Newton's method)."""
    x = np.vstack([p.x for p in pages])
    y = np.concatenate([p.y for p in pages]).astype(float)
    mean, scale = x.mean(0), x.std(0)
    mean[0], scale[0] = 0.0, 1.0
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    w = np.zeros(z.shape[1])
    penalty = l2 * len(pages) * np.eye(len(w))
    penalty[0, 0] = 0.0
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(z @ w)))
        grad = z.T @ (p - y) + penalty @ w
        hess = (z * (p * (1 - p))[:, None]).T @ z + penalty + 1e-9 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w, mean, scale


def choose(page: Page, model: tuple[np.ndarray, np.ndarray, np.ndarray]) -> int:
    """The index of `page`'s best-scored candidate."""
    w, mean, scale = model
    return int(np.argmax(((page.x - mean) / scale) @ w))


def cross_validate(pages: list[Page], l2: float, k: int = FOLDS) -> dict:
    """The share of pages whose chosen candidate is the label over site folds, and the
    pages gained and lost against the rule."""
    folds = folds_of(pages, k)
    right = gained = lost = 0
    rule = FEATURES.index("rule")
    for f in range(k):
        train = [p for p, g in zip(pages, folds) if g != f]
        if not train:
            continue
        model = fit(train, l2)
        for p, g in zip(pages, folds):
            if g != f:
                continue
            ok = bool(p.y[choose(p, model)])
            by_rule = bool(p.y[p.x[:, rule] == 1].any())
            right += ok
            gained += ok and not by_rule
            lost += by_rule and not ok
    return {"share": right / len(pages) if pages else 0.0, "gained": gained, "lost": lost}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pith.measure.title_choice",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--folds", type=int, default=FOLDS)
    ap.add_argument("--limit", type=int)
    args = ap.parse_args(argv)
    pages = record(args.dataset, "train", args.limit)
    rule = FEATURES.index("rule")
    n = len(pages)
    print(f"{args.dataset.name}, training sites: {n} labelled pages, "
          f"fold sizes {np.bincount(folds_of(pages, args.folds), minlength=args.folds).tolist()}")
    print(f"rule (choose_title)   {sum(p.y[p.x[:, rule] == 1].any() for p in pages) / n:.3f}")
    print(f"reach (any candidate) {sum(p.y.any() for p in pages) / n:.3f}")
    for l2 in L2_GRID:
        cv = cross_validate(pages, l2, args.folds)
        print(f"learned, l2 {l2:<5}      {cv['share']:.3f}  (+{cv['gained']} -{cv['lost']} pages "
              f"against the rule)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
