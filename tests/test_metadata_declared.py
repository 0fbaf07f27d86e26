"""pith.pipeline.metadata.declared: the snapshot's `declared` head (meta, link, JSON-LD), checked and capped."""
from __future__ import annotations

import json

from pith.pipeline.metadata import declared
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod
from pith.pipeline.select import select


def test_declared_from_outside_keeps_only_well_formed_entries():
    got = declared.checked({
        "meta": [[1, "og:title", "T"], [99, "x", "y"], ["1", "a", "b"], [1, "a"], [2, "k", None],
                 [True, "a", "b"]],
        "items": [[1, "author", None], [1, "name", 3]],
        "scopes": [[1, "https://schema.org/Person"], [1, None]],
        "links": "nope", "times": [[2, "2020-01-01"]],
        "ld": ["{}", 5, "x" * (declared.MAX_LD_CHARS + 1)]}, n=3)
    assert got == {"meta": [[1, "og:title", "T"]], "items": [[1, "author", None]],
                   "scopes": [[1, "https://schema.org/Person"]], "links": [],
                   "times": [[2, "2020-01-01"]], "ld": ["{}"]}
    assert declared.checked(None, 3) == declared.empty()
    assert declared.checked({"meta": [[0, "k", "\ud800" + "v" * 5000]]}, 1)["meta"] == \
        [[0, "k", "\ufffd" + "v" * (declared.MAX_VALUE_CHARS - 1)]]


def test_declared_lists_are_capped():
    many = {"meta": [[0, "k", "v"]] * (declared.MAX_ENTRIES + 5), "ld": ["{}"] * 100}
    got = declared.checked(many, 1)
    assert len(got["meta"]) == declared.MAX_ENTRIES and len(got["ld"]) == declared.MAX_LD_SCRIPTS
    html = "<head>" + '<meta name="k" content="v">' * (declared.MAX_ENTRIES + 5) + "</head><p>x"
    assert len(static.snapshot_from_html(html)["declared"]["meta"]) == declared.MAX_ENTRIES


def test_a_malformed_declared_object_never_refuses_the_page():
    snap = static.snapshot_from_html("<p>Some text of a page.</p>", "http://pith.test/")
    snap["declared"] = {"meta": 7, "ld": {"a": 1}}
    assert snapshot_mod.from_json(snap, 1000).meta["declared"] == declared.empty()
    assert select(snap).metadata.title is None


def test_static_declared_keeps_only_the_link_relations_metadata_reads():
    html = ('<link rel="stylesheet" href="/s.css"><link rel="Canonical" href="/c">'
            '<a rel="author noopener" href="/me">me</a><script type="application/ld+json ">{}</script>')
    d = static.snapshot_from_html(html, "http://pith.test/x")["declared"]
    assert [(rel, href) for _r, rel, href in d["links"]] == \
        [("canonical", "http://pith.test/c"), ("author noopener", "http://pith.test/me")]
    assert d["ld"] == ["{}"]


def test_a_web_components_time_element_is_declared_as_a_time():
    html = ('<body><relative-time datetime="2025-12-20T13:58:12Z">Dec 20</relative-time>'
            '<faceplate-timeago ts="2026-03-03T09:47:05.754000+0000">3 hr. ago</faceplate-timeago>'
            '<local-time datetime="2025-01-02" ts="2025-01-03">Jan 2</local-time>'
            '<time ts="2024-01-01">x</time><time datetime="2024-02-02">y</time>'
            '<shreddit-post created-timestamp="2026-01-01T00:00:00Z">p</shreddit-post>'
            '<timeline-item datetime="2020-01-01">t</timeline-item><date-picker datetime="2020-03-03">p</date-picker><div ts="2020-02-02">d</div></body>')
    d = static.snapshot_from_html(html, "http://pith.test/x")["declared"]
    assert [v for _r, v in d["times"]] == ["2025-12-20T13:58:12Z", "2026-03-03T09:47:05.754000+0000",
                                           "2025-01-02", "2024-02-02"]


def test_a_page_dated_only_by_a_web_components_time_element_has_that_date():
    html = ('<html lang="en"><body><div class="credit"><a href="/u/someone">someone</a> · '
            '<faceplate-timeago ts="2026-03-03T09:47:05.754000+0000">3 hr. ago</faceplate-timeago></div>'
            '<h1>Best laptop for college</h1><div class="post">' + "<p>I need a laptop that lasts "
            "four years of college and costs under a thousand dollars, what do you suggest?</p>" * 5
            + "</div></body></html>")
    snap = static.snapshot_from_html(html, "http://pith.test/r/x/comments/1/best/")
    assert select(snap).metadata.published[:10] == "2026-03-03"
