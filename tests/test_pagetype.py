"""Tests of pipeline/pagetype.py: the page-level features, the exported model's evaluation, the reply and rows (the trainer: test_train_pagetype.py)."""
import json
import math
import sys

import numpy as np
import pytest

from builders import make_snapshot, preorder
from pith.batch import work
from pith.batch.records import Record
from pith.pipeline import features as features_mod
from pith.pipeline import pagetype
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

LONG = "words that make a real paragraph of content " * 4


def feature_map(capture, node=0):
    snap = from_json(capture, 100_000)
    feats = features_mod.compute(snap)
    row = pagetype.features(snap, feats, node)
    assert row.shape == (len(pagetype.NAMES),) and np.isfinite(row).all()
    return dict(zip(pagetype.NAMES, row.tolist()))


def shop_page():
    """A category page: six product cards of the same class, each a link, a name and a price."""
    rows = [("html", -1), ("body", 0), ("ul", 1, {"cls": "products grid"})]
    for i in range(6):
        li = len(rows)
        rows += [("li", 2, {"cls": "product-card"}),
                 ("a", li, {"text": f"Blue mug number {i}", "link": 1, "url": "https://s.example/p/1"}),
                 ("span", li, {"text": f"$1{i}.99", "cls": "price"}),
                 ("button", li, {"text": "Add to cart"})]
    return make_snapshot(rows, url="https://s.example/collections/mugs", title="Mugs – Shop")


def article_page():
    return make_snapshot([
        ("html", -1), ("body", 0),
        ("nav", 1), ("a", 2, {"text": "Home", "link": 1}),
        ("article", 1, {"cls": "post entry"}),
        ("h1", 4, {"text": "A long title of a story"}),
        ("p", 4, {"text": LONG}), ("p", 4, {"text": LONG}), ("p", 4, {"text": LONG}),
    ], url="https://news.example/2024/05/a-long-title-of-a-story", title="A long title of a story")


def test_features_of_a_category_page_see_its_cards_prices_links_and_url():
    f = feature_map(shop_page())
    assert f["repeat_max"] == pytest.approx(math.log1p(6))       # six same-class siblings
    assert f["repeat_share"] == pytest.approx(1.0)                # holding all the text
    assert f["log_prices"] == pytest.approx(math.log1p(6))       # one "$" per card
    assert f["log_buttons"] == pytest.approx(math.log1p(6))
    assert 0.3 < f["link_share"] < 0.7                            # names linked, prices not
    assert f["url_collection"] == 1.0 and f["url_product"] == 0.0 and f["url_root"] == 0.0
    assert f["short_shop"] == pytest.approx(math.log1p(6))       # "cart" six times
    assert f["name_shop"] > 0 and f["name_listing"] > 0          # product-card, grid
    assert f["title_product"] == pytest.approx(math.log1p(1))    # "Shop"


def test_features_of_an_article_see_paragraphs_the_year_folder_and_the_chosen_share():
    f = feature_map(article_page(), node=4)
    assert f["log_p_rows"] == pytest.approx(math.log1p(3)) and f["log_prices"] == 0.0
    assert f["p_mean_chars"] == pytest.approx(math.log1p(len("".join(LONG.split()))))
    assert f["repeat_max"] == pytest.approx(math.log1p(3))       # the three paragraphs
    assert f["url_year"] == 1.0 and f["url_depth"] == 3.0
    assert f["url_slug_words"] == 6.0                             # a-long-title-of-a-story
    assert f["chosen_share"] > 0.95 and f["chosen_link_share"] == 0.0
    assert f["name_article"] > 0                                 # post entry


def test_features_of_a_service_page_see_its_headings_host_and_short_lines():
    f = feature_map(make_snapshot([
        ("html", -1), ("body", 0),
        ("h2", 1, {"text": "Repairs"}), ("p", 1, {"text": LONG}),
        ("h2", 1, {"text": "Call us"}),
        ("a", 1, {"text": "555 0100", "link": 1, "url": "tel:+15550100"}),
    ], url="https://help.example.com/services?x=1", title="Repair services near you"))
    chars = len("".join(LONG.split())) + len("Repairs") + len("Callus") + len("5550100")
    assert f["host_docs"] == 1.0 and f["host_shop"] == 0.0
    assert f["url_service"] == 1.0 and f["url_query"] == 1.0 and f["url_depth"] == 1.0
    assert f["title_service"] == pytest.approx(math.log1p(3))    # repair, services, near
    assert f["headings_per_kchar"] == pytest.approx(2 / (chars / 1000 + 1))
    assert f["short_share"] == pytest.approx((chars - len("".join(LONG.split()))) / chars)
    assert f["p_mean_chars"] == pytest.approx(math.log1p(len("".join(LONG.split()))))


