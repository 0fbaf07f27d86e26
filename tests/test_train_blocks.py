"""Training the block model: labels from a truth text, the learners, the written model."""
import json

import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline.blocks import keep
from pith.pipeline.blocks import segment as blocks_mod
from pith.errors import PithError
from pith.measure import train_blocks
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json

STORY = ("The harbour master keeps the tide table within reach, and few sailors ask where "
         "its numbers come from.")
MORE = "Each constituent follows the Moon or the Sun and repeats with its own period."


def page():
    return from_json(make_snapshot([
        ("html", -1), ("body", 0), ("article", 1),
        ("p", 2, {"text": STORY}),                                              # 3
        ("div", 2, {"text": "Share on Facebook Twitter Email"}),                # 4
        ("p", 2, {"text": MORE}),                                               # 5
        ("p", 2, {"text": "|"}),                                                # 6 no token
    ], url="https://example.org/a"), 100)


def test_block_labels_come_from_the_truth():
    snap = page()
    b = blocks_mod.compute(snap, compute(snap))
    which = np.arange(b.count)
    labels = dict(zip(b.rows.tolist(), train_blocks.block_labels(
        snap, b, which, STORY + "\n\n" + MORE).tolist()))
    assert labels == {3: 1, 4: 0, 5: 1, 6: -1}


def test_the_page_title_heading_is_content_whatever_the_truth_says():
    # Dragnet's truths leave the post's title out; most truths keep it: one convention
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("article", 1),
        ("h2", 2, {"text": "Frost came early this year"}),                     # 3
        ("p", 2, {"text": STORY}),                                              # 4
        ("h2", 2, {"text": "Another heading of the page"}),                    # 5
        ("p", 2, {"text": MORE}),                                               # 6
    ], url="https://example.org/a", title="Garden Notes: Frost came early this year"), 100)
    b = blocks_mod.compute(snap, compute(snap))
    labels = dict(zip(b.rows.tolist(), train_blocks.block_labels(
        snap, b, np.arange(b.count), STORY + "\n\n" + MORE).tolist()))
    assert labels == {3: 1, 4: 1, 5: 0, 6: 1}


def post_page(heading_tag="h1", menu_before=False):
    """A post whose `<title>` is not its heading's text: a menu, then the post's container
    (its heading, a date line, two paragraphs)."""
    rows = [("html", -1), ("body", 0), ("nav", 1),
            ("h2", 2, {"text": "Recent posts from the archive"}),                # 3
            ("p", 2, {"text": "Planting garlic in the autumn rain and hoping"}),  # 4
            ("article", 1),                                                      # 5
            (heading_tag, 5, {"text": "Frost came early this year"}),            # 6
            ("p", 5, {"text": "14 October 2012"}),                               # 7
            ("p", 5, {"text": STORY}),                                           # 8
            ("p", 5, {"text": MORE})]                                            # 9
    if menu_before:      # the menu's heading right before the post: no heading of its own
        rows = rows[:5] + [("article", 1), ("p", 5, {"text": STORY}), ("p", 5, {"text": MORE})]
    return from_json(make_snapshot(rows, url="https://example.org/a", title="Garden Notes"),
                     100)


def labels_of(snap, truth):
    b = blocks_mod.compute(snap, compute(snap))
    return dict(zip(b.rows.tolist(), train_blocks.block_labels(
        snap, b, np.arange(b.count), truth).tolist()))


def test_the_post_heading_the_title_does_not_name_is_content_whatever_the_truth_says():
    # `<title>` names the blog alone, the truth leaves the heading out: the h1 just above
    # the first content block, in the post's own container, is the post's title
    labels = labels_of(post_page(), STORY + "\n\n" + MORE)
    assert labels[6] == 1
    assert labels[3] == 0 and labels[4] == 0 and labels[8] == 1 and labels[9] == 1
    # a lower heading there is as often a "Table of contents" or a poster's name: left
    assert labels_of(post_page("h3"), STORY + "\n\n" + MORE)[6] == 0


def test_a_menu_heading_before_the_post_is_not_taken_for_its_title():
    # the nearest heading before the first content block is the menu's, in an element
    # (the body) that holds the menu's boilerplate as well as the post: not relabelled
    snap = post_page(menu_before=True)
    assert snap.tag[3] == "h2"
    labels = labels_of(snap, STORY + "\n\n" + MORE)
    assert labels[3] == 0 and labels[6] == 1 and labels[7] == 1
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("nav", 1),
        ("h1", 2, {"text": "Garden Notes, the allotment blog"}),                 # 3
        ("p", 2, {"text": "Planting garlic in the autumn rain and hoping"}),     # 4
        ("article", 1), ("p", 5, {"text": STORY}), ("p", 5, {"text": MORE})],
        url="https://example.org/a", title="Garden Notes"), 100)
    assert labels_of(snap, STORY + "\n\n" + MORE)[3] == 0


