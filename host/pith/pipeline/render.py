"""Output of a chosen node as plain text, Markdown or clean HTML, straight from the Snapshot.

Every format walks the node's subtree once in document order (`events`), skipping code,
hidden rows and form widgets, and rebuilds text from the `text`/`tail` columns. Plain
text separates blocks by a blank line (the convention of the benchmark truths); Markdown
keeps headings, lists, quotes, code, tables, links and images; HTML keeps a small safe
set of tags and attributes, escaped.
"""
from __future__ import annotations

import html as html_mod
import re
from typing import Iterator, Sequence

import numpy as np

from . import allowlist, math as math_mod
from .algorithms.base import Choice
from .features import Features, tag_in
from .snapshot import Snapshot
from .tags import BLOCK_LEVEL, BLOCK_TAGS, CELL_TAGS, LINE_TAGS, PRE_TAGS, TABLE_PARTS, WIDGET_TAGS

FORMATS = ("text", "markdown", "html", "json")
# Single tags the renderers pick rows by (features.tag_in: by the snapshot's tag codes,
# not a Python comparison a row).
TABLE, MATH, SCRIPT = frozenset(("table",)), frozenset(("math",)), frozenset(("script",))
_SPACES = re.compile(r"\s+")


def output(snap: Snapshot, feats: Features, choice: Choice, fmt: str, title: str = "") -> str:
    """A choice's content on the snapshot in `fmt` (text, markdown or html): the method's
    preface lines, its roots in document order without the rows it dropped (and without
    the own text of rows it quieted: the block stage's dropped blocks around kept ones),
    its appendix lines. A Selection (select.py) holds all three: `sel.snap, sel.feats,
    sel.result`. Markdown and HTML begin with `title` (the page's, its metadata's) as the
    top heading, unless the content already begins with that heading."""
    roots, drop, quiet = choice.roots, choice.drop, choice.quiet
    if fmt == "markdown":
        body = to_markdown(snap, feats, roots, drop, quiet)
    elif fmt == "html":
        body = to_html(snap, feats, roots, drop, title=title or snap.meta["title"], quiet=quiet,
                       heading=title)
    else:
        body = to_text(snap, feats, roots, drop, quiet)
    # The preface and appendix are page text (a title, link words and URLs): Markdown
    # escapes them as it escapes the content, so a title `<img onerror=…>` stays words.
    lines = _md_inline if fmt == "markdown" else str
    if choice.appendix and fmt != "html":
        body = body + "\n\n" + "\n".join(map(lines, choice.appendix))
    if choice.preface and fmt != "html":
        preface = [lines(line) for line in choice.preface]
        if fmt == "markdown" and title and _fold(choice.preface[0]) == _fold(title):
            # a preface line that is the page's title (SST's <title> line) is the top
            # heading itself, not a line under a second copy of it
            preface[0] = f"# {preface[0]}"
        body = "\n\n".join(preface) + "\n\n" + body
    if fmt == "markdown" and title and not starts_with_heading(body, title):
        body = f"# {_md_inline(title)}\n\n{body}" if body.strip() else f"# {_md_inline(title)}\n"
    return body


_MD_HEADING = re.compile(r"\s*#{1,6}\s+(.*)")
_HTML_HEADING = re.compile(r"\s*<h([1-6])>(.*?)</h\1>", re.S)
_TAG = re.compile(r"<[^>]*>")
_MD_UNESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")


def _fold(s: str) -> str:
    return " ".join(s.split()).casefold()


def starts_with_heading(markdown: str, title: str) -> bool:
    """Whether the Markdown's first line is a heading (any level) reading `title`."""
    first = markdown.lstrip().split("\n", 1)[0]
    m = _MD_HEADING.fullmatch(first)
    return m is not None and _fold(_MD_UNESCAPE.sub(r"\1", m.group(1))) == _fold(title)


def events(snap: Snapshot, feats: Features, roots: Sequence[int],
           drop: np.ndarray | None = None) -> Iterator[tuple[str, int]]:
    """('open', i), ('close', i) and ('skip', i) for the subtrees of `roots`, in order.

    A skipped row's subtree is not entered; its tail still belongs to the output, so
    consumers emit `tail` on 'close' and 'skip' (never for a root itself: `is_root`).
    Rows in `drop` are skipped like code and hidden rows.
    """
    for root in roots:
        yield from _subtree_events(snap, feats, int(root), drop)


