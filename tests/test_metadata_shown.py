"""pith.pipeline.metadata.shown: what a page shows: its byline, date lines, headings and dated texts."""
from __future__ import annotations

import re

import numpy as np
import pytest

from pith.pipeline.metadata import dates, shown
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod

from builders import make_snapshot
from metadata_pages import meta_of, ARTICLE


def test_a_microdata_author_read_from_its_text_ends_at_its_elements_boundary():
    # the name, then a role after a <br>: the name alone; an "Updated by" item is no author
    body = ('<article><h1>EV buying guide</h1><span itemprop="author">By <a href="/keith">Keith '
            'Barry</a><br>Senior Autos Reporter</span><span itemprop="author">Updated by '
            '<a href="/jon">Jon Linkov</a></span><p>' + "Car text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Keith Barry"]
    # a parenthesis after the name is the byline's own ("avec" the co-authors), a role after
    # a <br> is not
    lemonde = ('<article><h1>Renseignement</h1><span itemprop="author"><a href="/journaliste/mu/">'
               'Martin Untersinger</a> (avec Damien Leloup et Morgane Tual)<br><span>Journaliste au '
               'Monde</span></span><p>' + "Texte. " * 40 + "</p></article>")
    assert meta_of(lemonde)["authors"] == ["Martin Untersinger (avec Damien Leloup et Morgane Tual)"]
    assert shown.first_line("Lance Ryan\n(Content Manager)\nMattress tester") == "Lance Ryan (Content Manager)"


@pytest.mark.parametrize("line,names", [
    ("By Jane Doe and John Roe | 4 March 2024", ["Jane Doe", "John Roe"]),
    ("Written by: Dr. Ada Moss", ["Dr. Ada Moss"]),
    ("By Ada Moss, 3 January", ["Ada Moss"]),          # a day without its year is no name
    ("Feb. 27", []),
    ("By admin", []),
    ("By Supermove Last update: February 8, 2025", ["Supermove"]),
    ("Dec. 19, 2025 · Niko Matsakis on behalf of the team", ["Niko Matsakis"]),   # the date first
    ("4 March 2024 | Jane Doe", ["Jane Doe"]),
    ("via\nscvalex", ["scvalex"]),                          # a link aggregator's submitter
    ("By default, all flex items have an", []),             # documentation's sentences
    ("By default, fetch() won't send cookies", []),
    ("By now", []),
    ("By Region", []),                                       # a shop's filter
    ("Door & Window Sensors", []),      # a menu item read as Dutch "door" (by): no first name
    ("Dec 17, 2025\nJulian K. Arni", ["Julian K. Arni"]),    # the date in an element before
    ("October 17, 2023\n6:01 PM ET\nHeard on\nAll Things Considered", []),   # a dateline
    ("by keeping an eye on trends", []),                 # a sentence's gerund, no name
    ("By clicking Post, you agree", []),
    ("Posted by paul at 09:39 PM in Paul scrawl", ["paul"]),   # Blogger's, TypePad's "at" a time
    ("Posted by Roy M. Poses MD at", ["Roy M. Poses MD"]),     # the time in an element after
    ("Posted by Ree in", ["Ree"]),                             # the category in a link after
    ("By Martin Atkins", ["Martin Atkins"]),
    ("raoul\n(raoul)", ["raoul"]),                        # Discourse's full name (user name)
    ("Laubrani (laubrani)", ["Laubrani"]),
    ("Ann Roe (Ann)", ["Ann Roe (Ann)"]),                  # not the same name twice
    ("Created by Cheryl Kerr", ["Cheryl Kerr"]),           # a wiki's or a school page's credit
])
def test_clean_byline(line, names):
    assert shown.clean_byline(line) == names


@pytest.mark.parametrize("lines,names", [
    ("Jane Doe\nSenior autos reporter", ["Jane Doe"]),         # a role in an element of its own
    ("Supermove\nFebruary 8, 2025", ["Supermove"]),            # a date glued to the name
    ("Ada Moss\nLast updated\n4 March", ["Ada Moss"]),
    ("Jane\nDoe", ["Jane Doe"]),                               # given and family name in spans
    ("Jane Doe\n,\nJohn Roe\n| 4 March 2024", ["Jane Doe", "John Roe"]),
    ("Written by\nEdzel Tabing", ["Edzel Tabing"]),
    ("Written by", []),
])
def test_clean_byline_reads_element_boundaries(lines, names):
    assert shown.clean_byline(lines) == names


