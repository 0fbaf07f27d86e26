"""pith.pipeline.metadata: the page's title, authors, dates, site, ... from what it declares and what it shows."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
import yaml

from pith.pipeline.metadata import dates, declared, frontmatter, jsonld, merge, shown, tags
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod
from pith.pipeline.options import Options
from pith.pipeline.select import select

from builders import make_snapshot


def meta_of(body: str, title: str = "Page", head: str = "", lang: str = "en",
            url: str = "http://pith.test/page.html") -> dict:
    html = (f'<!DOCTYPE html><html lang="{lang}"><head><title>{title}</title>{head}</head>'
            f"<body>{body}</body></html>")
    return select(static.snapshot_of_html(html, url, 10**6)).metadata.to_wire()


ARTICLE = "<article><h1>{h}</h1><p>" + "Words of the article go on for a while here. " * 8 + "</p></article>"


# --- JSON-LD ------------------------------------------------------------------------------

def test_jsonld_graph_references_and_the_entity_before_the_page():
    ld = json.dumps({"@context": "https://schema.org", "@graph": [
        {"@type": "WebPage", "name": "Page name", "datePublished": "2020-01-01"},
        {"@type": "WebSite", "name": "The Site"},
        {"@type": "BlogPosting", "headline": "Post &amp; title", "author": {"@id": "#p"},
         "datePublished": "2021-02-03", "keywords": "a, b",
         "comment": [{"@type": "Comment", "author": "Not Me", "datePublished": "2022-01-01"}]},
        {"@type": "Person", "@id": "#p", "name": "Jo Writer"}]})
    f = jsonld.fields([ld])
    assert f["title"] == "Post & title"                 # entities unescaped
    assert f["authors"] == ["Jo Writer"]                # the @id reference resolved
    assert f["published"] == "2021-02-03"               # the post's, not the WebPage's
    assert f["site"] == "The Site" and f["tags"] == ["a", "b"]


def test_jsonld_faq_questions_are_not_the_entity_but_a_qapage_question_is():
    faq = json.dumps({"@type": "FAQPage", "mainEntity": [
        {"@type": "Question", "name": "Is it safe?"}], "name": "Help centre"})
    assert jsonld.fields([faq])["title"] == "Help centre"
    qa = json.dumps({"@type": "QAPage", "mainEntity": {
        "@type": "Question", "name": "How do I fold a map?", "author": {"@type": "Person", "name": "Ann"},
        "suggestedAnswer": [{"@type": "Answer", "author": {"@type": "Person", "name": "Bob"}}]}})
    f = jsonld.fields([qa])
    assert f["title"] == "How do I fold a map?" and f["authors"] == ["Ann"]


def test_jsonld_an_entity_whose_url_names_another_page_is_not_the_pages():
    # a video embedded in a thread's ninth post: its upload date is not the thread's
    video = ('<script type="application/ld+json">{"@type": "VideoObject", "name": "A talk", '
             '"url": "https://forum.test/t/my-take/105724/9", "uploadDate": "2024-06-07T02:17:25Z"}'
             '</script><meta property="article:published_time" content="2024-06-02T15:24:08+00:00">')
    m = meta_of(ARTICLE.format(h="My take"), head=video, url="https://forum.test/t/my-take/105724")
    assert m["published"] == "2024-06-02T15:24:08+00:00"
    # the page's own entity, its url the page's (a query, a trailing slash, www. aside), or
    # relative, or on another host (a syndicated original), stays the entity
    for page, url in (("https://www.site.test/a/post?utm=1", "https://site.test/a/post/"),
                      ("https://site.test/a/post", "/a/post"),
                      ("https://site.test/a/post", "https://origin.test/elsewhere")):
        ld = json.dumps({"@type": "Article", "url": url, "datePublished": "2021-02-03"})
        assert jsonld.fields([ld], page)["published"] == "2021-02-03"
    assert "published" not in jsonld.fields(['{"@type": "Article", "url": "/b/other", '
                                             '"datePublished": "2021-02-03"}'], "https://site.test/a/post")


def test_jsonld_an_entity_whose_url_writes_the_pages_path_another_way_is_the_pages():
    # percent escapes (either case) and letters decomposed: the page's own path still
    # (a Persian news page's NewsArticle, its "آ" written as alef + madda, escaped)
    page = "https://www.news.test/news/2022643/محرومیت-درآمد"
    for url in ("https://www.news.test/news/2022643/%D9%85%D8%AD%D8%B1%D9%88%D9%85%DB%8C%D8%AA-"
                "%D8%AF%D8%B1%D8%A7%D9%93%D9%85%D8%AF",
                "https://news.test/news/2022643/%d9%85%d8%ad%d8%b1%d9%88%d9%85%db%8c%d8%aa-"
                "%d8%af%d8%b1%d8%a2%d9%85%d8%af/"):
        ld = json.dumps({"@type": "NewsArticle", "url": url, "datePublished": "2024-05-20T08:52:32Z"})
        assert jsonld.fields([ld], page)["published"] == "2024-05-20T08:52:32Z"
    # and a page address sent escaped (a browser's location.href) against a raw JSON-LD url
    ld = json.dumps({"@type": "NewsArticle", "url": page, "datePublished": "2024-05-20"})
    assert jsonld.fields([ld], "https://www.news.test/news/2022643/%D9%85%D8%AD%D8%B1%D9%88"
                         "%D9%85%DB%8C%D8%AA-%D8%AF%D8%B1%D8%A2%D9%85%D8%AF")["published"] == "2024-05-20"
    # another page of the site written so is still another page
    other = json.dumps({"@type": "NewsArticle", "url": "/news/2022644/%D9%85", "datePublished": "2024-05-20"})
    assert "published" not in jsonld.fields([other], page)


def test_jsonld_broken_scripts_are_skipped_and_raw_newlines_tolerated():
    good = '{"@type": "Article", "headline": "Line\nbreak"}'
    assert jsonld.fields(["{not json", good])["title"] == "Line break"
    assert jsonld.fields(["[]", "null", "3"]) == {}


@pytest.mark.parametrize("wrapped", [
    '<!-- {"@type": "Article", "headline": "H"} -->',
    '\n  <![CDATA[\n  {"@type": "Article", "headline": "H"}\n  ]]>\n',
    '//<![CDATA[\n{"@type": "Article", "headline": "H"}\n//]]>',
    '/*<![CDATA[*/{"@type": "Article", "headline": "H"}/*]]>*/',
])
def test_jsonld_inside_a_comment_or_cdata_section_is_read(wrapped):
    assert jsonld.fields([wrapped])["title"] == "H"


def test_the_wrapper_end_is_searched_in_every_text_it_can_end():
    """jsonld.WRAPPER_END_TAILS: every text WRAPPER_END matches ends with one of them,
    whitespace aside (random tails of the wrappers' pieces, spaces and JSON), so the
    search skipped for the other texts would have found nothing."""
    import random
    rng = random.Random(7)
    pieces = ["-->", "]]>", "*/", "//", "/*", "/", " ", "\n", "\u00a0", "}", "]", ">", "-", "x"]
    found = 0
    for _ in range(3000):
        text = '{"a": 1}' + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        if jsonld.WRAPPER_END.search(text):
            found += 1
            assert text.rstrip().endswith(jsonld.WRAPPER_END_TAILS), repr(text)
    assert found > 300


def test_jsonld_cdata_in_a_page_gives_its_date():
    ld = ('<script type="application/ld+json"><![CDATA[{"@type": "Article", '
          '"datePublished": "2001-10-29T01:59:14Z"}]]></script>')
    assert meta_of(ARTICLE.format(h="x"), head=ld)["published"] == "2001-10-29T01:59:14+00:00"


def test_organisation_authors_come_after_a_shown_byline():
    ld = ('<script type="application/ld+json">{"@type": "Article", "headline": "H", '
          '"author": {"@type": "Organization", "name": "Big Corp"}}</script>')
    body = '<article><h1>H</h1><p class="byline">By Jane Roe</p><p>' + "Text goes on. " * 30 + "</p></article>"
    assert meta_of(body, head=ld)["authors"] == ["Jane Roe"]
    assert meta_of(ARTICLE.format(h="H"), head=ld)["authors"] == ["Big Corp"]


# --- <meta>, microdata, links --------------------------------------------------------------

@pytest.mark.parametrize("key", ["published-date", "published", "ms.date"])
def test_plain_published_meta_names_are_read(key):
    head = f'<meta name="{key}" content="July 17, 2025">'
    assert meta_of(ARTICLE.format(h="x"), head=head)["published"] == "2025-07-17"


def test_a_plain_updated_meta_name_is_the_modified_date():
    head = '<meta name="updated" content="2025-12-18">'
    assert meta_of(ARTICLE.format(h="x"), head=head)["modified"] == "2025-12-18"
    # shown as the page's update beside a JSON-LD publish date it never shows: its date
    ld = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
          '"2025-06-17", "dateModified": "2025-06-17"}</script>')
    page = "<article><h1>Trends</h1><p>Updated Dec 18, 2025 · 12 min read</p><p>" \
        + "Trend text. " * 40 + "</p></article>"
    assert meta_of(page, head=ld + head)["published"] == "2025-12-18"


@pytest.mark.parametrize("key,value,field,iso", [
    ("cxenseparse:publishtime", "2025-03-04T10:00:00Z", "published", "2025-03-04T10:00:00+00:00"),
    ("og:publish_date", "2025-03-04", "published", "2025-03-04"),
    ("published_at", "2025-03-04", "published", "2025-03-04"),
    ("article_date_original", "March 4, 2025", "published", "2025-03-04"),
    ("pdate", "20170403", "published", "2017-04-03"),
    ("http://ogp.me/ns/article#published_time", "2025-03-04", "published", "2025-03-04"),
    ("dc.modified", "2025-03-04", "modified", "2025-03-04"),
    ("last-updated", "2025-03-04", "modified", "2025-03-04"),
])
def test_date_names_more_than_one_sites_cms_writes(key, value, field, iso):
    """The publish and modified dates under the <meta> names several sites' CMSs write
    besides OpenGraph's and Dublin Core's (NOTES.md, 'Why dates are read in the forms many
    sites write them'); a page declaring only a modified date is dated by it."""
    head = f'<meta name="{key}" content="{value}">'
    m = meta_of(ARTICLE.format(h="x"), head=head)
    assert m[field] == iso and m["published"] == iso


def test_a_utc_time_a_day_off_the_urls_day_takes_the_urls_day():
    head = '<meta property="article:published_time" content="2025-12-19T02:41:41+00:00">'
    url = "https://blog.test/2025/12/18/a-post"
    assert meta_of(ARTICLE.format(h="x"), head=head, url=url)["published"] == "2025-12-18"
    # the same day, or days apart (a post moved or re-dated): the declared value stands
    assert meta_of(ARTICLE.format(h="x"), head=head, url="https://blog.test/2025/12/19/p"
                   )["published"] == "2025-12-19T02:41:41+00:00"
    assert meta_of(ARTICLE.format(h="x"), head=head, url="https://blog.test/2025/12/01/p"
                   )["published"] == "2025-12-19T02:41:41+00:00"


def test_meta_precedence_lists_and_inverted_names():
    entries = [[1, "keywords", "x, y"], [2, "article:tag", "t1"], [3, "article:tag", "t2"],
               [4, "citation_author", "Roy, Aniruddha"], [5, "author", "https://fb.example/me"],
               [6, "og:title", "OG"], [7, "twitter:title", "TW"]]
    f = tags.meta_fields(entries)
    assert f["tags"] == ["t1", "t2"]                     # article:tag before keywords
    assert f["authors"] == ["Aniruddha Roy"]             # a URL is no author; Last, First turned
    assert f["title"] == "OG"


def test_twitter_label_and_data_pairs_name_the_author():
    head = ('<meta name="twitter:label1" content="Est. reading time">'
            '<meta name="twitter:data1" content="7 minutes">'
            '<meta name="twitter:label2" content="Written by">'
            '<meta name="twitter:data2" content="Amy Roeder">')
    assert tags.meta_fields([[0, k, v] for k, v in (
        ("twitter:label1", "Est. reading time"), ("twitter:data1", "7 minutes"),
        ("twitter:label2", "Written by"), ("twitter:data2", "Amy Roeder"))])["authors"] == ["Amy Roeder"]
    assert meta_of(ARTICLE.format(h="Fasting"), head=head)["authors"] == ["Amy Roeder"]
    # a plain author name comes first
    assert meta_of(ARTICLE.format(h="Fasting"), head=head + '<meta name="author" content="Jo Bloggs">'
                   )["authors"] == ["Jo Bloggs"]

def test_microdata_author_scope_reads_its_name():
    body = ('<article itemscope itemtype="https://schema.org/Article"><h1 itemprop="headline">Micro</h1>'
            '<span itemprop="author" itemscope itemtype="https://schema.org/Person">'
            '<span itemprop="name">Kim Lee</span> (staff)</span>'
            '<meta itemprop="datePublished" content="2022-04-05"><p>' + "Body text. " * 40 + "</p></article>")
    m = meta_of(body)
    assert (m["title"], m["authors"], m["published"]) == ("Micro", ["Kim Lee"], "2022-04-05")


def test_microdata_author_scope_without_a_name_item_is_its_name():
    # a Person written as its name alone (Shopify themes): the scope's own short text
    body = ('<article itemscope itemtype="https://schema.org/Article"><h1>Puppy training</h1>'
            '<p>' + "Training text. " * 40 + '</p><footer><span itemprop="author" itemscope '
            'itemtype="http://schema.org/Person"> The Diggs Team </span></footer></article>')
    assert meta_of(body)["authors"] == ["The Diggs Team"]
    # a Person card (photo, bio, links) without a name item is no name
    card = ('<div itemprop="author" itemscope itemtype="http://schema.org/Person"><p>Our team</p>'
            '<p>Writes about dogs</p><p><a href="/team">More</a></p></div>')
    assert meta_of(ARTICLE.format(h="Puppy training") + card)["authors"] == []

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

def test_jsonld_in_a_meta_named_script_ld_json_is_read():
    # Remix's "script:ld+json" descriptor written as a <meta>: the page's only Article
    ld = json.dumps({"@type": "Article", "headline": "Full EV cars guide",
                     "datePublished": "2025-11-17T09:00:00-05:00",
                     "author": {"@type": "Person", "name": "Ann Volt"}})
    head = f"<meta name=\"script:ld+json\" content='{ld}'>"
    m = meta_of(ARTICLE.format(h="Full EV cars guide"), head=head)
    assert (m["published"], m["authors"]) == ("2025-11-17T09:00:00-05:00", ["Ann Volt"])
    assert tags.ld_in_meta([[0, "description", ld], [1, "script:ld+json", ld]]) == [ld]


# --- what the page shows -----------------------------------------------------------------

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


def test_an_author_named_like_the_site_is_kept_when_nothing_else_names_one():
    head = ('<meta property="og:site_name" content="Sam Bossley">'
            '<meta name="author" content="Sam Bossley">')
    assert meta_of(ARTICLE.format(h="Thoughts on Zig"), head=head)["authors"] == ["Sam Bossley"]
    # a shown byline naming a person wins over the site's name
    body = '<p class="byline">By Kim Lee</p>' + ARTICLE.format(h="Thoughts on Zig")
    assert meta_of(body, head=head)["authors"] == ["Kim Lee"]


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


# --- dates ----------------------------------------------------------------------------------

@pytest.mark.parametrize("value,iso", [
    ("2024-03-01T10:00:00Z", "2024-03-01T10:00:00+00:00"),
    ("2024-03-01T10:00:00+0100", "2024-03-01T10:00:00+01:00"),
    ("Fri, 01 Mar 2024 10:00:00 GMT", "2024-03-01T10:00:00+00:00"),
    ("20240301", "2024-03-01"),
    ("1 March 2024", "2024-03-01"), ("March 1st, 2024", "2024-03-01"),
    ("1. März 2024", "2024-03-01"), ("12 de marzo de 2024", "2024-03-12"),
    ("01.03.2024", "2024-03-01"), ("2024/3/1", "2024-03-01"),
    ("2023 Jan 7", "2023-01-07"),                       # PubMed's citation_publication_date
    ("1890-01-01", None), ("2024-02-30", None), ("soon", None), ("", None),
])
def test_dates_parse(value, iso):
    assert dates.parse(value) == iso


def test_numeric_day_month_order():
    assert dates.parse("03/04/2024") == "2024-04-03"
    assert dates.parse("03/04/2024", us_order=True) == "2024-03-04"
    assert dates.parse("13/04/2024", us_order=True) == "2024-04-13"   # only one reading is a date


def test_a_numeric_dates_order_is_the_one_the_pages_other_numeric_dates_show():
    """"6/2/2025" is read in the order the page's other numeric dates can only be read in
    ("3/13/2026": month first; "13/03/2026": day first), else by the page's language
    (NOTES.md, 'Why dates are read in the forms many sites write them')."""
    def published(listing: str, lang: str = "en") -> str:
        body = ("<h1>Climate change</h1><p class='date'>Effective beginning 6/2/2025:</p>"
                + ARTICLE.format(h="Climate") + f"<ul><li>{listing}</li></ul>")
        return meta_of(body, lang=lang)["published"]

    assert published("Major Land Uses 3/13/2026") == "2025-06-02"
    assert published("Major Land Uses 13/03/2026") == "2025-02-06"
    assert published("Major Land Uses") == "2025-02-06"                 # lang en: day first
    assert published("Major Land Uses", lang="en-US") == "2025-06-02"
    assert published("Major Land Uses 13/03/2026", lang="en-US") == "2025-02-06"
    assert published("3/13/2026 and 13/03/2026") == "2025-02-06"       # both: the language's
    asked = []
    order = dates.NumericOrder(False, lambda: asked.append(1) or "5/13/2025")
    assert dates.find("13/4/2025", order) == "2025-04-13" and not asked   # one reading only
    assert dates.find("4/5/2025", order) == "2025-04-05" and asked == [1]
    dates.find("6/7/2025", order)
    assert asked == [1]                                                    # decided once


def test_find_reads_dates_of_any_scripts_digits_and_skips_texts_without_a_year():
    """`find` answers a text without four digits in a row at once (dates.FOUR_DIGITS):
    every form it reads holds its year so, in any script's digits (Python's \\d), which
    the prefilter keeps; a text with a year runs every form as before."""
    assert dates.find("Published ٢٠٢٤-٠٣-٠١ by Jane") == "2024-03-01"   # Arabic-Indic digits
    assert dates.find("Posted १२ March २०२४") == "2024-03-12"            # Devanagari digits
    assert dates.find("Jane Doe, 3 min read, 12 March") is None
    assert dates.find("March 12, 2024 at 10:00") == "2024-03-12"
    assert dates.find("12/03/24") is None


@pytest.mark.parametrize("text,iso", [
    ("By FlowGuard EMEA on 04-ago-2021 5:11:10", "2021-08-04"),    # day-month-year with hyphens
    ("Released 24-Nov-2021", "2021-11-24"), ("Mar-04-2025", "2025-03-04"),
    ("Posted March 4,2025", "2025-03-04"),                         # no space after the comma
    ("发布于 2016年10月14日", "2016-10-14"), ("2025년 3월 4일", "2025-03-04"),
    ("2025. 3. 4.", "2025-03-04"), ("4. 3. 2025", "2025-03-04"),  # Korean, Czech
    ("12 janv. 2025", "2025-01-12"), ("12 févr. 2025", "2025-02-12"), ("3 avr. 2025", "2025-04-03"),
    ("12 juil. 2025", "2025-07-12"), ("12 déc. 2025", "2025-12-12"),
    ("4 augusti 2025", "2025-08-04"), ("4. marts 2025", "2025-03-04"),
    ("4 Şubat 2025", "2025-02-04"), ("4 Aralık 2025", "2025-12-04"),
    ("the 21st of June 2017", None), ("March 2025", None), ("May 2025 12", None),
])
def test_find_reads_the_forms_many_sites_write(text, iso):
    """Dates as sites across languages write them on a date line (NOTES.md, 'Why dates are
    read in the forms many sites write them'); a month and year alone, or prose's "the
    21st of June", give no day."""
    assert dates.find(text) == iso


def test_month_trie_matches_as_the_alternation():
    """The date patterns read month names through a trie of them (dates._MONTH): every
    match (span and groups) is the plain alternation's (MONTH_ALTERNATION), on dates in
    every case and on names that are prefixes of others ("mar", "marzo", "marzec")."""
    import random
    import re
    rng = random.Random(7)
    names = dates.MONTH_NAMES
    pieces = names + ["1", "12", "3rd", "2024", "1999", ",", ".", " ", "  ", "de", "-", "/",
                      "Mar", "MARZ", "Sept.", "Ju", "j", "ö", "É", "X"]
    texts = ["1. März 2024", "Sept. 3, 2021", "3 marzec 2020", "2023 Jan 7", "MAYO 4, 2024"]
    for _ in range(3000):
        words = [rng.choice(pieces) for _ in range(rng.randint(1, 8))]
        words = [w.upper() if rng.random() < 0.2 else w.capitalize() if rng.random() < 0.2
                 else w for w in words]
        texts.append(rng.choice(["", " "]).join(words))
    for pattern in ("_DMY", "_MDY", "_YMD_NAMED"):
        fast = getattr(dates, pattern)
        plain = re.compile(fast.pattern.replace(dates._MONTH, dates.MONTH_ALTERNATION)
                           .replace(dates.MONTH_START, ""), re.I)
        assert plain.pattern != fast.pattern
        for t in texts:
            assert [m.span() + m.groups() for m in fast.finditer(t)] == \
                [m.span() + m.groups() for m in plain.finditer(t)], (pattern, t)



def test_a_numeric_dates_order_follows_a_day_the_page_declares_one_way_only():
    days = frozenset({"2012-08-09"})
    assert dates.month_first("Posted 08/09/2012 4:03 pm", False, days)
    assert not dates.month_first("Posted 09/08/2012 4:03 pm", True, days)
    # the page's own unambiguous numeric dates still decide first, and a day both readings
    # miss leaves the default
    assert not dates.month_first("08/09/2012 and 13/05/2012", False, days)
    assert not dates.month_first("03/04/2012", False, days)
    assert dates.unambiguous_days(["Thu, 09 Aug 2012 16:08:10 EST", "08/09/2012",
                                   "2012-07-01T10:00Z", "25/12/2011"]) == \
        frozenset({"2012-08-09", "2012-07-01", "2011-12-25"})
    # a page in British English showing the time a <meta> declares (HuffPost's, 2012)
    head = '<meta property="article:published_time" content="Thu, 09 Aug 2012 16:08:10 EST">'
    body = ('<article><h1>Cup defeat</h1><p class="posted">Posted: <span itemprop="datePublished">'
            '08/09/2012 4:03 pm</span></p><p>' + "Match text. " * 40 + "</p></article>")
    assert meta_of(body, head=head, lang="en-GB")["published"][:10] == "2012-08-09"


def test_a_month_names_first_letters_look_ahead_changes_no_match():
    """_MDY starts with a look-ahead of the letters a month's name starts with
    (dates.MONTH_START), _DMY and _YMD_NAMED hold it before the name: under the same case
    folding it matches exactly the characters the names' first letters match (every code
    point, the folded kin "ſ", "K" (Kelvin), "ı" included), so every match is the
    pattern's without it (MDY_PATTERN; the other two: the test above)."""
    import re
    first = re.compile("|".join(re.escape(name[0]) for name in dates.MONTH_NAMES), re.I)
    look = re.compile(dates.MONTH_START, re.I)
    assert [c for c in map(chr, range(0x110000)) if bool(first.match(c)) != bool(look.match(c))] == []
    plain = re.compile(dates.MDY_PATTERN, re.I)
    assert dates._MDY.pattern == dates.MONTH_START + dates.MDY_PATTERN
    for t in ("\u017feptember 4, 2025", "\u212aasım 3 2024, İstanbul", "MARCH 3 2020 and april 5, 2021",
              "ÚNOR 5 2023", "Jan-05-2024", "x" * 300 + " Dec 1 2023", "Posted: Nov 08, 2025 | 12:35"):
        assert [m.span() + m.groups() for m in dates._MDY.finditer(t)] == \
            [m.span() + m.groups() for m in plain.finditer(t)], t


def test_find_searches_the_year_first_forms_from_the_first_four_digits_alike():
    # dates.find starts the forms that open with their year at the first four digits: the
    # same first date as every form searched from the start (the definition, here)
    import random
    rng = random.Random(11)

    def plain(s, us=False):
        best = None
        for rx, order in ((dates._ISO, "ymd"), (dates._YMD, "ymd"), (dates._DMY, "dMy"),
                          (dates._MDY, "Mdy"), (dates._YMD_NAMED, "yMd"),
                          (dates._DMY_NUM, "num"), (dates._YMD_EAST, "ymd")):
            for m in rx.finditer(s):
                day = dates._read(m, order, us)
                if day is not None:
                    if best is None or m.start() < best[0]:
                        best = (m.start(), day)
                    break
        return best[1].isoformat() if best else None

    pieces = ["2024", "1999", "12345", "05", "3", "-", "/", ".", ". ", " ", "年", "月", "日",
              "March", "mar", "Sept.", "de", ",", "4th", "T10:30", "Z", "x", "٢٠٢٤"]
    texts = ["Ref 12345 on 2024-05-03", "2023 Jan 7", "4 March 2024 / 2024/03/05",
             "2024年3月4日", "99 2024 May 3, 2024"]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))))
    for t in texts:
        if dates.FOUR_DIGITS.search(t):
            for us in (False, True):
                assert dates.find(t, us) == plain(t, us), t

