"""Features: own text attribution, hidden/code propagation and subtree aggregates."""
import numpy as np

from builders import make_snapshot
from pith.pipeline import features
from pith.pipeline.features import Reading, compute, hidden_bits, nonspace_lengths
from pith.pages import static
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json


def test_nonspace_lengths_matches_python_on_unicode():
    strings = ["", "  ", "a b\tc\n", "\u00a0x\u3000y\u2009", "héllo wörld", "🙂 🙃",
               "\x1c\x1dz", "日本語 のテキスト", "a" * 1000]
    arr = np.empty(len(strings), dtype=object)
    arr[:] = strings
    expected = [len("".join(s.split())) for s in strings]
    assert nonspace_lengths(arr).tolist() == expected


def test_nonspace_lengths_matches_python_on_ascii_and_unicode_pages():
    """Both reads (one byte per character for an ASCII page, UTF-32 otherwise) against
    str.split's whitespace, on random pages with empty strings anywhere (first, last)."""
    rng = np.random.default_rng(3)
    for alphabet in ("ab \t\n\r\x0b\x0c\x1c\x1f\x85", "ab \n\u00a0\u3000\u2028é日"):
        if alphabet.endswith("\x85"):
            alphabet = alphabet[:-1]          # U+0085 is not ASCII: this page stays ASCII
        for _ in range(50):
            strings = ["".join(rng.choice(list(alphabet), int(rng.integers(0, 3)) * int(k)))
                       for k in rng.integers(0, 8, int(rng.integers(1, 12)))]
            arr = np.empty(len(strings), dtype=object)
            arr[:] = strings
            assert nonspace_lengths(arr).tolist() == [len("".join(x.split())) for x in strings]


def page():
    # body(1) > p(2) "Hello " <b>(3) "big" </b> " world" ; div(4) hidden > p(5) "secret";
    # script(6) "x=1" ; a(7) "link" tail " after"
    return from_json(make_snapshot([
        ("html", -1),
        ("body", 0),
        ("p", 1, {"text": "Hello "}),
        ("b", 2, {"text": "big", "tail": " world"}),
        ("div", 1, {"hidden": 1}),
        ("p", 4, {"text": "secret"}),
        ("script", 1, {"text": "x=1"}),
        ("a", 1, {"text": "link", "tail": " after", "link": 1}),
    ]), 1000)


def test_own_text_counts_text_and_children_tails():
    f = compute(page())
    assert f.own_chars.tolist() == [0, 5, 10, 3, 0, 6, 3, 4]   # body owns " after"
    assert f.own_texts.tolist() == [0, 1, 2, 1, 0, 1, 1, 1]


def test_hidden_and_code_subtrees_are_gone_and_do_not_count():
    f = compute(page())
    assert f.hidden.tolist() == [False] * 4 + [True, True] + [False] * 2
    assert f.gone.tolist() == [False] * 4 + [True, True, True, False]
    # body: p "Hello world" (10) + b "big" (3) + a "link" (4) + tail "after" (5)
    assert f.chars[1] == 22
    assert f.linked_chars[1] == 4
    assert f.links[1] == 1
    assert f.tags[1] == 4   # body, p, b, a


def test_text_at_font_size_zero_is_hidden_unless_a_child_sets_a_size_again():
    # body > p(2) at size 0 "spam"; div(3) at size 0 (inline-block trick) > span(4) "kept"
    # at 16 with tail; p(5) "read"
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("p", 1, {"text": "spam", "fs": 0}),
        ("div", 1, {"fs": 0}),
        ("span", 3, {"text": "kept", "fs": 16}),
        ("p", 1, {"text": "read"}),
    ]), 1000)
    f = compute(snap)
    assert f.hidden.tolist() == [False, False, True, False, False, False]
    assert f.chars[1] == 8                              # "kept" + "read"


def test_an_image_or_a_row_without_text_at_font_size_zero_stays_visible():
    # body > ol(2) at 0 > li(3) at 0 > a(4) at 0 > img(5) at 0, then a(6) at 0 "Buy" > img(7)
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("ol", 1, {"fs": 0}), ("li", 2, {"fs": 0}), ("a", 3, {"fs": 0}),
        ("img", 4, {"fs": 0}),
        ("a", 3, {"fs": 0, "text": "Buy"}), ("img", 6, {"fs": 0}),
    ]), 1000)
    assert not compute(snap).hidden.any()


