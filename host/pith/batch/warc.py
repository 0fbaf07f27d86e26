"""WARC files as a stream of entries: each record checked against its frame, parsed by FastWARC.

framing.py finds where each record really starts and ends (the version line, the header's
blank line, a block of Content-Length bytes, the terminator) and turns everything that
does not frame into one damaged span, reading on at the next valid record; FastWARC
(resiliparse: C++, the fastest maintained reader) parses each framed record: its
headers, the HTTP response inside, Content- and Transfer-Encoding. Every intact record
around damage is still read, and none carries another's bytes: a record whose length
runs past its end is damage, not a page holding its neighbours.

Entries carry their place: `offset`, the byte in the file a read can start at (a plain
file's record; a gzip file's member), and `inner`, the entry's offset in the bytes that
member (or a file compressed as one stream) inflates to, 0 when it starts the member.
A gzipped file of one member per record (as crawlers write them: Common Crawl's files
are 1 GB, 40,000 records) can also be read in byte ranges (`slices`, `read_slice`), each
giving the entries of the whole file's read whose members start in it: the Dask engine
spreads one file over many tasks this way. A range starts at the first member at or after
its first byte that inflates to `WARC/`, which is where the whole file's read is at that
point too: it reads member by member, each up to the next such start. Files of one
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

from . import framing

# File names read as WARC (FastWARC detects the compression from the bytes).
WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")
# HTTP Content-Types taken as HTML; a response without one is sniffed by the pipeline.
HTML_TYPES = ("text/html", "application/xhtml+xml")
# Largest record body read; a larger one is reported as failed unread (the same bound as
# a --static download: no page a reader wants is that large).
MAX_RECORD_BYTES = 64 * 1024 * 1024
# A gzipped file is taken for one member per record (and split by `slices`) when its
# first member, read from its first this many bytes, is one record followed by another
# member; a first member larger than this (a file compressed as one stream) is not.
FIRST_MEMBER_BYTES = 1 << 20
_GZIP_MEMBER = b"\x1f\x8b\x08"
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
    inner: int = 0


@dataclass(slots=True)
class Skipped:
    """A record that is not an HTML page; `why` is one of the SKIP_REASONS."""

    offset: int
    why: str
    record_id: str = ""
    inner: int = 0


@dataclass(slots=True)
class Damaged:
    """A record that does not frame, or bytes that are no record, up to the next record;
    `url` and `record_id` from the header when a damaged record has one."""

    offset: int
    message: str
    inner: int = 0
    url: str = ""
    record_id: str = ""


@dataclass(slots=True)
class TooLarge:
    """An HTML record over MAX_RECORD_BYTES, reported unread."""

    offset: int
    url: str
    record_id: str
    size: int
    inner: int = 0


Entry = Page | Skipped | Damaged | TooLarge
# Why a record is skipped: not a response/resource record (request, metadata, warcinfo,
# revisit...), a response that is not 2xx (redirects, errors), or not HTML.
SKIP_REASONS = ("not_response", "http_status", "not_html")


def read(path: str | Path, start: int = 0, end: int | None = None) -> Iterator[Entry]:
    """The entries of the WARC file at `path` from byte `start` (a record start; a member
    start in a gzip file), damaged spans counting as entries, up to the first whose
    offset is `end` or past it."""
    path = Path(path)
    with open(path, "rb") as f:
        for span in framing.spans(f, str(path), start, end):
            if end is not None and span.offset >= end:
                return
            if span.damage:
                yield Damaged(span.offset, span.damage, span.inner, *_named(span.header))
                continue
            try:
                yield _entry(span)
            except OSError as exc:
                yield Damaged(span.offset, f"not a readable WARC record ({exc or type(exc).__name__})",
                              span.inner, *_named(span.header))


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
            first = framing.next_member(f, start - 1)
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
    """A framed record FastWARC cannot read whole: a response cut before its status line."""


def _entry(span: framing.Span) -> Entry:
    """A framed record as an Entry."""
    from fastwarc.warc import WarcRecord, WarcRecordType
    offset, inner = span.offset, span.inner
    record = WarcRecord.from_bytes(span.header + span.block)
    record_id = record.record_id or ""
    if record.record_type not in (WarcRecordType.response, WarcRecordType.resource):
        return Skipped(offset, "not_response", record_id, inner)
    url = record.headers.get("WARC-Target-URI") or ""
    if record.record_type == WarcRecordType.response:
        record.parse_http(auto_decode="all")
        status = record.http_headers.status_code if record.http_headers is not None else 0
        if not status:
            raise _Unreadable("a response record without an HTTP status line (cut short?)")
        if not 200 <= status < 300:
            return Skipped(offset, "http_status", record_id, inner)
        ctype = record.http_headers.get("Content-Type") or ""
        language = record.http_headers.get("Content-Language")
    else:
        ctype = record.headers.get("Content-Type") or ""
        language = None
    mime, charset = _content_type(ctype)
    if mime and mime not in HTML_TYPES:
        return Skipped(offset, "not_html", record_id, inner)
    if span.length > MAX_RECORD_BYTES:
        return TooLarge(offset, url, record_id, span.length, inner)
    data = record.reader.read()
    return Page(offset, url, record_id, data, charset, language.strip() if language else None,
                inner)


def _named(header: bytes) -> tuple[str, str]:
    """(WARC-Target-URI, WARC-Record-ID) of a damaged record's header, "" when absent."""
    found = dict.fromkeys((b"warc-target-uri", b"warc-record-id"), b"")
    for line in header.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() in found:
            found[name.strip().lower()] = value.strip()
    return tuple(v.decode("utf-8", "replace") for v in found.values())


def _content_type(value: str) -> tuple[str, str | None]:
    """(lower-case media type, charset parameter) of a Content-Type header value."""
    mime = value.split(";", 1)[0].strip().lower()
    match = _CHARSET.search(value) if mime else None
    return mime, (match.group(1) or match.group(2) or None) if match else None
