"""How close static snapshots' trees are to the DOM Chromium built for the same page: prints figures, asserts nothing.

For a seeded sample of each shared dataset's pages that `pith bench` has a rendered
snapshot of (.cache/snapshots), the static snapshot of the page's HTML is compared with the
rendered one on the (tag, parent's tag) sequence of their elements in document order:
identical trees are counted, and difflib's similarity ratio is averaged. The rendered DOM
is after the page's scripts ran, so 100 % is out of reach; the figure is for comparing
parsers. Pages over MAX_ELEMENTS elements are left out (difflib is quadratic).

    .venv/bin/python tests/bench_static_tree.py [--per-dataset N] [--seed S]

Run it with another checkout's host package first on PYTHONPATH to measure that one's
static parser on the same sample (host/BENCHMARKS.md, "Dependencies' figures", has both).
"""
from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent / "host"))   # appended: a PYTHONPATH checkout comes first

from pith.measure.datasets import SnapshotCache, cache_root, shared_dir  # noqa: E402
from pith.pages import static  # noqa: E402

DATASETS = ("cleaneval", "readability", "wcxb_dev_full")
MAX_ELEMENTS = 6000


def shape(nodes: dict) -> list[tuple[str, str]]:
    tags, parents = nodes["tag"], nodes["parent"]
    return [(t, tags[p] if p >= 0 else "") for t, p in zip(tags, parents)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-dataset", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    root = shared_dir() / "datasets"
    cache = SnapshotCache(cache_root(None), "rendered")   # $PITH_CACHE or .cache/snapshots
    rng = random.Random(args.seed)
    pages = identical = 0
    ratios: list[float] = []
    for name in DATASETS:
        index = [json.loads(line) for line in (root / name / "index.jsonl").open()]
        for entry in rng.sample(index, min(args.per_dataset, len(index))):
            cached = cache.get(name, entry["id"])
            if cached is None:
                continue
            rendered = json.loads(cached)["nodes"]
            if len(rendered["tag"]) > MAX_ELEMENTS:
                continue
            html, _ = static.decode_html(static.read_page(root / name / entry["html"]),
                                         None, "replace")
            ours = static.snapshot_from_html(html, entry.get("url") or "")["nodes"]
            a, b = shape(rendered), shape(ours)
            pages += 1
            identical += a == b
            ratios.append(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio())
    print(f"static parser: {static.__file__}")
    print(f"{pages} pages: tree identical to Chromium's on {identical} "
          f"({identical / max(pages, 1):.0%}); mean similarity {sum(ratios) / max(len(ratios), 1):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