def test_a_parked_react_segment_is_content_though_rendered_display_none():
    # a rendered capture of a streamed page whose moving script did not run: body > nav(2)
    # "Menu"; div#S:0(3) display:none > p(4) the post; div#S:x1(5) display:none: not a
    # segment id, hidden; section#S:0(6) display:none: only divs are parked segments
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("nav", 1, {"text": "Menu"}),
        ("div", 1, {"id": "S:0", "hidden": 9}),
        ("p", 3, {"text": "The whole post sat in the parked segment."}),
        ("div", 1, {"id": "S:x1", "hidden": 1, "text": "menu copy"}),
        ("section", 1, {"id": "S:0", "hidden": 1, "text": "dialog"}),
    ]), 1000)
    f = compute(snap)
    assert f.hidden.tolist() == [False] * 5 + [True, True]
    assert f.chars[1] == len("Menu") + len("Thewholepostsatintheparkedsegment.")
    assert hidden_bits(snap).tolist() == [0, 0, 0, 8, 0, 1, 1]   # the box bit stays
    assert snap.hidden[3] == 9                                    # the snapshot unchanged


def test_folded_content_is_content_but_hidden_menus_and_aria_hidden_panels_are_not():
    # body > div.faq-accordion__panel(2) display:none > p "answer"; div role=tabpanel(4)
    # display:none "second tab"; nav.menu(5) display:none "menu"; div.collapse(6)
    # display:none + aria-hidden "carousel"; div.toggle-content(7) visibility:hidden "later"
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("div", 1, {"cls": "faq-accordion__panel", "hidden": 1}),
        ("p", 2, {"text": "the answer"}),
        ("div", 1, {"role": "tabpanel", "hidden": 1, "text": "second tab"}),
        ("nav", 1, {"cls": "menu", "hidden": 1, "text": "menu"}),
        ("div", 1, {"cls": "collapse", "hidden": 17, "text": "carousel"}),
        ("div", 1, {"id": "toggle-content", "hidden": 2, "text": "later"}),
    ]), 1000)
    f = compute(snap)
    assert f.hidden.tolist() == [False] * 5 + [True, True, True]
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 1, 17, 2]


def test_a_folded_row_closed_with_opacity_zero_as_well_is_content():
    # a collapse animation's closed state (Chakra UI): display:none + opacity:0 (5) on
    # div.chakra-collapse(2) > p "specs"; a folded row hidden by visibility (2, inherited
    # by every row below) and a plain opacity:0 row (4, not folded) stay hidden
    # (a browser's capture: there a plain opacity:0 hides)
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("div", 1, {"cls": "chakra-collapse", "hidden": 5}),
        ("p", 2, {"text": "Height 39 cm, stainless steel"}),
        ("div", 1, {"cls": "toggle-body", "hidden": 3, "text": "later"}),
        ("div", 1, {"cls": "fade-in", "hidden": 4, "text": "not yet"}),
    ], layout=True), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 2, 4]
    f = compute(snap)
    assert f.hidden.tolist() == [False] * 4 + [True, True]
    assert f.chars[1] == len("Height39cm,stainlesssteel")


def test_a_marko_fragment_parked_for_its_placeholder_is_shown():
    # span#afbrwwebph16(2) the placeholder; div#afbrwweb16(3) display:none > p "listings";
    # div#af7(5) display:none without a placeholder af…ph7: any page's name, stays hidden
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("span", 1, {"id": "afbrwwebph16"}),
        ("div", 1, {"id": "afbrwweb16", "hidden": 1}),
        ("p", 3, {"text": "1,693,368 results: Art Print, Sticker set"}),
        ("div", 1, {"id": "af7", "hidden": 1, "text": "menu"}),
    ]), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 1]
    assert compute(snap).chars[1] == len("1,693,368results:ArtPrint,Stickerset")


def test_an_faq_answer_folded_under_its_question_is_content():
    # div.faq-inner(2) > div.faq-question(3) "Q", div.faq-answer(4) display:none "A"
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("div", 1, {"cls": "faq-inner"}),
        ("div", 2, {"cls": "faq-question", "text": "Q: Is there a warranty included?"}),
        ("div", 2, {"cls": "faq-answer", "hidden": 1, "text": "A: Yes, two years."}),
    ]), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0]
    assert not compute(snap).hidden.any()


