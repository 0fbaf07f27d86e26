"""pith.pipeline.metadata.merge: the page's metadata from its sources, their precedence, and the title's choice."""
from __future__ import annotations

import json
import re

import pytest

from pith.pipeline.metadata import dates, merge
from pith.pages import static
from pith.pipeline.options import Options
from pith.pipeline.select import select

from metadata_pages import meta_of, ARTICLE


def test_organisation_authors_come_after_a_shown_byline():
    ld = ('<script type="application/ld+json">{"@type": "Article", "headline": "H", '
          '"author": {"@type": "Organization", "name": "Big Corp"}}</script>')
    body = '<article><h1>H</h1><p class="byline">By Jane Roe</p><p>' + "Text goes on. " * 30 + "</p></article>"
    assert meta_of(body, head=ld)["authors"] == ["Jane Roe"]
    assert meta_of(ARTICLE.format(h="H"), head=ld)["authors"] == ["Big Corp"]


def test_a_utc_time_a_day_off_the_urls_day_takes_the_urls_day():
    head = '<meta property="article:published_time" content="2025-12-19T02:41:41+00:00">'
    url = "https://blog.test/2025/12/18/a-post"
    assert meta_of(ARTICLE.format(h="x"), head=head, url=url)["published"] == "2025-12-18"
    # the same day, or days apart (a post moved or re-dated): the declared value stands
    assert meta_of(ARTICLE.format(h="x"), head=head, url="https://blog.test/2025/12/19/p"
                   )["published"] == "2025-12-19T02:41:41+00:00"
    assert meta_of(ARTICLE.format(h="x"), head=head, url="https://blog.test/2025/12/01/p"
                   )["published"] == "2025-12-19T02:41:41+00:00"


def test_a_page_read_without_its_address_is_dated_by_the_address_it_declares():
    # a saved WordPress post, no date shown or declared but its permalink's
    canonical = '<link rel="canonical" href="http://blog.test/2012/11/05/hospital-quality/">'
    for head in (canonical, '<meta property="og:url" content="http://blog.test/2012/11/05/q/">'):
        assert meta_of(ARTICLE.format(h="Quality"), head=head, url="")["published"] == "2012-11-05"
    # the address it was read at comes first
    assert meta_of(ARTICLE.format(h="Quality"), head=canonical,
                   url="http://blog.test/2012/11/06/q/")["published"] == "2012-11-06"
    assert meta_of(ARTICLE.format(h="Quality"), url="")["published"] is None


def test_a_shown_day_a_day_off_the_declared_addresss_day_takes_the_addresss():
    # the only date shown is the first comment's, posted after midnight
    canonical = '<link rel="canonical" href="http://blog.test/2012/10/28/food-for-storms/">'
    body = (ARTICLE.format(h="Food for storms")
            + '<div class="comments"><p class="info">On October 29, 2012 at 2:35am, Ann said</p></div>')
    assert meta_of(body, head=canonical, url="")["published"] == "2012-10-28"


def test_an_undeclared_pages_address_day_comes_before_a_date_it_only_shows():
    # a blog whose masthead shows the day it was read; its permalink names the post's day
    canonical = '<link rel="canonical" href="http://blogs.test/2012/11/04/week-9-feedback/">'
    body = ('<header><span class="date-header">Wednesday, November 7 2012</span></header>'
            + ARTICLE.format(h="Week 9 feedback"))
    assert meta_of(body, head=canonical, url="")["published"] == "2012-11-04"
    assert meta_of(body, url="http://blogs.test/2012/11/04/week-9-feedback/")["published"] \
        == "2012-11-04"
    # a date line naming the address's day keeps its time; a declared date comes first
    assert merge.address_day("2012-11-04T13:29:00-04:00", "2012-11-04") == "2012-11-04T13:29:00-04:00"
    assert merge.address_day("2012-11-07", None) == "2012-11-07"
    head = canonical + '<meta property="article:published_time" content="2012-11-06">'
    assert meta_of(body, head=head, url="")["published"] == "2012-11-06"


def test_a_day_declared_without_a_time_stays_a_day_off_the_urls():
    # a newspaper's URL names the print edition's day; the page declares and shows its own
    head = '<meta itemprop="datePublished" content="2012-07-24">'
    body = ('<article><h1>Editors charged</h1><p class="dateline">Published: July 24, 2012</p><p>'
            + "Words of the article go on for a while here. " * 8 + "</p></article>")
    url = "http://news.test/2012/07/25/world/editors-charged.html"
    assert meta_of(body, head=head, url=url)["published"] == "2012-07-24"
    assert merge.local_day("2012-07-24", "2012-07-25", ["2012-07-24"]) == "2012-07-24"
    # a UTC time, or a day only shown, still takes the URL's adjacent day
    assert merge.local_day("2012-07-24T23:10:00+00:00", "2012-07-25", ["2012-07-24T23:10:00+00:00"]) \
        == "2012-07-25"
    assert merge.local_day("2012-07-24", "2012-07-25", []) == "2012-07-25"


def test_the_one_shown_day_replaces_a_declared_day_only_when_it_is_earlier():
    # a Discourse thread declares its first post's day; the one full day it shows is the
    # closing notice's, three days later
    head = '<meta property="article:published_time" content="2022-05-07T03:00:45+00:00">'
    body = ('<div class="post-stream"><h1>Run two studios</h1><p>' + "The question's words. " * 30
            + '</p><p class="small-action">Closed on <span class="date">May 10, 2022</span></p></div>')
    assert meta_of(body, head=head)["published"] == "2022-05-07T03:00:45+00:00"
    assert merge.shown_alone("2022-05-07", "2022-05-10", {"2022-05-10": False}) == "2022-05-07"
    # shown before it: the page's own day (the declared one its import's)
    assert merge.shown_alone("2022-05-07", "2000-04-24", {"2000-04-24": False}) == "2000-04-24"


