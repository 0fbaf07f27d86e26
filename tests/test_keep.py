"""The block stage: the model file's evaluator, the keep decision, and the answer it makes."""
import json

import numpy as np
import pytest

from builders import make_snapshot
from pith.pages import static
from pith.pipeline import render
from pith.pipeline.blocks import features as bf
from pith.pipeline.blocks import keep
from pith.pipeline.blocks import segment as blocks_mod
from pith.pipeline.algorithms.base import Choice
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json


def link_model(tmp_path, weight=-8.0):
    """A logistic model on link density alone: link-heavy blocks fall under 0.5."""
    names = list(bf.NAMES)
    w = [0.0] * len(names)
    w[names.index("link_density")] = weight
    obj = {"kind": "logistic", "features": names, "threshold": 0.5, "intercept": 2.0,
           "weights": w, "mean": [0.0] * len(names), "scale": [1.0] * len(names)}
    path = tmp_path / "blocks.json"
    path.write_text(json.dumps({"rendered": obj, "static": obj}))
    keep.load_models.cache_clear()
    return str(path)


def article():
    return from_json(make_snapshot([
        ("html", -1), ("body", 0),                                           # 0 1
        ("article", 1),                                                      # 2
        ("h1", 2, {"text": "A headline"}),                                   # 3
        ("p", 2, {"text": "The first paragraph of the story, long enough."}),  # 4
        ("ul", 2),                                                           # 5
        ("li", 5), ("a", 6, {"text": "Related one", "link": 1, "url": "https://e.org/1"}),  # 6 7
        ("li", 5), ("a", 8, {"text": "Related two", "link": 1, "url": "https://e.org/2"}),  # 8 9
        ("div", 2), ("img", 10, {"url": "https://e.org/i.png"}),             # 10 11
        ("p", 2, {"text": "The second paragraph closes the story."}),        # 12
    ]), 1000)


def test_trees_evaluate_like_lightgbm():
    lightgbm = pytest.importorskip("lightgbm")
    from pith.measure.train_blocks import export_trees
    rng = np.random.default_rng(3)
    x = rng.normal(size=(600, 5))
    y = ((x[:, 0] + x[:, 1] * x[:, 2] + rng.normal(scale=0.3, size=600)) > 0).astype(float)
    booster = lightgbm.train({"objective": "binary", "num_leaves": 7, "verbose": -1,
                              "num_threads": 1}, lightgbm.Dataset(x, label=y), 20)
    model = keep.Model.from_json({**export_trees(booster), "features": list("abcde"),
                                  "threshold": 0.5})
    assert np.allclose(model.probability(x), booster.predict(x), atol=1e-9)


def test_decide_blends_with_the_method_when_told_to():
    has_text = np.ones(4, bool)
    shown = np.array([True, True, False, False])
    p = np.array([0.5, 0.1, 0.75, 0.95])
    assert keep.decide(p, 0.3, has_text, shown, 0.9).tolist() == [True, False, False, True]
    assert keep.decide(p, 0.3, has_text).tolist() == [True, False, True, True]


def test_decide_keeps_images_between_kept_text_and_never_answers_nothing():
    has_text = np.array([True, False, True, True, False])
    p = np.array([0.9, 0.0, 0.8, 0.1, 0.0])
    assert keep.decide(p, 0.5, has_text).tolist() == [True, True, True, False, False]
    assert keep.decide(np.zeros(5), 0.5, has_text).all()


def test_apply_drops_link_lists_and_keeps_the_story(tmp_path):
    path = link_model(tmp_path)
    snap = article()
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    out = keep.apply(snap, feats, Options(), 2, method, model_path=path)
    assert out.kept.tolist() == [3, 4, 10, 12]          # the image sits between kept text
    text = render.to_text(snap, feats, out.roots, out.drop, out.quiet)
    assert "Related" not in text and "first paragraph" in text and "closes" in text
    assert out.drop[5] and not out.drop[10]


def test_a_scope_over_blocks_max_is_answered_whole(tmp_path):
    path = link_model(tmp_path)
    snap = article()
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    judged = keep.apply(snap, feats, Options(blocks_max=6), 2, method, model_path=path)
    assert judged.kept is not None                       # six blocks: judged
    whole = keep.apply(snap, feats, Options(blocks_max=5), 2, method, model_path=path)
    assert whole is method                               # over the cap: the element as is
    pinned = keep.apply(snap, feats, Options(blocks_max=5), 2, method, answer=4,
                        model_path=path)
    assert pinned.node == 4 and pinned.kept is None


