"""Benchmark: one 1,000,000-element snapshot through the real `pith-host`, wall time and peak memory.

Run: `.venv/bin/python tests/bench_host_scale.py [--elements N] [--repeats K]`.

A synthetic page (header menu, an article of sections, a sidebar of link lists, a footer;
the same family as `pith bench --scale`) is written straight as snapshot columns
(host/SNAPSHOT.md), framed, and sent to a fresh `python -m pith.native.host` on pipes. Printed:
the frame's size, the time from the first byte of the `select` frame written to its
reply read (what the extension waits for), the host's peak resident memory (the child's
`ru_maxrss`, read with `os.wait4` when it exits), and the chosen element.

A snapshot as the capture writes it, with layout boxes and every paragraph's words, is
about 100 bytes a row: a million rows would not fit the 64 MiB frame the browser can send
(`framing.MAX_IN`). This one keeps every column but short texts and static-style boxes
(zeros), about 60 bytes a row, so that it does fit; the host's work per row is the same.
This is a measurement, not a test: it prints figures and asserts nothing.

`--selects K` sends the same select K times to one host (the cache keeps what fits
`protocol.CACHE_BYTES`) and reports the peak over all of them; `--frame empty-objects`
sends instead one 64 MiB frame of `[{},{},…]` (refused as `frame_too_complex`) and
reports the host's peak.
"""
from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

HOST_DIR = Path(__file__).resolve().parents[1] / "host"
sys.path.insert(0, str(HOST_DIR))

from pith.native import framing  # noqa: E402

# The targets for a 1,000,000-element snapshot.
TARGET_S = 3.0
TARGET_MB = 1024

# The host's time limit for the measured select: the largest allowed, so that a slow
# machine still yields a figure rather than request_too_slow.
MEASURE_LIMIT_MS = 600_000

# Page building blocks (rows each): a section is section > h2, p, p > a, p > em, b.
SECTION_ROWS = 8
# A sidebar list is ul > (li > a) * 3.
SIDEBAR_ROWS = 7
# html, head, body, header > nav > a * 3, main > article > h1, aside, footer > p.
FIXED_ROWS = 15

COLUMNS_STR = ("tag", "text", "tail", "id", "cls", "role", "host", "url", "alt", "color")
COLUMNS_NUM = {"link": 0, "x": 0, "y": 0, "w": 0, "h": 0, "hidden": 0, "fs": 16,
               "fw": 400, "frame": 0}


class Columns:
    """Snapshot columns being appended to in preorder."""

    def __init__(self):
        self.cols = {name: [] for name in (*COLUMNS_STR, "parent", *COLUMNS_NUM)}

    def add(self, tag: str, parent: int, **values) -> int:
        row = len(self.cols["tag"])
        for name in COLUMNS_STR:
            self.cols[name].append(values.get(name, ""))
        self.cols["tag"][-1] = tag
        self.cols["parent"].append(parent)
        for name, default in COLUMNS_NUM.items():
            self.cols[name].append(values.get(name, default))
        return row

    def __len__(self) -> int:
        return len(self.cols["tag"])


