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
