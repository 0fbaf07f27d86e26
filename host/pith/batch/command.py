"""The batch side of `pith extract`: rows as JSON Lines or Parquet, a progress bar, the summary.

cli.py hands over here when the output is a table of rows (`--format jsonl` or
`parquet`, the default for WARC input). Decisions:

  - every row is extracted statically (an HTML5 parser, no browser): a crawl's record has no
    sub-resources to render with, and one browser would be the bottleneck of N cores;
  - JSON Lines go to stdout unless `--out FILE`; Parquet needs `--out FILE`;
  - the progress bar (pages and pages/s) is drawn only on a terminal, the summary is
    always printed to stderr when the run ends (stdout stays the rows'); `--summary FILE`
    also writes it as JSON for a pipeline;
  - exit status 1 when any record failed or timed out (the summary names them), as for
    every `pith extract`; skipped non-HTML records are no failure.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from . import pool, records, work
from .sinks import JsonLines, Parquet
from .summary import Summary
from ..pipeline.options import Options

TABLE_FORMATS = ("jsonl", "parquet")
# Write buffer of a JSON Lines file: rows average 12 kB on a crawl, so the default 8 kB
# buffer made one system call per row; 1 MiB makes one per ~80 rows.
FILE_BUFFER = 1 << 20


def run(args: Any, options: Options, terminal: bool) -> int:
    """Run the batch of `args` (the parsed `pith extract` namespace); the exit status."""
    from ..errors import BadOptions
    if args.format == "parquet" and (args.out is None or str(args.out) == "-"):
        raise BadOptions("--format parquet writes a file: give --out FILE.parquet")
    if args.out is not None and args.out.is_dir():
        raise BadOptions(f"--out {args.out} is a folder; --format {args.format} writes one "
                         "file of rows: give --out FILE")
    job = work.Job(options=options, extra=tuple(args.also or ()), encoding=args.encoding,
                   encoding_errors=args.encoding_errors or "replace", timeout_s=args.timeout)
    limits = pool.Limits(time_s=args.page_timeout,
                         memory_bytes=int(args.page_memory * 2**20) if args.page_memory else None)
    summary = Summary()
    sink = _sink(args)
    bar = _bar(args, terminal)
    t0 = time.perf_counter()
    try:
        for row in _rows(args, job, limits, summary):
            summary.add(row)
            sink.write(row)
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:       # the rows so far are written: say how far it got
        _report(summary, t0, bar, sink, "interrupted: ")
        raise
    except BaseException:
        sink.close()                # a Parquet file gets its footer: what is in it reads
        raise
    _report(summary, t0, bar, sink, "")
    if args.summary is not None:
        args.summary.write_text(json.dumps(summary.as_dict(), indent=1) + "\n", encoding="utf-8")
    counts = summary.as_dict()
    return 1 if counts["failed"] or counts["timed_out"] or counts["damaged"] else 0


def _report(summary: Summary, t0: float, bar, sink, prefix: str) -> None:
    summary.seconds = time.perf_counter() - t0
    if bar is not None:
        bar.close()
    sink.close()
    for k, line in enumerate(summary.lines()):
        print(line.replace("pith: ", "pith: " + prefix, 1) if k == 0 else line, file=sys.stderr)


def _rows(args: Any, job: work.Job, limits: pool.Limits, summary: Summary):
    if args.engine == "dask":
        from . import cluster
        return cluster.run(args.inputs, job, limits, scheduler=args.scheduler,
                           n_workers=args.jobs, tally=summary.tally)
    stream = records.records(args.inputs, summary.tally)
    return pool.run(stream, job, jobs=args.jobs, ordered=not args.unordered, limits=limits)


def _sink(args: Any):
    if args.format == "parquet":
        return Parquet(Path(args.out))
    if args.out is None or str(args.out) == "-":
        sys.stdout.flush()
        return JsonLines(getattr(sys.stdout, "buffer", None) or _Utf8(sys.stdout))
    return _FileLines(Path(args.out))


class _FileLines(JsonLines):
    def __init__(self, path: Path) -> None:
        super().__init__(open(path, "wb", buffering=FILE_BUFFER), flush_each=False)

    def close(self) -> None:
        self.out.close()


class _Utf8:
    """A text stream written with bytes (a replaced sys.stdout without a buffer)."""

    def __init__(self, out) -> None:
        self.out = out

    def write(self, data: bytes) -> None:
        self.out.write(data.decode("utf-8"))

    def flush(self) -> None:
        self.out.flush()


def _bar(args: Any, terminal: bool):
    if args.quiet or not terminal:
        return None
    from tqdm import tqdm
    return tqdm(desc="extract", unit="page", file=sys.stderr, dynamic_ncols=True,
                smoothing=0.1)