def test_the_readers_choices_override_the_model(tmp_path):
    path = link_model(tmp_path)
    snap = article()
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    out = keep.apply(snap, feats, Options(), 2, method, include=np.array([5]),
                     exclude=np.array([12]), model_path=path)
    assert 6 in out.kept and 8 in out.kept and 12 not in out.kept


def test_a_wider_scope_keeps_the_method_node_in_view(tmp_path):
    path = link_model(tmp_path)
    snap = article()
    feats = compute(snap)
    assert keep.widen(snap, feats, 4, 1) == 2           # grow's rule: more text
    assert keep.widen(snap, feats, 2, 3) == 2           # no ancestor shows more: stays
    method = Choice(node=4, score=np.zeros(snap.n), blocks=np.array([4]))
    out = keep.apply(snap, feats, Options(), 2, method, model_path=path)
    assert out.node == 2 and 3 in out.kept


def question_with_tooltip():
    """A Stack Exchange question over its answer: the question's vote tooltip (role=tooltip)
    lies outside the answer, the element auto's tooltip drop was decided on."""
    tip = {"text": "This question shows research effort; it is useful and clear",
           "role": "tooltip"}
    return from_json(make_snapshot([
        ("html", -1), ("body", 0), ("div", 1, {"cls": "question"}),          # 0 1 2
        ("div", 2, {"cls": "votecell"}), ("div", 3, tip),                    # 3 4
        ("p", 2, {"text": "Why does print fail with a syntax error in Python 3?"}),  # 5
        ("div", 1, {"cls": "answer"}),                                       # 6
        ("p", 6, {"text": "Print is a function in Python 3: call it with parentheses."}),  # 7
    ]), 1000)


def test_a_tooltip_the_element_grew_over_is_left_out(tmp_path):
    """The element grown from the answer to the question and its answers (posts.question)
    is a pin: auto's drop of the tooltips inside its own element is gone, and the block
    model, sure of every block here, kept the question's vote tooltip as its first line."""
    path = link_model(tmp_path)
    snap = question_with_tooltip()
    feats = compute(snap)
    method = Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]))
    out = keep.apply(snap, feats, Options(), 1, method, model_path=path)
    text = render.to_text(snap, feats, out.roots, out.drop, out.quiet)
    assert "research effort" not in text
    assert "syntax error" in text and "parentheses" in text
    kept = keep.apply(snap, feats, Options(auto_furniture=False), 1, method, model_path=path)
    assert 4 in kept.kept                                  # the rule, not the model, drops it


def test_a_tooltip_holding_nearly_all_of_the_answer_stays(tmp_path):
    """A page whose text sits in a tooltip-role wrapper is answered from it."""
    path = link_model(tmp_path)
    rows = [("html", -1), ("body", 0), ("div", 1, {"role": "tooltip"}),
            ("p", 2, {"text": "The whole story sits in a tooltip wrapper, at length. " * 5})]
    snap = from_json(make_snapshot(rows), 100)
    feats = compute(snap)
    method = Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]))
    out = keep.apply(snap, feats, Options(), 1, method, model_path=path)
    assert 3 in out.kept


