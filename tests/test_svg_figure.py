"""Inline SVG figures (extension/ui/svg-figure.js): only the allow-list's drawing survives, serialised as a data: image that cannot run or load anything.

The module is pure, so Node runs it (no browser): a hostile figure (every way an SVG can run
script or fetch something) goes through sanitizeSvg, and the serialised document, the
alt text and the size are checked. The end-to-end path is tests/test_e2e_formulas.py.
"""
from __future__ import annotations

import base64
import json
import subprocess

from conftest import ROOT

UI = ROOT / "extension" / "ui"

RUN = """
const m = await import(process.argv[1]);
const clean = m.sanitizeSvg(JSON.parse(process.argv[2]));
const img = clean ? m.svgImage(clean, process.argv[3]) : null;
console.log(JSON.stringify({clean, img, again: clean ? m.sanitizeSvg(clean) : null}));
"""

HOSTILE = {"t": "svg", "a": {"width": "300", "height": "150", "viewBox": "0 0 300 150",
                             "onload": "alert(1)", "style": "background:url(http://t.invalid/a)",
                             "xmlns:xlink": "http://www.w3.org/1999/xlink"},
           "c": [
               {"t": "script", "c": ["alert(1)"]},
               {"t": "style", "c": ["@import url(http://t.invalid/s.css)"]},
               {"t": "rect", "a": {"x": "10", "width": "50", "height": "50", "fill": "green", "onclick": "alert(2)"}},
               {"t": "circle", "a": {"r": "5", "fill": "url(http://t.invalid/p.svg#g)", "stroke": "url(#grad)"}},
               {"t": "foreignObject", "c": [{"t": "div", "c": ["FOREIGN"]}]},
               {"t": "image", "a": {"href": "http://t.invalid/i.png"}},
               {"t": "use", "a": {"href": "http://t.invalid/sprite.svg#a"}},
               {"t": "use", "a": {"xlink:href": "#shape", "x": "5"}},
               {"t": "a", "a": {"href": "javascript:alert(3)"}, "c": [{"t": "text", "c": ["LINK"]}]},
               {"t": "animate", "a": {"attributeName": "href", "to": "javascript:alert(4)"}},
               {"t": "set", "a": {"attributeName": "onclick", "to": "alert(5)"}},
               {"t": "text", "a": {"x": "1", "y": "9"}, "c": ["a < b & \"c\""]},
               {"t": "svg", "c": [{"t": "rect"}]},
               {"t": "g", "a": {"transform": "translate(1,2)"}, "c": [{"t": "path", "a": {"d": "M0 0L9 9"}}]},
           ]}


def run(node_tree: dict, caption: str = "") -> dict:
    done = subprocess.run(["node", "--input-type=module", "-e", RUN, str(UI / "svg-figure.js"),
                           json.dumps(node_tree), caption], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def document_of(src: str) -> str:
    head, _, data = src.partition(",")
    assert head == "data:image/svg+xml;base64"
    return base64.b64decode(data).decode("utf-8")


def test_a_hostile_figure_keeps_only_its_drawing():
    out = run(HOSTILE, "A caption")
    names = json.dumps(out["clean"])
    for gone in ("script", "style", "onload", "onclick", "foreignObject", "FOREIGN", '"image"',
                 "t.invalid", "javascript", '"t": "a"', "animate", '"set"', "xmlns:xlink"):
        assert gone not in names, gone
    kinds = [k["t"] for k in out["clean"]["c"] if isinstance(k, dict)]
    assert kinds == ["rect", "circle", "use", "use", "text", "g"]           # the nested svg goes
    assert out["clean"]["c"][1]["a"] == {"r": "5", "stroke": "url(#grad)"}   # external paint goes
    assert out["clean"]["c"][3]["a"] == {"href": "#shape", "x": "5"}          # a local reference stays
    assert out["again"] == out["clean"]                                       # sanitising is idempotent
    doc = document_of(out["img"]["a"]["src"]).replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in doc and "<script" not in doc
    assert "a &lt; b &amp; &quot;c&quot;" in doc
    assert out["img"]["a"]["alt"] == "A caption"
    assert (out["img"]["a"]["width"], out["img"]["a"]["height"]) == ("300", "150")


def test_alt_text_and_size():
    titled = {"t": "svg", "a": {"viewBox": "0 0 40 20"},
              "c": [{"t": "title", "c": ["  Sales\n by year "]}, {"t": "rect", "a": {"width": "4"}}]}
    out = run(titled, "ignored caption")
    assert out["img"]["a"]["alt"] == "Sales by year"
    assert (out["img"]["a"]["width"], out["img"]["a"]["height"]) == ("40", "20")
    bare = run({"t": "svg", "c": [{"t": "rect"}]})
    assert bare["img"]["a"]["alt"] == "Figure" and "width" not in bare["img"]["a"]
    assert run({"t": "svg", "c": [{"t": "script", "c": ["x"]}, "text only"]})["clean"] is None
