"""Page type: what kind of page a snapshot is (article, forum, product, …), from page-level features and a small exported model.

`features(snap, feats, node)` computes one row of page-level numbers (NAMES) from the
arrays the pipeline already has — the visible text's size and its share in links, counts
of inputs, buttons, images, headings, paragraphs and other tags, sibling structures
repeated with the same tag and class, the chosen element's share of the text and its
links' share, price signs and the short words of forum and shop furniture in short text
nodes, words of class and id names, words of the URL's path and of the title, the types
the page declares. The tag groups' shares of the text, `tel:` links and the chosen
element's list and paragraph features are not read: by the trainer's site-grouped
cross-validation on the training sites the model does as well without them, in accuracy
and log loss (NOTES.md, 'Why the page type reads no text shares of tag groups'). The
numbers come from the pipeline's arrays by vectorised passes (counts by tag code) and
each string column is read once (the classes numbered and made distinct in one pass,
tokens by byte translation). `Model` is a multinomial logistic regression over them
(pipeline/models/pagetype.json, written by `pith train-pagetype`, documented in
models/PAGETYPE.md); `classify` gives the type and its probability.

The classes are WCXB's `page_type` labels (CLASSES); magic_html's article and forum pages
train the same two classes (NOTES.md, 'Why the page type is a logistic regression over
page-level features'). The model file names its classes and features: a feature
this module no longer computes is an error at load, not a silent zero.
"""
from __future__ import annotations

import math
import re
import urllib.parse
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Iterable

import numpy as np

from . import wordtrie
from .codes import used
from . import modelfile
from .features import Features
from .snapshot import Snapshot

MODEL_PATH = Path(__file__).resolve().parent / "models" / "pagetype.json"

# WCXB's labels (metadata.json's page_type), the wire's `page_type` values.
CLASSES = ("article", "forum", "product", "listing", "collection", "documentation", "service")

# Tag groups whose count of visible rows (log) is a feature.
COUNT_GROUPS = {
    "inputs": frozenset({"input", "select", "textarea"}),
    "buttons": frozenset({"button"}),
    "images": frozenset({"img", "picture"}),
    "h1": frozenset({"h1"}),
    "h2": frozenset({"h2", "h3", "h4", "h5", "h6"}),
    "time": frozenset({"time"}),
    "articles": frozenset({"article"}),
    "pre": frozenset({"pre"}),
    "tables": frozenset({"table"}),
    "p_rows": frozenset({"p"}),
}
# Short text nodes (at most SHORT_CHARS non-space characters) are where a page's furniture
# speaks: "Reply", "Add to cart", "$19.99", "Joined", "Filter". Longer ones are prose.
SHORT_CHARS = 40
# Words of short text nodes (lower-case tokens), counted per group: a token lookup, not a
# regex over the text (an alternation of a hundred words tried at every character cost
# several milliseconds a page).
SHORT_WORDS = {
    "forum": frozenset("reply replies quote posts joined views vote votes answer answers asked "
                       "upvote thread member members moderator report posted topic topics "
                       "permalink".split()),
    "shop": frozenset("cart bag basket wishlist buy stock sku shipping quantity qty checkout "
                      "review reviews sold price sale discount delivery".split()),
    "listing": frozenset("more next previous prev older newer page filter filters sort "
                         "results result all showing items".split()),
    "service": frozenset("contact started learn book schedule request quote consultation "
                         "trial call pricing demo services service free".split()),
    "article": frozenset("share tweet read comments comment related author by published "
                         "updated min".split()),
    "docs": frozenset("edit github contents parameters parameter returns example examples "
                      "syntax version api deprecated note".split()),
    "ago": frozenset("ago yesterday hours minutes days weeks months years".split()),
}
# Currency signs: their count in the short text nodes is the price feature ("$19.99").
CURRENCY = "$€£¥₹"
# Beginnings of class and id name tokens (lower case), counted per group: `productCard`,
# `post-body`, `toc`, `cta-button`.
NAME_WORDS = {
    "forum": ("post", "reply", "thread", "topic", "forum", "answer", "question", "vote",
              "message", "comment", "user", "avatar"),
    "shop": ("product", "price", "cart", "basket", "sku", "variant", "buy", "checkout",
             "stock", "rating", "review", "shop"),
    "listing": ("card", "grid", "tile", "teaser", "listing", "result", "pagination", "pager",
                "filter", "facet", "archive"),
    "docs": ("doc", "toc", "sidebar", "highlight", "code", "api", "syntax", "admonition",
             "sphinx", "md"),
    "article": ("article", "entry", "byline", "author", "share", "related", "story",
                "headline", "blog", "meta"),
    "service": ("hero", "cta", "feature", "testimonial", "pricing", "service", "contact",
                "banner", "section"),
}
# The words above after a token's space, as a trie of their letters (wordtrie.py: a
# place costs a comparison per distinct next letter, not one per word), capturing the
# word and the rest of the token (the pair is the token: a set of them is the distinct
# tokens); NAME_GROUP names the word's group (the first that lists it, as an alternation
# of the groups in order would). The definition of a token's word: name_counts matches
# it on the few distinct tokens NAME_HEADS lets through, as bytes of `letter_bytes`
# (its search over every token's space cost a regex attempt a space: NOTES.md, 'Why the
# page type's class words are found by numpy').
NAME_TOKENS = re.compile((" (" + wordtrie.trie([(w, "") for words in NAME_WORDS.values()
                                                 for w in words]) + ")([a-z]*)").encode("ascii"))
