"""capture.js in real Chromium: recorded-snapshot parity, idempotence, flat tree, frames, hidden bits."""
from __future__ import annotations

import json
import math

import pytest

from conftest import PAGES
from pith.pages.browser import CAPTURE_JS

pytestmark = pytest.mark.browser

FIXTURES = sorted(p.name for p in PAGES.iterdir() if (p / "source.html").is_file())
GEOMETRY = ("x", "y", "w", "h")
# Top-level keys that vary from run to run or machine to machine (fonts change page height).
VOLATILE = {"capture_ms", "timings", "page"}
H_DISPLAY_NONE, H_VISIBILITY, H_OPACITY, H_ZERO_SIZE, H_ARIA = 1, 2, 4, 8, 16


def recorded(name: str) -> dict:
    return json.loads((PAGES / name / "snapshot.json").read_text(encoding="utf-8"))


def rows_by_id(snap: dict) -> dict[str, int]:
    return {v: i for i, v in enumerate(snap["nodes"]["id"]) if v}


def children(snap: dict, row: int) -> list[int]:
    return [i for i, p in enumerate(snap["nodes"]["parent"]) if p == row]


class Captures(dict):
    """{fixture page: its snapshot}, each page captured when a test first asks for it."""

    def __init__(self, browser):
        super().__init__()
        self.browser = browser

    def __missing__(self, name: str) -> dict:
        self[name] = snap = self.browser.capture(PAGES / name / "source.html")
        return snap


@pytest.fixture(scope="session")
def captured(pith_browser):
    """Each fixture page captured once per worker, when a test first needs it (a module
    fixture capturing them all ran again on every worker, and every time worksteal handed
    a worker more of this module)."""
    return Captures(pith_browser)


@pytest.mark.parametrize("name", FIXTURES)
def test_capture_matches_the_recorded_snapshot(captured, name):
    snap, want = captured[name], recorded(name)
    assert {k: v for k, v in snap.items() if k not in VOLATILE | {"nodes"}} == \
        {k: v for k, v in want.items() if k not in VOLATILE | {"nodes"}}
    assert snap["nodes"].keys() == want["nodes"].keys()
    for col, values in want["nodes"].items():
        if col not in GEOMETRY:
            assert snap["nodes"][col] == values, f"{name}: column {col} differs " \
                "(re-record with `python tests/fixtures/regen.py {name}` if intended)"


@pytest.mark.parametrize("name", FIXTURES)
def test_snapshot_shape_and_geometry_are_sane(captured, name):
    snap = captured[name]
    cols, n = snap["nodes"], snap["n"]
    assert snap["v"] == 1 and snap["layout"] is True and n > 0
    assert all(len(v) == n for v in cols.values())
    assert cols["parent"][0] == -1
    assert all(0 <= p < i for i, p in enumerate(cols["parent"]) if i)
    assert all(isinstance(v, (int, float)) and math.isfinite(v)
               for c in GEOMETRY for v in cols[c])
    body = cols["tag"].index("body")
    assert cols["w"][body] > 0 and cols["h"][body] > 0
    for i in range(n):
        assert cols["w"][i] >= 0 and cols["h"][i] >= 0
        if cols["hidden"][i] & H_DISPLAY_NONE:
            assert (cols["x"][i], cols["y"][i], cols["w"][i], cols["h"][i]) == (0, 0, 0, 0)
        if cols["w"][i] == 0 or cols["h"][i] == 0:
            assert cols["hidden"][i] & H_ZERO_SIZE or cols["tag"][i] == "slot"
    assert snap["viewport"] == [1280, 800]
    assert snap["page"][0] >= 1280 and snap["page"][1] > 0


def test_capture_is_idempotent_and_leaves_only_pith_behind(pith_browser):
    source = CAPTURE_JS.read_text(encoding="utf-8")
    keys = "Object.getOwnPropertyNames(globalThis).sort()"
    before, first, second, after, mapped = pith_browser.evaluate(
        PAGES / "shadow" / "source.html",
        [keys, source, source, keys,
         "globalThis.__pith.nodes.map(e => e.localName).join(' ')"])
    one, two = json.loads(first), json.loads(second)
    one.pop("capture_ms"), two.pop("capture_ms")
    assert one == two
    assert sorted(set(after) - set(before)) == ["__pith"]
    assert mapped == " ".join(one["nodes"]["tag"])


def test_shadow_root_and_slots_are_in_the_flat_tree(captured):
    snap = captured["shadow"]
    cols, ids = snap["nodes"], rows_by_id(snap)
    card = ids["card"]
    assert cols["text"][card] == "shadow text "         # the shadow root's own text
    (box,) = children(snap, card)                       # light children only via slots
    assert cols["tag"][box] == "div" and cols["cls"][box] == "card"
    h2, default_slot, price = children(snap, box)
    assert [cols["tag"][i] for i in (h2, default_slot, price)] == ["h2", "slot", "slot"]
    (named,) = children(snap, h2)
    (span,) = children(snap, named)
    assert cols["tag"][span] == "span" and cols["text"][span] == "Blue kettle"
    assert cols["fs"][span] == 24                       # styled as the h2 it is slotted into
    (p,) = children(snap, default_slot)
    assert cols["text"][p].startswith("Boils 1.7 litres")
    assert children(snap, price) == []                  # nothing assigned: its own content
    assert cols["text"][price] == "price on request"
    assert cols["w"][span] > 0 and not cols["hidden"][named] & H_ZERO_SIZE


