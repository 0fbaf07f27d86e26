"""Formulas: the reader's math.js and the CLI's pipeline/math.py give the same TeX; the MathML allow-list keeps nothing else; the snapshot's formula alt.

The parity corpus is MathML as pages write it. math.js runs in Node (the module is pure):
each <math> is parsed with jsdom (tests/node_modules), turned into a payload node as the
collector copies it, then sanitizeMath + formulaTex; math.py reads the same page's static
snapshot. Both must write the same TeX, the page's own (an x-tex annotation) or rebuilt.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from conftest import ROOT
from pith.pages.static import snapshot_of_html
from pith.pipeline import math as math_mod
from pith.pipeline.render import to_markdown
from pith.pipeline.features import compute

UI = ROOT / "extension" / "ui"
JSDOM = ROOT / "tests" / "node_modules" / "jsdom"

CORPUS = [
    "<math><mi>x</mi></math>",
    "<math><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup><mo>=</mo><msup><mi>c</mi><mn>2</mn></msup></math>",
    "<math display='block'><mi>c</mi><mo>=</mo><msqrt><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup></msqrt></math>",
    "<math><mfrac><mrow><mn>1</mn><mo>+</mo><msqrt><mn>5</mn></msqrt></mrow><mn>2</mn></mfrac></math>",
    "<math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup></math>",
    "<math><mi>sin</mi><mo>⁡</mo><mi>θ</mi><mo>≤</mo><mn>1</mn><mo>,</mo><mi>α</mi><mo>∈</mo><mi>ℝ</mi></math>",
    "<math><mroot><mi>x</mi><mn>3</mn></mroot><mover><mi>v</mi><mo>→</mo></mover><mtext>if positive</mtext></math>",
    "<math><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>",
    "<math><mi>speed</mi><mo>=</mo><mfrac><mi>d</mi><mi>t</mi></mfrac><maction><mtext>dropped</mtext></maction></math>",
    "<math><semantics><mrow><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup></mrow>"
    "<annotation encoding='application/x-tex'>e^{i\\pi}</annotation></semantics></math>",
    "<math display='block'><semantics><mi>x</mi><annotation encoding='text/plain'>x</annotation></semantics></math>",
]

NODE_TEX = """
import { createRequire } from 'node:module';
const require = createRequire(process.argv[1] + '/');
const { JSDOM } = require('jsdom');
const { sanitizeMath, formulaTex, isDisplayed } = await import(process.argv[2]);
const toNode = (el) => {
  const a = {};
  for (const at of el.attributes) a[at.name] = at.value;
  const c = [];
  for (const k of el.childNodes) {
    if (k.nodeType === 3) c.push(k.data);
    else if (k.nodeType === 1) c.push(toNode(k));
  }
  return { t: el.localName, a, c };
};
const out = [];
for (const html of JSON.parse(process.argv[3])) {
  const doc = new JSDOM(`<p>${html}</p>`).window.document;
  const clean = sanitizeMath(toNode(doc.querySelector('math')));
  out.push([isDisplayed(clean), formulaTex(clean)]);
}
console.log(JSON.stringify(out));
"""

NODE_SANITIZE = """
const { sanitizeMath } = await import(process.argv[1]);
console.log(JSON.stringify(sanitizeMath(JSON.parse(process.argv[2]))));
"""


def node(script: str, *args: str) -> object:
    done = subprocess.run(["node", "--input-type=module", "-e", script, *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def python_formulas(html: str) -> list[tuple[bool, str]]:
    snap = snapshot_of_html(f"<!DOCTYPE html><p>{html}</p>", "http://example.org/", 10_000)
    rows = [i for i in range(snap.n) if snap.tag[i] == "math"]
    return [math_mod.formula(snap, i) for i in rows]


def test_reader_and_cli_write_the_same_tex():
    js = node(NODE_TEX, str(JSDOM), str(UI / "math.js"), json.dumps(CORPUS))
    py = [python_formulas(html)[0] for html in CORPUS]
    assert [tuple(x) for x in js] == py
    assert py[1] == (False, "a^{2} + b^{2} = c^{2}")
    assert py[2] == (True, "c = \\sqrt{a^{2} + b^{2}}")
    assert py[5] == (False, "\\sin \\theta \\le 1 , \\alpha \\in ℝ")
    assert py[8] == (False, "\\mathrm{speed} = \\frac{d}{t}")          # maction is not kept
    assert py[9] == (False, "e^{i\\pi}")                                # the page's own TeX


def test_the_mathml_allow_list_keeps_nothing_else():
    hostile = {"t": "math", "a": {"display": "block", "onclick": "x()", "href": "javascript:x()",
                                  "style": "background:url(http://t.invalid/)", "alttext": "a (b)"},
               "c": [{"t": "mi", "a": {"mathvariant": "bold", "mathcolor": "red", "id": "z"}, "c": ["x"]},
                     {"t": "mstyle", "a": {"mathsize": "url(http://t.invalid/)"}, "c": [{"t": "mo", "c": ["="]}]},
                     {"t": "annotation-xml", "a": {"encoding": "text/html"}, "c": [{"t": "img", "a": {"src": "http://t.invalid/"}}]},
                     {"t": "maction", "c": [{"t": "mtext", "c": ["toggle"]}]},
                     {"t": "mglyph", "a": {"src": "http://t.invalid/g.png"}},
                     {"t": "script", "c": ["alert(1)"]},
                     {"t": "math", "c": [{"t": "mi", "c": ["nested"]}]},
                     {"t": "mtext", "c": ["<b>text</b>"]}]}
    clean = node(NODE_SANITIZE, str(UI / "math.js"), json.dumps(hostile))
    assert clean == {"t": "math", "a": {"display": "block", "alttext": "a (b)"},
                     "c": [{"t": "mi", "a": {"mathvariant": "bold"}, "c": ["x"]},
                           {"t": "mstyle", "a": {}, "c": [{"t": "mo", "a": {}, "c": ["="]}]},
                           {"t": "mtext", "a": {}, "c": ["<b>text</b>"]}]}
    assert node(NODE_SANITIZE, str(UI / "math.js"), json.dumps({"t": "math", "c": [{"t": "script"}]})) is None


@pytest.mark.parametrize("alt, want", [
    ("\\(x^2\\)", (True, False, "x^2")),
    ("\\[ e = mc^2 \\]", (True, True, "e = mc^2")),
    ("\\(\\)", (True, False, "")),
    ("\\(x\\]", (False, False, "")),
    ("x^2", (False, False, "")),
    ("", (False, False, "")),
])
def test_the_snapshot_alt_of_a_formula(alt, want):
    assert math_mod.parse_alt(alt) == want


def test_static_snapshots_write_the_formula_alt_as_the_capture_does():
    html = ("<p>a <math><semantics><mi>x</mi><annotation encoding='application/x-tex'>x_1</annotation>"
            "</semantics></math> <span class='katex-display'><math><mi>y</mi></math></span>"
            "<script type='math/tex; mode=display' id='MathJax-Element-9'>\\int f</script></p>")
    snap = snapshot_of_html(html, "http://example.org/", 10_000)
    alts = [(snap.tag[i], snap.alt[i]) for i in range(snap.n) if snap.tag[i] in ("math", "script")]
    assert alts == [("math", "\\(x_1\\)"), ("math", "\\[\\]"), ("script", "\\[\\int f\\]")]


def test_cli_markdown_puts_a_displayed_formula_on_its_own_lines():
    html = ("<article><p>Before the formula <math display='block'><mi>x</mi><mo>=</mo><mn>1</mn></math> "
            "and after it, with <math><mi>y</mi></math> inline.</p></article>")
    snap = snapshot_of_html(html, "http://example.org/", 10_000)
    root = next(i for i in range(snap.n) if snap.tag[i] == "article")
    md = to_markdown(snap, compute(snap), [root])
    assert md == "Before the formula\n\n$$\nx = 1\n$$\n\nand after it, with $y$ inline."
