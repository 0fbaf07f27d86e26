"""DOM filters + NLP of Agarwal, Chheda, Shah and Narvekar: filter the tree, take the first article subtree, keep relevant images.

The paper's method, in its order:
  1. first set of filters, each a switch (options.filters_ignore_*): ignore scripts, styles,
     style attributes, meta, forms, inputs, buttons, selects, iframes, embeds, image links;
  2. second set: the advertisement remover (rows whose href/src host is a known ad
     server), the link list remover (table cells with more links per non-linked word than
     a ratio; a word is 5 characters), the empty table remover (tables left without
     substance), the removed links retainer (removed text links listed at the end);
  3. the article subtree: the first subtree in document order whose paragraph text
     reaches 500 characters;
  4. image relevance: an image in the article stays when it has a caption whose
     named-entity frequency vector is cosine-similar to the article text's;
  5. output as HTML or text with a cap on consecutive line breaks.
Removed rows go to `Choice.drop`, retained links to `Choice.appendix`.

Choices where the paper is vague, written down:
- Filters work on the snapshot, not on markup: switches for things a snapshot never
  holds (script and style text, style attributes, meta in head) exist and say so.
- Advertisement remover: a row is removed when the host of its href/src, or a parent
  domain of it, is listed; the removed node is the row that carries the URL (the paper's
  "node that contained the link"). List: host/pith/pipeline/algorithms/ad_hosts.txt, hand-made (that file
  says why no packaged list is used), plus any EasyList/hosts files named in
  options.filters_ad_lists. EasyList `||host^` rules are kept with their resource types
  (an `$image` rule removes images, not links; `$popup`/`$document` rules remove links);
  rules limited to some sites (`domain=`), first-party rules and rules with options we
  cannot model are skipped; `@@||host^` exceptions win; party restrictions are ignored.
- Link list remover: links = visible links in the cell, non-linked words = visible
  characters outside links / options.filters_chars_per_word; a cell is a link list when
  links > ratio x words (so a cell of links with no plain text always is). Cells nest in
  layout tables, so a cell is removed only when it is a link list counted both over all
  it holds and over what is not inside a nested cell: an outer layout cell holding the
  whole page is not removed for the menu in one of its nested cells, nor for a few links
  of its own when its text sits in nested cells; those cells are judged themselves. For
  a cell without nested cells both counts are the paper's. All cells are judged on the
  tree the earlier filters left, at once; the cell row itself goes (the paper's
  "optionally, the cell itself": the text output is the same either way).
- Empty table remover: a table whose visible characters, after the earlier filters,
  number fewer than options.filters_table_min_chars and that holds no substance element
  (options.filters_table_substance). Nested tables are judged at once, so a table whose
  only content was an emptied inner table goes with it.
- "Paragraph text": each visible character outside links and form widgets belongs to its
  nearest block ancestor (tags.BLOCK_TAGS plus table cells and rows). A block is a
  paragraph when it is a p or div (the paper's forms 1 and 2,
  options.filters_paragraph_tags) or has a br child (form 3, "text <br> text"). A
  paragraph's characters count for the subtree that holds the paragraphs: the
  paragraph's parent for forms 1-2, the block itself for form 3 (a p with br is still one
  paragraph). Hyperlink text is not paragraph text (the paper names hyperlinks as "other
  content" of an article subtree), so menus never qualify; widget labels (select
  options, buttons) are not either, and no output shows them.
- "First subtree" reaching 500: every ancestor of a qualifying subtree qualifies too, and
  the root comes first in preorder, so "first" is taken among the smallest qualifying
  subtrees (none of their descendants qualifies), in document order. The paper's three
  forms miss text held directly by other blocks (td, li, blockquote, body: table layouts
  of the 2000s, a page that is one giant text node); when no subtree reaches the
  threshold with them, the rule runs again with every block holding text as a paragraph
  (credited to itself, p/div still to their parent), then falls back to the subtree with
  the most such text credited directly. A page with no text outside links (only links)
  raises NoContent: the method finds no article there.
- Caption of an image: the paper's "first parent block-element" — the nearest block
  ancestor of the image, which must lie strictly inside the article (an image sitting
  directly in the article root has no caption block) — whose text (a figure's includes
  its figcaption), plus the image's alt text, is the caption. No caption text: the image
  is "a non-article image" and goes.
- Named entities: no named-entity recogniser can run here without downloading a model
  (PyPI has spaCy, whose English models are there only as unofficial re-uploads, English
  only and tens of ms per article — the host's budget is 15 ms a page; NLTK's and
  Stanza's models download at run time). The approximation is language-independent: a
  token is an entity candidate when it holds a digit (years, numbers), or starts with a
  capital letter and its lower-case form never occurs in the article (so "The" is not an
  entity, "Obama" and "NASA" are), or is written in a script without case (CJK, Thai,
  Arabic...), where its character bigrams stand in for words. Caption and article are
  compared by cosine of entity counts; the caption block's own counts are taken out of
  the article's first (the caption sits inside the article and would match itself). An
  article with no entity besides the caption's cannot be compared: its captioned images
  stay.
- Removed links retainer: every text link the filters of steps 1-2 removed, anywhere on
  the page, except links to ad servers (removing those is the point), once per URL, in
  document order, as "text <url>" lines.
- The cap on consecutive line breaks (the paper's default 2) is render.to_text's own
  behaviour: blocks are joined by at most one blank line. Preformatted text keeps its
  lines.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...errors import BadOptions, NoContent
from ..features import Features
from ..options import Options
from ..tags import BLOCK_TAGS, CELL_TAGS, WIDGET_TAGS
from ..snapshot import Snapshot
from .base import Choice

# --- the first set of filters: option -> tags it leaves out ------------------------------
IGNORE_TAGS = {
    "filters_ignore_scripts": frozenset({"script"}),
    "filters_ignore_styles": frozenset({"style"}),
    "filters_ignore_meta": frozenset({"meta"}),
    "filters_ignore_forms": frozenset({"form"}),
    "filters_ignore_inputs": frozenset({"input", "textarea"}),
    "filters_ignore_buttons": frozenset({"button"}),
    "filters_ignore_selects": frozenset({"select"}),
    "filters_ignore_iframes": frozenset({"iframe", "frame"}),
    "filters_ignore_embeds": frozenset({"embed", "object"}),
}
# Elements whose characters belong to them rather than to an ancestor (paragraph text).
BLOCKS = BLOCK_TAGS | CELL_TAGS | {"tr"}

# --- advertisement remover -------------------------------------------------------------
AD_HOSTS_FILE = Path(__file__).resolve().parent / "ad_hosts.txt"
# Kinds of request a row's URL makes, as bits, so EasyList's resource types apply.
IMAGE, FRAME, SCRIPT, MEDIA, OBJECT, LINK = (1 << k for k in range(6))
ALL_KINDS = IMAGE | FRAME | SCRIPT | MEDIA | OBJECT | LINK
TAG_KINDS = {"img": IMAGE, "input": IMAGE, "source": IMAGE | MEDIA, "iframe": FRAME,
             "frame": FRAME, "script": SCRIPT, "video": MEDIA, "audio": MEDIA,
             "track": MEDIA, "embed": OBJECT, "object": OBJECT, "a": LINK, "area": LINK}
# EasyList resource types -> kinds (types no snapshot row makes map to 0).
TYPE_KINDS = {"image": IMAGE, "subdocument": FRAME, "frame": FRAME, "script": SCRIPT,
              "media": MEDIA, "object": OBJECT, "object-subrequest": OBJECT,
              "popup": LINK, "document": LINK, "doc": LINK, "all": ALL_KINDS,
              "stylesheet": 0, "css": 0, "xmlhttprequest": 0, "xhr": 0, "ping": 0,
              "beacon": 0, "font": 0, "websocket": 0, "webrtc": 0, "other": 0}
_HOST = r"[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?"
_ABP_RULE = re.compile(rf"^(@@)?\|\|({_HOST})\^?(?:\$(.+))?$")
_HOSTS_LINE = re.compile(rf"^(?:(?:0\.0\.0\.0|127\.0\.0\.1|::1?)\s+)?({_HOST}\.[a-z0-9-]+)\s*(?:#.*)?$")

# --- image relevance -----------------------------------------------------------------
_TOKEN = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_SPACES = re.compile(r"\s+")


# ======================================================================= ad server list
@dataclass(frozen=True, eq=False)
class AdList:
    """Listed hosts -> kinds of request they are blocked for; exceptions likewise."""

    block: dict[str, int]
    allow: dict[str, int]

    def kinds(self, host: str) -> int:
        """Kinds blocked for `host`: its own entry and its parent domains'."""
        labels = host.split(".")
        blocked = allowed = 0
        for k in range(len(labels) - 1):
            suffix = ".".join(labels[k:])
            blocked |= self.block.get(suffix, 0)
            allowed |= self.allow.get(suffix, 0)
        return blocked & ~allowed