def test_a_model_that_needs_unknown_features_says_so(tmp_path):
    from pith.errors import PithError
    obj = {"kind": "logistic", "features": ["no_such_feature"], "threshold": 0.5,
           "intercept": 0.0, "weights": [1.0], "mean": [0.0], "scale": [1.0]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rendered": obj, "static": obj}))
    keep.load_models.cache_clear()
    snap = article()
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    with pytest.raises(PithError, match="no_such_feature"):
        keep.apply(snap, compute(snap), Options(), 2, method, model_path=str(path))


def test_the_tree_walk_of_many_blocks_runs_in_bounded_memory():
    """A 1,000,000-element page has hundreds of thousands of blocks: walking all their
    rows through every tree at once held rows x trees indices per level (gigabytes);
    batches of MARGIN_BATCH_ROWS keep the peak small and the sums identical."""
    import tracemalloc
    keep.load_models.cache_clear()
    model = keep.load_models(str(keep.MODEL_PATH))["static"]
    rng = np.random.default_rng(7)
    x = rng.random((10 * keep.MARGIN_BATCH_ROWS + 17, len(model.names)))
    one_by_batch = np.concatenate([model.margin(x[i:i + 1000]) for i in range(0, len(x), 1000)])
    tracemalloc.start()
    whole = model.margin(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert np.allclose(whole, one_by_batch)
    per_level = keep.MARGIN_BATCH_ROWS * len(model.roots) * 8
    assert peak < 8 * per_level + x.nbytes, f"peak {peak / 2**20:.0f} MiB"


def test_the_tree_walk_reads_the_model_columns_of_a_wider_matrix_in_place():
    keep.load_models.cache_clear()
    model = keep.load_models(str(keep.MODEL_PATH))["static"]
    rng = np.random.default_rng(3)
    wide = rng.random((keep.MARGIN_BATCH_ROWS + 9, len(model.names) + 7))
    columns = rng.permutation(wide.shape[1])[:len(model.names)]
    assert np.array_equal(model.margin(wide, columns), model.margin(wide[:, columns]))
    assert np.array_equal(model.probability(wide, columns), model.probability(wide[:, columns]))


def test_the_tree_walk_gives_the_leaves_one_tree_and_row_at_a_time_would():
    """The vectorised walk (all rows, all trees, one step per level, over the slot arrays)
    against a plain walk of the model file's trees as written (per tree: feature, split,
    left, right, value; a leaf's feature is negative), one row and one tree at a time:
    the same leaves, hence the same sums, bit for bit."""
    import json
    keep.load_models.cache_clear()
    model = keep.load_models(str(keep.MODEL_PATH))["static"]
    trees = json.loads(keep.MODEL_PATH.read_text())["static"]["trees"]
    rng = np.random.default_rng(11)
    x = rng.normal(size=(40, len(model.names))) * rng.choice([0.0, 1.0, 10.0], size=(40, 1))
    leaves = np.empty((len(x), len(trees)))
    for r, row in enumerate(x):
        for t, tree in enumerate(trees):
            node = 0
            while tree["feature"][node] >= 0:
                right = row[tree["feature"][node]] > tree["split"][node]
                node = tree["right" if right else "left"][node]
            leaves[r, t] = tree["value"][node]
    assert len(model.roots) == len(trees)
    assert np.array_equal(model.margin(x), leaves.sum(axis=1))


def test_a_tree_model_walks_only_the_blocks_decide_reads(monkeypatch):
    """decide reads no probability of a block without text: apply asks for the others
    only, and they are the probabilities a walk of every block gives."""
    from pith.pipeline.blocks import segment as blocks_mod
    snap = article()
    feats = compute(snap)
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(blocks.count)
    has_text = blocks.chars[which] > 0
    assert has_text.any() and not has_text.all()            # the image's block has none
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    walked = []
    margin = keep.Model.margin
    monkeypatch.setattr(keep.Model, "margin",
                        lambda self, x, columns=None: walked.append(len(x)) or margin(self, x, columns))
    every, model = keep.probabilities(snap, feats, Options(), 2, method, blocks, which)
    judged, _ = keep.probabilities(snap, feats, Options(), 2, method, blocks, which,
                                   judged=has_text)
    assert model.kind == "trees" and walked == [len(which), int(has_text.sum())]
    assert np.array_equal(judged[has_text], every[has_text]) and not judged[~has_text].any()
    walked.clear()
    keep.apply(snap, feats, Options(), 2, method)
    assert walked == [int(has_text.sum())]


PARAS = ["The first paragraph tells what happened, at some length, so a reader has it. " * 3,
         "The second paragraph tells why it matters, again at some length for the reader. " * 3,
         "The third paragraph closes the story with a quote from one who was there. " * 3]


def chars_of(texts):
    return np.array([len("".join(t.split())) for t in texts])


def test_copies_finds_a_passage_read_again_and_only_the_copy():
    texts = ["Headline"] + PARAS + ["Share this story"] + PARAS + ["A closing line of the page."]
    assert keep.copies(texts, chars_of(texts)).tolist() == [False] * 5 + [True] * 3 + [False]
    # the middle paragraph rewritten: what is left are two single paragraphs said again,
    # no sequence read twice
    texts[6] = "A different middle paragraph, as long as the others, so it counts here. " * 3
    assert not keep.copies(texts, chars_of(texts), min_run=100).any()


def test_copies_keeps_one_paragraph_said_twice_and_short_repeated_lines():
    quote = [PARAS[0], PARAS[1], PARAS[0], PARAS[2]]              # a pull quote
    assert not keep.copies(quote, chars_of(quote)).any()
    same = [PARAS[0]] * 4                                          # one text, not a sequence
    assert not keep.copies(same, chars_of(same)).any()
    tiers = ["Phone consultation with an expert", "Two rounds of revisions"] * 3
    assert not keep.copies(tiers, chars_of(tiers)).any()           # under COPY_MIN_RUN_CHARS
    assert keep.copies(tiers, chars_of(tiers), min_run=40).tolist() == [False] * 2 + [True] * 4


def test_quoted_copies_finds_a_reply_quoting_a_whole_earlier_post():
    """The failure this fixes: a forum reply quoting a whole earlier answer (magic_html
    train, a Vanilla forum: the quote a blockquote, one block) read the answer twice, and
    `copies`, which looks for runs of blocks, saw no run. The quote's image addresses,
    written as text, are its own characters, not the answer's."""
    url = "https://cdn.example.com/uploads/NVOVB77BN181/image.png"
    quote = " ".join([PARAS[0], url, PARAS[1], PARAS[2]])
    texts = ["Headline", PARAS[0], PARAS[1], PARAS[2], "A reply of its own, short.", quote,
             "Thanks, that helped."]
    assert keep.quoted_copies(texts, chars_of(texts)).tolist() == [False] * 5 + [True, False]
    # out of order it is no quote of the post
    texts[5] = " ".join([PARAS[2], url, PARAS[1], PARAS[0]])
    assert not keep.quoted_copies(texts, chars_of(texts), min_run=100).any()


def test_quoted_copies_keeps_a_reply_quoting_a_line_and_answering_at_length():
    own = "My answer to that, which says something new and says it at some length. " * 12
    texts = [PARAS[0], PARAS[1], PARAS[2], " ".join([PARAS[0], PARAS[1], own])]
    assert not keep.quoted_copies(texts, chars_of(texts)).any()     # under QUOTED_SHARE
    assert keep.quoted_copies(texts, chars_of(texts), min_run=300, share=0.3).tolist() == [False] * 3 + [True]
    one = [PARAS[0], PARAS[1], " ".join([PARAS[0], PARAS[0]])]     # one paragraph said twice
    assert not keep.quoted_copies(one, chars_of(one), min_run=100).any()


def test_apply_leaves_out_a_quote_of_an_earlier_post(tmp_path):
    rows = [("html", -1), ("body", 0), ("article", 1)]
    rows += [("p", 2, {"text": t}) for t in PARAS]
    rows += [("blockquote", 2, {"text": " ".join(PARAS)}), ("p", 2, {"text": "Thanks!" * 5})]
    snap = from_json(make_snapshot(rows), 1000)
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    path = link_model(tmp_path)
    once = keep.apply(snap, feats, Options(), 2, method, model_path=path)
    assert 6 not in once.kept.tolist() and {3, 4, 5, 7} <= set(once.kept.tolist())
    twice = keep.apply(snap, feats, Options(blocks_drop_quoted=False), 2, method,
                       model_path=path)
    assert 6 in twice.kept.tolist()


# A product's description, as a shop ships it once per layout (a static snapshot, without
# the stylesheet that hides one, reads both): three lines, about 260 characters.
DESCRIPTION = (
    "<p>Make each cup of tea or coffee feel special with a handmade ceramic mug, wheel thrown "
    "in our studio.</p><p>Handmade stoneware in a white speckle finish. Size: approx. 9.5 x 13 "
    "x 7 cm. Volume: approx. 350 ml, a generous cup.</p><p>Suitable for dishwashers and "
    "microwave ovens. Take care when stacking and washing ceramics, and avoid thermal shock.</p>")
PRODUCT_PAGE = (
    "<html><head><title>White speckle mug - Ghost Shop</title>"
    "<meta property='og:type' content='product'></head><body>"
    "<nav><a href='/'>Shop</a> <a href='/cart'>Cart</a></nav>"
    "<main><h1>White speckle mug</h1><span class='price'>$60.00</span>"
    "<select><option>White</option></select><button>Add to cart</button>"
    f"<div class='product-description desktop'>{DESCRIPTION}</div>"
    f"<details class='product-accordion mobile'><summary>Description</summary>{DESCRIPTION}"
    "</details></main></body></html>")
STORY_PAGE = (
    "<html><head><title>Mugs we love - The Gazette</title>"
    "<meta property='og:type' content='article'></head><body><article><h1>Mugs we love</h1>"
    f"<p class='byline'>By Ann Lee, May 3, 2024</p><div class='story'>{DESCRIPTION}</div>"
    f"<p>Another paragraph.</p><div class='story'>{DESCRIPTION}</div></article></body></html>")


def test_a_product_description_shipped_twice_is_read_once():
    """The failure this fixes: a shop's description, shipped for the desktop and again
    in the phone's accordion, is shorter than COPY_MIN_RUN_CHARS, so the static answer
    read it twice (wcxb_dev_full train 0610: P 0.49). On a page the page type model calls
    a product's, PRODUCT_COPY_MIN_RUN_CHARS holds; elsewhere a passage that short said
    twice stays (a service page's tiers, a reference's parameters)."""
    line = "Handmade stoneware in a white speckle finish."
    product = select(static.snapshot_from_html(PRODUCT_PAGE, "https://ghost.example.com/"
                                               "products/white-speckle-mug"), Options())
    assert product.page_type[0] == "product"
    assert product.output("text").count(line) == 1
    off = select(static.snapshot_from_html(PRODUCT_PAGE, "https://ghost.example.com/"
                                           "products/white-speckle-mug"),
                 Options(blocks_drop_copies=False))
    assert off.output("text").count(line) == 2
    story = select(static.snapshot_from_html(STORY_PAGE, "https://gazette.example.org/2024/"
                                             "05/03/mugs-we-love"), Options())
    assert story.page_type[0] == "article" and story.output("text").count(line) == 2


def test_apply_reads_a_page_shipped_twice_once(tmp_path):
    rows = [("html", -1), ("body", 0), ("article", 1), ("div", 2, {"cls": "desktop"})]
    rows += [("p", 3, {"text": t}) for t in PARAS]
    rows += [("div", 2, {"cls": "mobile"})]
    rows += [("p", 7, {"text": t}) for t in PARAS]
    snap = from_json(make_snapshot(rows), 1000)
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    path = link_model(tmp_path)
    once = keep.apply(snap, feats, Options(), 2, method, model_path=path)
    assert once.kept.tolist() == [4, 5, 6]
    assert once.node == 3                                  # the outline goes round one copy
    twice = keep.apply(snap, feats, Options(blocks_drop_copies=False), 2, method,
                       model_path=path)
    assert twice.kept.tolist() == [4, 5, 6, 8, 9, 10]


def test_the_boundary_rule_reads_p_at_one_half_not_the_files_threshold(tmp_path):
    path = link_model(tmp_path)
    obj = json.loads(open(path).read())
    for mode in obj.values():
        mode["threshold"] = 0.95            # over every block's p (text: 0.88, links: ~0)
    open(path, "w").write(json.dumps(obj))
    keep.load_models.cache_clear()
    snap = article()
    feats = compute(snap)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    blend = keep.apply(snap, feats, Options(), 2, method, model_path=path)
    assert 6 in blend.kept                  # nothing passes 0.95: the element whole
    boundary = keep.apply(snap, feats, Options(blocks_rule="boundary"), 2, method,
                          model_path=path)
    assert boundary.kept.tolist() == [3, 4, 10, 12]


def test_blocks_form_max_leaves_a_small_form_out_and_a_page_wrapping_form_in(tmp_path):
    path = link_model(tmp_path)
    story = [("p", 3, {"text": t}) for t in PARAS]
    small = from_json(make_snapshot(
        [("html", -1), ("body", 0), ("article", 1), ("div", 2)] + story
        + [("form", 2, {"text": "Subscribe to the weekly letter"})]), 1000)
    wrapped = from_json(make_snapshot(
        [("html", -1), ("body", 0), ("form", 1), ("div", 2)] + story), 1000)
    for snap, element, form_kept in ((small, 2, False), (wrapped, 2, True)):
        feats = compute(snap)
        method = Choice(node=element, score=np.zeros(snap.n), blocks=np.array([element]))
        on = keep.apply(snap, feats, Options(blocks_form_max=0.2), element, method,
                        model_path=path)
        off = keep.apply(snap, feats, Options(), element, method, model_path=path)
        form = [r for r in range(snap.n) if snap.tag[r] == "form"][0]
        inside = [r for r in off.kept.tolist() if form <= r < snap.end[form]]
        assert inside                                      # off: the model keeps them
        assert all((r in on.kept.tolist()) == form_kept for r in inside)


def test_models_in_use_replace_the_file_inside_the_block_only():
    snap = from_json(make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "Text."})]), 10)
    mine = keep.Model(names=("log_chars",), threshold=0.5, kind="logistic", weights=np.zeros(1),
                      mean=np.zeros(1), scale=np.ones(1))
    shipped = keep.model_of(snap)
    try:
        with keep.models_in_use({"static": mine, "rendered": mine}):
            assert keep.model_of(snap) is mine
            raise RuntimeError("a page failed")
    except RuntimeError:
        pass
    assert keep.model_of(snap) is shipped


