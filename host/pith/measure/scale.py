"""`pith bench --scale`: capture and host time on synthetic pages of growing size.

Each page is a site-like layout — a header menu, an article of sections (heading,
paragraphs with inline links), a sidebar of link lists, a footer — repeated until it
holds the requested number of elements. The point is the growth of the cost with page
size (it should be linear), so the same page family is used at every size.
"""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from argparse import Namespace
from pathlib import Path

from ..errors import PithError
from ..pipeline.options import Options
from ..pages.inputs import Capturer
from ..pipeline.select import select

# Page sizes, up to the 200k elements a huge real page reaches.
SCALE_SIZES = (1_000, 10_000, 50_000, 200_000)

# Host timings are the median of this many runs, to smooth out a stray GC pause.
HOST_REPEATS = 3
_SECTION = ("<section><h2>Section {k}</h2>"
            "<p>Paragraph {k} tells a long story about the subject, with plenty of words so "
            "that it reads like prose and not like a menu; <a href=\"/n{k}\">a link</a> sits "
            "in the middle of it, as links do in articles.</p>"
            "<p>Another paragraph follows with <em>emphasis</em> and <b>bold</b> text, and "
            "then more sentences that carry the content of section {k} to its end.</p>"
            "</section>")
_SIDEBAR = "<ul>" + "".join(f'<li><a href="/s{{k}}/{j}">Side {j}</a></li>' for j in range(3)) + "</ul>"
ELEMENTS_PER_SECTION = 7
ELEMENTS_PER_SIDEBAR = 7


def synthetic_page(elements: int) -> str:
    """An HTML page of about `elements` elements (7 per section, 7 per sidebar list)."""
    sections = max(1, int(elements * 0.8) // ELEMENTS_PER_SECTION)
    sidebars = max(1, int(elements * 0.2) // ELEMENTS_PER_SIDEBAR)
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Synthetic "
            f"{elements}</title></head><body>"
            "<header><nav><a href=\"/\">Home</a> | <a href=\"/about\">About</a></nav></header>"
            "<main><article><h1>A synthetic article</h1>"
            + "".join(_SECTION.format(k=k) for k in range(sections))
            + "</article></main><aside>"
            + "".join(_SIDEBAR.format(k=k) for k in range(sidebars))
            + "</aside><footer><p>Copyright nobody.</p></footer></body></html>")


def main(args: Namespace) -> int:
    rows = []
    modes = [True] if args.static else [True, False]
    with tempfile.TemporaryDirectory() as tmp:
        for static_mode in modes:
            with Capturer(static_mode=static_mode, timeout_s=max(args.timeout, 120)) as cap:
                for size in SCALE_SIZES:
                    path = Path(tmp) / f"synthetic-{size}.html"
                    path.write_text(synthetic_page(size), encoding="utf-8")
                    try:
                        captured = cap.capture(str(path))
                    except PithError as exc:
                        print(f"pith bench --scale: {size}: {exc}")
                        continue
                    data = json.dumps(captured.snapshot, ensure_ascii=False)
                    host = []
                    for _ in range(HOST_REPEATS):
                        t0 = time.perf_counter()
                        sel = select(json.loads(data), Options())
                        host.append((time.perf_counter() - t0) * 1e3)
                    n = sel.snap.n
                    rows.append({"mode": "static" if static_mode else "rendered",
                                 "elements": n, "snapshot_mb": len(data.encode()) / 2**20,
                                 "capture_ms": captured.capture_ms,
                                 "host_ms": statistics.median(host),
                                 "host_us_per_element": statistics.median(host) * 1e3 / n,
                                 "chosen": f"{sel.snap.tag[sel.node]} {sel.snap.path(sel.node)}"})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'mode':<9}{'elements':>9}{'snapshot MB':>13}{'capture ms':>12}{'host ms':>10}"
          f"{'host us/el':>12}  chosen")
    for r in rows:
        print(f"{r['mode']:<9}{r['elements']:>9}{r['snapshot_mb']:>13.1f}{r['capture_ms']:>12.1f}"
              f"{r['host_ms']:>10.1f}{r['host_us_per_element']:>12.2f}  {r['chosen']}")
    return 0