def rule_kinds(options: str | None) -> int:
    """Kinds an EasyList rule's `$options` apply to; 0 when we cannot honour the rule."""
    if not options:
        return ALL_KINDS
    positive = negative = 0
    typed = False
    for opt in options.lower().split(","):
        opt = opt.strip()
        negated, name = opt.startswith("~"), opt.lstrip("~")
        if name in TYPE_KINDS:
            if negated:
                negative |= TYPE_KINDS[name]
            else:
                positive |= TYPE_KINDS[name]
                typed = True
        elif name in ("third-party", "3p"):
            if negated:
                return 0          # first-party only: the site's own paths, not an ad server
        elif name in ("first-party", "1p"):
            if not negated:
                return 0
        elif name not in ("important", "match-case"):
            return 0              # domain=, redirect, csp, badfilter, ...: not a plain server
    return (positive if typed else ALL_KINDS) & ~negative


def parse_list(lines) -> tuple[dict[str, int], dict[str, int]]:
    """(block, allow) of one list: EasyList when it starts with '[Adblock', else hosts."""
    block: dict[str, int] = {}
    allow: dict[str, int] = {}
    abp = None
    for raw in lines:
        line = raw.strip().lower()
        if not line or line.startswith(("!", "#")):
            continue
        if abp is None:
            abp = line.startswith("[adblock")
            if abp:
                continue
        m = _ABP_RULE.match(line)
        if m:
            kinds = rule_kinds(m.group(3))
            if kinds:
                target = allow if m.group(1) else block
                target[m.group(2)] = target.get(m.group(2), 0) | kinds
            continue
        if not abp:
            m = _HOSTS_LINE.match(line)
            if m and m.group(1) not in ("localhost", "localhost.localdomain"):
                block[m.group(1)] = ALL_KINDS
    return block, allow


