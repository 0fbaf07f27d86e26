"""Static capture: decode raw HTML bytes and build the snapshot of host/SNAPSHOT.md with an HTML5 parser, no browser.

Its public jobs, in the order the CLI uses them:

- `decode_html(data, encoding, errors, header)` turns bytes into text the way a browser
  picks the charset, but valid UTF-8 is UTF-8 whatever is declared (also used by
  `pith.pages.browser` for local files); `decode_page` also gives the bytes when they
  are exactly the text's UTF-8, which the parse then takes as they are;
- `check_html(text, name)` refuses inputs that are empty or clearly not HTML;
- `snapshot_from_html(html, url)` parses the page and walks its tree into the same
  columnar snapshot `capture.js` produces, with `layout: false`;
  `snapshot_of_html(html, url, max_nodes)` gives the same as a validated Snapshot, ready
  for `select`, without the JSON-shaped detour (what extraction uses).

The parser is lexbor (through selectolax), which follows the HTML Standard's tree
construction: the tree is the one a browser builds before scripts run, with its implied
`head`, `body`, `tbody`, its end tags that close what is left open inside them, its
content after `</html>`. (libxml2's HTML parser, used before, is not a browser's: e.g. it
ignored a `</button>` with a `div` open inside and nested the whole article in the button;
tests/bench_static_tree.py measures both against Chromium; NOTES.md, 'Why static
snapshots are parsed by lexbor, not libxml2').
What the walk still decides itself: `template`, `svg` and frame children are not rows, and
`noscript` content is (static mode is a browser without scripting, which lexbor parses as).
"""
from __future__ import annotations

import codecs
import gzip
import io
import json
import re
import time
from functools import lru_cache
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import numpy as np
from selectolax.lexbor import LexborHTMLParser

from .. import SNAPSHOT_VERSION
from ..errors import InputDecode, InputEmpty, InputNotFound, InputNotHtml
from ..pipeline.metadata import declared as declared_mod
from ..pipeline import snapshot as snapshot_mod
from . import nesting

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
                errors: str = "strict", header: str | None = None) -> tuple[str, str]:
    """(text, charset) of an HTML file's bytes: `decode_page`'s first two."""
    text, charset, _ = decode_page(data, encoding, errors, header)
    return text, charset


def decode_page(data: bytes, encoding: str | None = None, errors: str = "strict",
                header: str | None = None) -> tuple[str, str, bytes | None]:
    """(text, charset, utf8) of an HTML file's bytes, choosing the charset like a browser
    but for one rule of its own: bytes that are valid UTF-8 are read as UTF-8. `utf8` is
    `data` itself when it is exactly the UTF-8 of `text` (valid UTF-8 read as such, no
    byte-order mark), else None: the parse can take it as it is (`snapshot_of_html`)
    instead of encoding the text again.

    Order: a byte-order mark; else `encoding` (the user's --encoding); else UTF-8 when the
    bytes hold a non-ASCII character and decode strictly as UTF-8, whatever is declared
    (a page re-saved as UTF-8 keeps its old declaration; text in another charset is
    almost never valid UTF-8 by chance: NOTES.md, 'Why valid UTF-8 wins over a declared
    charset'); else the charset `header` names (the HTTP Content-Type's) or, without
    one, the charset declared in the first 4 KB (`<meta charset>`,
    `<meta http-equiv=content-type>`, an XML declaration); else UTF-8 when the bytes
    decode strictly as UTF-8; else windows-1252, which is what browsers assume for
    undeclared pages. Labels mean what they mean to browsers (latin-1 reads as
    windows-1252). A declared or requested charset the bytes do not decode with raises
    InputDecode naming the charset and the byte offset, unless `errors` is "replace"
    (U+FFFD for bad bytes). An unknown declared label raises InputDecode too, except
    with errors="replace", where it is ignored as browsers do. A declaration of UTF-16
    in bytes that have no BOM means UTF-8 (HTML spec).
    """
    if errors not in ("strict", "replace"):
        raise InputDecode(f"encoding errors must be strict or replace, not {errors!r}")
    for bom, web in BOMS:
        if data.startswith(bom):
            return _decode(data[len(bom):], web, _PY_CODEC[web], errors,
                           "byte-order mark", len(bom)), web, None
    if encoding:
        web, codec = _lookup(encoding, "requested with --encoding")
        text = _decode(data, web, codec, errors, "requested with --encoding", 0)
        return text.removeprefix("\ufeff"), web, None
    try:
        utf8: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        utf8 = None
    if utf8 is not None and len(utf8) != len(data):   # valid, and a non-ASCII character:
        return utf8, "utf-8", data   # ASCII bytes keep the declaration (ISO-2022-JP is ASCII)
    declarations = [(header, "declared in the HTTP header")] if header else []
    in_page = declared_charset(data)
    if in_page is not None:
        declarations.append(in_page)
    for label, where in declarations:     # the first known label decides
        try:
            web, codec = _lookup(label, where)
        except InputDecode as exc:
            if errors != "replace":
                raise InputDecode(f"{exc.message}; pass --encoding CHARSET, or "
                                  "--encoding-errors replace to ignore the declaration") from None
            continue     # browsers ignore a label they do not know; so does lenient mode
        if web in ("utf-16le", "utf-16be"):
            web, codec = "utf-8", "utf-8"
        if web == "utf-8" and utf8 is not None:       # the same decoding as above
            return utf8, web, data
        return _decode(data, web, codec, errors, where, 0), web, None
    if utf8 is not None:
        return utf8, "utf-8", data
    return data.decode("cp1252", _C1_HANDLER), "windows-1252", None


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
# Elements whose children the walk does not read: none are rows (NO_CHILD_TAGS), or there
# are none: void elements whose start tag leaves foreign content (HTML Standard §13.2.6.5),
# so never an svg or MathML element of that name, which could have children.
_CLOSED_TAGS = NO_CHILD_TAGS | {"br", "embed", "hr", "img", "meta"}