def test_a_box_free_model_reads_a_rendered_page_without_its_layout_columns(monkeypatch):
    """A model of NAMES alone (the static half, which also reads rendered pages when the
    trainer finds it as good) gets the matrix without the layout columns on a rendered
    snapshot, and the same probabilities as when it reads them out of the wide matrix;
    a model with a layout feature still gets the wide matrix."""
    from pith.pipeline.blocks import segment as blocks_mod
    rows = [("html", -1, {"w": 800, "h": 900}), ("body", 0, {"w": 800, "h": 900}),
            ("article", 1, {"w": 600, "h": 400}),
            ("h1", 2, {"text": "A headline", "y": 10, "w": 600, "h": 40, "fs": 32}),
            ("p", 2, {"text": "The first paragraph of the story, long enough.", "y": 60,
                      "w": 600, "h": 60, "fs": 16}),
            ("p", 2, {"text": "Share this story", "y": 130, "w": 200, "h": 20, "fs": 12})]
    snap = from_json(make_snapshot(rows, layout=True), 100)
    feats = compute(snap)
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(blocks.count)
    method = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))

    def logistic(names):
        w = [1.0 if n in ("log_chars", "font_rel") else 0.0 for n in names]
        return keep.Model(names=tuple(names), threshold=0.5, kind="logistic", base=-3.0,
                          weights=np.array(w), mean=np.zeros(len(names)), scale=np.ones(len(names)))
    box_free, boxed = logistic(bf.NAMES), logistic(bf.LAYOUT_NAMES)
    assert not box_free.reads_layout and boxed.reads_layout
    widths = []
    matrix = bf.matrix
    monkeypatch.setattr(bf, "matrix", lambda *a, **k: widths.append(k["layout"]) or matrix(*a, **k))
    for model in (box_free, boxed):
        with keep.models_in_use({"static": model, "rendered": model}):
            p, _ = keep.probabilities(snap, feats, Options(), 2, method, blocks, which)
        if model is box_free:
            wide = matrix(snap, feats, blocks, bf.page_signals(snap, feats, Options(), 2), 2,
                          which, None, None, layout=True, method=2)
            assert np.allclose(p, model.probability(wide, model.columns(bf.LAYOUT_NAMES)))
    assert widths == [False, True]



