"""`pith train` (CLG's model): labels from truth text, deterministic fitting."""
import json
from pathlib import Path

import numpy as np
import pytest

from builders import make_snapshot
from pith.measure import datasets, train
from pith import cli
from pith.pages import static
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json

SHARED = datasets.shared_dir() / "datasets"
needs_shared = pytest.mark.skipif(not (SHARED / "readability" / "index.jsonl").is_file(),
                                  reason="../shared/datasets is absent")


def write_dataset(root: Path, pages: list[dict], name: str = "tiny") -> Path:
    d = root / name
    (d / "html").mkdir(parents=True)
    (d / "truth").mkdir()
    with open(d / "index.jsonl", "w", encoding="utf-8") as f:
        for p in pages:
            (d / "html" / f"{p['id']}.html").write_text(p["html"], encoding="utf-8")
            (d / "truth" / f"{p['id']}.txt").write_text(p["truth"], encoding="utf-8")
            entry = {"id": p["id"], "dataset": name, "html": f"html/{p['id']}.html",
                     "truth": f"truth/{p['id']}.txt"}
            if p.get("url"):
                entry["url"] = p["url"]
            f.write(json.dumps(entry) + "\n")
    return d


# --------------------------------------------------------------------------- labels
def labelled_page():
    obj = make_snapshot([
        ("html", -1),
        ("body", 0),
        ("nav", 1),
        ("a", 2, {"text": "Home", "link": 1}),
        ("a", 2, {"text": "About us", "link": 1}),
        ("div", 1, {"id": "main"}),
        ("h1", 5, {"text": "Great title"}),
        ("p", 5, {"text": "alpha beta gamma delta epsilon"}),
        ("p", 5, {"text": "zeta eta theta "}),
        ("b", 8, {"text": "iota", "tail": " kappa"}),
        ("img", 8),
        ("p", 5, {"text": "Share this"}),
        ("div", 1, {"hidden": 1}),
        ("p", 12, {"text": "alpha beta gamma delta epsilon"}),
        ("p", 1, {"text": "|"}),
    ])
    snap = from_json(obj, 100)
    truth = "Great title\n\nalpha beta gamma delta epsilon\n\nzeta eta theta iota kappa"
    return snap, train.label(snap, compute(snap), truth)


def test_labels_follow_the_rules_of_section_5():
    snap, lab = labelled_page()
    P, N, U, X = train.POSITIVE, train.NEGATIVE, train.NEUTRAL, train.IGNORED
    assert lab.tolist() == [
        U, U,          # html, body: truth and non-truth below (ancestors of the selection)
        N, N, N,       # nav and its links
        U,             # div#main holds "Share this" too
        P,             # the two-word heading, matched through the shingles it starts
        P, P, P,       # paragraphs; the bold word inside a sentence
        P,             # an image inside a positive node
        N,             # "Share this"
        X, X,          # hidden rows are not nodes of the page
        N,             # a node with characters but no token, outside any positive node
    ]


def test_truth_units_match_a_short_node_with_its_neighbours():
    units = ["Home", "Intro", "one two three four five", "Footer text here"]
    got = train.truth_units(units, "Intro\none two three four five")
    assert got.tolist() == [0, 1, 1, 0]
    assert train.truth_units(["»", "word"], "word").tolist() == [-1, 1]
    assert train.truth_units(["some text"], "").tolist() == [0]


# --------------------------------------------------------------------------- fitting
def synthetic(seed=3, n=400):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    z = 1.5 * x[:, 0] - 2.0 * x[:, 1] + 0.3
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(float)
    return x, y


def test_fit_is_deterministic_and_recovers_the_weights():
    x, y = synthetic()
    a = train.fit_logistic(x, y)
    b = train.fit_logistic(x.copy(), y.copy())
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    coef, _ = a
    assert coef[0] > 0.8 and coef[1] < -1.2 and abs(coef[2]) < 0.4


def test_fit_matches_scikit_learn():
    sklearn = pytest.importorskip("sklearn.linear_model")
    x, y = synthetic(seed=5)
    coef, intercept = train.fit_logistic(x, y, l2=1.0)
    ref = sklearn.LogisticRegression(C=1.0, tol=1e-10, max_iter=10_000).fit(x, y)
    assert np.allclose(coef, ref.coef_[0], atol=1e-4)
    assert intercept == pytest.approx(ref.intercept_[0], abs=1e-4)


