"""Word tries: the same matches as the plain alternation, the list's order kept."""
import random
import re

import pytest

from pith.pipeline import wordtrie


def test_alternatives_split_at_the_top_level_only():
    assert wordtrie.alternatives(r"a|b(c|d)|(^|[-_\s])e") == ["a", "b(c|d)", r"(^|[-_\s])e"]


def test_a_literal_prefix_stops_before_a_quantified_letter():
    assert wordtrie.split("comments?") == ("comment", "s?")
    assert wordtrie.split("repl(y|ies)") == ("repl", "(?:y|ies)")
    assert wordtrie.split("sign ?up") == ("sign", " ?up")
    assert wordtrie.split("posted (by|in)") == ("posted ", "(?:by|in)")


def test_a_look_ahead_in_a_rest_is_kept():
    """A rest's look-around stays one ("author(?!ing)": the word not followed by "ing"),
    where only a capturing group is made non-capturing."""
    assert wordtrie.split("author(?!ing|i[tsz])") == ("author", "(?!ing|i[tsz])")
    assert wordtrie.split("x(?=y)(z|w)") == ("x", "(?=y)(?:z|w)")
    plain = re.compile("author(?!ing)|autor|aut(o|e)ur")
    text = "authoring author autour auteur"
    assert [m.span() for m in wordtrie.compiled(plain).finditer(text)] == \
        [m.span() for m in plain.finditer(text)] == [(10, 16), (17, 23), (24, 30)]


@pytest.mark.parametrize("words", [
    "post|posted|postal|pos|p", "posted|post|pos", "a|ab|abc|abcd|b|ba",
    "date|dateline|data|dat(a|e)s?|time", "x-?y|x|xy|yx"])
def test_the_trie_matches_as_the_alternation(words):
    plain = re.compile(words)
    fast = re.compile(wordtrie.trie([wordtrie.split(w) for w in wordtrie.alternatives(words)]))
    rng = random.Random(3)
    letters = sorted(set(words) - set("|()?-") | {" "})
    texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 15))) for _ in range(3000)]
    assert [[m.span() for m in fast.finditer(t)] for t in texts] == \
        [[m.span() for m in plain.finditer(t)] for t in texts]


def test_an_order_no_trie_can_keep_is_refused():
    """"cap" lies between "capxa" and "capxb": trying the x branch first lets "capxb" win
    over "cap", trying "cap" first lets it win over "capxa"."""
    with pytest.raises(ValueError, match="straddle"):
        wordtrie.trie([("capxa", ""), ("cap", ""), ("capxb", "")])


def test_a_compiled_alternation_matches_as_itself():
    """wordtrie.compiled of the metadata's class-word patterns (what the byline and the date
    line search as tries) finds the same spans as the patterns, on random texts of their
    letters, hyphens and spaces, and keeps their flags."""
    from pith.pipeline.metadata import byline, dateline
    rng = random.Random(7)
    for plain in (byline.BYLINE_NAMES, dateline.DATE_NAMES):
        fast = wordtrie.compiled(plain)
        assert fast.flags == plain.flags and fast.pattern != plain.pattern
        words = wordtrie.alternatives(plain.pattern)
        letters = sorted(set(plain.pattern) - set("|()?") | {" "})
        texts = ["".join(rng.choice(letters + words) for _ in range(rng.randint(0, 12)))
                 for _ in range(3000)]
        assert [[m.span() for m in fast.finditer(t)] for t in texts] == \
            [[m.span() for m in plain.finditer(t)] for t in texts]