NAME_GROUP = {w.encode("ascii"): k for k, words in reversed(list(enumerate(NAME_WORDS.values())))
              for w in words}
# The words' first eight letters (ASCII, zero bytes after a shorter word) as big-endian
# integers, ascending, and where each word's range ends: a token whose first eight
# bytes (letters, then a space and whatever follows) lie in [NAME_HEADS[k],
# NAME_HEAD_ENDS[k]) begins with word k's first eight letters (no word begins another:
# the ranges are disjoint; tests/test_pagetype.py checks). name_counts reads the tokens
# so found with NAME_TOKENS, which decides.
_HEADS = sorted(w.encode("ascii")[:8].ljust(8, b"\0") for words in NAME_WORDS.values()
                for w in words)
NAME_HEADS = np.frombuffer(b"".join(_HEADS), ">u8").astype(np.uint64)
NAME_HEAD_ENDS = NAME_HEADS + np.array([1 << 8 * (8 - len(h.rstrip(b"\0"))) for h in _HEADS],
                                       np.uint64)
# Spaces after the names' bytes: every token start has eight bytes to read.
_HEAD_PAD = b" " * 8
# Tokens of names and texts, once lower-cased: ASCII letter runs (every word above is
# one; a Unicode letter class costs several times as much on a page of utility classes).
# Found by mapping every byte of the UTF-8 text to a space but a-z, and A-Z to a-z on the
# way, and splitting (tokens): the tokens of `[a-z]+`, four times faster than that
# regex's findall, with no `str.lower` pass over a text whose lower case adds no ASCII
# letter (`letters`)...
TOKEN = re.compile(r"[a-z]+")
_LETTERS = bytes(c if 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(256))
# ... which is every text without these two: the only characters beyond ASCII whose lower
# case holds an ASCII letter (dotted I: "i" and a combining dot; the Kelvin sign: "k";
# tests/test_pagetype.py checks the whole of Unicode).
ASCII_FROM_LOWER = ("\u0130", "\u212a")
# Tag names whose row of the GROUPS table is known (tag_table), up to this many (custom
# elements make the set of tags open).
TAG_CACHE_SIZE = 10_000
_TAG_BITS: dict[str, int] = {}
# Words of the URL's path (path segments split at - _ . and /), per group.
URL_WORDS = {
    "product": {"product", "products", "p", "dp", "item", "items", "buy", "sku", "gp"},
    "forum": {"forum", "forums", "thread", "threads", "topic", "topics", "t", "questions",
              "question", "q", "discussion", "discussions", "community", "board",
              "viewtopic", "showthread", "comments", "r", "answers"},
    "docs": {"docs", "doc", "documentation", "api", "reference", "guide", "guides", "manual",
             "tutorial", "tutorials", "wiki", "kb", "help", "learn", "reference", "latest",
             "stable", "en-us", "html", "howto"},
    "listing": {"category", "categories", "tag", "tags", "search", "archive", "archives",
                "list", "page", "jobs", "events", "directory", "author", "topics", "browse"},
    "collection": {"collections", "collection", "c", "shop", "catalog", "catalogue", "store",
                   "department", "all", "women", "men", "sale", "new"},
    "service": {"services", "service", "solutions", "solution", "pricing", "about",
                "contact", "features", "platform", "agency", "consulting", "company",
                "software", "repair", "cleaning", "treatment", "law", "lawyer", "attorney",
                "insurance", "plans"},
    "article": {"blog", "news", "article", "articles", "post", "posts", "story", "stories",
                "magazine", "insights", "opinion", "features", "guides"},
}
# Words of the title (lower-case tokens), per group.
TITLE_WORDS = {
    "forum": frozenset("forum forums thread question answers help community reddit stack "
                       "discussion".split()),
    "product": frozenset("buy shop price sale".split()),
    "docs": frozenset("documentation docs reference api guide manual tutorial function "
                      "class method".split()),
    "listing": frozenset("category archive archives tag page jobs search results news blog "
                         "all".split()),
    "service": frozenset("service services company agency solutions pricing contact near "
                         "best repair professional".split()),
}
# Labels of the URL's host name, per group: docs.python.org, community.example.com.
HOST_WORDS = {
    "docs": frozenset("docs doc developer developers learn help support wiki api kb manual "
                      "guide guides reference".split()),
    "forum": frozenset("forum forums community discuss discussion answers bbs board boards "
                       "talk ask".split()),
    "shop": frozenset("shop store buy checkout".split()),
    "news": frozenset("news blog blogs magazine press".split()),
}
# What the page declares it is (the snapshot's `declared`, SNAPSHOT.md: JSON-LD `@type`,
# microdata `itemtype`, OpenGraph `og:type`), schema.org type names (lower case) per group.
DECLARED_TYPES = {
    "article": frozenset("article newsarticle blogposting reportagenewsarticle analysisnewsarticle "
                         "opinionnewsarticle scholarlyarticle report socialmediaposting "
                         "liveblogposting".split()),
    "forum": frozenset("discussionforumposting qapage question answer comment "
                       "forum".split()),
    "product": frozenset("product offer aggregateoffer individualproduct productgroup "
                         "productmodel".split()),
    "listing": frozenset("itemlist searchresultspage blog collectionpage".split()),
    "docs": frozenset("techarticle apireference howto softwaresourcecode "
                      "softwareapplication".split()),
    "service": frozenset("service localbusiness professionalservice organization corporation "
                         "faqpage homeandconstructionbusiness legalservice "
                         "medicalbusiness".split()),
    "website": frozenset("website webpage".split()),
}
# A JSON-LD type, without parsing the script: `"@type": "NewsArticle"`, or the first two of
# `["A", "B"]`; a second string only inside the brackets (after `"@type": "A",` comes the next
# key, `"comment"` or `"offers"`, not a type).
LD_TYPE = re.compile(r'"@type"\s*:\s*(?:"([^"]{1,80})"|\[\s*"([^"]{1,80})"(?:\s*,\s*"([^"]{1,80})")?)')
URL_SPLIT = re.compile(r"[/\-_.~+,;=&?]+")
YEAR_IN_PATH = re.compile(r"/(?:19|20)\d\d/")