def test_page_of_makes_features_labels_and_weights():
    snap = page()
    p = train_blocks.page_of("t/1", "example.org", "train", snap, STORY + "\n\n" + MORE)
    assert p is not None and p.x.shape[0] == len(p.y) == len(p.texts)
    assert abs(p.w.sum() - 1.0) < 1e-9 and (p.w[p.y < 0] == 0).all()


def separable(n=400, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    y = (x[:, 0] - 0.5 * x[:, 2] > 0).astype(float)
    return x, y, np.full(n, 1.0 / n)


def test_logistic_learner_separates_what_is_separable():
    x, y, w = separable()
    model = keep.Model.from_json({**train_blocks.fit_logistic_model(x, y, w),
                                  "features": ["a", "b", "c"], "threshold": 0.5})
    assert ((model.probability(x) >= 0.5) == (y == 1)).mean() > 0.97


def test_tree_learner_exports_what_it_learned():
    pytest.importorskip("lightgbm")
    x, y, w = separable(seed=1)
    model = keep.Model.from_json({**train_blocks.fit_trees(x, y, w),
                                  "features": ["a", "b", "c"], "threshold": 0.5})
    assert ((model.probability(x) >= 0.5) == (y == 1)).mean() > 0.95
    assert model.depth <= train_blocks.TREE_PARAMS["max_depth"]


def test_cross_validation_reports_every_learner_and_threshold():
    class Scorer:   # the shared scorer's score_pair shape, on words
        @staticmethod
        def score_pair(pred, truth):
            p, t = set(pred.split()), set(truth.split())
            tp = len(p & t)
            f1 = 2 * tp / (len(p) + len(t)) if p or t else 1.0
            return 0.0, 0.0, f1
    pages = []
    for k in range(12):
        x, y, _ = separable(n=30, seed=k)
        texts = [f"word{k}x{i}" for i in range(30)]
        truth = " ".join(t for t, yy in zip(texts, y) if yy)
        pages.append(train_blocks.Page(
            key=f"p{k}", site=f"site{k}", side="train", x=x, y=y.astype(int),
            w=np.full(30, 1 / 30), texts=texts, piece_block=np.arange(30),
            shown=np.arange(30) < 20,
            has_text=np.ones(30, bool), truth=truth))
    cv = train_blocks.cross_validate(pages, ("a", "b", "c"), Scorer(), learners=("logistic",))
    assert cv["oracle"] == 1.0 and cv["whole"] < 0.9
    best = max(v for k, v in cv.items() if k.startswith("logistic@"))
    assert best > cv["whole"]
    assert {f"logistic@{t}" for t in train_blocks.THRESHOLDS} <= set(cv)
    assert {f"logistic@{t}+{a}" for t in train_blocks.THRESHOLDS
            for a in train_blocks.ADD_THRESHOLDS} <= set(cv)
    assert cv["method"] < cv["oracle"]


def test_the_shipped_model_names_only_features_the_host_computes():
    from pith.pipeline.blocks import features as bf
    obj = json.loads(keep.MODEL_PATH.read_text())
    for kind in ("rendered", "static"):
        model = keep.Model.from_json(obj[kind])
        model.columns(bf.LAYOUT_NAMES if kind == "rendered" else bf.NAMES)


def test_the_learner_is_the_cross_validated_best_and_its_best_rules_are_shortlisted():
    cv = {"whole": 0.7, "trees@0.25": 0.850, "trees@0.25+0.6": 0.8585, "trees@0.25+0.8": 0.8583,
          "trees@0.35": 0.852, "trees@0.35+0.6": 0.8589, "logistic@0.25+0.6": 0.8574}
    assert train_blocks.choose_rule(cv) == "trees@0.35+0.6"
    assert train_blocks.parse_rule("trees@0.35+0.6") == ("trees", 0.35, 0.6)
    assert train_blocks.parse_rule("logistic@0.3") == ("logistic", 0.3, None)
    assert train_blocks.shortlist(cv, "trees", 3) == ["trees@0.35+0.6", "trees@0.25+0.6",
                                                      "trees@0.25+0.8"]


def test_the_pipeline_cv_scores_each_rule_through_the_whole_pipeline():
    """A model that reads only the furniture words: the story's blocks at p = 0.5, the
    share bar's near 0. Keeping at 0.3 leaves the share bar out; at 0.6 no block is sure
    enough, and the stage falls back to the whole element, share bar and all."""
    snap = page()
    names = train_blocks.bf.NAMES
    x = np.zeros((4, len(names)))
    weights = [-50.0 if name == "boiler_words" else 0.0 for name in names]
    flat = {"kind": "logistic", "intercept": 0.0, "weights": weights,
            "mean": [0.0] * x.shape[1], "scale": [1.0] * x.shape[1]}
    pages = [train_blocks.Page(key=f"d/{k}", site=f"site{k}", side="train", x=x,
                               y=np.ones(4, int), w=np.full(4, 0.25), shown=np.ones(4, bool),
                               texts=[], piece_block=np.zeros(0, np.int64),
                               has_text=np.ones(4, bool), truth=f"{STORY} {MORE}")
             for k in range(6)]
    asked = []

    def snapshot_of(key):
        asked.append(key)
        return snap if key != "d/5" else None          # one page cannot be read

    class Scorer:
        @staticmethod
        def score_pair(pred, truth):
            p, t = set(pred.split()), set(truth.split())
            return 0.0, 0.0, 2 * len(p & t) / (len(p) + len(t)) if p or t else 1.0
    scores = train_blocks.pipeline_cv(pages, {f: flat for f in range(train_blocks.FOLDS)},
                                      train_blocks.bf.NAMES, ["logistic@0.3", "logistic@0.6"],
                                      snapshot_of, Scorer())
    assert sorted(asked) == [f"d/{k}" for k in range(6)]
    assert scores["logistic@0.3"] > 0.95 and scores["logistic@0.6"] < 0.95   # "|" stays in
    assert keep.model_of(snap) is keep.load_models(str(keep.MODEL_PATH))["static"]  # the file again


def test_the_box_free_half_reads_rendered_pages_unless_the_rendered_half_is_clearly_better():
    assert train_blocks.choose_rendered(own=0.8580, boxfree=0.8583) == "static"
    assert train_blocks.choose_rendered(own=0.8580, boxfree=0.8580) == "static"   # a tie
    # within the seed-to-seed spread: still the box-free half
    assert train_blocks.choose_rendered(own=0.8636, boxfree=0.8625) == "static"
    assert train_blocks.choose_rendered(own=0.8610, boxfree=0.8583) == "rendered"
    assert train_blocks.choose_rendered(own=0.8610, boxfree=0.8583, margin=0.005) == "static"


def test_blocks_md_says_when_the_rendered_half_is_the_static_one(tmp_path):
    static = {"learner": "trees", "threshold": 0.2, "add": 0.6, "features": ["a"]}
    cv = {"pages": 10, "blocks": 100, "content_share": 0.5, "whole": 0.8, "method": 0.84,
          "oracle": 0.93, "logistic@0.2+0.6": 0.85, "trees@0.2+0.6": 0.86,
          "pipeline": {"trees@0.2+0.6": 0.868}}
    result = {"trained": "2026-11-26", "seconds": {"collect": 1.0, "fit": 2.0},
              "data": {"datasets": ["d"], "cache": "c"},
              "config": {"content_share": 0.5, "folds": 3, "shortlist": 6},
              "static": static, "rendered": {**static, "source": "static"},
              "cv": {"static": cv, "rendered": {**cv, "pipeline": {"trees@0.25+0.6": 0.858},
                                                "pipeline_boxfree": {"trees@0.2+0.6": 0.8583}}}}
    train_blocks.write_md(tmp_path / "BLOCKS.md", result)
    text = (tmp_path / "BLOCKS.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| rendered |"))
    assert "the static half" in row and row.rstrip(" |").endswith("0.8583")
    assert "The static half through the pipeline on these pages: trees@0.2+0.6 0.8583." in text


