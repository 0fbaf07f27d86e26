"""The words that name a comment thread or a comment: what names one, what only states one."""
from pith.pipeline.threadnames import names_thread


def test_a_word_that_starts_a_name_or_a_part_of_it_names_a_thread():
    """`commentlist`, `jc_commentsDiv`, `dsq-comment-7`, a custom element's tag
    (`shreddit-comment`): each names a thread or a comment, in any case."""
    for name in ("commentlist", "jc_commentsDiv", "dsq-comment-7", "shreddit-comment",
                 "post Comment-list", "ugccmt-comments", "wrap talkback", "livefyre-app"):
        assert names_thread(name), name


def test_a_word_inside_another_or_commenting_and_commentary_names_none():
    """Not inside a word (`feature_chompcommentimages`), and not a site's commenting
    guidelines, an article's commentary or its commentator."""
    for name in ("feature_chompcommentimages", "site-commenting-guidelines",
                 "commentary-box", "commentator-bio", "nav", ""):
        assert not names_thread(name), name


def test_a_state_name_says_a_post_has_comments_not_where_they_are():
    """`has-comments` on an article or `comments-open` on the body states; a class list
    that also names the thread itself still names it."""
    for name in ("has-comments", "no-comments", "comments-open", "comments-count",
                 "single comments-open not-showing-comments"):
        assert not names_thread(name), name
    assert names_thread("has-comments comment-list")