def test_hidden_text_and_code_count_nowhere():
    hidden = make_snapshot([(t, p, {"text": x, "hidden": h}) for t, p, x, h in (
        ("html", -1, "", 0), ("body", 0, "", 0), ("p", 1, LONG, 0),
        ("ul", 1, "", 1), ("li", 3, "$5", 0), ("li", 3, "$6", 0), ("li", 3, "$7", 0),
        ("script", 1, "var a = '$1 $2';", 0))])
    f = feature_map(hidden)
    assert f["log_prices"] == 0.0 and f["log_short"] == 0.0 and f["repeat_max"] == 0.0
    assert f["log_chars"] == pytest.approx(math.log1p(len("".join(LONG.split()))))


def test_the_model_is_a_softmax_of_the_standardised_features():
    model = pagetype.Model(classes=("a", "b", "c"), names=("x", "y"),
                           mean=np.array([1.0, 2.0]), scale=np.array([2.0, 4.0]),
                           weights=np.array([[1.0, 0.0, -1.0], [0.0, 2.0, 0.0]]),
                           intercept=np.array([0.0, 0.5, 0.0]), columns=np.array([0, 1]))
    p = model.probabilities(np.array([[3.0, 2.0], [1.0, 6.0]]))
    z = np.array([[1.0, 0.5, -1.0], [0.0, 2.5, 0.0]])             # by hand
    want = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    assert p == pytest.approx(want)



def test_the_best_class_of_one_row_is_the_softmaxs_to_the_bit():
    """Model.best (classify's one row) answers what probabilities' argmax and its value
    are, bit for bit, for the shipped model on rows of every scale."""
    model = pagetype.load()
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(3000, len(model.columns))) * rng.choice(
        [1e-3, 1.0, 30.0, 1e4], size=(3000, len(model.columns)))
    for x in rows:
        p = model.probabilities(x)[0]
        k = int(p.argmax())
        assert model.best(x) == (k, float(p[k]))

def test_a_model_reading_a_feature_this_host_lacks_is_refused(tmp_path):
    obj = {"classes": ["a", "b"], "features": ["no_such_feature"], "mean": [0], "scale": [1],
           "weights": [[1, -1]], "intercept": [0, 0]}
    with pytest.raises(Exception, match="no_such_feature"):
        pagetype.Model.from_json(obj)



def test_the_shipped_model_loads_and_names_every_class():
    model = pagetype.load()
    assert model is not None and model.classes == pagetype.CLASSES
    assert set(model.names) <= set(pagetype.NAMES)


def test_the_select_reply_carries_the_page_type_and_its_probability():
    wire = select(shop_page()).to_wire()
    assert wire["page_type"] in pagetype.CLASSES
    assert 1 / len(pagetype.CLASSES) <= wire["page_type_p"] <= 1
    assert "page_type_ms" in wire["timings"]


