"""Shared pytest fixtures: one headless Chromium for the whole session, and the page fixtures' folder."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "host") not in sys.path:       # `pytest` without PYTHONPATH=host works too
    sys.path.insert(0, str(ROOT / "host"))

from pith.browser import Browser, find_chromium  # noqa: E402
from pith.errors import BrowserMissing  # noqa: E402

PAGES = ROOT / "tests" / "fixtures" / "pages"
# Generous per-step limit for tests: a loaded CI machine is slow, a hung page still ends.
TEST_TIMEOUT_S = 20.0


def chromium_or_skip() -> None:
    """Skip the calling test cleanly when Debian Chromium is not installed."""
    try:
        find_chromium()
    except BrowserMissing as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def pith_browser():
    """A started pith.browser.Browser (scripts on), shared by every test of the session.

    Named `pith_browser` so as not to shadow pytest-playwright's own `browser` fixture.
    """
    chromium_or_skip()
    with Browser(js=True, timeout_s=TEST_TIMEOUT_S) as browser:
        yield browser
