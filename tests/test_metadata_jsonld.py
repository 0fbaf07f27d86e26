"""pith.pipeline.metadata.jsonld: the fields a page's JSON-LD declares (its entity, graph references, broken scripts)."""
from __future__ import annotations

import json

import pytest

from pith.pipeline.metadata import jsonld

from metadata_pages import meta_of, ARTICLE


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


def test_jsonld_an_embedded_video_comes_after_the_article_it_is_in():
    # a news page declaring its story's video first (NBC's: the video uploaded the day
    # after the story): the story is the page's entity, its date the page's
    video = json.dumps({"@type": "VideoObject", "name": "Clip", "uploadDate": "2024-12-07T01:36:42Z"})
    story = json.dumps({"@type": "NewsArticle", "headline": "Story",
                        "datePublished": "2024-12-06T22:00:40Z", "dateModified": "2024-12-07T12:43:39Z"})
    for scripts in ([video, story], [story, video], [json.dumps([json.loads(video), json.loads(story)])]):
        f = jsonld.fields(scripts)
        assert (f["published"], f["title"]) == ("2024-12-06T22:00:40Z", "Story")
    # a video page's own video, no article beside it, is its entity still
    assert jsonld.fields([video])["published"] == "2024-12-07T01:36:42Z"


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
