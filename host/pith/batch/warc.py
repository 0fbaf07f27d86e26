"""WARC files as a stream of entries, read with FastWARC, resynchronising past damage.

FastWARC (resiliparse) parses; it is the fastest maintained reader (C++, gzip/zstd/lz4
streams, HTTP header parsing, Content-Encoding decoding) and reads Common Crawl's files
as they come. Like every reader it stops at the first record it cannot parse. Crawls are
not clean, so this module restarts it past the damage:

  - after an error, the next record start is searched for in the raw bytes from the last
    good record on: a gzip member that inflates to `WARC/` in a `.gz` file, a line
    `WARC/1.0` or `WARC/1.1` otherwise;
  - a record cut inside its header reads as one header running into the next record's
    (two WARC-Type or WARC-Record-ID lines): that is damage too, not a record;
  - a start that fails again before giving a record is skipped too, so the position only
    moves forward and a damaged file is read once;
  - each skipped span becomes one `Damaged` entry (offset and message), counted by the
    caller; every intact record around it is still read.

A record whose Content-Length is too long swallows the start of the next one; that next
record is recovered by the search (its own first line is the mark), the long one keeps
some bytes of garbage at its end, which HTML parsing ignores.

Entries carry their start offset, so a reader can begin at any record (`read(path,
start=...)`). A gzipped file of one member per record (as crawlers write them: Common
Crawl's files are 1 GB, 40,000 records) can also be read in byte ranges (`slices`,
`read_slice`), each giving the entries of the whole file's read whose offsets lie in it:
the Dask engine spreads one file over many tasks this way. A range starts at the first
member at or after its first byte that inflates to `WARC/` (the mark the search after
damage uses), which is where the whole file's read is at that point too: it visits every
record start in turn, and after damage goes on at the first such start. Files of one
gzip stream, plain and zstd/lz4 files are one range: their bytes do not show where a
record starts (a plain record's payload may hold a line `WARC/1.0`).
"""
from __future__ import annotations

import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

# File names read as WARC (FastWARC detects the compression from the bytes).
WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")
# HTTP Content-Types taken as HTML; a response without one is sniffed by the pipeline.
HTML_TYPES = ("text/html", "application/xhtml+xml")
# Largest record body read; a larger one is reported as failed unread (the same bound as
# a --static download: no page a reader wants is that large).
MAX_RECORD_BYTES = 64 * 1024 * 1024
# Bytes read at a time while searching for the next record after damage.
SCAN_WINDOW = 1 << 20
# A gzipped file is taken for one member per record (and split by `slices`) when its
# first member, read from its first this many bytes, is one record followed by another
# member; a first member larger than this (a file compressed as one stream) is not.
FIRST_MEMBER_BYTES = 1 << 20
_GZIP_MEMBER = b"\x1f\x8b\x08"
# The first line of a record: where a search after damage may restart.
_VERSION_LINE = re.compile(rb"WARC/1\.[01]\r?\n")
# The charset parameter of a Content-Type (the WHATWG MIME type rules: a parameter after a
# `;`, its name in any case, its value bare up to the next `;` or quoted).
_CHARSET = re.compile(r';\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))', re.IGNORECASE)


def is_warc(name: str | Path) -> bool:
    return str(name).lower().endswith(WARC_SUFFIXES)


@dataclass(slots=True)
class Page:
    """An HTML response (or resource) record."""

    offset: int
    url: str
    record_id: str
    data: bytes
    charset: str | None      # from the HTTP Content-Type
    language: str | None     # the HTTP Content-Language


@dataclass(slots=True)
class Skipped:
    """A record that is not an HTML page; `why` is one of the SKIP_REASONS."""

    offset: int
    why: str
    record_id: str = ""


@dataclass(slots=True)
class Damaged:
    """Bytes that do not read as a record, skipped up to the next record start."""

    offset: int
    message: str


@dataclass(slots=True)
class TooLarge:
    """An HTML record over MAX_RECORD_BYTES, reported unread."""

    offset: int
    url: str
    record_id: str
    size: int


Entry = Page | Skipped | Damaged | TooLarge
# Why a record is skipped: not a response/resource record (request, metadata, warcinfo,
# revisit...), a response that is not 2xx (redirects, errors), or not HTML.
SKIP_REASONS = ("not_response", "http_status", "not_html")


def read(path: str | Path, start: int = 0, end: int | None = None) -> Iterator[Entry]:
    """The entries of the WARC file at `path` from byte `start` (a record start), damaged
    spans counting as entries, up to the first whose offset is `end` or past it."""
    from fastwarc.warc import ArchiveIterator   # imported on use: only batch input needs it

    path = Path(path)
    gzipped = _is_gzip(path)
    pos = start
    while True:
        last = None
        with open(path, "rb") as f:
            f.seek(pos)
            try:
                for record in ArchiveIterator(f, parse_http=True, auto_decode="all"):
                    if end is not None and record.stream_pos >= end:
                        return
                    entry = _entry(record)   # reads the body: damage may show here
                    last = record.stream_pos
                    yield entry
                return
            except OSError as exc:
                message = f"not a readable WARC record ({exc or type(exc).__name__})"
        # A failure right at `pos` is damage there: one entry, then on from the next
        # record start after it. A failure after good records may be no loss at all (a
        # record whose Content-Length was wrong): restart at the next start after the
        # last good record, which reports damage only if that start fails in turn.
        if last is None:
            if end is not None and pos >= end:
                return
            yield Damaged(pos, message)
        with open(path, "rb") as f:
            nxt = _next_start(f, pos if last is None else last, gzipped)
        if nxt is None or (end is not None and nxt >= end):
            return
        pos = nxt


