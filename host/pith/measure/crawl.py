"""`pith bench --crawl`: batch extraction of a WARC crawl built from the shared datasets, timed.

What it prints (issue 16's targets), all on the same records in the same run:

  1. one core: `pith extract --format jsonl --jobs 1` against trafilatura (`extract`,
     its defaults, in this process) on the first `--compare` records (default: one cycle,
     every dataset page once), both pinned to one CPU (the CLI's reading parent and its
     worker share it; pith's start-up is timed too), both timed from reading the WARC
     files; RUNS runs each in turn, pages/s of the best of each and the ratio;
  2. every core: `--jobs 1` against `--jobs 2` (or the cores there are) on all records,
     each `pith extract` a subprocess timed from start to end (start-up included),
     RUNS runs each in turn, the best of each;
  3. Dask: a LocalCluster of as many workers, on the same files (when dask is installed),
     the best of RUNS runs;
  4. memory: the peak resident set of the whole process tree (parent, forkserver,
     workers; sampled every RSS_SAMPLE_S) and at each quarter of the run, so a growth
     with the input shows;
  5. a pathological record: the same crawl with one page in `--records` replaced by one
     that takes the pipeline far longer than `--page-timeout`: the extra wall time it
     costs, against that limit.

The crawl: every page of every shared dataset, cycled (copies get `#copyN` URLs) until
`--records` response records, as CRAWL_FILES gzipped WARC files (request + response
records, as Common Crawl writes them) under .cache/crawl/, built once per size. Rows go
to a JSON Lines file in a temporary folder, so writing them is timed too.
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from argparse import Namespace
from pathlib import Path

from . import warcfile
from .datasets import REPO, all_datasets
from ..errors import PithError

# Runs of each side of a speed comparison (one core: pith and trafilatura; --jobs 1 and
# --jobs N), taken in turn; the best of each is compared. A run's pages/s moved by up to
# 10 % between runs on this machine (--jobs 1: 99.5 to 120 pages/s on the same records).
RUNS = 2
# Files the crawl is split into: a Dask task is one file, so several keep 2 workers busy.
CRAWL_FILES = 8
# How often the memory sampler reads /proc.
RSS_SAMPLE_S = 0.25
# The pathological page: a flat page this many elements long (under the pipeline's
# max_nodes, 1,000,000, which would refuse it at once) takes the static pipeline seconds,
# well over PAGE_TIMEOUT_S, while real pages take milliseconds.
PATHOLOGICAL_ELEMENTS = 900_000
# The page limit of the pathological run (--page-timeout): low enough that the
# pathological page surely exceeds it, high enough that no real page does.
PAGE_TIMEOUT_S = 2.0


def crawl_dir(records: int) -> Path:
    return REPO / ".cache" / "crawl" / f"records-{records}"


def build(records: int, pathological: bool = False) -> list[Path]:
    """The crawl's WARC files (built on first use); with `pathological`, a copy whose
    middle record is the pathological page."""
    folder = crawl_dir(records) / ("pathological" if pathological else "clean")
    done = folder / "done.json"
    if done.is_file():
        return [folder / name for name in json.loads(done.read_text())["files"]]
    folder.mkdir(parents=True, exist_ok=True)
    pages = list(_pages(records))
    if pathological:
        middle = len(pages) // 2
        pages[middle] = warcfile.Page(
            "https://pathological.invalid/flat",
            ("<html><body>" + "<div><p>word</p></div>" * (PATHOLOGICAL_ELEMENTS // 2)
             + "</body></html>").encode())
    per_file = -(-len(pages) // CRAWL_FILES)
    names = []
    for k in range(CRAWL_FILES):
        name = f"crawl-{k:02d}.warc.gz"
        warcfile.write(folder / name, pages[k * per_file:(k + 1) * per_file])
        names.append(name)
    done.write_text(json.dumps({"files": names, "records": len(pages)}))
    return [folder / name for name in names]


def dataset_pages() -> int:
    """How many pages the shared datasets hold: one cycle of the crawl, each page once."""
    return sum(1 for dataset in all_datasets()
               for line in (dataset / "index.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip())


def _pages(records: int):
    entries = []
    for dataset in all_datasets():
        for line in (dataset / "index.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                entries.append((dataset, json.loads(line)))
    n = 0
    copy = 0
    while n < records:
        for dataset, entry in entries:
            if n >= records:
                return
            data = (dataset / entry["html"]).read_bytes()
            if entry["html"].endswith(".gz"):
                data = gzip.decompress(data)
            url = entry.get("url") or f"https://{dataset.name}.invalid/{entry['id']}"
            yield warcfile.Page(url + (f"#copy{copy}" if copy else ""), data,
                                content_type="text/html")
            n += 1
        copy += 1


class TreeMemory:
    """Samples the resident set of a process and all its descendants, in a thread."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak_total = 0
        self.peak_one = 0
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "TreeMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(RSS_SAMPLE_S):
            sizes = [_rss(pid) for pid in _tree(self.root)]
            total = sum(sizes)
            self.samples.append(total)
            self.peak_total = max(self.peak_total, total)
            self.peak_one = max(self.peak_one, max(sizes, default=0))


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0