H_DISPLAY_NONE, H_VISIBILITY, H_OPACITY, H_ARIA = 1, 2, 4, 16

_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)
_VISIBILITY = re.compile(r"(?:^|;)\s*visibility\s*:\s*(hidden|collapse|visible)\b", re.I)
_OPACITY_ZERO = re.compile(
    r"(?:^|;)\s*opacity\s*:\s*(?:0+(?:\.0*)?|\.0+)%?\s*(?:!\s*important\s*)?(?:;|$)", re.I)


# --- the browser's tree ----------------------------------------------------------------

# What a fragment's markup holds that no reader sees as text (`markup_text`).
NOT_TEXT_TAGS = ["style", "script", "svg", "template"]


def markup_text(html: str) -> str:
    """The text of the markup `html` as a browser without scripting builds and shows it,
    less styles, scripts, inline drawings and templates: what a `<noscript>` that a
    browser with scripts held as raw text shows (pages/inputs.undrawn). Parsed like a
    page (`_parse`): linear in the markup, its depth capped."""
    tree = _parse(html)
    tree.strip_tags(NOT_TEXT_TAGS)
    return tree.text(separator=" ") or ""


def _parse(html: str, utf8: bytes | None = None) -> LexborHTMLParser:
    """The document of `html` as an HTML5 parser builds it (lexbor, through selectolax):
    the tree construction of the HTML Standard, so the same tree a browser builds before
    its scripts run, and no deeper than a browser builds it (nesting.py: Chromium's 512
    levels; lexbor's time grows with the depth times the elements). Bytes go in: a lone
    surrogate in `html` becomes U+FFFD. `utf8`: `html`'s UTF-8 when the caller has it
    (decode_page), parsed as it is when the depth cap leaves the page unchanged
    (NOTES.md, 'Why a crawl's page is parsed from its own bytes')."""
    capped = nesting.capped(html)
    if utf8 is None or capped is not html:
        utf8 = capped.encode("utf-8", "replace")
    return LexborHTMLParser(utf8)


# --- urls ------------------------------------------------------------------------------

