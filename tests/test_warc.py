"""pith.batch.warc: every intact record is read, damage is one entry and skipped, slices re-read."""
import gzip
from pathlib import Path

import pytest

from pith.batch import warc
from pith.measure import warcfile
from warcmatrix import LAYOUTS, MATRIX, BAD, matrix_body, matrix_file

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"
SUFFIXES = [pytest.param(".warc", id="plain"), pytest.param(".warc.gz", id="gzip")]


def page(i: int, **kw) -> warcfile.Page:
    return warcfile.Page(f"https://site{i % 3}.test/p/{i}",
                         f"<html><body><p>Page number {i} says hello.</p></body></html>".encode(),
                         **kw)


def entries(path, **kw):
    return list(warc.read(path, **kw))


def pages_of(found):
    return [e.url for e in found if isinstance(e, warc.Page)]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_clean_file_gives_every_page_and_skips_the_requests(tmp_path, suffix):
    path = tmp_path / f"c{suffix}"
    pages = [page(i) for i in range(6)]
    pages[0].content_type = "text/html; charset=UTF-8"
    warcfile.write(path, pages)
    found = entries(path)
    assert pages_of(found) == [page(i).url for i in range(6)]
    assert [e.why for e in found if isinstance(e, warc.Skipped)] == ["not_response"] * 6
    first = next(e for e in found if isinstance(e, warc.Page))
    assert first.data == page(0).body and first.charset == "UTF-8"
    assert [e.charset for e in found if isinstance(e, warc.Page)][1:] == [None] * 5
    assert first.record_id == warcfile.record_id(page(0).url, "response")


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("damage", warcfile.DAMAGE)
def test_one_damaged_record_loses_nothing_else(tmp_path, suffix, damage):
    pages = [page(i) for i in range(7)]
    pages[3].damage = damage
    path = tmp_path / f"d{suffix}"
    warcfile.write(path, pages, seed=3)
    found = entries(path)
    intact = [p.url for p in pages if p.damage is None]
    got = pages_of(found)
    assert [u for u in got if u != pages[3].url] == intact      # nothing else lost, in order
    if damage == "truncated":      # the page itself cannot be read: one damaged entry
        assert pages[3].url not in got
        assert sum(isinstance(e, warc.Damaged) for e in found) == 1
    # every place (offset, offset inside its gzip member) is a real position, increasing
    offsets = [(e.offset, e.inner) for e in found]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)


def test_garbage_and_truncation_together_at_the_end(tmp_path):
    pages = [page(i) for i in range(4)]
    pages[2].damage = "garbage"
    pages[3].damage = "truncated"
    path = tmp_path / "e.warc.gz"
    warcfile.write(path, pages)
    found = entries(path)
    assert pages_of(found) == [p.url for p in pages[:3]]
    assert isinstance(found[-1], warc.Damaged)
    assert "gzip member cut short" in found[-1].message
    assert sum(isinstance(e, warc.Damaged) for e in found) == 2      # the garbage, the cut


def test_non_html_and_non_2xx_responses_are_skipped_by_reason(tmp_path):
    path = tmp_path / "s.warc"
    warcfile.write(path, [
        page(0),
        warcfile.Page("https://x.test/logo.png", b"\x89PNG\r\n\x1a\n", content_type="image/png"),
        warcfile.Page("https://x.test/moved", b"<html>moved</html>", status=301),
        warcfile.Page("https://x.test/feed", b"{}", content_type="application/json"),
        warcfile.Page("https://x.test/x", b"<html><p>xhtml</p></html>",
                      content_type="application/xhtml+xml"),
    ])
    found = entries(path)
    assert pages_of(found) == [page(0).url, "https://x.test/x"]
    whys = sorted(e.why for e in found if isinstance(e, warc.Skipped))
    assert whys == ["http_status", "not_html", "not_html"] + ["not_response"] * 5


