"""WARC files with one frame error each, in every layout: the damage matrix of tests/test_warc.py
and tests/test_command.py (issue 34, finding 1)."""
import gzip
import random
import zlib
from pathlib import Path

from pith.measure import warcfile

LAYOUTS = ("plain", "member", "stream")     # .warc, one gzip member per record, one gzip stream
MATRIX = ("long_1", "long_100", "long_5000", "short_1", "short_100", "short_5000",
          "cut_at_end", "garbage", "header_cut")
BAD = 2                                      # the page whose record is damaged (cut_at_end: the last)


def matrix_body(i: int) -> bytes:
    """About 8 KB of HTML only page `i` has (more than the 5,000 bytes a length may miss by)."""
    paras = "".join(f"<p>Page {i} paragraph {k} tells its own story about river number {i}, "
                    f"stone {k} and the {i * 31 + k}th boat that passed the old mill.</p>\n"
                    for k in range(70))
    return f"<html><head><title>Page {i}</title></head><body>{paras}</body></html>".encode()


def matrix_file(tmp_path: Path, layout: str, damages: list[tuple[int, str]], n: int = 5,
                seed: int = 0) -> tuple[Path, list[str]]:
    """A WARC file of `n` pages (a request and a response record each) in `layout`, with
    the response of page i damaged as `damages` say; (path, the intact pages' URLs)."""
    rng = random.Random(seed)
    pages = [warcfile.Page(f"https://m.test/{i}", matrix_body(i)) for i in range(n)]
    damage = dict(damages)
    pieces: list[bytes] = []
    for i, p in enumerate(pages):
        request, response = warcfile.records_of(p, rng)
        how = damage.get(i, "")
        if how.startswith(("long_", "short_")):
            block = warcfile._http_response(p)
            delta = int(how.split("_")[1]) * (1 if how.startswith("long") else -1)
            response = warcfile._record("response", p.url, block,
                                        "application/http; msgtype=response", len(block) + delta)
        elif how == "header_cut":
            response = response[:response.index(b"WARC-Target-URI")]
        pieces += [request, response]
        if how == "garbage":
            pieces.append(b"\x00garbage\xff" + bytes(rng.getrandbits(8) for _ in range(300)))
    if layout == "member":
        raw = [gzip.compress(x, mtime=0) if x.startswith(b"WARC/") else x for x in pieces]
    elif layout == "stream":             # flushed after each record, so a cut is placed
        z = zlib.compressobj(6, zlib.DEFLATED, 31)
        raw = [z.compress(x) + z.flush(zlib.Z_FULL_FLUSH) for x in pieces]
        raw[-1] += z.flush()
    else:
        raw = pieces
    if "cut_at_end" in damage.values():  # the last record, cut in half (and nothing after)
        raw[-1] = raw[-1][:len(raw[-1]) // 2]
    data = b"".join(raw)
    path = tmp_path / f"m-{layout}.warc{'' if layout == 'plain' else '.gz'}"
    path.write_bytes(data)
    bad = {i for i, how in damage.items() if how != "garbage"}
    return path, [p.url for i, p in enumerate(pages) if i not in bad]