# An absolute http(s) URL that urljoin returns unchanged whatever the base (urlunparse
# of its urlparse is itself): a lower-case scheme, a plain host name (letters, digits,
# '.', '-', '_': urlsplit reads each as it is, lower-cased) with an optional port, no ';'
# in the path (urlparse would split params off), no empty query or fragment (urlunparse
# would drop the '?' or '#'), no space or control character (urlsplit removes some).
# About two thirds of a page's links are such; they skip urljoin's two parses, as do
# scheme-relative links (`//cdn.example/x`) that are such after the base's scheme.
_PLAIN_ABSOLUTE = re.compile(
    r"(https?://([A-Za-z0-9._-]+)(?::[0-9]*)?)(?:/[^?#;\x00-\x20\x7f]*)?"
    r"(?:\?[^#\x00-\x20\x7f]+)?(?:#[^\x00-\x20\x7f]+)?")
# A root-relative URL that urljoin appends, as it is, to a plain absolute base's scheme
# and host: one '/' first, then the same characters as above; and no '.' or '..' path
# segment (_DOT_SEGMENT), which urljoin would resolve. Most other links of a page are such.
_ROOT_RELATIVE = re.compile(
    r"(/(?!/)[^?#;\x00-\x20\x7f]*)(?:\?[^#\x00-\x20\x7f]+)?(?:#[^\x00-\x20\x7f]+)?")
_DOT_SEGMENT = re.compile(r"/\.\.?(?=/|$)")
# A path-relative URL that urljoin appends, as it is, to the folder of a plain absolute
# base: a first segment without ':' (that would be a scheme) and not starting with '.',
# then the characters of _ROOT_RELATIVE; no '.' or '..' segment, no '//' (urljoin would
# resolve or squash them). Links to sibling pages of old sites are mostly such.
_PATH_RELATIVE = re.compile(
    r"[^/?#;:.\x00-\x20\x7f][^/?#;:\x00-\x20\x7f]*(?:/[^?#;\x00-\x20\x7f]*)?"
    r"(?:\?[^#\x00-\x20\x7f]+)?(?:#[^\x00-\x20\x7f]+)?")
# A fragment link with no character urlsplit would remove or that needs quoting.
_FRAGMENT = re.compile(r"#[^\x00-\x20\x7f]*")


def _resolve(base: str, raw: str) -> tuple[str, str]:
    """(resolved url capped at MAX_URL_CHARS, lower-case host name) of attribute `raw`.
    The fast paths answer what urljoin and urlsplit answer (tests/test_static_urls.py)."""
    raw = raw.strip()
    plain = _PLAIN_ABSOLUTE.fullmatch(raw)
    if plain is not None:
        return raw[:MAX_URL_CHARS], plain.group(2).lower()
    first = raw[:1]
    if raw[:2] == "//":                    # scheme-relative: the base's scheme, then as is
        origin = _origin(base)
        if origin is not None:
            url = origin[0][:origin[0].index(":") + 1] + raw
            plain = _PLAIN_ABSOLUTE.fullmatch(url)
            if plain is not None:
                return url[:MAX_URL_CHARS], plain.group(2).lower()
    elif first == "/":
        origin = _origin(base)
        rooted = _ROOT_RELATIVE.fullmatch(raw) if origin is not None else None
        if rooted is not None and _DOT_SEGMENT.search(rooted.group(1)) is None:
            return (origin[0] + raw)[:MAX_URL_CHARS], origin[1]
    elif first == "#":                     # the base itself, its fragment replaced
        origin = _origin(base)
        if origin is not None and _FRAGMENT.fullmatch(raw):
            url = base.partition("#")[0] + (raw if len(raw) > 1 else "")
            return url[:MAX_URL_CHARS], origin[1]
    elif raw:
        folder = _folder(base)
        if folder is not None and _PATH_RELATIVE.fullmatch(raw) and "//" not in raw \
                and _DOT_SEGMENT.search("/" + raw.partition("?")[0].partition("#")[0]) is None:
            return (folder[0] + raw)[:MAX_URL_CHARS], folder[1]
    try:
        url = urljoin(base, raw)
        host = urlsplit(url).hostname or ""
    except ValueError:
        url, host = raw, ""
    return url[:MAX_URL_CHARS], host


