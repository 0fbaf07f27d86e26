"""Writes WARC files: pages as response records, and the damaged records crawls contain.

For the crawl benchmark (`pith bench --crawl`) and the batch tests, which build their own
WARC files from pages on disk. Each record is written as WARC/1.1 with a request record
before its response (as Common Crawl does), one gzip member per record for `.warc.gz`.
The hostile shapes (`damage`) are what the batch reader must count and skip while
keeping every other record:

  truncated      the record's gzip member (or bytes) cut in half
  long_length    Content-Length larger than the block (it swallows the next record's start)
  short_length   Content-Length smaller than the block
  garbage        random bytes between two records
"""
from __future__ import annotations

import gzip
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterable

DAMAGE = ("truncated", "long_length", "short_length", "garbage")


@dataclass
class Page:
    """One response to write: `body` as served, with its headers."""

    url: str
    body: bytes
    content_type: str = "text/html"              # no charset: the page declares its own
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)   # more HTTP headers
    damage: str | None = None                                # one of DAMAGE


def record_id(url: str, kind: str) -> str:
    """A stable WARC-Record-ID for (url, kind): the same input builds the same file."""
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, kind + ':' + url)}>"


def _record(kind: str, url: str, block: bytes, content_type: str, length: int | None = None) -> bytes:
    head = (f"WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {record_id(url, kind)}\r\n"
            f"WARC-Date: 2026-11-25T00:00:00Z\r\nWARC-Target-URI: {url}\r\n"
            f"Content-Type: {content_type}\r\n"
            f"Content-Length: {len(block) if length is None else length}\r\n\r\n")
    return head.encode("utf-8") + block + b"\r\n\r\n"


def _http_response(page: Page) -> bytes:
    lines = [f"HTTP/1.1 {page.status} {'OK' if page.status == 200 else 'Status'}",
             f"Content-Type: {page.content_type}", f"Content-Length: {len(page.body)}",
             *(f"{k}: {v}" for k, v in page.headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + page.body


def records_of(page: Page, rng: random.Random) -> list[bytes]:
    """The request and response records of `page` (damaged as it asks), as raw bytes."""
    host = page.url.split("/")[2] if "://" in page.url else "example.invalid"
    request = _record("request", page.url, (f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").encode(),
                      "application/http; msgtype=request")
    block = _http_response(page)
    length = {"long_length": len(block) + 37, "short_length": len(block) // 2}.get(page.damage)
    response = _record("response", page.url, block, "application/http; msgtype=response", length)
    out = [request, response]
    if page.damage == "garbage":
        out.append(bytes(rng.getrandbits(8) for _ in range(300)))
    return out


def write(path: Path, pages: Iterable[Page], seed: int = 0) -> int:
    """Write `pages` to `path` (gzip members when it ends in .gz); the number of pages."""
    rng = random.Random(seed)
    gz = str(path).endswith(".gz")
    n = 0
    with open(path, "wb") as f:
        for page in pages:
            for i, raw in enumerate(records_of(page, rng)):
                _put(f, raw, gz, truncate=page.damage == "truncated" and i == 1)
            n += 1
    return n


def _put(f: BinaryIO, raw: bytes, gz: bool, truncate: bool) -> None:
    data = gzip.compress(raw, compresslevel=6, mtime=0) if gz else raw
    f.write(data[:len(data) // 2] if truncate else data)