NAMES: tuple[str, ...] = (
    ("log_chars", "link_share", "log_links", "links_per_kchar")
    + tuple(f"log_{g}" for g in COUNT_GROUPS)
    + ("repeat_max", "repeat_share", "repeat_groups")
    + ("chosen_share", "chosen_link_share")
    + ("log_short", "log_prices", "prices_per_short")
    + tuple(f"short_{g}" for g in SHORT_WORDS)
    + tuple(f"name_{g}" for g in NAME_WORDS)
    + tuple(f"url_{g}" for g in URL_WORDS)
    + tuple(f"host_{g}" for g in HOST_WORDS)
    + ("url_depth", "url_year", "url_slug_words", "url_root", "url_digits", "url_query")
    + tuple(f"title_{g}" for g in TITLE_WORDS)
    + ("title_words",)
    + ("p_mean_chars", "headings_per_kchar", "short_share")
    + tuple(f"declared_{g}" for g in DECLARED_TYPES)
)
GROUPS = tuple(COUNT_GROUPS.values())
P_ROWS = list(COUNT_GROUPS).index("p_rows")
# The chosen element's features (chosen_features), the only ones that depend on it.
CHOSEN = slice(NAMES.index("chosen_share"), NAMES.index("chosen_link_share") + 1)
# Repeated siblings: a group of at least REPEAT_MIN same-tag, same-class siblings with
# text is a list of cards, posts, products or results (one or two is a layout).
REPEAT_MIN = 3
# (parent, tag, class, characters) numbers fit one int64 while their product of ranges is
# below this; past it (a page of millions of rows and distinct tags) the three are sorted
# as such.
KEY_LIMIT = 2**63