def test_opacity_zero_hides_in_a_browser_capture_but_not_in_a_static_snapshot():
    # section(2) opacity:0 (a reveal animation's start state) > p; nav(4) opacity:0 and
    # visibility:hidden (6): only the opacity bit comes off, and only without layout
    rows = [("html", -1), ("body", 0), ("section", 1, {"hidden": 4}),
            ("p", 2, {"text": "Up to 2x more noise cancellation."}),
            ("nav", 1, {"hidden": 6, "text": "menu"})]
    static_snap = from_json(make_snapshot(rows), 1000)
    assert hidden_bits(static_snap).tolist() == [0, 0, 0, 0, 2]
    assert compute(static_snap).chars[1] == len("Upto2xmorenoisecancellation.")
    rendered = from_json(make_snapshot(rows, layout=True), 1000)
    assert hidden_bits(rendered).tolist() == [0, 0, 4, 0, 6]
    assert compute(rendered).chars[1] == 0


def test_a_captured_page_whose_sections_wait_to_scroll_in_shows_them():
    # a browser's capture: p(2) shown; three sections at opacity:0 (4), each with text and
    # each lower on the page (a scroll-reveal library's start state, Divi's et_animated,
    # wcxb_dev_full 0138): read as shown, as a static snapshot reads them; the nav(9)
    # hidden by visibility stays hidden
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "Tutoring that works."}),
            ("section", 1, {"hidden": 4, "y": 900}), ("h2", 3, {"text": "Resource library"}),
            ("section", 1, {"hidden": 4, "y": 1400, "text": "Educator guide"}),
            ("section", 1, {"hidden": 4, "y": 1900}), ("p", 6, {"text": "Why it works"}),
            ("nav", 1, {"hidden": 6, "text": "menu"})]
    snap = from_json(make_snapshot(rows, layout=True), 1000)
    assert hidden_bits(snap).tolist() == [0] * 8 + [2]
    assert compute(snap).chars[1] == len("Tutoringthatworks.ResourcelibraryEducatorguideWhyitworks")


def test_a_captured_page_with_fewer_faded_sections_keeps_them_hidden():
    # opacity:0 rows at two heights only: two sections with text, one empty (an icon), one
    # inside a faded section: they hide, as a browser shows them
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "Tutoring that works."}),
            ("section", 1, {"hidden": 4, "y": 900}),
            ("div", 3, {"hidden": 4, "y": 1400, "text": "Resource"}),
            ("section", 1, {"hidden": 4, "y": 1900, "text": "Educator guide"}),
            ("i", 1, {"hidden": 4, "y": 2400})]
    snap = from_json(make_snapshot(rows, layout=True), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 4, 4, 4, 4]
    assert compute(snap).chars[1] == len("Tutoringthatworks.")


def test_a_captured_page_whose_sections_fade_in_hidden_by_visibility_too_shows_them():
    # a browser's capture, viewport 800 high: p(2) shown; three sections below the first
    # screen at opacity:0 and visibility:hidden together (6, GSAP's autoAlpha; wcxb_dev_full
    # 0242), their children hidden by visibility (inherited, 2): read as shown, visibility
    # and all; a dropdown(8) faded the same way on the first screen stays hidden (by its
    # visibility: the reveal takes opacity:0 off every row, as before)
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "Insurance for drivers."}),
            ("div", 1, {"hidden": 6, "y": 1083, "h": 135}),
            ("p", 3, {"hidden": 2, "y": 1107, "h": 48, "text": "Your auto insurance covers you."}),
            ("div", 1, {"hidden": 6, "y": 1140, "h": 333, "text": "Coverage while online"}),
            ("div", 1, {"hidden": 6, "y": 4061, "h": 207, "text": "Rideshare insurers"}),
            ("header", 1, {"y": 0, "h": 80}),
            ("ul", 7, {"hidden": 6, "y": 72, "h": 137, "text": "Drive Ride Deliver"})]
    made = make_snapshot(rows, layout=True)
    made["viewport"] = [1280, 800]
    snap = from_json(made, 1000)
    assert hidden_bits(snap).tolist() == [0] * 8 + [2]
    assert compute(snap).chars[1] == len("Insurancefordrivers.Yourautoinsurancecoversyou."
                                         "CoveragewhileonlineRideshareinsurers")
    assert hidden_bits(snap, Reading(faded_hidden=False)).tolist() == [0, 0, 0, 6, 2, 6, 6, 0, 6]
    # the same sections on the first screen are a closed menu's: hidden
    high = [r[:2] + ({**r[2], "y": r[2]["y"] % 800},) if len(r) > 2 and "y" in r[2] else r
            for r in rows]
    made = make_snapshot(high, layout=True)
    made["viewport"] = [1280, 800]
    assert hidden_bits(from_json(made, 1000)).tolist() == [0, 0, 0, 6, 2, 6, 6, 0, 6]


