"""Tests of measure/train_pagetype.py: the page type model's fit, its folds by site, its figures and `pith train-pagetype`."""
from __future__ import annotations

import json

import numpy as np
import pytest

from pith.measure import train_pagetype
from pith.pipeline import pagetype

LONG = "words that make a real paragraph of content " * 4

def separable(n=120, seed=0):
    """Rows of NAMES' width whose class is set by three features, with noise elsewhere."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x = rng.normal(size=(n, len(pagetype.NAMES)))
    x[np.arange(n), y] += 4.0
    return x, y


def test_the_fit_is_sklearns_multinomial_logistic_regression():
    linear = pytest.importorskip("sklearn.linear_model")
    x, y = separable()
    l2 = 0.05
    model = train_pagetype.fit(x, y, l2, n_classes=3)
    ours = pagetype.Model.from_json({**model, "classes": ["a", "b", "c"]})
    z = (x - np.array(model["mean"])) / np.array(model["scale"])
    ref = linear.LogisticRegression(C=1.0 / (l2 * len(y)), max_iter=5000, tol=1e-10).fit(z, y)
    assert ours.probabilities(x) == pytest.approx(ref.predict_proba(z), abs=2e-3)
    assert (ours.probabilities(x).argmax(axis=1) == y).mean() > 0.95


def test_the_trainer_fits_on_training_sites_and_measures_validation_ones(tmp_path):
    x, y = separable(200, seed=1)
    sites = [f"site{i % 40}.example" for i in range(len(y))]
    side = ["validation" if i % 40 < 10 else "train" for i in range(len(y))]
    # the validation rows are mislabelled: a model fitted on them would not score 0
    y_seen = y.copy()
    val = np.array([s == "validation" for s in side])
    y_seen[val] = (y[val] + 1) % 3
    rows = train_pagetype.Rows(x, y_seen, side, sites,
                               [f"wcxb_dev_full/{i}" for i in range(len(y))])
    model = train_pagetype.train([], tmp_path, quiet=True, rows=rows)
    fig = model["trained"]["validation"]["wcxb_dev_full"]
    assert fig["pages"] == int(val.sum()) and fig["accuracy"] < 0.1
    assert model["trained"]["pages"] == {"train": 150, "validation": 50}
    assert sum(map(sum, fig["confusion"])) == 50
    loaded = pagetype.load(tmp_path / "pagetype.json")
    assert loaded.probabilities(x[~val]).argmax(axis=1).tolist() == \
        train_pagetype.predict(model, x[~val]).argmax(axis=1).tolist()
    card = (tmp_path / "PAGETYPE.md").read_text()
    assert "CC-BY-4.0" in card and "| truth \\ predicted |" in card



def tiny_dataset(root):
    """A dataset folder of 30 generated pages on 30 sites: articles, forum threads and
    product pages, each with its `page_type` label."""
    html = {
        "article": "<html><head><title>A story</title></head><body><article>"
                   + f"<h1>A story</h1>{'<p>' + LONG + '</p>' * 1}" * 4 + "</article></body></html>",
        "forum": "<html><head><title>Help? - Forum</title></head><body>"
                 + "".join(f"<div class='post'><a href='/u/{i}'>user{i}</a><span>Joined</span>"
                           f"<p>{LONG}</p><button>Reply</button></div>" for i in range(4))
                 + "</body></html>",
        "product": "<html><head><title>Blue mug - Shop</title></head><body><h1>Blue mug</h1>"
                   "<span class='price'>$12.99</span><select><option>Blue</option></select>"
                   "<button>Add to cart</button><p>In stock. Free shipping.</p></body></html>",
    }
    (root / "html").mkdir(parents=True)
    lines = []
    for i in range(30):
        kind = list(html)[i % 3]
        (root / "html" / f"{i}.html").write_text(html[kind])
        path = {"article": "/2024/05/a-story", "forum": "/forum/t/123", "product": "/p/blue-mug"}
        lines.append(json.dumps({"id": str(i), "url": f"https://site{i}.example{path[kind]}",
                                 "html": f"html/{i}.html", "page_type": kind,
                                 "dataset": "tiny"}))
    (root / "index.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_pith_train_pagetype_learns_a_tiny_dataset_and_writes_model_and_card(tmp_path, capsys):
    from argparse import Namespace
    data = tiny_dataset(tmp_path / "tiny")
    out = tmp_path / "models"
    assert train_pagetype.main(Namespace(datasets=[data], out=out, quiet=True, cache=None)) == 0
    model = json.loads((out / "pagetype.json").read_text())
    fig = model["trained"]["validation"]["tiny"]
    assert model["trained"]["pages"]["train"] + fig["pages"] == 30 and fig["pages"] > 0
    assert fig["accuracy"] == 1.0                  # three page kinds nothing confuses
    assert "tiny: validation accuracy 1.0" in capsys.readouterr().out
    assert (out / "PAGETYPE.md").is_file()



def test_folds_keep_a_sites_pages_together_and_do_not_depend_on_order():
    sites = [f"site{i % 25}.example" for i in range(100)]
    folds = train_pagetype.folds_of(sites)
    by_site = {}
    for s, f in zip(sites, folds):
        assert by_site.setdefault(s, f) == f
    assert set(folds.tolist()) <= set(range(train_pagetype.FOLDS)) and len(set(folds.tolist())) > 1
    assert train_pagetype.folds_of(sites[::-1]).tolist() == folds[::-1].tolist()


def test_the_l2_chosen_is_the_grids_best_by_cross_validation(monkeypatch):
    x, y = separable(150, seed=2)
    sites = [f"site{i % 30}.example" for i in range(len(y))]
    l2, scores = train_pagetype.choose_l2(x, y, sites)
    assert set(scores) == set(train_pagetype.L2_GRID)
    taken = [v for k, v in scores.items() if k >= train_pagetype.L2_LEAST]
    assert l2 >= train_pagetype.L2_LEAST and scores[l2] == max(taken) and 0.9 < scores[l2] <= 1.0


def test_no_l2_under_the_least_is_taken(monkeypatch):
    """The grid's smaller L2s are scored but never taken (L2_LEAST: a less regularised
    model is too sure for comments.FORUM_SURE), whatever they score."""
    x, y = separable(150, seed=2)
    sites = [f"site{i % 30}.example" for i in range(len(y))]
    monkeypatch.setattr(train_pagetype, "L2_LEAST", max(train_pagetype.L2_GRID))
    l2, scores = train_pagetype.choose_l2(x, y, sites)
    assert l2 == max(train_pagetype.L2_GRID) and set(scores) == set(train_pagetype.L2_GRID)
    assert max(scores.values()) > scores[l2]


def test_the_confusion_and_the_figures_count_each_page_once():
    y = np.array([0, 0, 1, 1, 1, 2])
    pred = np.array([0, 1, 1, 1, 2, 2])
    m = train_pagetype.confusion(y, pred)
    assert m.sum() == 6 and m[0, 1] == 1 and m[1, 2] == 1 and np.trace(m) == 4
    fig = train_pagetype.figures(y, pred)
    first, second = pagetype.CLASSES[0], pagetype.CLASSES[1]
    assert fig["pages"] == 6 and fig["accuracy"] == round(4 / 6, 4)
    assert fig["classes"][first] == {"precision": 1.0, "recall": 0.5, "support": 2}
    assert fig["classes"][second]["precision"] == round(2 / 3, 3)
    assert set(fig["classes"]) == set(pagetype.CLASSES[:3])   # classes never seen are left out
    assert train_pagetype.figures(np.array([], int), np.array([], int))["accuracy"] is None


def test_the_trainer_refuses_rows_without_a_training_site(tmp_path):
    x, y = separable(20)
    rows = train_pagetype.Rows(x, y, ["validation"] * 20, ["a.example"] * 20,
                               [f"wcxb_dev_full/{i}" for i in range(20)])
    with pytest.raises(Exception, match="no labelled training pages"):
        train_pagetype.train([], tmp_path, quiet=True, rows=rows)