@pytest.mark.parametrize("byline", [
    '<div><p class="text-grey">Written by</p><p class="text-grey">Edzel Tabing</p></div>',
    '<div><h3>Author</h3><p>Edzel Tabing</p></div>',
])
def test_a_byline_label_in_an_element_of_its_own_names_the_next_one(byline):
    body = "<article><h1>Catering trends</h1>" + byline + "<p>" + "Catering text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["Edzel Tabing"]
    # a form's choices are no byline
    form = '<form><select><option>Author</option><option>Post time</option></select></form>'
    assert meta_of(form + ARTICLE.format(h="Catering trends"))["authors"] == []


def test_a_social_networks_profile_link_is_no_byline():
    follow = '<div class="social"><a href="https://bsky.app/profile/slashdot.org">Bluesky</a></div>'
    byline = '<p>Posted by <a href="https://www.linkedin.com/in/beauhd/">BeauHD</a></p>'
    body = follow + "<article><h1>Grads</h1>" + byline + "<p>" + "Job text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["BeauHD"]
    # the site's own /profile/ pages still name the author
    own = '<p><a href="http://pith.test/profile/jo-bloggs">Jo Bloggs</a></p>'
    assert meta_of("<article><h1>Grads</h1>" + own + "<p>" + "Job text. " * 40 + "</p></article>"
                   )["authors"] == ["Jo Bloggs"]


@pytest.mark.parametrize("href", [
    "http://forum.test/members/pelex.1378134/",                       # XenForo
    "http://forum.test/member.php?s=e3c9&u=224387",                  # vBulletin
    "http://forum.test/memberlist.php?mode=viewprofile&u=421190",    # phpBB
    "http://forum.test/profile.php?id=4711",                         # FluxBB
])
def test_a_forums_link_to_the_posters_profile_names_the_author(href):
    post = (f'<div class="post"><div class="poster"><a class="bigusername" href="{href}">pelex</a>'
            '<span>Member</span></div><div class="message"><p>' + "The first post of a thread. " * 20
            + "</p></div></div>")
    assert meta_of("<h1>Best hosts</h1>" + post, url="http://forum.test/threads/best-hosts.1/"
                   )["authors"] == ["pelex"]


def test_a_by_line_is_read_whatever_its_class_names():
    body = ("<article><h1>New restaurants</h1><p class='inline-list page-header__meta'>"
            "<span class='inline-list__item'>By <a href='/producers/sofia-gonzalez'>Sofia Gonzalez</a>"
            "</span></p><p>" + "Restaurant text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Sofia Gonzalez"]


@pytest.mark.parametrize("value", ["undefined", "null", "default", "None", "admin", "Webmaster",
                                   "Administrator"])
def test_a_scripts_or_themes_placeholder_is_no_declared_author(value):
    assert shown.clean_declared_author(value) is None
    assert shown.clean_declared_author("Jo Default") == "Jo Default"
    assert shown.clean_declared_author("adminn") == "adminn"     # a user's own name stays


def test_a_class_word_inside_a_longer_word_does_not_exclude_a_byline():
    # "job" (a job title) inside "jobber", a theme's name: the author span is a byline
    body = ('<article><h1>Cleaning trends</h1><div class="wp-block-jobber-hero__author-wrapper">'
            '<span class="wp-block-jobber-academy-post-hero__author">Lisa Pham</span></div><p>'
            + "Cleaning text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Lisa Pham"]
    # the words themselves, and their plurals, still exclude ("author-bio", "authors-list")
    for cls in ("author-bio", "authors-list", "author_box", "post-author-avatars"):
        assert shown.NOT_BYLINE_NAMES.search(cls), cls
    for cls in ("jobber-author", "post-author controller"):
        assert not shown.NOT_BYLINE_NAMES.search(cls), cls


