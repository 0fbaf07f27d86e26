"""Time capture.js in headless firefox-esr on synthetic pages of 5,000 and 50,000 elements.

    .venv/bin/python tests/measure_firefox_capture.py [--sizes 5000 50000] [--repeats 3]

For each size: load the page (file://, from a temporary folder), evaluate the source of
extension/inject/capture.js with WebDriver BiDi `script.evaluate`, and print the median
over the repeats of the snapshot's own `capture_ms` (time inside the script) and of the
wall time of the whole `script.evaluate` round trip (script, serialisation of the JSON
string, websocket transfer), in two realms:

- `page`: the page's own window, as the CLI evaluates it in Chromium;
- `sandbox`: a BiDi sandbox, which sees the page through Xray wrappers like a content
  script of the extension does (scripting.executeScript runs there).

The page is reloaded before every run so that each capture walks a fresh DOM.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests"))

from bidi import Firefox, find_firefox  # noqa: E402
from pith.measure.scale import synthetic_page  # noqa: E402

CAPTURE_JS = ROOT / "extension" / "inject" / "capture.js"
DEFAULT_SIZES = (5_000, 50_000)
DEFAULT_REPEATS = 3
# A 50k-element capture takes seconds in a sandbox; a stuck one must still end.
CAPTURE_TIMEOUT_S = 120.0
REALMS = ("page", "sandbox")


def capture_once(ff: Firefox, context: str, url: str, source: str,
                 realm: str) -> tuple[float, float, int, int]:
    """(capture_ms reported by the script, wall ms of script.evaluate, rows, JSON chars)."""
    ff.navigate(context, url, timeout_s=CAPTURE_TIMEOUT_S)
    target = {"context": context}
    if realm == "sandbox":
        target["sandbox"] = "pith-measure"
    t0 = time.perf_counter()
    res = ff.send("script.evaluate", {"expression": source, "target": target,
                                      "awaitPromise": False}, timeout_s=CAPTURE_TIMEOUT_S)
    wall_ms = (time.perf_counter() - t0) * 1e3
    text = Firefox.script_value(res, "capture.js")
    snap = json.loads(text)
    return snap["capture_ms"], wall_ms, snap["n"], len(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS)
    args = parser.parse_args(argv)
    if not find_firefox():
        print("firefox-esr is not installed", file=sys.stderr)
        return 2
    source = CAPTURE_JS.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp, Firefox(timeout_s=CAPTURE_TIMEOUT_S) as ff:
        version = ff.capabilities.get("browserVersion", "?")
        context = ff.contexts()[0]["context"]
        print(f"# {Path(ff.executable).name} {version}, capture.js {len(source)} bytes, "
              f"median of {args.repeats} runs")
        print(f"{'elements':>9} {'rows':>7} {'realm':>8} {'capture_ms':>11} {'wall_ms':>9} "
              f"{'json_MB':>8}")
        for size in args.sizes:
            page = Path(tmp) / f"synthetic-{size}.html"
            page.write_text(synthetic_page(size), encoding="utf-8")
            for realm in REALMS:
                runs = [capture_once(ff, context, page.as_uri(), source, realm)
                        for _ in range(args.repeats)]
                cap = statistics.median(r[0] for r in runs)
                wall = statistics.median(r[1] for r in runs)
                rows, size_mb = runs[0][2], runs[0][3] / 1e6
                print(f"{size:>9} {rows:>7} {realm:>8} {cap:>11.1f} {wall:>9.1f} {size_mb:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