def test_an_author_named_like_the_site_is_kept_when_nothing_else_names_one():
    head = ('<meta property="og:site_name" content="Sam Bossley">'
            '<meta name="author" content="Sam Bossley">')
    assert meta_of(ARTICLE.format(h="Thoughts on Zig"), head=head)["authors"] == ["Sam Bossley"]
    # a shown byline naming a person wins over the site's name
    body = '<p class="byline">By Kim Lee</p>' + ARTICLE.format(h="Thoughts on Zig")
    assert meta_of(body, head=head)["authors"] == ["Kim Lee"]


def test_a_declared_modified_date_is_the_published_one_when_nothing_else_dates_the_page():
    head = '<meta property="article:modified_time" content="2023-06-12T10:39:42+00:00">'
    m = meta_of(ARTICLE.format(h="Work"), head=head)
    assert m["published"] == "2023-06-12T10:39:42+00:00" and m["modified"] == m["published"]
    # a shown date, or the URL's, comes first
    assert meta_of(ARTICLE.format(h="Work"), head=head,
                   url="http://pith.test/2019/01/02/w")["published"] == "2019-01-02"


def test_the_declared_modified_date_when_the_page_shows_it_as_its_date():
    head = ('<meta property="article:published_time" content="2024-09-06">'
            '<meta property="article:modified_time" content="2025-11-14">')
    shown_as = "<article><h1>Trends</h1><p>{}</p><p>" + "Trend text. " * 40 + "</p></article>"
    assert meta_of(shown_as.format("November 14, 2025"), head=head)["published"] == "2025-11-14"
    # shown as an update, or beside the publish date, or not at all: the publish date stands
    for line in ("Updated on November 14, 2025", "September 6, 2024 · November 14, 2025",
                 "Nine minutes"):
        assert meta_of(shown_as.format(line), head=head)["published"] == "2024-09-06"
    label = "<article><h1>Trends</h1><p><span>Last updated:</span> November 14, 2025</p><p>"
    assert meta_of(label + "Trend text. " * 40 + "</p></article>", head=head)["published"] == "2024-09-06"
    classed = "<article><h1>Trends</h1><p><span class='entry-date updated'>November 14, 2025</span></p><p>"
    assert meta_of(classed + "Trend text. " * 40 + "</p></article>", head=head)["published"] == "2024-09-06"

    # any other declared date the page shows: a second source's publish date
    ld = ('<script type="application/ld+json">{"@type": "Article", "datePublished": "2024-08-29"}'
          '</script><meta name="date" content="2025-11-25">')
    assert meta_of(shown_as.format("Nov 25, 2025 5:00 am PST"), head=ld)["published"] == "2025-11-25"
    assert meta_of(shown_as.format("Nine minutes"), head=ld)["published"] == "2024-08-29"


def test_a_shown_update_replaces_a_publish_date_only_json_ld_declares_and_never_shows():
    ld = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
          '"2024-04-10T19:30:39+00:00", "dateModified": "2025-09-04T10:00:00+00:00"}</script>')
    page = "<article><h1>Predictions</h1><p>{}</p><p>" + "Prediction text. " * 40 + "</p></article>"
    # the page shows only its update: readers (and the labels) date it so
    assert meta_of(page.format("Updated: September 4, 2025"), head=ld)["published"] \
        == "2025-09-04T10:00:00+00:00"
    # a <meta> publish date is the page's own word, whatever it shows
    og = '<meta property="article:published_time" content="2024-04-10T19:30:39+00:00">'
    assert meta_of(page.format("Updated: September 4, 2025"), head=ld + og)["published"] \
        == "2024-04-10T19:30:39+00:00"
    # shown publish date, or no date shown at all: the declared publish date stands
    for line in ("April 10, 2024 · Updated: September 4, 2025", "Nine minutes"):
        assert meta_of(page.format(line), head=ld)["published"] == "2024-04-10T19:30:39+00:00"
    # a second source's publish date shown beside "Updated" is the page's date
    second = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
              '"2018-04-03T16:50:31Z"}</script>'
              '<meta property="article:published_time" content="2025-12-19T18:06:00Z">')
    assert meta_of(page.format("Updated: Dec 19, 2025"), head=second)["published"] \
        == "2025-12-19T18:06:00+00:00"
    # unless it is the same instant in another zone, a day off the first one
    zone = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
            '"2026-02-23T00:57:30Z"}</script>'
            '<meta property="article:published_time" content="2026-02-22T19:57:30-05:00">')
    assert meta_of(page.format("Updated: February 22, 2026"), head=zone)["published"] \
        == "2026-02-23T00:57:30+00:00"


def test_a_shown_update_no_source_declares_replaces_an_unshown_json_ld_publish_date():
    ld = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
          '"2025-05-19T22:12:02+00:00", "dateModified": "2025-11-20T10:00:00+00:00"}</script>')
    page = "<article><h1>Appliances</h1><p>{}</p><p>" + "Appliance text. " * 40 + "</p></article>"
    assert meta_of(page.format("Updated August 14, 2025"), head=ld)["published"] == "2025-08-14"
    # a <meta> publish date stands; so does a publish date the page shows
    og = '<meta property="article:published_time" content="2025-05-19T22:12:02+00:00">'
    assert meta_of(page.format("Updated August 14, 2025"), head=ld + og)["published"] \
        == "2025-05-19T22:12:02+00:00"
    assert meta_of(page.format("May 19, 2025 · Updated August 14, 2025"), head=ld)["published"] \
        == "2025-05-19T22:12:02+00:00"


