"""Where each WARC record really starts and ends: a file's bytes as record spans and damage.

A WARC record is a header (`WARC/1.0` or `WARC/1.1`, then `Name: value` lines, then a
blank line), a block of exactly `Content-Length` bytes, and the terminator `\\r\\n\\r\\n`;
the next record (or the end of the file) follows at once. A reader that trusts the
length alone loses records: a length too large swallows the records after it into the
one that lied, a length too small leaves the rest of the block to be read as garbage.
So every record here is checked against its frame before it counts:

  - a header is valid when it starts with the version line, ends in a blank line within
    MAX_HEADER_BYTES, has one `Content-Length` of digits, and holds no second version line,
    WARC-Type or WARC-Record-ID (a header cut short runs into the next record's);
  - a record is intact when the terminator sits right after its block and what follows is
    the end of its unit, a valid header, or bytes that are no record with no valid header
    inside the block either (garbage after an intact record is damage of its own);
  - anything else is one damaged span, from where a record was expected to the next valid
    header after it (searched from the end of the bad record's header, so a record whose
    length runs past its neighbours gives them back), or to the end of its unit.

Units are the stretches of decoded bytes the search runs in: a plain file is one; a gzip
file is one per member that inflates to `WARC/` (Common Crawl's layout: one per record),
each ending where the next such member starts, so a member cut short or corrupt costs
that member only (zlib would read the next member's bytes as the rest of the cut one);
members inside a unit that do not start a record (garbage, a stream split in blocks) are
inflated on as its bytes. A zstd or lz4 file is one unit (FastWARC's readers inflate it).

Each span is placed as (offset, inner): the unit's byte offset in the file and the span's
offset in the unit's decoded bytes (a plain file: the byte offset, inner 0). What the old
reader lost, and what this costs: NOTES.md, 'Why a WARC record is checked against its
frame, and inputs against their kind (issue 34)'.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import BinaryIO, Iterator

# Longest WARC header searched for its blank line (Common Crawl's are under 1 KB;
# FastWARC's own default cap is 64 KiB).
MAX_HEADER_BYTES = 64 * 1024
# The first bytes searched for a header's end before all MAX_HEADER_BYTES.
HEADER_PROBE = 4096
# Blocks up to this size are held in memory whole (an HTML record must be, to be read);
# a larger block is skipped over keeping its first HEAD_BYTES (its HTTP header).
KEEP_BYTES = 64 * 1024 * 1024 + MAX_HEADER_BYTES
HEAD_BYTES = 64 * 1024
# Decoded bytes read at a time.
CHUNK = 1 << 16
# Bytes read at a time while searching the raw file for the next gzip member that starts a
# record: small first (a Common Crawl member is about 20 KB, the bench's 1 KB), doubling.
SCAN_WINDOW = 1 << 12
MAX_SCAN_WINDOW = 1 << 20
# Compressed bytes inflated to see whether a member starts with `WARC/`.
MEMBER_PROBE = 1024
TERMINATOR = b"\r\n\r\n"
GZIP_MAGIC = b"\x1f\x8b\x08"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
LZ4_MAGIC = b"\x04\x22\x4d\x18"
_VERSION = re.compile(rb"WARC/1\.[01]\r\n")
_MARK = b"WARC/1."
# Header names that may appear once only: a second one is the next record's header.
_ONCE = (b"warc-type", b"warc-record-id", b"content-length")


@dataclass(slots=True)
class Span:
    """A framed record (`header` set) or a damaged span (`damage` set)."""

    offset: int
    inner: int
    header: bytes = b""
    block: bytes = b""     # the whole block, or its first HEAD_BYTES when `length` is larger
    length: int = 0        # the block's Content-Length
    damage: str = ""


def compression(f: BinaryIO) -> str:
    """'gzip', 'zstd', 'lz4' or 'plain', from the file's first bytes."""
    f.seek(0)
    head = f.read(4)
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    return {ZSTD_MAGIC: "zstd", LZ4_MAGIC: "lz4"}.get(head, "plain")


