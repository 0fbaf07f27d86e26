"""Tests of measure/scale.py: the synthetic pages of `pith bench --scale` and its table."""
from __future__ import annotations

import json
from argparse import Namespace

import lxml.html
import pytest

from pith.measure import scale


@pytest.mark.parametrize("size", [1_000, 10_000])
def test_a_synthetic_page_holds_about_the_elements_asked(size):
    n = sum(1 for _ in lxml.html.fromstring(scale.synthetic_page(size)).iter())
    assert 0.9 * size <= n <= 1.1 * size


def test_pages_of_every_size_are_the_same_family():
    small, large = scale.synthetic_page(1_000), scale.synthetic_page(10_000)
    assert small.count("<section>") * 9 < large.count("<section>") < small.count("<section>") * 11
    assert small.count("<ul>") * 9 < large.count("<ul>") < small.count("<ul>") * 11


def test_the_smallest_page_still_has_an_article_and_a_sidebar():
    page = scale.synthetic_page(1)
    assert page.count("<section>") == 1 and page.count("<ul>") == 1


def test_the_static_table_chooses_the_article_at_every_size(monkeypatch, capsys):
    monkeypatch.setattr(scale, "SCALE_SIZES", (500, 2_000))
    monkeypatch.setattr(scale, "HOST_REPEATS", 1)
    assert scale.main(Namespace(static=True, timeout=30, json=True)) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["mode"] for r in rows] == ["static", "static"]
    assert rows[0]["elements"] < rows[1]["elements"]
    for r in rows:
        assert r["chosen"].split()[0] in ("article", "main"), r["chosen"]
        assert r["host_ms"] > 0 and r["snapshot_mb"] > 0


def test_the_text_table_has_a_row_a_size(monkeypatch, capsys):
    monkeypatch.setattr(scale, "SCALE_SIZES", (500,))
    monkeypatch.setattr(scale, "HOST_REPEATS", 1)
    assert scale.main(Namespace(static=True, timeout=30, json=False)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["mode", "elements"]
    assert len(lines) == 2 and lines[1].startswith("static")