def test_the_name_inside_an_author_box_is_a_byline():
    # the box (avatar, bio) is no byline, the element its class calls the name is
    box = ('<div class="elementor-author-box"><div class="elementor-author-box__avatar"><img src="a.jpg">'
           '</div><div class="elementor-author-box__text"><h4 class="elementor-author-box__name">Liz Kenny'
           '</h4><div class="elementor-author-box__bio"><p>Former McKinsey Consultant</p></div></div></div>')
    body = "<article><h1>Pros and cons of consulting</h1><p>" + "Consulting text. " * 40 + "</p>" + box + "</article>"
    assert meta_of(body)["authors"] == ["Liz Kenny"]


def test_a_link_to_the_sites_team_page_names_the_author():
    line = ('<div class="post-about"><a href="/blog-category/wine-101">Wine 101</a><div>December 14, 2025'
            '</div><a href="/team/matthew-check" class="link-9">Matt Check</a></div>')
    body = "<article>" + line + "<h1>Wine for beginners</h1><p>" + "Wine text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["Matt Check"]


def test_a_forum_posts_user_name_class_names_the_author_but_not_the_readers_account():
    post = ('<article><div class="PostUser"><h3 class="PostUser-name">antonjw</h3></div>'
            '<div class="Post-body"><p>' + "I just joined today and posted ideas. " * 12 + "</p></div></article>")
    assert meta_of("<h1>Types of threads</h1>" + post)["authors"] == ["antonjw"]
    menu = ('<header><a class="gnb__utility-user js-user-name js-account"><span class="hidden">'
            'Open My Menu</span></a></header>')
    assert meta_of(menu + ARTICLE.format(h="Galaxy Tab S9 FE"))["authors"] == []
    assert not shown.ACCOUNT_NAMES.search("bloginfo author")      # a word, not a substring


@pytest.mark.parametrize("line", ["Member Login", "Sign in", "Log in"])
def test_an_account_links_words_are_no_name(line):
    assert shown.clean_byline(line) == []
    body = (f'<nav><a href="https://members.test/s/#/profile/my_info">{line}</a></nav>'
            + ARTICLE.format(h="Weight loss medications"))
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("line", ["See full bio", "View Profile", "View all posts by Becky",
                                  "→ Learn More", "Sign up for free trial", "More from",
                                  "Joined", "Posts: 7", "Reputation", "RSS"])
def test_a_call_to_action_or_a_posters_label_is_no_name(line):
    assert shown.clean_byline(line) == []


@pytest.mark.parametrize("name", ["Seema Patel", "Reader Kim", "Bookman Lee", "Shopa Diaz",
                                  "Joinery Smith", "Feedback Jones", "Logan Jones"])
def test_names_that_start_like_a_call_to_action_stay_names(name):
    assert shown.clean_byline(f"By {name}") == [name]


@pytest.mark.parametrize("flags", ["has-comments", "comments-open", "no-comments has-tags"])
def test_a_posts_flag_about_its_comments_is_no_comment(flags):
    # Squarespace's blog post: "has-comments" on the post, the author link inside its meta
    body = (f'<article class="BlogItem hentry {flags}"><h1>Ethical brands</h1>'
            "<p>" + "Brand text. " * 40 + "</p>"
            '<div class="Blog-meta"><a class="Blog-meta-item Blog-meta-item--author" '
            'href="/blog?author=57b5">Kristen</a></div></article>')
    assert meta_of(body)["authors"] == ["Kristen"]
    # a comment's own class still marks a commenter
    assert meta_of(body.replace(f"BlogItem hentry {flags}", "comment-body"))["authors"] == []


def test_a_letter_avatars_initial_is_no_name():
    assert shown.clean_byline("R") == [] and shown.clean_byline("J.") == []
    assert shown.clean_byline("By Smith, J.") == ["Smith"]
    # a forum post's round badge with the poster's initial, a user-name class on both
    post = ('<article><h1>Which drill?</h1><div class="post-user"><a class="user-name" '
            'href="/u/sean_g"><span>S</span></a><a class="user-name" href="/u/sean_g">sean_g</a>'
            "</div><p>" + "Drill text. " * 40 + "</p></article>")
    assert meta_of(post)["authors"] == ["sean_g"]