def spans(f: BinaryIO, path: str, start: int = 0, end: int | None = None) -> Iterator[Span]:
    """The spans of the open WARC file `f` (at `path`) from byte `start` (a record start,
    or a gzip member start), up to the first unit that starts at `end` or past it."""
    for unit in _units(f, path, start, end):
        yield from _frame(unit)


# --- units: decoded bytes, restartable ---------------------------------------------------
class _Plain:
    ends = "the file ends"

    def __init__(self, f: BinaryIO, start: int) -> None:
        self.f, self.offset, self.damage = f, start, ""
        f.seek(start)

    def read(self, n: int) -> bytes:
        return self.f.read(n)

    def restart(self) -> None:
        self.f.seek(self.offset)

    def jump(self, pos: int) -> None:
        """Go to `pos` at once (a file seeks; an inflated unit reads its way there)."""
        self.f.seek(self.offset + pos)

    def place(self, pos: int) -> tuple[int, int]:
        return self.offset + pos, 0


class _Gzip:
    """The members of bytes [offset, stop) inflated one after another."""

    ends = "its gzip member ends"

    def __init__(self, f: BinaryIO, offset: int, stop: int | None) -> None:
        self.f, self.offset, self.stop = f, offset, stop
        self.restart()

    def restart(self) -> None:
        self.at = self.offset           # next raw byte to read
        self.z = None                   # the member being inflated; None between members
        self.pending = b""              # raw bytes read but not inflated yet
        self.done = False
        self.damage = ""

    def place(self, pos: int) -> tuple[int, int]:
        return self.offset, pos

    def checkpoint(self) -> tuple:
        """The inflater's state, to come back to without inflating from the start."""
        return self.at, self.z.copy() if self.z is not None else None, self.pending, \
            self.done, self.damage

    def resume(self, state: tuple) -> None:
        self.at, z, self.pending, self.done, self.damage = state
        self.z = z.copy() if z is not None else None

    def read(self, n: int) -> bytes:
        out = b""
        while not out and not self.done:
            raw, self.pending = self.pending or self._raw(), b""
            if not raw:
                self.done = True
                if self.z is not None:
                    self.damage = "a gzip member cut short"
                break
            if self.z is None:
                if not raw.startswith(GZIP_MAGIC[:len(raw)]) or len(raw) < len(GZIP_MAGIC) \
                        and not self._raw_left():
                    self.done = True
                    self.damage = (f"{len(raw) + self._raw_left():,} bytes after a gzip member "
                                   "that are no gzip member")
                    break
                self.z = zlib.decompressobj(31)
            try:
                out = self.z.decompress(raw, n)
            except zlib.error as exc:
                self.done, self.damage = True, f"a gzip member that does not inflate ({exc})"
                break
            if self.z.eof:
                self.pending, self.z = self.z.unused_data, None
            else:
                self.pending = self.z.unconsumed_tail
        return out

    def _raw(self) -> bytes:
        size = CHUNK if self.stop is None else min(CHUNK, self.stop - self.at)
        if size <= 0:
            return b""
        self.f.seek(self.at)
        raw = self.f.read(size)
        self.at += len(raw)
        return raw

    def _raw_left(self) -> int:
        if self.stop is None:
            self.f.seek(0, 2)
            return max(self.f.tell() - self.at, 0)
        return self.stop - self.at


class _Stream:
    """A zstd or lz4 file through FastWARC's reader (one unit, restarted by reopening)."""

    ends = "the file ends"

    def __init__(self, path: str, kind: str) -> None:
        self.path, self.kind, self.offset = path, kind, 0
        self.reader = None
        self.restart()

    def restart(self) -> None:
        from fastwarc.stream_io import Lz4Reader, ZstdReader
        if self.reader is not None:
            self.reader.close()
        self.reader = (ZstdReader if self.kind == "zstd" else Lz4Reader)(self.path)
        self.damage = ""

    def read(self, n: int) -> bytes:
        if self.damage:
            return b""
        try:
            return self.reader.read(n)
        except OSError as exc:
            self.damage = f"the {self.kind} stream does not inflate ({exc})"
            return b""

    def place(self, pos: int) -> tuple[int, int]:
        return 0, pos


