"""pith.pipeline.metadata.tags: what <meta> names, microdata and links declare."""
from __future__ import annotations

import json

import pytest

from pith.pipeline.metadata import tags

from metadata_pages import meta_of, ARTICLE, qa_page


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


def test_jsonld_in_a_meta_named_script_ld_json_is_read():
    # Remix's "script:ld+json" descriptor written as a <meta>: the page's only Article
    ld = json.dumps({"@type": "Article", "headline": "Full EV cars guide",
                     "datePublished": "2025-11-17T09:00:00-05:00",
                     "author": {"@type": "Person", "name": "Ann Volt"}})
    head = f"<meta name=\"script:ld+json\" content='{ld}'>"
    m = meta_of(ARTICLE.format(h="Full EV cars guide"), head=head)
    assert (m["published"], m["authors"]) == ("2025-11-17T09:00:00-05:00", ["Ann Volt"])
    assert tags.ld_in_meta([[0, "description", ld], [1, "script:ld+json", ld]]) == [ld]


def test_the_authors_of_answers_under_a_question_are_not_the_pages():
    assert meta_of(qa_page("Question"))["authors"] == ["Vader"]
    # a thread whose every post is marked a reply (its first included) keeps them all
    assert meta_of(qa_page("Answer"))["authors"] == ["Vader", "pcurry", "wjandrea"]