def test_the_page_type_is_computed_once_per_page_and_element(monkeypatch):
    snap = from_json(article_page(), 100_000)
    feats = features_mod.compute(snap)
    calls = []
    real = pagetype.features
    monkeypatch.setattr(pagetype, "features", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    first = pagetype.classify(snap, feats, 4)
    assert pagetype.classify(snap, feats, 4) == first and calls == [4]
    pagetype.classify(snap, feats, 1)                      # another element: computed anew
    assert calls == [4, 1]


def test_the_pages_part_of_the_features_is_computed_once_per_page(monkeypatch):
    """The headline anchor asks for the method's element and the reply for the final one:
    the features that do not depend on the element (all but CHOSEN; their scans of short
    texts, class names and siblings are the cost) are computed once for the two, and the
    rows equal those computed afresh for each element."""
    snap = from_json(article_page(), 100_000)
    feats = features_mod.compute(snap)
    scans = []
    real = pagetype.short_text
    monkeypatch.setattr(pagetype, "short_text", lambda *a: scans.append(1) or real(*a))
    rows = {}
    real_features = pagetype.features
    monkeypatch.setattr(pagetype, "features",
                        lambda s, f, node, *a: rows.setdefault(node, real_features(s, f, node, *a)))
    pagetype.classify(snap, feats, 4)
    pagetype.classify(snap, feats, 1)
    assert len(scans) == 1 and set(rows) == {4, 1}
    monkeypatch.setattr(pagetype, "short_text", real)
    for node, row in rows.items():
        assert row.tolist() == real_features(snap, feats, node).tolist()
    assert rows[4][pagetype.CHOSEN].tolist() != rows[1][pagetype.CHOSEN].tolist()


def test_rows_carry_the_page_type(tmp_path):
    page = tmp_path / "a.html"
    page.write_text("<html><head><title>How do I fix my bike? - Forum</title></head><body>"
                    + "".join(f"<div class='post'><span class='author'>user{i}</span>"
                              f"<p>{LONG}</p><a href='#'>Reply</a></div>" for i in range(5))
                    + "</body></html>")
    row = work.extract(Record(0, str(page), page.as_uri()), work.Job())
    assert row["status"] == "ok"
    assert row["page_type"] in pagetype.CLASSES and 0 < row["page_type_p"] <= 1
    assert json.loads(json.dumps(row))["page_type"] == row["page_type"]


def test_declared_types_are_read_from_json_ld_microdata_and_opengraph():
    declared = {"ld": ['{"@context": "https://schema.org", "@graph": [{"@type": "WebPage"},'
                       ' {"@type": ["Product", "Thing"], "offers": {"@type": "Offer"}}]}'],
                "scopes": [[3, "https://schema.org/DiscussionForumPosting"]],
                "meta": [[1, "og:type", "product.item"], [2, "og:title", "article"]]}
    got = dict(zip(pagetype.DECLARED_TYPES, pagetype.declared_types(declared)))
    assert got == {"article": 0.0, "forum": 1.0, "product": 1.0, "listing": 0.0, "docs": 0.0,
                   "service": 0.0, "website": 1.0}
    assert pagetype.declared_types({}) == [0.0] * len(pagetype.DECLARED_TYPES)


def test_the_key_after_a_single_json_ld_type_is_not_read_as_a_type():
    # `"@type": "BlogPosting", "comment": [...]`: the post's comments property, not a
    # declared Comment (which would count the page a forum's)
    ld = '{"@type": "BlogPosting", "comment": [{"text": "hi"}], "@id": "x"}'
    assert pagetype.declared_names({"ld": [ld]}) == {"blogposting"}
    assert pagetype.declared_names({"ld": ['{"@type": [ "Product" , "Thing" ], "offers": 1}']}) \
        == {"product", "thing"}


def test_the_declared_names_are_read_once_per_snapshot(monkeypatch):
    """The comment thread's forum test and the page type both ask for the page's declared
    types: the scripts are read once (pagetype.page_declared_names)."""
    from pith.pipeline import comments
    capture = make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": LONG})],
                            url="https://news.example/2024/05/story", title="A story")
    capture["declared"] = {"ld": ['{"@type": "NewsArticle"}'], "meta": [[1, "og:type", "article"]]}
    snap = from_json(capture, 100)
    feats = features_mod.compute(snap)
    calls = []
    real = pagetype.declared_names

    def counted(declared):
        calls.append(1)
        return real(declared)
    monkeypatch.setattr(pagetype, "declared_names", counted)
    assert not comments.declares_thread(snap)
    row = dict(zip(pagetype.NAMES, pagetype.features(snap, feats).tolist()))
    assert row["declared_article"] == 1.0 and row["declared_forum"] == 0.0
    assert len(calls) == 1
    assert pagetype.page_declared_names(snap) == {"newsarticle", "article"}


def test_declared_types_take_the_names_found_or_read_them():
    declared = {"ld": ['{"@type": "QAPage"}']}
    names = pagetype.declared_names(declared)
    assert pagetype.declared_types(declared, frozenset(names)) == pagetype.declared_types(declared)
    assert dict(zip(pagetype.DECLARED_TYPES, pagetype.declared_types(declared)))["forum"] == 1.0



def test_tokens_are_the_ascii_letter_runs_of_the_lower_cased_text():
    """pagetype.tokens (bytes mapped to spaces, split) against its definition, the regex
    `[a-z]+` over the lower-cased text, on random strings of ASCII, accented letters,
    the Kelvin sign and dotted I (whose lower case is ASCII), digits, marks and spaces."""
    rng = np.random.default_rng(3)
    alphabet = list("abcXYZ_-09 .\n\t") + ["é", "İ", "\u212a", "ß", "日", "😀", "\u00a0",
                                             "É", "Ⱥ", "\u2126", "Σ", "ǅ", "\ud800"]
    for _ in range(600):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 40))))
        assert pagetype.tokens(text) == pagetype.TOKEN.findall(text.lower()), text


