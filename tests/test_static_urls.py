"""Static capture's URL resolution: the fast paths for plain absolute and root-relative URLs
answer exactly what urljoin and urlsplit answer."""
from urllib.parse import urljoin, urlsplit

import pytest

from pith.pages.static import MAX_URL_CHARS, _PLAIN_ABSOLUTE, _resolve


def reference(base: str, raw: str) -> tuple[str, str]:
    """What _resolve answered before the fast path: urljoin, then urlsplit's hostname."""
    raw = raw.strip()
    try:
        url = urljoin(base, raw)
        host = urlsplit(url).hostname or ""
    except ValueError:
        url, host = raw, ""
    return url[:MAX_URL_CHARS], host


BASES = ["http://Example.COM/dir/page.html?q=1#top", "https://user@www.site.org:8443/a/",
         "http://h.example/a//b/c.html", "http://h.example/a/./b/c", "http://h.example/a/../c",
         "http://h.example/dir/", "http://h.example/dir?x=/y/#z/", "https://h.example/a/b#",
         "", "file:///home/x/page.html", "HTTPS://Shop.example/", "about:blank",
         "https://www.site.org:8443/a;p/b?", "http://plain.example", "https://h.example:/x#",
         "https://my_site.example/a/b.html", "http://Under_Score.example:81/x?y#z"]
RAWS = [
    "http://example.com", "http://example.com/", "https://A.Example.com/Path/To?x=1#frag",
    "http://example.com?", "http://example.com/#", "http://example.com/a?#f",
    "http://example.com/a;params", "http://example.com/a;p?q=1", "http://example.com/?a;b",
    "http://example.com:", "http://example.com:8080/x", "http://user@example.com/",
    "http://[::1]/x", "http://exa mple.com/", "http://example.com/a b", "http://example.com/a\tb",
    "HTTP://example.com/", "Https://example.com/x", "https://example.com/%7Euser/ü?ä=1#ö",
    "http://example.com/a/../b/./c", "http://example.com//double", "http://xn--bcher-kva.ch/",
    "https://exämple.com/", "http:example.com/", "http:/example.com", "http:///x",
    "//cdn.example.com/lib.js", "//Cdn.Example.com:8080/a?b#c", "//a_b.example/x", "//",
    "///x", "//h.example/a;p", "//h.example?", "//h.example/a b", "//user@h.example/",
    "//h.example/a/../b", "http://a_b.example/", "https://A_B.example:8/x?y#z", "/root/path", "relative/path", "../up", "?query", "#frag",
    "mailto:a@b.c", "javascript:void(0)", "data:image/png;base64,AAAA", "  http://pad.com/  ",
    "http://example.com/" + "x" * 3000, "http://example.com/?" + "q" * 3000,
    "http://example.com/\x00", "http://example.com/\x7f", "http://exa\x01mple.com/",
    "https://example.com/a#b#c", "https://example.com/a?b?c", "http://example.com/a%",
    "http://-weird-.host./", "http://1.2.3.4:80/x", "http://example.com./",
    "/", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "/a/..", "/a//b", "/?q", "/#f", "/a?",
    "/a#", "/a;b", "/a b", "/ä/ö?x=ü#y", "/a/.b/..c/", "/a?x=/../#/./", "/.well-known/x",
    "/a\tb", " /padded ", "/a#b#c", "/%2e%2e/x",
    "#", "#top", "#a#b", "# x", "#\x00", "page.html", "sub/page.html?x=1#y", "a:b/c",
    "a/b:c", "x?", "x#", "x?#", "a//b", "a/./b", "a/../b", "./a", "../a", ".", "..",
    ".hidden", "a/.", "a/..", "a/.b", "ä/ö.html?ü#ß", "a;b", "a b", "a?b/../c", "a#/../b",
    "%2e%2e/x", "a\\b", "\\a", "a?x=1?y#z#w", "C:/x", "x/" * 2000]


@pytest.mark.parametrize("base", BASES)
def test_resolve_agrees_with_urljoin(base):
    for raw in RAWS:
        assert _resolve(base, raw) == reference(base, raw), (base, raw)


def test_the_fast_path_takes_plain_absolute_urls_only():
    assert _PLAIN_ABSOLUTE.fullmatch("https://example.com/a/b?c=d#e")
    for raw in ("http://example.com?", "http://example.com/a;p", "HTTP://example.com/",
                "http://user@example.com/", "//example.com/", "http://example.com/a b"):
        assert not _PLAIN_ABSOLUTE.fullmatch(raw), raw


def test_resolve_agrees_with_urljoin_on_random_links():
    """Links made of path, query and fragment pieces, dots, slashes, colons and odd
    characters, against bases with and without folders, queries and fragments."""
    import random
    pieces = ["a", "b.html", "/", "//", ".", "..", "?", "#", ":", ";", "=", "x y", "%2e", "ä",
              "\t", "-", "_", "~", "@", "\\", "q=1", "\x7f"]
    rng = random.Random(5)
    raws = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(4000)]
    for base in ["http://h.example/a/b/c.html?q=1#f", "http://h.example", "https://h.example/",
                 "http://h.example/a//b", "http://h.example:81/x/y/", "https://s_1.example/d/"]:
        for raw in raws:
            assert _resolve(base, raw) == reference(base, raw), (base, raw)


def test_scheme_relative_links_and_underscored_hosts_skip_urljoin(monkeypatch):
    """A scheme-relative link that is plain after the base's scheme, and a host name with
    '_' (a crawl's records, some subdomains), are answered without urljoin's parses."""
    from pith.pages import static

    def refuse(*args):
        raise AssertionError(f"urljoin called for {args}")
    monkeypatch.setattr(static, "urljoin", refuse)
    assert _resolve("https://h.example/a", "//Cdn.example/x.js?v=1") == (
        "https://Cdn.example/x.js?v=1", "cdn.example")
    assert _resolve("https://my_site.example/R871", "/a/b") == (
        "https://my_site.example/a/b", "my_site.example")
    assert _resolve("http://h.example/", "https://a_b.example/") == (
        "https://a_b.example/", "a_b.example")