# --- the merge ------------------------------------------------------------------------------

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

def test_a_line_break_in_the_headline_is_a_space():
    body = "<article><h1><span>News Product<br>Management Certification</span></h1><p>" + \
        "Course text. " * 40 + "</p></article>"
    m = meta_of(body, title="News Product Management Certification — News Product Alliance")
    assert m["title"] == "News Product Management Certification"
    snap = static.snapshot_of_html("<p>a<br>b</p>", "http://pith.test/", 100)
    assert shown.text_of(snap, list(snap.tag).index("p")) == "a b"

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


def test_a_soft_hyphen_in_the_headline_is_not_drawn_nor_read():
    # "Assis&shy;tance": the h1's words are the declared title's, and the title holds no
    # character the browser does not draw
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


# --- the snapshot's `declared` ------------------------------------------------------------

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


# --- front matter ---------------------------------------------------------------------------

def test_front_matter_is_yaml_that_reads_back_as_the_metadata():
    m = {"title": 'He said "no": # not a comment\n---', "authors": ["A: B", "yes"],
         "published": "2024-03-01", "site": "\x7fodd\u0085\u2028\ufeff", "description": None,
         "tags": [], "language": "no"}
    text = frontmatter.front_matter(m)
    assert text.startswith("---\n") and text.endswith("---\n") and text.count("\n---") == 1
    assert yaml.safe_load(text.strip().strip("-")) == {k: v for k, v in m.items() if v not in (None, [])}


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
# no menu item, and other bylines left out') ------------------------------------------------

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