def _subtree_events(snap: Snapshot, feats: Features, root: int,
                    drop: np.ndarray | None) -> Iterator[tuple[str, int]]:
    stop = int(snap.end[root])
    # the subtree's rows as Python lists (one conversion, then cheap indexing per row)
    end = snap.end[root:stop].tolist()
    skip = (feats.gone[root:stop] | tag_in(snap, WIDGET_TAGS)[root:stop])
    if drop is not None:
        skip = skip | drop[root:stop]
    skip = skip.tolist()
    stack: list[int] = []
    i = root
    while i < stop:
        while stack and end[stack[-1] - root] <= i:
            yield "close", stack.pop()
        if i != root and skip[i - root]:
            yield "skip", i
            i = end[i - root]
            continue
        yield "open", i
        stack.append(i)
        i += 1
    while stack:
        yield "close", stack.pop()


def shown_text(snap: Snapshot, quiet: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(text, tail) columns with the own text of `quiet` rows blanked: their `text` and
    their children's `tail` (a tail belongs to the parent's text)."""
    if quiet is None or not quiet.any():
        return snap.text, snap.tail
    parent_quiet = np.concatenate(([False], quiet[snap.parent[1:]]))
    return np.where(quiet, "", snap.text), np.where(parent_quiet, "", snap.tail)


# --------------------------------------------------------------------------- plain text
class _TextSink:
    """Collects runs of inline text and joins blocks with the strongest pending break."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.run: list[str] = []
        self.pending = 0   # 0 none, 1 newline, 2 blank line
        self.pre = 0

    def text(self, s: str) -> None:
        if s:
            self.run.append(s)

    def brk(self, level: int) -> None:
        if self.run:                    # an empty run adds nothing: only the break counts
            chunk = "".join(self.run)
            self.run = []
            # split/join collapses exactly what _SPACES does (\s is str.isspace)
            chunk = chunk.strip("\n") if self.pre else " ".join(chunk.split())
            if chunk:
                if self.blocks:
                    self.blocks.append("\n" * max(self.pending, 1) if self.pending else " ")
                self.blocks.append(chunk)
                self.pending = 0
        self.pending = max(self.pending, level)

    def result(self) -> str:
        self.brk(0)
        return "".join(self.blocks)


def _text_rule(tag: str) -> tuple[int, bool, bool, bool, int]:
    """What plain text does at an element of `tag`: the break before it (2: a blank line,
    1: a line end, 0: none), whether it is preformatted, a cell, a <br>, the break after."""
    before = 2 if tag in BLOCK_TAGS else 1 if tag in LINE_TAGS else 0
    after = 2 if tag in PRE_TAGS or tag in BLOCK_TAGS else 1 if tag == "tr" else 0
    return before, tag in PRE_TAGS, tag in CELL_TAGS, tag == "br", after


def to_text(snap: Snapshot, feats: Features, roots: Sequence[int],
            drop: np.ndarray | None = None, quiet: np.ndarray | None = None) -> str:
    """Visible text of the subtrees, blocks separated by blank lines, lines kept.

    The walk of `events` written out in place (one loop over the rows, each tag's rule
    looked up once per page): plain text is rendered for every page of a crawl, and the
    generator's yield per row cost half its time."""
    sink = _TextSink()
    brk, add = sink.brk, sink.text
    text, tail = shown_text(snap, quiet)
    root_set = set(map(int, roots))
    # the rows the roots span, as Python lists (cheap indexing in the loop below)
    lo = min(root_set, default=0)
    hi = max((int(snap.end[r]) for r in root_set), default=0)
    tags, text, tail = (col[lo:hi].tolist() for col in (snap.tag, text, tail))
    rules = {t: _text_rule(t) for t in set(tags)}

    for root in map(int, roots):
        stop = int(snap.end[root])
        end = snap.end[root:stop].tolist()
        skip = feats.gone[root:stop] | tag_in(snap, WIDGET_TAGS)[root:stop]
        if drop is not None:
            skip = skip | drop[root:stop]
        skip = skip.tolist()
        stack: list[int] = []
        i = root
        while True:
            # the elements that end here ('close' in `events`); all of them past the last row
            while stack and (i >= stop or end[stack[-1] - root] <= i):
                j = stack.pop()
                _, pre, _, _, after = rules[tags[j - lo]]
                if after:
                    brk(after)
                if pre:
                    sink.pre -= 1
                if j in root_set:
                    brk(2)
                else:
                    add(tail[j - lo])
            if i >= stop:
                break
            if i != root and skip[i - root]:   # not entered; its tail still counts
                if i in root_set:
                    brk(2)
                else:
                    add(tail[i - lo])
                i = end[i - root]
                continue
            if i in root_set:
                brk(2)
            before, pre, cell, br, _ = rules[tags[i - lo]]
            if before:
                brk(before)
            if pre:
                sink.pre += 1
            if cell:
                add(" ")
            add(text[i - lo])
            if br:
                brk(1)
            stack.append(i)
            i += 1
    return sink.result()