def test_only_two_characters_beyond_ascii_lower_case_to_an_ascii_letter():
    """pagetype.letters lower-cases A-Z by its byte table and calls str.lower only on a
    text holding one of ASCII_FROM_LOWER: every other character beyond ASCII (all of
    Unicode, surrogates aside) has a lower case without an ASCII letter, so it maps to
    spaces either way."""
    found = tuple(chr(c) for c in range(128, sys.maxunicode + 1)
                  if not 0xD800 <= c <= 0xDFFF
                  and any(ch.isascii() and ch.isalpha() for ch in chr(c).lower()))
    assert found == pagetype.ASCII_FROM_LOWER
    for text in ("SUPERİOR \u212aELVIN", "Reply REPLY rÉply", "ﬁle"):
        assert pagetype.letters(text).split() == pagetype.TOKEN.findall(text.lower())


def test_token_counts_count_each_groups_words_among_the_tokens():
    """pagetype.token_counts (the tokens as bytes, each hit added to its groups through
    group_index) against its definition: per group, log1p of how many of the text's
    lower-case letter tokens are its words, a word of two groups counted in both; on
    random texts of the short texts' and title's words in any case, other words, digits,
    marks, dotted I and the Kelvin sign."""
    rng = np.random.default_rng(8)
    for groups, index in ((pagetype.SHORT_WORDS, pagetype.SHORT_INDEX),
                          (pagetype.TITLE_WORDS, pagetype.TITLE_INDEX)):
        words = sorted(set().union(*groups.values()))
        parts = words + [w.upper() for w in words[:20]] + ["x", "2", "-", " ", "\n", "İ",
                                                           "\u212a", "é", "Reply2all"]
        for _ in range(200):
            text = "".join(rng.choice(parts, size=int(rng.integers(0, 30))))
            tokens = pagetype.TOKEN.findall(text.lower())
            want = [math.log1p(sum(t in group for t in tokens)) for group in groups.values()]
            assert pagetype.token_counts(text, groups, index) == want, text


def test_name_counts_count_the_distinct_tokens_each_group_begins():
    """pagetype.name_counts (one search for a group word after each token's space) against
    its definition: per NAME_WORDS group, the distinct lower-case ASCII letter tokens of
    the names that begin with one of its words and with none of an earlier group's; on
    random names of group words, their stems inside other tokens, digits and marks."""
    rng = np.random.default_rng(5)
    groups = list(pagetype.NAME_WORDS)
    parts = [w for ws in pagetype.NAME_WORDS.values() for w in ws] + [
        "x", "re", "po", "Post", "CARD", "-", "_", "2", " ", "é", "İ", "sub"]
    for _ in range(200):
        names = ["".join(rng.choice(parts, size=int(rng.integers(0, 6))))
                 for _ in range(int(rng.integers(0, 8)))]
        words = set(pagetype.TOKEN.findall(" ".join(names).lower()))
        want = []
        for k, g in enumerate(groups):
            earlier = tuple(w for h in groups[:k] for w in pagetype.NAME_WORDS[h])
            want.append(math.log1p(sum(1 for w in words if w.startswith(pagetype.NAME_WORDS[g])
                                       and not w.startswith(earlier or ("\0",)))))
        assert pagetype.name_counts(names) == want, names


def searched_name_counts(names: list[str]) -> list[float]:
    """name_counts as it was before the numpy filter (cost13): NAME_TOKENS searched
    after every token's space of the whole names text, the distinct (word, rest) pairs
    counted in their word's group."""
    per = [0] * len(pagetype.NAME_WORDS)
    found = pagetype.NAME_TOKENS.findall(b" " + pagetype.letter_bytes(" ".join(names)))
    for word, _rest in set(found):
        per[pagetype.NAME_GROUP[word]] += 1
    return [math.log1p(c) for c in per]


