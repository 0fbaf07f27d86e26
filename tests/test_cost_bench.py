"""`pith bench --metadata --cost`: select timed with and without the metadata and page type."""
import json
import time
from argparse import Namespace

import pytest

from builders import make_snapshot
from pith.measure import cost_bench
from pith.pipeline import pagetype
from pith.pipeline.metadata import merge
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json
from test_train_pagetype import LONG, tiny_dataset


def page():
    return from_json(make_snapshot([
        ("html", -1), ("body", 0), ("article", 1),
        ("h1", 2, {"text": "A title"}), ("p", 2, {"text": LONG}), ("p", 2, {"text": LONG}),
    ], url="https://news.example/2024/05/a-title", title="A title"), 1000)


def test_without_the_stages_select_has_no_metadata_or_page_type_and_they_come_back():
    real = merge.compute, pagetype.classify
    with cost_bench.stages(None):
        sel = select(page())
        assert sel.metadata is None and sel.page_type is None
    assert (merge.compute, pagetype.classify) == real
    sel = select(page())
    assert sel.metadata is not None and sel.page_type is not None


def test_with_the_stages_their_time_is_counted_and_an_error_restores_them():
    clock = {name: [0.0, 0.0] for name in cost_bench.STAGES}
    with cost_bench.stages(clock):
        sel = select(page())
    assert sel.metadata is not None and sel.page_type is not None
    assert all(wall > 0 and cpu >= 0 for wall, cpu in clock.values())
    with pytest.raises(RuntimeError):
        with cost_bench.stages(None):
            raise RuntimeError("a page failed")
    assert select(page()).page_type is not None



def test_a_page_type_is_timed_once_not_once_per_memo_layer():
    """classify remembers its answer per element: its own time inside the select is the
    call's, not the call's and its memo's computation counted again (the bench read
    twice the page type's cost)."""
    from pith.pipeline import features as features_mod
    snap = page()
    feats = features_mod.compute(snap)
    clock = {name: [0.0, 0.0] for name in cost_bench.STAGES}
    with cost_bench.stages(clock):
        w0 = time.perf_counter()
        assert pagetype.classify(snap, feats, 2) is not None
        elapsed = time.perf_counter() - w0
    assert 0 < clock["page_type"][0] <= elapsed


def test_a_stage_calling_itself_through_its_module_is_timed_once(monkeypatch):
    """A stage that calls its module's function again (a memo's first computation) is
    timed by its outermost call only: the inner call's time is inside the outer's."""
    def stage(snap, gone, node, again=True):
        time.sleep(0.02)
        return merge.compute(snap, gone, node, False) if again else None
    monkeypatch.setattr(merge, "compute", stage)
    clock = {name: [0.0, 0.0] for name in cost_bench.STAGES}
    with cost_bench.stages(clock):
        w0 = time.perf_counter()
        merge.compute(None, None, 0)
        elapsed = time.perf_counter() - w0
    assert 0.04 <= clock["metadata"][0] <= elapsed

def test_the_bench_prints_with_without_and_the_stages_per_dataset(tmp_path, capsys):
    data = tiny_dataset(tmp_path / "tiny")
    args = Namespace(datasets=[data], split=None, limit=6, quiet=True, json=True)
    assert cost_bench.main(args) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["dataset"] == "tiny" and row["pages"] == 6
    for key in ("with", "without", "metadata", "page_type", "stages"):
        for clock in ("wall", "cpu", "cpu_best"):
            fig = row[f"{key}_{clock}"]
            assert fig["p95"] >= fig["median"] >= 0, key
    assert row["page_type_wall"]["median"] > 0 and row["metadata_wall"]["median"] > 0
    for key in ("with", "without", "stages"):     # a page's fastest round: at most its median
        assert row[f"{key}_cpu_best"]["median"] <= row[f"{key}_cpu"]["median"]
    assert row["added_cpu"] == pytest.approx(row["with_cpu"]["median"]
                                             - row["without_cpu"]["median"], abs=1e-3)
    args.json = False
    assert cost_bench.main(args) == 0
    text = capsys.readouterr().out
    assert "select without" in text and "page type (inside)" in text and "CPU best" in text


def test_pith_bench_metadata_cost_runs_the_cost_bench(tmp_path, capsys):
    from pith import cli
    data = tiny_dataset(tmp_path / "tiny")
    assert cli.main(["bench", "--metadata", "--cost", "--limit", "2", "--json", "-q",
                     str(data)]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["pages"] == 2 and "added_wall" in row and "title" not in row
