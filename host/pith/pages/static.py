"""Static capture: decode raw HTML bytes and build the snapshot of host/SNAPSHOT.md with lxml, no browser.

Three public jobs, in the order the CLI uses them:

- `decode_html(data, encoding, errors)` turns bytes into text the way a browser picks the
  charset (also used by `pith.pages.browser` for local files);
- `check_html(text, name)` refuses inputs that are empty or clearly not HTML;
- `snapshot_from_html(html, url)` parses with libxml2 and walks the tree iteratively into
  the same columnar snapshot `capture.js` produces, with `layout: false`.

libxml2's HTML parser is not a browser's. Where it is cheap, the walk mimics what Chromium
builds, so static and rendered snapshots of simple pages share their tag, parent, text and
tail columns (tests/test_static.py checks the fixtures): a `head` and a `body` always
exist, whitespace before `head` is dropped, bare `tr` / `td` / `col` in a table get their
implied `tbody` / `tr` / `colgroup`, `</body>` and `</html>` do not end the document (libxml2
would drop everything after `</html>`), `template`, `svg` and frame children are not rows.
"""
from __future__ import annotations

import codecs
import gzip
import io
import json
import re
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from lxml import etree

from .. import SNAPSHOT_VERSION
from ..errors import CaptureFailed, InputDecode, InputEmpty, InputNotFound, InputNotHtml

# --- decoding ------------------------------------------------------------------------

# Byte-order marks win over everything else, as in browsers (WHATWG "decode").
BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be"))

# How far to look for a declared charset: browsers prescan 1 KB; saved pages often push
# the <meta> further down behind comments and scripts, and 4 KB still costs nothing.
PRESCAN_BYTES = 4096

_META_CHARSET = re.compile(rb"<meta\b[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.+-]+)", re.I)
_XML_ENCODING = re.compile(rb"^\s*<\?xml\b[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9_:.+-]+)", re.I)

# Labels whose meaning on the web differs from Python's codec of the same name, mapped to
# (WHATWG encoding name, Python codec). From the WHATWG Encoding Standard's label table:
# browsers read latin-1 and ascii as windows-1252, gb2312 as gbk (gb18030), and so on.
_WEB_ENCODINGS = {
    "windows-1252": ("ascii", "us-ascii", "ansi_x3.4-1968", "iso-8859-1", "iso8859-1",
                     "iso_8859-1", "iso88591", "latin1", "l1", "cp1252", "cp819", "ibm819",
                     "iso-ir-100", "csisolatin1", "windows-1252", "x-cp1252",
                     "x-user-defined"),
    "windows-1254": ("iso-8859-9", "iso8859-9", "iso_8859-9", "latin5", "l5", "cp1254",
                     "windows-1254", "x-cp1254", "csisolatin5", "iso-ir-148"),
    "windows-874": ("tis-620", "iso-8859-11", "iso8859-11", "dos-874", "windows-874"),
    "gbk": ("gb2312", "gbk", "x-gbk", "cp936", "chinese", "csgb2312", "gb_2312-80",
            "gb_2312", "iso-ir-58", "ms936", "windows-936", "csiso58gb231280"),
    "gb18030": ("gb18030",),
    "big5": ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "shift_jis": ("shift_jis", "shift-jis", "sjis", "ms_kanji", "csshiftjis", "windows-31j",
                  "x-sjis", "ms932"),
    "euc-kr": ("euc-kr", "cseuckr", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
               "ksc5601", "ksc_5601", "iso-ir-149", "csksc56011987", "windows-949"),
    "euc-jp": ("euc-jp", "x-euc-jp", "cseucpkdfmtjapanese"),
    "utf-8": ("utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8",
              "x-unicode20utf8"),
    "utf-16le": ("utf-16", "utf-16le", "unicode", "ucs-2", "csunicode", "iso-10646-ucs-2",
                 "unicodefeff"),
    "utf-16be": ("utf-16be", "unicodefffe"),
}
_PY_CODEC = {
    "windows-1252": "cp1252", "windows-1254": "cp1254", "windows-874": "cp874",
    "gbk": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs", "shift_jis": "cp932",
    "euc-kr": "cp949", "euc-jp": "euc_jp", "utf-8": "utf-8", "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
}


