"""Formulas in a snapshot: which rows are formulas, displayed or inline, and their TeX (the page's own, else rebuilt from the MathML rows).

The capture writes a formula's TeX source and mode into the `alt` column of its `math` row
(SNAPSHOT.md): `\\(tex\\)` inline, `\\[tex\\]` displayed, the TeX empty when the page gives
none. A MathJax 2 `script type="math/tex"` that nothing typeset carries its formula the
same way. Where the TeX is empty it is rebuilt from the presentation MathML below the row,
by the rules of the reader's extension/ui/math.js (`mathmlTex`), from the same tables
(allowlist.json), so `pith extract -f markdown` and the reader's Markdown write the same
formula; tests/test_math.py holds the two equal.
"""
from __future__ import annotations

import re

import numpy as np

from . import allowlist
from .snapshot import Snapshot

_DELIMITED = re.compile(r"^\\([(\[])(.*)\\([)\]])$", re.S)
_WORD = re.compile(r"^(?:[A-Za-z0-9]|\\[A-Za-z]+)$")
_SPACES = re.compile(r"\s+")


def parse_alt(alt: str) -> tuple[bool, bool, str]:
    """(is a formula, displayed, TeX) of an `alt` value written by the capture."""
    m = _DELIMITED.match(alt or "")
    if not m or (m.group(1) == "(") != (m.group(3) == ")"):
        return False, False, ""
    return True, m.group(1) == "[", _SPACES.sub(" ", m.group(2)).strip()


def _modes(snap: Snapshot) -> np.ndarray:
    """[formula rows, displayed ones] as a (2, n) mask, computed once per snapshot: the
    block stage, the render masks and the renderers all ask. Only `math` and `script` rows
    are parsed (comparing the tag column costs a few ms on a million rows; np.isin on the
    object column cost 30 times more)."""
    def compute() -> np.ndarray:
        out = np.zeros((2, snap.n), np.bool_)
        out[0] = snap.tag == "math"
        for i in np.flatnonzero(out[0] | (snap.tag == "script")).tolist():
            ok, block, _ = parse_alt(snap.alt[i])
            out[0, i] |= ok
            out[1, i] = block
        return out
    return snap.memo(("formula_modes",), compute)


def formula_rows(snap: Snapshot) -> np.ndarray:
    """Rows that are formulas: `math` rows and MathJax 2 source scripts with a delimited alt."""
    return _modes(snap)[0].copy()


def displayed_rows(snap: Snapshot) -> np.ndarray:
    """Formula rows displayed as blocks."""
    return _modes(snap)[1].copy()


class _Rows:
    """The MathML below one formula row as a small tree (children per row), for `mathml_tex`."""

    def __init__(self, snap: Snapshot, root: int) -> None:
        self.snap = snap
        elements = set(allowlist.load()["mathml"]["elements"])
        self.kids: dict[int, list[int]] = {}
        stop = int(snap.end[root])
        parent = snap.parent[root + 1:stop].tolist()
        tags = snap.tag[root + 1:stop].tolist()
        skip_below: set[int] = set()
        for k, (p, t) in enumerate(zip(parent, tags)):
            row = root + 1 + k
            if p in skip_below or t not in elements:      # the reader's allow-list drops it
                skip_below.add(row)
                continue
            self.kids.setdefault(p, []).append(row)

    def text(self, i: int) -> str:
        parts = [self.snap.text[i]]
        for k in self.kids.get(i, []):
            parts.append(self.text(k))
            parts.append(self.snap.tail[k])
        return "".join(parts)


def _token(rows: _Rows, i: int, tag: str) -> str:
    tex = allowlist.load()["mathml"]["tex"]
    text = _SPACES.sub(" ", rows.text(i)).strip()
    if tag == "mi":
        if text in tex["mi"]:
            return tex["mi"][text]
        if text in tex["functions"]:
            return "\\" + text
        return f"\\mathrm{{{text}}}" if len(text) > 1 else text
    if tag == "mo":
        return tex["mo"].get(text, text)
    if tag == "mn":
        return text
    if tag == "ms":
        return f'\\text{{"{text}"}}'
    return f"\\text{{{text}}}" if text else ""


def _base(s: str) -> str:
    return s if _WORD.match(s) else "{" + s + "}"


def _tex(rows: _Rows, i: int) -> str:
    tag = rows.snap.tag[i]
    kids = rows.kids.get(i, [])

    def t(k: int) -> str:
        return _tex(rows, kids[k]) if k < len(kids) else ""

    def row(items: list[int]) -> str:
        return " ".join(s for s in (_tex(rows, k) for k in items) if s)

    if tag in ("mi", "mo", "mn", "ms", "mtext"):
        return _token(rows, i, tag)
    if tag in ("mspace", "annotation", "none", "mprescripts"):
        return ""
    if tag == "semantics":
        return t(0)
    if tag == "msup":
        return f"{_base(t(0))}^{{{t(1)}}}"
    if tag in ("msub", "munder"):
        return f"{_base(t(0))}_{{{t(1)}}}"
    if tag in ("msubsup", "munderover"):
        return f"{_base(t(0))}_{{{t(1)}}}^{{{t(2)}}}"
    if tag == "mover":
        return f"\\overset{{{t(1)}}}{{{t(0)}}}"
    if tag == "mfrac":
        return f"\\frac{{{t(0)}}}{{{t(1)}}}"
    if tag == "msqrt":
        return f"\\sqrt{{{row(kids)}}}"
    if tag == "mroot":
        return f"\\sqrt[{t(1)}]{{{t(0)}}}"
    if tag == "mtable":
        lines = [" & ".join(row(rows.kids.get(td, [])) for td in rows.kids.get(tr, []))
                 for tr in kids]
        return "\\begin{matrix}" + " \\\\ ".join(lines) + "\\end{matrix}"
    return row(kids)


def mathml_tex(snap: Snapshot, root: int) -> str:
    """TeX rebuilt from the MathML rows below `root` (extension/ui/math.js `mathmlTex`)."""
    return _SPACES.sub(" ", _tex(_Rows(snap, root), root)).strip()


def formula(snap: Snapshot, row: int) -> tuple[bool, str]:
    """(displayed, TeX) of formula row `row`: the page's TeX, else rebuilt from its MathML."""
    _, shown_block, tex = parse_alt(snap.alt[row])
    if not tex and snap.tag[row] == "math":
        tex = mathml_tex(snap, row)
    return shown_block, tex
