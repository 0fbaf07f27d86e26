"""pith.pipeline.metadata.shown: what a page shows, gathered: its headline (shown h1s, heading texts) and the fields of Shown."""
from __future__ import annotations

import numpy as np

from pith.pipeline.metadata import shown
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod

from builders import make_snapshot
from metadata_pages import meta_of, ARTICLE


def test_shown_byline_date_line_and_url_date():
    body = ('<article><h1>Tides</h1><p class="post-meta">Posted by <a href="/author/sam-tide">Sam Tide</a></p>'
            '<p>February 4, 2025 - 11 minutes</p><p>' + "Tide text. " * 40 + "</p></article>")
    m = meta_of(body, url="http://pith.test/tides")
    assert m["authors"] == ["Sam Tide"] and m["published"] == "2025-02-04"
    # an address naming a day dates the page before the line it shows (test_metadata_merge)
    assert meta_of(body, url="http://pith.test/2019/01/02/tides")["published"] == "2019-01-02"
    assert meta_of(ARTICLE.format(h="T"), url="http://pith.test/2019/01/02/t")["published"] == "2019-01-02"


def test_a_buttons_words_in_a_heading_are_no_part_of_it():
    # rustdoc: <h1>Crate <span>tokio</span>&nbsp;<button>Copy item path</button></h1>
    h = 'Crate <span>tokio</span>&nbsp;<button id="copy-path">Copy item path</button> <i>x</i>'
    snap = static.snapshot_of_html(f"<h1>{h}</h1>", "http://pith.test/", 100)
    gone = np.zeros(snap.n, bool)
    assert shown.headlines(snap, gone, 0)[0][0] == "Crate tokio x"
    assert shown.headline(snap, gone, 0) == "Crate tokio x"
    m = meta_of(ARTICLE.format(h=h.replace(" <i>x</i>", "")), title="tokio - Rust",
                url="https://docs.rs/tokio/latest/tokio/")
    assert m["title"] == "Crate tokio"


def test_a_forum_prefix_label_in_the_headline():
    # XenForo: the thread's prefix is a label element before the title's own text; the
    # forum declares "Prefix - Title", and with the label read as such the declared form is
    # the title (not "Info Ultimate …", the label's and the title's words run together)
    h1 = '<span class="label label--yellow">Info</span><span class="label-append">&nbsp;</span>GPU guide for 2025'
    head = '<meta property="og:title" content="Info - GPU guide for 2025">'
    m = meta_of(ARTICLE.format(h=h1), title="Info - GPU guide for 2025 | Hardware Forum", head=head,
                url="https://forum.test/threads/gpu-guide.1/")
    assert m["title"] == "Info - GPU guide for 2025"
    snap = static.snapshot_of_html(f"<h1>{h1}</h1>", "http://pith.test/", 100)
    assert shown.headlines(snap, np.zeros(snap.n, bool), 0)[0][0] == "GPU guide for 2025"
    # a class naming something else (a tagline) is no label
    snap = static.snapshot_of_html('<h1><span class="brand">Acme</span> Rocket skates</h1>', "http://pith.test/", 100)
    assert shown.headlines(snap, np.zeros(snap.n, bool), 0)[0][0] == "Acme Rocket skates"


def test_shown_h1_is_the_h1_rows_not_gone_in_document_order():
    """shown.shown_h1 (by tag code, the rows found once per snapshot) answers what
    comparing the tag column with "h1" answers (an equivalence test: it holds on the code
    before it too), for any mask of gone rows."""
    rows = [("html", -1), ("body", 0), ("h1", 1, {"text": "Site"}), ("article", 1),
            ("h1", 3, {"text": "Headline"}), ("h2", 3, {"text": "Part"}), ("h1", 1, {"text": "x"})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 100)
    for gone in (np.zeros(snap.n, bool), np.arange(snap.n) == 4, np.arange(snap.n) >= 3):
        want = np.flatnonzero((snap.tag == "h1") & ~gone)
        assert shown.shown_h1(snap, gone).tolist() == want.tolist()
    assert shown.headlines(snap, np.zeros(snap.n, bool), 3) == [("Site", 1), ("Headline", 1), ("x", 3)]


def test_heading_text_leaves_out_a_control_only_inside_its_own_heading():
    """shown.heading_text reads the control rows by tag code, once per snapshot: a button
    inside the heading is left out, one after it (another element's) is not the
    heading's concern, and a heading without one reads its whole text."""
    rows = [("html", -1), ("body", 0),
            ("h1", 1, {"text": "Crate "}), ("button", 2, {"text": "Copy item path"}),
            ("h1", 1, {"text": "Second"}), ("button", 1, {"text": "Share"})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 100)
    assert shown.heading_text(snap, 2) == "Crate"
    assert shown.heading_text(snap, 4) == "Second"
    assert snap.memo(("heading_controls",), lambda: None).tolist() == \
        [False, False, False, True, False, True]