def test_an_author_link_reading_view_profile_yields_to_the_next_one():
    # a profile button linking the author's page before the name's own link (Gawker's,
    # TechCrunch's "View Staff Page", CNET's "See full bio")
    body = ('<article><h1>Grads</h1><div class="author-card"><a href="/author/jane-doe/">View Profile</a>'
            '</div><p>Posted by <a href="/author/jane-doe/">Jane Doe</a></p>'
            "<p>" + "Job text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Jane Doe"]


def test_a_byline_whose_name_and_date_sit_in_spans_of_their_own():
    body = ('<div class="author"><span>Kim Lee</span><span>March 3, 2024</span></div>'
            + ARTICLE.format(h="Tides"))
    assert meta_of(body)["authors"] == ["Kim Lee"]


@pytest.mark.parametrize("declared,name", [
    ('"David Kim"', "David Kim"),
    ("Jo Writer - Editorial Team", "Jo Writer"),
    ("user3080392", "user3080392"),                      # a forum's user name stays
    ("jo.p", "jo.p"),
    ("page.head.extra.author", None),                    # a template's placeholder
    ("{{ author }}", None),
    ("12345", None),
])
def test_clean_declared_author(declared, name):
    assert shown.clean_declared_author(declared) == name


def test_shown_byline_date_line_and_url_date():
    body = ('<article><h1>Tides</h1><p class="post-meta">Posted by <a href="/author/sam-tide">Sam Tide</a></p>'
            '<p>February 4, 2025 - 11 minutes</p><p>' + "Tide text. " * 40 + "</p></article>")
    m = meta_of(body, url="http://pith.test/2019/01/02/tides")
    assert m["authors"] == ["Sam Tide"] and m["published"] == "2025-02-04"
    assert meta_of(ARTICLE.format(h="T"), url="http://pith.test/2019/01/02/t")["published"] == "2019-01-02"


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
    assert shown.dateline(snap, np.zeros(snap.n, bool), article, []) == want


def test_a_date_line_that_is_no_update_comes_before_a_nearer_update():
    lines = ('<span class="dateline">DECEMBER 22, 2022</span>'
             '<span class="dateline updated">Updated: JANUARY 02, 2026</span>')

    def date_above_the_article(spans):
        html = (f"<html><body><h1>Meditation</h1><div>{spans}</div><article><p>"
                + "Calm text. " * 40 + "</p></article></body></html>")
        snap = static.snapshot_of_html(html, "http://pith.test/p", 10**6)
        article = list(snap.tag).index("article")      # the chosen element, below the lines
        return shown.dateline(snap, np.zeros(snap.n, bool), article, [])

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
    assert set(shown.shown_days(snap, gone, 3, {"2025"})) == {"2025-04-03"}
    assert set(shown.shown_days(snap, gone, 3, {"2025"}, True)) == {"2025-03-04"}
    assert shown.dateline(snap, gone, 3, [], True) == "2025-03-04"


def test_shown_days_survive_a_nul_in_a_captured_text():
    # a page's script can write U+0000 into the DOM (parsers never do); the days found
    # stay within the window's rows
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "a" + "\0" * 20 + " 2025"}),
            ("p", 1, {"text": "November 14, 2025"}), ("p", 1, {"text": "x " * 50})]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    assert "\0" in snap.text[2]
    days = shown.shown_days(snap, np.zeros(snap.n, bool), 4, {"2025"})
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
    lines = shown.dated_lines(snap, every)
    assert lines == [(2, "text", "İSTANBUL, 12 May 2024"), (7, "text", "March 3, 2020"),
                     (2, "tail", "Posted 2023"), (3, "tail", " Dec 11, 2021"),
                     (6, "tail", "\u0130\u0130 5 June 2019")]
    per_column = [(r, column, snap.cols[column][r]) for column in ("text", "tail")
                  for r in shown.matching_rows(snap, column, dates.YEAR, shown.short_rows(
                      snap, column, every, shown.MAX_DATELINE_CHARS)).tolist()]
    assert lines == per_column
    assert shown.dated_lines(snap, every[:2]) == []
    # the member's joining day is read and left out by its label
    assert dict(shown.short_dates(snap, lines)) == {2: "2024-05-12", 7: "2020-03-03",
                                                     6: "2019-06-05"}