def test_a_captured_menu_whose_dropdowns_fade_in_side_by_side_stays_hidden():
    # nav(2) > four dropdowns at opacity:0 with text, hanging from one bar (one height:
    # baidu.com's header, magic_html train article-21475f4bb975): a closed menu, hidden
    rows = [("html", -1), ("body", 0), ("nav", 1, {"y": 180}),
            *[("dd", 2, {"hidden": 4, "y": 224, "x": 100 * i, "text": f"Team {i} pages"})
              for i in range(4)],
            ("p", 1, {"y": 400, "text": "The article."})]
    snap = from_json(make_snapshot(rows, layout=True), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 4, 4, 4, 4, 0]
    assert compute(snap).chars[1] == len("Thearticle.")


def test_a_static_page_whose_sections_wait_to_fade_in_answers_them():
    """Static HTML of a product page saved mid-animation (apple.com's pattern, wcxb_dev_full
    3063): its sections are inline opacity:0 until scrolled to; the answer holds them."""
    menu = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(30))
    section = ("<section style='transform: matrix(1, 0, 0, 1, 0, 30); opacity: 0;'><h2>{0}"
               "</h2><p>{0} comes with a new multiport acoustic architecture for deeper bass "
               "and a wider soundstage, so you hear every note as the artist intended.</p>"
               "</section>")
    body = "".join(section.format(name) for name in ("Sound quality", "Fit and feel",
                                                     "Battery life", "Hearing health"))
    html = (f"<html><body><nav><ul>{menu}</ul></nav><main><h1>Earbuds Pro</h1>"
            f"<p>The best in-ear noise cancellation.</p>{body}</main>"
            f"<footer><ul>{menu}</ul></footer></body></html>")
    text = select(static.snapshot_from_html(html, "http://example.org/p")).output("text")
    assert "Fit and feel comes with" in text and "Hearing health comes with" in text
    assert "Category 3" not in text


def test_a_bootstrap_tab_pane_without_its_role_is_content():
    # div.tab-content(2) > div.tab-pane.active(3) "overview", div.tab-pane(4) display:none
    # "specs"; div#tabpane-reviews(5) display:none; nav.tabs-menu(6) display:none stays
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("div", 1, {"cls": "tab-content"}),
        ("div", 2, {"cls": "tab-pane active", "text": "Overview of the card"}),
        ("div", 2, {"cls": "tab-pane fade", "hidden": 1, "text": "Memory: 12 GB GDDR5"}),
        ("div", 1, {"id": "tabpane-reviews", "hidden": 1, "text": "Great card"}),
        ("nav", 1, {"cls": "tabs-menu", "hidden": 1, "text": "menu"}),
    ]), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 0, 1]


def test_a_main_landmark_whose_text_is_all_display_none_is_read_as_shown():
    # body > nav(2) "menu"; main(3) > [div(4) display:none > p(5) "product", div(6)
    # display:none "closed popup" (hidden inside the parked div: stays hidden)], div(7)
    # display:none + aria-hidden "dialog"; footer(8) "footer"
    product = "A dark roast of arabica and robusta beans, fair trade and organic. " * 4
    rows = [("html", -1), ("body", 0), ("nav", 1, {"text": "Coffee Merch Gifting About"}),
            ("main", 1), ("div", 3, {"cls": "easylockdown-content", "hidden": 1}),
            ("p", 4, {"text": product}), ("div", 4, {"hidden": 1, "text": "closed popup"}),
            ("div", 3, {"hidden": 17, "text": "dialog"}),
            ("footer", 1, {"text": "Company Help Legal"})]
    snap = from_json(make_snapshot(rows), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 0, 1, 17, 0]
    assert compute(snap).chars[3] == len("".join(product.split()))
    # a main that shows its own text keeps its display:none rows hidden
    shown = rows[:3] + [("main", 1, {"text": "The product, as the page shows it: " * 2})] + rows[4:]
    assert hidden_bits(from_json(make_snapshot(shown), 1000))[4] == 1
    # so does a main hidden itself (a page's second view), and one with little text
    hidden = rows[:3] + [("main", 1, {"hidden": 1})] + rows[4:]
    assert hidden_bits(from_json(make_snapshot(hidden), 1000))[4] == 1
    short = rows[:5] + [("p", 4, {"text": "Loading"})] + rows[6:]
    assert hidden_bits(from_json(make_snapshot(short), 1000))[4] == 1