def letter_bytes(text: str) -> bytes:
    """`text` lower-cased with every character but a-z a space (one or more), as ASCII
    bytes: its TOKEN runs are those of `text.lower()`. The byte table lower-cases A-Z
    itself, so `str.lower` runs only on a text holding one of ASCII_FROM_LOWER. The page
    type's searches and counts read the bytes (a decoding to str is a copy of them)."""
    if ASCII_FROM_LOWER[0] in text or ASCII_FROM_LOWER[1] in text:
        text = text.lower()
    return text.encode("utf-8", "surrogatepass").translate(_LETTERS)


def letters(text: str) -> str:
    """`letter_bytes` as a str."""
    return letter_bytes(text).decode("ascii")


def tokens(text: str) -> list[str]:
    """The lower-case ASCII letter runs of `text` (TOKEN.findall(text.lower()))."""
    return letters(text).split()


def group_index(groups: dict[str, frozenset]) -> dict[bytes, tuple[int, ...]]:
    """Each word of `groups`, as ASCII bytes -> the positions of the groups that list it
    (token_counts' index: a page's few distinct hits are each added to their groups,
    where every group intersected its words with the hits)."""
    index: dict[bytes, tuple[int, ...]] = {}
    for k, group in enumerate(groups.values()):
        for w in group:
            key = w.encode("ascii")
            index[key] = index.get(key, ()) + (k,)
    return index


def token_counts(text: str, groups: dict[str, frozenset],
                 index: dict[bytes, tuple[int, ...]]) -> list[float]:
    """Per group, log1p of how many of `text`'s lower-case tokens are its words; `index`:
    group_index(groups) (only the tokens it holds are counted; the tokens are the bytes
    of `letter_bytes`, split)."""
    per = [0] * len(groups)
    for word, count in Counter(filter(index.__contains__, letter_bytes(text).split())).items():
        for k in index[word]:
            per[k] += count
    return list(map(math.log1p, per))


# The short texts' and the title's words, each to its groups (token_counts).
SHORT_INDEX = group_index(SHORT_WORDS)
TITLE_INDEX = group_index(TITLE_WORDS)


def name_counts(names: Iterable[str]) -> list[float]:
    """Per NAME_WORDS group, log1p of how many distinct tokens of the class and id
    `names` begin with one of its words (distinct: a page of utility classes repeats the
    same long class strings on thousands of rows; pass each name once, it is cheaper).
    The tokens are the runs of the names' `letter_bytes`; the ones that can begin with a
    word are found by numpy over the bytes (NAME_HEADS: a token's first eight bytes, read
    at every token's start as one big-endian integer, lie in a word's range), and only
    their distinct tokens are read by NAME_TOKENS, the definition, which names the word
    (NAME_GROUP its group). The search alone over every token's space cost ~1.3 M
    instructions on a mean page (a regex attempt per space, ~2,300 of them, for ~15
    distinct tokens that begin with a word); tests/test_pagetype.py checks the two
    (NOTES.md, 'Why the page type's class words are found by numpy')."""
    per = [0] * len(NAME_WORDS)
    text = b" " + letter_bytes(" ".join(names)) + _HEAD_PAD
    at = np.frombuffer(text, np.uint8)
    space = at == 32
    starts = (space[:-1] & ~space[1:]).nonzero()[0] + 1          # each token's first byte
    if len(starts):
        # each start's eight bytes as one integer: an unaligned view, stride one byte
        head = np.ndarray((len(text) - 7,), ">u8", text, 0, (1,))[starts].astype(np.uint64)
        k = NAME_HEADS.searchsorted(head, "right") - 1
        cand = starts[(k >= 0) & (head < NAME_HEAD_ENDS[k])]
        if len(cand):
            find = text.find
            for token in {text[s:find(b" ", s)] for s in cand.tolist()}:
                m = NAME_TOKENS.match(b" " + token)
                if m:
                    per[NAME_GROUP[m[1]]] += 1
    return [math.log1p(c) for c in per]