def test_metrics_auc_of_a_perfect_and_a_reversed_ranking():
    y = np.array([0, 0, 1, 1.0])
    assert train.metrics(np.array([0.1, 0.2, 0.8, 0.9]), y, 0.5)["auc"] == 1.0
    assert train.metrics(np.array([0.9, 0.8, 0.2, 0.1]), y, 0.5)["auc"] == 0.0


# --------------------------------------------------------------------------- end to end
ARTICLE = " ".join(f"word{i}" for i in range(40))


def page_html(i: int) -> str:
    nav = "".join(f'<li><a href="/{k}">Menu item {k}</a></li>' for k in range(6))
    paras = "".join(f"<p>Paragraph {k} of page {i}: {ARTICLE}</p>" for k in range(3))
    return (f"<html><body><nav><ul>{nav}</ul></nav><div id='main'><h1>Title {i}</h1>"
            f"{paras}</div><footer><p>Copyright footer text {i}</p></footer></body></html>")


def page_truth(i: int) -> str:
    return f"Title {i}\n\n" + "\n\n".join(f"Paragraph {k} of page {i}: {ARTICLE}"
                                          for k in range(3))


def fake_render(html: str) -> dict:
    """A static snapshot given nested boxes, as if rendered (layout true)."""
    obj = static.snapshot_from_html(html, "")
    snap = from_json(obj, 10_000)
    n = snap.n
    rows = np.arange(n)
    obj["layout"], obj["page"] = True, [1000, 20 * n]
    nodes = obj["nodes"]
    nodes["x"] = [float(10 * d) for d in snap.depth]
    nodes["w"] = [float(1000 - 20 * d) for d in snap.depth]
    nodes["y"] = [float(20 * r) for r in rows]
    nodes["h"] = [float(20 * (snap.end[r] - r)) for r in rows]
    nodes["color"] = ["rgb(0, 0, 0)"] * n
    return obj


def tiny_corpus(tmp_path: Path) -> tuple[Path, Path]:
    pages = [{"id": f"p{i}", "url": f"https://site{i}.example/{i}", "html": page_html(i),
              "truth": page_truth(i)} for i in range(8)]
    d = write_dataset(tmp_path / "datasets", pages)
    cache = tmp_path / "cache"
    (cache / "tiny").mkdir(parents=True)
    for p in pages:
        (cache / "tiny" / f"{p['id']}.json").write_text(json.dumps(fake_render(p["html"])))
    return d, cache


def test_training_twice_on_the_same_pages_gives_the_same_weights(tmp_path):
    d, cache = tiny_corpus(tmp_path)
    a = train.train([d], cache, tmp_path / "a", quiet=True)
    b = train.train([d], cache, tmp_path / "b", quiet=True)
    assert a["models"] == b["models"]
    on_disk = [json.loads((tmp_path / side / "clg.json").read_text())["models"] for side in "ab"]
    assert on_disk[0] == on_disk[1] == a["models"]
    for kind in ("rendered", "static"):
        m = a["models"][kind]
        assert len(m["coef"]) == len(m["features"]) == len(m["mean"])
        assert 0 < m["tag_prior"] < 1
    assert (tmp_path / "a" / "MODEL.md").is_file()
    split = json.loads((tmp_path / "a" / datasets.SPLIT_FILE).read_text())
    assert set(split["pages"]["tiny"]) == {f"p{i}" for i in range(8)}


def test_model_md_keeps_the_bench_section(tmp_path):
    d, cache = tiny_corpus(tmp_path)
    out = tmp_path / "m"
    train.train([d], cache, out, quiet=True)
    md = out / "MODEL.md"
    md.write_text(md.read_text() + "\nbench figures here\n")
    train.train([d], cache, out, quiet=True)
    assert "bench figures here" in md.read_text()


@needs_shared
def test_bench_split_scores_only_that_side(tmp_path, monkeypatch, capsys):
    pages = [{"id": f"p{i}", "url": f"https://site{i}.example/{i}", "html": page_html(i),
              "truth": page_truth(i)} for i in range(8)]
    d = write_dataset(tmp_path / "datasets", pages)
    split = datasets.make_split([d])
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / datasets.SPLIT_FILE).write_text(json.dumps(split))
    monkeypatch.setattr(datasets, "MODELS_DIR", tmp_path / "models")
    code = cli.main(["bench", str(d), "--static", "--algorithm", "cnr", "--split",
                     "validation", "--no-anchors", "--json", "--quiet"])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["pages"] == split["counts"]["tiny"]["validation"]