def test_a_parked_product_page_answers_its_description_not_its_footer():
    """Static HTML of a shop whose access-check app hides the product until its script
    runs (wcxb_dev_full 0583's pattern): the answer is the description, not a menu or
    the footer's slogan."""
    menu = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(40))
    description = ("<h4>Darker roast for bolder days.</h4><p>Meet the yin to your yang: a "
                   "bold and delicious dark roast brew, certified fair trade and organic, "
                   "with arabica beans for smooth flavour and robusta for strength.</p>"
                   "<p>Join the society to save on every shipment, with free shipping on "
                   "all subscription orders and early access to new releases.</p>")
    html = (f"<html><body><header><nav><ul>{menu}</ul></nav></header>"
            f"<main><div class='lockdown-content' style='display:none;'><section>"
            f"<h1>Dark Roast Coffee</h1><div class='product__description'>{description}"
            f"</div></section></div></main><footer><h2>Drink coffee and be happy, folks"
            f"</h2><ul>{menu}</ul></footer></body></html>")
    text = select(static.snapshot_from_html(html, "http://example.org/p")).output("text")
    assert "Meet the yin to your yang" in text
    assert "Join the society" in text
    assert "Category 3" not in text


def test_hidden_text_counts_when_skip_hidden_is_off():
    f = compute(page(), skip_hidden=False)
    assert f.chars[1] == 28
    assert f.hidden[5]


def test_a_noscript_is_code_unless_the_parser_built_elements_in_it():
    """With scripts on, a noscript holds its markup as one raw text node (code); elements
    inside one mean scripting was off, and such a browser shows them (Discourse's posts)."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("noscript", 1, {"text": "<p>markup as text</p>"}),
        ("noscript", 1), ("p", 3, {"text": "A post for crawlers"}),
    ]), 100)
    feats = compute(snap)
    assert feats.gone[2] and not feats.gone[3] and not feats.gone[4]
    assert feats.chars[1] == len("Apostforcrawlers")


def test_text_counts_are_made_once_per_snapshot(monkeypatch):
    """A 50 MB text node takes a second to count: the text check of a capture, the
    features and their retry with hidden text all read one count per column."""
    snap = from_json(make_snapshot([("html", -1), ("p", 0, {"text": " a b ", "tail": "cd"})]),
                     100)
    counted = []
    real = features.nonspace_lengths
    monkeypatch.setattr(features, "nonspace_lengths",
                        lambda s, *rest: counted.append(1) or real(s, *rest))
    first = compute(snap)
    again = compute(snap, skip_hidden=False)
    assert len(counted) == 2                  # text and tail, once each
    assert first.text_chars.tolist() == [0, 2] and again.text_chars is first.text_chars


def test_string_lengths_are_each_rows_len_counted_once_per_snapshot(monkeypatch):
    """features.string_lengths: len() of every row's string (empty rows 0, non-ASCII text
    by code points), counted once per snapshot and column and shared with the non-space
    counts (column_lengths starts from it) and the metadata's short rows."""
    snap = from_json(make_snapshot([("html", -1), ("p", 0, {"text": " a b ", "tail": "çé"}),
                                    ("span", 1, {"text": "€ 5"})]), 100)
    lengths = features.string_lengths(snap, "text")
    assert lengths.tolist() == [0, 5, 3]
    assert features.string_lengths(snap, "tail").tolist() == [0, 2, 0]
    assert features.string_lengths(snap, "text") is lengths and not lengths.flags.writeable
    seen = []
    real = features.nonspace_lengths
    monkeypatch.setattr(features, "nonspace_lengths",
                        lambda s, *rest: seen.append(rest[0] if rest else None) or real(s, *rest))
    assert features.column_lengths(snap, "text").tolist() == [0, 2, 2]
    assert seen[0] is lengths                  # the non-space count read the kept lengths


def test_lower_in_place_keeps_every_position():
    s = "İSTANBUL Straße"
    assert features.lower_in_place(s) == "İstanbul straße"      # İ kept: its lower case is two
    assert features.lower_in_place("ABC") == "abc"


# A Flarum thread as a saved page holds it: the posts the scripts drew, and the same
# posts again in `noscript#flarum-content` for crawlers (each with its author's name line).
POSTS = ["Good morning, my mother's subscription moved from the old provider to the new "
         "one and she used to pause it every summer.", "Can she still pause it?",
         "You can call the contracts team on the free number and they will turn it on."]
FLARUM_POSTS = "".join(f"<article class='Post'><p>{p}</p></article>" for p in POSTS)
FLARUM_COPY = "".join(f"<article><h3>Member</h3><p>{p}</p></article>" for p in POSTS)