def test_same_origin_frame_is_captured_and_others_are_flagged(captured):
    snap = captured["frames"]
    cols, ids = snap["nodes"], rows_by_id(snap)
    same, sandboxed, remote = ids["same"], ids["sandboxed"], ids["remote"]
    assert cols["frame"][same] == 1
    (html,) = children(snap, same)
    assert cols["tag"][html] == "html"
    inner = ids["inner"]
    assert cols["text"][inner] == "Inside the same-origin frame."
    # page coordinates: the frame's <html> starts inside its 5px border and 3px padding
    assert cols["x"][html] == pytest.approx(cols["x"][same] + 5 + 3, abs=0.05)
    assert cols["y"][html] == pytest.approx(cols["y"][same] + 5 + 3, abs=0.05)
    assert cols["x"][inner] == pytest.approx(cols["x"][html] + 8, abs=0.05)   # body margin
    assert cols["frame"][sandboxed] == 2 and cols["frame"][remote] == 2
    assert children(snap, sandboxed) == [] and children(snap, remote) == []
    assert cols["host"][remote] == "third-party.example.com"
    flagged = {w["node"]: w["code"] for w in snap["warnings"]}
    assert flagged == {sandboxed: "cross_origin_frame", remote: "cross_origin_frame"}


def test_hidden_bits_are_each_elements_own_state(captured):
    snap = captured["hidden"]
    cols, ids = snap["nodes"], rows_by_id(snap)
    bits = {k: cols["hidden"][i] for k, i in ids.items()}
    assert bits["shown"] == 0 and bits["last"] == 0
    assert bits["none"] == H_DISPLAY_NONE | H_ZERO_SIZE
    assert bits["none-child"] == H_ZERO_SIZE             # own state; consumers propagate
    assert bits["inline-none"] & H_DISPLAY_NONE and bits["attr"] & H_DISPLAY_NONE
    assert bits["vis"] == H_VISIBILITY and bits["vis-child"] == H_VISIBILITY
    assert bits["vis-back"] == 0
    assert bits["aria"] == H_ARIA
    assert bits["opacity"] == H_OPACITY
    assert bits["zero"] == H_ZERO_SIZE
    head = cols["tag"].index("head")
    assert cols["hidden"][head] & H_DISPLAY_NONE
    assert all(cols["text"][i] == "" for i, t in enumerate(cols["tag"]) if t == "style")


def test_article_columns(captured):
    snap = captured["article"]
    cols = snap["nodes"]
    assert snap["title"] == "How lichens survive the winter" and snap["lang"] == "en"
    img = cols["tag"].index("img")
    assert cols["alt"][img] == "Grey-green lichen on a birch branch"
    assert cols["url"][img] == "http://pith.invalid/images/lichen.png"
    assert (cols["w"][img], cols["h"][img]) == (320, 200)
    links = [i for i, v in enumerate(cols["link"]) if v]
    assert [cols["host"][i] for i in links] == ["pith.invalid", "en.wikipedia.org"]
    assert "tbody" in cols["tag"]                           # the browser inserts it
    code = cols["tag"].index("code")
    assert cols["text"][code].startswith('for line in open("log.txt"):\n    t, temp')
    h1 = cols["tag"].index("h1")
    assert (cols["fs"][h1], cols["fw"][h1]) == (32, 700)
    byline = cols["cls"].index("byline")                    # style.css, served beside the page
    assert cols["color"][byline] == "rgb(90, 90, 90)" and cols["fs"][byline] == 14
    # the text on both sides of a comment is one text of the <p>
    assert "The table below lists the lowest temperatures survived in the lab. Numbers are " \
        "in degrees Celsius." in cols["text"]


def test_aria_modal_without_a_role_is_a_dialog(captured):
    """aria-modal is defined only on dialogs: a page that forgets role="dialog" still
    declares one; an explicit role stays, aria-modal="false" declares nothing."""
    snap = captured["boilerplate"]
    rows = rows_by_id(snap)
    roles = {k: snap["nodes"]["role"][rows[k]] for k in ("cookie-modal", "alert-modal", "not-modal")}
    assert roles == {"cookie-modal": "dialog", "alert-modal": "alertdialog", "not-modal": ""}


def test_text_keeps_non_ascii_exactly(captured):
    cols = captured["unicode"]["nodes"]
    assert cols["text"][cols["tag"].index("h1")] == "Übersicht: Straße, Größe, Maß"
    joined = "".join(cols["text"])
    assert "中文：欢迎来到维基百科" in joined and "مرحبا بالعالم" in joined
    assert "🌍 🧪 e\u0301 n\u0303 & <tag> \xa0non-breaking." in joined
    legacy = captured["legacy-charset"]
    assert legacy["title"] == "Café crème"
    assert "Un café crème coûte 4,50 € ; l’été" in "".join(legacy["nodes"]["text"])