def test_name_counts_equal_the_search_over_every_token():
    """name_counts' numpy filter (each token's first eight bytes in a word's range, then
    NAME_TOKENS over the distinct tokens found) against the search over every token's
    space it replaced: on edge names (a word alone, at the text's start and end, a word
    cut short, a long word's first eight letters with another ending, a token longer
    than its word, runs of marks and digits, letters beyond ASCII, nothing at all) and
    on random names of words, their prefixes and extensions."""
    words = [w for ws in pagetype.NAME_WORDS.values() for w in ws]
    edge = [[], [""], [" "], ["-_-"], ["md"], ["m"], ["mdx"], ["xmd"], ["md-6 col-md-4"],
            ["pagination"], ["paginatio"], ["paginatiox"], ["paginationbar"],
            ["testimonials"], ["testimonia-l"], ["highlightjs", "highlighter"],
            ["a" * 40, "post" + "z" * 40], ["POST", "Post_Body", "postBody"],
            ["İtem", "\u212aard", "carté", "ÉCARD"], ["zzzzzzzz", "\x7f\x7fpost"],
            ["user", "users user2user"], ["sectionsection", "section"]]
    for names in edge:
        assert pagetype.name_counts(names) == searched_name_counts(names), names
    rng = np.random.default_rng(13)
    parts = words + [w[:-1] for w in words] + [w + "x" for w in words] + [
        w[:8] + "q" for w in words if len(w) > 8] + [
        "x", "Post", "CARD", "-", "_", "2", " ", "  ", "é", "İ", "\u212a", "zz"]
    for _ in range(400):
        names = ["".join(rng.choice(parts, size=int(rng.integers(0, 7))))
                 for _ in range(int(rng.integers(0, 9)))]
        assert pagetype.name_counts(names) == searched_name_counts(names), names


def test_name_heads_are_disjoint_ranges_of_the_words():
    """NAME_HEADS ascend, each word's range ends before the next begins (no word begins
    another, so a token's head lies in one range at most), and every word's own bytes
    lie in its range."""
    heads, ends = pagetype.NAME_HEADS, pagetype.NAME_HEAD_ENDS
    assert (heads[1:] > heads[:-1]).all() and (ends[:-1] <= heads[1:]).all()
    for w in (w for ws in pagetype.NAME_WORDS.values() for w in ws):
        v = int.from_bytes((w.encode("ascii") + b"        ")[:8], "big")
        k = int(np.searchsorted(heads, np.uint64(v), "right")) - 1
        assert heads[k] <= v < ends[k], w


def random_page(seed: int, n: int = 300) -> dict:
    """A random tree in preorder: tags of every text group (nested lists, tables, code),
    classes repeated among siblings, short and long texts and tails, some links."""
    rng = np.random.default_rng(seed)
    parents = [-1] + [int(rng.integers(max(0, i - 8), i)) for i in range(1, n)]
    order, row_of = preorder(parents)
    tags = ["div", "ul", "li", "p", "td", "table", "pre", "code", "h2", "a", "span", "nav",
            "article", "form", "input", "button", "script"]
    texts = ["", "", "Reply", "$12.99 Add to cart", "3 days ago", LONG, "Edit on GitHub"]
    classes = ["", "card", "post-body", "productCard grid", "toc md-nav", "x"]
    rows = []
    for node in order:
        tag = "html" if not node else str(rng.choice(tags))
        rows.append((tag, row_of[parents[node]] if node else -1, {
            "text": str(rng.choice(texts)), "tail": str(rng.choice(texts)),
            "cls": str(rng.choice(classes)), "id": str(rng.choice(["", "", "main", "cart"])),
            "link": int(tag == "a"), "url": "tel:1" if rng.random() < 0.1 else "https://e.x/"}))
    return make_snapshot(rows, url="https://e.x/forum/t/1", title="A thread")