def test_every_fold_holds_a_share_of_the_training_sites():
    # the folds split the training sites only; a fold hash that agrees with the split's
    # (side_of) leaves a fold empty, and the cross-validation is then one fold short
    from pith.measure.datasets import side_of
    sites = [s for s in (f"site{i}.example" for i in range(900)) if side_of(s) == "train"]
    pages = [train_blocks.Page(key=s, site=s, side="train", x=np.zeros((0, 1)), y=np.zeros(0),
                               w=np.zeros(0), shown=np.zeros(0, bool), texts=[],
                               piece_block=np.zeros(0, np.int64), has_text=np.zeros(0, bool),
                               truth="") for s in sites]
    share = np.bincount(train_blocks.folds_of(pages), minlength=train_blocks.FOLDS) / len(pages)
    assert len(share) == train_blocks.FOLDS
    assert share.min() > 0.8 / train_blocks.FOLDS


def test_the_shipped_rule_stays_unless_a_rule_beats_it_by_the_margin():
    piped = {"trees@0.3+0.6": 0.8688, "trees@0.35+0.6": 0.8680, "trees@0.25+0.7": 0.8690}
    rules = ["trees@0.35+0.6", "trees@0.3+0.6"]              # the shortlist, without it
    assert train_blocks.choose_piped(piped, rules, None) == "trees@0.3+0.6"
    assert train_blocks.choose_piped(piped, rules, "trees@0.25+0.7") == "trees@0.25+0.7"
    better = {**piped, "trees@0.3+0.6": 0.8690 + train_blocks.RULE_MARGIN + 0.0005}
    assert train_blocks.choose_piped(better, rules, "trees@0.25+0.7") == "trees@0.3+0.6"
    # an incumbent the pipeline did not score cannot stay
    assert train_blocks.choose_piped(piped, rules, "trees@0.5") == "trees@0.3+0.6"