@lru_cache(maxsize=4)
def ad_list(extra: str = "") -> AdList:
    """The built-in list plus the files named in `extra` (os.pathsep-separated), loaded once."""
    block: dict[str, int] = {}
    allow: dict[str, int] = {}
    paths = [AD_HOSTS_FILE] + [Path(p) for p in extra.split(os.pathsep) if p.strip()]
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                b, a = parse_list(fh)
        except OSError as exc:
            raise BadOptions(f"option 'filters_ad_lists': cannot read {path}: "
                             f"{exc.strerror or exc}", key="filters_ad_lists") from exc
        for src, dst in ((b, block), (a, allow)):
            for host, kinds in src.items():
                dst[host] = dst.get(host, 0) | kinds
    return AdList(block=block, allow=allow)


def ad_rows(snap: Snapshot, opts: Options) -> np.ndarray:
    """Rows whose URL goes to a listed server for the kind of request the row makes
    (found once per snapshot and list)."""
    return snap.memo(("ad_rows", opts.filters_ad_lists), lambda: _ad_rows(snap, opts))


def _ad_rows(snap: Snapshot, opts: Options) -> np.ndarray:
    host_codes, strings = snap.string_codes("host")   # code 0: no host
    if len(strings) == 1:
        return np.zeros(snap.n, np.bool_)
    listed = ad_list(opts.filters_ad_lists)
    # each distinct host asked once, as the numpy str the column's str array holds
    hosts = np.array(strings[1:], dtype=object).astype(str)
    host_kinds = np.zeros(len(strings), np.int64)
    host_kinds[1:] = np.fromiter((listed.kinds(h) for h in hosts), np.int64, len(hosts))
    codes, tags = snap.tag_codes()      # the kinds of each distinct tag, then per row
    tag_kinds = np.fromiter((TAG_KINDS.get(t, ALL_KINDS) for t in tags), np.int64, len(tags))
    return (host_kinds[host_codes] & tag_kinds[codes]) != 0


