"""pith.pipeline.metadata.dateline: the dates a page shows (date lines, <time>s, dated texts, the days near the top)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from pith.pipeline.metadata import dates, dateline, window
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod

from builders import make_snapshot
from metadata_pages import meta_of, ARTICLE


def test_a_date_line_just_after_the_chosen_element_is_read_when_none_is_above():
    body = (ARTICLE.format(h="Index types") + "<nav><a href='/a'>Home</a> <a href='/b'>Blog</a></nav>"
            '<div class="post-meta"><span>Posted on April 13, 2023</span></div>')
    assert meta_of(body)["published"] == "2023-04-13"
    # a date above the element still comes first
    assert meta_of("<p>March 2, 2021</p>" + body)["published"] == "2021-03-02"


@pytest.mark.parametrize("profile", [
    "<dd><strong>Joined:</strong> Dec 11, 2021</dd>",
    "<dd><strong>Founded:</strong> Dec 11, 2021</dd>",
    "<div class='join-date'>Join Date: Dec 11, 2021</div>",
    "<dd>Member since Dec 11, 2021</dd>",
])
def test_a_posters_joining_day_is_not_the_posts_date(profile):
    post = ("<div class='post'><dl class='postprofile'><dt>Outer</dt><dd><strong>Posts:</strong> 4032</dd>"
            + profile + "</dl><div class='postbody'><p><strong>x</strong> » Tue Aug 27, 2019 1:47 am</p><p>"
            + "The first post of the thread. " * 20 + "</p></div></div>")
    assert meta_of("<h1>Football season</h1>" + post)["published"] == "2019-08-27"


@pytest.mark.parametrize("meta", ["commentmetadata", "comment-date", "reply-time"])
def test_a_date_line_named_as_a_comments_is_not_the_posts(meta):
    comment = (f'<li><cite>Reader</cite> says:<br><small class="{meta}"><a href="#c1">November '
               '2nd, 2012 at 8:44 pm</a></small><p>' + "A reader's comment. " * 5 + "</p></li>")
    body = ('<div class="entry"><h1>Open enrollment</h1><p>Published on November 1st, 2012</p><p>'
            + "The post's words go on. " * 30 + "</p><ol class='commentlist'>" + comment * 3
            + "</ol></div>")
    assert meta_of(body)["published"] == "2012-11-01"


@pytest.mark.parametrize("link", [
    '<a href="/2012/10/29/week-in-review">&laquo; AWS Week in Review - October 29, 2012</a>',
    '<a href="/blog/post/37795459">美樹營地 - 探訪老鷹溪 (下)   2011/12/18</a>',
    '<a href="/whats-on/launch/"><span>book launch online on 19th June 2022</span></a>',
])
def test_a_date_in_a_links_headline_is_the_linked_pages(link):
    """A date inside a link whose text holds a headline dates the page it leads to (a
    previous post's, a related post's), never this one; a permalink's date stays."""
    body = f"<div class='nav'>{link}</div>" + ARTICLE.format(h="Our post")
    assert meta_of(body)["published"] is None
    for own in ('<a href="/2012/10/23/rolls">October 23, 2012</a>',
                '<a href="/p/1">POSTED ON November 6th, 2012 at 7:52 am</a>',
                '<a href="/t/1?p=2"><span>Sun Dec 17, 2023 11:23 am</span></a>'):
        day = dates.find(re.sub("<[^>]+>", "", own))
        assert meta_of(f"<p>{own}</p>" + ARTICLE.format(h="Our post"))["published"] == day


@pytest.mark.parametrize("clock", [
    '<div class="block-date"><p id="todays-date-custom"><strong>Friday</strong>, December 19, 2025</p></div>',
    '<p class="date current-date">December 19, 2025</p>',
    '<div class="the-date-today">Friday, December 19, 2025</div>',
])
def test_a_mastheads_clock_is_not_the_pages_date(clock):
    """A date line named as today's date is the day the page was read (a masthead's or
    footer's clock), not the day it was written: the page's own date line is its date."""
    body = (f"<header>{clock}</header><h1>What are taxes</h1>"
            '<div class="block-content">12.12.2025</div>' + ARTICLE.format(h="Taxes"))
    assert meta_of(body)["published"] == "2025-12-12"
    # "today" alone names a show or a site, not the clock
    body = ('<h1>What are taxes</h1><p class="date today-show">December 19, 2025</p>'
            + ARTICLE.format(h="Taxes"))
    assert meta_of(body)["published"] == "2025-12-19"


