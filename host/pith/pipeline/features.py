"""Per-node features of a Snapshot, computed bottom-up with numpy (no recursion, no node loops).

Own values come first (characters and text nodes directly inside an element), then
subtree aggregates by prefix sums over the preorder ranges of `Snapshot.end`. Every
algorithm reads these arrays; none of them walks the tree itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable
from functools import lru_cache
import re

import numpy as np

from .codes import distinct
from .snapshot import Snapshot
from .threadnames import names_thread

# Elements whose content is never readable text, whatever the method: code, metadata and
# templates. Their text does not count anywhere (the paper's "irrelevant nodes"). A
# noscript is code only as a browser with scripting on sees it: see shown_noscript.
CODE_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "meta",
                       "link", "base"})
# The bits of the snapshot's `hidden` column (SNAPSHOT.md): display:none, visibility:hidden
# (inherited by the subtree, as computed style is), opacity:0, aria-hidden. (8, a zero-size
# box, is read nowhere: floats in a zero-height container and clipped "screen-reader only"
# text are still content.)
DISPLAY_NONE, VISIBILITY_HIDDEN, OPACITY_ZERO, ARIA_HIDDEN = 1, 2, 4, 16
# The bits that hide an element and everything inside it. A descendant that sets
# visibility:visible again is rare enough that visibility is treated as hiding the whole
# subtree too.
HIDING_BITS = DISPLAY_NONE | VISIBILITY_HIDDEN | OPACITY_ZERO | ARIA_HIDDEN
# Of those, the bits that hide on purpose (display:none, aria-hidden: menus, carousels,
# dialogs), as opposed to text waiting to be revealed (opacity, visibility).
HIDDEN_ON_PURPOSE = DISPLAY_NONE | ARIA_HIDDEN
# Of those, the bits a snapshot without layout (static, pages/static.py) does not read as
# hiding: its opacity:0 comes from an inline style only, a script's start state for a
# reveal animation (apple.com's sections fade in on scroll: `style="opacity: 0;
# transform: …"`), which a reader scrolling sees; a menu or a tooltip hides by its
# stylesheet, which a static walk does not read. A browser's capture reads the computed
# opacity, stylesheets included: there it hides (NOTES.md, 'Why inline opacity:0 is read
# in a static snapshot').
STATIC_SHOWN_BITS = OPACITY_ZERO
# A browser's capture whose opacity:0 sections with text (each the outermost hidden row of
# its subtree, hidden by opacity alone) start at this many different heights is waiting for
# a scroll-reveal library (Divi's et_animated, Webflow's interactions, AOS) to fade them in
# as the reader scrolls down to each: its opacity:0 is read as shown, as a static
# snapshot's is. A closed menu's dropdowns hang side by side from one bar (one or two
# heights), a tooltip or a dialog is one section (NOTES.md, 'Why a rendered page's
# scroll-reveal sections are read').
REVEAL_SECTIONS_MIN = 3
# A row at opacity:0 and visibility:hidden together, nothing else hiding it, drawn below
# the first screen: a fade-in's start state that also keeps the hidden section from clicks
# and screen readers (GSAP's autoAlpha sets both; so do reveal classes written `opacity:0;
# visibility:hidden`), waiting for the reader to scroll to it. A closed dropdown menu fades
# the same way but hangs from its bar on the first screen (or has no height). On a page
# waiting for a scroll reveal such a section is one of its sections, and the reveal shows
# it, its visibility with it (NOTES.md, 'Why a section faded out and hidden together waits
# for its reveal').
FADED_HIDDEN = OPACITY_ZERO | VISIBILITY_HIDDEN
# The bits a page's reveal takes off: opacity:0 and visibility:hidden, the start state of
# an anti-flicker snippet (the whole body at opacity 0 until an A/B-testing script has run)
# or of a scroll animation. A page mostly hidden so is read revealed (`compute(revealed=
# True)`, option hidden_reveal), its display:none menus and dialogs still hidden (NOTES.md,
# 'Why a page waiting for its reveal keeps its closed menus hidden').
REVEAL_BITS = VISIBILITY_HIDDEN | OPACITY_ZERO
# An aria-hidden link a reader sees is read as shown unless at least this share of its
# three-word runs is read elsewhere on the page: a card's second link to one address
# (a teaser's excerpt) is its own text, a title linked twice is a copy (NOTES.md, 'Why a
# shown aria-hidden link is read').
ARIA_LINK_COPY_SHARE = 0.5
LINK_TAGS = frozenset(("a",))
# A custom element's tag holds a hyphen (the HTML standard's valid custom element name).
CUSTOM_TAG_MARK = "-"
# React's streaming server rendering (React 18+, Next.js) parks each late part of a page
# as `<div hidden id="S:7">` at the end of the body until an inline script moves it to
# its placeholder: what a reader sees, only parked. A static snapshot (no scripts) has it
# hidden, and so does a rendered capture when that script did not run or has not yet: a
# saved page (the scripts it loads are gone) or a capture taken mid-stream. Whole
# articles sat there (wcxb_dev_full 0384 static; 4053, 4416, 4486 rendered: the answer was
# a heading or a menu).
STREAMED_SEGMENT_ID = re.compile(r"S:[0-9a-f]+")
# Marko's out-of-order rendering (eBay) parks each late fragment as
# `<div id="af{runtime}{N}" style="display:none">` and its script moves it into the
# placeholder `af{runtime}ph{N}` shown where it belongs: the same parking, known by the
# pair (a lone `id="af12"` is any page's name). A static snapshot of an eBay category page
# showed its header only (wcxb_dev_full 0658: the answer was "Loading...").
MARKO_FRAGMENT_ID = re.compile(r"(af[a-z]*)(\d+)")
# Content folded by the page's own controls: a tab panel (WAI-ARIA role="tabpanel") or a
# row whose class or id names folding, display:none and not aria-hidden. Its text is the
# page's own — a closed FAQ answer, a product page's second tab — which a reader opens
# and the benchmarks' truths keep; a menu or dialog is not named so. In the rendered
# training snapshots 75 % of such accordion text and 87 % of such tab panels' is truth,
# against 23 % of other display:none text (NOTES.md, 'Why folded content is read'). An
# FAQ's answers are folded under their questions (`div.faq-answer`, display:none), and
# Bootstrap's tabs are `div.tab-pane` in a `div.tab-content`, often without the role (a
# shop's specifications tab: wcxb_dev_full 0627).
FOLDED_NAMES = re.compile(r"accordion|collaps|expand|toggle|faq|tab-?pane|tab-?content")
# The hiding bits a folded row's closed state sets, all taken off: display:none and, from
# a collapse animation's start state, opacity:0 (Chakra UI's `chakra-collapse`:
# `display:none;opacity:0;height:0px`, the product's specs and care sections of wcxb_dev_full
# 0607). Visibility is inherited, so every row below carries it too: it stays (NOTES.md,
# 'Why folded content is read').
FOLDED_CLOSED = DISPLAY_NONE | OPACITY_ZERO
# The page's `main` landmark (a main element, role="main") whose text is all under
# display:none rows, less than PARKED_MAIN_SHOWN of it shown: a script parks the page's
# content until it runs (a shop's access-check app wraps the product in
# `<div style="display:none">` and reveals it after the check). A static snapshot, or a
# capture the script did not reach, showed menus and footer only, and the answer was a
# footer line (wcxb_dev_full 0583, a product page). Its outermost display:none rows are
# read as shown; what they hide deeper (a closed dialog) stays hidden (NOTES.md, 'Why a
# hidden main landmark is read').
PARKED_MAIN_SHOWN = 0.05
MAIN = frozenset(("main",))
# ... and it hides at least PARKED_MAIN_MIN_CHARS: a main landmark left empty until a
# search box fills it parks no content.
PARKED_MAIN_MIN_CHARS = 200
# A shown noscript is a copy (`noscript_copies`) when at least NOSCRIPT_COPY_SHARE of
# its NOSCRIPT_SHINGLE_WORDS-word runs are read outside it: the crawlers' copy of a thread
# the page's scripts also drew (the saved page holds both) differs from the drawn one by
# a name line or an emoji per post, where a fallback that is the page's only text shares
# only its menu and footer words with the rest (NOTES.md, 'Why a noscript that copies the
# page is not read').
NOSCRIPT_COPY_SHARE = 0.8
# Three words: a run that long is rarely repeated by chance between two texts.
NOSCRIPT_SHINGLE_WORDS = 3
_WORD = re.compile(r"\w+")
# Rows that show something at any font size (features.zero_font).
IMAGE_TAGS = frozenset({"img", "picture", "svg", "video", "canvas"})


# Every code point str.isspace accepts is at most U+3000 (ideographic space).
_LAST_SPACE = 0x3000


@lru_cache(maxsize=1)
def _is_space_table() -> np.ndarray:
    """table[c] is True when code point c is whitespace (str.isspace), for c up to one past
    U+3000; every larger code point is looked up at that last, False, entry."""
    table = np.zeros(_LAST_SPACE + 2, np.bool_)
    table[[c for c in range(_LAST_SPACE + 1) if chr(c).isspace()]] = True
    return table


def lower_in_place(s: str) -> str:
    """`s` lower-cased character for character: a character whose lower case is longer
    (İ, two code points) is kept as it is, so a position in `s` is the same position in
    the answer (searches over strings joined, each hit mapped back to its string by the
    strings' lengths: blocks.features.text_stats, `containing`,
    metadata.window.matching_strings)."""
    low = s.lower()
    if len(low) == len(s):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in s)


def containing(strings: list[str], words: tuple[str, ...]) -> np.ndarray:
    """Indices of the `strings` whose lower-cased form holds one of `words` (lower case,
    no newline): each word looked for with str.find over the strings joined by newlines,
    a hit mapped to its string (C-level scans; a regular expression tried at every
    character of a page's names cost more than the tests it saves). An "İ" is kept as it
    is (lower_in_place), where str.lower writes "i" and a combining dot: no word ending in
    "i" or holding that dot, and each string holding a word str.lower's form holds is
    found (the prefilters of comments.name_rows and sidebars; blocks.features.Joined's
    `holding`, rights' and adlabels', searches a join lower-cased the same way)."""
    low = lower_in_place("\n".join(strings))
    lengths = np.fromiter(map(len, strings), np.int64, len(strings))
    ends = np.cumsum(lengths + 1)                        # past each string's newline
    hits = []
    for word in words:
        at = low.find(word)
        while at >= 0:
            hits.append(at)
            at = low.find(word, at + 1)
    return distinct(np.searchsorted(ends, np.array(hits, np.int64), side="right"))


def nonspace_lengths(strings: np.ndarray, lengths: np.ndarray | None = None) -> np.ndarray:
    """Number of non-whitespace characters of each string, in one vectorised pass
    (`lengths`: each string's len(), when already counted).

    The strings are joined with a newline after each (itself whitespace, so it adds
    nothing, and no string's span is empty), read as code points — one byte each when the
    text is ASCII, UTF-32 otherwise — looked up in a whitespace table and summed per
    string with one reduceat: no running sum over every character (a 50 MB text node
    took 3 s of cumulative sums over UTF-32, 0.4 s this way).
    """
    n = len(strings)
    if n == 0:
        return np.zeros(0, np.int64)
    if lengths is None:
        lengths = np.fromiter(map(len, strings), np.int64, n)
    if not lengths.any():
        return lengths
    joined = "\n".join(strings) + "\n"
    table = _is_space_table()
    if joined.isascii():
        solid = ~table[np.frombuffer(joined.encode("ascii"), dtype=np.uint8)]
    else:
        points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        solid = ~table[np.minimum(points, _LAST_SPACE + 1)]
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    return np.add.reduceat(solid, starts, dtype=np.int64)


def column_lengths(snap: Snapshot, column: str) -> np.ndarray:
    """nonspace_lengths of a string column ("text" or "tail") of `snap`, counted once per
    snapshot: a 50 MB text node costs a second of counting, and a capture's text check
    (pages/inputs.py), the features and a retry without hidden text all read it."""
    return snap.memo(("nonspace_lengths", column),
                     lambda: nonspace_lengths(snap.cols[column], string_lengths(snap, column)))


def own_lengths(snap: Snapshot) -> np.ndarray:
    """Per row, the non-space characters of its own text nodes: its text and its
    children's tails (column_lengths). Found once per snapshot: the features start from it,
    and `parked_main` reads it before them (hidden_bits)."""
    def compute_own() -> np.ndarray:
        own = column_lengths(snap, "text").copy()
        np.add.at(own, snap.parent[1:], column_lengths(snap, "tail")[1:])
        return own
    return snap.memo(("own_lengths",), compute_own)


def filled(snap: Snapshot, column: str) -> np.ndarray:
    """Rows whose `column` string is not empty (from string_lengths), found once per
    snapshot: comparing an object column with "" calls Python's comparison once a row,
    and the block stage asks for texts, tails and addresses on every page (NOTES.md, 'Why
    the stages read tags by their codes')."""
    return snap.memo(("filled", column), lambda: string_lengths(snap, column) > 0)


def string_lengths(snap: Snapshot, column: str) -> np.ndarray:
    """len() of each row's `column` string, counted once per snapshot: the non-space
    counts (column_lengths) start from them, and the metadata picks the short texts of
    the rows around the chosen element by them (metadata/window.py, `short_rows`), where
    each search counted its window's strings again (NOTES.md, 'Why a page's class and id
    names are numbered once')."""
    return snap.memo(("lengths", column),
                     lambda: np.fromiter(map(len, snap.cols[column]), np.int64, snap.n))


def tag_in(snap: Snapshot, tags: frozenset[str]) -> np.ndarray:
    """Boolean row mask: tag is in `tags`."""
    codes, names = snap.tag_codes()
    return np.fromiter(map(tags.__contains__, names), np.bool_, len(names))[codes]


def role_codes(snap: Snapshot) -> tuple[np.ndarray, np.ndarray]:
    """(the code of each row's role, numpy's lower case of each code's role): the rows'
    roles as `Snapshot.string_codes` numbers them (code 0 the empty string), each distinct
    role lower-cased once by the same numpy operation the rules ran over every row
    (`np.char.lower` of the column as a str array: a role's trailing NULs dropped), so
    `low[codes]` is that column, row for row. Found once
    per snapshot: the furniture and hover roles and the sidebars' main rows read it
    (NOTES.md, 'Why a page's distinct roles, hosts and names are read once')."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        codes, roles = snap.string_codes("role")
        low = np.char.lower(np.array(roles, dtype=object).astype(str))
        low.flags.writeable = False
        return codes, low
    return snap.memo(("role codes",), compute)


def shown_noscript(snap: Snapshot) -> np.ndarray:
    """noscript rows with element children, less the copies (`noscript_copies`). The HTML
    parser builds elements inside a noscript only when scripting is off (with scripts on
    its content is one raw text node), and a browser without scripting shows them:
    --static and --no-js snapshots, and sites (Discourse forums) that put the whole page
    there for crawlers. Found once per snapshot."""
    def compute_shown() -> np.ndarray:
        rows = np.flatnonzero(snap.tag == "noscript")
        out = np.zeros(snap.n, np.bool_)
        if len(rows):
            has_kids = np.zeros(snap.n, np.bool_)
            has_kids[snap.parent[1:]] = True
            rows = rows[has_kids[rows]]
            out[rows] = True
            out[rows[noscript_copies(snap, rows)]] = False
        return out
    return snap.memo(("shown_noscript",), compute_shown)


def _shingles(snap: Snapshot, texts: np.ndarray, tails: np.ndarray) -> set[tuple[str, ...]]:
    """The NOSCRIPT_SHINGLE_WORDS-word runs, lower-cased, of the text of rows `texts` and
    the tails of rows `tails`, read in document order: a row's text before its
    children's, a row's tail after its last descendant's (the deeper first)."""
    first = np.concatenate((texts, snap.end[tails]))
    then = np.concatenate((np.full(len(texts), snap.n), -tails))    # tails before a text
    order = np.lexsort((then, first))
    strings = np.concatenate((snap.cols["text"][texts], snap.cols["tail"][tails]))[order]
    words = _WORD.findall(" ".join(strings.tolist()).lower())
    k = NOSCRIPT_SHINGLE_WORDS
    return set(zip(*(words[i:] for i in range(k))))


def noscript_copies(snap: Snapshot, rows: np.ndarray) -> np.ndarray:
    """Which of the noscript `rows` (shown ones, with element children) are copies: at
    least NOSCRIPT_COPY_SHARE of their word runs are also read outside every such noscript
    and outside code and hidden elements. A page that draws its content with scripts and
    ships it again inside a noscript for crawlers (Flarum's `noscript#flarum-content`)
    has, when saved after the scripts ran, both; a browser shows the drawn one. A noscript
    that is the only copy (a lazy image's fallback, a script-only page's server text)
    stays. Costs nothing on the pages whose noscripts hold no text."""
    parent = snap.parent
    counted_text = column_lengths(snap, "text") > 0
    counted_tail = column_lengths(snap, "tail") > 0
    ends = snap.end[rows]
    at_text = np.concatenate(([0], np.cumsum(counted_text)))
    at_tail = np.concatenate(([0], np.cumsum(counted_tail)))
    own = (at_text[ends] - at_text[rows] + at_tail[ends] - at_tail[rows + 1]) > 0
    out = np.zeros(len(rows), np.bool_)
    if not own.any():
        return out
    inside = snap.subtrees(rows)
    code = tag_in(snap, CODE_TAGS)
    code[rows] = False
    hidden = (snap.cols["hidden"] & HIDING_BITS) > 0
    away = snap.subtrees(np.flatnonzero(code | hidden)) | inside
    up = np.maximum(parent, 0)
    outside_rows = np.flatnonzero(~away & counted_text)
    outside_tails = np.flatnonzero(~away[up] & (parent >= 0) & counted_tail)
    outside = _shingles(snap, outside_rows, outside_tails)
    for i in np.flatnonzero(own).tolist():     # a page has a few noscripts at most
        r, end = int(rows[i]), int(ends[i])
        mine = _shingles(snap, np.arange(r, end), np.arange(r + 1, end))
        if mine and len(mine & outside) >= NOSCRIPT_COPY_SHARE * len(mine):
            out[i] = True
    return out


def code_rows(snap: Snapshot) -> np.ndarray:
    """Rows whose tag is code (CODE_TAGS), less the noscripts a browser shows (found once
    per snapshot)."""
    return snap.memo(("code_rows",), lambda: tag_in(snap, CODE_TAGS) & ~shown_noscript(snap))


@dataclass(frozen=True, eq=False)
class Features:
    """Per-row arrays. `own_*` count direct text; the others aggregate the whole subtree."""

    text_chars: np.ndarray    # non-space chars of `text` (the text node before the first child)
    tail_chars: np.ndarray    # non-space chars of `tail` (a text node of the parent)
    own_chars: np.ndarray     # non-space chars of the row's own text nodes (text + children's tails)
    own_texts: np.ndarray     # non-blank own text nodes (text, and each child's tail)
    hidden: np.ndarray        # the row or an ancestor is hidden (HIDING_BITS of `hidden`)
    gone: np.ndarray          # the row or an ancestor is code, or hidden when skip_hidden
    in_link: np.ndarray       # the row is a link or inside one
    chars: np.ndarray         # visible non-space chars in the subtree
    linked_chars: np.ndarray  # of those, chars inside links
    tags: np.ndarray          # visible elements in the subtree, itself included
    links: np.ndarray         # visible links in the subtree
    # derived per-page results several stages read (LQF's sections, CLG's scores), keyed by
    # who computed them and the options they depend on: computed once per page (memo)
    cache: dict = field(default_factory=dict, repr=False)

    def memo(self, key: tuple, compute_fn: Callable[[], Any]) -> Any:
        """`compute_fn()` the first time `key` is asked for on this page, then the same
        result; its arrays are made read-only so no caller can change what others read."""
        if key not in self.cache:
            value = compute_fn()
            for arr in ((value,) if isinstance(value, np.ndarray) else
                        value if isinstance(value, tuple) else
                        getattr(value, "__dict__", {}).values()):
                if isinstance(arr, np.ndarray):
                    arr.setflags(write=False)
            self.cache[key] = value
        return self.cache[key]


@dataclass(frozen=True)
class Reading:
    """Which readings of hidden text `hidden_bits` applies, one field per option (each
    on by default, as its option is); hashable, so it keys the snapshot's memo. Built from
    the options by `Reading.of`: a rule that reads hidden text another way adds a field
    here, not a parameter to every caller."""

    aria_links: bool = True     # option aria_hidden_links: aria-hidden links a reader sees
    hidden_main: bool = True    # option parked_main_hidden: a hidden main of a page showing nothing
    faded_hidden: bool = True   # option reveal_faded_hidden: reveal sections hidden twice

    @classmethod
    def of(cls, opts: Any) -> "Reading":
        """The reading the Options `opts` ask for."""
        return cls(aria_links=opts.aria_hidden_links, hidden_main=opts.parked_main_hidden,
                   faded_hidden=opts.reveal_faded_hidden)


def hidden_bits(snap: Snapshot, reading: Reading = Reading()) -> np.ndarray:
    """The snapshot's `hidden` column as the pipeline reads it: opacity:0 is taken off
    every row of a snapshot without layout (STATIC_SHOWN_BITS); display:none is taken off
    React's parked segments (STREAMED_SEGMENT_ID divs), Marko's (`marko_fragments`) and
    a parked main landmark's rows (`parked_main`), and display:none and opacity:0
    (FOLDED_CLOSED) off folded content (tab panels and FOLDED_NAMES rows that are not
    aria-hidden), which are the page's content; with `reading.aria_links`, aria-hidden is
    taken off the links a reader sees (`shown_aria_links`); with `reading.hidden_main`, a
    hidden main landmark of a page that shows nearly nothing is read (`parked_main`); with
    `reading.faded_hidden`, a scroll reveal shows its sections hidden by visibility as
    well (`scroll_reveal`). Found once per snapshot and reading."""
    return snap.memo(("hidden_bits", reading), lambda: _hidden_bits(snap, reading))


def shown_aria_links(snap: Snapshot, bits: np.ndarray) -> np.ndarray:
    """Rows whose aria-hidden is no hiding: the outermost aria-hidden rows that are links
    (`a` with an address) holding text, under no other hidden row, drawn (a capture with
    layout: the row or a row below it has a box of some size on the page) and whose
    word runs are mostly not read elsewhere on the page (less than ARIA_LINK_COPY_SHARE of
    them outside every hidden row), with the rows below them. Such a link is the second
    link of a card to one address, kept from screen readers and the keyboard (a teaser's
    excerpt linked again, `tabindex="-1"`), which the eye reads (NOTES.md, 'Why a shown
    aria-hidden link is read')."""
    aria = (bits & ARIA_HIDDEN) > 0
    cand = aria & (snap.link > 0) & tag_in(snap, LINK_TAGS)
    if not cand.any():
        return np.zeros(0, np.int64)
    code = code_rows(snap)
    other = ((bits & (HIDING_BITS & ~ARIA_HIDDEN)) > 0) | code
    hid = aria | other
    under = snap.below(hid)
    rows = np.flatnonzero(cand & ~under & ~other)
    own = np.where(code | snap.below(code), 0, own_lengths(snap))
    rows = rows[snap.subtree_sum(own)[rows] > 0]
    if len(rows) and snap.layout:
        right = (snap.meta.get("page") or [0, 0])[0] or np.inf
        drawn = ((snap.w > 0) & (snap.h > 0) & (snap.x + snap.w > 0) & (snap.x < right)
                 & (snap.y + snap.h > 0))
        rows = rows[snap.subtree_sum(drawn.astype(np.int64))[rows] > 0]
    if not len(rows):
        return np.zeros(0, np.int64)
    away = hid | under
    up = np.maximum(snap.parent, 0)
    outside = _shingles(snap, np.flatnonzero(~away & (column_lengths(snap, "text") > 0)),
                        np.flatnonzero(~away[up] & (snap.parent >= 0)
                                       & (column_lengths(snap, "tail") > 0)))
    shown = []
    for r in rows.tolist():          # a few links a page at most
        end = int(snap.end[r])
        mine = _shingles(snap, np.arange(r, end), np.arange(r + 1, end))
        if mine and len(mine & outside) < ARIA_LINK_COPY_SHARE * len(mine):
            shown.append(r)
    return np.flatnonzero(snap.subtrees(shown)) if shown else np.zeros(0, np.int64)


def _hidden_bits(snap: Snapshot, reading: Reading) -> np.ndarray:
    bits = snap.hidden
    if reading.aria_links and ((bits & ARIA_HIDDEN) > 0).any():
        links = shown_aria_links(snap, bits)
        if len(links):
            bits = bits.copy()
            bits[links] &= ~ARIA_HIDDEN
    if not snap.layout:
        if ((bits & STATIC_SHOWN_BITS) > 0).any():
            bits = bits & ~STATIC_SHOWN_BITS
    else:
        sections = scroll_reveal(snap, bits, reading.faded_hidden)
        if sections is not None:
            bits = bits & ~STATIC_SHOWN_BITS
            if len(sections):
                bits[snap.subtrees(sections)] &= ~VISIBILITY_HIDDEN
    shown_comments = undefined_comments(snap, bits)
    if len(shown_comments):
        bits = bits.copy()
        bits[shown_comments] &= ~VISIBILITY_HIDDEN
    rows = np.flatnonzero((bits & DISPLAY_NONE) > 0)   # a few dozen rows on most pages
    if not len(rows):
        return bits
    folded = [r for r, id_, cls, role, aria in zip(
                  rows.tolist(), snap.id[rows].tolist(), snap.cls[rows].tolist(),
                  snap.role[rows].tolist(), ((bits[rows] & ARIA_HIDDEN) > 0).tolist())
              if not aria and (role == "tabpanel" or FOLDED_NAMES.search(f"{cls} {id_}".lower()))]
    shown = [r for r, tag, id_ in zip(rows.tolist(), snap.tag[rows].tolist(),
                                      snap.id[rows].tolist())
             if tag == "div" and STREAMED_SEGMENT_ID.fullmatch(id_)]
    shown.extend(marko_fragments(snap, rows).tolist())
    shown.extend(parked_main(snap, bits, reading.hidden_main).tolist())
    if not shown and not folded:
        return bits
    bits = bits.copy()
    bits[shown] &= ~DISPLAY_NONE
    bits[folded] &= ~FOLDED_CLOSED
    return bits


def scroll_reveal(snap: Snapshot, bits: np.ndarray, faded_hidden: bool = True
                  ) -> np.ndarray | None:
    """Whether a captured page waits for a scroll-reveal animation: the rows with text
    below them hidden by opacity:0 alone, each under no hidden row, start at no fewer than
    REVEAL_SECTIONS_MIN different heights (their boxes' tops, to the pixel; NOTES.md, 'Why
    a rendered page's scroll-reveal sections are read'). With `faded_hidden`, a row at
    opacity:0 and visibility:hidden together (FADED_HIDDEN: a fade's start state that
    hides from clicks too, GSAP's autoAlpha) whose box lies below the first screen (its
    top at the viewport's height or lower, a height above 0) counts as one such section
    (NOTES.md, 'Why a section faded out and hidden together waits for its reveal'). None
    when the page does not wait; else those of its sections hidden by visibility as well
    (rows), which the reveal shows."""
    faded = (bits & OPACITY_ZERO) > 0
    if faded.sum() < REVEAL_SECTIONS_MIN:
        return None
    hiding = (bits & HIDING_BITS) > 0
    own = bits & HIDING_BITS
    alone = own == OPACITY_ZERO
    both = False
    if faded_hidden:
        fold = (snap.meta.get("viewport") or [0, 0])[1] or np.inf
        both = (own == FADED_HIDDEN) & (snap.y >= fold) & (snap.h > 0)
    tops = (alone | both) & ~snap.below(hiding)
    if tops.sum() < REVEAL_SECTIONS_MIN:
        return None
    code = code_rows(snap)
    text = np.where(code | snap.below(code), 0, own_lengths(snap))
    sections = np.flatnonzero(tops & (snap.subtree_sum(text) > 0))
    if len(np.unique(np.round(snap.y[sections]))) < REVEAL_SECTIONS_MIN:
        return None
    return sections[own[sections] == FADED_HIDDEN] if faded_hidden else sections[:0]


def custom_tags(snap: Snapshot) -> np.ndarray:
    """Per distinct tag of the snapshot (Snapshot.tag_codes' names): whether it is a
    custom element's (CUSTOM_TAG_MARK). Found once per snapshot."""
    return snap.memo(("custom_tags",), lambda: np.fromiter(
        (CUSTOM_TAG_MARK in t for t in snap.tag_codes()[1]), np.bool_))


def comment_tags(snap: Snapshot) -> np.ndarray:
    """Per distinct tag of the snapshot: a custom element's whose tag names a comment
    (threadnames.names_thread: `shreddit-comment`, `shreddit-comment-tree`). Each tag is
    tested once per snapshot: `undefined_comments` and the comment finder
    (comments.custom_named) both ask."""
    def find() -> np.ndarray:
        _, tags = snap.tag_codes()
        return np.fromiter((c and names_thread(t) for t, c in zip(tags, custom_tags(snap).tolist())),
                           np.bool_, len(tags))
    return snap.memo(("comment_tags",), find)


def undefined_comments(snap: Snapshot, bits: np.ndarray) -> np.ndarray:
    """Rows whose visibility:hidden (VISIBILITY_HIDDEN, not display:none) is an undefined
    custom element's: the topmost custom elements (a tag holding CUSTOM_TAG_MARK) hidden
    by visibility whose tag names a comment (threadnames.names_thread: `shreddit-comment`,
    `shreddit-comment-tree`), with the rows of their subtrees and the hidden custom
    elements wrapping them up to a shown row (`faceplate-batch`); none where a row on the
    way up is hidden and no custom element (the page hid the thread itself). A saved
    page's scripts never define its custom elements, and a page's style hides an
    undefined one (`:not(:defined)`) until its script draws it: a Reddit thread's comments
    then hold their text hidden, which the live page shows (NOTES.md, 'Why comments in
    undefined custom elements are shown'). Each distinct tag is tested once."""
    codes, _ = snap.tag_codes()
    custom = custom_tags(snap)
    if not custom.any():
        return np.zeros(0, np.int64)
    hid = (bits & VISIBILITY_HIDDEN) > 0
    tops = comment_tags(snap)[codes] & hid
    if not tops.any():
        return np.zeros(0, np.int64)
    tops &= ~snap.below(tops)
    # the hidden custom elements (undefined wrappers) and, per row, its nearest ancestor
    # or self that is none (the root counts): a top is shown when that row is not hidden
    # (visibility, display:none), and so is every hidden custom element holding a shown
    # top below its own such row; vectorised (pointer doubling), no walk a top (a hostile page's
    # million comments under one wrapper chain)
    wrapper = custom[codes] & hid
    stop = snap.nearest(~wrapper)
    open_ = (bits[stop] & (VISIBILITY_HIDDEN | DISPLAY_NONE)) == 0
    shown_tops = tops & open_
    if not shown_tops.any():
        return np.zeros(0, np.int64)
    holding = snap.subtree_sum(shown_tops.astype(np.int64)) > 0
    return np.flatnonzero((wrapper & open_ & holding) | snap.subtrees(
        np.flatnonzero(shown_tops)))


def marko_fragments(snap: Snapshot, rows: np.ndarray) -> np.ndarray:
    """Of the display:none `rows`, Marko's parked fragments: divs whose id is
    `af{runtime}{N}` (MARKO_FRAGMENT_ID) where the page holds the placeholder
    `af{runtime}ph{N}`."""
    found = [(r, m) for r, tag, id_ in zip(rows.tolist(), snap.tag[rows].tolist(),
                                           snap.id[rows].tolist())
             if tag == "div" and (m := MARKO_FRAGMENT_ID.fullmatch(id_))]
    if not found:
        return np.zeros(0, np.int64)
    _, ids = snap.string_codes("id")
    names = set(ids)
    return np.array([r for r, m in found if f"{m.group(1)}ph{m.group(2)}" in names], np.int64)


def parked_main(snap: Snapshot, bits: np.ndarray, hidden_main: bool = True) -> np.ndarray:
    """The outermost display:none rows (not aria-hidden) inside a shown `main` landmark
    that hides nearly all its text (PARKED_MAIN_SHOWN, PARKED_MAIN_MIN_CHARS): content a
    script parks until it runs, read as shown. With `hidden_main`, a `main` hidden by
    display:none alone (itself or rows above it; no other hiding on the way up) on a page
    that shows less than PARKED_MAIN_SHOWN of its text counts as shown, those display:none
    rows with it (`hidden_main_rows`; NOTES.md, 'Why a page that shows nearly nothing reads
    its hidden main landmark')."""
    role_codes, roles = snap.string_codes("role")
    main_role = role_codes == roles.index("main") if "main" in roles else False
    mains = np.flatnonzero(tag_in(snap, MAIN) | main_role)
    if not len(mains):
        return np.zeros(0, np.int64)
    code = code_rows(snap)
    own = np.where(code | snap.below(code), 0, own_lengths(snap))
    lifted = hidden_main_rows(snap, bits, mains, own) if hidden_main else np.zeros(0, np.int64)
    if len(lifted):
        bits = bits.copy()
        bits[lifted] &= ~DISPLAY_NONE
    hiding = (bits & HIDING_BITS) > 0
    under = snap.below(hiding)
    mains = mains[~(hiding[mains] | under[mains])]
    if not len(mains):
        return lifted
    total = snap.subtree_sum(own)[mains]
    seen = snap.subtree_sum(np.where(hiding | under, 0, own))[mains]
    parked = mains[(total >= PARKED_MAIN_MIN_CHARS) & (seen < PARKED_MAIN_SHOWN * total)]
    if not len(parked):
        return lifted
    none = ((bits & DISPLAY_NONE) > 0) & ((bits & ARIA_HIDDEN) == 0)
    return np.union1d(lifted, np.flatnonzero(none & ~under & snap.subtrees(parked)))


def hidden_main_rows(snap: Snapshot, bits: np.ndarray, mains: np.ndarray,
                     own: np.ndarray) -> np.ndarray:
    """The display:none rows on the way up from the `mains` (themselves included) that hold
    at least PARKED_MAIN_MIN_CHARS of text, when the page shows less than PARKED_MAIN_SHOWN
    of its text (`own`: code left out) and no row on a main's way up hides it otherwise
    (aria-hidden, visibility, opacity): a slideshow or an app shell that its scripts switch
    on once they run. None when some main is shown (the page's other view is hidden then)."""
    hiding = (bits & HIDING_BITS) > 0
    under = snap.below(hiding)
    total = int(own.sum())
    if not total or int(np.where(hiding | under, 0, own).sum()) >= PARKED_MAIN_SHOWN * total:
        return np.zeros(0, np.int64)
    if (~(hiding[mains] | under[mains])).any():
        return np.zeros(0, np.int64)
    sums = snap.subtree_sum(own)
    rows = np.arange(snap.n)
    out = []
    for m in mains[sums[mains] >= PARKED_MAIN_MIN_CHARS].tolist():   # one or two a page
        up = (rows <= m) & (snap.end > m) & hiding
        if (bits[up] & (HIDING_BITS & ~DISPLAY_NONE)).any():
            continue
        out.extend(np.flatnonzero(up).tolist())
    return np.unique(np.array(out, np.int64))


def zero_font(snap: Snapshot, own_chars: np.ndarray) -> np.ndarray:
    """Rows that own text set at font-size 0, with no row below them in a readable size
    and no image: hidden like display:none (a way pages hide keyword spam and
    image-replaced logo text). Left visible: a row at size 0 whose children set a size
    again (the inline-block whitespace trick), and images and rows without text of their
    own at size 0 (an image carousel laid out that way is seen: wcxb_dev_full 0655)."""
    readable = snap.fs > 0
    seen_below = snap.subtree_sum((readable | tag_in(snap, IMAGE_TAGS)).astype(np.int64))
    return ~readable & (own_chars > 0) & (seen_below == 0)


def compute(snap: Snapshot, skip_hidden: bool = True, revealed: bool = False,
            reading: Reading = Reading()) -> Features:
    """All features of `snap`; `skip_hidden` treats hidden rows like code (not content);
    `revealed` reads the page as its reveal shows it (REVEAL_BITS do not hide);
    `reading` which readings of hidden text apply (hidden_bits)."""
    parent = snap.parent
    text_len = column_lengths(snap, "text")
    tail_len = column_lengths(snap, "tail")
    own_chars = own_lengths(snap)
    own_texts = (text_len > 0).astype(np.int64)
    np.add.at(own_texts, parent[1:], (tail_len[1:] > 0).astype(np.int64))

    hiding = HIDING_BITS & ~REVEAL_BITS if revealed else HIDING_BITS
    own_hidden = ((hidden_bits(snap, reading) & hiding) > 0) | zero_font(snap, own_chars)
    hidden = own_hidden | snap.below(own_hidden)
    dead = code_rows(snap) | (own_hidden if skip_hidden else False)
    gone = dead | snap.below(dead)
    in_link = snap.link | snap.below(snap.link)

    live = ~gone
    vis_chars = np.where(live, own_chars, 0)
    return Features(
        text_chars=text_len,
        tail_chars=tail_len,
        own_chars=own_chars,
        own_texts=own_texts,
        hidden=hidden,
        gone=gone,
        in_link=in_link,
        chars=snap.subtree_sum(vis_chars),
        linked_chars=snap.subtree_sum(np.where(in_link, vis_chars, 0)),
        tags=snap.subtree_sum(live.astype(np.int64)),
        links=snap.subtree_sum((snap.link & live).astype(np.int64)),
    )
