"""Batch extraction at crawl scale: WARC files, folders and path lists in, one row per page out.

The Python API (the CLI's `pith extract` uses the same):

    import pith.batch
    summary = pith.batch.Summary()
    for row in pith.batch.extract(["crawl.warc.gz"], jobs=4, summary=summary):
        print(row["url"], row["status"], len(row["text"] or ""))
    print(summary.as_dict())

`extract` streams: records are read as workers take them and rows are yielded in input
order (`ordered=False`: as they finish), so a crawl of any size runs in bounded memory.
Each page runs under a time and a memory limit in a worker process (pool.py). Rows are
described in work.py, the inputs in records.py, the WARC reading in warc.py. On a Dask
cluster: `pith.batch.cluster` (`extract_bag`, `run`).

Modules: warc (WARC files → entries), records (inputs → records), work (record → row),
pool (records → rows on N processes), summary (the counts), sinks (JSON Lines, Parquet),
cluster (Dask). It may import the root (pith and pith.errors), the pipeline, pages (static
capture and input rules) and itself; its __init__ imports inside its functions only.
"""
from __future__ import annotations


def extract(inputs: "Iterable[str]", *, jobs: int | None = None, ordered: bool = True,
            options: "dict[str, Any] | None" = None, extra: "Iterable[str]" = (),
            time_s: float | None = None, memory_bytes: int | None | bool = False,
            encoding: str | None = None, encoding_errors: str = "replace",
            summary: "Summary | None" = None) -> "Iterator[dict[str, Any]]":
    """Rows (work.ROW_FIELDS) for every page of `inputs` (paths, folders, WARC files, URLs,
    `-` for a list on stdin).

    jobs: worker processes (default: every core this process may use); options: pipeline
    option overrides (`pith options`); extra: "markdown" and/or "html" besides the text;
    time_s, memory_bytes: per-page limits (defaults pool.PAGE_TIME_S, PAGE_MEMORY_BYTES;
    memory_bytes None for none); summary: a Summary to fill while rows go by.
    """
    import time
    from . import pool, records, work
    from .summary import Summary
    from ..pipeline.options import Options

    job = work.Job(options=Options.from_overrides(options), extra=_extra(extra),
                   encoding=encoding, encoding_errors=encoding_errors)
    limits = pool.Limits(time_s=pool.PAGE_TIME_S if time_s is None else time_s,
                         memory_bytes=pool.PAGE_MEMORY_BYTES if memory_bytes is False
                         else memory_bytes)
    summary = summary if summary is not None else Summary()
    t0 = time.perf_counter()
    stream = records.records(inputs, summary.tally)
    for row in pool.run(stream, job, jobs=jobs, ordered=ordered, limits=limits):
        summary.add(row)
        summary.seconds = time.perf_counter() - t0
        yield row
    summary.seconds = time.perf_counter() - t0


def _extra(extra: "Iterable[str]") -> tuple[str, ...]:
    from ..errors import BadOptions
    from .work import CONTENT_FORMATS
    out = tuple(dict.fromkeys(extra))
    for fmt in out:
        if fmt not in CONTENT_FORMATS:
            raise BadOptions(f"extra output {fmt!r} is not one of {', '.join(CONTENT_FORMATS)}")
    return out


def __getattr__(name: str):
    """`pith.batch.Summary`, imported when first asked for."""
    if name == "Summary":
        from .summary import Summary
        return Summary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
