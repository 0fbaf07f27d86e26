"""Shared pytest fixtures: one headless Chromium for the whole session, the page fixtures' folder, and the `browser` mark on every test that starts one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "host") not in sys.path:       # `pytest` without PYTHONPATH=host works too
    sys.path.insert(0, str(ROOT / "host"))

from pith.pages.browser import CHROMIUM_FLAGS, Browser, find_chromium  # noqa: E402
from pith.pages.extension import ExtensionBrowser  # noqa: E402
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
    """A started pith.pages.browser.Browser (scripts on), shared by every test of the session.

    Named `pith_browser` so as not to shadow pytest-playwright's own `browser` fixture.
    """
    chromium_or_skip()
    with Browser(js=True, timeout_s=TEST_TIMEOUT_S) as browser:
        yield browser


@pytest.fixture(scope="session")
def chromium(playwright):
    """Plain headless Debian Chromium through Playwright (no extension), for page scripts."""
    chromium_or_skip()
    browser = playwright.chromium.launch(executable_path=find_chromium(), args=list(CHROMIUM_FLAGS))
    yield browser
    browser.close()


# What an earlier module may leave in the extension's storage, and what reads it back: the
# shared browsers' tests check a module's fresh start empties it (Chromium and Firefox).
EARLIER_MODULE_JS = """async () => {
  const api = globalThis.browser ?? globalThis.chrome;
  await api.storage.local.set({siteRules: {'127.0.0.1': [{selector: '#x'}]}, readerPrefs: {theme: 'dark'}});
  await api.storage.session.set({'reader:1': {doc: 'left over'}});
}"""
STORAGE_JS = """async () => {
  const api = globalThis.browser ?? globalThis.chrome;
  return [await api.storage.local.get(null), await api.storage.session.get(null)];
}"""


@pytest.fixture(scope="session")
def chromium_with_pith(playwright, tmp_path_factory):
    """An ExtensionBrowser: Chromium with extension/ and the host registered by the real
    `pith install-host`, started once per worker and shared by the modules that drive Pith
    in Chromium. A module takes it through its reset(): a new tab under test, every other
    tab closed, the extension's storage emptied (NOTES.md, 'Why the suite shares browsers')."""
    chromium_or_skip()
    profile = registered_profile(tmp_path_factory, "chromium-pith-profile")
    with ExtensionBrowser(playwright, profile) as xb:
        yield xb


@pytest.fixture(scope="session")
def firefox_with_pith(tmp_path_factory):
    """(Firefox, extension UUID): firefox-esr with extension/ installed and the host
    registered under a HOME of its own, started once per worker and shared by the modules
    that drive Pith in Firefox. A module takes it through test_e2e_firefox.fresh_pith: a
    new page tab, every other tab closed, the extension's storage emptied (NOTES.md, 'Why
    the suite shares browsers')."""
    pytest.importorskip("websockets", reason="tests/bidi.py needs websockets (extra `test`)")
    from test_e2e_firefox import EXTENSION, firefox_or_skip, register_host, start_firefox
    firefox_or_skip()
    home = tmp_path_factory.mktemp("firefox-pith-home")
    register_host(home)
    ff, ext_uuid = start_firefox(home, EXTENSION)
    try:
        yield ff, ext_uuid
    finally:
        ff.close()


def registered_profile(tmp_path_factory, name: str) -> Path:
    """A new Chromium profile folder with the host registered by the real
    `pith install-host --browser chromium --user-data-dir DIR`."""
    profile = tmp_path_factory.mktemp(name)
    done = subprocess.run([sys.executable, "-m", "pith", "install-host", "--browser", "chromium",
                           "--user-data-dir", str(profile)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert (profile / "NativeMessagingHosts" / "dev.pith.host.json").is_file()
    return profile


# What starts a browser: a test (or one of its fixtures) that calls one of these, uses one of
# these fixtures, or is skipped without Chromium, is a browser test.
BROWSER_CALLS = frozenset({"chromium_or_skip", "find_chromium", "registered_profile",
                           "firefox_or_skip", "start_firefox", "ExtensionBrowser", "Browser"})
BROWSER_FIXTURES = frozenset({"pith_browser", "chromium", "playwright", "firefox_with_pith",
                              "chromium_with_pith"})


def starts_a_browser(item) -> bool:
    """Whether the test `item` starts a browser (BROWSER_CALLS, BROWSER_FIXTURES, a skip
    naming Chromium, or a browser / firefox mark of its own)."""
    if item.get_closest_marker("browser") or item.get_closest_marker("firefox"):
        return True
    if BROWSER_FIXTURES & set(item.fixturenames):
        return True
    if any("chromium" in str(m.kwargs.get("reason", "")).lower()
           for m in item.iter_markers("skipif")):
        return True
    funcs = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)     # a pytest Function's fixture closure
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        funcs.extend(d.func for d in defs)
    return any(BROWSER_CALLS & set(getattr(f, "__code__", None).co_names)
               for f in funcs if getattr(f, "__code__", None) is not None)


def pytest_collection_modifyitems(config, items):
    """Every test that starts a browser is marked `browser` (Firefox ones too), so
    `-m 'not browser'` leaves them all out."""
    for item in items:
        if starts_a_browser(item):
            item.add_marker(pytest.mark.browser)