def tag_table(tags: list[str]) -> np.ndarray:
    """(tags, GROUPS) bool: whether each tag name is in each of GROUPS (each tag's row
    remembered as the bits of an int; read once, so a select in another thread emptying
    the memory meanwhile changes nothing here)."""
    bits = list(map(_TAG_BITS.get, tags))
    if None in bits:
        if len(_TAG_BITS) >= TAG_CACHE_SIZE:
            _TAG_BITS.clear()
        for i, t in enumerate(tags):
            if bits[i] is None:
                bits[i] = _TAG_BITS[t] = sum(1 << j for j, g in enumerate(GROUPS) if t in g)
    return ((np.array(bits, np.int64)[:, None] >> np.arange(len(GROUPS))) & 1).astype(np.bool_)


def url_features(url: str) -> list[float]:
    """Per URL_WORDS group, whether the path has one of its words; per HOST_WORDS group,
    whether the host name has; the path's depth, a year folder, the words of its longest
    segment (an article's slug), whether it is the site's root, whether a segment is a
    number, whether there is a query."""
    parts = urllib.parse.urlsplit(url) if url else urllib.parse.urlsplit("")
    path = parts.path.lower()
    segments = [s for s in path.split("/") if s]
    words = set(w for w in URL_SPLIT.split(path) if w)
    out = [float(bool(words & group)) for group in URL_WORDS.values()]
    labels = set(URL_SPLIT.split((parts.hostname or "").lower()))
    out += [float(bool(labels & group)) for group in HOST_WORDS.values()]
    slug = max((len([w for w in URL_SPLIT.split(s) if w]) for s in segments), default=0)
    out += [float(min(len(segments), 8)), float(bool(YEAR_IN_PATH.search(path))),
            float(min(slug, 20)), float(not segments),
            float(any(s.isdigit() for s in segments)), float(bool(parts.query))]
    return out


@dataclass(frozen=True)
class PagePart:
    """The page's own part of the feature row, the same whatever element is chosen:
    `row` (NAMES, the CHOSEN columns 0) and the page's visible characters."""

    row: np.ndarray       # NAMES, every feature but CHOSEN's
    total: int            # the page's visible characters (at least 1)


def page_part(snap: Snapshot, feats: Features) -> PagePart:
    """Every feature of the row but the chosen element's (CHOSEN): computed once per page
    (`classify` remembers it), however many elements the page's type is asked for."""
    live = ~feats.gone
    total = max(int(feats.chars[0]), 1)
    links = int(feats.links[0])
    out = [math.log1p(total), float(feats.linked_chars[0]) / total, math.log1p(links),
           links / (total / 1000.0 + 1.0)]

    # tag groups' counts through a table of the page's few dozen tag names by group
    codes, tags = snap.tag_codes()
    table = tag_table(tags)
    count = dict(zip(COUNT_GROUPS, (np.bincount(codes[live], minlength=len(tags))
                                    @ table).tolist()))
    out += np.log1p(list(count.values())).tolist()

    # the snapshot's number of each row's class (Snapshot.string_codes, shared with the
    # other stages that read class names); the distinct names of the live rows
    cls_codes, classes = snap.string_codes("cls")
    id_codes, ids = snap.string_codes("id")
    out += repeats(snap, feats, live, total, cls_codes, len(classes))
    out += [0.0] * (CHOSEN.stop - CHOSEN.start)

    short, short_chars = short_text(snap, feats, live)
    out += short
    out += name_counts(chain(present(classes, cls_codes[live]), present(ids, id_codes[live])))
    url = snap.meta.get("url") or ""
    out += url_features(url)
    title = snap.meta.get("title") or ""
    out += token_counts(title, TITLE_WORDS, TITLE_INDEX)
    out.append(float(min(len(title.split()), 30)))

    # the visible paragraphs' characters (a paragraph holds no paragraph: the parser
    # closes one where another opens)
    p_chars = int(feats.chars[table[codes, P_ROWS] & live].sum())
    p_rows, headings = count["p_rows"], count["h1"] + count["h2"]
    out += [math.log1p(p_chars / max(p_rows, 1)), headings / (total / 1000.0 + 1.0),
            short_chars / total]
    out += declared_types(snap.meta.get("declared") or {}, page_declared_names(snap))
    return PagePart(row=np.array(out, np.float64), total=total)


