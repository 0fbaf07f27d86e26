"""Word families of names: the trie scan finds what the reference alternation finds."""
import random
import re

from pith.pipeline import families


def reference(name: str) -> list[bool]:
    hit = [False] * len(families.FAMILIES)
    for m in families.reference_pattern().finditer(name):
        hit[families.COLUMN[m.lastgroup]] = True
    return hit


def test_words_of_each_family_are_found():
    names = ["comments-area", "share-bar", "post-content", "loading", "ad", "top-ads_x",
             "bio", "biography", "symbiosis", "tags", "stage", "tag-cloud", "posted-on"]
    hits = families.families_of(names)
    col = families.COLUMN
    assert hits[0, col["comment"]] and hits[1, col["share"]] and hits[2, col["content"]]
    assert not hits[3].any()
    assert hits[4, col["ad"]] and hits[5, col["ad"]]
    assert hits[6, col["author"]] and hits[7, col["author"]] and not hits[8, col["author"]]
    assert hits[9, col["meta"]] and not hits[10, col["meta"]] and hits[11, col["meta"]]
    # "posted" is meta's, and the reference's first match there takes its "post" too
    assert hits[12, col["meta"]] and not hits[12, col["content"]]
    assert hits.tolist() == [reference(n) for n in names]


def test_the_trie_finds_what_the_reference_finds():
    """On names made of family words, separators, other letters and other whitespace,
    scanned one by one and all together (a name's end next to the next one's start)."""
    words = [w for v in families.FAMILIES.values() for w in re.findall(r"[a-z]+", v) if w]
    bits = words + ["-", "_", " ", "  ", "\t", "\u3000", "\n", "x", "h", "9", "ad", "ads",
                    "-ad-", "é", "s", "bio", "tag", "line", "ed"]
    rng = random.Random(7)
    names = ["".join(rng.choice(bits) for _ in range(rng.randint(0, 6))) for _ in range(20000)]
    want = [reference(n) for n in names]
    assert sum(any(w) for w in want) > 10000                     # the names do match
    assert families.families_of(names).tolist() == want
    assert [families.families_of([n])[0].tolist() for n in names[:3000]] == want[:3000]


def test_no_names():
    assert families.families_of([]).shape == (0, len(families.FAMILIES))