def test_http_charset_and_language_are_kept(tmp_path):
    path = tmp_path / "h.warc.gz"
    body = (FIXTURES / "legacy-charset" / "source.html").read_bytes()
    warcfile.write(path, [warcfile.Page("https://x.test/fr", body,
                                        content_type="text/html; charset=windows-1252",
                                        headers={"Content-Language": "fr-FR"})])
    (found,) = [e for e in entries(path) if isinstance(e, warc.Page)]
    assert found.charset == "windows-1252" and found.language == "fr-FR"
    assert found.data == body


def test_content_encoding_gzip_is_decoded(tmp_path):
    path = tmp_path / "z.warc"
    html = b"<html><body><p>compressed on the wire</p></body></html>"
    warcfile.write(path, [warcfile.Page("https://x.test/z", gzip.compress(html),
                                        headers={"Content-Encoding": "gzip"})])
    (found,) = [e for e in entries(path) if isinstance(e, warc.Page)]
    assert found.data == html


def test_a_record_over_the_size_limit_is_reported_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(warc, "MAX_RECORD_BYTES", 200)
    path = tmp_path / "big.warc"
    warcfile.write(path, [page(0), warcfile.Page("https://x.test/big", b"<p>" + b"x" * 500)])
    found = entries(path)
    big = [e for e in found if isinstance(e, warc.TooLarge)]
    assert len(big) == 1 and big[0].url == "https://x.test/big" and big[0].size > 500
    assert pages_of(found) == [page(0).url]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_read_from_any_entry_to_any_later_one_reads_the_same_entries(tmp_path, suffix):
    """read(start, end) from one entry's offset to a later one's gives exactly the whole
    read's entries between them, damage included."""
    pages = [page(i) for i in range(9)]
    pages[4].damage = "truncated"
    path = tmp_path / f"x{suffix}"
    warcfile.write(path, pages)
    whole = entries(path)
    key = lambda e: (type(e).__name__, e.offset, e.inner, getattr(e, "url", ""))   # noqa: E731
    for i in range(0, len(whole), 4):
        end = whole[i + 4].offset if i + 4 < len(whole) else None
        part = entries(path, start=whole[i].offset, end=end)
        assert [key(e) for e in part] == [key(e) for e in whole[i:i + 4]]


def test_names_read_as_warc():
    assert warc.is_warc("a/CC-MAIN-1.warc.gz") and warc.is_warc("x.WARC")
    assert not warc.is_warc("page.html") and not warc.is_warc("x.warc.gz.txt")


@pytest.mark.parametrize("value, expected", [
    ("text/html; charset=UTF-8", ("text/html", "UTF-8")),
    ('text/html;charset="iso-8859-1"', ("text/html", "iso-8859-1")),
    ("TEXT/HTML; Charset = windows-1252 ; q=1", ("text/html", "windows-1252")),
    ("text/html; boundary=x; charset=koi8-r", ("text/html", "koi8-r")),
    ("text/html; charset=", ("text/html", None)),
    ("text/html", ("text/html", None)),
    ("", ("", None)),
])
def test_the_content_type_gives_media_type_and_charset(value, expected):
    assert warc._content_type(value) == expected