def _squash(label: str) -> str:
    """A label without case, '-', '_' or spaces, so "Latin-1", "latin1", "LATIN_1" meet."""
    return re.sub(r"[-_\s]", "", label.lower())


_LABELS = {_squash(label): web for web, labels in _WEB_ENCODINGS.items() for label in labels}

# WHATWG's windows-1252 (and 874, 1254) decode the five bytes the Python codec leaves
# undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) to the C1 control of the same number.
_C1_HANDLER = "pith-whatwg-c1"


def _c1_passthrough(exc: UnicodeDecodeError):
    return "".join(chr(b) for b in exc.object[exc.start:exc.end]), exc.end


codecs.register_error(_C1_HANDLER, _c1_passthrough)
_SINGLE_BYTE_WEB = frozenset({"windows-1252", "windows-1254", "windows-874"})


def _lookup(label: str, where: str) -> tuple[str, str]:
    """(web name, Python codec) of charset `label`; unknown labels → InputDecode."""
    key = label.strip().lower()
    web = _LABELS.get(_squash(key))
    if web is not None:
        return web, _PY_CODEC[web]
    try:
        info = codecs.lookup(key)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise InputDecode(f"unknown charset {label!r} ({where})", charset=label)
    return key, info.name


def _decode(data: bytes, web: str, codec: str, errors: str, where: str, offset: int) -> str:
    """Decode with the web meaning of `web`; a failure names the charset and byte offset."""
    if web in _SINGLE_BYTE_WEB:
        errors = _C1_HANDLER        # every byte is defined on the web
    try:
        return data.decode(codec, errors)
    except UnicodeDecodeError as exc:
        at = offset + exc.start
        raise InputDecode(
            f"the bytes are not valid {web} ({where}) at byte offset {at}; "
            "pass --encoding-errors replace to decode anyway",
            charset=web, offset=at) from None


def declared_charset(data: bytes) -> tuple[str, str] | None:
    """(label, where) of the charset the first PRESCAN_BYTES declare, if any."""
    head = data[:PRESCAN_BYTES]
    m = _META_CHARSET.search(head)
    if m:
        return m.group(1).decode("ascii"), "declared in <meta>"
    m = _XML_ENCODING.search(head)
    if m:
        return m.group(1).decode("ascii"), "declared in <?xml?>"
    return None


# The two bytes every gzip member starts with (RFC 1952): a saved page may be compressed.
GZIP_MAGIC = b"\x1f\x8b"
# Largest page a gzip file may expand to: a browser would not be useful beyond it either.
MAX_GUNZIPPED_BYTES = 256 * 1024 * 1024