def build_snapshot(elements: int) -> dict:
    """A snapshot of `elements` rows (at least FIXED_ROWS + a section and a list): 80%
    article sections, the rest sidebar lists."""
    c = Columns()
    html = c.add("html", -1)
    c.add("head", html)
    body = c.add("body", html)
    nav = c.add("nav", c.add("header", body))
    for word in ("Home", "About", "Contact"):
        c.add("a", nav, text=word, link=1, url=f"/{word.lower()}")
    article = c.add("article", c.add("main", body))
    c.add("h1", article, text="A synthetic article")
    sections = max(1, int(elements * 0.8) // SECTION_ROWS)
    sidebars = max(1, (elements - FIXED_ROWS - sections * SECTION_ROWS) // SIDEBAR_ROWS)
    for k in range(sections):
        s = c.add("section", article)
        c.add("h2", s, text="Part")
        c.add("p", s, text="A story told.")
        p = c.add("p", s, text="More, ")
        c.add("a", p, text="a link", link=1, url="/n", tail=".")
        p = c.add("p", s, text="Then ")
        c.add("em", p, text="this", tail=" and ")
        c.add("b", p, text="that")
    aside = c.add("aside", body)
    for k in range(sidebars):
        ul = c.add("ul", aside)
        for j in range(3):
            c.add("a", c.add("li", ul), text="Side", link=1, url="/s")
    footer = c.add("footer", body)
    c.add("p", footer, text="Copyright nobody.")
    while len(c) < elements:        # exactly `elements` rows: pad the footer
        c.add("p", footer, text="Fine print.")
    n = len(c)
    return {"v": 1, "url": "https://example.org/scale", "title": f"Synthetic {n}",
            "lang": "en", "layout": False, "viewport": [0, 0], "page": [0, 0], "n": n,
            "nodes": c.cols, "warnings": []}


def read_reply(stream) -> dict:
    """One frame from the host, parsed independently of the host's own reader."""
    header = stream.read(4)
    (length,) = struct.unpack("=I", header)
    return json.loads(stream.read(length))


def empty_objects_body() -> bytes:
    """An echo whose data is a 64 MiB array of empty objects (issue 34, finding 3)."""
    head, tail = b'{"v":1,"id":1,"action":"echo","data":[', b"{}]}"
    items = (framing.MAX_IN - len(head) - len(tail)) // 3
    return head + b"{}," * items + tail


def run(elements: int, selects: int = 1, frame: str | None = None) -> dict:
    t0 = time.perf_counter()
    if frame == "empty-objects":
        body, n = empty_objects_body(), 0
    else:
        snap = build_snapshot(elements)
        body = json.dumps({"v": 1, "id": 1, "action": "select", "snapshot": snap,
                           "options": {"max_request_ms": MEASURE_LIMIT_MS}},
                          ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        n = snap["n"]
        del snap
    build_s = time.perf_counter() - t0
    env = dict(os.environ, PYTHONPATH=str(HOST_DIR))
    proc = subprocess.Popen([sys.executable, "-m", "pith.native.host"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env)
    hello = json.dumps({"v": 1, "id": 0, "action": "hello"}).encode()
    proc.stdin.write(struct.pack("=I", len(hello)) + hello)
    proc.stdin.flush()
    read_reply(proc.stdout)         # the interpreter is up: time the select alone
    t1 = time.perf_counter()
    for _ in range(selects):
        proc.stdin.write(struct.pack("=I", len(body)) + body)
        proc.stdin.flush()
        reply = read_reply(proc.stdout)
    wall_s = (time.perf_counter() - t1) / selects
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    result = reply.get("result") or {}
    return {"elements": n, "frame_mb": len(body) / 2**20, "frame_limit_mb": framing.MAX_IN / 2**20,
            "build_s": build_s, "wall_s": wall_s,
            "peak_mb": usage.ru_maxrss / 1024,   # Linux reports kilobytes
            "host_ms": (result.get("timings") or {}).get("total_ms"),
            "ok": reply.get("ok"), "error": reply.get("error"),
            "chosen": f"{result.get('tag')} {result.get('path')}" if reply.get("ok") else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=1, help="fresh host processes to run")
    ap.add_argument("--selects", type=int, default=1, help="selects sent to each host")
    ap.add_argument("--frame", choices=("empty-objects",), help="send this frame instead")
    args = ap.parse_args()
    for _ in range(args.repeats):
        r = run(args.elements, args.selects, args.frame)
        print(f"elements {r['elements']}  frame {r['frame_mb']:.1f} MiB "
              f"(limit {r['frame_limit_mb']:.0f})  built in {r['build_s']:.1f} s")
        if not r["ok"]:
            print(f"  host error: {r['error']}")
        print(f"  select x{args.selects}: wall {r['wall_s']:.2f} s each (target < {TARGET_S:.0f} s), host total_ms "
              f"{r['host_ms'] if r['host_ms'] is None else round(r['host_ms'])}, "
              f"peak RSS {r['peak_mb']:.0f} MB (target < {TARGET_MB} MB), chosen {r['chosen']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