def figure_model(tmp_path):
    """A logistic model that doubts every figure block and keeps every other block."""
    names = list(bf.NAMES)
    w = [0.0] * len(names)
    w[names.index("tag_figure")] = -8.0
    obj = {"kind": "logistic", "features": names, "threshold": 0.5, "intercept": 2.0,
           "weights": w, "mean": [0.0] * len(names), "scale": [1.0] * len(names)}
    path = tmp_path / "blocks.json"
    path.write_text(json.dumps({"rendered": obj, "static": obj}))
    keep.load_models.cache_clear()
    return keep.load_models(str(path))


CAPTIONED_PAGE = """<!doctype html><html><head><title>Harbour reopens</title></head><body>
<article><h1>The harbour reopens after a year of works</h1>
<p>The old harbour opened again on Monday, a year after the quay walls were rebuilt.</p>
<figure><img src="/quay.jpg" width="600" height="400" alt="">
<figcaption>The rebuilt quay at dawn. Photo: Jane Doe for the Gazette</figcaption></figure>
<p>Fishing boats came back first, then the ferry to the islands resumed its timetable.</p>
<figure><img src="/ferry.jpg" width="600" height="400" alt=""></figure>
<p>The council says the works came in under budget and a month ahead of the plan.</p>
</article></body></html>"""


