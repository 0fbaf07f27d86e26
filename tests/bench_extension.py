"""Click-to-highlight latency of the real extension in headless Chromium: `make bench-extension`.

    .venv/bin/python tests/bench_extension.py [--pages 20] [--json .cache/bench/extension.json]

1. Clicks: PAGES pages of ../shared/datasets (an even spread over the datasets, the same
   pages every run), served on 127.0.0.1 with every other request refused (pages render
   offline). The host is warmed first by one uncounted click. Each click is the toolbar
   button (Extensions.triggerAction → action.onClicked), and the background's own
   performance.now() split of it is reported (median, p95):
     capture    executeScript round trips of the prepare step and of capture.js (walk is
                the part inside the page: capture.js's own capture_ms)
     transfer   JSON.parse in the worker + native messaging both ways + the host's frame
                decoding and encoding: the select round trip minus the host pipeline
     host       the host pipeline (select's timings.total_ms)
     highlight  executeScript of the overlay's show() (and saving the selection)
     total      from the click listener to the outline on screen
2. Reader: on every page clicked, the reader command, timed from sending it (Date.now()
   in the extension page) to the reader tab's content shown (its pithReader.shownAt):
   the host's `clean`, the collector in the page, storage, opening the tab, rendering.
3. Presses: on the first pages, `+` then `-` typed into the page, timed in the page itself
   from the keydown to the overlay's attribute change (main world: keydown listener and a
   MutationObserver on #pith-overlay).
4. Capture on pith.measure.scale.synthetic_page(5000) and (50000), three clicks each.

Figures go to stdout and, raw, to --json. Skips cleanly (exit 0, a message) without
Chromium or the datasets.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from pith.errors import BrowserMissing  # noqa: E402
from pith.pages.browser import find_chromium  # noqa: E402
from pith.pages.extension import ExtensionBrowser, ExtensionError  # noqa: E402
from pith.measure.scale import synthetic_page  # noqa: E402

DATASETS = ROOT.parent / "shared" / "datasets"
PARTS = ("capture_ms", "walk_ms", "transfer_ms", "host_ms", "highlight_ms", "total_ms")
LOAD_TIMEOUT_MS = 15000
PRESS_PAGES = 5             # pages on which + and - are timed
PRESS_ROUNDS = 3            # + then - this many times per page
PRESS_WAIT_S = 5.0
SYNTHETIC_SIZES = (5_000, 50_000)
SYNTHETIC_REPEATS = 3
BUDGET_MS = 150.0           # click-to-highlight median
PRESS_BUDGET_MS = 50.0
OFFLINE = re.compile(r"^https?://(?!127\.0\.0\.1[:/])")

# Main world of the page: time from a keydown to the overlay's next attribute change.
PRESS_PROBE_JS = """
() => {
  const ov = document.getElementById('pith-overlay');
  if (!ov) return false;
  window.__pithProbe = {down: 0, moved: 0};
  window.addEventListener('keydown', () => { window.__pithProbe.down = performance.now();
                                             window.__pithProbe.moved = 0; }, true);
  new MutationObserver(() => { if (!window.__pithProbe.moved) window.__pithProbe.moved = performance.now(); })
    .observe(ov, {attributes: true});
  return true;
}
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Server:
    """http://127.0.0.1:<port> serving `folder` in a thread."""

    def __init__(self, folder: Path):
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def pick_pages(count: int) -> list[str]:
    """`count` dataset pages, spread evenly over the datasets and over each one's pages."""
    datasets = sorted(d for d in DATASETS.iterdir() if (d / "html").is_dir())
    per = [sorted((d / "html").glob("*.html")) for d in datasets]
    picked = []
    for k, files in enumerate(per):
        want = count // len(per) + (1 if k < count % len(per) else 0)
        step = max(1, len(files) // max(want, 1))
        picked += [f"{f.parent.parent.name}/html/{f.name}" for f in files[::step][:want]]
    return picked


def stats(values: list[float]) -> dict:
    values = sorted(values)
    if not values:
        return {"n": 0}
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"n": len(values), "median": round(statistics.median(values), 1), "p95": round(p95, 1),
            "max": round(values[-1], 1)}


def load(xb: ExtensionBrowser, url: str) -> None:
    try:
        xb.page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_MS)
    except Exception:           # a page that never fires load is still clickable
        pass


