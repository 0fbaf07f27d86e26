"""The best single element of a page, picked by reading the truth (bench --ceiling)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from builders import make_snapshot
from pith.measure import bench, ceiling, datasets
from pith.pipeline import render
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json

REPO = Path(__file__).resolve().parents[1]
DATASET = datasets.shared_dir() / "datasets" / "readability"

STORY = "the river rose slowly through the night and the town woke to water in every street"
MENU = "home news sport weather contact about"


def page():
    return from_json(make_snapshot([
        ("html", -1),                                   # 0
        ("body", 0),                                    # 1
        ("nav", 1, {"text": MENU}),                     # 2
        ("div", 1),                                     # 3  wrapper: the same text as 4
        ("article", 3),                                 # 4
        ("h1", 4, {"text": "Flood"}),                   # 5
        ("p", 4, {"text": STORY}),                      # 6
        ("footer", 1, {"text": "(c)"}),                 # 7
    ]), 1000)


def words_f1(prediction: str, truth: str) -> tuple[float, float, float]:
    """A stand-in for score.py's score_pair: F1 of the word sets."""
    p, t = set(prediction.split()), set(truth.split())
    both = len(p & t)
    if not both:
        return 0.0, 0.0, 0.0
    precision, recall = both / len(p), both / len(t)
    return precision, recall, 2 * precision * recall / (precision + recall)


def test_candidates_skip_wrappers_and_elements_far_from_the_truth_size():
    snap = page()
    feats = compute(snap)
    rows = set(ceiling.candidates(snap, feats, int(feats.chars[4])).tolist())
    assert 6 in rows
    assert len(rows & {3, 4}) == 1   # a wrapper and its only child show the same text
    assert 7 not in rows             # "(c)" is under a tenth of the truth


def test_best_is_the_element_whose_text_is_the_truth():
    snap = page()
    feats = compute(snap)
    row, text, f1 = ceiling.best(snap, feats, "Flood\n\n" + STORY, words_f1)
    assert row in (3, 4) and f1 == 1.0 and STORY in text and MENU not in text


def test_best_beats_or_ties_every_candidate():
    snap = page()
    feats = compute(snap)
    truth = STORY + " " + MENU          # the truth spans two elements: no element is perfect
    _, _, f1 = ceiling.best(snap, feats, truth, words_f1)
    for row in ceiling.candidates(snap, feats, len("".join(truth.split()))):
        assert f1 >= words_f1(render.to_text(snap, feats, [int(row)]), truth)[2]
    assert 0.0 < f1 < 1.0


def test_no_candidate_gives_nothing():
    snap = page()
    feats = compute(snap)
    assert ceiling.best(snap, feats, "x" * 100_000, words_f1) == (None, "", 0.0)


@pytest.mark.skipif(not (DATASET / "index.jsonl").is_file(),
                    reason="../shared/datasets is absent")
def test_bench_ceiling_row(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    result = subprocess.run(
        [sys.executable, "-m", "pith", "bench", str(DATASET), "--static", "--limit", "4",
         "-a", "cnr", "--no-anchors", "--ceiling", "--json", "--quiet",
         "--save-predictions", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    rows = {r["algorithm"]: r for r in json.loads(result.stdout)}
    top = rows[bench.CEILING]
    assert top["pages"] == 4 and top["one_click_f1"] is None
    assert 0.5 < top["mean_page_f1"] <= 1.0
    assert len(list((tmp_path / bench.CEILING / "readability").glob("*.txt"))) == 4
    blocks = rows[bench.CEILING_BLOCKS]     # blocks read off the truth, wherever they are
    assert blocks["pages"] == 4 and 0.5 < blocks["mean_page_f1"] <= 1.0
    assert set(rows) >= {"cnr", "cnr" + bench.ELEMENT_SUFFIX}   # --blocks both by default


def test_best_blocks_keep_the_truths_blocks_and_leave_the_rest():
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("nav", 1, {"text": "Home About Contact Blog Archive"}),
        ("p", 1, {"text": "The harbour master keeps the tide table within reach always."}),
        ("div", 1, {"text": "Share this story with your friends on every network"}),
        ("p", 1, {"text": "Each constituent follows the Moon or the Sun around the year."}),
    ]), 100)
    truth = ("The harbour master keeps the tide table within reach always.\n\n"
             "Each constituent follows the Moon or the Sun around the year.")
    text = ceiling.best_blocks(snap, compute(snap), truth)
    assert "harbour master" in text and "constituent" in text
    assert "Share" not in text and "Home" not in text