# ======================================================================= tree helpers
def tags_of(snap: Snapshot, feats: Features) -> "Tags":
    """The page's Tags, built once per page (Features.memo)."""
    return feats.memo(("tags",), lambda: Tags(snap))


class Tags:
    """Tag masks over the snapshot's tag codes (the tags of a page are few)."""

    def __init__(self, snap: Snapshot):
        self.codes, self.names = snap.tag_codes()

    def mask(self, tags) -> np.ndarray:
        chosen = np.fromiter(map(tags.__contains__, self.names), np.bool_, len(self.names))
        return chosen[self.codes]


def nearest(snap: Snapshot, mask: np.ndarray) -> np.ndarray:
    """Per row, the nearest ancestor-or-self in `mask` (-1 if none), by pointer doubling."""
    n = snap.n
    marked = np.append(mask, True)                      # row n: sentinel above the root
    jump = np.where(mask, np.arange(n), snap.parent)
    jump = np.append(np.where(jump < 0, n, jump), n)
    while True:
        nxt = np.where(marked[jump], jump, jump[jump])
        if (nxt == jump).all():
            break
        jump = nxt
    return np.where(jump[:n] == n, -1, jump[:n])


def subtree_text(snap: Snapshot, alive: np.ndarray, root: int) -> str:
    """The live text of `root`'s subtree (text of live rows, tails inside live parents)."""
    rows = np.arange(root, snap.end[root])
    texts = snap.text[rows[alive[rows]]]
    inner = rows[1:]
    tails = snap.tail[inner[alive[snap.parent[inner]]]]
    return " ".join((*texts, *tails))


# ======================================================================= filters
def ignored(snap: Snapshot, feats: Features, tags: Tags, opts: Options) -> np.ndarray:
    """The first set of filters: rows whose tags the options ignore, and image links."""
    chosen = frozenset().union(*(t for name, t in IGNORE_TAGS.items() if getattr(opts, name)))
    drop = tags.mask(chosen)
    if opts.filters_ignore_image_links:
        images = snap.subtree_sum(tags.mask({"img"}).astype(np.int64))
        drop |= snap.link & (feats.chars == 0) & (images > 0)
    return drop