# --------------------------------------------------------------------------- Markdown
# Page text as Markdown text: the marks of Markdown syntax, every `<` and `>` (no tag or
# autolink can start), and an `&` that the rest of its piece could make an entity (the
# piece may end where a tag split the page's text: `&amp;<span>lt;</span>`; NOTES.md,
# 'Why Markdown escapes by what the text node proves').
_MD_ESCAPE = re.compile(r"([\\`*_\[\]<>]|&(?=#?[xX]?[0-9A-Za-z]*(?:;|$)))")
# In a link destination: a backslash, and an `&` that reads as an entity (decoded otherwise).
_MD_URL_ENTITY = re.compile(r"\\|&(?=#?[xX]?[0-9A-Za-z]+;)")
# Allow list of link and image URLs copied into HTML and Markdown output: the web, mail,
# inline images, local files (a saved page's images beside it) and relative references.
# Anything else (javascript:, data:text/html, vbscript:, odd-case or padded variants)
# loses its URL and keeps its words.
# A data: image must be one of the shared allow-list's raster types (allowlist.json): an SVG
# document is markup of its own, and the reader drops it too.
_SAFE_URL = re.compile(r"^(https?:|mailto:|file:|data:image/|/|#|\.)", re.I)
_DATA_IMAGE = allowlist.data_image_re()


def safe_url(u: str) -> str:
    """`u` when its scheme is on the allow list (and a data: URL a raster image), else ""."""
    u = u or ""
    if not _SAFE_URL.match(u) or (u[:5].lower() == "data:" and not _DATA_IMAGE.match(u)):
        return ""
    return u

_MD_URL_ESCAPE = str.maketrans({" ": "%20", "\t": "%09", "\n": "%0A", "(": "%28", ")": "%29",
                                "<": "%3C", ">": "%3E"})
_HEADINGS = {f"h{k}": "#" * k for k in range(1, 7)}
# Inline elements and the mark that opens and closes them.
_MD_MARKS = {"strong": "**", "b": "**", "em": "*", "i": "*", "code": "`"}


def _md_inline(s: str) -> str:
    return _MD_ESCAPE.sub(r"\\\1", s)


def md_paragraphs(text: str) -> str:
    """Plain text (paragraphs apart by blank lines) as Markdown paragraphs escaped as text,
    each on one line: the shape of the reader's "Comments" export (ui/markdown.js)."""
    paras = (_SPACES.sub(" ", p).strip() for p in re.split(r"\n\s*\n", text))
    return "\n\n".join(_md_inline(p) for p in paras if p)


def _md_url(u: str) -> str:
    """`u` as a Markdown link destination, or "" when its scheme is not on the allow list:
    a javascript: or data:text/html link in the Markdown would run wherever it is shown.
    Spaces, parentheses and angle brackets are percent-encoded so the link stays one token;
    a backslash and an `&` that would read as an entity are escaped, so the URL reads back
    as the page wrote it."""
    return _MD_URL_ENTITY.sub(r"\\\g<0>", safe_url(u).translate(_MD_URL_ESCAPE))


def _md_fence(body: str) -> str:
    """A backtick fence longer than any backtick run in `body` (at least three), so the
    code's own lines can never close the block early."""
    runs = re.findall(r"`+", body)
    return "`" * max(3, max(map(len, runs), default=0) + 1)