def test_first_date_is_the_min_over_every_dated_line():
    """shown.first_date (the lines read nearest first, stopping at the first key a line
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
        lines = shown.dated_lines(snap, np.arange(snap.n))
        node = rng.randrange(snap.n)
        for us in (False, True):
            near = min(((abs(r - node), r, d) for r, d in shown.short_dates(snap, lines, us)),
                       default=None)
            got = shown.first_date(snap, lines, lambda r: (abs(r - node), r), us)
            assert got == (near[1:] if near else None), (trial, node)
            first = min(shown.short_dates(snap, lines, us), default=None)
            assert shown.first_date(snap, lines, int, us) == first, trial


def test_a_clock_is_any_name_of_the_row_its_parent_or_its_rows():
    """shown.is_clock reads the rows' classes and ids as slices: the answer the names of
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
                list(range(r, min(int(snap.end[r]), r + shown.MAX_BYLINE_ROWS))) if inside else [r])
            want = any(shown.CLOCK_NAMES.search(f"{snap.cls[i]} {snap.id[i]}".lower())
                       for i in rows_read)
            assert shown.is_clock(snap, r, inside) == want, (r, inside)


def test_matching_names_searches_each_distinct_name_once_and_answers_every_row():
    """matching_names finds the rows matching_rows finds (classes repeated over rows, ids
    mostly empty, names in any case), and searches each distinct name once."""
    import random
    import re
    rng = random.Random(11)
    names = ["byline", "Post-Meta", "entry-date", "author-box", "", "", "card", "BYLINE x",
             "published-on", "nav", "date", "writer2"]
    rows = [("html", -1), ("body", 0)] + [
        ("div", 1, {"cls": rng.choice(names), "id": rng.choice(names)}) for _ in range(300)]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    window = np.arange(2, 302)
    for column in ("cls", "id"):
        for rx in (shown.BYLINE_NAMES, shown.DATE_NAMES):
            want = shown.matching_rows(snap, column, rx, window)
            assert len(want) and shown.matching_names(snap, column, rx, window).tolist() == want.tolist()

    class Counting:                      # a pattern that counts the strings it is given
        def __init__(self, rx):
            self.rx, self.searched = rx, []

        def finditer(self, text):
            self.searched.append(text)
            return self.rx.finditer(text)
    counting = Counting(shown.DATE_NAMES)
    shown.matching_names(snap, "cls", counting, window)
    assert len(counting.searched) == 1
    assert counting.searched[0].count("\n") == len(set(snap.cls[window].tolist()))
    assert shown.matching_names(snap, "cls", re.compile("x"), window[:0]).tolist() == []


def test_window_names_are_prepared_once_per_element_and_answer_as_matching_rows():
    """The byline's class words and the date line search the distinct names around the
    chosen element prepared once (window_names, remembered per snapshot and element): each
    pattern's rows are matching_rows's over `around` that element, for another element
    another window's; and the byline's "By" lines and credit sentences search one
    preparation of the short texts (Rows) with matching_rows's answers."""
    import random
    rng = random.Random(5)
    names = ["byline", "Post-Meta", "entry-date", "author-box", "", "", "card", "BYLINE x",
             "published-on", "nav", "date", "writer2", "Écrivain-date"]
    texts = ["By Jane Doe", "", "Written by Ann Roe", "March 3, 2024", "Share", "BY İLKER"]
    rows = [("html", -1), ("body", 0)] + [
        ("div", 1, {"cls": rng.choice(names), "id": rng.choice(names), "text": rng.choice(texts)})
        for _ in range(1200)]
    snap = snapshot_mod.from_json(make_snapshot(rows), 5000)
    for node in (1, 900, 1, 1100):
        prepared = shown.window_names(snap, "cls", node)
        assert shown.window_names(snap, "cls", node) is prepared
        for column in ("cls", "id"):
            for rx in (shown.BYLINE_NAMES_TRIE, shown.DATE_NAMES_TRIE):
                want = shown.matching_rows(snap, column, rx, shown.around(snap, node))
                got = shown.window_names(snap, column, node).matching(rx)
                assert len(want) and got.tolist() == want.tolist()
    assert shown.window_names(snap, "cls", 1) is not shown.window_names(snap, "cls", 900)
    short = shown.short_rows(snap, "text", shown.around(snap, 1), shown.MAX_BYLINE_CHARS * 2)
    prepared = shown.Rows(snap, "text", short)
    for rx in (shown.BY_TEXT, shown.CREDIT_CUE, re.compile("İlker")):
        want = shown.matching_rows(snap, "text", rx, short)
        assert len(want) and prepared.matching(rx).tolist() == want.tolist()
    assert shown.Rows(snap, "text", short[:0]).matching(shown.BY_TEXT).tolist() == []


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