@pytest.mark.parametrize("damage", [None, *warcfile.DAMAGE])
def test_byte_slices_read_what_the_whole_file_reads(tmp_path, damage):
    """A gzipped file cut into byte ranges of any size: the ranges' entries, one after
    another, are the whole file's, also with a damaged record (a range may start inside
    it, or inside the record it swallows)."""
    pages = [page(i) for i in range(12)]
    pages[5].damage = damage
    path = tmp_path / "s.warc.gz"
    warcfile.write(path, pages, seed=5)
    key = lambda e: (type(e).__name__, e.offset, e.inner, getattr(e, "url", ""))   # noqa: E731
    whole = [key(e) for e in entries(path)]
    total = path.stat().st_size
    for size in (97, 256, 700, total // 3, total // 2):
        ranges = warc.slices(path, size)
        assert len(ranges) == -(-total // size) and ranges[0][0] == 0 and ranges[-1][1] is None
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
        got = [key(e) for a, b in ranges for e in warc.read_slice(path, a, b)]
        assert got == whole, size


def test_files_that_do_not_show_their_record_starts_are_one_slice(tmp_path):
    pages = [page(i) for i in range(12)]
    plain = tmp_path / "p.warc"
    warcfile.write(plain, pages)
    one_stream = tmp_path / "o.warc.gz"
    one_stream.write_bytes(gzip.compress(plain.read_bytes()))
    split = tmp_path / "m.warc.gz"
    warcfile.write(split, pages)
    assert warc.slices(plain, 100) == [(0, None)]
    assert warc.slices(one_stream, 100) == [(0, None)]
    assert len(warc.slices(split, 100)) > 1
    assert warc.slices(split, split.stat().st_size) == [(0, None)]    # under two sizes


# --- the damage matrix: every frame error in every layout ------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("how", MATRIX)
def test_every_frame_error_is_one_damaged_entry_and_every_good_record_is_whole(tmp_path, layout, how):
    """A wrong Content-Length (1, 100, 5,000 bytes either way), a record cut at the end of
    the file, garbage between records, a header cut short: one Damaged entry each; every
    other page is read with exactly its own bytes, in order."""
    bad = 4 if how == "cut_at_end" else BAD
    path, good = matrix_file(tmp_path, layout, [(bad, how)])
    found = entries(path)
    pages = [e for e in found if isinstance(e, warc.Page)]
    assert [e.url for e in pages] == good
    for e in pages:
        assert e.data == matrix_body(int(e.url.rsplit("/", 1)[1])), e.url
    damaged = [e for e in found if isinstance(e, warc.Damaged)]
    assert len(damaged) == 1, [e.message for e in damaged]
    if how.startswith(("long", "short")):
        assert damaged[0].url == f"https://m.test/{bad}" and "Content-Length" in damaged[0].message
    skipped = [e for e in found if isinstance(e, warc.Skipped)]
    assert len(skipped) == 5                            # every request record, the bad page's too
    places = [(e.offset, e.inner) for e in found]
    assert places == sorted(places) and len(set(places)) == len(places)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_length_that_runs_past_several_records_gives_them_back(tmp_path, layout):
    """A record whose Content-Length reaches over the next records (and past the end of the
    file) costs that record only."""
    path, good = matrix_file(tmp_path, layout, [(1, "long_5000"), (3, "short_100")], n=6)
    found = entries(path)
    assert [e.url for e in found if isinstance(e, warc.Page)] == good
    assert [e.url for e in found if isinstance(e, warc.Damaged)] == ["https://m.test/1",
                                                                      "https://m.test/3"]


def test_a_payload_holding_a_warc_record_is_not_split(tmp_path):
    """A page whose text holds a whole WARC record (a page about WARC) is one page: the
    frame, not a `WARC/1.0` line, says where a record ends."""
    inner = warcfile._record("response", "https://inner.test/", b"HTTP/1.1 200 OK\r\n\r\nhi",
                             "application/http; msgtype=response")
    body = b"<html><body><pre>" + inner + b"</pre><p>after</p></body></html>"
    path = tmp_path / "w.warc"
    warcfile.write(path, [warcfile.Page("https://outer.test/", body), page(1)])
    found = entries(path)
    assert pages_of(found) == ["https://outer.test/", page(1).url]
    assert not any(isinstance(e, warc.Damaged) for e in found)
    assert found[1].data == body


@pytest.mark.parametrize("chunk", [pytest.param(b"%x" % 560, id="size-too-large"),
                                   pytest.param(b"%x" % 40, id="size-too-small"),
                                   pytest.param(b"zz", id="not-hex")])
def test_an_http_chunk_size_that_lies_costs_its_record_only(tmp_path, chunk):
    """The HTTP body's own lengths (Transfer-Encoding: chunked) are no more trusted than
    the WARC one: a record whose chunk size lies is one Damaged entry naming it, and the
    next record is read whole."""
    html = b"<html><body><p>chunked page body text here</p></body></html>"
    path = tmp_path / "c.warc"
    warcfile.write(path, [warcfile.Page("https://c.test/", chunk + b"\r\n" + html + b"\r\n0\r\n\r\n",
                                        headers={"Transfer-Encoding": "chunked"}), page(1)])
    found = [e for e in entries(path) if not isinstance(e, warc.Skipped)]
    assert [type(e).__name__ for e in found] == ["Damaged", "Page"]
    assert found[0].url == "https://c.test/" and found[1].data == page(1).body


@pytest.mark.parametrize("kind", ["zst", "lz4"])
def test_zstd_and_lz4_files_are_framed_too(tmp_path, kind):
    """A zstd or lz4 file (one unit, inflated by FastWARC's reader): a wrong length and
    garbage are one Damaged entry each, placed by their offset in the inflated stream."""
    from fastwarc.stream_io import Lz4Writer, ZstdWriter
    plain, good = matrix_file(tmp_path, "plain", [(1, "long_100"), (3, "garbage")])
    path = tmp_path / f"m.warc.{kind}"
    writer = (ZstdWriter if kind == "zst" else Lz4Writer)(str(path))
    writer.write(plain.read_bytes())
    writer.close()
    found = entries(path)
    pages = [e for e in found if isinstance(e, warc.Page)]
    assert [e.url for e in pages] == good
    assert all(e.data == matrix_body(int(e.url.rsplit("/", 1)[1])) for e in pages)
    assert [e.url for e in found if isinstance(e, warc.Damaged)] == ["https://m.test/1", ""]
    assert [(e.offset, e.inner) for e in found] == [(0, e.offset) for e in entries(plain)]


def test_slices_of_a_file_with_every_frame_error_read_what_the_whole_file_reads(tmp_path):
    damages = [(2 * k + 1, how) for k, how in enumerate(h for h in MATRIX if h != "cut_at_end")]
    path, _ = matrix_file(tmp_path, "member", damages + [(17, "cut_at_end")], n=18)
    key = lambda e: (type(e).__name__, e.offset, e.inner, getattr(e, "url", ""))   # noqa: E731
    whole = [key(e) for e in entries(path)]
    for size in (997, 4096, path.stat().st_size // 3):
        got = [key(e) for a, b in warc.slices(path, size) for e in warc.read_slice(path, a, b)]
        assert got == whole, size


@pytest.mark.parametrize("layout", LAYOUTS)
def test_blocks_too_large_to_hold_are_skipped_over_and_still_checked(tmp_path, monkeypatch, layout):
    """A block over framing.KEEP_BYTES is not held: its first HEAD_BYTES are kept (the HTTP
    header says what it is) and the rest skipped to its end, where the frame is checked;
    one that does not end there is damage, and the reader goes back to find the records
    inside it."""
    from pith.batch import framing
    monkeypatch.setattr(framing, "KEEP_BYTES", 2000)
    monkeypatch.setattr(framing, "HEAD_BYTES", 500)
    monkeypatch.setattr(warc, "MAX_RECORD_BYTES", 2000)
    path, good = matrix_file(tmp_path, layout, [(1, "long_5000")])
    found = entries(path)
    assert [e.url for e in found if isinstance(e, warc.Damaged)] == ["https://m.test/1"]
    big = [e for e in found if isinstance(e, warc.TooLarge)]      # every page is 8 KB
    assert [e.url for e in big] == good and big[0].size > 8000


@pytest.mark.parametrize("layout", LAYOUTS)
def test_lengths_past_the_end_do_not_make_the_read_quadratic(tmp_path, monkeypatch, layout):
    """Every other record declares a terabyte: each is one Damaged entry, and the bytes
    inflated or read stay a small multiple of the file's (no pass to the end per lie)."""
    from pith.batch import framing
    pages = [warcfile.Page(f"https://h.test/{i}", matrix_body(i)) for i in range(60)]
    raw = [warcfile._record("response", p.url, warcfile._http_response(p),
                            "application/http; msgtype=response", 10**12 if i % 2 else None)
           for i, p in enumerate(pages)]
    data = {"plain": b"".join(raw), "member": b"".join(gzip.compress(r, mtime=0) for r in raw),
            "stream": gzip.compress(b"".join(raw), mtime=0)}[layout]
    path = tmp_path / ("h.warc" if layout == "plain" else "h.warc.gz")
    path.write_bytes(data)
    read = []
    for unit in (framing._Plain, framing._Gzip):
        original = unit.read
        monkeypatch.setattr(unit, "read", lambda self, n, o=original: read.append(len(r := o(self, n))) or r)
    found = entries(path)
    assert [e.url for e in found if isinstance(e, warc.Page)] == [p.url for p in pages[::2]]
    assert [e.url for e in found if isinstance(e, warc.Damaged)] == [p.url for p in pages[1::2]]
    assert sum(read) <= 3 * len(b"".join(raw))


def test_a_run_of_version_lines_is_searched_once(tmp_path, monkeypatch):
    """1.3 MB of `WARC/1.1` lines without a blank line (no header ends) before a good
    record: one Damaged span, the record read, and each byte searched a few times, not
    once per version line before it (each had been searched 64 KB ahead: 17 s)."""
    from pith.batch import framing
    good = warcfile.Page("https://g.test/", b"<html><body><p>good</p></body></html>")
    path = tmp_path / "marks.warc"
    lines = b"WARC/1.1\r\nX: y\r\n" * 80_000
    warcfile.write(path, [good])
    path.write_bytes(lines + path.read_bytes())
    scanned = []
    original = framing._Buffer.find

    def find(self, what, a, b):
        at = original(self, what, a, b)
        scanned.append((b if at == -1 else at + len(what)) - a)
        return at
    monkeypatch.setattr(framing._Buffer, "find", find)
    found = entries(path)
    assert [type(e).__name__ for e in found] == ["Damaged", "Skipped", "Page"]
    assert found[0].offset == 0 and found[-1].url == good.url
    assert sum(scanned) <= 4 * path.stat().st_size


@pytest.mark.parametrize("layout", LAYOUTS)
def test_random_damage_to_one_record_costs_that_record_only(tmp_path, layout):
    """300 seeded random edits (bytes deleted, inserted, overwritten, a length digit
    changed), each inside one record of a clean file: no exception, every page read is
    exactly one of the pages written (no bytes of another), none twice, and every record
    the edit did not touch is read with its own bytes."""
    import random
    rng = random.Random(34)
    pages = [warcfile.Page(f"https://r.test/{i}", matrix_body(i)[:600 + 97 * i]) for i in range(6)]
    bodies = {p.url: p.body for p in pages}
    records = [r for p in pages for r in warcfile.records_of(p, rng)]
    owner = [p.url for p in pages for _ in range(2)]          # request, response
    for case in range(300 // len(LAYOUTS)):
        k = rng.randrange(len(records))
        rec = bytearray(records[k])
        at = rng.randrange(len(rec))
        how = rng.choice(("delete", "insert", "overwrite", "length"))
        if how == "delete":
            del rec[at:at + rng.randint(1, 300)]
        elif how == "insert":
            rec[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 300)))
        elif how == "overwrite":
            rec[at:at + 8] = bytes(rng.getrandbits(8) for _ in range(8))
        else:
            i = rec.index(b"Content-Length: ") + len(b"Content-Length: ")
            rec[i] = ord(rng.choice("0123456789"))
        damaged = records[:k] + [bytes(rec)] + records[k + 1:]
        if layout == "plain":
            data = b"".join(damaged)
        elif layout == "member":
            data = b"".join(gzip.compress(r, mtime=0) for r in damaged)
        else:
            data = gzip.compress(b"".join(damaged), mtime=0)
        path = tmp_path / f"r{case}.warc{'' if layout == 'plain' else '.gz'}"
        path.write_bytes(data)
        found = [e for e in entries(path) if isinstance(e, warc.Page)]
        urls = [e.url for e in found]
        assert len(urls) == len(set(urls)), (case, how)
        for e in found:          # the edited record may be read with its edit (no digest
            assert b"WARC/1." not in e.data, (case, how, e.url)        # is checked), no more
            assert e.data == bodies[e.url] or e.url == owner[k], (case, how, e.url)
        untouched = [p.url for p in pages if p.url != owner[k]]
        assert [u for u in urls if u != owner[k]] == untouched, (case, how, k)