def test_a_captioned_figure_is_kept_by_default_and_judged_by_the_model_on_request(tmp_path):
    """A figure with an image and a caption is kept whatever the model says (the reader
    keeps the picture; the block is the image and its caption together); with
    blocks_keep_captioned_figures off, the model judges it, so a doubted caption ("Photo:
    …") is not read as the article's text, as the text truths want; a figure that is an
    image alone, no text to doubt, is kept either way."""
    models = figure_model(tmp_path)

    def answer(**opts):
        snap = static.snapshot_from_html(CAPTIONED_PAGE, "https://gazette.example.org/"
                                         "2024/05/03/harbour-reopens")
        with keep.models_in_use(models):
            sel = select(snap, Options(**opts))
        return sel, sel.output("text")

    sel, text = answer(blocks_keep_captioned_figures=False)
    assert "Photo: Jane Doe" not in text
    assert "Fishing boats came back first" in text and "under budget" in text
    snap = from_json(static.snapshot_from_html(CAPTIONED_PAGE, "https://gazette.example.org/"), 10_000)
    blocks = blocks_mod.compute(snap, compute(snap))
    which = np.arange(len(blocks.rows))
    figures = which[np.array(snap.cols["tag"], dtype=object)[blocks.rows] == "figure"]
    assert len(figures) == 2 and blocks.chars[figures].tolist()[1] == 0
    assert keep.structured(snap, blocks, figures).tolist() == [False, True]
    assert keep.structured(snap, blocks, figures, captioned=True).tolist() == [True, True]
    _, default = answer()                   # the picture and its caption stay
    assert "Photo: Jane Doe" in default and "under budget" in default