def test_a_noscript_copy_of_the_drawn_page_is_not_read_and_an_only_copy_is():
    """The failure this fixes: a static snapshot shows a noscript with elements, so a
    forum whose scripts drew the thread and which ships it again in a noscript read the
    thread twice (magic_html train forum-7ecdac9a0d50: page F1 0.578); the thread is
    short, under the block stage's COPY_MIN_RUN_CHARS, so its copies rule kept both. A
    noscript whose text is the page's only copy, and an image fallback, stay shown."""
    from pith.pages import static
    from pith.pipeline.options import Options
    from pith.pipeline.select import select
    url = "https://forum.example.org/d/36387-pause"
    copied = (f"<html><body><div id='app'><main><h1>Pausing a subscription</h1>"
              f"{FLARUM_POSTS}</main></div><noscript id='flarum-content'><div>{FLARUM_COPY}"
              "</div></noscript><noscript><img src='/a.png' alt=''></noscript></body></html>")
    snap = from_json(static.snapshot_from_html(copied, url), 10_000)
    rows = np.flatnonzero(snap.tag == "noscript")
    assert not features.shown_noscript(snap)[rows[0]]          # the crawlers' copy
    assert features.shown_noscript(snap)[rows[1]]              # the lazy image's fallback
    assert select(snap, Options()).output("text").count(POSTS[0]) == 1
    only = (f"<html><body><div id='app'></div><noscript id='flarum-content'><div>"
            f"<h1>Pausing a subscription</h1>{FLARUM_COPY}</div></noscript></body></html>")
    snap = from_json(static.snapshot_from_html(only, url), 10_000)
    assert features.shown_noscript(snap)[np.flatnonzero(snap.tag == "noscript")[0]]
    assert select(snap, Options()).output("text").count(POSTS[2]) == 1


def test_filled_is_the_rows_with_a_string_found_once_per_snapshot():
    """features.filled: the rows whose column string is not empty, as comparing the
    object column with "" answers (an equivalence test: it holds on the code before it
    too), remembered on the snapshot."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("p", 1, {"text": "words", "tail": " "}),
        ("img", 2, {"url": "https://x.example/a.png"}), ("img", 2), ("span", 1, {"text": " "})]), 100)
    for column in ("text", "tail", "url"):
        got = features.filled(snap, column)
        assert got.tolist() == (snap.cols[column] != "").tolist()
        assert features.filled(snap, column) is got and not got.flags.writeable
    assert features.filled(snap, "url").tolist() == [False, False, False, True, False, False]


def test_a_page_memo_of_a_bare_array_hands_it_out_read_only():
    """Features.memo locks an array it keeps whether it comes bare, in a tuple or in an
    object's fields: a stage that kept one bare (links.linked) had wrapped it in a tuple
    to get the lock; now no caller can change what another reads either way."""
    feats = compute(from_json(make_snapshot([("html", -1), ("body", 0)]), 100))
    bare = feats.memo(("bare",), lambda: np.zeros(3, np.bool_))
    assert feats.memo(("bare",), lambda: np.ones(3, np.bool_)) is bare
    assert not bare.flags.writeable
    assert not feats.memo(("pair",), lambda: (np.zeros(2), 1))[0].flags.writeable


def test_own_lengths_are_a_rows_text_and_its_childrens_tails_found_once():
    """features.own_lengths: the non-space characters of a row's own text nodes (its
    text, its children's tails), the features' own_chars, kept on the snapshot."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("p", 1, {"text": "ab c", "tail": " d "}),
        ("b", 2, {"text": "e", "tail": "fg"})]), 100)
    own = features.own_lengths(snap)
    assert own.tolist() == [0, 1, 5, 1] and features.own_lengths(snap) is own
    assert compute(snap).own_chars is own


