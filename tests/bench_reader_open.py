"""Reader open time on the bundled article (host/examples/article.html) in headless Chromium: `python tests/bench_reader_open.py`.

    .venv/bin/python tests/bench_reader_open.py [--runs 15] [--extension DIR]

One Chromium with the extension and the host registered; the article is clicked once
(host `select`), then the `reader` command runs --runs times, each timed from sending it
(Date.now() in the extension page) to the reader tab's content shown (pithReader.shownAt):
the host's `clean`, collect.js in the page, storage.session, opening the tab, rendering.
The first run (the host's first `clean`, cold module caches) is reported apart. The
target is a median of at most TARGET_MS. `--extension` times another checkout's extension
(say /work/main/extension, with that checkout's host on PYTHONPATH) for an A/B figure.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests"))

from pith.pages.extension import EXTENSION_DIR, ExtensionBrowser  # noqa: E402
from serving import serve  # noqa: E402

TARGET_MS = 150.0           # issue 37: reader open time unchanged, at most this median


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--extension", type=Path, default=EXTENSION_DIR)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp)
        subprocess.run([sys.executable, "-m", "pith", "install-host", "--browser", "chromium",
                        "--user-data-dir", str(profile)], check=True, capture_output=True, timeout=60)
        with sync_playwright() as pw, serve(ROOT / "host" / "examples") as base, \
                ExtensionBrowser(pw, profile, extension_dir=args.extension.resolve()) as xb:
            xb.page.goto(f"{base}/article.html", wait_until="load")
            reply = xb.click()
            if not reply.get("ok"):
                print(f"click failed: {reply}", file=sys.stderr)
                return 1
            times = []
            for _ in range(args.runs + 1):
                tab, _, shown_ms = xb.open_reader()
                times.append(shown_ms)
                tab.close()
    first, rest = times[0], times[1:]
    median = statistics.median(rest)
    print(f"reader open on host/examples/article.html ({args.extension}): first {first:.0f} ms, "
          f"then {len(rest)} runs median {median:.0f} ms, min {min(rest):.0f}, max {max(rest):.0f} "
          f"(target <= {TARGET_MS:.0f} ms median)")
    return 0 if median <= TARGET_MS else 2


if __name__ == "__main__":
    raise SystemExit(main())