@pytest.mark.parametrize("masthead, line, want", [
    # a masthead's day named as a date, then the post's "Published:" line (NFL.com's)
    ('<span class="date-header">Wednesday, November 7 2012</span>',
     '<p class="post-info">Published: November 4th, 2012 | Tags: NFL</p>', "2012-11-04"),
    # the same as short texts of their own (news-gazette.com's)
    ("<h6>Tuesday, December 26, 2006</h6>", "<p>Published DECEMBER 3, 2004</p>", "2004-12-03"),
    # a line after that does not say it is the publication leaves the one above
    ('<span class="date-header">Wednesday, November 7 2012</span>',
     "<p>Sun 4 Nov 2012</p>", "2012-11-07"),
    # nor does an update
    ('<span class="date-header">Wednesday, November 7 2012</span>',
     "<p>Updated: November 4th, 2012</p>", "2012-11-07"),
    # a line above that says it is the publication stays the date
    ('<span class="date-header">Posted November 7 2012</span>',
     "<p>Published: November 4th, 2012</p>", "2012-11-07"),
])
def test_a_bare_date_above_the_content_yields_to_a_published_line_after_it(masthead, line, want):
    html = (f"<html><body><div>{masthead}</div><article><h2>The story</h2><p><b>A</b> "
            f"<i>kicker</i></p>{line}<p>" + "Story text. " * 40 + "</p></article></body></html>")
    snap = static.snapshot_of_html(html, "http://pith.test/p", 10**6)
    article = list(snap.tag).index("article")          # the chosen element, below the masthead
    assert dateline.dateline(snap, np.zeros(snap.n, bool), article, []) == want


def test_a_date_line_that_is_no_update_comes_before_a_nearer_update():
    lines = ('<span class="dateline">DECEMBER 22, 2022</span>'
             '<span class="dateline updated">Updated: JANUARY 02, 2026</span>')

    def date_above_the_article(spans):
        html = (f"<html><body><h1>Meditation</h1><div>{spans}</div><article><p>"
                + "Calm text. " * 40 + "</p></article></body></html>")
        snap = static.snapshot_of_html(html, "http://pith.test/p", 10**6)
        article = list(snap.tag).index("article")      # the chosen element, below the lines
        return dateline.dateline(snap, np.zeros(snap.n, bool), article, [])

    assert date_above_the_article(lines) == "2022-12-22"
    # an update in the other languages whose dates are read
    for update in ("Aggiornato il 02 gennaio 2026", "Atualizado em 2 de janeiro de 2026",
                   "Bijgewerkt op 2 januari 2026", "Aktualizacja: 2 stycznia 2026",
                   "Uppdaterad 2 januari 2026", "Güncellendi: 2 Ocak 2026", "Обновлено 2 января 2026"):
        spans = f'<span class="dateline">22 December 2022</span><span class="dateline">{update}</span>'
        assert date_above_the_article(spans) == "2022-12-22", update
    # an update alone is still the page's date
    assert date_above_the_article('<span class="dateline updated">Updated: JANUARY 02, 2026</span>') \
        == "2026-01-02"


def test_shown_days_read_numeric_dates_in_the_date_lines_order():
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "Posted 3/4/2025"}),
            ("p", 1, {"text": "x " * 50})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    gone = np.zeros(snap.n, bool)
    assert set(dateline.shown_days(snap, gone, 3, {"2025"})) == {"2025-04-03"}
    assert set(dateline.shown_days(snap, gone, 3, {"2025"}, True)) == {"2025-03-04"}
    assert dateline.dateline(snap, gone, 3, [], True) == "2025-03-04"


def test_shown_days_survive_a_nul_in_a_captured_text():
    # a page's script can write U+0000 into the DOM (parsers never do); the days found
    # stay within the window's rows
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "a" + "\0" * 20 + " 2025"}),
            ("p", 1, {"text": "November 14, 2025"}), ("p", 1, {"text": "x " * 50})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    assert "\0" in snap.text[2]
    days = dateline.shown_days(snap, np.zeros(snap.n, bool), 4, {"2025"})
    assert set(days) <= {"2025-11-14"}


