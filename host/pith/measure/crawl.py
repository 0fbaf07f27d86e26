"""`pith bench --crawl`: batch extraction of a WARC crawl built from the shared datasets, timed.

What it prints (issue 16's targets), all on the same records in the same run:

  1. one core: `pith.batch.extract(jobs=1)` against trafilatura (`extract`, its defaults,
     in this process) on the first `--compare` records, pages/s each and the ratio;
  2. every core: `--jobs 1` against `--jobs 2` (or the cores there are) on all records;
  3. Dask: a LocalCluster of as many workers, on the same files (when dask is installed);
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
import tempfile
import threading
import time
from argparse import Namespace
from pathlib import Path

from . import warcfile
from .datasets import REPO, all_datasets

# Files the crawl is split into: a Dask task is one file, so several keep 2 workers busy.
CRAWL_FILES = 8
# How often the memory sampler reads /proc.
RSS_SAMPLE_S = 0.25
# The pathological page: a flat page this many elements long takes the static pipeline
# well over the default 10 s page limit (about 20 s for a million at the time of writing).
PATHOLOGICAL_ELEMENTS = 1_000_000


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
    """Samples the resident set of this process and all its descendants in a thread."""

    def __init__(self) -> None:
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
            sizes = [_rss(pid) for pid in _tree(os.getpid())]
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
             limit: int | None = None, page_timeout: float | None = None) -> dict:
    """Extract `files` (the first `limit` HTML records only, if given) into `out`."""
    from ..batch import cluster, records, sinks, work
    from ..batch import extract as batch_extract
    from ..batch.summary import Summary
    summary = Summary()
    t0 = time.perf_counter()
    with open(out, "w", encoding="utf-8") as f, TreeMemory() as memory:
        sink = sinks.JsonLines(f)
        if engine == "dask":
            rows = cluster.run([str(p) for p in files], work.Job(), summary=summary,
                               n_workers=jobs)
        else:
            rows = batch_extract([str(p) for p in files], jobs=jobs, summary=summary,
                                 time_s=page_timeout)
        for n, row in enumerate(rows, 1):
            if engine == "dask":
                summary.add(row)
            sink.write(row)
            if limit is not None and n >= limit:
                break
        if hasattr(rows, "close"):
            rows.close()
    seconds = time.perf_counter() - t0
    counts = summary.as_dict()
    return {"engine": engine, "jobs": jobs, "pages": summary.rows, "seconds": round(seconds, 2),
            "pages_per_s": round(summary.rows / seconds, 1),
            "peak_rss_mb": round(memory.peak_total / 2**20),
            "peak_process_rss_mb": round(memory.peak_one / 2**20),
            "rss_quarters_mb": _quarters(memory.samples),
            "timed_out": counts["timed_out"], "failed": counts["failed"]}


def _quarters(samples: list[int]) -> list[int]:
    if not samples:
        return []
    return [round(samples[min(len(samples) - 1, len(samples) * q // 4)] / 2**20)
            for q in (1, 2, 3, 4)]


def run_trafilatura(files: list[Path], limit: int) -> dict:
    """trafilatura.extract (defaults) on the first `limit` HTML records, read the same way."""
    import trafilatura
    from ..batch import records
    tally = records.Tally()
    n = 0
    t0 = time.perf_counter()
    for record in records.records([str(p) for p in files], tally):
        if record.data is None:
            continue
        trafilatura.extract(record.data, url=record.url)
        n += 1
        if n >= limit:
            break
    seconds = time.perf_counter() - t0
    return {"engine": "trafilatura", "jobs": 1, "pages": n, "seconds": round(seconds, 2),
            "pages_per_s": round(n / seconds, 1)}


def main(args: Namespace) -> int:
    records = args.records
    files = build(records)
    results: dict = {"records": records, "files": len(files)}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.jsonl"
        try:
            results["trafilatura"] = run_trafilatura(files, args.compare)
        except ImportError:
            results["trafilatura"] = None
        results["pith_one_core"] = run_pith(files, 1, out, limit=args.compare)
        results["jobs_1"] = run_pith(files, 1, out)
        results[f"jobs_{cores}"] = run_pith(files, cores, out)
        try:
            import distributed  # noqa: F401
            results[f"dask_{cores}"] = run_pith(files, cores, out, engine="dask")
        except ImportError:
            results[f"dask_{cores}"] = None
        bad = build(records, pathological=True)
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
        print(f"one core, first {tr['pages']:,} records: pith {one['pages_per_s']:,.1f} pages/s, "
              f"trafilatura {tr['pages_per_s']:,.1f} pages/s: {one['pages_per_s'] / tr['pages_per_s']:.2f}x")
    j1, jn = r["jobs_1"], r[f"jobs_{cores}"]
    print(f"all records: --jobs 1 {j1['pages_per_s']:,.1f} pages/s, --jobs {cores} "
          f"{jn['pages_per_s']:,.1f} pages/s: {jn['pages_per_s'] / j1['pages_per_s']:.2f}x")
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
    print(f"pathological record (1 in {r['records']:,}): {p['timed_out']} timed out, the run "
          f"took {extra:+.1f} s against the clean one (page limit {r['page_timeout_s']:g} s)")
