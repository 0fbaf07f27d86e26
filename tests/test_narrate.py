"""Read aloud (extension/ui/narrate.js) in the real reader page of Chromium and Firefox, with the Web Speech API replaced by a recording fake.

tests/fixtures/speech/fake_speech.js is put into every page before its own scripts run in
Chromium (Playwright's add_init_script). Firefox runs no BiDi preload script in extension
pages (they live in the extension process, out of reach of the parent's observers too), so
there the fake replaces the API as soon as the page has loaded; narrate.js looks the API up
at each use and fills its voice menu again after VOICE_WAIT_MS, so the fake is what
speaks and what the menu lists in both browsers. The fake queues what speechSynthesis.speak() gets, starts the first utterance, and lets the test
end it or send a word boundary. One Chromium for the module (its context carries the fake)
and the worker's shared Firefox (conftest's firefox_with_pith); each test
puts a content payload in storage.session and opens ui/reader.html?tab=N, as the
background does (no native host is involved). A run with a real voice needs one installed
(speech-dispatcher and espeak-ng on Linux); the machine these tests were written on has
none, so there is no real-voice test here.
"""
from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import pytest

from conftest import ROOT, chromium_or_skip
from pith.pages.extension import ExtensionBrowser

FAKE = (ROOT / "tests" / "fixtures" / "speech" / "fake_speech.js").read_text(encoding="utf-8")
WAIT_S = 10.0
POLL_S = 0.05
_tabs = itertools.count(920_001)

PARAGRAPHS = [
    "The tide comes in twice a day. Nobody quite believes it the first time.",
    "Harbour masters keep the tables. They are printed a year ahead!",
    "A third paragraph closes the piece.",
]
PAYLOAD = {"v": 1, "title": "Tides, read aloud", "lang": "en",
           "tree": [{"t": "p", "c": [p]} for p in PARAGRAPHS]}
# Long enough that the last paragraph starts well below the first screen.
LONG = {"v": 1, "title": "A long read", "lang": "en",
        "tree": [{"t": "p", "c": [f"Paragraph {k} has some words. " * 12]} for k in range(40)]}

STATE_JS = """() => {
  const h = (name) => { const x = window.CSS && CSS.highlights && CSS.highlights.get(name);
                        return x ? [...x].map(r => r.toString()) : []; };
  return {narration: pithReader.narration(), current: __fakeSpeech.current(),
          queued: __fakeSpeech.queued(), calls: __fakeSpeech.calls,
          sentence: h('pith-sentence'), word: h('pith-word'),
          panel: !document.getElementById('narrate').hidden,
          status: document.getElementById('status').textContent,
          violations: pithReader.violations};
}"""


class Reader:
    """One reader tab, whichever the browser: run JS in it, press keys, click, close."""

    def __init__(self, run, press, close):
        self.run, self.press, self.close = run, press, close

    def state(self) -> dict:
        return self.run(STATE_JS)

    def click(self, selector: str) -> None:
        self.run(f"() => document.querySelector({json.dumps(selector)}).click()")

    def wait(self, predicate, what: str) -> dict:
        deadline = time.monotonic() + WAIT_S
        while True:
            st = self.state()
            if predicate(st):
                return st
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {WAIT_S} s; state {st}")
            time.sleep(POLL_S)


# --- the two browsers -------------------------------------------------------------------------
class ChromiumSide:
    def __init__(self, xb: ExtensionBrowser):
        self.xb = xb

    def prefs(self, value: dict | None = None):
        if value is None:
            return self.xb.ext_eval("async () => (await chrome.storage.local.get('readerPrefs')).readerPrefs ?? null")
        return self.xb.ext_eval("(p) => chrome.storage.local.set({readerPrefs: p})", value)

    def clear_prefs(self) -> None:
        self.xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")

    def open(self, payload: dict, fragment: str = "") -> Reader:
        tab = next(_tabs)
        self.xb.ext_eval("([k, p]) => chrome.storage.session.set({[k]: p})", [f"reader:{tab}", payload])
        page = self.xb.context.new_page()
        page.goto(f"chrome-extension://{self.xb.id}/ui/reader.html?tab={tab}{fragment}")
        page.wait_for_function("() => window.pithReader && window.pithReader.shownAt", timeout=WAIT_S * 1000)
        keys = {" ": "Space"}
        return Reader(lambda js, arg=None: page.evaluate(js, arg),
                      lambda key: page.keyboard.press(keys.get(key, key)), page.close)