def test_capture_walks_10000_deep_source(pith_browser, tmp_path):
    """Chromium's parser stops nesting at 512 levels (deeper tags become siblings): the
    capture of 10,000 nested divs is complete and as deep as the DOM is."""
    page = tmp_path / "deep.html"
    page.write_text("<!doctype html><body>" + "<div>" * 10_000 + "bottom" + "</div>" * 10_000,
                    encoding="utf-8")
    snap = pith_browser.capture(page)
    cols = snap["nodes"]
    assert snap["n"] == 3 + 10_000 and cols["text"][-1] == "bottom"
    depth = [0] * snap["n"]
    for i in range(1, snap["n"]):
        depth[i] = depth[cols["parent"][i]] + 1
    assert max(depth) == 512


def test_capture_walks_a_deep_scripted_dom(pith_browser, tmp_path):
    """Scripts can nest deeper than the parser; Chromium's own layout crashes a bit past
    2,500 levels, so this is as deep as a real Chromium page gets."""
    page = tmp_path / "deep.html"
    page.write_text("<!doctype html><body><script>"
                    "let e = document.body;"
                    "for (let i = 0; i < 2500; i++) {"
                    "  const d = document.createElement('div'); e.appendChild(d); e = d; }"
                    "e.textContent = 'bottom';"
                    "</script>", encoding="utf-8")
    snap = pith_browser.capture(page)
    cols = snap["nodes"]
    assert snap["n"] == 4 + 2500                            # html head body script + divs
    assert cols["text"][-1] == "bottom" and cols["parent"][-1] == snap["n"] - 2


def test_page_json_hooks_neither_break_nor_lose_anything(pith_browser, tmp_path):
    """Prototype.js-era pages define Array.prototype.toJSON, which would turn every column
    into a string; capture.js sets such hooks aside while it serialises, then restores them."""
    page = tmp_path / "prototype.html"
    page.write_text("<script>Array.prototype.toJSON = function () { return 'arr'; };</script>"
                    "<p>x</p>", encoding="utf-8")
    first, after = pith_browser.evaluate(page, [CAPTURE_JS.read_text(encoding="utf-8"),
                                                "JSON.stringify([1])"])
    assert json.loads(first)["nodes"]["tag"] == ["html", "head", "script", "body", "p"]
    assert after == '"arr"'


def test_form_controls_cannot_derail_the_walk(pith_browser, tmp_path):
    """A form's controls shadow its DOM properties by name (DOM clobbering):
    <input name="nextSibling"> makes form.nextSibling the input. capture.js uses the
    prototypes' accessors, so the form and what follows it are still captured."""
    names = ("nextSibling", "firstChild", "getAttribute", "localName", "nodeType",
             "shadowRoot", "baseURI", "getBoundingClientRect")
    page = tmp_path / "clobber.html"
    page.write_text('<form id="f">' + "".join(f'<input name="{n}">' for n in names) +
                    '</form><p id="after">after</p>', encoding="utf-8")
    cols = pith_browser.capture(page)["nodes"]
    assert cols["tag"][3:] == ["form"] + ["input"] * len(names) + ["p"]
    assert cols["id"][3] == "f" and cols["text"][-1] == "after"


def test_a_capture_surely_over_the_send_limit_comes_back_as_too_large(pith_browser, tmp_path):
    """With __pith.sendLimit set (the extension sets it), a capture whose JSON is over the
    limit even after the longest cut of its texts answers {too_large} in place of the
    snapshot; one that fits once its long text is cut comes back whole; without a limit
    (the CLI) nothing changes."""
    page = tmp_path / "long.html"
    page.write_text("<!DOCTYPE html><html><body><p>" + "word " * 4000 + "</p></body></html>",
                    encoding="utf-8")
    source = CAPTURE_JS.read_text(encoding="utf-8")
    whole = json.loads(pith_browser.evaluate(page, [source])[0])
    size = len(json.dumps(whole, ensure_ascii=False, separators=(",", ":")))
    limits = [{"bytes": size // 2, "textChars": 10 ** 6},
              # the 20,000-character text cut to 100 leaves about 1,000 characters of JSON
              {"bytes": size // 2, "textChars": 100},
              {"bytes": size + 100, "textChars": 10 ** 6}]
    # one page: each limit set in __pith (which the first capture made), then a capture
    script = [source]
    for limit in limits:
        script += ["globalThis.__pith.sendLimit = %s, 0" % json.dumps(limit), source]
    over, fits, under = (json.loads(r) for r in pith_browser.evaluate(page, script)[2::2])
    assert set(over) == {"v", "n", "too_large"}
    assert over["n"] == whole["n"] and over["too_large"]["limit"] == size // 2
    # nothing to cut: the bound is that capture's own JSON length, which differs from the
    # first capture's only in the digits of its capture_ms
    assert size // 2 < over["too_large"]["at_least"]
    assert abs(over["too_large"]["at_least"] - size) <= 8
    assert fits["n"] == whole["n"] and "too_large" not in fits
    assert under["n"] == whole["n"] and "too_large" not in under