def test_the_heap_walk_keeps_a_shallow_tree_at_its_leaf_whatever_the_row_holds():
    """Model's heaps: a tree shallower than the model's depth goes on from its leaf as a
    split no row passes (+inf), so its leaf is read at the last level; rows of NaN and
    infinities walk as the plain walk of the trees as written does (NaN > split is false:
    left)."""
    trees = [{"feature": [0, -1, 1, -1, -1], "split": [0.5, 0, -1.0, 0, 0],
              "left": [1, -1, 3, -1, -1], "right": [2, -1, 4, -1, -1],
              "value": [0, 0.25, 0, -1.5, 2.0]},
             {"feature": [-1], "split": [0], "left": [-1], "right": [-1], "value": [0.125]},
             {"feature": [1, -1, -1], "split": [np.inf, 0, 0], "left": [1, -1, -1],
              "right": [2, -1, -1], "value": [0, 3.0, -3.0]}]
    model = keep.Model.from_json({"kind": "trees", "features": ["a", "b"], "threshold": 0.5,
                                  "depth": 3, "trees": trees})
    x = np.array([[0.0, 0.0], [1.0, -2.0], [1.0, 5.0], [np.nan, np.nan], [np.inf, np.inf],
                  [-np.inf, -np.inf], [np.inf, np.nan], [0.5, -1.0]])

    def plain(row):
        total = 0.0
        for tree in trees:
            node = 0
            while tree["feature"][node] >= 0:
                right = row[tree["feature"][node]] > tree["split"][node]
                node = tree["right" if right else "left"][node]
            total += tree["value"][node]
        return total

    assert model.margin(x).tolist() == [plain(row) for row in x]


def test_dropping_zeroes_what_is_found_and_leaves_the_page_as_it_was():
    page = keep.Judged(p=np.array([0.9, 0.4, 0.7]), texts=["a", "b", "c"])
    assert page.dropping(np.zeros(3, bool)) is page
    dropped = page.dropping(np.array([True, False, True]))
    assert dropped.p.tolist() == [0.0, 0.4, 0.0] and dropped.texts is page.texts
    assert page.p.tolist() == [0.9, 0.4, 0.7]