def _qa_page(question_type: str) -> str:
    def post(kind, who, words):
        return (f'<div itemscope itemtype="https://schema.org/{kind}"><div itemprop="author" itemscope '
                f'itemtype="https://schema.org/Person"><span itemprop="name">{who}</span></div>'
                f'<div itemprop="text"><p>' + words * 12 + "</p></div></div>")
    return ("<h1>How do I fold a map?</h1>" + post(question_type, "Vader", "How do I fold it. ")
            + post("Answer", "pcurry", "Fold it twice. ") + post("Answer", "wjandrea", "Roll it. "))


def test_the_authors_of_answers_under_a_question_are_not_the_pages():
    assert meta_of(_qa_page("Question"))["authors"] == ["Vader"]
    # a thread whose every post is marked a reply (its first included) keeps them all
    assert meta_of(_qa_page("Answer"))["authors"] == ["Vader", "pcurry", "wjandrea"]



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
    [(declared, entity, headlines, site, host, root)] = inputs
    assert (declared[2], entity, [t for t, _ in headlines], root) == \
        ("How tides work | Harbour Gazette", None, ["How tides work"], False)
    assert merge.choose_title(*inputs[0]) == "How tides work"
    found = merge.title_candidates(declared, entity, headlines, site, host)
    assert found[:2] == ["How tides work | Harbour Gazette", "How tides work"] \
        and "Harbour Gazette" in found