@lru_cache(maxsize=64)
def _origin(base: str) -> tuple[str, str] | None:
    """("scheme://host[:port]", lower-case host) of a plain absolute `base`, else None."""
    plain = _PLAIN_ABSOLUTE.fullmatch(base)
    return None if plain is None else (plain.group(1), plain.group(2).lower())


@lru_cache(maxsize=64)
def _folder(base: str) -> tuple[str, str] | None:
    """("scheme://host[:port]/path/up/to/its/last/slash/", lower-case host) of a plain
    absolute `base` whose path urljoin would not rewrite (no '.' or '..' segment, no
    '//'), else None."""
    origin = _origin(base)
    if origin is None:
        return None
    path = base[len(origin[0]):].partition("?")[0].partition("#")[0]
    if "//" in path or _DOT_SEGMENT.search(path):
        return None
    return origin[0] + path[:path.rfind("/") + 1] if path else origin[0] + "/", origin[1]


def snapshot_from_html(html: str, url: str = "") -> dict:
    """The snapshot (host/SNAPSHOT.md) of `html`, parsed as a browser parses it; `layout`
    is false. JSON-shaped: string columns as lists, number columns as lists."""
    n, cols, meta = _read_tree(html, url)
    return {
        "v": SNAPSHOT_VERSION,
        "url": meta["url"],
        "title": meta["title"],
        "lang": meta["lang"],
        "layout": False,
        "viewport": [0, 0],
        "page": [0, 0],
        "capture_ms": meta["capture_ms"],
        "n": n,
        "nodes": {c: cols[c] if isinstance(cols[c], list) else cols[c].tolist()
                  for c in COLUMNS},
        "warnings": meta["warnings"],
        "declared": meta["declared"],
    }


def snapshot_of_html(html: str, url: str, max_nodes: int,
                     utf8: bytes | None = None) -> snapshot_mod.Snapshot:
    """The same snapshot as `snapshot_from_html`, as a pipeline.snapshot.Snapshot ready for
    `select`: the columns this module builds go to the Snapshot as they are, with no
    detour through JSON-shaped lists checked element by element (snapshot.from_columns).
    SnapshotTooLarge past `max_nodes` elements (pass the Options' max_nodes), as `select`
    raises for the dict. `utf8`: exactly `html`'s UTF-8 when the caller has it (the
    third of decode_page), which the parse then takes without encoding `html` again."""
    n, cols, meta = _read_tree(html, url, utf8)
    for name in ("url", "host"):      # the caller's url may hold a lone surrogate
        cols[name] = snapshot_mod.well_formed(cols[name])
    return snapshot_mod.from_columns(n, cols, meta, max_nodes, meta["tag_codes"])


# The attributes the snapshot reads; every other attribute's value is never looked at.
_READ_ATTRIBUTES = frozenset({"id", "class", "role", "aria-modal", "href", "src", "alt",
                              "title", "hidden", "aria-hidden", "style", "lang",
                              *declared_mod.ATTRIBUTES, "display", "encoding",
                              "type"})   # formulas (_formula_alts)
# What capture.js's formula() reads to find a formula's TeX and mode (SNAPSHOT.md, `alt`).
_TEX_ENCODING = "application/x-tex"
_TEX_TYPE = re.compile(r"^\s*math/tex", re.I)
_DISPLAY_TYPE = re.compile(r"mode\s*=\s*display", re.I)
_DISPLAY_CLASSES = frozenset({"katex-display", "MathJax_Display"})
_TEXT_NODE = "-text"
# The rows _formula_alts reads (`rows`, in document order: found by tag code, no Python
# test per row).
_FORMULA_TAGS = frozenset({"math", "script", "annotation"})