def chosen_features(snap: Snapshot, feats: Features, page: PagePart, node: int) -> list[float]:
    """The CHOSEN features of element `node`: its share of the page's text and its
    links' share of its own."""
    chosen = max(int(feats.chars[node]), 1)
    return [feats.chars[node] / page.total, float(feats.linked_chars[node]) / chosen]


def features(snap: Snapshot, feats: Features, node: int = 0,
             page: PagePart | None = None) -> np.ndarray:
    """The page-level feature row (NAMES) of `snap`, with `node` the chosen element;
    `page`: the page's part already computed (page_part of this snapshot and features)."""
    page = page_part(snap, feats) if page is None else page
    out = page.row.copy()
    out[CHOSEN] = chosen_features(snap, feats, page, node)
    return out


def declared_types(declared: dict, names: frozenset[str] | None = None) -> list[float]:
    """Per DECLARED_TYPES group, whether the page declares one of its types (`names`:
    declared_names(declared) when already found)."""
    names = declared_names(declared) if names is None else names
    return [float(not names.isdisjoint(group)) for group in DECLARED_TYPES.values()]


def page_declared_names(snap: Snapshot) -> frozenset[str]:
    """`declared_names` of the snapshot's `declared`, found once per snapshot (the comment
    thread's forum test asks first, the page type after)."""
    return snap.memo(("declared_names",),
                     lambda: frozenset(declared_names(snap.meta.get("declared") or {})))


def declared_names(declared: dict) -> set[str]:
    """The type names the page declares, lower case: JSON-LD `@type`s, microdata
    `itemtype`s (their last path part), OpenGraph `og:type` (a snapshot without
    `declared` declares nothing)."""
    names = set()
    for script in declared.get("ld") or ():
        for groups in LD_TYPE.findall(script):        # (type, first listed, second listed)
            for t in groups:
                if t:
                    names.add(t.rsplit("/", 1)[-1].lower())
    for entry in declared.get("scopes") or ():
        names.add(str(entry[1]).rstrip("/").rsplit("/", 1)[-1].lower())
    for entry in declared.get("meta") or ():
        if entry[1] == "og:type" and entry[2]:
            names.add(str(entry[2]).lower().split(".", 1)[0])
    return names


def present(strings: list[str], codes: np.ndarray) -> list[str]:
    """The `strings` whose code (their index) is among `codes`, in code order."""
    return list(map(strings.__getitem__, used(codes, len(strings)).tolist()))


def repeats(snap: Snapshot, feats: Features, live: np.ndarray, total: int,
            cls: np.ndarray, n_cls: int) -> list[float]:
    """Sibling structures repeated with the same tag and class (REPEAT_MIN or more with
    text): log of the largest group's size, the share of the page's text in the largest
    group, and log of how many such groups there are. `cls`: per row, a number of its
    class (below `n_cls`; equal classes, equal numbers)."""
    codes, tags = snap.tag_codes()
    has = live & (feats.chars > 0)
    has[0] = False
    rows = has.nonzero()[0]
    if not len(rows):
        return [0.0, 0.0, 0.0]
    chars = feats.chars[rows]
    room = int(chars.max()) + 1
    if int(snap.n) * len(tags) * n_cls * room < KEY_LIMIT:       # Python ints: no wrap
        # one int64 per row: its (parent, tag, class) key and, below it, its characters;
        # sorted as values (no argsort, no gathers in its order), a group is a run of one
        # key and its characters' sum the run's remainders' (integers: any order, one sum)
        packed = ((snap.parent[rows] * len(tags) + codes[rows]) * n_cls + cls[rows]) * room + chars
        packed.sort()
        key = packed // room
        chars = packed - key * room
        changes = key[1:] != key[:-1]
    else:                                               # past int64: the three columns
        order = np.lexsort((cls[rows], codes[rows], snap.parent[rows]))
        key = np.stack((snap.parent[rows], codes[rows], cls[rows]), axis=1)[order]
        chars = chars[order]
        changes = (key[1:] != key[:-1]).any(axis=1)
    # the groups: runs of one key in sorted order
    first = np.ones(len(key), np.bool_)
    first[1:] = changes
    starts = first.nonzero()[0]
    size = np.diff(starts, append=len(key))
    sums = np.add.reduceat(chars, starts)
    big = size >= REPEAT_MIN
    if not big.any():
        return [0.0, 0.0, 0.0]
    return [math.log1p(int(size.max())), float(sums[big].max()) / total,
            math.log1p(int(big.sum()))]


