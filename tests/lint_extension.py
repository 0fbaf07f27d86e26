"""`make lint`'s web-ext step: run `web-ext lint` on extension/ and say in one line whether it is clean.

    python tests/lint_extension.py [--web-ext PATH] [--source-dir DIR]

web-ext's own table shows the one warning Pith expects (BACKGROUND_SERVICE_WORKER_IGNORED:
the manifest names both a service worker, for Chromium, and background scripts, which
Firefox uses) as if it were a failure. This reads its JSON report instead: any error, or
any warning not in EXPECTED, is printed and fails (exit 1); otherwise one line says so.
Notices are printed and do not fail.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WEB_EXT = REPO / "tests" / "node_modules" / ".bin" / "web-ext"
# Warnings that are expected, with why: one manifest serves Chromium and Firefox.
EXPECTED = {"BACKGROUND_SERVICE_WORKER_IGNORED": "Firefox uses background.scripts"}
# web-ext lint reads every file of the extension; it takes seconds, a hang is a failure.
LINT_TIMEOUT_S = 300


@dataclass
class Verdict:
    """Whether the report passes, and the lines to print (the summary last)."""
    ok: bool
    lines: list[str]


def _where(item: dict) -> str:
    place = item.get("file") or ""
    if place and item.get("line"):
        place += f":{item['line']}"
    return f" ({place})" if place else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def verdict(report: dict) -> Verdict:
    """Judge a `web-ext lint --output json` report."""
    errors = report.get("errors") or []
    warnings = report.get("warnings") or []
    notices = report.get("notices") or []
    expected = [w for w in warnings if w.get("code") in EXPECTED]
    unexpected = [w for w in warnings if w.get("code") not in EXPECTED]
    lines = [f"error {e.get('code')}: {e.get('message')}{_where(e)}" for e in errors]
    lines += [f"warning {w.get('code')}: {w.get('message')}{_where(w)}" for w in unexpected]
    lines += [f"notice {n.get('code')}: {n.get('message')}{_where(n)}" for n in notices]
    parts = [_plural(len(errors), "error")]
    if unexpected:
        parts.append(_plural(len(unexpected), "unexpected warning"))
    if expected:
        why = ", ".join(sorted({f"{w['code']}: {EXPECTED[w['code']]}" for w in expected}))
        parts.append(f"{_plural(len(expected), 'expected warning')} ({why})")
    elif not unexpected:
        parts.append("0 warnings")
    if notices:
        parts.append(_plural(len(notices), "notice"))
    lines.append("web-ext lint: " + ", ".join(parts))
    return Verdict(not errors and not unexpected, lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web-ext", type=Path, default=WEB_EXT)
    parser.add_argument("--source-dir", type=Path, default=REPO / "extension")
    args = parser.parse_args(argv)
    done = subprocess.run([str(args.web_ext), "lint", "--source-dir", str(args.source_dir),
                           "--output", "json", "--no-config-discovery"],
                          capture_output=True, text=True, timeout=LINT_TIMEOUT_S)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        print(f"web-ext lint gave no JSON report (exit {done.returncode}):\n"
              f"{done.stderr.strip() or done.stdout.strip()}", file=sys.stderr)
        return 1
    result = verdict(report)
    print("\n".join(result.lines))
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