def _walk(document: LexborHTMLParser):
    """(tag, parent, text, tail, attributes) of the document's elements in document order.

    A depth-first walk over lexbor's nodes, each element's children read by selectolax's
    `iter` (in C order) and the elements whose children are being read kept on a stack,
    so a node's parent is the row on top of it: no parent object per node, no address ->
    row map (NOTES.md, 'Why a page's tree is walked by its children').
    A text node joins its parent's `text` until the parent has an element child, then the
    `tail` of that child, as in capture.js; comments vanish, so the text around one joins
    up. Elements in NO_CHILD_TAGS keep no children and no text (template content is a
    separate fragment the walk never enters anyway); the commonest void elements
    (_CLOSED_TAGS) have no children to read. `attributes` is {name: {row: value}} for the names in _READ_ATTRIBUTES (a
    valueless attribute reads "")."""
    found: dict[str, dict[int, str]] = {name: {} for name in _READ_ATTRIBUTES}
    root = document.root
    if root is None:                       # never for lexbor, which always builds html
        return ["html"], [-1], [""], [""], found
    tag: list[str] = [root.tag]
    parent: list[int] = [-1]
    text: list[str] = [""]
    tail: list[str] = [""]
    read, closed = _READ_ATTRIBUTES, _CLOSED_TAGS
    for name, value in root.attributes.items():
        if name in read:
            found[name][0] = value or ""
    # A row's second and later text nodes of one slot (text split by comments) wait here
    # and are joined once at the end: adding each to the string copied it every time,
    # which a page of 200,000 comments in one paragraph turned into 20 s.
    more_text: dict[int, list[str]] = {}
    more_tail: dict[int, list[str]] = {}
    # the elements whose children are still being read, above the one being read now:
    # (their children's iterator, their row, their last element child's row so far)
    stack: list[tuple] = []
    kids, p, k = root.iter(True), 0, -1    # p: the row being read; k: its last element child
    row = 0                                # the last row made
    while True:
        for node in kids:
            kind = node.tag
            if kind == _TEXT_NODE:
                if k < 0:                   # (inline: a call per text node costs a tenth here)
                    if text[p]:
                        more_text.setdefault(p, [text[p]]).append(node.text_content)
                    else:
                        text[p] = node.text_content
                elif tail[k]:
                    more_tail.setdefault(k, [tail[k]]).append(node.text_content)
                else:
                    tail[k] = node.text_content
                continue
            if kind is None or kind[0] == "-":  # comments (and processing instructions,
                continue                        # which an HTML parser reads as comments)
            row += 1
            k = row
            tag.append(kind)
            parent.append(p)
            text.append("")
            tail.append("")
            attributes = node.attributes
            if attributes:
                for name, value in attributes.items():
                    if name in read:
                        found[name][row] = value or ""
            if kind not in closed:          # read its children now, then go on with ours
                stack.append((kids, p, row))
                kids, p, k = node.iter(True), row, -1
                break
        else:                               # every child of p read: back to its parent's
            if not stack:
                break
            kids, p, k = stack.pop()
    for column, more in ((text, more_text), (tail, more_tail)):
        for r, parts in more.items():
            column[r] = "".join(parts)
    return tag, parent, text, tail, found


def _inherited(parent: np.ndarray, own: np.ndarray, values: np.ndarray, default):
    """Per row, `values` at its nearest ancestor-or-self where `own` is set, `default`
    where none is (the way computed style inherits); pointer doubling, no node loop."""
    n = len(parent)
    if not own.any():
        return np.full(n, default, values.dtype)
    up = np.where(own, np.arange(n), np.where(parent < 0, n, parent))
    up = np.append(up, n)                   # row n: the default, its own nearest
    while True:
        nxt = up[up]
        if (nxt == up).all():
            return np.append(values, default)[up[:n]]
        up = nxt