def short_text(snap: Snapshot, feats: Features, live: np.ndarray) -> tuple[list[float], int]:
    """From the visible short text nodes (SHORT_CHARS or fewer): log of their count, of
    the prices among them, prices per short node, and per SHORT_WORDS group log of its
    words' count; and the characters they hold."""
    text_rows = (live & (feats.text_chars > 0) & (feats.text_chars <= SHORT_CHARS)).nonzero()[0]
    parent_live = np.zeros(snap.n, np.bool_)
    parent_live[1:] = live[snap.parent[1:]]
    tail_rows = (parent_live & (feats.tail_chars > 0)
                 & (feats.tail_chars <= SHORT_CHARS)).nonzero()[0]
    n_short = len(text_rows) + len(tail_rows)
    text = "\n".join(snap.text[text_rows].tolist()) + "\n" + "\n".join(snap.tail[tail_rows].tolist())
    # an ASCII text (a flag Python keeps: no scan) holds no sign but the dollar
    prices = text.count("$") if text.isascii() else sum(map(text.count, CURRENCY))
    chars = int(feats.text_chars[text_rows].sum() + feats.tail_chars[tail_rows].sum())
    return ([math.log1p(n_short), math.log1p(prices), prices / (n_short + 1.0)]
            + token_counts(text, SHORT_WORDS, SHORT_INDEX)), chars


@dataclass(frozen=True)
class Model:
    """A multinomial logistic regression over named features (standardised)."""

    classes: tuple[str, ...]
    names: tuple[str, ...]
    mean: np.ndarray       # per feature
    scale: np.ndarray      # per feature
    weights: np.ndarray    # (features, classes)
    intercept: np.ndarray  # per class
    columns: np.ndarray    # where the model's features are among NAMES

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Per row of `x` (columns NAMES, in the model's order), each class's probability."""
        z = ((np.atleast_2d(x) - self.mean) / self.scale) @ self.weights + self.intercept
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def best(self, x: np.ndarray) -> tuple[int, float]:
        """(the likeliest class's index, its probability) for one row `x`: `probabilities`'
        answer in the same operations on the row as a 1-D array (its reductions without
        their axis and kept dimensions: a few microseconds of numpy's per-call overhead
        fewer, the same bits; tests/test_pagetype.py compares the two)."""
        z = ((x - self.mean) / self.scale) @ self.weights + self.intercept
        e = np.exp(z - z.max())
        p = e / e.sum()
        k = int(p.argmax())
        return k, float(p[k])

    @classmethod
    def from_json(cls, obj: dict) -> "Model":
        names = tuple(obj["features"])
        modelfile.check_features(names, NAMES, "page type model", "pith train-pagetype")
        return cls(classes=tuple(obj["classes"]), names=names,
                   mean=np.array(obj["mean"]),
                   scale=np.array(obj["scale"]), weights=np.array(obj["weights"]),
                   intercept=np.array(obj["intercept"]),
                   columns=np.array([NAMES.index(n) for n in names], np.int64))


@lru_cache(maxsize=1)
def load(path: Path = MODEL_PATH) -> Model | None:
    """The exported model (None when no model file is installed)."""
    if not path.is_file():
        return None
    return modelfile.load(path, "page type model", "pith train-pagetype", Model.from_json)


def classify(snap: Snapshot, feats: Features, node: int = 0,
             model: Model | None = None) -> tuple[str, float] | None:
    """(the page's type, its probability), or None when no model is installed. With the
    installed model it is computed once per page and element (`feats.memo`), and the
    page's part of the features (page_part) once per page: the headline anchor asks for
    the method's element, the reply for the final one, on a third of pages another."""
    if model is None:
        model = load()
        if model is None:
            return None
        return feats.memo(("page_type", node), lambda: _classify(snap, feats, node, model))
    return _classify(snap, feats, node, model)


def _classify(snap: Snapshot, feats: Features, node: int, model: Model) -> tuple[str, float]:
    """`classify` with `model`, the page's part of the features remembered on `feats`
    (not through the module's `classify`: a caller timing that, the cost bench, would
    count its time twice)."""
    page = feats.memo(("page_type_page",), lambda: page_part(snap, feats))
    best, p = model.best(features(snap, feats, node, page)[model.columns])
    return model.classes[best], p