def link_lists(snap: Snapshot, feats: Features, tags: Tags, alive: np.ndarray,
               opts: Options) -> np.ndarray:
    """Cells whose links outnumber ratio x non-linked words (the link list remover),
    counted over all they hold and over what is not inside a nested cell alike."""
    cells = tags.mask(opts.filters_link_list_tags)
    if not cells.any():              # a page without cells (no table): none is a list
        return cells
    links = (snap.link & alive).astype(np.int64)
    plain = np.where(alive & ~feats.in_link, feats.own_chars, 0)

    def listy(n_links, n_plain):
        return (n_links > 0) & (n_links > opts.filters_link_ratio * n_plain
                                / opts.filters_chars_per_word)

    # each row's cell, found once per page (the filters and the block stage both ask)
    cell_of = snap.memo(("cell_of", opts.filters_link_list_tags), lambda: nearest(snap, cells))
    inside = cell_of >= 0
    own_links = np.bincount(cell_of[inside], weights=links[inside], minlength=snap.n)
    own_plain = np.bincount(cell_of[inside], weights=plain[inside], minlength=snap.n)
    return (cells & alive & listy(snap.subtree_sum(links), snap.subtree_sum(plain))
            & listy(own_links, own_plain))


def empty_tables(snap: Snapshot, feats: Features, tags: Tags, alive: np.ndarray,
                 opts: Options) -> np.ndarray:
    """Tables with fewer than min chars and no substance element (the empty table remover)."""
    tables = tags.mask({"table"}) & alive
    if not tables.any():
        return tables
    chars = snap.subtree_sum(np.where(alive, feats.own_chars, 0))
    substance = snap.subtree_sum((tags.mask(opts.filters_table_substance) & alive)
                                 .astype(np.int64))
    return tables & (chars < opts.filters_table_min_chars) & (substance == 0)


def dead_rows(snap: Snapshot, feats: Features, drop: np.ndarray) -> np.ndarray:
    return feats.gone | drop | snap.below(drop)


# ======================================================================= article subtree
@dataclass(frozen=True, eq=False)
class Paragraphs:
    """Paragraph text per row: credited directly (`direct`) and over the subtree (`total`)."""

    direct: np.ndarray
    total: np.ndarray


def paragraphs(snap: Snapshot, feats: Features, tags: Tags, owner: np.ndarray,
               alive: np.ndarray, opts: Options, relaxed: bool = False) -> Paragraphs:
    """Credit each paragraph's characters to the subtree that holds the paragraphs.

    `owner` is each row's nearest block ancestor-or-self. `relaxed` makes every block
    holding text a paragraph (the fallback when the paper's forms reach no threshold).
    """
    n = snap.n
    blocks = tags.mask(BLOCKS)
    widgets = tags.mask(WIDGET_TAGS)
    text = alive & ~feats.in_link & ~(widgets | snap.below(widgets))
    own = np.where(text, feats.own_chars, 0)
    held = (own > 0) & (owner >= 0)
    block_chars = np.bincount(owner[held], weights=own[held], minlength=n).astype(np.int64)
    brs = tags.mask({"br"}) & alive & (owner >= 0)
    has_br = np.bincount(owner[brs], minlength=n) > 0
    forms_1_2 = tags.mask(opts.filters_paragraph_tags)
    itself = blocks & ((has_br & ~tags.mask({"p"})) | (relaxed & ~forms_1_2))
    para = blocks & (forms_1_2 | has_br | relaxed) & (block_chars > 0)
    container = np.where(itself, np.arange(n), snap.parent)
    credited = para & (container >= 0)
    direct = np.bincount(container[credited], weights=block_chars[credited],
                         minlength=n).astype(np.int64)
    return Paragraphs(direct=direct, total=snap.subtree_sum(direct))


def article(snap: Snapshot, feats: Features, tags: Tags, owner: np.ndarray,
            alive: np.ndarray, opts: Options) -> tuple[int, np.ndarray, Paragraphs]:
    """(article root, candidate blocks, paragraph text): the first of the smallest
    subtrees reaching the threshold; the paper's paragraph forms first, then any block."""
    for relaxed in (False, True):
        para = paragraphs(snap, feats, tags, owner, alive, opts, relaxed)
        qualifies = para.total >= opts.filters_article_chars
        inner = snap.subtree_sum(qualifies.astype(np.int64)) - qualifies
        smallest = np.flatnonzero(qualifies & (inner == 0))     # document order
        if len(smallest):
            return int(smallest[0]), smallest, para
    if para.direct.max(initial=0) > 0:
        ranked = np.flatnonzero(para.direct > 0)
        ranked = ranked[np.argsort(-para.direct[ranked], kind="stable")]
        return int(ranked[0]), ranked, para
    raise NoContent("no text outside links: the article rule finds no paragraph to start from")


