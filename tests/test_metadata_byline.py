"""pith.pipeline.metadata.byline: the names a page shows as its authors (bylines, author links, labels, declared authors cleaned)."""
from __future__ import annotations

import pytest

from pith.pipeline.metadata import byline

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
    assert byline.first_line("Lance Ryan\n(Content Manager)\nMattress tester") == "Lance Ryan (Content Manager)"


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
    assert byline.clean_byline(line) == names


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
    assert byline.clean_byline(lines) == names


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
    assert byline.clean_declared_author(value) is None
    assert byline.clean_declared_author("Jo Default") == "Jo Default"
    assert byline.clean_declared_author("adminn") == "adminn"     # a user's own name stays


def test_a_class_word_inside_a_longer_word_does_not_exclude_a_byline():
    # "job" (a job title) inside "jobber", a theme's name: the author span is a byline
    body = ('<article><h1>Cleaning trends</h1><div class="wp-block-jobber-hero__author-wrapper">'
            '<span class="wp-block-jobber-academy-post-hero__author">Lisa Pham</span></div><p>'
            + "Cleaning text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Lisa Pham"]
    # the words themselves, and their plurals, still exclude ("author-bio", "authors-list")
    for cls in ("author-bio", "authors-list", "author_box", "post-author-avatars"):
        assert byline.NOT_BYLINE_NAMES.search(cls), cls
    for cls in ("jobber-author", "post-author controller"):
        assert not byline.NOT_BYLINE_NAMES.search(cls), cls


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
    assert not byline.ACCOUNT_NAMES.search("bloginfo author")      # a word, not a substring


@pytest.mark.parametrize("line", ["Member Login", "Sign in", "Log in"])
def test_an_account_links_words_are_no_name(line):
    assert byline.clean_byline(line) == []
    body = (f'<nav><a href="https://members.test/s/#/profile/my_info">{line}</a></nav>'
            + ARTICLE.format(h="Weight loss medications"))
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("line", ["See full bio", "View Profile", "View all posts by Becky",
                                  "→ Learn More", "Sign up for free trial", "More from",
                                  "Joined", "Posts: 7", "Reputation", "RSS",
                                  "Articles by Juliette", "Posts by Jo Writer",
                                  "Stories from Ann Roe"])
def test_a_call_to_action_or_a_posters_label_is_no_name(line):
    assert byline.clean_byline(line) == []


@pytest.mark.parametrize("name", ["Seema Patel", "Reader Kim", "Bookman Lee", "Shopa Diaz",
                                  "Joinery Smith", "Feedback Jones", "Logan Jones"])
def test_names_that_start_like_a_call_to_action_stay_names(name):
    assert byline.clean_byline(f"By {name}") == [name]


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
    assert byline.clean_byline("R") == [] and byline.clean_byline("J.") == []
    assert byline.clean_byline("By Smith, J.") == ["Smith"]
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
    # a credits list declared as the author: the template's makers, no name
    ("content: MarketingSherpa, design: Scott McDaniel, code: Steve Beger, MECLABS", None),
    ("Author: Jo Writer", "Jo Writer"),
    ("Writer, Jo", "Writer, Jo"),
])
def test_clean_declared_author(declared, name):
    assert byline.clean_declared_author(declared) == name


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
    assert byline.clean_byline(line) == names


def test_a_class_naming_authoring_or_authorization_is_no_byline():
    body = ('<h4 id="authoring-applications">Authoring applications</h4>'
            '<h4 class="authorization-header">Authorization header</h4>' + ARTICLE.format(h="Tokio"))
    assert meta_of(body)["authors"] == []
    assert byline.BYLINE_NAMES.search("post-author") and byline.BYLINE_NAMES.search("authors")


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
    assert byline.clean_byline(line) == names
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
    assert byline.clean_byline(line) == names


def test_a_by_label_names_the_next_elements_name_not_its_tooltip():
    # Dotdash Meredith's byline: "By" in a span, then the author link and its tooltip
    # (photo, name again, a bio, an "editorial guidelines" link) in the next element
    body = ('<article><h1>How to start a garden</h1><div class="bylines"><span>By</span><div>'
            '<a href="/mary-leverette-7x">Mary Marlowe Leverette</a><div class="tooltip"><img '
            'alt="Mary Marlowe Leverette"><a href="/mary-leverette-7x">Mary Marlowe Leverette</a>'
            '<p>' + "Mary is one of the industry's most respected garden writers. " * 3 + '</p>'
            '<a href="/about-us">Editorial guidelines</a></div></div></div><p>'
            + "Garden text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Mary Marlowe Leverette"]


def test_an_author_label_ending_with_a_colon_names_the_element_after_it():
    body = ('<article><h1>Mindfulness app trial</h1><div><p>Authors of this article:</p>'
            '<span><a href="/search?term=jh">Jennifer Huberty</a><sup>1</sup></span></div><p>'
            + "Trial text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Jennifer Huberty"]
    # an author label of its own tail ("Author services: editing") names no one
    body = ('<article><h1>Publishers</h1><ul><li><strong>Author services:</strong> editing and '
            'design</li></ul><p>' + "Publisher text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("code", ['<pre>OVER (<span class="k">PARTITION</span> <span class="k">BY'
                                  '</span> <span class="n">status_code</span>)</pre>',
                                  "<p><code>author = user.name</code></p>"])