def _read_tree(html: str, url: str, utf8: bytes | None = None) -> tuple[int, dict, dict]:
    """(n, columns, page fields) of `html`: string columns as lists of str, number columns
    as int64 / float64 arrays (their `tolist()` is the JSON form). The strings lexbor
    gives are well-formed Unicode (_parse encodes the page with "replace"); those of the
    url and host columns may not be, as they join the caller's `url`."""
    t0 = time.perf_counter()
    tag, parent, text, tail, found = _walk(_parse(html, utf8))
    n = len(tag)
    tail[0] = ""
    names = list(dict.fromkeys(tag))               # the page's distinct tags
    code_of = {t: code for code, t in enumerate(names)}
    codes = np.fromiter(map(code_of.__getitem__, tag), np.int64, n)

    def tag_in(tags) -> np.ndarray:
        return np.array([t in tags for t in names], np.bool_)[codes]

    def column(name: str) -> list:
        col = [""] * n
        for row, value in found[name].items():
            col[row] = value
        return col

    id_c, cls_c, role_c = column("id"), column("class"), column("role")
    for row, value in found["aria-modal"].items():
        if value.strip().lower() == "true" and not role_c[row]:
            role_c[row] = "dialog"

    base = url
    for row in sorted(found["href"]):              # the first <base href> (document order)
        if tag[row] == "base":
            base = _resolve(url, found["href"][row])[0]
            break
    link_rows, url_c, host_c = [], [""] * n, [""] * n
    resolved: dict[str, tuple[str, str]] = {}     # a page repeats its links
    for attr, tags in (("href", ("a", "area")), ("src", SRC_TAGS)):
        for row, value in found[attr].items():
            if tag[row] in tags:
                if attr == "href":
                    link_rows.append(row)
                done = resolved.get(value)
                if done is None:
                    done = resolved[value] = _resolve(base, value)
                url_c[row], host_c[row] = done
    link_c = np.zeros(n, np.int64)
    link_c[link_rows] = 1

    alt_c = [""] * n
    for row, value in found["alt"].items():
        if tag[row] in ("img", "area", "input"):
            alt_c[row] = value
    for row, value in found["title"].items():
        if tag[row] == "img" and not alt_c[row]:
            alt_c[row] = value

    _formula_alts(tag, parent, text, found, alt_c,
                  tag_in(_FORMULA_TAGS).nonzero()[0].tolist())

    title_row = tag.index("title") if "title" in tag else None   # the first <title>
    title = "" if title_row is None else " ".join(text[title_row].split())   # as document.title
    lang = found["lang"].get(0, "")
    declared = declared_mod.from_static(tag, text, found, base, _resolve)   # before script text goes
    for row in tag_in(NO_TEXT_TAGS).nonzero()[0].tolist():
        text[row] = ""
    frames = tag_in(FRAME_TAGS).nonzero()[0]
    frame_c = np.zeros(n, np.int64)
    frame_c[frames] = 2
    warnings = [{"node": row, "code": "frame_not_loaded",
                 "message": "static capture does not load frames"} for row in frames.tolist()]

    parents = np.array(parent, np.int64)
    hidden_c = _hidden_column(parents, tag_in(UA_DISPLAY_NONE), found)
    heading_fs = np.array([HEADING_FS.get(t, 0.0) for t in names])[codes]
    fs_c = _inherited(parents, heading_fs > 0, heading_fs, DEFAULT_FS)
    fw_c = _inherited(parents, tag_in(BOLD_TAGS), np.full(n, BOLD_FW, np.int64), DEFAULT_FW)

    zeros = np.zeros(n, np.int64)                  # no layout: every box is 0, 0, 0, 0
    cols = {"tag": tag, "parent": parents, "text": text, "tail": tail, "link": link_c,
            "id": id_c, "cls": cls_c, "role": role_c, "host": host_c,
            "url": url_c, "alt": alt_c, "x": zeros, "y": zeros,
            "w": zeros, "h": zeros, "hidden": hidden_c, "fs": fs_c, "fw": fw_c,
            "color": [""] * n, "frame": frame_c}
    meta = {"url": url, "title": title, "lang": lang, "layout": False,
            "viewport": [0, 0], "page": [0, 0], "warnings": warnings, "declared": declared,
            "capture_ms": round((time.perf_counter() - t0) * 1000, 1),
            "tag_codes": (codes, names)}    # Snapshot.tag_codes, found here already
    return n, cols, meta