def test_the_one_date_a_page_shows_replaces_the_one_day_it_declares_and_never_shows():
    head = ('<meta property="article:published_time" content="2024-07-05T14:20:08+00:00">'
            '<meta property="article:modified_time" content="2024-07-05T14:20:08+00:00">')
    page = "<article><h1>Eating tips</h1><p>{}</p><p>" + "Tip text. " * 40 + "</p></article>"
    assert meta_of(page.format("March 1, 2024"), head=head)["published"] == "2024-03-01"
    declared = "2024-07-05T14:20:08+00:00"
    # shown as an update, beside another date, beside the declared day, a day off the
    # declared one (the same instant or day in the site's zone): the declared date stands
    for line in ("Updated March 1, 2024", "<span>March 1, 2024</span> <span>March 5, 2024</span>",
                 "<span>March 1, 2024</span> <span>July 5, 2024</span>", "July 6, 2024"):
        assert meta_of(page.format(line), head=head)["published"] == declared


def test_a_date_several_sources_declare_alike_is_parsed_once(monkeypatch):
    """JSON-LD's datePublished and OpenGraph's published_time written alike are parsed once
    a page (the precedence and the shown-date check read both): the same dates as each
    parsed alone, and a numeric date the page's own order decides read the same way."""
    calls = []
    real = dates.parse
    # the precedence's calls (the page's NumericOrder as the order; its own check of the
    # declared days, dates.unambiguous_days, reads each value in both orders)
    monkeypatch.setattr(dates, "parse", lambda v, us=False: (
        isinstance(us, dates.NumericOrder) and calls.append(v)) or real(v, us))
    ld = json.dumps({"@type": "NewsArticle", "headline": "Ships", "datePublished": "2024-03-04T10:00:00Z",
                     "dateModified": "2024-05-06T08:00:00Z"})
    head = (f'<script type="application/ld+json">{ld}</script>'
            '<meta property="article:published_time" content="2024-03-04T10:00:00Z">'
            '<meta property="article:modified_time" content="2024-05-07T08:00:00Z">')
    page = "<article><h1>Ships</h1><p>Updated May 7, 2024</p><p>" + "Ship text. " * 40 + "</p></article>"
    got = meta_of(page, head=head)
    assert (got["published"], got["modified"]) == ("2024-03-04T10:00:00+00:00", "2024-05-06T08:00:00+00:00")
    declared = [v for v in calls if v and v.startswith("2024-")]
    assert sorted(declared) == ["2024-03-04T10:00:00Z", "2024-05-06T08:00:00Z", "2024-05-07T08:00:00Z"]
    # a numeric date both of whose readings are days, declared twice: read once, month
    # first for lang en-US (day first otherwise), as each source alone reads it
    head = ('<meta property="article:published_time" content="03/04/2024">'
            '<meta name="date" content="03/04/2024">')
    page = "<article><h1>Ships</h1><p>" + "Ship text. " * 40 + "</p></article>"
    for lang, want in (("en-US", "2024-03-04"), ("en-GB", "2024-04-03")):
        calls.clear()
        assert meta_of(page, head=head, lang=lang)["published"] == want
        assert [v for v in calls if v == "03/04/2024"] == ["03/04/2024"]


def test_a_declared_time_shown_on_the_next_day_in_the_sites_zone_is_shown():
    # published 23:00 UTC, shown as the next day (the site's zone); modified that day too:
    # the page shows its publish date, which stands
    head = ('<meta property="article:published_time" content="2025-12-02T23:00:55+00:00">'
            '<meta property="article:modified_time" content="2025-12-03T21:31:05+00:00">')
    page = ("<article><h1>Brands</h1><p>Published: {}</p><p>" + "Brand text. " * 40 + "</p></article>")
    assert meta_of(page.format("03 Dec 2025"), head=head)["published"] == "2025-12-02T23:00:55+00:00"
    # two days off is another date: the shown one is taken, as before
    later = head.replace("2025-12-03T21:31:05", "2025-12-04T21:31:05")
    assert meta_of(page.format("04 Dec 2025"), head=later)["published"] == "2025-12-04T21:31:05+00:00"
    # a declared day without a time is one day in every zone
    days = head.replace("2025-12-02T23:00:55+00:00", "2025-12-02")
    assert meta_of(page.format("03 Dec 2025"), head=days)["published"] == "2025-12-03T21:31:05+00:00"
    # a second source declaring the same instant in the site's zone is the shown one
    same = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
            '"2017-02-24T01:18:13Z"}</script><meta property="article:published_time" '
            'content="2017-02-23T17:18:13-08:00">')
    assert meta_of(page.format("February 23, 2017"), head=same)["published"] == "2017-02-23T17:18:13-08:00"
    # and so is a second source's publish date that the page shows, another instant or not
    other = same.replace("2017-02-23T17:18:13-08:00", "2017-02-23T14:15:00+00:00")
    assert meta_of(page.format("February 23, 2017"), head=other)["published"] == "2017-02-23T14:15:00+00:00"


@pytest.mark.parametrize("title,site,want", [
    ("Headline | The Site", "The Site", "Headline"),
    ("The Site - Headline", "The Site", "Headline"),
    ("Headline - example", None, "Headline"),           # the host name's main label
    ("A - B", "Other", "A - B"),
])
def test_strip_site(title, site, want):
    assert merge.strip_site(title, site, "www.example.org") == want