def run_pith(files: list[Path], jobs: int, out: Path, engine: str = "local",
             cores: set[int] | None = None, page_timeout: float | None = None) -> dict:
    """`pith extract FILES --format jsonl --jobs N` in a subprocess (pinned to `cores`
    when given: children inherit it), timed, its process tree's memory sampled."""
    summary_file = out.with_suffix(".summary.json")
    command = [sys.executable, "-m", "pith", "extract", *map(str, files), "--format", "jsonl",
               "--out", str(out), "--jobs", str(jobs), "--summary", str(summary_file), "-q",
               "--engine", engine]
    if page_timeout is not None:
        command += ["--page-timeout", str(page_timeout)]
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    pin = (lambda: os.sched_setaffinity(0, cores)) if cores else None
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, preexec_fn=pin)
    with TreeMemory(proc.pid) as memory:
        _, err = proc.communicate()
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise PithError(f"pith extract failed ({proc.returncode}): {err.decode()[-2000:]}")
    counts = json.loads(summary_file.read_text())
    stopped = [row["timings"]["wall_ms"] for row in _rows_of(out) if row["status"] == "timeout"]
    return {"engine": engine, "jobs": jobs, "pages": counts["html"], "seconds": round(seconds, 2),
            "pages_per_s": round(counts["html"] / seconds, 1),
            "peak_rss_mb": round(memory.peak_total / 2**20),
            "peak_process_rss_mb": round(memory.peak_one / 2**20),
            "rss_quarters_mb": _quarters(memory.samples),
            "timed_out": counts["timed_out"], "failed": counts["failed"],
            "stopped_after_s": [round(ms / 1e3, 2) for ms in stopped]}