def time_presses(xb: ExtensionBrowser) -> list[float]:
    if not xb.page.evaluate(PRESS_PROBE_JS):
        return []
    out = []
    for _ in range(PRESS_ROUNDS):
        for key in ("+", "-"):
            xb.page.keyboard.press(key)
            deadline = time.monotonic() + PRESS_WAIT_S
            while True:
                probe = xb.page.evaluate("window.__pithProbe")
                if probe["moved"]:
                    out.append(probe["moved"] - probe["down"])
                    break
                if time.monotonic() > deadline:
                    return out            # e.g. the selection was already the whole page
                time.sleep(0.005)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--json", type=Path, default=ROOT / ".cache" / "bench" / "extension.json")
    args = parser.parse_args(argv)
    try:
        find_chromium()
    except BrowserMissing as exc:
        print(f"bench-extension: skipped: {exc}")
        return 0
    if not DATASETS.is_dir():
        print(f"bench-extension: skipped: no datasets at {DATASETS}")
        return 0
    from playwright.sync_api import sync_playwright

    pages = pick_pages(args.pages)
    data = Server(DATASETS)
    synth_dir = Path(tempfile.mkdtemp(prefix="pith-synthetic-"))
    for size in SYNTHETIC_SIZES:
        (synth_dir / f"synthetic-{size}.html").write_text(synthetic_page(size), encoding="utf-8")
    synth = Server(synth_dir)
    clicks, presses, synthetic, failures, readers = [], [], [], [], []
    try:
        with sync_playwright() as pw, ExtensionBrowser(pw, Path(tempfile.mkdtemp(prefix="pith-profile-"))) as xb:
            xb.context.route(OFFLINE, lambda route: route.abort())
            load(xb, f"{data.url}/{pages[0]}")
            warm = xb.click()                                   # starts the host: not counted
            print(f"warm-up click (host start included): {warm.get('timings', warm)}")
            for k, name in enumerate(pages):
                load(xb, f"{data.url}/{name}")
                reply = xb.click()
                if not reply.get("ok"):
                    failures.append({"page": name, "error": reply["error"]})
                    print(f"  {name}: {reply['error']['name']}: {reply['error']['message']}")
                    continue
                t = reply["timings"]
                clicks.append({"page": name, "tag": reply["tag"], **t})
                print(f"  {name:45} n={t['n']:>6} capture={t['capture_ms']:6.1f} "
                      f"transfer={t['transfer_ms']:6.1f} host={t['host_ms']:6.1f} "
                      f"highlight={t['highlight_ms']:5.1f} total={t['total_ms']:6.1f} ms  <{reply['tag']}>")
                try:
                    tab, _, shown_ms = xb.open_reader()
                    readers.append({"page": name, "shown_ms": shown_ms})
                    tab.close()
                except ExtensionError as exc:
                    failures.append({"page": name, "error": f"reader: {exc}"})
                if k < PRESS_PAGES:
                    presses += time_presses(xb)
            for size in SYNTHETIC_SIZES:
                for _ in range(SYNTHETIC_REPEATS):
                    load(xb, f"{synth.url}/synthetic-{size}.html")
                    reply = xb.click()
                    if reply.get("ok"):
                        synthetic.append({"size": size, **reply["timings"]})
                    else:
                        failures.append({"page": f"synthetic-{size}", "error": reply["error"]})
    finally:
        data.close()
        synth.close()

    summary = {"pages": len(pages), "clicks": {p: stats([c[p] for c in clicks]) for p in PARTS},
               "snapshot_kb": stats([c["snapshot_bytes"] / 1024 for c in clicks]),
               "elements": stats([c["n"] for c in clicks]),
               "press_ms": stats(presses),
               "reader_ms": stats([r["shown_ms"] for r in readers]),
               "synthetic": {size: {p: stats([s[p] for s in synthetic if s["size"] == size])
                                    for p in PARTS}
                             for size in SYNTHETIC_SIZES},
               "failures": failures}
    print(f"\nclick to highlight, warm host, {len(clicks)} of {len(pages)} dataset pages "
          f"(elements median {summary['elements'].get('median')}, snapshot median "
          f"{summary['snapshot_kb'].get('median')} KB):")
    print(f"  {'part':12} {'median':>8} {'p95':>8} {'max':>8}   (ms)")
    for part in PARTS:
        s = summary["clicks"][part]
        print(f"  {part[:-3]:12} {s.get('median', '-'):>8} {s.get('p95', '-'):>8} {s.get('max', '-'):>8}")
    s = summary["reader_ms"]
    print(f"click to reader view shown, {s['n']} pages: median {s.get('median')} ms, "
          f"p95 {s.get('p95')} ms, max {s.get('max')} ms")
    s = summary["press_ms"]
    print(f"grow/shrink press in the page (keydown → outline moved), {s['n']} presses: "
          f"median {s.get('median')} ms, p95 {s.get('p95')} ms")
    for size in SYNTHETIC_SIZES:
        row = summary["synthetic"][size]
        print(f"synthetic {size:>6} elements: capture {row['capture_ms'].get('median')} ms "
              f"(walk {row['walk_ms'].get('median')}), transfer {row['transfer_ms'].get('median')}, "
              f"host {row['host_ms'].get('median')}, total {row['total_ms'].get('median')} ms (medians of "
              f"{row['total_ms'].get('n')})")
    verdict = summary["clicks"]["total_ms"].get("median", float("inf"))
    print(f"budget: click-to-highlight median {verdict} ms (≤ {BUDGET_MS:g}: "
          f"{'met' if verdict <= BUDGET_MS else 'MISSED'}); press median "
          f"{summary['press_ms'].get('median')} ms (≤ {PRESS_BUDGET_MS:g})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"summary": summary, "clicks": clicks, "presses": presses,
                                     "readers": readers,
                                     "synthetic": synthetic}, indent=1), encoding="utf-8")
    print(f"raw figures: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