def test_a_line_break_in_the_headline_is_a_space():
    body = "<article><h1><span>News Product<br>Management Certification</span></h1><p>" + \
        "Course text. " * 40 + "</p></article>"
    m = meta_of(body, title="News Product Management Certification — News Product Alliance")
    assert m["title"] == "News Product Management Certification"
    snap = static.snapshot_of_html("<p>a<br>b</p>", "http://pith.test/", 100)
    assert shown.text_of(snap, list(snap.tag).index("p")) == "a b"


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


def test_matching_strings_maps_hits_to_their_strings_after_a_longer_lower_case():
    # "İ" lower-cases to two code points; the hit in the third string stays the third's
    strings = ["İ" * 20, "posted by Ada", "x" * 40]
    assert shown.matching_strings(strings, shown.BY_TEXT).tolist() == [1]


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


def test_matching_strings_lower_cases_each_string_as_the_joined_text():
    """matching_strings lower-cases each string alone (str.lower's slow path only for the
    strings beyond ASCII) and finds what the lower-cased joined text (lower_in_place,
    positions kept) finds: the same strings on random lists of ASCII, a final sigma
    before a newline, a dotted I (whose lower case grows), the Kelvin sign and ß."""
    from pith.pipeline.features import lower_in_place
    rng = np.random.default_rng(11)
    alphabet = ["By ", "by", "BY", "x", " ", "\t", "Σ", "ΣΑ", "İ", "\u212a", "ß", "é", "\n", "2024"]
    rx = re.compile(r"\n[ \t]*by[ \t\n]|σ|ς|k|2024")
    for _ in range(500):
        strings = ["".join(rng.choice(alphabet, size=int(rng.integers(0, 5))))
                   for _ in range(int(rng.integers(0, 8)))]
        big = lower_in_place("\n" + "\n".join(strings))
        starts = np.cumsum([0] + [len(s) + 1 for s in strings])
        want = sorted({int(np.searchsorted(starts, m.start(), side="right") - 1)
                       for m in rx.finditer(big)})
        assert shown.matching_strings(strings, rx).tolist() == want, strings


# --- bylines left out: menus, forms, sentences, date labels (NOTES.md, 'Why a byline is
# no menu item, and other bylines left out')

@pytest.mark.parametrize("menu", [
    '<nav><ul><li><a href="/shop/brands">By Brand</a></li><li><a href="/shop/styles">By Style</a></li></ul></nav>',
    '<div role="navigation"><p class="header-sub-menu-title">By Domain</p></div>',
    '<nav><a class="dropdown-item" href="/people/faculty">People</a></nav>',    # a people page's link
])
def test_a_menus_by_item_or_people_link_is_no_byline(menu):
    assert meta_of(menu + ARTICLE.format(h="Rentals"))["authors"] == []
    # the article's own byline below the menu is still read
    body = menu + '<article><h1>Rentals</h1><p>By <a href="/author/kim-lee">Kim Lee</a></p><p>' \
        + "Rental text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["Kim Lee"]


def test_a_forms_control_is_no_byline():
    button = '<button class="btn" id="author-review">write a review</button>'
    assert meta_of(button + ARTICLE.format(h="Graphics card"))["authors"] == []