def test_title_site_suffix_and_the_shown_headline():
    # the part after the h1 names the site
    m = meta_of(ARTICLE.format(h="How tides work"), title="How tides work \u2013 The Harbour Gazette")
    assert (m["title"], m["site"]) == ("How tides work", "The Harbour Gazette")
    # no h1, but the footer names the site
    m = meta_of("<article><p>Text of the page.</p></article><footer>\u00a9 Harbour News 2024</footer>",
                title="Weather today | Harbour News")
    assert (m["title"], m["site"]) == ("Weather today", "Harbour News")
    # nothing confirms a site: the title whole, the host name as site
    m = meta_of(ARTICLE.format(h="Chapter three"), title="Chapter 3 - The Return")
    assert (m["title"], m["site"]) == ("Chapter 3 - The Return", "pith.test")
    # og:site_name wins; a declared title that leads with the h1 gives the h1
    m = meta_of(ARTICLE.format(h="How tides work"), title="How tides work | Tides | Gazette",
                head='<meta property="og:site_name" content="Gazette Online">')
    assert (m["title"], m["site"]) == ("How tides work", "Gazette Online")
    m = meta_of('<div class="byline">  by   Jo  Writer </div><article><h2>Not a title</h2>'
                '<p>Body <time datetime="2019-09-09T09:09">then</time>.</p></article>',
                title="Plain title - pith.test")
    assert (m["title"], m["site"], m["authors"], m["published"]) == \
        ("Plain title", "pith.test", ["Jo Writer"], "2019-09-09T09:09:00")


def test_the_shown_headline_is_the_title_when_it_agrees_with_a_declared_one():
    # the h1 shares most words with og:title: the h1, as the reader sees it
    head = '<meta property="og:title" content="Top 11 SEO Strategies for 2025 | Lucca">'
    m = meta_of(ARTICLE.format(h="11 SEO Strategies for 2025 to Boost Rankings"), head=head,
                title="Top 11 SEO Strategies for 2025 | Lucca")
    assert m["title"] == "11 SEO Strategies for 2025 to Boost Rankings"
    # an h1 that shares no words is a slogan: the declared title
    m = meta_of(ARTICLE.format(h="We make moving easy"), title="San Francisco Local Movers")
    assert m["title"] == "San Francisco Local Movers"
    # no declared title at all: the h1
    html = f"<!DOCTYPE html><html><head></head><body>{ARTICLE.format(h='Only shown')}</body></html>"
    assert select(static.snapshot_of_html(html, "http://pith.test/", 10**6)).metadata.title == "Only shown"


def test_an_h1_that_is_the_site_logo_is_not_the_title():
    body = ("<header><h1>Budget Travel With Gabby</h1></header>"
            + ARTICLE.format(h="Budget Traveler's Guide To Travel Insurance"))
    m = meta_of(body, title="Budget Traveler's Guide To Travel Insurance - Budget Travel With Gabby")
    assert m["title"] == "Budget Traveler's Guide To Travel Insurance"
    # the logo h1 alone, the article's heading an h2: the declared title without the site
    body = "<header><h1>Budget Travel With Gabby</h1></header>" + ARTICLE.replace("h1", "h2").format(h="x")
    m = meta_of(body, title="Budget Traveler's Guide - Budget Travel With Gabby")
    assert m["title"] == "Budget Traveler's Guide"


def test_an_h1_a_declared_title_is_whole_is_no_logo_even_when_it_holds_the_sites_name():
    # the h1 holds the site's name ("SELF") and is JSON-LD's headline whole: the page's
    # title, not a logo (og:title shortens it)
    head = ('<meta property="og:site_name" content="SELF">'
            '<meta property="og:title" content="The Best Oral Care Products">'
            '<script type="application/ld+json">{"@type": "Article", "headline": '
            '"The 2025 SELF Beauty Awards: The Best Oral Care Products"}</script>')
    h = "The 2025 SELF Beauty Awards: The Best Oral Care Products"
    m = meta_of(ARTICLE.format(h=h), head=head, title=h + " | SELF", url="https://self.test/story/x")
    assert m["title"] == h
    # a forum's og:title "Prefix - Headline" beside a JSON-LD headline that is the h1
    head = ('<meta property="og:title" content="Tips/Techniques - Proxmox or Debian?">'
            '<script type="application/ld+json">{"@type": "DiscussionForumPosting", '
            '"headline": "Proxmox or Debian?"}</script>')
    m = meta_of(ARTICLE.format(h="Proxmox or Debian?"), head=head,
                title="Tips/Techniques - Proxmox or Debian? | Metal Workers", url="https://forum.test/threads/1")
    assert m["title"] == "Proxmox or Debian?"
    # the logo h1 that is the site's name stays a logo
    head = '<meta property="og:site_name" content="Gabby Travels"><meta property="og:title" content="Gabby Travels">'
    body = "<header><h1>Gabby Travels</h1></header>" + ARTICLE.replace("h1", "h2").format(h="x")
    m = meta_of(body, head=head, title="Travel Insurance Guide - Gabby Travels", url="https://gabby.test/p")
    assert m["title"] == "Travel Insurance Guide"


def test_a_section_number_no_declared_title_holds_is_left_out_of_the_headline():
    h = "3.1 Git Branching - Branches in a Nutshell"
    m = meta_of(ARTICLE.format(h=h), title="Git - Branches in a Nutshell", url="https://git.test/book/3.1")
    assert m["title"] == "Git Branching - Branches in a Nutshell"
    # declared with its number: the number is the title's own
    m = meta_of(ARTICLE.format(h="5.1 Data Structures"), title="5.1 Data Structures — Python docs",
                url="https://docs.test/tutorial/ds.html")
    assert m["title"] == "5.1 Data Structures"
    # one number is a count or a year, the headline's own
    m = meta_of(ARTICLE.format(h="15 Best Online Tutoring Platforms"),
                title="Best Online Tutoring Platforms", url="https://blog.test/best")
    assert m["title"] == "15 Best Online Tutoring Platforms"


