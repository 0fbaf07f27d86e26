"""A board's tally lines: a thread's counts ("3 replies 0 likes 2 votes 96 views", "2 Answers") are left out of a forum's or a Q&A page's answer; a reply or an author line that names a count, and a page that is no forum, are left as they are."""
import numpy as np

from conftest import PAGES
from pith.pages import static
from pith.pipeline import posts, tallies
from pith.pipeline.blocks.keep import Judged
from pith.pipeline.options import Options
from pith.pipeline.select import select

QA = PAGES / "qa-tallies"
QA_URL = "https://answers.example.org/questions/4417/how-thick-should-an-ash-glaze-go-on"
BAR = "Glazes and firing 3 replies 0 likes 2 votes 96 views"
HEADER = "2 Answers"
REPLY = "I got 2 answers from my supplier"
QUESTION = "How thick should it go on, and is dipping the right way"
ANSWER = "Ash glazes want to be thinner than you think."


def qa(options=None, html=None, url=QA_URL):
    html = html if html is not None else (QA / "source.html").read_text(encoding="utf-8")
    return select(static.snapshot_from_html(html, url), Options.from_overrides(options or {}))


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_a_threads_tally_lines_are_left_out():
    """The failure this fixes (tests/fixtures/pages/qa-tallies: a Q&A page whose topic bar
    "Glazes and firing 3 replies 0 likes 2 votes 96 views" sits above the question and
    whose "2 Answers" heading sits over the answers, as wpForo's bar and Stack Exchange's
    heading do on magic_html's and WCXB's training forums): the block model kept both
    lines in the answer. Left out; the question, the answers and a reply that names a
    count stay."""
    on, off = qa(), qa({"forum_tallies": False})
    assert posts.forum(on.snap)
    before, after = lines_of(off.output("text")), lines_of(on.output("text"))
    assert BAR in before and HEADER in before            # the failure
    assert BAR not in after and HEADER not in after
    text = on.output("text")
    assert QUESTION in text and ANSWER in text and REPLY in text
    assert [line for line in before if line not in (BAR, HEADER)] == after


def test_a_page_that_is_no_forum_keeps_its_counts():
    """The same markup on a blog's address, its question names taken off: a listing's
    "14 comments" under each item is the item's, so no line is left out."""
    html = (QA / "source.html").read_text(encoding="utf-8").replace(
        'id="question-header"', 'id="post-header"').replace("question-title", "post-title")
    url = "https://pottery.example.org/2024/03/ash-glaze-thickness.html"
    on, off = qa(html=html, url=url), qa({"forum_tallies": False}, html=html, url=url)
    assert not posts.forum(on.snap)
    assert on.output("text") == off.output("text")
    assert BAR in lines_of(on.output("text")) and HEADER in lines_of(on.output("text"))


def test_tally_lines_by_their_words():
    """A line is a tally when numbers each followed by a count's noun make most of its
    words: a topic bar, an answers heading, a Chinese board's reads; not a reply naming
    a count, an author line naming its counts after their nouns, nor a long line."""
    texts = [BAR, HEADER, "1,350 次阅读", "12 replies", "2.5k views",
             "I got 2 answers from them", "Posted by Pete (Questions: 37, Answers: 4091)",
             "There were 4 postscripts", "Read 3 views of the kiln " * 3, "", "2024"]
    assert tallies.lines(texts).tolist() == [True, True, True, True, True,
                                             False, False, False, False, False, False]


def test_without_judges_only_tallies_no_content():
    texts = ["4 Answers", "The glaze ran off the pots on the front shelf."]
    page = tallies.without(Judged(p=np.array([0.8, 0.9]), texts=texts))
    assert page.p.tolist() == [0.0, 0.9]
    same = Judged(p=np.array([0.9]), texts=texts[1:])
    assert tallies.without(same) is same
