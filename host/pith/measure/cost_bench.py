"""`pith bench --metadata --cost`: what the page's metadata and page type add to the host's select time, wall and CPU, with and without them.

Static snapshots of each dataset's pages (or one side of the split with `--split`), as
`pith extract --static` selects them. Every page is selected ROUNDS times with the two
stages and ROUNDS times without them (both replaced by no-ops for the run), the two kinds
alternated, each on a snapshot parsed afresh from the HTML (a Snapshot remembers masks
a second select would reuse, and its strings their hashes). Per page the median of its
rounds is kept, and for CPU time also the fastest round (`best`); printed per dataset:

  select with      median and p95 over pages of the select's wall time (perf_counter)
                   and CPU time (process_time) with the metadata and the page type
  select without   the same with both stages left out
  inside           the two stages' own time inside the select with them (`metadata`,
                   `page type`, `both`)
  added            median with - median without: what the host's median grows by

CPU time is the process's (every thread), the figure to read on a shared machine, where
wall time also counts the waits for a core; both are noisy there, the CPU time less so,
and the fastest of a page's rounds least (another process's work on the same core still
slows a round down: its CPU time grows with the contention too).
"""
from __future__ import annotations

import contextlib
import json
import statistics
import time
from argparse import Namespace
from pathlib import Path

from ..errors import NoContent, PithError
from ..pages import static
from ..pipeline import pagetype
from ..pipeline.metadata import merge
from ..pipeline.options import Options
from ..pipeline.select import select
from .datasets import all_datasets, load_split, pages_of

# Selects a page gets with and as many without: the median of three keeps one stray
# pause (GC, another process's burst) out of the page's figure.
ROUNDS = 3
# The stages measured: (module, function name) as select.py calls them.
STAGES = {"metadata": (merge, "compute"), "page_type": (pagetype, "classify")}
DEFAULT_DATASETS = ("wcxb_dev_full",)


def _nothing(*_args, **_kwargs):
    return None


@contextlib.contextmanager
def stages(clock: dict[str, list[float]] | None):
    """During the block, select's metadata and page type stages are timed into `clock`
    (name -> [wall s, CPU s], added to) or, with None, left out (no-ops); restored after."""
    saved = {name: getattr(mod, fn) for name, (mod, fn) in STAGES.items()}

    def timed(name, real):
        depth = [0]        # a stage calling itself through its module is timed once

        def run(*args, **kwargs):
            if depth[0]:
                return real(*args, **kwargs)
            depth[0] += 1
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                clock[name][0] += time.perf_counter() - w0
                clock[name][1] += time.process_time() - c0
                depth[0] -= 1
        return run

    try:
        for name, (mod, fn) in STAGES.items():
            setattr(mod, fn, _nothing if clock is None else timed(name, saved[name]))
        yield
    finally:
        for name, (mod, fn) in STAGES.items():
            setattr(mod, fn, saved[name])


def time_select(snap, with_stages: bool) -> dict[str, float] | None:
    """One select of `snap` (not selected before): wall and CPU ms of the whole and
    (with the stages) of each stage; None when the page has no content."""
    clock = {name: [0.0, 0.0] for name in STAGES} if with_stages else None
    with stages(clock):
        w0, c0 = time.perf_counter(), time.process_time()
        try:
            select(snap, Options())
        except NoContent:
            return None
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    out = {"wall": wall * 1e3, "cpu": cpu * 1e3}
    for name, (w, c) in (clock or {}).items():
        out[f"{name}_wall"], out[f"{name}_cpu"] = w * 1e3, c * 1e3
    if clock:
        out["stages_wall"] = sum(out[f"{name}_wall"] for name in STAGES)
        out["stages_cpu"] = sum(out[f"{name}_cpu"] for name in STAGES)
    return out


def page_figures(html: str, url: str, rounds: int = ROUNDS) -> dict[str, float] | None:
    """Per figure, the median over `rounds` selects with the stages (`with_*`, stage
    figures) and `rounds` without (`without_*`), alternated, of the page `html` at
    `url`, each parsed afresh (the parse not timed); CPU figures also their minimum
    (`*_cpu_best`)."""
    runs: dict[bool, list[dict]] = {True: [], False: []}
    for r in range(rounds):
        for kind in ((True, False) if r % 2 == 0 else (False, True)):
            got = time_select(static.snapshot_of_html(html, url, Options().max_nodes), kind)
            if got is None:
                return None
            runs[kind].append(got)
    out = {}
    for kind, prefix in ((True, "with_"), (False, "without_")):
        for key in runs[kind][0]:
            name = key if "_" in key else prefix + key
            out[name] = statistics.median(run[key] for run in runs[kind])
            if key.endswith("cpu"):
                out[name + "_best"] = min(run[key] for run in runs[kind])
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summarise(name: str, pages: list[dict]) -> dict:
    """The dataset's row: per figure its median and p95 over pages, and the added median
    (with minus without) of wall, CPU and best CPU time."""
    row = {"dataset": name, "pages": len(pages)}
    if not pages:
        return row
    for key in pages[0]:
        values = [p[key] for p in pages]
        row[key] = {"median": round(statistics.median(values), 3),
                    "p95": round(percentile(values, 0.95), 3)}
    for clock in ("wall", "cpu", "cpu_best"):
        row[f"added_{clock}"] = round(row[f"with_{clock}"]["median"]
                                      - row[f"without_{clock}"]["median"], 3)
    return row


def run(dataset: Path, split: str | None, limit: int | None, quiet: bool) -> dict:
    name, entries = pages_of(dataset, quiet)
    if split:
        sides = load_split().get("pages", {}).get(name, {})
        entries = [e for e in entries if sides.get(e["id"]) == split]
    pages = []
    for entry in list(entries)[: limit or None]:
        try:
            html, _ = static.decode_html(static.read_page(dataset / entry["html"]), None,
                                         "replace")
            got = page_figures(html, entry.get("url") or "")
        except PithError:
            continue
        if got is not None:
            pages.append(got)
    return summarise(name, pages)


def format_row(row: dict) -> str:
    def cell(key):
        f = row[key]
        return f"{f['median']:>8.3f} {f['p95']:>8.3f}"
    lines = [f"{row['dataset']}: {row['pages']} pages, static, {ROUNDS} selects each way per "
             f"page (its median; best: its fastest); ms, median and p95 over pages",
             f"{'':<22}{'wall':>8} {'p95':>8}  {'CPU':>8} {'p95':>8}  {'CPU best':>8} {'p95':>8}"]
    for label, key in (("select with", "with"), ("select without", "without"),
                       ("  metadata (inside)", "metadata"), ("  page type (inside)", "page_type"),
                       ("  both (inside)", "stages")):
        lines.append(f"{label:<22}{cell(key + '_wall')}  {cell(key + '_cpu')}  "
                     f"{cell(key + '_cpu_best')}")
    lines.append(f"{'added (with - without)':<22}{row['added_wall']:>8.3f} {'':>8}  "
                 f"{row['added_cpu']:>8.3f} {'':>8}  {row['added_cpu_best']:>8.3f}")
    return "\n".join(lines)


def main(args: Namespace) -> int:
    datasets = args.datasets or [d for d in all_datasets() if d.name in DEFAULT_DATASETS]
    rows = []
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
        rows.append(run(d, args.split, args.limit, args.quiet))
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print("\n\n".join(format_row(r) for r in rows if r["pages"]))
        print("CPU: process_time (every thread); wall: perf_counter. Both are noisy on a "
              "shared machine; `added` is the difference of two medians, `inside` the "
              "stages' own time within the select.")
    return 0