def test_a_headings_permalink_mark_and_a_trailing_site_name_are_left_out():
    m = meta_of(ARTICLE.format(h="Working with forms¶"), title="Working with forms | Django documentation")
    assert m["title"] == "Working with forms"
    m = meta_of("<article><p>" + "Words of the article go on. " * 10 + "</p></article>",
                title="RPi 5 LEDs - Raspberry Pi Forums",
                url="https://forums.raspberrypi.com/viewtopic.php?t=1")
    assert m["title"] == "RPi 5 LEDs"
    # a short host label is a word of many headlines, not the site
    m = meta_of("<article><p>" + "Words of the article go on. " * 10 + "</p></article>",
                title="Why we watch - CNN Opinion and Analysis", url="https://www.cnn.com/x")
    assert m["title"] == "Why we watch - CNN Opinion and Analysis"


@pytest.mark.parametrize("title,want", [
    ("Best Residential Movers in NYC 2025 | Top 19 Companies", "Best Residential Movers in NYC 2025"),
    ("How meditation rewires brains | Opinion", "How meditation rewires brains"),
    ("Git - git-commit Documentation", "Git - git-commit Documentation"),   # a shorter first part
    ("I Tried Amp — and It May Replace My Gym", "I Tried Amp — and It May Replace My Gym"),
    ("Tech conferences 2026 / 2027", "Tech conferences 2026 / 2027"),
    # a pipe sets off a tagline or keywords whatever their length
    ("Stripe Payments | Global Payment Processing Platform", "Stripe Payments"),
    ("IAM overview | Identity and Access Management (IAM)", "IAM overview"),
    ("OpenProject - Open Source Project Management Software",
     "OpenProject - Open Source Project Management Software"),            # a dash does not
])
def test_a_titles_first_part_when_it_is_the_longest(title, want):
    assert merge.first_part(title) == want
    body = "<article><p>" + "Words of the article go on. " * 10 + "</p></article>"
    assert meta_of(body, title=title, url="https://site.test/p")["title"] == want


def test_a_declared_title_whose_own_part_is_empty_yields_to_the_headline():
    # the template wrote "<title> | Site" with no page title: the h1 names the page
    body = "<article><h1>Electronic Gadgets</h1><p>" + "Gadget text. " * 40 + "</p></article>"
    head = '<meta property="og:site_name" content="Nuts and Volts Magazine">'
    assert meta_of(body, title=" | Nuts & Volts Magazine", head=head,
                   url="https://www.nutsvolts.com/gadgets")["title"] == "Electronic Gadgets"
    # a leading separator before a title of its own is cut; a sign is no separator
    assert merge._filled("| Gadgets of 2025", None, None) == "Gadgets of 2025"
    assert merge._filled("-5 degrees tonight", None, None) == "-5 degrees tonight"


def test_a_breadcrumb_title_ending_with_the_site_gives_its_first_part():
    # "Topic / Board / Site Forums": the site's part names the separator, the rest is a
    # breadcrumb whose first and longest part is the topic
    m = meta_of("<header><h1>Example Linux</h1></header><article><p>" + "Words of a post. " * 20
                + "</p></article>", title="Why the ISO grew in 2024 / Example Discussion / Example Linux Forums",
                url="https://bbs.examplelinux.org/viewtopic.php?id=1")
    assert m["title"] == "Why the ISO grew in 2024"
    # a shorter first part is no breadcrumb's head: the title as it is
    assert merge.strip_site("Tech / Conferences in 2026 / Site", "Site", None) == "Tech / Conferences in 2026"


@pytest.mark.parametrize("h1,want", [
    ("Thread: <span>How to pick a web host?</span>", "How to pick a web host?"),
    ("<strong>Blog:</strong> How to pick a web host?", "How to pick a web host?"),
    ("<time datetime='2025-12-18'>Dec 18 2025</time> How to pick a web host?", "How to pick a web host?"),
    # no colon, no date: the headline's own words ("The Best …" under "Best …")
    ("Really, how to pick a web host?", "Really, how to pick a web host?"),
    ("Four words of label: How to pick a web host?", "Four words of label: How to pick a web host?"),
])
def test_a_headlines_label_or_date_before_the_declared_title_is_left_out(h1, want):
    m = meta_of(ARTICLE.format(h=h1), title="How to pick a web host? | Host Talk")
    assert m["title"] == want


def test_a_site_and_slogan_title_below_the_root_yields_to_the_shown_headline():
    body = ARTICLE.format(h="Enamelled pans and metal spatulas")
    m = meta_of(body, title="Reddit - The heart of the internet",
                url="https://www.reddit.com/r/Cooking/comments/1/enamelled_pans/")
    assert m["title"] == "Enamelled pans and metal spatulas"
    # on the site's root "Site - Slogan" is the home page's own title
    m = meta_of(body, title="Todoist - Clarity, finally", url="https://todoist.com/")
    assert m["title"] == "Clarity, finally"


