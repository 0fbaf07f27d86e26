"""A forum's posts: replies written like the first post are kept with it; a page that is no forum, or a class the page's column shares, changes nothing."""
import json

import numpy as np

from builders import make_snapshot
from conftest import PAGES
from pith.pages import static
from pith.pipeline import posts
from pith.pipeline.algorithms.base import Choice
from pith.pipeline.blocks import segment
from pith.pipeline.blocks.keep import Judged
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

BOARD = PAGES / "board-thread"
QUESTION = "Should we thicken the celadon"
REPLIES = ("Leave the front bare.", "Try a plain wood ash and feldspar glaze",
           "I will post photos after the May firing.")


def board(options=None, html=None, url="http://pith.invalid/source.html"):
    html = html if html is not None else (BOARD / "source.html").read_text(encoding="utf-8")
    return select(static.snapshot_from_html(html, url), Options.from_overrides(options or {}))


def test_a_boards_short_replies_are_kept_like_its_first_post():
    """The failure this fixes (tests/fixtures/pages/board-thread: a Discuz topic, a long
    first post and three one-line replies, each post's text in a `td.t_f`, nothing named
    for comments): the element was the first post's text and the reader got the question
    without its answers. Static and as Chromium captured it."""
    recorded = json.loads((BOARD / "snapshot.json").read_text(encoding="utf-8"))
    for on, off in ((board(), board({"forum_posts": False})),
                    (select(recorded), select(recorded, Options.from_overrides(
                        {"forum_posts": False})))):
        assert posts.forum(on.snap)                       # it declares DiscussionForumPosting
        text = on.output("text")
        assert QUESTION in text and all(reply in text for reply in REPLIES)
        assert "Views: 812" not in text and "Only this author" not in text
        before = off.output("text")
        assert QUESTION in before and not any(reply in before for reply in REPLIES)


def test_a_page_that_is_no_forum_is_left_as_it_is():
    """The same markup on an address naming no forum and without the declared type: no
    post is taken in by its name (a blog's comments are written alike too)."""
    html = (BOARD / "source.html").read_text(encoding="utf-8")
    start = html.index('<script type="application/ld+json">')
    bare = html[:start] + html[html.index("</script>", start) + len("</script>"):]
    url = "https://pottery.example.org/2024/03/which-glaze-for-a-wood-fired-kiln.html"
    on, off = board(html=bare, url=url), board({"forum_posts": False}, html=bare, url=url)
    assert not posts.forum(on.snap)
    assert on.output("text") == off.output("text")
    forum = board(html=bare, url="https://bbs.example.cn/forum.php?mod=viewthread&tid=4417")
    assert all(reply in forum.output("text") for reply in REPLIES)


POST = ("The kiln reached cone twelve at the front and cone nine at the back, and the "
        "celadon ran off every pot on the front shelf. ")


def column_page(column_words: int):
    """A post (`div.post > p.txt`) and two replies' `p.txt` in a `div.wrap` that also holds
    `column_words` words of unclassed paragraphs (the page's column)."""
    rows = [("html", -1), ("body", 0), ("div", 1, {"cls": "wrap"}),           # 0 1 2
            ("div", 2, {"cls": "post"}), ("p", 3, {"cls": "txt", "text": POST * 3}),  # 3 4
            ("div", 2, {"cls": "reply"}), ("p", 5, {"cls": "txt", "text": "Thin it."}),
            ("div", 2, {"cls": "reply"}), ("p", 7, {"cls": "txt", "text": "Go bare."}),
            ("p", 2, {"text": "word " * column_words})]                       # 9
    snap = from_json(make_snapshot(rows, url="https://forum.example.org/t/1"), 1000)
    feats = compute(snap)
    blocks = segment.compute(snap, feats)
    p = np.where(blocks.rows == 4, 0.9, 0.1)       # the model sure of the first post only
    choice = Choice(node=3, score=np.zeros(snap.n), blocks=np.array([3]))
    return snap, feats, blocks, posts.alike(snap, feats, choice, Judged(p=p, texts=[]),
                                            blocks, 0.25, 0.7)


def test_the_element_grows_to_the_posts_unless_that_takes_in_the_page():
    snap, feats, blocks, (choice, page) = column_page(10)
    assert choice.node == 2                         # div.wrap: the post and both replies
    at = blocks.index(snap.n)
    assert page.p[at[6]] >= 0.25 and page.p[at[8]] >= 0.25
    assert page.p[at[9]] == 0.0                     # brought in, not a post: under `add`
    snap, feats, blocks, (choice, page) = column_page(400)
    assert choice.node == 3 and page.p[at[6]] == 0.1   # GROWN_MAX: the column, not posts
