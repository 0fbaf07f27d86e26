"""Quality gate: every method's shingle F1 on a fixed slice of the shared datasets, against pinned floors.

`python tests/quality_gate.py` prints the figures; `python tests/quality_gate.py --update
--reason "why"` rewrites tests/quality_floors.json (floors = measured, rounded down, minus
FLOOR_MARGIN). tests/test_quality_gate.py fails when a method falls below its floor, and
when a floor in the file was lowered without a reason recorded beside it. The slice is the
first PAGES_PER_DATASET pages of each dataset's index in static mode (no browser: fast and
the same on every machine); its corpus digest pins the exact bytes, so a changed dataset is
reported as such and not as a regression.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

from pith.pages import static  # noqa: E402
from pith.measure.datasets import load_scorer, shared_dir  # noqa: E402
from pith.errors import PithError  # noqa: E402
from pith.pipeline.options import ALGORITHMS, Options  # noqa: E402
from pith.pipeline.select import select  # noqa: E402

FLOORS = HERE / "quality_floors.json"
DATASETS = ("cleaneval", "readability", "wcxb_dev")
# 40 pages a dataset keep the gate under a minute in CI while every method still sees
# articles, forums and listings (wcxb_dev's index is stratified by page type).
PAGES_PER_DATASET = 40
# Floors sit this far under the measured F1: room for harmless float and library noise,
# not for a real regression (one wrong page of 40 moves F1 by about 0.02).
FLOOR_MARGIN = 0.01


def slice_of(dataset: Path) -> list[dict]:
    scorer = load_scorer()
    return scorer.load_index(str(dataset))[:PAGES_PER_DATASET]


def digest(datasets: list[Path]) -> str:
    """sha256 over the slice's HTML and truth bytes, in a fixed order."""
    h = hashlib.sha256()
    for d in datasets:
        for e in slice_of(d):
            for rel in (e["html"], e.get("truth", f"truth/{e['id']}.txt")):
                h.update(rel.encode())
                h.update((d / rel).read_bytes())
    return h.hexdigest()


def measure(datasets: list[Path]) -> dict[str, dict[str, float]]:
    """{dataset: {method: shingle F1}} on the slice, static mode."""
    scorer = load_scorer()
    out: dict[str, dict[str, float]] = {}
    for d in datasets:
        entries = slice_of(d)
        snaps = []
        for e in entries:
            try:
                html, _ = static.decode_html((d / e["html"]).read_bytes(), None, "replace")
                # validated once for all the methods (select takes a Snapshot as it is)
                snaps.append(static.snapshot_of_html(html, e.get("url") or "",
                                                     Options().max_nodes))
            except PithError:
                snaps.append(None)
        truths = [(d / e.get("truth", f"truth/{e['id']}.txt")).read_text(encoding="utf-8")
                  for e in entries]
        out[d.name] = {}
        for method in ALGORITHMS:
            counts = []
            for snap, truth in zip(snaps, truths):
                text = ""
                if snap is not None:
                    try:
                        text = select(snap, Options.from_overrides(
                            {"algorithm": method})).output("text")
                    except PithError:
                        pass
                counts.append(scorer.shingle_counts(text, truth))
            out[d.name][method] = round(scorer.aggregate(counts)["f1"], 4)
    return out


def dataset_dirs() -> list[Path]:
    return [shared_dir() / "datasets" / name for name in DATASETS]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true", help="rewrite the floors from this run")
    ap.add_argument("--reason", help="why the floors change (required with --update)")
    args = ap.parse_args(argv)
    dirs = dataset_dirs()
    figures = measure(dirs)
    print(json.dumps(figures, indent=1))
    if args.update:
        if not args.reason:
            ap.error("--update needs --reason: the file keeps why each change was made")
        old = json.loads(FLOORS.read_text()) if FLOORS.is_file() else {"history": []}
        floors = {d: {m: round(math.floor(f * 100) / 100 - FLOOR_MARGIN, 2) for m, f in row.items()}
                  for d, row in figures.items()}
        lowered = [f"{d}/{m}" for d, row in floors.items() for m, f in row.items()
                   if f < old.get("floors", {}).get(d, {}).get(m, 0)]
        record = {"digest": digest(dirs), "pages_per_dataset": PAGES_PER_DATASET,
                  "floors": floors,
                  "history": old.get("history", []) + [{"reason": args.reason,
                                                        "lowered": lowered}]}
        FLOORS.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {FLOORS}" + (f"; lowered: {', '.join(lowered)}" if lowered else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