def reference_features(snap, feats, node):
    """The features the pipeline's arrays define, computed the plain way (every group's
    rows counted one by one, groups keyed by Python tuples): counts, repeated siblings,
    the chosen element's shares, class words."""
    live = ~feats.gone
    total = max(int(feats.chars[0]), 1)
    tag_of = snap.tag.tolist()
    out = {}
    for g, tags in pagetype.COUNT_GROUPS.items():
        out[f"log_{g}"] = math.log1p(sum(t in tags and live[i] for i, t in enumerate(tag_of)))
    groups: dict[tuple, list[int]] = {}
    for r in range(1, snap.n):
        if live[r] and feats.chars[r] > 0:
            groups.setdefault((int(snap.parent[r]), tag_of[r], snap.cls[r]), []).append(r)
    big = [rows for rows in groups.values() if len(rows) >= pagetype.REPEAT_MIN]
    out["repeat_max"] = math.log1p(max(map(len, groups.values()), default=0)) if big else 0.0
    out["repeat_share"] = (max(float(feats.chars[rows].sum()) for rows in big) / total
                           if big else 0.0)
    out["repeat_groups"] = math.log1p(len(big)) if big else 0.0
    out["chosen_share"] = float(feats.chars[node]) / total
    out["chosen_link_share"] = float(feats.linked_chars[node]) / max(int(feats.chars[node]), 1)
    names = {v for r in range(snap.n) if live[r] for v in (snap.cls[r], snap.id[r])}
    words = set(pagetype.TOKEN.findall(" ".join(names).lower()))
    for g, starts in pagetype.NAME_WORDS.items():
        first = [w for w in words if w.startswith(starts)
                 and not any(w.startswith(pagetype.NAME_WORDS[h])
                             for h in list(pagetype.NAME_WORDS)[:list(pagetype.NAME_WORDS).index(g)])]
        out[f"name_{g}"] = math.log1p(len(first))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_features_equal_their_plain_definitions_on_random_trees(seed, monkeypatch):
    """Counts by tag code, repeated siblings by class number with their characters in one
    sorted integer (and by the three columns past KEY_LIMIT), the chosen element's shares,
    class words from the distinct tokens: equal to the plain computation, the chosen
    element anywhere (a list item, inside one, holding some, the root)."""
    snap = from_json(random_page(seed), 100_000)
    feats = features_mod.compute(snap)
    li = [r for r in range(snap.n) if snap.tag[r] == "li"]
    in_li = [r for r in range(snap.n) if snap.tag[snap.parent[r]] == "li"]
    holding = [r for r in range(1, snap.n) if r not in li and snap.end[r] - r > 3]
    for node in [0] + li[:1] + in_li[:1] + holding[:2]:
        want = reference_features(snap, feats, node)
        got = dict(zip(pagetype.NAMES, pagetype.features(snap, feats, node).tolist()))
        for name, value in want.items():
            assert got[name] == pytest.approx(value, abs=1e-12), (name, node)
        monkeypatch.setattr(pagetype, "KEY_LIMIT", 0)
        assert pagetype.features(snap, feats, node).tolist() == list(got.values())
        monkeypatch.setattr(pagetype, "KEY_LIMIT", 2**63)


def test_the_page_type_reads_no_subtree_bounds_or_link_addresses():
    """The tag groups' shares of the text (their outermost rows by subtree bounds), `tel:`
    links and the chosen element's list items and paragraphs are not features: the model
    does as well without them by the trainer's cross-validation (NOTES.md, 'Why the page
    type reads no text shares of tag groups'). So the stage reads neither the rows'
    subtree bounds nor the links' addresses: taken from the snapshot, it still answers."""
    snap = from_json(shop_page(), 100_000)
    feats = features_mod.compute(snap)
    want = pagetype.features(snap, feats, 2)
    object.__setattr__(snap, "end", None)
    del snap.cols["url"]
    assert pagetype.features(snap, feats, 2).tolist() == want.tolist()
    assert not any(n.startswith("share_") for n in pagetype.NAMES)


def test_the_tag_table_is_right_after_its_memory_is_emptied(monkeypatch):
    """tag_table remembers each tag's groups up to TAG_CACHE_SIZE tags, then starts again:
    every row stays each tag's membership of GROUPS."""
    monkeypatch.setattr(pagetype, "TAG_CACHE_SIZE", 3)
    monkeypatch.setattr(pagetype, "_TAG_BITS", {})
    for tags in (["li", "p", "x-card"], ["td", "pre", "h2", "input", "li"], ["p"]):
        want = np.array([[t in g for g in pagetype.GROUPS] for t in tags])
        assert (pagetype.tag_table(tags) == want).all()
    assert len(pagetype._TAG_BITS) <= 5


def test_prices_count_every_currency_sign_of_the_short_texts():
    """short_text counts only "$" in an ASCII text (its other signs are beyond ASCII, so
    such a text holds none of them) and every sign otherwise: "$12", "£3", "€4" and "¥5"
    in short texts of an otherwise ASCII page are four prices, "$1" and "$2" alone two."""
    assert [c for c in pagetype.CURRENCY if c.isascii()] == ["$"]
    for texts, prices in ((["$12", "£3", "€4 off", "¥5"], 4), (["$1", "Buy $2"], 2)):
        rows = [("html", -1, {}), ("body", 0, {})] + [("p", 1, {"text": t}) for t in texts]
        assert feature_map(make_snapshot(rows))["log_prices"] == math.log1p(prices)