def test_dated_lines_are_the_short_texts_and_tails_holding_a_year_in_row_order():
    # one search over both columns' short strings as written finds the lines the
    # lower-cased search of each column found (a year is digits: lower case moves nothing,
    # not even after an "İ", whose lower case is two characters)
    rows = [("html", -1), ("body", 0),
            ("p", 1, {"text": "İSTANBUL, 12 May 2024", "tail": "Posted 2023"}),
            ("b", 1, {"text": "Joined:", "tail": " Dec 11, 2021"}),
            ("p", 1, {"text": "x " * 70 + "2025"}),             # a paragraph, no date line
            ("p", 1, {"text": "Room 1850, floor 3"}),           # no year of the pattern
            ("span", 1, {"text": "", "tail": "\u0130\u0130 5 June 2019"}),
            ("p", 1, {"text": "March 3, 2020"})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    every = np.arange(snap.n)
    lines = dateline.dated_lines(snap, every)
    assert lines == [(2, "text", "İSTANBUL, 12 May 2024"), (7, "text", "March 3, 2020"),
                     (2, "tail", "Posted 2023"), (3, "tail", " Dec 11, 2021"),
                     (6, "tail", "\u0130\u0130 5 June 2019")]
    per_column = [(r, column, snap.cols[column][r]) for column in ("text", "tail")
                  for r in window.matching_rows(snap, column, dates.YEAR, window.short_rows(
                      snap, column, every, dateline.MAX_DATELINE_CHARS)).tolist()]
    assert lines == per_column
    assert dateline.dated_lines(snap, every[:2]) == []
    # the member's joining day is read and left out by its label
    assert dict(dateline.short_dates(snap, lines)) == {2: "2024-05-12", 7: "2020-03-03",
                                                     6: "2019-06-05"}


def test_dated_lines_leave_out_only_strings_that_hold_no_year():
    """dated_lines reads no short string of fewer than YEAR_CHARS non-space characters
    (the whitespace between tags, most short strings): its lines are those of every short
    string searched (the definition), on edge strings (a year alone, one between blanks of
    every kind, three digits, a year in other digits) and random rows."""
    import random

    def every_short(snap, rows):
        strings, where = [], []
        for column in dateline.DATED_COLUMNS:
            at = window.short_rows(snap, column, rows, dateline.MAX_DATELINE_CHARS)
            strings += snap.cols[column][at].tolist()
            where += [(int(r), column) for r in at.tolist()]
        return [(*where[i], strings[i]) for i in
                window.matching_strings(strings, dates.YEAR, lower=False).tolist()]

    edges = ["2024", " 2024 ", "\n\u00a02019\u2003", "\t1999", "202", " 20 ", "", "   \n",
             "\u0662\u0660\u0662\u0664", "20\u0664\u0665", "x2023", "2 0 2 4", "19\n99"]
    rng = random.Random(13)
    for trial in range(80):
        pick = edges if trial == 0 else [rng.choice(edges) for _ in range(rng.randrange(1, 30))]
        rows = [("html", -1), ("body", 0)] + [
            ("span", 1, {"text": t, "tail": rng.choice(edges)}) for t in pick]
        snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
        every = np.arange(snap.n)
        assert dateline.dated_lines(snap, every) == every_short(snap, every), pick
        if trial == 0:
            assert {s for _, _, s in dateline.dated_lines(snap, every)} >= {"2024", " 2024 "}


def test_first_date_is_the_min_over_every_dated_line():
    """dateline.first_date (the lines read nearest first, stopping at the first key a line
    dates) gives what the min over short_dates of every line gave, for the keys the date
    line reads (distance to the element's top, then row; the row): random rows of dates,
    undated years, joining days, clocks, texts and tails of one row with two days."""
    import random
    rng = random.Random(7)
    strings = ["4 March 2024", "March 3, 2020", "Room 2019", "Joined: Dec 11, 2021", "",
               "2023-01-05", "12/05/2022", "May 2024", "Posted 1 June 2021 · 3 min"]
    for trial in range(60):
        rows = [("html", -1), ("body", 0)]
        for _ in range(rng.randrange(1, 40)):
            rows.append((rng.choice(["p", "span", "time"]), 1,
                         {"text": rng.choice(strings), "tail": rng.choice(strings),
                          "cls": rng.choice(["", "meta", "todays-date", "byline"])}))
        snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
        lines = dateline.dated_lines(snap, np.arange(snap.n))
        node = rng.randrange(snap.n)
        for us in (False, True):
            near = min(((abs(r - node), r, d) for r, d in dateline.short_dates(snap, lines, us)),
                       default=None)
            got = dateline.first_date(snap, lines, lambda r: (abs(r - node), r), us)
            assert got == (near[1:] if near else None), (trial, node)
            first = min(dateline.short_dates(snap, lines, us), default=None)
            assert dateline.first_date(snap, lines, int, us) == first, trial


def test_a_clock_is_any_name_of_the_row_its_parent_or_its_rows():
    """dateline.is_clock reads the rows' classes and ids as slices: the answer the names of
    each row in turn gave, on random rows with a clock's class or id here and there."""
    import random
    rng = random.Random(9)
    names = ["", "meta", "Todays-Date", "date-today x", "current_day", "time", "today-show"]
    rows = [("html", -1), ("body", 0)]
    for _ in range(40):                               # a div of four spans, 40 times
        div = len(rows)
        for k in range(5):
            rows.append(("span" if k else "div", div if k else 1,
                         {"cls": rng.choice(names), "id": rng.choice(names)}))
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    for r in range(snap.n):
        for inside in (False, True):
            p = int(snap.parent[r])
            rows_read = ([p] if p >= 0 else []) + (
                list(range(r, min(int(snap.end[r]), r + window.MAX_BYLINE_ROWS))) if inside else [r])
            want = any(dateline.CLOCK_NAMES.search(f"{snap.cls[i]} {snap.id[i]}".lower())
                       for i in rows_read)
            assert dateline.is_clock(snap, r, inside) == want, (r, inside)
