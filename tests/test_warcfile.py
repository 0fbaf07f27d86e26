"""Tests of measure/warcfile.py: the WARC files the crawl bench and the batch tests build, read byte by byte."""
from __future__ import annotations

import gzip
import random
import zlib

import pytest

from pith.measure import warcfile

BODY = b"<html><body><p>Hello</p></body></html>"


def members(data: bytes) -> list[bytes]:
    """The gzip members of `data`, each decompressed (None for a member cut short)."""
    out, rest = [], data
    while rest:
        d = zlib.decompressobj(wbits=31)
        try:
            out.append(d.decompress(rest))
        except zlib.error:
            break
        if not d.eof:                        # a member cut short
            out.append(None)
            break
        rest = d.unused_data
    return out


def fields(record: bytes) -> tuple[dict[str, str], bytes]:
    """A raw record's WARC headers and the bytes after them."""
    head, _, rest = record.partition(b"\r\n\r\n")
    lines = head.decode("utf-8").split("\r\n")
    assert lines[0] == "WARC/1.1"
    return dict(line.split(": ", 1) for line in lines[1:]), rest


def test_a_page_is_a_request_then_its_response_and_the_length_is_the_block():
    request, response = warcfile.records_of(warcfile.Page("https://a.test/x", BODY), random.Random(0))
    head, rest = fields(request)
    assert head["WARC-Type"] == "request" and head["WARC-Target-URI"] == "https://a.test/x"
    assert b"Host: a.test" in rest
    head, rest = fields(response)
    assert head["WARC-Type"] == "response"
    assert rest.endswith(b"\r\n\r\n")
    block = rest[:-4]
    assert int(head["Content-Length"]) == len(block)
    http_head, _, body = block.partition(b"\r\n\r\n")
    assert body == BODY
    assert http_head.startswith(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")


def test_more_headers_and_a_status_go_into_the_http_head():
    page = warcfile.Page("https://a.test/", BODY, content_type="text/html; charset=latin-1",
                         status=404, headers={"Content-Language": "fr"})
    _, rest = fields(warcfile.records_of(page, random.Random(0))[1])
    http_head = rest.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    assert http_head[0] == "HTTP/1.1 404 Status"
    assert "Content-Type: text/html; charset=latin-1" in http_head
    assert "Content-Language: fr" in http_head


@pytest.mark.parametrize("damage, delta", [("long_length", 37), ("short_length", None)])
def test_a_lying_length_is_written_as_asked(damage, delta):
    _, response = warcfile.records_of(warcfile.Page("https://a.test/", BODY, damage=damage),
                                      random.Random(0))
    head, rest = fields(response)
    block = len(rest) - 4
    assert int(head["Content-Length"]) == (block + delta if delta else block // 2)


def test_garbage_follows_the_response_and_comes_from_the_seed():
    page = warcfile.Page("https://a.test/", BODY, damage="garbage")
    one = warcfile.records_of(page, random.Random(1))
    assert len(one) == 3 and len(one[2]) == 300
    assert warcfile.records_of(page, random.Random(1))[2] == one[2]
    assert warcfile.records_of(page, random.Random(2))[2] != one[2]


def test_record_ids_are_stable_and_differ_by_kind_and_url():
    a = warcfile.record_id("https://a.test/", "response")
    assert a == warcfile.record_id("https://a.test/", "response")
    assert a != warcfile.record_id("https://a.test/", "request")
    assert a != warcfile.record_id("https://b.test/", "response")
    assert a.startswith("<urn:uuid:") and a.endswith(">")


def test_a_gz_file_holds_one_member_per_record_and_the_same_input_builds_the_same_file(tmp_path):
    pages = [warcfile.Page(f"https://{n}.test/", BODY) for n in "abc"]
    path = tmp_path / "x.warc.gz"
    assert warcfile.write(path, pages) == 3
    data = path.read_bytes()
    records = members(data)
    assert len(records) == 6
    assert [fields(r)[0]["WARC-Type"] for r in records] == ["request", "response"] * 3
    again = tmp_path / "y.warc.gz"
    warcfile.write(again, pages)
    assert again.read_bytes() == data


def test_a_plain_file_is_the_records_back_to_back(tmp_path):
    page = warcfile.Page("https://a.test/", BODY)
    path = tmp_path / "x.warc"
    warcfile.write(path, [page])
    assert path.read_bytes() == b"".join(warcfile.records_of(page, random.Random(0)))


@pytest.mark.parametrize("suffix", [".warc", ".warc.gz"])
def test_a_truncated_page_cuts_its_response_in_half_and_nothing_else(tmp_path, suffix):
    pages = [warcfile.Page("https://a.test/", BODY, damage="truncated"),
             warcfile.Page("https://b.test/", BODY)]
    path = tmp_path / f"x{suffix}"
    warcfile.write(path, pages)
    whole = tmp_path / f"whole{suffix}"
    warcfile.write(whole, [warcfile.Page(p.url, p.body) for p in pages])
    first = warcfile.records_of(pages[0], random.Random(0))
    cut_response = (gzip.compress(first[1], compresslevel=6, mtime=0) if suffix.endswith(".gz")
                    else first[1])
    assert len(whole.read_bytes()) - len(path.read_bytes()) == len(cut_response) - len(cut_response) // 2

    def stored(raw: bytes) -> bytes:
        return gzip.compress(raw, compresslevel=6, mtime=0) if suffix.endswith(".gz") else raw
    data = path.read_bytes()
    assert data.startswith(stored(first[0]) + stored(first[1])[:len(cut_response) // 2])
    second = b"".join(stored(r) for r in warcfile.records_of(pages[1], random.Random(0)))
    assert data.endswith(second) and len(data) == len(stored(first[0])) + len(cut_response) // 2 + len(second)