def test_an_en_dash_in_a_shown_heading_is_the_headlines_own():
    # a heading the reader sees uses the en dash as a sentence's dash: kept whole
    h = "Transitioning to a plant-based diet \u2013 tips and tricks"
    m = meta_of(ARTICLE.format(h=h), title=h + " | Parkview Health")
    assert m["title"] == h
    # in a declared title alone it still ends the first part
    body = "<article><p>" + "Words of the article go on. " * 10 + "</p></article>"
    m = meta_of(body, title="Transitioning to a plant-based diet \u2013 tips", url="https://site.test/p")
    assert m["title"] == "Transitioning to a plant-based diet"
    # and a heading's other separators still do ("Headline | Tagline" set in the h1)
    h = "Best Residential Movers in NYC 2025 | Top 19 Companies"
    assert meta_of(ARTICLE.format(h=h), title=h)["title"] == "Best Residential Movers in NYC 2025"


def test_a_soft_hyphen_in_the_headline_is_not_drawn_nor_read(monkeypatch):
    # "Assis&shy;tance": the h1's words are the declared title's, and the title holds no
    # character the browser does not draw (an article: the page type model calls this
    # one-paragraph page a service, whose h1 agreeing in part yields to the declared title)
    from pith.pipeline import pagetype
    monkeypatch.setattr(pagetype, "classify", lambda *a: ("article", 0.9))
    h = "Home Repair Assis&shy;tance Program"
    m = meta_of(ARTICLE.format(h=h), title="City of Marion Building Department: Home Repair Assistance Program",
                url="https://city.test/home-repair")
    assert m["title"] == "Home Repair Assistance Program"
    m = meta_of("<article><p>" + "Words of the article go on. " * 10 + "</p></article>",
                title="Zero\u200bwidth of&shy;fers", url="https://site.test/p")
    assert m["title"] == "Zerowidth offers"


def test_a_shown_headings_pipe_parts_stay_whole_when_the_first_is_shorter():
    h = "Trekking Backpack 40L | Lightweight &amp; Adventure-Ready"
    m = meta_of(ARTICLE.format(h=h), title="Trekking Backpack 40L | Lightweight & Adventure-Ready")
    assert m["title"] == "Trekking Backpack 40L | Lightweight & Adventure-Ready"


def test_a_leading_part_holding_the_sites_name_further_on_is_the_headlines():
    # a site named "Astronomy": "New to Astronomy – …" is a headline's first words, not
    # the site's name before it; "Astronomy Forum - …" is the site's
    head = '<meta property="og:site_name" content="Astronomy">'
    body = "<article><p>" + "Words of a post go on. " * 10 + "</p></article>"
    t = "New to Astronomy \u2013 Best First Telescope Recommendations?"
    assert meta_of(body, title=t, head=head, url="https://forum.test/t/1")["title"] == t
    m = meta_of(body, title="Astronomy Forum - Best First Telescope?", head=head, url="https://forum.test/t/1")
    assert m["title"] == "Best First Telescope?"


def test_a_declared_title_that_is_the_sites_name_alone_yields_below_the_root():
    head = '<meta property="og:title" content="Bombas"><meta property="og:site_name" content="Bombas">'
    body = "<main><p>" + "Socks for every day of the week. " * 10 + "</p></main>"
    m = meta_of(body, title="All Men's Socks", head=head, url="https://shop.bombas.com/collections/mens-socks")
    assert m["title"] == "All Men's Socks"
    # on the site's root the site's name is the home page's title
    m = meta_of(body, title="All Men's Socks", head=head, url="https://shop.bombas.com/")
    assert m["title"] == "Bombas"


def test_a_headline_curled_only_at_display_is_the_title_as_typed():
    h = "Why Hasn\u2019t Tutoring Been More \u201cEffective\u201d?"
    typed = 'Why Hasn\'t Tutoring Been More "Effective"?'
    m = meta_of(ARTICLE.format(h=h), title=typed + " | Education Week")
    assert m["title"] == typed
    # a declared title that curls them too: the sources disagree, the shown heading stays
    head = f'<meta property="og:title" content="{h.replace(chr(34), "&quot;")}">'
    m = meta_of(ARTICLE.format(h=h), title=typed + " | Education Week", head=head)
    assert m["title"] == h
    # other words differ: the shown heading, as it is
    m = meta_of(ARTICLE.format(h=h), title="Why Hasn't Tutoring Been More Effective Yet?")
    assert m["title"] == h


def test_a_headlines_trademark_sign_no_declared_title_writes_is_left_as_typed():
    h = "Nintendo Switch\u2122 - OLED Model White set - REFURBISHED"
    typed = "Nintendo Switch - OLED Model White set - REFURBISHED"
    head = f'<meta property="og:title" content="{typed} - Nintendo Official Site">'
    m = meta_of(ARTICLE.format(h=h), head=head, title=typed + " - Nintendo Official Site",
                url="https://www.nintendo.test/store/products/switch-oled/")
    assert m["title"] == typed
    # a declared title that writes the sign too: the heading as shown
    head = f'<meta property="og:title" content="{h}">'
    m = meta_of(ARTICLE.format(h=h), head=head, title=typed + " - Nintendo Official Site",
                url="https://www.nintendo.test/store/products/switch-oled/")
    assert m["title"] == h


def test_among_h1s_that_agree_alike_the_one_a_declared_title_writes():
    # a shop's two headers (mobile and desktop) set the product's name with a hyphen and
    # with an en dash; the declared title writes the en dash: that h1 is the page's own
    # form (and a heading's en dash is the headline's, not cut), though the other is nearer
    declared = ["Nintendo Switch \u2013 OLED Model - Nintendo - Official Site"] * 2
    h1s = [("Nintendo Switch - OLED Model", 233), ("Nintendo Switch \u2013 OLED Model", 260)]
    assert merge.choose_title([declared[0], None, declared[1]], None, h1s, None,
                              "nintendo.com", root=False) == "Nintendo Switch \u2013 OLED Model"
    # neither written as declared: the nearest, as before
    h1s = [("How tides turn", 40), ("How  Tides Turn!", 10)]
    assert merge.choose_title(["How Tides Turn? | Gazette"], None, h1s, "Gazette", None,
                              root=False) == "How  Tides Turn!"
    body = ("<header><h1>Nintendo Switch - OLED Model</h1></header>"
            + ARTICLE.format(h="Nintendo Switch \u2013 OLED Model"))
    m = meta_of(body, title=declared[0], url="https://www.nintendo.test/switch/oled-model/")
    assert m["title"] == "Nintendo Switch \u2013 OLED Model"