def test_the_incumbent_is_read_from_the_model_file(tmp_path):
    path = tmp_path / "blocks.json"
    half = {"learner": "trees", "threshold": 0.25, "add": 0.7}
    path.write_text(json.dumps({"static": half, "rendered": {**half, "source": "static"}}))
    assert train_blocks.incumbent(path, "static") == "trees@0.25+0.7"
    assert train_blocks.incumbent(path, "rendered") == "trees@0.25+0.7"
    path.write_text(json.dumps({"static": {"learner": "logistic", "threshold": 0.3, "add": None}}))
    assert train_blocks.incumbent(path, "static") == "logistic@0.3"
    assert train_blocks.incumbent(path, "rendered") is None
    assert train_blocks.incumbent(tmp_path / "missing.json", "static") is None
    # the shipped file's rule is one the cross-validation names (so it can be scored)
    learner, threshold, add = train_blocks.parse_rule(train_blocks.incumbent(keep.MODEL_PATH,
                                                                             "static"))
    assert learner in train_blocks.LEARNERS and threshold in train_blocks.THRESHOLDS
    assert add is None or add in train_blocks.ADD_THRESHOLDS


def test_a_static_only_training_keeps_the_rendered_choice_of_the_file_it_replaces(tmp_path):
    import pytest
    from pith.errors import PithError
    static = {"learner": "trees", "threshold": 0.25, "add": 0.7, "features": ["a"]}
    f = tmp_path / "blocks.json"
    f.write_text(json.dumps({"static": static, "rendered": {**static, "source": "static"}}))
    assert train_blocks.kept_rendered(f) is None            # the new static half is copied
    own = {**static, "features": ["a", "top"], "threshold": 0.3}
    f.write_text(json.dumps({"static": static, "rendered": own}))
    assert train_blocks.kept_rendered(f) == own              # a rendered half of its own stays
    f.write_text(json.dumps({"static": static}))
    with pytest.raises(PithError, match="rendered"):
        train_blocks.kept_rendered(f)


def test_blocks_md_names_every_dataset_with_its_licence_and_says_static_only(tmp_path):
    static = {"learner": "trees", "threshold": 0.2, "add": 0.6, "features": ["a"]}
    cv = {"pages": 10, "blocks": 100, "content_share": 0.5, "whole": 0.8, "method": 0.84,
          "oracle": 0.93, "logistic@0.2+0.6": 0.85, "trees@0.2+0.6": 0.86,
          "pipeline": {"trees@0.2+0.6": 0.868}}
    names = ["cleaneval", "readability", "wcxb_dev_full", "dragnet_train", "magic_html"]
    result = {"trained": "2026-11-27", "seconds": {"collect": 1.0, "fit": 2.0},
              "data": {"datasets": names, "cache": "c", "static_only": True},
              "config": {"content_share": 0.5, "folds": 3, "shortlist": 6},
              "static": static, "rendered": {**static, "source": "static"},
              "cv": {"static": cv}}
    train_blocks.write_md(tmp_path / "BLOCKS.md", result)
    text = (tmp_path / "BLOCKS.md").read_text()
    assert "static only" in text and not any(x.startswith("| rendered |")
                                              for x in text.splitlines())
    for name, licence in zip(names, ("research use", "Apache License 2.0", "CC-BY-4.0",
                                     "AGPLv3", "Apache License 2.0")):
        line = next(x for x in text.splitlines() if x.startswith(f"- `{name}`"))
        assert licence in line, name
    assert "Murrough Foley" in text
    # the labels' title convention, which departs from some truths, is stated
    labels = next(x for x in text.splitlines() if x.startswith("- labels:"))
    assert "title is content whatever the truth says" in labels