# ======================================================================= image relevance
def entities(text: str, lower: set[str]) -> Counter:
    """Entity candidates of `text` with counts (see the module docstring for the rule)."""
    return token_entities(tokens(text), lower)


def tokens(text: str) -> Counter:
    """The tokens of `text` with their counts, in order of first occurrence."""
    return Counter(_TOKEN.findall(text))


def token_entities(counts: Counter, lower: set[str]) -> Counter:
    """`entities` of a text from its token counts: each distinct token is judged once (a
    page repeats its words), its count added."""
    out: Counter = Counter()
    for token, count in counts.items():
        kind, key = _token_kind(token)
        if kind == _NUMBER or (kind == _NAME and key not in lower):
            out[key] += count
        elif kind == _SCRIPT:
            for k in range(len(token) - 1):
                out[token[k:k + 2]] += count
    return out


# What a token is to `entities`: a number (a digit in it), a name (capitalised), a word of
# a script without case (its character bigrams count), or nothing.
_NUMBER, _NAME, _SCRIPT, _NOTHING = range(4)
# Distinct tokens whose kind is remembered: words repeat from page to page, and a batch
# run sees many pages; the memo is emptied when it reaches this many (about 7.5 MB of
# short words at most).
TOKEN_KIND_CACHE_SIZE = 50_000
_TOKEN_KINDS: dict[str, tuple[int, str]] = {}


def _token_kind(token: str) -> tuple[int, str]:
    """(kind, casefolded token) of one token; one-character numbers and names are nothing."""
    known = _TOKEN_KINDS.get(token)
    if known is not None:
        return known
    first = token[0]
    if any(c.isdigit() for c in token):
        kind = _NUMBER if len(token) > 1 else _NOTHING
    elif first.isupper():
        kind = _NAME if len(token) > 1 else _NOTHING
    elif not first.islower() and first.isalpha():
        kind = _SCRIPT
    else:
        kind = _NOTHING
    if len(_TOKEN_KINDS) >= TOKEN_KIND_CACHE_SIZE:
        _TOKEN_KINDS.clear()
    known = _TOKEN_KINDS[token] = (kind, token.casefold())
    return known


def lower_words(text: str) -> set[str]:
    """Tokens that occur starting with a lower-case letter: ordinary words, not names."""
    return token_lower_words(tokens(text))


def token_lower_words(counts: Counter) -> set[str]:
    """`lower_words` of a text from its token counts."""
    return {t.casefold() for t in counts if t[0].islower()}


def cosine(a: Counter, b: Counter) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    return dot / (math.sqrt(sum(v * v for v in a.values()))
                  * math.sqrt(sum(v * v for v in b.values())))


def irrelevant_images(snap: Snapshot, tags: Tags, owner: np.ndarray, alive: np.ndarray,
                      node: int, opts: Options, judged: np.ndarray | None = None) -> np.ndarray:
    """Images of the article without a caption, or whose caption is off the article's
    topic; only the images among the `judged` rows when given (each image is judged on
    its own, so the verdicts on those are the same)."""
    out = np.zeros(snap.n, np.bool_)
    rows = np.arange(node + 1, snap.end[node])
    candidate = tags.mask({"img"})[rows] & alive[rows]
    if judged is not None:
        candidate &= judged[rows]
    images = rows[candidate]
    if not len(images):
        return out
    counts = tokens(subtree_text(snap, alive, node))
    lower = token_lower_words(counts)
    whole = token_entities(counts, lower)
    # per caption block: its text, its entities and the article's entities outside it
    blocks: dict[int, tuple[str, Counter, Counter]] = {}
    for img, block in zip(images.tolist(), owner[snap.parent[images]].tolist()):
        block = block if block > node else -1     # the caption block lies inside the article
        if block not in blocks:
            block_text = subtree_text(snap, alive, block) if block >= 0 else ""
            own = entities(block_text, lower)
            blocks[block] = (block_text, own, whole - own)
        block_text, own, rest = blocks[block]
        alt = str(snap.alt[img])
        if not (_TOKEN.search(block_text) or _TOKEN.search(alt)):
            out[img] = True                       # no caption: a non-article image
            continue
        if not rest:
            continue                              # nothing to compare with: keep
        out[img] = cosine(own + entities(alt, lower), rest) < opts.filters_image_similarity
    return out