def _rows_of(path: Path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def _quarters(samples: list[int]) -> list[int]:
    samples = [s for s in samples if s]       # a sample taken as the tree ended reads 0
    if not samples:
        return []
    return [round(samples[min(len(samples) - 1, len(samples) * q // 4)] / 2**20)
            for q in (1, 2, 3, 4)]


def run_trafilatura(files: list[Path], cores: set[int] | None) -> dict:
    """trafilatura.extract (its defaults) on every HTML record of `files`, in this process
    (pinned to `cores` meanwhile), timed from reading the WARC files to the last text, as
    pith's run reads them too (with the same reader)."""
    import trafilatura
    from ..batch import records
    before = os.sched_getaffinity(0) if cores else None
    if cores:
        os.sched_setaffinity(0, cores)
    try:
        t0 = time.perf_counter()
        pages = 0
        for record in records.records([str(p) for p in files], records.Tally()):
            if record.data is not None:
                trafilatura.extract(record.data, url=record.url)
                pages += 1
        seconds = time.perf_counter() - t0
    finally:
        if before:
            os.sched_setaffinity(0, before)
    return {"engine": "trafilatura", "jobs": 1, "pages": pages, "seconds": round(seconds, 2),
            "pages_per_s": round(pages / seconds, 1)}


def main(args: Namespace) -> int:
    files = build(args.records)
    compare = min(args.compare or dataset_pages(), args.records)
    sample = build(compare)
    results: dict = {"records": args.records, "files": len(files), "compare": compare}
    every = sorted(os.sched_getaffinity(0))
    cores = len(every)
    one = {every[0]}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.jsonl"
        # One core: RUNS runs of each, taken in turn, the best of each kept.
        results["trafilatura_runs"], results["pith_one_core_runs"] = [], []
        for _ in range(RUNS):
            try:
                results["trafilatura_runs"].append(run_trafilatura(sample, one))
            except ImportError:
                pass
            results["pith_one_core_runs"].append(run_pith(sample, 1, out, cores=one))
        results["trafilatura"] = max(results["trafilatura_runs"], default=None,
                                     key=lambda r: r["pages_per_s"])
        results["pith_one_core"] = max(results["pith_one_core_runs"],
                                       key=lambda r: r["pages_per_s"])
        # --jobs 1 against --jobs N: the same way, runs in turn, the best of each
        for jobs in (1, cores):
            results[f"jobs_{jobs}_runs"] = []
        for _ in range(RUNS):
            for jobs in (1, cores):
                results[f"jobs_{jobs}_runs"].append(run_pith(files, jobs, out))
        for jobs in (1, cores):
            results[f"jobs_{jobs}"] = max(results[f"jobs_{jobs}_runs"],
                                          key=lambda r: r["pages_per_s"])
        try:
            import distributed  # noqa: F401
            results[f"dask_{cores}"] = max(
                (run_pith(files, cores, out, engine="dask") for _ in range(RUNS)),
                key=lambda r: r["pages_per_s"])     # compared with the best --jobs run
        except ImportError:
            results[f"dask_{cores}"] = None
        bad = build(args.records, pathological=True)
        results["pathological"] = run_pith(bad, cores, out, page_timeout=args.page_timeout)
        results["page_timeout_s"] = args.page_timeout
    _print(results, cores)
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _print(r: dict, cores: int) -> None:
    tr, one = r["trafilatura"], r["pith_one_core"]
    print(f"crawl: {r['records']:,} HTML records in {r['files']} WARC files (.cache/crawl)")
    if tr:
        runs = "; ".join(f"{p['pages_per_s']:,.1f} / {t['pages_per_s']:,.1f}" for p, t in
                         zip(r["pith_one_core_runs"], r["trafilatura_runs"]))
        print(f"one core (both pinned to one CPU, each reading the WARC files), the first "
              f"{tr['pages']:,} records, best of {len(r['pith_one_core_runs'])}: pith "
              f"{one['pages_per_s']:,.1f} pages/s, trafilatura {tr['pages_per_s']:,.1f} pages/s: "
              f"{one['pages_per_s'] / tr['pages_per_s']:.2f}x (each run, pith / trafilatura: {runs})")
    j1, jn = r["jobs_1"], r[f"jobs_{cores}"]
    runs = "; ".join(f"{a['pages_per_s']:,.1f} / {b['pages_per_s']:,.1f}" for a, b in
                     zip(r["jobs_1_runs"], r[f"jobs_{cores}_runs"]))
    print(f"all records, best of {len(r['jobs_1_runs'])}: --jobs 1 {j1['pages_per_s']:,.1f} pages/s, "
          f"--jobs {cores} {jn['pages_per_s']:,.1f} pages/s: {jn['pages_per_s'] / j1['pages_per_s']:.2f}x "
          f"(each run, --jobs 1 / --jobs {cores}: {runs})")
    dk = r[f"dask_{cores}"]
    if dk:
        print(f"dask LocalCluster, {cores} workers: {dk['pages_per_s']:,.1f} pages/s, "
              f"{dk['pages_per_s'] / jn['pages_per_s']:.2f}x of --jobs {cores}")
    for name in ("jobs_1", f"jobs_{cores}"):
        m = r[name]
        print(f"memory, {name.replace('_', ' ')}: peak {m['peak_rss_mb']:,} MB for the process "
              f"tree (largest process {m['peak_process_rss_mb']:,} MB); at each quarter "
              f"{m['rss_quarters_mb']} MB")
    p = r["pathological"]
    extra = p["seconds"] - jn["seconds"]
    print(f"pathological record (1 in {r['records']:,}): {p['timed_out']} timed out, stopped "
          f"after {p['stopped_after_s']} s (page limit {r['page_timeout_s']:g} s); the run took "
          f"{extra:+.1f} s against the clean one (the clean runs' own spread is seconds)")