def test_comments_in_undefined_custom_elements_are_shown():
    """The failure this fixes: a Reddit thread saved and captured rendered (magic_html's
    r/BoomersBeingFools topics, rendered F1 0.37 and 0.55, static 0.54 and 0.67): its
    comments sit in custom elements the saved page never defines, which its style hides
    (visibility) until a script draws them, so every comment was hidden. A comment-named
    custom element hidden by visibility is shown, with the undefined wrapper above it;
    a dialog, a comment inside a row the page hid itself, and display:none stay hidden."""
    # div#comments(2) > faceplate-batch(3) > shreddit-comment-tree(4) > shreddit-comment(5)
    # > p(6); faceplate-dialog(7) > p(8); div(9) hidden > shreddit-comment(10) > p(11);
    # shreddit-comment(12) display:none and visibility > p(13)
    rows = [("html", -1), ("body", 0), ("div", 1, {"id": "comments"}),
            ("faceplate-batch", 2, {"hidden": 2}),
            ("shreddit-comment-tree", 3, {"hidden": 2}),
            ("shreddit-comment", 4, {"hidden": 2}),
            ("p", 5, {"hidden": 2, "text": "Bet he is a lot of fun at thanksgiving."}),
            ("faceplate-dialog", 1, {"hidden": 2}),
            ("p", 7, {"hidden": 2, "text": "Log in to continue"}),
            ("div", 1, {"hidden": 2}),
            ("shreddit-comment", 9, {"hidden": 2}),
            ("p", 10, {"hidden": 2, "text": "A comment the page itself hides."}),
            ("shreddit-comment", 1, {"hidden": 3}),
            ("p", 12, {"hidden": 3, "text": "A collapsed comment."})]
    snap = from_json(make_snapshot(rows, layout=True), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 1, 1]
    feats = compute(snap)
    assert feats.chars[2] == len("Betheisalotoffunatthanksgiving.") and feats.chars[1] == feats.chars[2]


def test_comments_under_a_deep_chain_of_undefined_wrappers_are_shown_at_once():
    """A hostile page's 20,000 comment elements under a 3,000-deep chain of undefined
    wrappers: every comment is shown, with the chain (no walk up the chain a comment:
    features.undefined_comments finds the rows by pointer doubling); one comment-named
    element under a row the page hid (display:none) stays hidden."""
    rows = [("html", -1), ("body", 0)]
    for _ in range(3000):
        rows.append(("x-wrap", len(rows) - 1, {"hidden": 2}))
    rows += [("x-comment", len(rows) - 1, {"hidden": 2, "text": "c"}) for _ in range(20_000)]
    rows += [("div", 1, {"hidden": 1}), ("x-comment", len(rows), {"hidden": 2, "text": "h"})]
    snap = from_json(make_snapshot(rows, layout=True), 100_000)
    assert ((hidden_bits(snap)[:-2] & 2) == 0).all() and hidden_bits(snap)[-1] == 2
    assert compute(snap).chars[0] == 20_000


def test_a_pages_custom_and_comment_tags_are_named_once_per_distinct_tag(monkeypatch):
    """custom_tags and comment_tags answer per distinct tag (Snapshot.tag_codes' order):
    a hyphen makes a custom element, and of those a comment's name (`shreddit-comment`,
    not `faceplate-batch`) a comment's; the comment finder reads the same answer, and
    names_thread runs once a custom tag however many rows and callers ask."""
    from pith.pipeline import comments, features
    rows = [("html", -1), ("body", 0), ("faceplate-batch", 1), ("shreddit-comment", 2),
            ("p", 3, {"text": "A reply."}), ("shreddit-comment", 2),
            ("p", 5, {"text": "Another reply."}), ("div", 1, {"cls": "comment"})]
    snap = from_json(make_snapshot(rows), 1000)
    asked = []
    real = features.names_thread
    monkeypatch.setattr(features, "names_thread", lambda t: asked.append(t) or real(t))
    codes, tags = snap.tag_codes()
    assert tags == ["html", "body", "faceplate-batch", "shreddit-comment", "p", "div"]
    assert features.custom_tags(snap).tolist() == [False, False, True, True, False, False]
    assert features.comment_tags(snap).tolist() == [False, False, False, True, False, False]
    assert comments.custom_named(snap).tolist() == [False] * 3 + [True, False, True, False, False]
    features.undefined_comments(snap, snap.hidden)
    assert sorted(asked) == ["faceplate-batch", "shreddit-comment"]


def test_role_codes_gather_numpys_lower_case_of_each_row():
    """features.role_codes against the column it stands for, np.char.lower of the roles as
    a str array, row for row: roles in any case, a dotted capital I (numpy lower-cases it
    to "i", Python to two characters), a trailing NUL (the str array drops it), repeats
    and rows without a role; and the rules reading it (auto's furniture and hover roles,
    the sidebars' main rows) against their old per-row forms."""
    from pith.pipeline.algorithms import auto
    roles = ["", "Navigation", "MAİN", "main\x00", "tooltip", "", "DIALOG", "Main",
             "navigation", "contentinfo ", "ToolTip"]
    rng = np.random.default_rng(4)
    for k in range(60):
        # roles picked by index: a numpy array of them would drop the NUL
        pick = roles if k == 0 else [roles[i] for i in rng.integers(0, len(roles),
                                                                    int(rng.integers(1, 12)))]
        rows = [("html", -1)] + [("div", 0, {"role": r}) for r in pick]
        snap = from_json(make_snapshot(rows), 1_000_000)
        codes, low = features.role_codes(snap)
        want = np.char.lower(snap.role.astype(str))
        assert low[codes].tolist() == want.tolist()
        for wanted in (auto.FURNITURE_ROLES, auto.HOVER_ROLES):
            old = np.zeros(snap.n, np.bool_)
            has = np.flatnonzero(snap.role != "")
            old[has] = np.isin(np.char.lower(snap.role[has].astype(str)), wanted)
            assert auto._roles(snap, wanted).tolist() == old.tolist()