# ======================================================================= removed links
def removed_links(snap: Snapshot, feats: Features, removed: np.ndarray,
                  ads: np.ndarray) -> list[tuple[str, str]]:
    """(text, url) of each visible text link among `removed` rows, except links to ad
    servers (removing those is the point), once per URL, in document order."""
    ad_links = ads | snap.below(ads)
    rows = np.flatnonzero(removed & snap.link & ~feats.gone & ~ad_links & (feats.chars > 0)
                          & (snap.url != ""))
    seen: set[str] = set()
    out = []
    visible = ~feats.gone
    for row in rows.tolist():
        url = str(snap.url[row])
        if url in seen:
            continue
        seen.add(url)
        out.append((_SPACES.sub(" ", subtree_text(snap, visible, row)).strip(), url))
    return out


def retained_links(snap: Snapshot, feats: Features, removed: np.ndarray,
                   ads: np.ndarray) -> tuple[str, ...]:
    """'text <url>' of each text link the filters removed (not ad links), once per URL."""
    return tuple(f"{text} <{url}>" for text, url in removed_links(snap, feats, removed, ads))


# ======================================================================= the method
def run(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """Steps 1-4 of the paper; the article subtree with the removed rows in `drop`."""
    return _article_choice(snap, feats, opts, voting=False)


def vote(snap: Snapshot, feats: Features, opts: Options) -> Choice:
    """`run` as a ballot entry that only votes (auto.py, `auto_filters_vote`) is read:
    by the visible text its answer covers, and nothing else. A dropped image covers the
    text of its subtree only, so of the images only those holding visible text are
    judged (on a crawl, none: the relevance step, 7 % of `select`'s time there, is
    skipped), and the removed links, which no vote reads, are not listed. The text
    covered is the same as `run`'s (tests/test_filters.py)."""
    return _article_choice(snap, feats, opts, voting=True)


def _article_choice(snap: Snapshot, feats: Features, opts: Options, voting: bool) -> Choice:
    tags = tags_of(snap, feats)
    drop = ignored(snap, feats, tags, opts)
    ads = ad_rows(snap, opts) if opts.filters_ads else np.zeros(snap.n, np.bool_)
    drop |= ads
    if opts.filters_link_lists:
        drop |= link_lists(snap, feats, tags, ~dead_rows(snap, feats, drop), opts)
    if opts.filters_empty_tables:
        drop |= empty_tables(snap, feats, tags, ~dead_rows(snap, feats, drop), opts)
    filtered = dead_rows(snap, feats, drop)
    alive = ~filtered
    owner = nearest(snap, tags.mask(BLOCKS))
    node, blocks, para = article(snap, feats, tags, owner, alive, opts)
    appendix: tuple[str, ...] = ()
    if opts.filters_retain_links and not voting:
        appendix = retained_links(snap, feats, filtered & ~feats.gone, ads)
    if opts.filters_image_relevance:
        judged = feats.chars > 0 if voting else None
        drop = drop | irrelevant_images(snap, tags, owner, alive, node, opts, judged)
    drop.flags.writeable = False
    return Choice(node=node, score=para.total.astype(np.float64), blocks=blocks,
                  drop=drop, appendix=appendix)