def _units(f: BinaryIO, path: str, start: int, end: int | None):
    kind = compression(f)
    if kind == "plain":
        yield _Plain(f, start)
        return
    if kind != "gzip":
        yield _Stream(path, kind)
        return
    at: int | None = start
    while at is not None and (end is None or at < end):
        nxt = next_member(f, at)
        yield _Gzip(f, at, nxt)
        at = nxt


def next_member(f: BinaryIO, after: int) -> int | None:
    """The offset of the first gzip member strictly after `after` whose first inflated
    bytes are `WARC/` (a record starts there), or None."""
    pos = after + 1
    carry = b""
    window = SCAN_WINDOW
    while True:
        f.seek(pos)
        chunk = f.read(window)
        if not chunk:
            return None
        data = carry + chunk
        base = pos - len(carry)
        i = data.find(GZIP_MAGIC)
        while i != -1:
            if _member_is_record(f, base + i):
                return base + i
            i = data.find(GZIP_MAGIC, i + 1)
        carry = data[-(len(GZIP_MAGIC) - 1):]
        pos += len(chunk)
        window = min(window * 2, MAX_SCAN_WINDOW)


def _member_is_record(f: BinaryIO, at: int) -> bool:
    f.seek(at)
    try:
        return zlib.decompressobj(31).decompress(f.read(MEMBER_PROBE), 16).startswith(b"WARC/")
    except zlib.error:
        return False


# --- framing within a unit --------------------------------------------------------------
class _Buffer:
    """A unit's decoded bytes from `base` on, read as needed, dropped when passed."""

    def __init__(self, unit) -> None:
        self.unit, self.data, self.base, self.done = unit, bytearray(), 0, False
        self.length: int | None = None     # the unit's length, once its end was read

    @property
    def end(self) -> int:
        return self.base + len(self.data)

    def need(self, upto: int) -> None:
        while self.end < upto and not self.done:
            chunk = self.unit.read(max(CHUNK, min(upto - self.end, 1 << 24)))
            if chunk:
                self.data += chunk
            else:
                self.done, self.length = True, self.end

    def get(self, a: int, b: int) -> bytes:
        self.need(b)
        return bytes(self.data[a - self.base:b - self.base])

    def find(self, what: bytes, a: int, b: int) -> int:
        i = self.data.find(what, a - self.base, b - self.base)
        return -1 if i == -1 else self.base + i

    def drop(self, before: int) -> None:
        cut = min(before, self.end) - self.base
        if cut > 0:
            del self.data[:cut]
            self.base += cut

    def mark(self) -> tuple | None:
        """A place to come back to (`back`): the bytes held and the unit's state after
        them; None for a unit that cannot say (it restarts instead)."""
        if not hasattr(self.unit, "checkpoint"):
            return None
        return self.unit.checkpoint(), self.base, bytes(self.data), self.done

    def back(self, mark: tuple) -> None:
        state, self.base, data, self.done = mark
        self.unit.resume(state)
        self.data = bytearray(data)

    def seek(self, pos: int) -> None:
        """Make `pos` the first byte held (restarting the unit to go back)."""
        if hasattr(self.unit, "jump") and not self.base <= pos <= self.end:
            self.unit.jump(pos)
            self.data, self.base, self.done = bytearray(), pos, False
            return
        if pos < self.base:
            self.unit.restart()
            self.data, self.base, self.done = bytearray(), 0, False
        while self.end < pos and not self.done:
            self.drop(self.end)
            self.need(min(pos, self.end + (1 << 24)))
        self.drop(pos)


