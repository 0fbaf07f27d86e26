"""Comment threads answered apart, scored against a dataset's `truth_comments/` beside trafilatura's comments.

    python -m pith.measure.comments_score DATASET_DIR [--split validation] [--limit N]

For every page of the dataset (static snapshot, default options) the thread that
`select` answers apart (Selection.comments_text) is scored with the shared scorer's
shingle metric against `truth_comments/<id>.txt`, and so is trafilatura's own comment
extraction (`bare_extraction(..., include_comments=True).comments`) of the same decoded
HTML. Two rows each: the pages that have a comment truth (mean page F1, and the dataset
P/R/F1 the scorer computes), and every page, a page without a comment truth counting
an empty truth (an answer there is a false thread). The body's own score is `pith bench`'s
(with `--option comments_apart=false` for the pipeline without the thread apart).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import PithError
from ..pages import static
from ..pipeline.options import Options
from ..pipeline.select import select
from .datasets import load_scorer, side_of, site_of

# Decoded as the bench decodes: a few bad bytes do not stop a page.
ENCODING_ERRORS = "replace"


def pith_comments(html: str, url: str, opts: Options) -> str:
    """The thread `select` answers apart on `html`, "" when none."""
    try:
        snap = static.snapshot_of_html(html, url, opts.max_nodes)
        return select(snap, opts).comments_text() or ""
    except PithError:
        return ""


def trafilatura_comments(html: str, url: str) -> str:
    """trafilatura's comments of `html`, "" when none."""
    from trafilatura import bare_extraction
    doc = bare_extraction(html, url=url or None, include_comments=True)
    return (getattr(doc, "comments", None) or "") if doc is not None else ""


def run(dataset: Path, split: str | None, limit: int | None) -> list[dict]:
    """One row per (method, page set): pages, mean page F1, P, R, F1 of the scorer."""
    scorer = load_scorer()
    entries = scorer.load_index(str(dataset))
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    if split:
        entries = [e for e in entries if side_of(site_of({**e, "dataset": name})) == split]
    entries = entries[: limit or None]
    opts = Options()
    methods = {"pith": lambda h, u: pith_comments(h, u, opts), "trafilatura": trafilatura_comments}
    counts: dict[tuple[str, bool], list] = {}
    for e in entries:
        truth_path = dataset / "truth_comments" / f"{e['id']}.txt"
        truth = truth_path.read_text(encoding="utf-8") if truth_path.is_file() else ""
        html, _ = static.decode_html(static.read_page(dataset / e["html"]), None, ENCODING_ERRORS)
        for method, fn in methods.items():
            pred = fn(html, e.get("url") or "")
            pair = scorer.shingle_counts(pred, truth)
            for only in (True, False):
                if only and not truth.strip():
                    continue
                counts.setdefault((method, only), []).append(
                    (pair, scorer.score_pair(pred, truth)[2]))
    rows = []
    for (method, only), got in counts.items():
        agg = scorer.aggregate([c for c, _ in got])
        rows.append({"dataset": name, "split": split or "all", "method": method,
                     "pages": "with comment truth" if only else "all",
                     "n": len(got), "mean_page_f1": sum(f for _, f in got) / len(got),
                     "precision": agg["precision"], "recall": agg["recall"], "f1": agg["f1"]})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pith.measure.comments_score",
                                description=__doc__.splitlines()[0])
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", choices=("train", "validation"))
    p.add_argument("--limit", type=int)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = run(args.dataset, args.split, args.limit)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'method':<12} {'pages':<19} {'n':>4}  {'pageF1':>6} {'P':>5} {'R':>5} {'F1':>5}")
    for r in rows:
        print(f"{r['method']:<12} {r['pages']:<19} {r['n']:>4}  {r['mean_page_f1']:.3f} "
              f"{r['precision']:.3f} {r['recall']:.3f} {r['f1']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
