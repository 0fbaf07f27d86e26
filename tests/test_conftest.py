"""tests/conftest.py: which tests count as browser tests (left out by -m 'not browser')."""
from types import SimpleNamespace

import pytest

import conftest


def fake_item(function, fixtures=None, marks=()):
    """The little of a pytest item that starts_a_browser reads."""
    fixtures = fixtures or {}
    marks = list(marks)
    return SimpleNamespace(
        function=function, fixturenames=list(fixtures),
        _fixtureinfo=SimpleNamespace(name2fixturedefs={
            name: (SimpleNamespace(func=func),) for name, func in fixtures.items()}),
        get_closest_marker=lambda name: next((m for m in marks if m.name == name), None),
        iter_markers=lambda name: (m for m in marks if m.name == name))


def calls_chromium():
    conftest.chromium_or_skip()


def makes_a_profile(tmp_path_factory):
    return conftest.registered_profile(tmp_path_factory, "p")


def plain(tmp_path):
    return tmp_path


def test_a_test_that_asks_for_chromium_is_a_browser_test():
    assert conftest.starts_a_browser(fake_item(calls_chromium))


def test_a_test_whose_fixture_starts_a_browser_is_a_browser_test():
    assert conftest.starts_a_browser(fake_item(plain, {"profile": makes_a_profile}))
    assert conftest.starts_a_browser(fake_item(plain, {"pith_browser": plain}))


def test_a_test_skipped_without_chromium_is_a_browser_test():
    mark = pytest.mark.skipif(False, reason="Debian chromium not installed").mark
    assert conftest.starts_a_browser(fake_item(plain, marks=[mark]))


def test_a_plain_test_is_not_a_browser_test():
    """A fixture merely named like Playwright's page is not a browser (test_reader's is a
    selection); only what it calls counts."""
    assert not conftest.starts_a_browser(fake_item(plain, {"page": plain, "tmp_path": plain}))
    firefox = pytest.mark.firefox.mark
    assert conftest.starts_a_browser(fake_item(plain, marks=[firefox]))


def test_this_session_marked_the_browser_modules(request):
    """The hook ran on this session: the tests of a browser module are marked, these not."""
    items = request.session.items
    locate = [i for i in items if i.module.__name__ == "test_locate"]
    mine = [i for i in items if i.module.__name__ == "test_conftest"]
    assert all(i.get_closest_marker("browser") for i in locate)
    assert mine and not any(i.get_closest_marker("browser") for i in mine)
