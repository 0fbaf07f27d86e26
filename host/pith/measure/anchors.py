"""Other extractors, run by `pith bench` on the same decoded HTML as anchors.

trafilatura and readability-lxml are Python libraries (extra `bench`); Readability.js
runs in one long-lived Node process (readability_runner.cjs, with jsdom and
@mozilla/readability from tests/node_modules, installed by `make npm`). An anchor that
is not installed is reported once and left out; it never stops a benchmark.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[3]
NODE_MODULES = Path(os.environ.get("PITH_NODE_MODULES", REPO / "tests" / "node_modules"))
RUNNER = Path(__file__).with_name("readability_runner.cjs")
ANCHORS = ("trafilatura", "readability-lxml", "readability-js")
# One page may take Readability.js a while (jsdom on a 5 MB page); past this the process
# is killed and restarted, and the page counts as empty for that anchor.
NODE_PAGE_TIMEOUT_S = 60.0


class AnchorMissing(Exception):
    """The anchor's library or runtime is not installed here."""


class Anchor:
    """One extractor: `extract(html, url) -> text`; `close()` when done."""

    def __init__(self, name: str, extract: Callable[[str, str], str],
                 close: Callable[[], None] = lambda: None) -> None:
        self.name = name
        self.extract = extract
        self.close = close


def make(name: str) -> Anchor:
    """The anchor called `name`; AnchorMissing says what to install."""
    if name == "trafilatura":
        try:
            import trafilatura
        except ImportError:
            raise AnchorMissing("trafilatura is not installed (pip install -e '.[bench]')") from None
        return Anchor(name, lambda html, url: trafilatura.extract(html, url=url or None) or "")
    if name == "readability-lxml":
        try:
            from readability import Document
            import lxml.html
        except ImportError:
            raise AnchorMissing("readability-lxml is not installed (pip install -e '.[bench]')") from None

        def extract(html: str, url: str) -> str:
            summary = Document(html, url=url or None).summary(html_partial=True)
            return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
        return Anchor(name, extract)
    if name == "readability-js":
        runner = _NodeRunner()
        return Anchor(name, runner.extract, runner.close)
    raise ValueError(f"unknown anchor {name!r}; known: {', '.join(ANCHORS)}")


class _NodeRunner:
    """readability_runner.cjs in one Node process; restarted if it dies or hangs."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise AnchorMissing("node is not installed (Debian: apt-get install nodejs)")
        if not (NODE_MODULES / "jsdom").is_dir() or not (NODE_MODULES / "@mozilla" / "readability").is_dir():
            raise AnchorMissing(f"jsdom and @mozilla/readability are not in {NODE_MODULES} "
                                "(run `make npm`)")
        self.cmd = [node, str(RUNNER)]
        self.env = {**os.environ, "NODE_PATH": str(NODE_MODULES)}
        self.proc: subprocess.Popen | None = None
        self.next_id = 0

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                                         env=self.env, bufsize=1)
        return self.proc

    def extract(self, html: str, url: str) -> str:
        proc = self._start()
        self.next_id += 1
        request_id = self.next_id
        proc.stdin.write(json.dumps({"id": request_id, "html": html, "url": url}) + "\n")
        proc.stdin.flush()
        line = _readline(proc, NODE_PAGE_TIMEOUT_S)
        if line is None:
            self.close()
            print(f"pith bench: readability-js gave no answer in {NODE_PAGE_TIMEOUT_S:g} s; "
                  "restarted", file=sys.stderr)
            return ""
        reply = json.loads(line)
        if reply.get("id") != request_id:
            self.close()
            return ""
        return reply.get("text") or ""

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def _readline(proc: subprocess.Popen, timeout_s: float) -> str | None:
    """One line of the process's stdout, or None after `timeout_s` or at its end."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout_s)
    return box[0] if box and box[0] else None


def timed(anchor: Anchor, html: str, url: str) -> tuple[str, float]:
    """(text, ms) of one page; an anchor that raises on a page gives "" for it (reported
    on stderr), as the benchmark must go on and an empty answer is what a user would get."""
    t0 = time.perf_counter()
    try:
        text = anchor.extract(html, url)
    except Exception as exc:   # third-party code: any failure is that extractor's miss
        print(f"pith bench: {anchor.name} failed on {url or 'a page'}: "
              f"{type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
        text = ""
    return text, (time.perf_counter() - t0) * 1e3