def to_markdown(snap: Snapshot, feats: Features, roots: Sequence[int],
                drop: np.ndarray | None = None, quiet: np.ndarray | None = None) -> str:
    """Markdown of the subtree: headings, paragraphs, lists, quotes, code, tables, links, images."""
    out: list[str] = []       # finished lines
    line: list[str] = []      # current inline run
    prefix: list[str] = []    # block-quote / list indentation stack
    lists: list[list] = []    # [kind, counter] per open list
    pre = 0
    table_rows: list[list[str]] = []
    cell: list[str] | None = None
    tag, url, alt = snap.tag, snap.url, snap.alt
    text, tail = shown_text(snap, quiet)
    is_root = set(map(int, roots)).__contains__
    grid = grid_tables(snap)
    # formulas are written as TeX (math.py), their MathML rows not walked
    formulas = math_mod.formula_rows(snap)
    if formulas.any():
        formulas[list(map(int, roots))] = False
        if drop is not None:
            formulas &= ~(drop | snap.below(drop))      # a formula the stage left out stays out
        # a source script is code (features.gone) and hidden, but a formula all the same
        formulas &= tag_in(snap, SCRIPT) | ~feats.gone
        drop = formulas if drop is None else (drop | formulas)
    grids: list[bool] = []    # per open table: drawn as a Markdown table (else blocks)
    fences: list[int] = []    # where the open code block's opening fence goes in `out`

    def in_grid() -> bool:
        return bool(grids) and grids[-1]

    def flush(blank: bool = True) -> None:
        nonlocal line
        s = "".join(line)
        line = []
        s = s if pre else _SPACES.sub(" ", s).strip()
        if s:
            out.append("".join(prefix) + s)
        if blank and out and out[-1] != "":
            out.append("")

    def emit(s: str) -> None:
        if cell is not None:
            cell.append(s)
        else:
            line.append(s)

    def inline(s: str) -> str:
        return s if pre else _md_inline(s)

    for kind, i in events(snap, feats, roots, drop):
        t = tag[i]
        if kind == "skip" and formulas[i]:
            block, tex = math_mod.formula(snap, i)
            if tex and block and not pre and cell is None:
                flush()
                out.extend(["".join(prefix) + "$$", "".join(prefix) + tex, "".join(prefix) + "$$", ""])
            elif tex:
                emit(f"$${tex}$$" if block else f"${tex}$")
        if kind == "open":
            if is_root(i):
                flush()
            if t in _HEADINGS:
                flush()
                emit(_HEADINGS[t] + " ")
            elif t == "p" or (t in BLOCK_TAGS and t not in ("li", "ul", "ol", "pre", "table",
                                                            "blockquote")):
                flush()
            elif t in ("ul", "ol"):
                flush(blank=not lists)
                lists.append([t, 0])
            elif t == "li":
                flush(blank=False)
                if lists:
                    lists[-1][1] += 1
                    kind_, k = lists[-1]
                    bullet = f"{k}. " if kind_ == "ol" else "- "
                    indent = "  " * (len(lists) - 1)
                else:
                    bullet, indent = "- ", ""
                emit(indent + bullet)
            elif t == "blockquote":
                flush()
                prefix.append("> ")
            elif t == "pre":
                if not pre:             # a pre inside a pre is part of its code
                    flush()
                    fences.append(len(out))
                    out.append("")      # the opening fence, once the code is known
                pre += 1
            elif t == "table":
                flush()
                grids.append(bool(grid[i]))
                table_rows = []
            elif t == "tr" and in_grid():
                table_rows.append([])
            elif t in CELL_TAGS and in_grid():
                cell = []
            elif t in ("tr", *CELL_TAGS):       # a layout table's row or cell: a block
                flush()
            elif t == "br":
                emit("  \n" if not pre else "\n")
            elif t == "hr":
                flush()
                out.extend(["---", ""])
            elif t in _MD_MARKS and not (t == "code" and pre):
                emit(_MD_MARKS[t])
            elif t == "a" and _md_url(url[i]):
                emit("[")
            elif t == "img" and _md_url(url[i]):
                emit(f"![{_md_inline(alt[i])}]({_md_url(url[i])})")
            emit(inline(text[i]))
            continue
        if kind == "close":
            if t in _HEADINGS or t == "p" or t == "li":
                flush(blank=t != "li")
            elif t in ("ul", "ol"):
                flush(blank=False)
                if lists:
                    lists.pop()
                if not lists and out and out[-1] != "":
                    out.append("")
            elif t == "blockquote":
                flush()
                if prefix:
                    prefix.pop()
            elif t == "pre":
                pre -= 1
                if not pre:
                    s = "".join(line).strip("\n")
                    line = []
                    if s:
                        out.extend("".join(prefix) + ln for ln in s.split("\n"))
                    at = fences.pop()
                    fence = _md_fence("\n".join(out[at + 1:]))
                    out[at] = "".join(prefix) + fence
                    out.extend(["".join(prefix) + fence, ""])
            elif t in CELL_TAGS and in_grid():
                if table_rows and cell is not None:
                    table_rows[-1].append(_SPACES.sub(" ", "".join(cell)).strip()
                                          .replace("|", "\\|"))
                cell = None
            elif t == "table" and not (grids and grids.pop()):
                flush()
            elif t == "table":
                rows = [r for r in table_rows if r]
                if rows:
                    width = max(map(len, rows))
                    for k, r in enumerate(rows):
                        r = r + [""] * (width - len(r))
                        out.append("| " + " | ".join(r) + " |")
                        if k == 0:
                            out.append("|" + " --- |" * width)
                    out.append("")
                table_rows = []
            elif t in _MD_MARKS and not (t == "code" and pre):
                emit(_MD_MARKS[t])
            elif t == "a" and _md_url(url[i]):
                emit(f"]({_md_url(url[i])})")
            elif t in BLOCK_TAGS:
                flush()
        if is_root(i):
            flush()
        else:
            emit(inline(tail[i]))
    flush()
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def grid_tables(snap: Snapshot) -> np.ndarray:
    """Tables drawn as Markdown tables: no table inside and only table parts below them
    (cells hold inline content). Any other table lays out a page (a sidebar cell, an
    article cell): its rows and cells are blocks, or the text inside its cells is lost."""
    tables = tag_in(snap, TABLE)
    other = tag_in(snap, BLOCK_LEVEL - TABLE_PARTS) | tables
    return tables & (snap.subtree_sum(other.astype(np.int64)) == 1)