class FirefoxSide:
    def __init__(self, ff, ext_uuid: str, ext_ctx: str):
        self.ff, self.uuid, self.ext = ff, ext_uuid, ext_ctx

    def prefs(self, value: dict | None = None):
        if value is None:
            return self.ff.call(self.ext, "async () => (await browser.storage.local.get('readerPrefs')).readerPrefs ?? null")
        return self.ff.call(self.ext, "(p) => browser.storage.local.set({readerPrefs: p})", value)

    def clear_prefs(self) -> None:
        self.ff.call(self.ext, "() => browser.storage.local.remove('readerPrefs')")

    def open(self, payload: dict, fragment: str = "") -> Reader:
        tab = next(_tabs)
        self.ff.call(self.ext, "(k, p) => browser.storage.session.set({[k]: p})", f"reader:{tab}", payload)
        ctx = self.ff.new_tab()
        self.ff.navigate(ctx, f"moz-extension://{self.uuid}/ui/reader.html?tab={tab}{fragment}")
        self.ff.call(ctx, "() => {\n" + FAKE + "\n}")
        deadline = time.monotonic() + WAIT_S
        while not self.ff.evaluate(ctx, "!!(window.pithReader && window.pithReader.shownAt)"):
            if time.monotonic() > deadline:
                pytest.fail("the reader did not render in Firefox")
            time.sleep(POLL_S)

        def run(js, arg=None):
            return self.ff.call(ctx, js) if arg is None else self.ff.call(ctx, js, arg)

        def press(key):
            value = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "Escape": "\ue00c"}.get(key, key)
            self.ff.send("input.performActions", {"context": ctx, "actions": [{
                "type": "key", "id": "keyboard",
                "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]}]})

        return Reader(run, press, lambda: self.ff.send("browsingContext.close", {"context": ctx}))


@pytest.fixture(scope="module")
def chromium_side(playwright, tmp_path_factory):
    chromium_or_skip()
    with ExtensionBrowser(playwright, tmp_path_factory.mktemp("narrate-chromium")) as xb:
        xb.context.add_init_script(FAKE)
        yield ChromiumSide(xb)


@pytest.fixture(scope="module")
def firefox_side(firefox_with_pith):
    """The worker's shared Firefox with the extension, as a fresh start leaves it (fresh_pith)."""
    from test_e2e_firefox import fresh_pith
    pith = fresh_pith(firefox_with_pith)
    return FirefoxSide(pith.ff, firefox_with_pith[1], pith.ext)


@pytest.fixture(params=["chromium", pytest.param("firefox", marks=pytest.mark.firefox)])
def side(request):
    s = request.getfixturevalue(f"{request.param}_side")
    s.clear_prefs()
    yield s
    s.clear_prefs()


@pytest.fixture
def reader(side):
    r = side.open(PAYLOAD)
    yield r
    r.close()


def speaks(st: dict) -> list[dict]:
    return [c for c in st["calls"] if c["call"] == "speak"]


# --- the tests ----------------------------------------------------------------------------------
pytestmark = pytest.mark.browser


def test_each_sentence_is_one_utterance_queued_per_paragraph(reader):
    reader.click("#narrate-open")
    st = reader.wait(lambda s: s["current"] == "Tides, read aloud", "the title spoken first")
    assert st["panel"] and st["narration"]["mode"] == "playing"
    reader.run("() => __fakeSpeech.end()")
    st = reader.wait(lambda s: s["current"] == "The tide comes in twice a day.", "the first paragraph")
    assert st["queued"] == ["Nobody quite believes it the first time."]     # its other sentence, queued
    assert [c["text"] for c in speaks(st)] == ["Tides, read aloud", "The tide comes in twice a day.",
                                               "Nobody quite believes it the first time."]
    # by default a voice on the machine for the page's language (en) reads, at the normal rate
    assert all(c["voice"] == "fake-en" and c["lang"] == "en-US" and c["rate"] == 1 for c in speaks(st))
    assert st["violations"] == 0


def test_the_highlight_follows_start_boundary_and_end(reader):
    reader.click("#narrate-open")
    reader.wait(lambda s: s["current"] == "Tides, read aloud", "started")    # narrate.js loads first
    reader.run("() => __fakeSpeech.end()")
    st = reader.wait(lambda s: s["sentence"] == ["The tide comes in twice a day."], "the sentence marked")
    assert st["word"] == []
    reader.run("() => __fakeSpeech.boundary(4, 4)")                       # "tide"
    st = reader.wait(lambda s: s["word"] == ["tide"], "the word at the boundary marked")
    reader.run("() => __fakeSpeech.boundary(9, 0)")                       # "comes", no length given
    reader.wait(lambda s: s["word"] == ["comes"], "the next word marked")
    reader.run("() => __fakeSpeech.end()")
    st = reader.wait(lambda s: s["sentence"] == ["Nobody quite believes it the first time."],
                     "the mark moved to the next sentence")
    assert st["word"] == []
    # the paragraph's last sentence ends: the next paragraph is queued and marked
    reader.run("() => __fakeSpeech.end()")
    reader.wait(lambda s: s["sentence"] == ["Harbour masters keep the tables."], "the next paragraph")


def test_pause_resume_and_skip_by_paragraph_with_the_keys(reader):
    reader.click("#narrate-open")
    reader.wait(lambda s: s["current"] == "Tides, read aloud", "started")
    reader.run("() => document.activeElement.blur()")
    reader.press(" ")
    st = reader.wait(lambda s: s["narration"]["mode"] == "paused", "Space pauses")
    assert st["calls"][-1] == {"call": "pause"}
    reader.press(" ")
    st = reader.wait(lambda s: s["narration"]["mode"] == "playing", "Space resumes")
    assert st["calls"][-1] == {"call": "resume"}
    reader.press("ArrowRight")
    st = reader.wait(lambda s: s["current"] == "The tide comes in twice a day.", "→ skips to the next paragraph")
    reader.press("ArrowRight")
    st = reader.wait(lambda s: s["current"] == "Harbour masters keep the tables.", "→ again")
    assert {"call": "cancel"} in st["calls"]
    reader.press("ArrowLeft")
    reader.wait(lambda s: s["current"] == "The tide comes in twice a day.", "← goes back a paragraph")
    reader.click("#narrate-next")
    reader.wait(lambda s: s["current"] == "Harbour masters keep the tables.", "the ⏭ button")
    reader.press("Escape")
    st = reader.wait(lambda s: s["narration"]["mode"] == "idle", "Escape stops")
    assert st["current"] is None and st["sentence"] == [] and not st["panel"]


def test_speed_and_voice_are_remembered_with_the_reader_settings(side):
    first = side.open(PAYLOAD)
    try:
        first.click("#narrate-open")
        first.wait(lambda s: s["current"] == "Tides, read aloud", "started")
        first.run("""() => { const r = document.getElementById('narrate-rate'); r.value = '1.5';
                             r.dispatchEvent(new Event('change')); }""")
        st = first.wait(lambda s: speaks(s)[-1]["rate"] == 1.5, "the new speed speaks at once")
        first.wait(lambda s: first.run("() => [...document.getElementById('narrate-voice').options]"
                                       ".map(o => o.value).includes('fake-fr')"), "the voice menu lists the voices")
        first.run("""() => { const v = document.getElementById('narrate-voice'); v.value = 'fake-fr';
                             v.dispatchEvent(new Event('change')); }""")
        st = first.wait(lambda s: speaks(s)[-1]["voice"] == "fake-fr", "the chosen voice speaks")
        assert speaks(st)[-1]["lang"] == "fr-FR" and speaks(st)[-1]["rate"] == 1.5
        deadline = time.monotonic() + WAIT_S
        while (side.prefs() or {}).get("voice") != "fake-fr" and time.monotonic() < deadline:
            time.sleep(POLL_S)
        saved = side.prefs()
        assert saved["rate"] == 1.5 and saved["voice"] == "fake-fr"
        assert saved["theme"] == "light"                   # saved beside the other settings
    finally:
        first.close()
    again = side.open(PAYLOAD)
    try:
        again.click("#narrate-open")                # the bar opens on the remembered settings
        st = again.wait(lambda s: speaks(s), "speaking")
        assert speaks(st)[0]["voice"] == "fake-fr" and speaks(st)[0]["rate"] == 1.5
        read = "() => [document.getElementById('narrate-rate').value, document.getElementById('narrate-voice').value]"
        deadline = time.monotonic() + WAIT_S        # the voice menu is filled once voices are known
        while again.run(read) != ["1.5", "fake-fr"] and time.monotonic() < deadline:
            time.sleep(POLL_S)
        assert again.run(read) == ["1.5", "fake-fr"]
    finally:
        again.close()


def test_another_reader_starting_stops_this_one(side):
    a, b = side.open(PAYLOAD), side.open(PAYLOAD)
    try:
        a.click("#narrate-open")
        a.wait(lambda s: s["narration"]["mode"] == "playing", "A reads")
        b.click("#narrate-open")
        b.wait(lambda s: s["narration"]["mode"] == "playing", "B reads")
        st = a.wait(lambda s: s["narration"]["mode"] == "idle", "A stopped when B started")
        assert st["calls"][-1] == {"call": "cancel"} and st["sentence"] == []
    finally:
        a.close()
        b.close()


def test_the_spoken_sentence_is_kept_in_view(side):
    r = side.open(LONG)
    try:
        r.click("#narrate-open")
        r.wait(lambda s: s["narration"]["mode"] == "playing", "reading")
        for _ in range(30):
            r.press("ArrowRight")
        r.wait(lambda s: s["current"] and s["current"].startswith("Paragraph 29 "), "paragraph 29")
        deadline = time.monotonic() + WAIT_S
        while True:
            box = r.run("""() => { const h = CSS.highlights.get('pith-sentence');
                const rect = [...h][0].getBoundingClientRect();
                return [rect.top, rect.bottom, innerHeight, document.getElementById('toolbar').getBoundingClientRect().bottom]; }""")
            top, bottom, height, bar = box
            if top >= bar and bottom <= height:
                break
            if time.monotonic() > deadline:
                pytest.fail(f"the spoken sentence is out of view: {box}")
            time.sleep(POLL_S)
    finally:
        r.close()


def test_without_voices_it_says_how_to_get_one(side):
    r = side.open(PAYLOAD, "#no-voices")
    try:
        r.click("#narrate-open")
        st = r.wait(lambda s: "speech-dispatcher" in s["status"], "the no-voice message")
        assert "espeak-ng" in st["status"] and speaks(st) == [] and st["narration"]["mode"] == "idle"
    finally:
        r.close()


def test_leaving_the_page_stops_the_voice(reader):
    reader.click("#narrate-open")
    reader.wait(lambda s: s["narration"]["mode"] == "playing", "reading")
    # what the browser fires when the tab closes or navigates away
    reader.run("() => window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: false}))")
    st = reader.wait(lambda s: s["narration"]["mode"] == "idle", "stopped on pagehide")
    assert st["calls"][-1] == {"call": "cancel"} and st["current"] is None