def _header(buf: _Buffer, p: int) -> tuple[int, int] | None:
    """(end of the header, Content-Length) of a valid header at `p`, else None."""
    buf.need(p + 11)
    if _VERSION.match(buf.data, p - buf.base) is None:
        return None
    stop = -1
    for size in (HEADER_PROBE, MAX_HEADER_BYTES):        # most headers are under 1 KB
        buf.need(p + size)
        # the header ends before the next version line, or it was cut short: searched
        # only so far, a run of version lines is read once, not once per line
        nxt = buf.find(_MARK, p + 1, p + size)
        stop = buf.find(TERMINATOR, p, p + size if nxt == -1 else nxt)
        if stop != -1 or nxt != -1 or buf.end < p + size:
            break
    if stop == -1:
        return None
    seen: dict[bytes, bytes] = {}
    for line in buf.get(p, stop).split(b"\r\n")[1:]:
        name, colon, value = line.partition(b":")
        if line.endswith((b"WARC/1.0", b"WARC/1.1")) or not (colon and name.strip()
                                                             or line[:1] in (b" ", b"\t")):
            return None     # the next record's version line: this header was cut short
        key = name.strip().lower()
        if key in _ONCE:
            if key in seen:
                return None
            seen[key] = value.strip()
    length = seen.get(b"content-length", b"")
    if not length.isdigit():
        return None
    return stop + 4, int(length)


def _next_header(buf: _Buffer, a: int, limit: int | None = None) -> int | None:
    """The first valid header at or after `a` (before `limit`), or None. Without a limit
    the bytes searched are dropped as it goes."""
    while True:
        buf.need(a + CHUNK)
        hi = buf.end if limit is None else min(buf.end, limit)
        i = buf.find(_MARK, a, hi)
        if i != -1:
            if _header(buf, i) is not None:
                return i
            a = i + 1
            continue
        if (limit is not None and hi >= limit) or buf.done:
            return None
        a = max(a, hi - len(_MARK) + 1)
        if limit is None:
            buf.drop(a)


def _frame(unit) -> Iterator[Span]:
    buf = _Buffer(unit)
    p = 0
    damaged_to_end = False
    while True:
        buf.drop(p)
        buf.need(p + 2)
        while buf.end > p and buf.data[p - buf.base] in b"\r\n":   # blank lines between
            p += 1                                                  # records are no damage
            buf.drop(p)
            buf.need(p + 2)
        if buf.end <= p:
            break
        head = _header(buf, p)
        if head is None:
            cut = buf.get(p, p + 7) == _MARK
            nxt = _next_header(buf, p + 1)
            damaged_to_end = nxt is None
            why = "a WARC header cut short or malformed" if cut else "bytes that are no WARC record"
            yield Span(*unit.place(p), damage=f"{why} ({unit.damage})"
                       if damaged_to_end and unit.damage else why)
            if nxt is None:
                break
            p = nxt
            continue
        h_end, length = head
        b_end = h_end + length
        header = buf.get(p, h_end)
        if length <= KEEP_BYTES:
            buf.need(b_end + 4)
            block = buf.get(h_end, b_end)
            ok = buf.get(b_end, b_end + 4) == TERMINATOR
            after = b_end + 4
            buf.need(after + 2)
            if ok and buf.end > after and buf.data[after - buf.base] not in b"\r\n" \
                    and _header(buf, after) is None:
                # bytes that are no record follow: the record is intact only if no record
                # starts inside its block (else its length ran past it)
                ok = _next_header(buf, h_end, b_end) is None
        else:
            block = buf.get(h_end, h_end + HEAD_BYTES)
            ok = buf.length is None or b_end + 4 <= buf.length   # (a unit read to its
            if ok:                                                 # end once is not again)
                mark = buf.mark()       # to search the block if it does not end there
                buf.seek(b_end)
                ok = buf.get(b_end, b_end + 4) == TERMINATOR
                if not ok and mark is not None:
                    buf.back(mark)
        if ok:
            yield Span(*unit.place(p), header=header, block=block, length=length)
            p = b_end + 4
            damaged_to_end = False
            continue
        buf.seek(h_end)
        nxt = _next_header(buf, h_end)
        if nxt is None and buf.end < b_end + 4:
            why = (f"the record is cut short or its Content-Length ({length:,}) is wrong: "
                   + (unit.damage or f"{unit.ends} inside its block"))
        else:
            why = f"the record does not end where its Content-Length ({length:,}) says"
        yield Span(*unit.place(p), header=header, damage=why)
        damaged_to_end = nxt is None
        if nxt is None:
            break
        p = nxt
    if unit.damage and not damaged_to_end:
        yield Span(*unit.place(buf.end), damage=unit.damage)