def test_a_title_several_sources_declare_alike_is_weighed_once(monkeypatch):
    """The title's choice weighs each distinct declared title once against each h1 (og:title,
    <title> and JSON-LD's headline are often one string), and chooses as it would from one
    copy of each: the same title whether a declared title comes once or three times."""
    calls = []
    real = merge.agreement
    monkeypatch.setattr(merge, "agreement", lambda t, c: calls.append((t, c)) or real(t, c))
    cases = [
        (["Nintendo Switch \u2013 OLED Model - Nintendo - Official Site"] * 3, None,
         [("Nintendo Switch - OLED Model", 233), ("Nintendo Switch \u2013 OLED Model", 260)],
         None, "nintendo.com"),
        (["Why Hasn't Tutoring Worked? | Gazette", None, "Why Hasn't Tutoring Worked? | Gazette"],
         "Why Hasn't Tutoring Worked?", [("Why Hasn\u2019t Tutoring Worked?", 4), ("Gazette", 90)],
         "Gazette", "gazette.test"),
        (["Thread: How to X | Forum", "Thread: How to X | Forum", None], None,
         [("Thread: How to X", 2)], "Forum", None),
    ]
    for declared, entity, h1s, site, host in cases:
        calls.clear()
        got = merge.choose_title(declared, entity, h1s, site, host, root=False)
        once = list(dict.fromkeys(c for c in declared if c))
        assert len(calls) == len(set(calls))                   # no pair weighed twice
        assert got == merge.choose_title(once + [None] * (3 - len(once)), entity, h1s, site,
                                         host, root=False)


def test_a_service_pages_h1_agreeing_in_part_yields_to_its_declared_title(monkeypatch):
    """On a service page an h1 that shares some words with the declared title but is not it
    (nor what it leads with) is the hero's pitch: the declared title names the service. On
    other pages, or where the title leads with the h1, the h1 stays (NOTES.md, 'Why a
    service page's declared title names it')."""
    declared = ["Finance & Accounting Staffing and Recruiting", None,
                "Finance & Accounting Staffing and Recruiting | Robert Half"]
    h1s = [("Finance and accounting talent that really counts", 4)]
    assert merge.TITLE_AGREEMENT <= merge.agreement(h1s[0][0], declared[0]) < 1.0
    args = (declared, None, h1s, "Robert Half", "roberthalf.test")
    assert merge.choose_title(*args, root=False, page_type="service") \
        == "Finance & Accounting Staffing and Recruiting"
    for other in ("article", "product", None):
        assert merge.choose_title(*args, root=False, page_type=other) == h1s[0][0]
    # a declared title that leads with the h1 agrees fully: the h1 even on a service page
    assert merge.choose_title(["Pet Insurance | Dogs & Cats | Progressive"], None,
                              [("Pet Insurance", 3)], "Progressive", None, root=False,
                              page_type="service") == "Pet Insurance"
    # select reads the page type before the metadata and hands it on
    from pith.pipeline import pagetype
    body = ("<section><h1>Finance and accounting talent that really counts</h1><p>"
            + "We place people in finance teams across the country, fast. " * 8
            + "</p></section>")
    for kind, want in (("service", "Finance & Accounting Staffing and Recruiting"),
                       ("article", "Finance and accounting talent that really counts")):
        monkeypatch.setattr(pagetype, "classify", lambda *a, kind=kind: (kind, 0.9))
        m = meta_of(body, title=declared[2], url="https://www.roberthalf.test/finance",
                    head=f'<meta property="og:title" content="{declared[0]}">')
        assert m["title"] == want


def test_a_cjk_titles_unspaced_separators_set_off_its_channel_and_site():
    # the h1 the declared title leads with next to "_" agrees with it: the h1
    declared = "短视频与大众文化生产_要闻_电影网_1905.com"
    assert merge.choose_title([None, None, declared], None, [("短视频与大众文化生产", 3)], None,
                              "1905.com", root=False) == "短视频与大众文化生产"
    # no h1: the declared title's first part when it is strictly the longest
    body = "<article><p>" + "文章的正文很长。" * 40 + "</p></article>"
    m = meta_of(body, title="我国首届养老专业本科生迎来毕业季_新闻频道_中国青年网", lang="zh",
                url="https://news.youth.test/a/1.html")
    assert m["title"] == "我国首届养老专业本科生迎来毕业季"
    assert merge.first_part("长三角一体化发展座谈会召开-中国科普网") == "长三角一体化发展座谈会召开"
    # a site and its section of equal length name no headline; a hyphen between Latin
    # letters is a word's, the em dash and "丨" are the headline's own
    assert merge.first_part("科普中国-辟谣文章") == "科普中国-辟谣文章"
    assert merge.first_part("X 上的 PKU：“a world-class university”") == "X 上的 PKU：“a world-class university”"
    assert merge.first_part("政能亮丨稳经济需要跑出加速度——前4个月") == "政能亮丨稳经济需要跑出加速度——前4个月"
    # a Latin title is cut at spaced separators only
    assert merge.first_part("Tech_conferences-2026") == "Tech_conferences-2026"


