"""Tests of pages/extension.py: the extension's id, Chromium's flags, the worker cache, and the driver's element walk against capture.js's."""
from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from pith.pages import extension
from pith.pages.browser import CHROMIUM_FLAGS
from pith.pipeline.snapshot import from_json

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"
CHROME_HOST = Path(extension.__file__).resolve().parents[1] / "native" / "chrome.json"


def test_the_id_is_the_manifest_keys_digest_in_letters_a_to_p(tmp_path):
    key = base64.b64encode(b"a public key, as DER bytes").decode()
    (tmp_path / "manifest.json").write_text(json.dumps({"key": key}))
    digest = hashlib.sha256(b"a public key, as DER bytes").hexdigest()[:32]
    assert extension.extension_id(tmp_path) == digest.translate(
        str.maketrans("0123456789abcdef", "abcdefghijklmnop"))


def test_the_shipped_extensions_id_is_the_one_the_host_lets_in():
    origins = json.loads(CHROME_HOST.read_text())["allowed_origins"]
    assert origins == [f"chrome-extension://{extension.extension_id()}/"]


def test_chromium_is_started_with_the_design_flags_and_only_this_extension(tmp_path):
    args = extension.launch_args(tmp_path)
    assert args[:len(CHROMIUM_FLAGS)] == list(CHROMIUM_FLAGS)
    assert f"--load-extension={tmp_path}" in args
    assert f"--disable-extensions-except={tmp_path}" in args
    assert "--enable-unsafe-extension-debugging" in args       # Extensions.triggerAction
    assert (extension.EXTENSION_DIR / "manifest.json").is_file()


def test_dropping_the_cached_worker_keeps_the_rest_of_the_profile(tmp_path):
    worker = tmp_path / "Default" / "Service Worker" / "ScriptCache"
    worker.mkdir(parents=True)
    (worker / "index").write_text("old background code")
    (tmp_path / "Default" / "Preferences").write_text("{}")
    extension.drop_cached_worker(tmp_path)
    assert not (tmp_path / "Default" / "Service Worker").exists()
    assert (tmp_path / "Default" / "Preferences").read_text() == "{}"
    extension.drop_cached_worker(tmp_path)          # nothing to drop: no error
    extension.drop_cached_worker(tmp_path / "never-made")


@pytest.mark.browser
@pytest.mark.parametrize("name", ["shadow", "frames"])
def test_the_drivers_walk_finds_every_element_capture_js_numbered(name, pith_browser, chromium):
    """The tests read overlays and texts by a snapshot path: ELEMENT_AT_PATH_JS must walk the
    tree capture.js walked (open shadow roots, slots, same-origin frames, no svg insides)."""
    source = FIXTURES / name / "source.html"
    snap = from_json(pith_browser.capture(source), 100_000)
    page = chromium.new_page()
    try:
        page.goto(source.as_uri())
        page.wait_for_load_state("load")
        got = page.evaluate(
            f"(paths) => paths.map((p) => {{ const el = ({extension.ELEMENT_AT_PATH_JS})(p);"
            " return el ? el.localName : null; })", snap.paths(range(snap.n)))
    finally:
        page.close()
    tags = [str(t) for t in snap.tag]
    assert len(tags) > 10
    if name == "frames":                            # a framed document's rows are walked too
        assert tags.count("html") >= 2
    missing = [(i, t, g) for i, (t, g) in enumerate(zip(tags, got)) if t != g]
    assert not missing, missing[:5]