def _formula_alts(tag: list[str], parent: list[int], text: list[str], found: dict,
                  alt_c: list[str], rows: list[int]) -> None:
    """The `alt` of formula rows, as capture.js writes it (SNAPSHOT.md): `\\(tex\\)` inline,
    `\\[tex\\]` displayed, for every `math` row (TeX from an x-tex annotation inside it)
    and every MathJax 2 `script type="math/tex"` no typeset frame with MathML stands for.
    `rows`: the page's _FORMULA_TAGS rows, in document order."""
    if not any(tag[r] == "math" or tag[r] == "script" for r in rows):
        return

    def ancestors(r: int):
        r = parent[r]
        while r >= 0:
            yield r
            r = parent[r]

    tex: dict[int, str] = {}
    framed: dict[int, str] = {}          # math row -> its MathJax 2 source script's id
    sources = {found["id"][r]: (text[r], bool(_DISPLAY_TYPE.search(found["type"][r])))
               for r in rows if tag[r] == "script" and found["id"].get(r)
               and _TEX_TYPE.match(found["type"].get(r, ""))}
    for r in rows:
        if tag[r] == "annotation" and found["encoding"].get(r, "").strip() == _TEX_ENCODING:
            math = next((a for a in ancestors(r) if tag[a] == "math"), None)
            if math is not None and math not in tex:
                tex[math] = text[r]
        elif tag[r] == "math":
            frame = next((found["id"][a] for a in ancestors(r)
                          if found["id"].get(a, "").startswith("MathJax-Element-")), "")
            if frame:
                framed[r] = frame.removesuffix("-Frame")
    for r in rows:
        if tag[r] == "math":
            source_tex, source_display = sources.get(framed.get(r, ""), ("", False))
            if not tex.get(r, "").strip():
                tex[r] = source_tex
            display = source_display or found["display"].get(r, "").strip().lower() == "block" or any(
                _DISPLAY_CLASSES & set(found["class"].get(a, "").split())
                or (tag[a] == "mjx-container" and found["display"].get(a, "") == "true")
                for a in ancestors(r))
            t = " ".join(tex.get(r, "").split())
            alt_c[r] = f"\\[{t}\\]" if display else f"\\({t}\\)"
        elif tag[r] == "script" and _TEX_TYPE.match(found["type"].get(r, "")) \
                and found["id"].get(r, "") not in framed.values():
            t = " ".join(text[r].split())
            if t:
                shown = _DISPLAY_TYPE.search(found["type"][r])
                alt_c[r] = f"\\[{t}\\]" if shown else f"\\({t}\\)"


def _hidden_column(parent: np.ndarray, ua_none: np.ndarray, found: dict) -> np.ndarray:
    """The static `hidden` bits of every row (see host/SNAPSHOT.md): display none from the
    UA stylesheet (`ua_none`), the `hidden` attribute or an inline style (React's parked
    streamed segments too, as a browser has them: the pipeline reads those as shown,
    features.hidden_bits); aria-hidden; opacity 0; and visibility, inherited as in
    computed style (the last declaration of a style wins). Rules of the page's own style
    sheets are not applied (NOTES.md, 'Why static snapshots do not apply the page's style
    sheets')."""
    n = len(parent)
    bits = np.where(ua_none, H_DISPLAY_NONE, 0).astype(np.int64)
    bits[list(found["hidden"])] |= H_DISPLAY_NONE
    for row, value in found["aria-hidden"].items():
        if value.strip().lower() == "true":
            bits[row] |= H_ARIA
    sets_visibility = np.zeros(n, np.bool_)
    visibility = np.zeros(n, np.int64)
    for row, style in found["style"].items():
        if not style:
            continue
        # an ASCII style holds a property's name in some letter case to match it, and
        # the lower case of ASCII is ASCII's: three substring tests spare the patterns
        # most styles (a style beyond ASCII is read by them all, as re.I's "i" and "s"
        # match "İ", "ı" and "ſ" too; NOTES.md, 'Why a page's distinct roles, hosts
        # and names are read once')
        low = style.lower() if style.isascii() else None
        if (low is None or "display" in low) and _DISPLAY_NONE.search(style):
            bits[row] |= H_DISPLAY_NONE
        if low is None or "visibility" in low:
            m = None
            for m in _VISIBILITY.finditer(style):
                pass                             # the last declaration wins
            if m is not None:
                sets_visibility[row] = True
                visibility[row] = 0 if m.group(1).lower() == "visible" else H_VISIBILITY
        if (low is None or "opacity" in low) and _OPACITY_ZERO.search(style):
            bits[row] |= H_OPACITY
    return bits | _inherited(parent, sets_visibility, visibility, 0)