def test_language_html_lang_first_then_declared():
    assert meta_of(ARTICLE.format(h="x"), lang="de-AT")["language"] == "de-AT"
    assert meta_of(ARTICLE.format(h="x"), lang="", head='<meta property="og:locale" content="pt_BR">'
                   )["language"] == "pt-BR"


def test_reply_strings_are_capped():
    long = "x" * 5000
    head = (f'<meta property="og:title" content="{long}"><meta name="description" content="{long}">'
            + "".join(f'<meta property="article:tag" content="t{i}">' for i in range(200))
            + f'<meta name="author" content="{"A" * 500}">')
    m = meta_of(ARTICLE.format(h="x"), head=head)
    assert len(m["title"]) == merge.MAX_TITLE_CHARS
    assert len(m["description"]) == merge.MAX_DESCRIPTION_CHARS
    assert len(m["tags"]) == merge.MAX_WORDS
    assert all(len(a) <= merge.MAX_NAME_CHARS for a in m["authors"])


def test_fold_remembers_short_strings_and_not_long_ones():
    """merge.fold folds a string once (the title's choice asks for the same few again and
    again); a string over FOLD_CACHE_CHARS is folded each time and never kept."""
    merge._folded.cache_clear()
    assert merge.fold("Héllo, World!") == merge.fold("Héllo, World!") == "héllo world"
    info = merge._folded.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    long = "Word " * merge.FOLD_CACHE_CHARS
    assert merge.fold(long) == merge._fold(long) == ("word " * merge.FOLD_CACHE_CHARS).strip()
    assert merge._folded.cache_info().currsize == 1


def test_title_candidates_are_every_form_a_choice_could_take():
    # each declared title and h1 whole, without its site's part, each part; the site; once each
    got = merge.title_candidates(["How tides work | Coasts | Harbour Gazette", None,
                                  "How tides work | Coasts | Harbour Gazette"],
                                 "How Tides Work", [("Harbour Gazette", 3), ("Tides - a primer", 9)],
                                 "Harbour Gazette", "gazette.example")
    assert got == ["How tides work | Coasts | Harbour Gazette", "How tides work", "Coasts",
                   "Harbour Gazette", "How tides work | Coasts", "Coasts | Harbour Gazette",
                   "How Tides Work", "Tides - a primer", "Tides", "a primer"]
    # a template's empty lead left out, a CJK title cut at its bare separators
    assert merge.title_candidates(["| Harbour Gazette"], None, [], "Harbour Gazette", None) \
        == ["Harbour Gazette"]
    assert merge.title_candidates(["标题_要闻_电影网"], None, [], None, None) \
        == ["标题_要闻_电影网", "标题", "要闻", "电影网"]
    # compute hands them to a caller that asks (the bench), and the title is unchanged
    html = ('<!DOCTYPE html><html lang="en"><head><title>How tides work | Harbour Gazette</title>'
            '</head><body><article><h1>How tides work</h1><p>' + "Water rises twice a day. " * 20
            + '</p></article></body></html>')
    snap = static.snapshot_of_html(html, "https://gazette.example/tides", Options().max_nodes)
    sel = select(snap, Options())
    inputs: list = []
    assert merge.of_selection(sel, title_inputs=inputs).title == merge.of_selection(sel).title \
        == "How tides work"
    [(declared, entity, headlines, site, host, root, page_type)] = inputs
    assert page_type == sel.page_type[0]
    assert (declared[2], entity, [t for t, _ in headlines], root) == \
        ("How tides work | Harbour Gazette", None, ["How tides work"], False)
    assert merge.choose_title(*inputs[0]) == "How tides work"
    found = merge.title_candidates(declared, entity, headlines, site, host)
    assert found[:2] == ["How tides work | Harbour Gazette", "How tides work"] \
        and "Harbour Gazette" in found


def test_a_declared_author_the_page_never_shows_yields_to_its_by_line():
    """A CMS account declared as author ("KatieS") where the page's "By" line names its
    writer: the line's name; a declared author the page shows, or one the line names in
    part, stands (NOTES.md, 'Why a declared author the page never shows yields to its "By"
    line')."""
    def authors(declared: str, line: str, elsewhere: str = "") -> list[str]:
        head = f'<meta name="author" content="{declared}">'
        body = (f"<article><h1>Rental cars</h1><p>{line}</p><p>"
                + "Words of the article go on for a while here. " * 8 + f"</p>{elsewhere}</article>")
        return meta_of(body, head=head)["authors"]
    assert authors("KatieS", "by <a href='/x'>Aoife O'Riordan</a>") == ["Aoife O'Riordan"]
    # the declared name shown anywhere on the page: it stands
    assert authors("Stef Keegan", "By Lizzie Streit", "<p>Edited by Stef Keegan</p>") == ["Stef Keegan"]
    # the "By" line names the declared author in part (an ampersand's "avec"): it stands
    assert authors("Martin Untersinger (avec Damien Leloup et Morgane Tual)",
                   "Par Martin Untersinger (avec <a href='/d'>Damien Leloup</a> et Morgane Tual)"
                   ) == ["Martin Untersinger (avec Damien Leloup et Morgane Tual)"]
    # no "By" line: the declared author stands
    assert authors("KatieS", "Rental cars compared.") == ["KatieS"]
    # a "By" line's one word (the declared person's user name) or a sentence: it stands
    assert authors("Pero Farmak", "Posted by P3RO") == ["Pero Farmak"]
    assert authors("Gale Jacobs", "This early childhood education activity by Lynn A. begins"
                   ) == ["Gale Jacobs"]
