"""Per-block features for the block classifier: what the five methods say of a block, its
neighbours, its place in the chosen element, its names and its text, as one matrix.

Every column is a named, documented signal (`NAMES`, `LAYOUT_NAMES`), computed with numpy
over the whole page at once; the block classifier (keep.py) reads the rows of the blocks
inside the chosen element. The signals, grouped:

- the block itself: characters (log), link density, links, images, text nodes, the tag
  group of its row (one column each, `TAG_GROUPS`);
- the seed methods, at the block's row and its container: CNR relative to the page's
  (López et al.), LQF's points and link-list membership (Mantratzis et al.), inside a
  satisfiable sub-tree (Qi & Sun), inside an ad-server link or a link-list cell of the
  DOM filters (Agarwal et al.), CLG's node probability (Wu et al.);
- where it sits: inside furniture landmarks (footer, nav, aside, dialogs), header, form,
  list, table, a link; inside rows the chosen method dropped, or outside its parts;
  position and share of text before it in the element, depth below the element; inside
  the method's own element when the stage looks wider (keep.py, `blocks_grow`), the
  share of the scope's text that element holds and the distance (in blocks) to it; how
  many blocks of the scope look alike (same tag and class under a parent of the same tag
  and class: list items, posts, cards), the scope's link density and size;
- names: class and id of the row and its ancestors matched against word families that
  extractors and page authors use alike (`FAMILIES`: comment, share, related, author,
  subscribe, ad, nav, footer, sidebar, meta, caption, content) — generic words, no site;
  flag words ("has-comments", "no-sidebar") match nothing, and the names of a row holding
  nearly the whole page are not passed down (a page's switches, not a part of it);
- text statistics: digits, capitals, sentence punctuation, commas, word length, an end
  with a full stop; furniture words ("share", "comments", "subscribe", "related",
  "posted by", …) per word, a date, a copyright sign, a "By " byline start;
- the sequence: the previous and next block's size, link density and names, and the
  mean link density of the five blocks around it (boilerplate comes in runs);
- the section: under a heading whose words point away from the content ("Reviews",
  "Related posts", "Leave a reply"), up to the next heading of its level and within the
  heading's container (`section_away`): a page names its furniture sections in words
  even where its markup names nothing (NOTES.md, 'Why the block model reads section
  headings');
- layout, rendered snapshots only (`LAYOUT_NAMES`): position and width relative to the
  element's box, height, font size relative to the element's text, bold.

What was tried and left out, with its figures: NOTES.md, 'Why stacking, item groups and
truth conventions are not in the block model'; where a block lies against the post's body
(its headline, its run of prose, the sections after it, its siblings' links): NOTES.md,
'Why the block model does not read where a block lies against the body'.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import segment as blocks_mod
from ..algorithms import auto, clg, filters, lqf, sst
from ..codes import distinct_inverse, first_seen
from ..families import FAMILIES, families_of
from ..features import lower_in_place
from ..features import Features
from ..options import Options
from ..snapshot import Snapshot

# Tag groups of a block's own row (one indicator column each; the rest is "other").
TAG_GROUPS = {
    "p": ("p",), "h12": ("h1", "h2"), "h36": ("h3", "h4", "h5", "h6"), "li": ("li", "dt", "dd"),
    "tr": ("tr",), "table": ("table",), "pre": ("pre", "listing", "xmp", "plaintext"),
    "quote": ("blockquote",), "figure": ("figure", "figcaption", "caption"),
    "div": ("div", "section", "article", "main", "center"),
}
# Class names repeat from page to page of a site and across sites of one CMS: the families
# of a name are remembered (a host or a batch run sees many pages), up to this many names.
FAMILY_CACHE_SIZE = 100_000
_FAMILY_CACHE: dict[str, np.ndarray] = {}
# A class that states what an element has or shows ("has-comments", "no-sidebar",
# "with-sidebar", "show-subscribe", "is-menu-open") names a property of the element, not
# the element: a Squarespace post says "has-comments" on the article itself. Such flag
# words are left out before a name's families are matched.
_FLAG_WORD = re.compile(r"(?<!\S)(?:has|no|with|without|show|hide|is|enable|disable)[-_]\S*")
# Names of a row that holds at least this share of the page's text describe the page (a
# body's theme switches: "tweak-blog-meta-secondary-comments"), not a part of it: they are
# not passed down to its blocks. 0.9: a wrapper round everything but a footer (NOTES.md,
# 'Why the block model's names leave out flags and page-wide rows').
PAGE_WIDE_SHARE = 0.9
# Landmark and context tags whose inside is a feature.
CONTEXT_TAGS = {
    "in_header": ("header",), "in_form": ("form",), "in_list": ("ul", "ol", "dl", "menu"),
    "in_table": ("table",), "in_link": ("a",), "in_article": ("article", "main"),
}
NEIGHBOUR_WINDOW = 2   # blocks on each side for the window means

# Families that point away from main content (summed for the neighbours' columns).
_AWAY = ("comment", "share", "related", "author", "subscribe", "ad", "nav", "footer", "sidebar")


def _names() -> tuple[str, ...]:
    own = ["log_chars", "link_density", "log_links", "log_images", "log_pieces"]
    own += [f"tag_{g}" for g in TAG_GROUPS]
    methods = ["cnr_rel", "cnr_parent_rel", "lqf_points", "lqf_list", "sst_inside",
               "filters_ad", "filters_list", "clg_p", "clg_parent_p"]
    where = ["furniture"] + list(CONTEXT_TAGS) + [
        "method_dropped", "outside_parts", "position", "chars_before", "depth_below",
        "is_element", "element_share", "in_method", "method_share", "method_distance",
        "log_alike", "scope_link_density", "scope_log_blocks"]
    names = [f"name_{k}" for k in FAMILIES] + [f"own_name_{k}" for k in FAMILIES]
    text = ["digits", "capitals", "stops", "commas", "word_len", "ends_stop", "boiler_words",
            "date_like", "copyright", "starts_by"]
    seq = ["prev_log_chars", "prev_link_density", "prev_away", "prev_heading",
           "next_log_chars", "next_link_density", "next_away", "next_heading",
           "window_link_density", "window_log_chars", "window_away"]
    section = ["section_away"]
    return tuple(own + methods + where + names + text + seq + section)


NAMES = _names()
LAYOUT_NAMES = NAMES + ("rel_x", "rel_y", "rel_w", "log_h", "font_rel", "bold", "page_y",
                        "no_box")


@dataclass(frozen=True, eq=False)
class PageSignals:
    """Page-wide per-row signals of the seed methods, computed once per snapshot."""

    cnr: np.ndarray          # chars / visible elements of the subtree, over the page's
    lqf_points: np.ndarray   # LQF points of the row's section
    lqf_list: np.ndarray     # inside an LQF link list
    sst: np.ndarray          # inside a satisfiable sub-tree
    ad: np.ndarray           # inside an ad-server link / frame
    filter_list: np.ndarray  # inside a link-list cell of the DOM filters
    clg: np.ndarray          # CLG's node probability
    furniture: np.ndarray    # inside a furniture landmark
    family: np.ndarray       # (n, families) the row or an ancestor is named so
    own_family: np.ndarray   # (n, families) the row itself is named so
    context: dict            # CONTEXT_TAGS name -> the row is such a tag or inside one


def name_families(snap: Snapshot, within: np.ndarray) -> np.ndarray:
    """(n, len(FAMILIES)) bool: the row's class or id matches the family, for the rows in
    `within` (others False); the distinct names not remembered yet are matched in one
    scan (families.families_of). A row's name is its (id, class) pair, numbered from the
    snapshot's numbers of the two (Snapshot.string_codes): one string per distinct pair."""
    out = np.zeros((snap.n, len(FAMILIES)), np.bool_)
    id_codes, ids = snap.string_codes("id")
    cls_codes, classes = snap.string_codes("cls")
    pair = id_codes * len(classes) + cls_codes       # below n * n: fits an int64
    has = (within & (pair > 0)).nonzero()[0]          # pair 0: neither attribute, no name
    if not len(has):
        return out
    distinct, codes = distinct_inverse(pair[has])
    k = len(classes)
    seen = list(map("{} {}".format, [ids[i] for i in (distinct // k).tolist()],
                    [classes[i] for i in (distinct % k).tolist()]))       # distinct names
    if len(_FAMILY_CACHE) > FAMILY_CACHE_SIZE:
        _FAMILY_CACHE.clear()
    lower = [name.lower() for name in seen]
    new = [name for name in dict.fromkeys(lower) if name not in _FAMILY_CACHE]
    _FAMILY_CACHE.update(zip(new, families_of(without_flags(new))))
    hits = np.array([_FAMILY_CACHE[name] for name in lower], np.bool_)
    out[has] = hits[codes]
    return out


def without_flags(names: list[str]) -> list[str]:
    """Each of `names` with its flag words (_FLAG_WORD) left out: one substitution over
    the names joined by newlines, split again. A match starts after a space or at a
    name's start (a newline before it reads the same) and holds no space, so it never
    crosses into the next name; a name holding a newline itself (the joined text then
    holds more than one a name) is read alone, as all of them are then (NOTES.md, 'Why a
    page's distinct roles, hosts and names are read once')."""
    text = "\n".join(names)
    if text.count("\n") != len(names) - 1:
        return [_FLAG_WORD.sub("", name) for name in names]
    return _FLAG_WORD.sub("", text).split("\n")


def page_signals(snap: Snapshot, feats: Features, opts: Options, element: int = 0,
                 read: np.ndarray | None = None) -> PageSignals:
    """The methods' per-row verdicts the block features read; names are read for the
    rows of `element`'s subtree and its ancestors only (the blocks scored lie there).
    With `read` (rows there: the block rows the caller scores), only for those rows and
    their ancestors, whose names are all a row's families are made of: `family` and
    `own_family` are then right at those rows (the names of the inline rows inside
    blocks, half a page's, are not matched)."""
    page_cnr = feats.chars[0] / max(int(feats.tags[0]), 1)
    cnr = np.where(feats.tags > 0, feats.chars / np.maximum(feats.tags, 1), 0.0) / max(page_cnr, 1e-9)
    lq = lqf.link_quota(snap, feats, opts)
    sat = sst.satisfiable(snap, feats, opts)
    tags = filters.tags_of(snap, feats)
    alive = ~feats.gone
    ad = filters.ad_rows(snap, opts)
    cells = filters.link_lists(snap, feats, tags, alive, opts)
    p = clg.scores(snap, feats, opts.clg_unstyled_text)[0]
    land = auto.furniture(snap)
    line = np.zeros(snap.n, np.bool_)
    line[element:snap.end[element]] = True
    line[np.flatnonzero((np.arange(snap.n) < element) & (snap.end > element))] = True
    if read is not None:
        marked = np.zeros(snap.n, np.int64)
        marked[read] = 1
        line &= snap.subtree_sum(marked) > 0          # a row read, or an ancestor of one
    own_family = name_families(snap, line)
    page_wide = feats.chars >= PAGE_WIDE_SHARE * max(int(feats.chars[0]), 1)
    # every row mask below is taken down the tree (the row or an ancestor is such) in
    # one pass over the stacked masks: context tags, the methods' sub-tree roots, names
    # (but those of page-wide rows)
    roots = np.zeros((snap.n, 5), np.bool_)
    for k, rows in enumerate((lq.link_list, sat, ad, cells, land)):
        roots[rows, k] = True          # a boolean mask or row indices, as subtrees takes
    stacked = np.concatenate(
        (np.stack([tags.mask(frozenset(names)) for names in CONTEXT_TAGS.values()], axis=1),
         roots, own_family & ~page_wide[:, None]), axis=1)
    inside = stacked | snap.below(stacked)
    context = {name: inside[:, k] for k, name in enumerate(CONTEXT_TAGS)}
    at = len(CONTEXT_TAGS)
    lqf_list, in_sst, in_ad, filter_list, in_furniture = (inside[:, at + k] for k in range(5))
    family = inside[:, at + 5:]
    return PageSignals(
        cnr=cnr, lqf_points=lq.points[lq.section], lqf_list=lqf_list, sst=in_sst, ad=in_ad,
        filter_list=filter_list, clg=p, furniture=in_furniture, family=family,
        own_family=own_family, context=context)


# Words of page furniture in running text (English, as the training truths are): share
# bars, comment counts, sign-up boxes, bylines, tag lines, legal lines. Patterns are in
# lower case and run on lower-cased text (three times faster than re.I).
_BOILER = re.compile(   # the lookahead (each word's first letter) only skips positions faster
    r"\b(?=[stcrnlfape])(share|shares|tweet|comments?|repl(y|ies)|subscribe|newsletter|sign ?up|log ?in|"
    r"follow us|read more|related|advertisement|sponsored|cookies?|privacy|rights reserved|"
    r"terms of|posted (by|in|on)|tags?|categor(y|ies)|previous|next|print|e-?mail|"
    r"click here|see (also|more)|trending|popular)\b")
_DATE = re.compile(     # the lookahead (each alternative's first character) only speeds it up
    r"(?=[jfmasondyt0-9])(?:\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|"
    r"\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|"
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b(ago|yesterday|today)\b)")
# _DATE runs only over the blocks that can hold a match (about half the text): every
# alternative but the last holds a decimal digit (\d: any of Unicode's), the last one of
# these words.
_DATE_WORDS = ("ago", "yesterday", "today")
# Words of a section heading whose section is not the main content, besides _BOILER's:
# reviews and ratings, recommendations, "more from", most-read lists, author boxes, reply
# forms. Generic words of page furniture in English, like _BOILER's; lower case.
_SECTION_WORDS = re.compile(
    r"\b(reviews?|ratings?|recommended|you (may|might) (also )?like|also (like|bought|viewed)|"
    r"more (from|stories|articles|posts|news|like this|to (read|explore))|latest|"
    r"most (read|popular|viewed|shared)|about the author|leave a (reply|comment)|"
    r"what (people|customers) (say|think)|discussion)\b")
_HEADING_LEVEL = {f"h{i}": i for i in range(1, 7)}
# A copyright sign: either mark anywhere in the block (a containment, no pattern needed).
_COPYRIGHT_MARKS = ("©", "(c)")
# text_stats reads at most this many characters of a block: its shares and patterns are
# settled long before (a paragraph is a few hundred characters), and one 50 MB text node
# must not cost seconds and a gigabyte of per-character arrays (issue 15's hostile pages).
TEXT_STATS_MAX_CHARS = 20_000
# text_stats' column that says a block holds a date (read by posts.meta_lines too).
TEXT_STATS_DATE = 7
# ... and the column that says it ends with a stop, as a sentence does (read by
# posts.meta_lines: an author card's line never ends so).
TEXT_STATS_STOP_END = 5
_STOP_POINTS = np.array([ord(c) for c in ".!?。！？"], np.uint32)
_COMMA_POINTS = np.array([ord(c) for c in ",;，、"], np.uint32)
# The character classes text_stats counts, as one code per code point of the Basic
# Multilingual Plane (every point above is in it; the classes do not overlap), so one
# gather and one bincount count them all for every block: ASCII digits (the digit
# share), capitals, stops, commas, spaces (words), and the other decimal digits (what \d
# matches besides ASCII's: the date pattern's blocks). A code point beyond the plane is
# read at the last entry, another decimal digit: some are, and such a block is scanned
# for a date as one with a digit is.
_BMP_LAST = 0xFFFF
_OTHER, _DIGIT, _CAPITAL, _STOP, _COMMA, _SPACE, _DECIMAL = range(7)
_CLASSES = 7


@lru_cache(maxsize=1)
def _class_table() -> np.ndarray:
    table = np.full(_BMP_LAST + 2, _OTHER, np.uint8)
    table[[c for c in range(_BMP_LAST + 1) if chr(c).isdecimal()]] = _DECIMAL
    table[_BMP_LAST + 1] = _DECIMAL
    table[ord("0"):ord("9") + 1] = _DIGIT
    table[ord("A"):ord("Z") + 1] = _CAPITAL
    table[0xC0:0xDE + 1] = _CAPITAL
    table[_STOP_POINTS] = _STOP
    table[_COMMA_POINTS] = _COMMA
    table[ord(" ")] = _SPACE
    return table


def _counts(pattern: re.Pattern, joined: str, starts: np.ndarray, k: int) -> np.ndarray:
    """Matches of `pattern` per string of `joined` (strings start at `starts`), one pass."""
    at = np.fromiter((m.start() for m in pattern.finditer(joined)), np.int64)
    return np.bincount(np.searchsorted(starts, at, side="right") - 1, minlength=k)[:k]


def _containing(joined: str, starts: np.ndarray, n: np.ndarray, words: tuple[str, ...]) -> np.ndarray:
    """Per string of `joined` (`n` characters from `starts`, newline-separated), whether one
    of `words` (none holding a newline) occurs in it: each word is looked for with str.find,
    which jumps past the string of each hit, so a string costs one hit per word at most."""
    out = np.zeros(len(starts), np.bool_)
    first, ends = starts.tolist(), (starts + n).tolist()
    for word in words:
        at = joined.find(word)
        while at >= 0:
            i = bisect.bisect_right(first, at) - 1
            out[i] = True
            at = joined.find(word, ends[i] + 1)
    return out


def _matching(pattern: re.Pattern, joined: str, starts: np.ndarray, n: np.ndarray,
              scanned: np.ndarray) -> np.ndarray:
    """Per string of `joined`, whether `pattern` matches in it, searching only the strings
    marked `scanned` (the others: False). Each search stops at its string's first match and
    ends at its string's end, which the patterns read as the newline there (a word boundary
    either way; none spans a newline)."""
    out = np.zeros(len(starts), np.bool_)
    which = scanned.nonzero()[0]
    search = pattern.search
    out[which] = [search(joined, a, a + b) is not None
                  for a, b in zip(starts[which].tolist(), n[which].tolist())]
    return out


@dataclass(frozen=True, eq=False)
class Joined:
    """Block texts joined by newlines, each cut at TEXT_STATS_MAX_CHARS, as written
    (`text`) and lower-cased in place (`low`, features.lower_in_place), with each one's
    start and length: what `text_stats` reads, made once a page (keep.judge_page) so the
    line rules after the choice search the same join (`holding`; NOTES.md, 'Why the line
    rules search a page's texts at once')."""

    text: str
    low: str
    starts: np.ndarray
    n: np.ndarray

    def holding(self, words: tuple[str, ...]) -> np.ndarray:
        """Bool per string: its lower-cased text (its first TEXT_STATS_MAX_CHARS
        characters) holds one of `words` (none ending in "i" or holding a newline:
        features.containing)."""
        return _containing(self.low, self.starts, self.n, words)


def joined(strings: list[str]) -> Joined:
    """`strings` joined for `text_stats` and the line rules (Joined)."""
    strings = [s[:TEXT_STATS_MAX_CHARS] for s in strings]
    n = np.fromiter(map(len, strings), np.int64, len(strings))
    starts = np.concatenate(([0], np.cumsum(n + 1)[:-1]))
    text = "\n".join(strings)
    return Joined(text, lower_in_place(text), starts, n)


def text_stats(strings: list[str], join: Joined | None = None) -> np.ndarray:
    """(blocks, 10): digit, capital, stop and comma shares, mean word length, ends with a
    stop, furniture words per word, a date, a copyright sign, starts with "By ".
    Character classes are counted over the code points of all strings at once (one
    bincount); the furniture-word pattern runs once over the strings joined by newlines
    (no pattern spans one), the date pattern searches the strings that can hold a date, and
    a copyright sign is a containment. A string longer than TEXT_STATS_MAX_CHARS is read
    from its first that many characters. `join`: `joined(strings)`, when made already."""
    k = len(strings)
    out = np.zeros((k, 10))
    if not k:
        return out
    out[:, TEXT_STATS_STOP_END] = [bool(s) and s[-1] in ".!?。！？:\"”'" for s in strings]
    join = joined(strings) if join is None else join
    n, starts, text, low = join.n, join.starts, join.text, join.low
    cp = np.frombuffer(text.encode("utf-32-le"), np.uint32)
    # each character's block (the newline after a block counts with it, as "other")
    owner = np.repeat(np.arange(k), n + 1)[:len(cp)]
    code = _class_table()[np.minimum(cp, _BMP_LAST + 1)]
    counts = np.bincount(owner * _CLASSES + code, minlength=k * _CLASSES).reshape(k, _CLASSES)
    words = (counts[:, _SPACE] + 1).astype(np.float64)
    size = np.maximum(n, 1).astype(np.float64)
    out[:, 0] = counts[:, _DIGIT] / size
    out[:, 1] = counts[:, _CAPITAL] / size
    out[:, 2] = counts[:, _STOP] / size * 100
    out[:, 3] = counts[:, _COMMA] / size * 100
    out[:, 4] = np.minimum(n / words, 30.0)
    # low has the code points of the text where it matters: no lower-casing makes or unmakes
    # a decimal digit, and the string positions are the same
    digits = (counts[:, _DIGIT] + counts[:, _DECIMAL]) > 0
    out[:, 6] = _counts(_BOILER, low, starts, k) / words
    dated = digits | _containing(low, starts, n, _DATE_WORDS)
    out[:, TEXT_STATS_DATE] = _matching(_DATE, low, starts, n, dated)
    out[:, 8] = _containing(low, starts, n, _COPYRIGHT_MARKS)
    # "By " from the lower-cased text: a character whose lower case is longer is kept as
    # it is there, and is none of these three (a longer lower case never equals "by ")
    out[:, 9] = [low[a:a + 3] == "by " for a in starts.tolist()]
    out[n == 0] = 0.0
    return out


def _heading_words(text: str) -> bool:
    low = text.lower()
    return _BOILER.search(low) is not None or _SECTION_WORDS.search(low) is not None


def section_away(snap: Snapshot, chars: np.ndarray, rows: np.ndarray,
                 strings: list[str]) -> np.ndarray:
    """Per block (rows in document order), whether it sits in the section of a heading
    whose words point away from the main content ("Reviews", "Related posts", "Leave a
    reply", "You may also like": _BOILER or _SECTION_WORDS). A heading's section is the
    blocks from it up to the next heading of its level or a higher one, and no further
    than its container: the parent of the highest element holding the heading's text and
    nothing else (a heading wrapped in a title div heads that div's siblings); `chars`,
    the visible characters of each row's subtree (Features.chars)."""
    m = len(rows)
    out = np.zeros(m)
    codes, names = snap.tag_codes()
    level = np.array([_HEADING_LEVEL.get(t, 0) for t in names], np.int64)[codes[rows]]
    at = level.nonzero()[0]
    if not len(at):
        return out
    away = np.fromiter((_heading_words(strings[i]) for i in at.tolist()), np.bool_, len(at))
    if not away.any():
        return out
    # each heading's section ends at the next heading of its level or higher (lower number)
    lv = level[at]
    end = np.full(len(at), m)
    for lvl in range(1, 7):
        closes = np.where(lv <= lvl, np.arange(len(at)), len(at))
        # the first closing heading after each: a reversed running minimum, shifted by one
        nxt = np.minimum.accumulate(closes[::-1])[::-1]
        nxt = np.append(nxt[1:], len(at))
        mine = lv == lvl
        end[mine] = np.append(at, m)[nxt[mine]]
    # ... and at its container's last block: the container is the parent of the heading's
    # highest wrapper, the nearest ancestor-or-self whose parent holds more text
    parent = snap.parent
    tops = (parent < 0) | (chars[np.maximum(parent, 0)] != chars)
    box = np.maximum(parent[snap.nearest(tops)[rows[at]]], 0)
    end = np.minimum(end, np.searchsorted(rows, snap.end[box], side="left"))
    # inside a section: more sections opened than closed up to the block
    edge = np.bincount(at[away], minlength=m + 1) - np.bincount(end[away], minlength=m + 1)
    out[np.cumsum(edge)[:m] > 0] = 1.0
    return out


def method_mask(snap: Snapshot, blocks: blocks_mod.Blocks, rows: np.ndarray,
                method: int) -> np.ndarray:
    """Which block `rows` the method's element shows: those inside it, and the block
    that holds it when it is not a block row itself (a cell of a data table)."""
    return ((rows >= method) & (rows < snap.end[method])) | (rows == blocks.owner[method])


def method_keeps(snap: Snapshot, blocks: blocks_mod.Blocks, rows: np.ndarray, method: int,
                 drop: np.ndarray | None, parts: np.ndarray | None) -> np.ndarray:
    """Which block `rows` the method's own answer shows: inside its element, not in a
    row it dropped, inside one of its parts when it answered with parts."""
    out = method_mask(snap, blocks, rows, method)
    if drop is not None:
        out &= ~(drop | snap.below(drop))[rows]
    if parts is not None:
        out &= snap.subtrees(parts)[rows]
    return out


def _shift(values: np.ndarray, by: int) -> np.ndarray:
    """values moved by `by` places (positive: the previous one), zero-filled."""
    out = np.zeros_like(values)
    if by > 0:
        out[by:] = values[:-by]
    elif by < 0:
        out[:by] = values[-by:]
    return out


def _window_mean(values: np.ndarray, k: int) -> np.ndarray:
    cs = np.concatenate(([0.0], np.cumsum(values)))
    idx = np.arange(len(values))
    lo, hi = np.maximum(idx - k, 0), np.minimum(idx + k + 1, len(values))
    return (cs[hi] - cs[lo]) / np.maximum(hi - lo, 1)


def matrix(snap: Snapshot, feats: Features, blocks: blocks_mod.Blocks, sig: PageSignals,
           element: int, which: np.ndarray, drop: np.ndarray | None,
           parts: np.ndarray | None, layout: bool, method: int | None = None,
           strings: list[str] | None = None, join: Joined | None = None) -> np.ndarray:
    """Feature rows (columns NAMES, or LAYOUT_NAMES when `layout`) of the blocks at
    positions `which` (document order, all inside `element`); `method` is the element
    the method chose (the scope may be wider: keep.py), `element` itself by default;
    `strings`, the blocks' texts (blocks.texts of `which`) when the caller has them, and
    `join`, their `joined`."""
    method = element if method is None else method
    rows = blocks.rows[which]
    m = len(rows)
    chars = blocks.chars[which].astype(np.float64)
    dens = np.divide(blocks.linked[which], chars, out=np.zeros(m), where=chars > 0)
    cols: list[np.ndarray] = [np.log1p(chars), dens, np.log1p(blocks.links[which]),
                              np.log1p(blocks.images[which]), np.log1p(blocks.pieces[which])]
    tag = snap.tag[rows]
    codes, names = snap.tag_codes()
    codes = codes[rows]                  # each group's test on the blocks' rows alone
    cols += [np.fromiter(map(frozenset(t).__contains__, names), np.float64, len(names))[codes]
             for t in TAG_GROUPS.values()]

    par = np.maximum(snap.parent[rows], 0)
    cols += [np.log1p(sig.cnr[rows]), np.log1p(sig.cnr[par]), sig.lqf_points[rows],
             sig.lqf_list[rows], sig.sst[rows], sig.ad[rows], sig.filter_list[rows],
             sig.clg[rows], sig.clg[par]]

    cols.append(sig.furniture[rows])
    cols += [sig.context[name][rows] for name in CONTEXT_TAGS]
    dropped = np.zeros(m) if drop is None else (drop | snap.below(drop))[rows]
    outside = np.zeros(m) if parts is None else ~snap.subtrees(parts)[rows]
    total = max(chars.sum(), 1.0)
    before = (np.cumsum(chars) - chars) / total
    cols += [dropped, outside, np.arange(m) / max(m - 1, 1), before,
             np.log1p(np.maximum(snap.depth[rows] - snap.depth[element], 0)), (rows == element),
             chars / total]
    in_method = method_mask(snap, blocks, rows, method)
    inside_at = in_method.nonzero()[0]
    if len(inside_at):
        gap = np.maximum(inside_at[0] - np.arange(m), np.arange(m) - inside_at[-1])
        distance = np.log1p(np.maximum(gap, 0))
    else:
        distance = np.full(m, np.log1p(m))
    # blocks alike: the same tag and class, under a parent of the same tag and class (the
    # items of a list, the posts of a thread, the cards of a grid)
    par_rows = np.maximum(snap.parent[rows], 0)
    inv = first_seen(zip(tag.tolist(), snap.cls[rows].tolist(), snap.tag[par_rows].tolist(),
                         snap.cls[par_rows].tolist()), m)
    counts = np.bincount(inv, minlength=m)
    linked_all = float(blocks.linked[which].sum())
    cols += [in_method, np.full(m, chars[in_method].sum() / total), distance,
             np.log(counts[inv]), np.full(m, linked_all / total),
             np.full(m, np.log1p(m))]
    fam, own = sig.family[rows], sig.own_family[rows]
    cols += list(fam.T.astype(np.float64)) + list(own.T.astype(np.float64))
    if strings is None:
        strings = blocks_mod.texts(snap, blocks, which)
    cols += list(text_stats(strings, join).T)

    away_idx = [list(FAMILIES).index(k) for k in _AWAY]
    away = fam[:, away_idx].sum(axis=1).astype(np.float64)
    heading = np.fromiter(map(frozenset(TAG_GROUPS["h12"] + TAG_GROUPS["h36"]).__contains__,
                              names), np.float64, len(names))[codes]
    logc = np.log1p(chars)
    for by in (1, -1):
        cols += [_shift(logc, by), _shift(dens, by), _shift(away, by), _shift(heading, by)]
    k = NEIGHBOUR_WINDOW
    cols += [_window_mean(dens, k), _window_mean(logc, k), _window_mean(away, k)]
    cols.append(section_away(snap, feats.chars, rows, strings))

    if layout:
        ex, ey = snap.x[element], snap.y[element]
        ew, eh = max(snap.w[element], 1.0), max(snap.h[element], 1.0)
        fs = snap.fs[rows]
        weights = np.maximum(chars, 1.0)
        ok = fs > 0
        median_fs = float(np.median(np.repeat(fs[ok], np.minimum(weights[ok], 2000).astype(int)))) \
            if ok.any() else 16.0
        page_h = max(float(snap.h[0]), float(np.max(snap.y[rows] + snap.h[rows], initial=1.0)), 1.0)
        box = (snap.w[rows] > 0) & (snap.h[rows] > 0)
        cols += [(snap.x[rows] - ex) / ew, (snap.y[rows] - ey) / eh, snap.w[rows] / ew,
                 np.log1p(snap.h[rows]), fs / max(median_fs, 1.0), snap.fw[rows] >= 600,
                 snap.y[rows] / page_h, ~box]
    # the columns as one (columns, blocks) array, then its rows: a quarter of column_stack's
    # time (which makes each column a 2-D array first)
    x = np.ascontiguousarray(np.array(cols, np.float64).T) if m else \
        np.zeros((0, len(LAYOUT_NAMES if layout else NAMES)))
    cols.clear()          # the columns are in x now: a large page holds one copy, not three
    # NaN and the infinities read 0: one mask, a seventh of np.nan_to_num's time (its
    # three masks and their wrappers, 50 us a page)
    x[~np.isfinite(x)] = 0.0
    return x
