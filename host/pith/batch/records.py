"""The inputs of a batch as one stream of records: HTML files, folders, path lists, WARC files.

`records(inputs, tally)` expands what the user named, lazily and in a fixed order, so a
crawl of any size streams through in bounded memory:

  - a file named like HTML (`.html`, `.htm`, `.xhtml`, `.shtml`, or any of these `.gz`) or
    any other existing file: one record (the worker reads it; a file that is not HTML is
    reported by the pipeline's own check, `input_not_html`);
  - a WARC file (`warc.WARC_SUFFIXES`): one record per HTML response or resource record;
    other records are skipped and counted by reason; a damaged record or span becomes one
    failed record (`record_damaged`), named `FILE@OFFSET` (`FILE@OFFSET+INNER` inside a
    gzip member or a file compressed as one stream: warc.py);
  - a folder: its HTML and WARC files, recursively, in sorted order; other files are
    skipped and counted (`not_html`);
  - `-`: the paths and URLs listed on stdin, one per line (blank lines and lines starting
    with `#` ignored), each expanded as above;
  - an http(s) URL: one record, fetched by the worker;
  - a `Slice` (the Dask engine's part of a large WARC file): the records of that file whose
    offsets lie in its byte range (warc.read_slice).

Every record gets `seq`, its place in the stream: outputs keep input order by it.
"""
from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator

from . import warc
from ..errors import PageTooLarge, PithError, RecordDamaged
from ..pages.inputs import is_url, local_path
from ..pages.local import check_local, unsupported_scheme
from ..pages.static import HTML_SUFFIXES


@dataclass(slots=True)
class Record:
    """One page of a batch. `data` None: the worker reads or fetches `source` itself.
    `failure` set: the record could not be read; its row is that failure, no work done."""

    seq: int
    source: str                  # what the row names: a path, a URL, or WARC-FILE@OFFSET
    url: str                     # the page's address (WARC-Target-URI; file:// for files)
    data: bytes | None = None
    charset: str | None = None   # the HTTP Content-Type's charset
    record_id: str | None = None
    language: str | None = None  # the HTTP Content-Language
    failure: PithError | None = None


@dataclass(frozen=True)
class Slice:
    """The records of the WARC file at `path` that start in bytes [start, end) (end None:
    to the end), a range of warc.slices; rows name their records as the whole file's do."""

    path: str
    start: int
    end: int | None


@dataclass
class Tally:
    """What the reader skipped without a record, by reason (warc.SKIP_REASONS for WARC
    records; not_html for other files in folders)."""

    skipped: Counter = field(default_factory=Counter)


def is_html_name(name: str) -> bool:
    """A file a folder contributes as a page: a name static.py reads as HTML, or one of
    those gzipped."""
    lower = name.lower()
    lower = lower[:-3] if lower.endswith(".gz") else lower
    return lower.endswith(HTML_SUFFIXES)


def records(inputs: Iterable[str | Slice], tally: Tally, stdin: IO[str] | None = None) -> Iterator[Record]:
    """The records of `inputs` in order (see the module's docstring)."""
    seq = 0
    for target in targets(inputs, tally, stdin):
        for record in _records_of(target, tally):
            record.seq = seq
            seq += 1
            yield record


def targets(inputs: Iterable[str | Slice], tally: Tally,
            stdin: IO[str] | None = None) -> Iterator[str | Slice]:
    """Every file, WARC file or URL that `inputs` name, in order: `-` read from stdin,
    folders walked (their other files counted in `tally` as not_html). The Dask engine
    partitions these; `records` reads them."""
    for target in inputs:
        if isinstance(target, Slice):
            yield target
        elif target != "-":
            yield from _walk(target, tally)
            continue
        for line in stdin or sys.stdin:
            line = line.strip()
            if line and not line.startswith("#"):
                yield from _walk(line, tally)


def _walk(target: str, tally: Tally) -> Iterator[str]:
    path = None if is_url(target) and local_path(target) is None else local_path(target)
    if path is None or not path.is_dir():
        yield target
        return
    unlisted: list[OSError] = []
    for folder, dirs, files in os.walk(path, onerror=unlisted.append):
        while unlisted:             # a folder that may not be listed: a failed row, not
            yield str(unlisted.pop(0).filename)          # its pages silently missing
        dirs.sort()
        for name in sorted(files):
            if warc.is_warc(name) or is_html_name(name):
                yield str(Path(folder) / name)
            else:
                tally.skipped["not_html"] += 1
    yield from (str(exc.filename) for exc in unlisted)


def _records_of(target: str | Slice, tally: Tally) -> Iterator[Record]:
    if isinstance(target, Slice):
        path = Path(target.path)
        yield from _warc(path, tally, warc.read_slice(path, target.start, target.end))
        return
    if is_url(target) and local_path(target) is None:
        yield Record(0, target, target)
        return
    refused = unsupported_scheme(target)
    if refused is not None:
        yield Record(0, target, "", failure=refused)
        return
    path = local_path(target)
    try:
        check_local(path)           # missing, unreadable, a FIFO or device: a failed row
    except PithError as exc:
        yield Record(0, target, "", failure=exc)
        return
    if warc.is_warc(path):
        yield from _warc(path, tally, warc.read(path))
    else:
        yield _file(path)


def _file(path: Path) -> Record:
    return Record(0, str(path), path.resolve().as_uri())


def _warc(path: Path, tally: Tally, entries: Iterator[warc.Entry]) -> Iterator[Record]:
    """The records of a WARC file's `entries` (warc.read or warc.read_slice of `path`)."""
    for entry in entries:
        source = f"{path}@{entry.offset}" + (f"+{entry.inner}" if entry.inner else "")
        if isinstance(entry, warc.Page):
            yield Record(0, source, entry.url, entry.data, entry.charset, entry.record_id,
                         entry.language)
        elif isinstance(entry, warc.Skipped):
            tally.skipped[entry.why] += 1
        elif isinstance(entry, warc.TooLarge):
            yield Record(0, source, entry.url, record_id=entry.record_id, failure=PageTooLarge(
                f"{source}: the record is {entry.size:,} bytes, over the "
                f"{warc.MAX_RECORD_BYTES:,} a page may be",
                bytes=entry.size, limit=warc.MAX_RECORD_BYTES))
        else:
            yield Record(0, source, entry.url, record_id=entry.record_id or None,
                         failure=RecordDamaged(f"{source}: {entry.message}"))