@pytest.mark.parametrize("line,names", [
    ("By the end of this tutorial, you'll have", []),   # a lower-case article first
    ("This review is posted in\nMobile App Reviews", []),   # a verb inside
    ("By the Lavazza Team", ["the Lavazza Team"]),          # "the" before a name stays
    ("Last Updated:\nJanuary 7, 2025", []),                 # a date line's label
    ("Published\nMarch 3, 2024", []),
    ("By Ana de la Cruz", ["Ana de la Cruz"]),              # lower-case particles stay
])
def test_a_sentences_or_date_labels_words_are_no_name(line, names):
    assert shown.clean_byline(line) == names


def test_a_class_naming_authoring_or_authorization_is_no_byline():
    body = ('<h4 id="authoring-applications">Authoring applications</h4>'
            '<h4 class="authorization-header">Authorization header</h4>' + ARTICLE.format(h="Tokio"))
    assert meta_of(body)["authors"] == []
    assert shown.BYLINE_NAMES.search("post-author") and shown.BYLINE_NAMES.search("authors")


@pytest.mark.parametrize("credit,name", [
    ('<p><em>This post was written by <a href="/find-a-provider/vm">Vanessa Mendez, MD</a>, '
     'gastroenterologist, Parkview Health.</em></p>', ["Vanessa Mendez"]),
    ('<div class="author-bio">This post was written by Danielle Padula, Head of Marketing and '
     'Community Development</div>', ["Danielle Padula"]),
    ('<p>This article was written by a human, not a model.</p>', []),      # no name after it
])
def test_a_sentence_crediting_the_author_names_them(credit, name):
    body = "<article><h1>Plant-based diets</h1><p>" + "Diet text goes on. " * 40 + "</p>" + credit + "</article>"
    assert meta_of(body)["authors"] == name


@pytest.mark.parametrize("label", ["Author(s)", "Authors", "Autoren"])
def test_a_plural_author_label_in_an_element_of_its_own_names_the_next_one(label):
    line = (f'<div class="hero"><h6>{label}</h6><ul><li><a href="/library/?q=1">John A. Alic</a></li>'
            '<li><a href="/library/?q=2">David C. Mowery</a></li></ul></div>')
    body = "<article><h1>Innovation policies</h1>" + line + "<p>" + "Policy text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["John A. Alic"]


@pytest.mark.parametrize("review", [
    '<section class="product-reviews"><article class="product-review"><footer class="product-review__footer">'
    '<div class="product-review__byline">by sam colegrove on November 24, 2025</div></footer>'
    '<p>Great interface.</p></article></section>',
    '<ol class="commentlist"><li class="review even"><div class="comment_container"><p class="meta">'
    '<strong class="woocommerce-review__author">CLAUDIO</strong></p></div></li></ol>',
])
def test_a_reviews_or_comments_author_is_not_the_pages(review):
    body = "<article><h1>Audio interface</h1><p>" + "Product text. " * 40 + "</p>" + review + "</article>"
    assert meta_of(body)["authors"] == []


def test_a_posts_category_class_naming_reviews_is_no_review():
    # WordPress files the post under "Reviews": its own byline stays
    body = ('<article class="post category-sewing-machine-reviews"><header class="entry-header">'
            '<span class="posted-by"><span class="meta-label">By</span> <a href="/author/akc">Angela Kaye '
            'Carpenter</a></span></header><h1>Sewing machines</h1><p>' + "Sewing text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Angela Kaye Carpenter"]


@pytest.mark.parametrize("line,names", [
    ("作者：张三", ["张三"]),
    ("文/李四、王五", ["李四", "王五"]),
    ("记者 | 王五 2024-01-03", ["王五"]),
])
def test_a_chinese_or_japanese_byline_label_names_the_author(line, names):
    assert shown.clean_byline(line) == names
    body = f"<article><h1>新闻</h1><p>{line}</p><p>" + "这是文章的正文内容。" * 40 + "</p></article>"
    assert meta_of(body, lang="zh")["authors"] == names


# --- a byline's co-authors, a forum's dotted user name, a label under the post (NOTES.md,
# 'Why a byline reads its co-authors, a forum's dotted user name and a label under the post')