# --------------------------------------------------------------------------- HTML
# Tags kept in the clean HTML output; any other element is unwrapped (its content kept).
HTML_KEEP = frozenset({
    "a", "abbr", "article", "aside", "b", "blockquote", "br", "caption", "cite", "code",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1",
    "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "main", "mark", "ol",
    "p", "pre", "q", "s", "samp", "section", "small", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var",
})
VOID_TAGS = frozenset({"br", "hr", "img"})
# A formula's MathML is kept (elements of the shared allow-list; the snapshot carries no
# attributes but the mode, written back as display="block").
MATHML_KEEP = frozenset(allowlist.load()["mathml"]["elements"])


def to_html(snap: Snapshot, feats: Features, roots: Sequence[int],
            drop: np.ndarray | None = None, title: str = "",
            quiet: np.ndarray | None = None, heading: str = "") -> str:
    """A self-contained HTML document of the subtrees with a safe subset of tags; its
    body begins with `heading` as an h1 unless it already begins with a heading reading
    it."""
    esc = html_mod.escape
    parts: list[str] = []
    tag, url, alt = snap.tag, snap.url, snap.alt
    text, tail = shown_text(snap, quiet)
    is_root = set(map(int, roots)).__contains__
    # inside a formula, what is not on the MathML allow-list goes with its subtree, as in
    # the reader (an annotation-xml holds HTML, maction is interactive)
    in_math = snap.below(tag_in(snap, MATH))
    if in_math.any():
        foreign = in_math & ~np.isin(snap.tag, list(MATHML_KEEP))
        drop = foreign if drop is None else (drop | foreign)
    depth_math = 0
    for kind, i in events(snap, feats, roots, drop):
        t = tag[i]
        keep = t in HTML_KEEP or (t in MATHML_KEEP and (depth_math > 0 or t == "math"))
        if kind == "open":
            if t == "math":
                depth_math += 1
            if keep:
                attrs = ""
                link = safe_url(url[i])
                if t == "math" and math_mod.parse_alt(alt[i])[1]:
                    attrs = ' display="block"'
                elif t == "a" and link:
                    attrs = f' href="{esc(link)}"'
                elif t == "img":
                    attrs = f' src="{esc(link)}" alt="{esc(alt[i])}"'
                if t != "img" or link:   # an image without a safe source is dropped
                    parts.append(f"<{t}{attrs}>")
            parts.append(esc(text[i]))
            continue
        if kind == "close" and keep and t not in VOID_TAGS:
            parts.append(f"</{t}>")
        if kind == "close" and t == "math":
            depth_math -= 1
        if not is_root(i):
            parts.append(esc(tail[i]))
    body = "".join(parts).strip()
    if heading:
        m = _HTML_HEADING.match(body)
        same = m is not None and _fold(html_mod.unescape(_TAG.sub("", m.group(2)))) == _fold(heading)
        if not same:
            body = f"<h1>{esc(heading)}</h1>\n{body}"
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{esc(title)}</title></head>\n<body>\n{body}\n</body></html>\n")