def test_a_shown_aria_hidden_link_is_read_but_copies_menus_and_undrawn_links_are_not():
    # a teaser: its title link (3), its excerpt linked again aria-hidden (4, "tabindex=-1":
    # the second link to one address), the title linked again aria-hidden (5, a copy), an
    # aria-hidden menu (6, no link), an aria-hidden link inside a display:none row (8)
    rows = [("html", -1), ("body", 0), ("article", 1),
            ("a", 2, {"link": 1, "text": "Beats Solo 4 in new colours"}),
            ("a", 2, {"link": 1, "hidden": 16, "text": "Walmart now has the Beats Solo 4 "
                                                       "in retailer-exclusive colorways."}),
            ("a", 2, {"link": 1, "hidden": 16, "text": "Beats Solo 4 in new colours"}),
            ("div", 1, {"hidden": 16, "text": "Home News Reviews Deals Forums"}),
            ("div", 1, {"hidden": 1}),
            ("a", 7, {"link": 1, "hidden": 16, "text": "a closed dialog's only link text"})]
    snap = from_json(make_snapshot(rows), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 0, 0, 16, 16, 1, 16]
    assert hidden_bits(snap, Reading(aria_links=False)).tolist() == [0, 0, 0, 0, 16, 16, 16, 1, 16]
    assert compute(snap).hidden.tolist() == [False] * 5 + [True] * 4
    assert compute(snap, reading=Reading(aria_links=False)).hidden[4]
    # a browser's capture: the excerpt is read where it is drawn, not where it has no box
    # (a collapsed panel's link) or lies off the page (a carousel's far slide)
    drawn = [r if r[0] != "a" or r[2].get("hidden") != 16 else
             (r[0], r[1], {**r[2], "x": 10, "y": 40, "w": 300, "h": 20}) for r in rows]
    boxed = make_snapshot(drawn, layout=True)
    boxed["page"] = [1280, 2000]
    assert hidden_bits(from_json(boxed, 1000))[4] == 0
    unboxed = make_snapshot(rows, layout=True)
    unboxed["page"] = [1280, 2000]
    assert hidden_bits(from_json(unboxed, 1000))[4] == 16
    boxed["nodes"]["x"][4] = 5000
    assert hidden_bits(from_json(boxed, 1000))[4] == 16


def test_a_hidden_main_of_a_page_that_shows_nearly_nothing_is_read_as_shown():
    # a slideshow page its script never switched on: body > h4(2) "headline"; div(3)
    # display:none > main(4) > [p(5) the slide, div(6) display:none + aria-hidden "dialog"];
    # the page shows less than PARKED_MAIN_SHOWN of its text
    slide = "The plasma rocket could reach Mars in two months, the agency says. " * 6
    rows = [("html", -1), ("body", 0), ("h4", 1, {"text": "Plasma rocket"}),
            ("div", 1, {"cls": "js_slideshow-page", "hidden": 9}), ("main", 3),
            ("p", 4, {"text": slide}), ("div", 4, {"hidden": 17, "text": "dialog"})]
    snap = from_json(make_snapshot(rows), 1000)
    assert hidden_bits(snap).tolist() == [0, 0, 0, 8, 0, 0, 17]
    assert compute(snap).chars[0] == len("Plasmarocket" + "".join(slide.split()))
    assert hidden_bits(snap, Reading(hidden_main=False))[3] == 9
    # hidden otherwise on the way up (aria-hidden: a modal's backdrop), it stays hidden
    aria = rows[:3] + [("div", 1, {"hidden": 17})] + rows[4:]
    assert hidden_bits(from_json(make_snapshot(aria), 1000))[3] == 17
    # a page that shows its text elsewhere keeps its hidden main hidden (a second view)
    shown = rows + [("article", 1, {"text": slide})]
    assert hidden_bits(from_json(make_snapshot(shown), 1000))[3] == 9