def read_page(path) -> bytes:
    """The bytes of a saved page; a gzip file (`page.html.gz`, as crawls and the WCXB
    split store pages) is decompressed, up to MAX_GUNZIPPED_BYTES.

    A missing file, a directory or an unreadable file is InputNotFound with the same
    message in both capture modes (the browser's local files are read here too)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputNotFound(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputNotFound(f"{path} is a directory, not an HTML file") from None
    except OSError as exc:
        if Path(path).is_dir():      # Windows says "permission denied" for a folder
            raise InputNotFound(f"{path} is a directory, not an HTML file") from None
        raise InputNotFound(f"{path}: {exc.strerror or exc}") from None
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as z:
            out = z.read(MAX_GUNZIPPED_BYTES + 1)
    except (OSError, EOFError) as exc:
        raise InputDecode(f"{path}: not a readable gzip file ({exc})") from None
    if len(out) > MAX_GUNZIPPED_BYTES:
        raise InputDecode(f"{path}: expands to more than {MAX_GUNZIPPED_BYTES >> 20} MB")
    return out


def decode_html(data: bytes, encoding: str | None = None,
                errors: str = "strict") -> tuple[str, str]:
    """(text, charset) of an HTML file's bytes, choosing the charset like a browser.

    Order: a byte-order mark; else `encoding` (the user's --encoding); else the charset
    declared in the first 4 KB (`<meta charset>`, `<meta http-equiv=content-type>`, an XML
    declaration); else UTF-8 when the bytes decode strictly as UTF-8; else windows-1252,
    which is what browsers assume for undeclared pages. Labels mean what they mean to
    browsers (latin-1 reads as windows-1252). A declared or requested charset the bytes do
    not decode with raises InputDecode naming the charset and the byte offset, unless
    `errors` is "replace" (U+FFFD for bad bytes). An unknown declared label raises
    InputDecode too, except with errors="replace", where it is ignored as browsers do.
    A `<meta>` declaring UTF-16 in bytes that have no BOM means UTF-8 (HTML spec).
    """
    if errors not in ("strict", "replace"):
        raise InputDecode(f"encoding errors must be strict or replace, not {errors!r}")
    for bom, web in BOMS:
        if data.startswith(bom):
            return _decode(data[len(bom):], web, _PY_CODEC[web], errors,
                           "byte-order mark", len(bom)), web
    if encoding:
        web, codec = _lookup(encoding, "requested with --encoding")
        text = _decode(data, web, codec, errors, "requested with --encoding", 0)
        return text.removeprefix("\ufeff"), web
    declared = declared_charset(data)
    if declared is not None:
        label, where = declared
        try:
            web, codec = _lookup(label, where)
        except InputDecode as exc:
            if errors != "replace":
                raise InputDecode(f"{exc.message}; pass --encoding CHARSET, or "
                                  "--encoding-errors replace to ignore the declaration") from None
            web = None   # browsers ignore a label they do not know; so does lenient mode
        if web is not None:
            if web in ("utf-16le", "utf-16be"):
                web, codec = "utf-8", "utf-8"
            return _decode(data, web, codec, errors, where, 0), web
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", _C1_HANDLER), "windows-1252"


# --- is it HTML at all? --------------------------------------------------------------

# The opening of files that are certainly not HTML, as they read once decoded (windows-1252
# turns 0x89 into '‰' and 0xFF into 'ÿ', UTF-8 keeps them as U+FFFD-free only if valid).
BINARY_MAGIC = ("%PDF-", "PK\x03\x04", "\x89PNG", "\u2030PNG", "GIF87a", "GIF89a",
                "\x1f\x8b", "\x1f\u2039", "\xff\xd8\xff", "ÿØÿ", "\x7fELF", "RIFF")
# Binary files show a NUL within their first few KB; text (HTML) never has one.
SNIFF_CHARS = 8192
# How far to look for the marks of an HTML document (a doctype, <html>, <head>, <body>, a
# known element): a saved page can open with long comments, styles or scripts, and a text
# file of that size that mentions none of them is not a web page.
HTML_SNIFF_CHARS = 64 * 1024
_TAG = re.compile(r"<[A-Za-z!/?]")
# A document that says it is HTML: a doctype, or one of the elements only a whole page has.
_DOCUMENT_MARK = re.compile(r"<!doctype\s+html|<(?:html|head|body)[\s/>]", re.I)
# The tag of an element of HTML (opening or closing): unlike a bare `<`, neither a
# Markdown autolink (`<https://…>`) nor prose (`3 <4`) has one.
_HTML_ELEMENT = re.compile(
    r"</?(?:a|abbr|address|area|article|aside|audio|b|base|blockquote|body|br|button|canvas|"
    r"caption|center|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|em|embed|fieldset|"
    r"figcaption|figure|font|footer|form|frame|frameset|h[1-6]|head|header|hr|html|i|iframe|"
    r"img|input|ins|kbd|label|legend|li|link|main|mark|meta|nav|noscript|object|ol|optgroup|"
    r"option|p|picture|pre|q|s|samp|script|section|select|small|source|span|strong|style|"
    r"sub|summary|sup|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|title|tr|u|"
    r"ul|var|video|wbr)[\s/>]", re.I)
# File names that say "HTML" (a fragment such as `Hello <b>world</b>` in them is a page)...
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".xht", ".shtml")
# ...and those that say "text" (Markdown, plain text and kin): only a whole HTML document
# (a doctype, <html>, <head> or <body>) inside one is taken as a page.
TEXT_SUFFIXES = {".md": "Markdown", ".markdown": "Markdown", ".mdown": "Markdown",
                 ".mkd": "Markdown", ".txt": "plain text", ".text": "plain text",
                 ".rst": "reStructuredText", ".adoc": "AsciiDoc", ".org": "Org text",
                 ".csv": "CSV", ".tsv": "TSV", ".log": "a log file"}


def _suffix(name: str) -> str:
    """The lower-case extension of a path or URL (`x.md.gz` → `.md`; none → '')."""
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]*", "", name, flags=re.I).split("?")[0].split("#")[0]
    base = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if base.endswith(".gz"):
        base = base[:-3]
    dot = base.rfind(".")
    return base[dot:] if dot > 0 else ""


def check_html(text: str, name: str) -> None:
    """Raise unless `text` (already decoded) can be HTML. `name` (a path or URL) labels the
    input in messages, and its extension counts.

    The rule, honest and simple, in order:
    - empty or whitespace only → InputEmpty;
    - a NUL character in the first 8 KB, or a known binary signature at the start (PDF,
      ZIP, PNG, GIF, JPEG, gzip, ELF, RIFF) → InputNotHtml ("binary");
    - a JSON document (starts with `{` or `[` and parses as JSON) → InputNotHtml, even if
      its strings contain markup;
    - a document that says it is HTML in its first 64 KB (`<!doctype html>`, `<html>`,
      `<head>` or `<body>`) is HTML, whatever its name;
    - a file named as text (.md, .markdown, .txt, .rst, .adoc, .org, .csv, .tsv, .log, …)
      that does not say so → InputNotHtml ("Markdown, not HTML"): Markdown may hold a few
      inline tags, and a page made of it would read as one run-on paragraph;
    - a file named as HTML (.html, .htm, .xhtml, .xht, .shtml) is HTML when it has any tag
      (a `<` followed by a letter, `!`, `/` or `?`): a fragment such as
      `Hello <b>world</b>` is accepted, browsers render it and so does Pith;
    - any other name (no extension, a URL's path) is HTML when its first 64 KB hold the
      tag of an HTML element (`<p>`, `<div>`, `</a>`, …); a Markdown autolink
      `<https://…>` or prose such as `3 <4` is not one → InputNotHtml ("no HTML tag").
    """
    stripped = text.strip()
    if not stripped:
        raise InputEmpty(f"{name} is empty" if not text else f"{name} holds only whitespace")
    if "\x00" in text[:SNIFF_CHARS] or text.startswith(BINARY_MAGIC):
        raise InputNotHtml(f"{name} is binary data, not HTML")
    if stripped[0] in "{[":
        try:
            json.loads(stripped)
        except ValueError:
            pass
        else:
            raise InputNotHtml(f"{name} is JSON, not HTML")
    head = text[:HTML_SNIFF_CHARS]
    if _DOCUMENT_MARK.search(head):
        return
    suffix = _suffix(name)
    if suffix in TEXT_SUFFIXES:
        raise InputNotHtml(f"{name} is {TEXT_SUFFIXES[suffix]}, not HTML (no <!doctype html>, "
                           "<html> or <body>); Pith reads web pages")
    if suffix in HTML_SUFFIXES:
        if _TAG.search(text) is None:
            raise InputNotHtml(f"{name} has no HTML tag (plain text?)")
        return
    if _HTML_ELEMENT.search(head) is None:
        raise InputNotHtml(f"{name} has no HTML tag (plain text or Markdown?)")


# --- the snapshot --------------------------------------------------------------------

COLUMNS = ("tag", "parent", "text", "tail", "link", "id", "cls", "role", "host", "url",
           "alt", "x", "y", "w", "h", "hidden", "fs", "fw", "color", "frame")

MAX_URL_CHARS = 2048        # as capture.js: data: URIs run to megabytes
DEFAULT_FS = 16.0           # px, the initial font size of every browser
DEFAULT_FW = 400            # CSS "normal"
BOLD_FW = 700               # CSS "bold"
# Chromium's UA stylesheet: h1 2em, h2 1.5em, h3 1.17em, h4 1em, h5 .83em, h6 .67em of 16px.
HEADING_FS = {"h1": 32.0, "h2": 24.0, "h3": 18.72, "h4": 16.0, "h5": 13.28, "h6": 10.72}
BOLD_TAGS = frozenset({"b", "strong", "th", "h1", "h2", "h3", "h4", "h5", "h6"})
# Elements every browser's UA stylesheet sets to display:none (noscript is shown: static
# mode is a browser without scripting).
UA_DISPLAY_NONE = frozenset({"area", "base", "basefont", "datalist", "head", "link", "meta",
                             "noembed", "noframes", "param", "rp", "script", "style",
                             "template", "title"})
SRC_TAGS = frozenset({"img", "iframe", "frame", "video", "audio", "source", "embed", "script"})
NO_TEXT_TAGS = frozenset({"script", "style", "template"})
# Elements whose children are not rows: template content is inert, svg children are
# drawing, a frame's children are fallback text browsers never parse into elements.
NO_CHILD_TAGS = frozenset({"template", "svg", "iframe", "frame"})
FRAME_TAGS = frozenset({"iframe", "frame"})
# HTML's void elements: never any children in a browser's tree (HTML Standard §13.1.2).
VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "param", "source", "track", "wbr"})
TABLE_SECTIONS = frozenset({"tbody", "thead", "tfoot"})

H_DISPLAY_NONE, H_VISIBILITY, H_OPACITY, H_ARIA = 1, 2, 4, 16

_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)
_VISIBILITY = re.compile(r"(?:^|;)\s*visibility\s*:\s*(hidden|collapse|visible)\b", re.I)
_OPACITY_ZERO = re.compile(
    r"(?:^|;)\s*opacity\s*:\s*(?:0+(?:\.0*)?|\.0+)%?\s*(?:!\s*important\s*)?(?:;|$)", re.I)
# libxml2 ends the document at </html> and drops whatever follows; browsers keep reading
# into <body>. Both end tags are no-ops for a browser's tree, so they are removed first.
_END_BODY_HTML = re.compile(r"</(?:body|html)\s*>", re.I)
# libxml2 stops (and drops the rest of the page) past this nesting depth, even with
# huge_tree; browsers flatten nesting past 512 levels instead.
LIBXML2_MAX_DEPTH = 2048


class _Virtual:
    """An element the browser would have inserted (head, body, tbody, tr, colgroup)."""

    __slots__ = ("tag", "kids")

    def __init__(self, tag: str, kids: list | None = None):
        self.tag = tag
        self.kids = kids or []     # [(item, tail)]


def _parse(html: str):
    """libxml2's tree of `html`, or CaptureFailed when libxml2 stopped before the end."""
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True, remove_comments=False)
    data = _END_BODY_HTML.sub("", html).encode("utf-8", "replace")
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None         # libxml2 raises on documents with no content at all
    for entry in parser.error_log:
        if entry.level_name == "FATAL":
            deep = "depth" in entry.message.lower()
            why = (f"elements nest deeper than {LIBXML2_MAX_DEPTH} levels"
                   if deep else entry.message.strip())
            raise CaptureFailed(
                f"the static parser (libxml2) stopped at line {entry.line}: {why}; "
                "the rest of the page would be lost. Capture it without --static "
                "(browsers flatten deep nesting)", line=entry.line)
    return root


def _lxml_kids(el) -> tuple[str, list]:
    """(leading text, [[child, tail]]) of lxml element `el`: comments and PIs dissolved."""
    lead = el.text or ""
    kids: list = []
    for c in el:
        if isinstance(c.tag, str):
            kids.append([c, c.tail or ""])
        else:       # comment, processing instruction: its tail is the surrounding text
            t = c.tail or ""
            if t:
                if kids:
                    kids[-1][1] += t
                else:
                    lead += t
    return lead, kids


def _unnest_void(kids: list) -> list:
    """Kids with what libxml2 nested inside a void element it does not know as void
    (embed, source, track, wbr) moved out after it, where browsers put it: otherwise the
    rest of an article after an <embed> would sit inside a dropped widget."""
    out: list = []
    todo = kids[::-1]
    while todo:
        item, tail = todo.pop()
        if isinstance(item, _Virtual) or item.tag.lower() not in VOID_ELEMENTS or (
                not len(item) and not item.text):
            out.append([item, tail])
            continue
        lead, inner = _lxml_kids(item)
        out.append([item, lead])
        if inner:
            inner[-1][1] += tail
        else:
            out[-1][1] += tail
        todo.extend(inner[::-1])
    return out


def _kids(el, tag: str) -> tuple[str, list]:
    """(leading text, [(child, tail)]) of lxml element `el` as a browser's tree has them:
    comments and PIs dissolved, void elements empty, implied elements inserted."""
    if tag in VOID_ELEMENTS:
        return "", []           # its content was moved after it by _unnest_void
    lead, kids = _lxml_kids(el)
    kids = _unnest_void(kids)
    if tag == "html":
        lead, kids = "", _fix_html(kids)        # browsers drop text before <head>
    elif tag == "table":
        kids = _fix_table(kids)
    elif tag in TABLE_SECTIONS:
        kids = _wrap_runs(kids, {"td", "th"}, "tr")
    return lead, kids


def _tag_of(item) -> str:
    return item.tag if isinstance(item, _Virtual) else item.tag.lower()


def _fix_html(kids: list) -> list:
    """Browsers always build <head> first, then <body> (unless the page is a frameset)."""
    tags = [_tag_of(k[0]) for k in kids]
    if "head" not in tags:
        kids.insert(0, [_Virtual("head"), ""])
    if "body" not in tags and "frameset" not in tags:
        kids.append([_Virtual("body"), ""])
    return kids


def _wrap_runs(kids: list, tags: set, wrapper: str) -> list:
    """Each run of consecutive kids whose tag is in `tags` moved into one `wrapper`."""
    out: list = []
    run: _Virtual | None = None
    for item, tail in kids:
        if _tag_of(item) in tags:
            if run is None:
                run = _Virtual(wrapper)
                out.append([run, ""])
            run.kids.append([item, tail])
        else:
            run = None
            out.append([item, tail])
    return out


def _fix_table(kids: list) -> list:
    """Bare rows and cells of a table go into an implied <tbody>/<tr>; bare <col>s into a
    <colgroup>."""
    kids = _wrap_runs(kids, {"td", "th"}, "tr")
    kids = _wrap_runs(kids, {"tr"}, "tbody")
    return _wrap_runs(kids, {"col"}, "colgroup")


def _resolve(base: str, raw: str) -> tuple[str, str]:
    """(resolved url capped at MAX_URL_CHARS, lower-case host name) of attribute `raw`."""
    raw = raw.strip()
    try:
        url = urljoin(base, raw)
        host = urlsplit(url).hostname or ""
    except ValueError:
        url, host = raw, ""
    return url[:MAX_URL_CHARS], host


def _base_url(root, url: str) -> str:
    for base in root.iter("base"):
        href = base.get("href")
        if href is not None:
            return _resolve(url, href)[0]
    return url


def _title(root) -> str:
    for t in root.iter("title"):
        return " ".join("".join(t.itertext()).split())     # document.title collapses spaces
    return ""


def snapshot_from_html(html: str, url: str = "") -> dict:
    """The snapshot (host/SNAPSHOT.md) of `html`, parsed by lxml; `layout` is false.

    Raises CaptureFailed when libxml2 cannot parse the whole page (nesting deeper than
    2048 levels), rather than returning a silently truncated tree.
    """
    t0 = time.perf_counter()
    root = _parse(html)
    return snapshot_from_root(root, url, t0)


def snapshot_from_root(root, url: str = "", t0: float | None = None) -> dict:
    """The snapshot of an lxml HTML tree (`root` None: an empty document, as browsers
    build it: html, head, body). The walk uses an explicit stack: any depth works."""
    t0 = time.perf_counter() if t0 is None else t0
    cols: dict[str, list] = {c: [] for c in COLUMNS}
    tag_c, parent_c, text_c, tail_c = cols["tag"], cols["parent"], cols["text"], cols["tail"]
    link_c, id_c, cls_c, role_c = cols["link"], cols["id"], cols["cls"], cols["role"]
    host_c, url_c, alt_c = cols["host"], cols["url"], cols["alt"]
    hidden_c, fs_c, fw_c, frame_c = cols["hidden"], cols["fs"], cols["fw"], cols["frame"]
    warnings: list[dict] = []

    if root is None:
        root = _Virtual("html", [[_Virtual("head"), ""], [_Virtual("body"), ""]])
        base, title, lang = url, "", ""
    else:
        base, title, lang = _base_url(root, url), _title(root), root.get("lang") or ""

    # (item, parent row, tail); pushed in reverse so rows come out in preorder
    stack: list = [(root, -1, "")]
    while stack:
        item, par, tail = stack.pop()
        row = len(tag_c)
        virtual = isinstance(item, _Virtual)
        tag = item.tag if virtual else item.tag.lower()
        attrib = {} if virtual else item.attrib

        tag_c.append(tag)
        parent_c.append(par)
        tail_c.append(tail)
        id_c.append(attrib.get("id", ""))
        cls_c.append(attrib.get("class", ""))
        modal = attrib.get("aria-modal", "").strip().lower() == "true"
        role_c.append(attrib.get("role", "") or ("dialog" if modal else ""))

        link, u, host = 0, "", ""
        if tag in ("a", "area") and "href" in attrib:
            link = 1
            u, host = _resolve(base, attrib["href"])
        elif tag in SRC_TAGS and "src" in attrib:
            u, host = _resolve(base, attrib["src"])
        link_c.append(link)
        url_c.append(u)
        host_c.append(host)

        alt = ""
        if tag in ("img", "area", "input"):
            alt = attrib.get("alt", "")
            if not alt and tag == "img":
                alt = attrib.get("title", "")
        alt_c.append(alt)

        hidden_c.append(_hidden(tag, attrib, hidden_c[par] if par >= 0 else 0))
        fs_c.append(HEADING_FS.get(tag, fs_c[par] if par >= 0 else DEFAULT_FS))
        fw_c.append(BOLD_FW if tag in BOLD_TAGS else (fw_c[par] if par >= 0 else DEFAULT_FW))

        if tag in FRAME_TAGS:
            frame_c.append(2)
            warnings.append({"node": row, "code": "frame_not_loaded",
                             "message": "static capture does not load frames"})
        else:
            frame_c.append(0)

        if tag in NO_CHILD_TAGS:
            text_c.append("")
            continue
        if virtual:
            lead, kids = "", item.kids
            if tag == "html":
                kids = _fix_html(kids)
        else:
            lead, kids = _kids(item, tag)
        text_c.append("" if tag in NO_TEXT_TAGS else lead)
        for kid, kid_tail in reversed(kids):
            stack.append((kid, row, kid_tail))

    n = len(tag_c)
    zeros = [0] * n
    cols["x"], cols["y"], cols["w"], cols["h"] = zeros, list(zeros), list(zeros), list(zeros)
    cols["color"] = [""] * n
    return {
        "v": SNAPSHOT_VERSION,
        "url": url,
        "title": title,
        "lang": lang,
        "layout": False,
        "viewport": [0, 0],
        "page": [0, 0],
        "capture_ms": round((time.perf_counter() - t0) * 1000, 1),
        "n": n,
        "nodes": cols,
        "warnings": warnings,
    }


def _hidden(tag: str, attrib, parent_bits: int) -> int:
    """The static `hidden` bits of one element (see host/SNAPSHOT.md)."""
    bits = 0
    if tag in UA_DISPLAY_NONE or "hidden" in attrib:
        bits |= H_DISPLAY_NONE
    aria = attrib.get("aria-hidden")
    if aria is not None and aria.strip().lower() == "true":
        bits |= H_ARIA
    visibility = parent_bits & H_VISIBILITY      # inherited, as in computed style
    style = attrib.get("style")
    if style:
        if _DISPLAY_NONE.search(style):
            bits |= H_DISPLAY_NONE
        m = None
        for m in _VISIBILITY.finditer(style):
            pass                                 # the last declaration wins
        if m is not None:
            visibility = 0 if m.group(1).lower() == "visible" else H_VISIBILITY
        if _OPACITY_ZERO.search(style):
            bits |= H_OPACITY
    return bits | visibility