def test_a_code_block_holds_no_byline(code):
    body = ("<article><h1>Anomaly detection in SQL</h1><p>" + "Query text. " * 40 + "</p>"
            + code + "</article>")
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("alt,names", [("Lauren Vetter", ["Lauren Vetter"]),
                                       ("Lauren Vetter headshot", ["Lauren Vetter"]),
                                       ("Author avatar", [])])
def test_an_author_classed_photos_alt_names_the_author(alt, names):
    # an author box whose name is in an unmarked div: the photo's class says whose it is
    body = ("<article><h1>SEO tips</h1><p>" + "Tip text. " * 40 + "</p>"
            f'<div class="post-author-box"><img class="post_author-image" alt="{alt}"><div>'
            '<div class="small">Lauren Vetter</div><p>She writes about marketing.</p></div></div>'
            "</article>")
    assert meta_of(body)["authors"] == names


def test_a_date_line_led_by_a_name_names_the_author():
    body = ("<article><h1>AI in healthcare</h1><p>Aaron Ricadela | Senior Writer | July 2, 2025"
            "</p><p>" + "Health text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == ["Aaron Ricadela"]


@pytest.mark.parametrize("line", ["Fractured Soul - Three new videos - November 1, 2012",   # a title's dash
                                  "Tech news | July 2, 2025",                  # lower case: no name
                                  "Aaron Ricadela | Senior Writer"])           # no date
def test_a_line_that_is_no_named_date_line_names_no_one(line):
    body = f"<article><h1>AI in healthcare</h1><p>{line}</p><p>" + "Health text. " * 40 + "</p></article>"
    assert meta_of(body)["authors"] == []


@pytest.mark.parametrize("line,names", [("Fact Checked", []), ("Verified expert", []),
                                        ("By Rebecca Lake, CEPF®", ["Rebecca Lake"])])
def test_a_bylines_badges_and_registered_credentials_are_no_names(line, names):
    assert byline.clean_byline(line) == names


def test_a_forum_topics_started_by_line_names_its_poster():
    body = ("<h2>How is everyone using AI?</h2><p>Started by Biology Forums, June 04, 2024, 11:23:55 AM"
            "</p><div class='post'><p>" + "A question about forums. " * 30 + "</p></div>")
    assert meta_of(body)["authors"] == ["Biology Forums"]


@pytest.mark.parametrize("line,names", [("Author pays all costs (editing, design, marketing)", []),
                                        ("Author: jane doe", ["jane doe"]),
                                        ("By Ludwig van Beethoven", ["Ludwig van Beethoven"])])
def test_three_lower_case_words_after_a_label_are_a_sentence(line, names):
    assert byline.clean_byline(line) == names


def test_a_declared_credits_list_yields_to_the_shown_byline():
    head = ('<meta name="author" content="content: MarketingSherpa, design: Scott McDaniel, '
            'code: Steve Beger">')
    # the credits shown in the footer too (a declared author the page writes is kept)
    body = ("<article><h1>Pricing chart</h1><p>By Daniel Burstein</p><p>"
            + "Chart text. " * 40 + "</p></article><footer>content: MarketingSherpa, design: "
            "Scott McDaniel, code: Steve Beger</footer>")
    assert meta_of(body, head=head)["authors"] == ["Daniel Burstein"]


def test_an_author_pages_articles_link_is_no_byline():
    body = ('<article><h1>Cloud trends</h1><div><p>Juliette Carreiro</p><a href="/blog/authors/'
            'juliette-carreiro">Articles by Juliette</a></div><p>' + "Cloud text. " * 40
            + "</p></article>")
    assert "Articles by Juliette" not in meta_of(body)["authors"]


def _fluxbb(user: str, details: str) -> str:
    post = ('<div class="blockpost"><h2><a href="viewtopic.php?pid=1">2025-11-01 15:14:37</a></h2>'
            '<div class="postleft"><dl><dt><strong>{u}</strong></dt>{d}</dl></div>'
            '<div class="postright"><h3>ISO size</h3><p>' + "Why did the ISO grow so much? " * 12
            + "</p></div></div>")
    return ("<h1>ISO size</h1>" + post.format(u=user, d=details)
            + post.format(u="replier", d='<dd><span>Registered: 2020-01-01</span></dd>'))


@pytest.mark.parametrize("details", [
    '<dd class="usertitle"><strong>Member</strong></dd><dd><span>Registered: 2025-11-01</span></dd>'
    '<dd><span>Posts: 1</span></dd>',
    '<dd>Posts: 98</dd><dd>Joined: Mon Jan 27, 2024</dd>',
])
def test_a_forum_posts_poster_panel_names_its_poster(details):
    # FluxBB's and phpBB's definition list beside a post, no profile link for a guest: the
    # first post's term, as the forum writes it (digits too)
    assert meta_of(_fluxbb("archuser38013", details))["authors"] == ["archuser38013"]


def test_a_definition_list_is_no_poster_panel():
    # a glossary's terms and descriptions name no one
    body = ("<article><h1>Terms</h1><dl><dt>Latency</dt><dd>The delay of a request.</dd>"
            "<dt>Throughput</dt><dd>Posted requests per second.</dd></dl><p>"
            + "Glossary text. " * 40 + "</p></article>")
    assert meta_of(body)["authors"] == []