def slices(path: str | Path, size: int) -> list[tuple[int, int | None]]:
    """Byte ranges [start, end) of about `size` bytes covering the file at `path`, each
    for `read_slice` (end None: to the end of the file); one range, (0, None), for a file
    under two sizes or one that cannot be split (see the module's docstring)."""
    total = os.path.getsize(path)
    if total < 2 * size or not _member_per_record(Path(path)):
        return [(0, None)]
    k = -(-total // size)
    bounds = [total * i // k for i in range(k)]
    return list(zip(bounds, bounds[1:] + [None]))


def read_slice(path: str | Path, start: int, end: int | None) -> Iterator[Entry]:
    """The entries of `read(path)` whose offsets lie in [start, end), for a range of
    `slices(path, ...)`: read from the first record start at or after `start`."""
    if start > 0:
        with open(path, "rb") as f:
            first = _next_start(f, start - 1, gzipped=True)
        if first is None or (end is not None and first >= end):
            return
        start = first
    yield from read(path, start, end=end)


def _member_per_record(path: Path) -> bool:
    """Whether the file at `path` is gzipped one member per record, as far as its first
    member shows: that member inflates to one record and another member follows it."""
    with open(path, "rb") as f:
        head = f.read(FIRST_MEMBER_BYTES)
    inflate = zlib.decompressobj(31)
    try:
        record = inflate.decompress(head)
    except zlib.error:
        return False
    return (inflate.eof and inflate.unused_data.startswith(_GZIP_MEMBER)
            and record.startswith(b"WARC/") and record.count(b"WARC/1.") == 1)


class _Unreadable(OSError):
    """A record FastWARC parsed but that cannot be whole: a header running into the next
    record's (a record cut inside its header), a response cut before its status line."""


def _entry(record) -> Entry:
    """A FastWARC record as an Entry (reads the body of HTML records only)."""
    from fastwarc.warc import WarcRecordType
    offset = record.stream_pos
    headers = record.headers
    if len(headers.get_multiple("WARC-Type")) > 1 or len(headers.get_multiple("WARC-Record-ID")) > 1:
        raise _Unreadable("a record cut short inside its header runs into the next one")
    record_id = record.record_id or ""
    if record.record_type not in (WarcRecordType.response, WarcRecordType.resource):
        return Skipped(offset, "not_response", record_id)
    url = record.headers.get("WARC-Target-URI") or ""
    if record.record_type == WarcRecordType.response:
        status = record.http_headers.status_code if record.http_headers is not None else 0
        if not status:
            raise _Unreadable("a response record without an HTTP status line (cut short?)")
        if not 200 <= status < 300:
            return Skipped(offset, "http_status", record_id)
        ctype = record.http_headers.get("Content-Type") or ""
        language = record.http_headers.get("Content-Language")
    else:
        ctype = record.headers.get("Content-Type") or ""
        language = None
    mime, charset = _content_type(ctype)
    if mime and mime not in HTML_TYPES:
        return Skipped(offset, "not_html", record_id)
    size = record.content_length
    if size > MAX_RECORD_BYTES:
        return TooLarge(offset, url, record_id, size)
    data = record.reader.read()
    return Page(offset, url, record_id, data, charset, language.strip() if language else None)


def _content_type(value: str) -> tuple[str, str | None]:
    """(lower-case media type, charset parameter) of a Content-Type header value."""
    mime = value.split(";", 1)[0].strip().lower()
    match = _CHARSET.search(value) if mime else None
    return mime, (match.group(1) or match.group(2) or None) if match else None


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(3) == _GZIP_MEMBER


def _next_start(f, after: int, gzipped: bool) -> int | None:
    """The offset of the first record start strictly after `after`, or None at the end."""
    pos = after + 1
    mark = _GZIP_MEMBER if gzipped else b"WARC/1."   # then a digit and a line end
    carry = b""
    f.seek(pos)
    base = pos
    while True:
        chunk = f.read(SCAN_WINDOW)
        if not chunk:
            return None
        window = carry + chunk
        i = window.find(mark)
        while i != -1:
            at = base - len(carry) + i
            if _starts_record(f, at, gzipped):
                return at
            i = window.find(mark, i + 1)
        carry = window[-(len(mark) - 1):]
        base += len(chunk)


def _starts_record(f, at: int, gzipped: bool) -> bool:
    """Whether a record begins at `at`: a line `WARC/1.0` or `WARC/1.1`, or (gzip) a member
    whose first inflated bytes are `WARC/`. The file's position is left as it was."""
    here = f.tell()
    try:
        f.seek(at)
        if not gzipped:
            return _VERSION_LINE.match(f.read(11)) is not None
        return zlib.decompressobj(31).decompress(f.read(4096), 16).startswith(b"WARC/")
    except zlib.error:
        return False
    finally:
        f.seek(here)