@pytest.mark.parametrize("line", [
    # a list of author links (energysage's "Written by:"), the nearest link the last
    '<div><span>Written by: <ul><li><a href="/authors/emily-walker/">Emily Walker</a></li>'
    '<li><a href="/authors/casey-mcdevitt/">Casey McDevitt</a></li></ul></span></div>',
    # links inside one line
    '<p>By <a href="/author/emily-walker">Emily Walker</a> and '
    '<a href="/author/casey-mcdevitt">Casey McDevitt</a></p>',
])
def test_every_author_link_of_the_nearest_byline_in_the_pages_order(line):
    body = f"<article>{line}<h1>Solar panels</h1><p>" + "Solar text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == ["Emily Walker", "Casey McDevitt"]


def test_an_author_link_of_another_byline_or_role_is_no_coauthor():
    # an editor's link in the next element, a teaser's author further away: not read
    body = ('<article><div><div><span>Written by <a href="/authors/emily-walker/">Emily '
            'Walker</a></span></div><div><span>Edited by: <a href="/authors/kris-zag/">Kris '
            'Zag</a></span></div></div><h1>Solar panels</h1><p>' + "Solar text. " * 40 +
            '</p></article>')
    assert meta_of(body)["authors"] == ["Emily Walker"]


@pytest.mark.parametrize("href", ["./memberlist.php?mode=viewprofile&u=421190", "/members/b.scherer.77/",
                                  "/member.php?u=12", "/profile.php?id=5"])
def test_a_forum_posters_dotted_user_name_is_a_name(href):
    # phpBB's first post by "b.scherer": the user name, not a template's key
    post = ('<article><h1>Which boot order?</h1><div class="poster"><a class="username" '
            f'href="{href}">b.scherer</a></div><p>' + "Boot text. " * 40 + "</p></article>")
    assert meta_of(post)["authors"] == ["b.scherer"]


def test_a_dotted_key_outside_a_forums_profile_link_is_no_name():
    body = ('<article><h1>Docs</h1><p>By <a href="/author/x/">page.author</a></p><p>'
            + "Doc text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("label", ["Written by", "Article written by:", "Author(s)", "Authors"])
def test_a_byline_label_alone_after_the_content_names_the_next_element(label):
    # an author box under the post, when nothing above the content names anyone
    body = ("<article><h1>Weight loss medications</h1><p>" + "Dose text. " * 40 + "</p></article>"
            f'<div class="box"><h2>{label}</h2><div><h3>Doris Munoz-Mantilla, MD</h3>'
            "<p>Obesity medicine physician.</p></div></div>")
    assert meta_of(body)["authors"][0] == "Doris Munoz-Mantilla"


@pytest.mark.parametrize("after", [
    '<div><p>By Collection</p><p>Summer Dresses</p></div>',       # a "By" line with its words
    '<div><h2>Written by</h2></div><p>Sign up for our newsletter</p>',   # no next element
    '<div><h2>About the author</h2><p>She is a doctor who writes.</p></div>',
])
def test_no_byline_is_read_after_the_content_from_a_by_line_or_a_lone_label(after):
    body = "<article><h1>Dresses</h1><p>" + "Dress text. " * 40 + "</p></article>" + after
    assert meta_of(body)["authors"] == []


def test_a_byline_above_the_content_comes_before_a_label_after_it():
    body = ('<article><h1>Dresses</h1><p>By <a href="/author/ann-roe">Ann Roe</a></p><p>'
            + "Dress text. " * 40 + '</p></article><div><h2>Written by</h2><p>Jo Lee</p></div>')
    assert meta_of(body)["authors"] == ["Ann Roe"]


@pytest.mark.parametrize("line,names", [
    ("By Doris Munoz-Mantilla, MD, FOMA, DABOM", ["Doris Munoz-Mantilla"]),
    ("Shelby Loos, DVM and Molly Price", ["Shelby Loos", "Molly Price"]),
    ("By Jane Doe, Ph.D.", ["Jane Doe"]),
    ("Trevor Brown, HB Retrofit, LLC", ["Trevor Brown", "HB Retrofit"]),
    ("By CHRISTINA NG and DAN HARRIS", ["CHRISTINA NG", "DAN HARRIS"]),   # capitals, not after a comma
    ("By MSNBC", ["MSNBC"]),                                              # a name alone stays
])
def test_a_names_post_nominals_are_no_names(line, names):
    assert shown.clean_byline(line) == names
