"""Adjacent repeats: a line said twice in a row is read once (issue 33's repeated captions)."""
from types import SimpleNamespace

import numpy as np

from conftest import PAGES
from pith.pages import static
from pith.pipeline import repeats
from pith.pipeline.blocks.keep import Judged
from pith.pipeline.options import Options
from pith.pipeline.select import select

TEASER_PAGE = PAGES / "teaser-cards" / "source.html"
CREDIT = "Photograph: The Harbour Gazette archive"
PHOTO = f'<div class="photo"><img src="/img/{{k}}.jpg" alt=""><span class="credit">{CREDIT}</span></div>'
ANCHOR = "pumping out seawater.</p>"


def collapsed(texts):
    """Texts with their whitespace collapsed, the form segment.texts gives the rules."""
    return [" ".join(t.split()) for t in texts]


def read(options=None):
    """The teaser-cards story with three photographs in a row after its second
    paragraph, each over the same credit line."""
    photos = "\n".join(PHOTO.format(k=k) for k in range(3))
    html = TEASER_PAGE.read_text(encoding="utf-8").replace(ANCHOR, f"{ANCHOR}\n{photos}", 1)
    assert html.count(CREDIT) == 3
    snap = static.snapshot_from_html(html, "https://gazette.example.org/news/ferry-timetable")
    return select(snap, Options.from_overrides(options or {})).output("text")


def test_a_credit_under_every_picture_is_read_once():
    """The failure this fixes: the block model keeps each copy of the credit as it keeps
    the first, and the reader got the same line three times in a row (fails with
    auto_adjacent_repeats off, below)."""
    assert read().count(CREDIT) == 1
    assert read({"auto_adjacent_repeats": False}).count(CREDIT) == 3


def test_only_the_next_text_block_and_only_a_line_long_enough():
    texts = ["Credit: The Spruce Eats", "", "Credit:  The Spruce Eats", "A paragraph.",
             "Credit: The Spruce Eats", "Yes", "Yes"]
    chars = np.array([len(t) for t in texts])
    # the empty block between the first two copies is no text block; the third copy
    # follows another line; "Yes" twice is under REPEAT_CHARS
    assert repeats.later_copies(collapsed(texts), chars).tolist() == [
        False, False, True, False, False, False, False]


def test_of_a_run_the_copy_the_model_keeps_is_the_one_that_stays():
    """A shop writes an item's name once per layout and the model keeps the copy its
    layout shows, here the second: that one stays, the others go (the first form of the
    rule kept the first copy and a collection page lost every name, 0.17 -> 0)."""
    texts = ["Dark Roast Single-Serve Pods"] * 3 + ["$15.99", "Credit: The Spruce Eats",
                                                    "Credit: The Spruce Eats"]
    chars = np.array([len(t) for t in texts])
    page = Judged(p=np.array([0.1, 0.6, 0.6, 0.5, 0.9, 0.2]), texts=texts)
    out = repeats.without(page, SimpleNamespace(chars=chars)).p
    assert out.tolist() == [0.0, 0.6, 0.0, 0.5, 0.9, 0.0]


def test_a_paragraph_said_twice_is_no_line():
    """A paragraph printed twice in a row is the copied-passage rule's to judge, which
    keeps one paragraph said twice (Readability's test pages repeat theirs, and their
    truths keep every copy: the first form of this rule took svg-parsing 1.0 -> 0.32)."""
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipisicing elit. " * 5
    texts = [paragraph, paragraph]
    assert len(paragraph) > repeats.REPEAT_MAX_CHARS
    assert not repeats.later_copies(collapsed(texts), np.array([len(t) for t in texts])).any()


def slow_copies(texts, chars):
    """The rule as it read before its prefilter: every text block against the one before."""
    at = [i for i in range(len(texts)) if chars[i] > 0]
    out = [False] * len(texts)
    for a, b in zip(at, at[1:]):
        out[b] = (texts[a] == texts[b]
                  and repeats.REPEAT_CHARS <= len(texts[b]) <= repeats.REPEAT_MAX_CHARS)
    return out


def test_the_length_prefilter_passes_over_no_copy():
    """Only texts as long as the text block before them are compared (NOTES.md, 'Why the
    line rules search a page's texts at once'); copies at the edges of the line lengths
    (REPEAT_CHARS and REPEAT_MAX_CHARS exactly, one over and one under) are judged as the
    rule read them text by text, and texts of one length that differ are not copies."""
    texts = []
    for size in (repeats.REPEAT_CHARS - 1, repeats.REPEAT_CHARS, repeats.REPEAT_MAX_CHARS,
                 repeats.REPEAT_MAX_CHARS + 1):
        line = ("Credit: The Spruce Eats " * 10)[:size]
        texts += [line, line, "", line, line[:-1] + "!"]
    chars = np.array([len(t) for t in texts])
    got = repeats.later_copies(texts, chars).tolist()
    assert got == slow_copies(texts, chars)
    assert sum(got) == 4      # REPEAT_CHARS and REPEAT_MAX_CHARS: the copy and the one after the empty block
