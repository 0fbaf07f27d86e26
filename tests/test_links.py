"""Links leading off the page (pipeline/links.py): which rows are such links, which rows' text lies in them."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline import links
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json

PAGE = "https://example.org/post"


def page():
    """A body holding a card whose title is a link off the page with a short counter
    beside it, a paragraph with one linked word, and a table of contents' anchor."""
    rows = [("html", -1), ("body", 0),
            ("div", 1, {"cls": "card"}),
            ("a", 2, {"text": "Lifeboat crew rescue two walkers", "link": 1,
                      "url": "https://example.org/lifeboat"}),
            ("span", 2, {"text": "12"}),
            ("p", 1, {"text": "The morning ferry will leave forty minutes later, said the "}),
            ("a", 5, {"text": "port", "link": 1, "url": "https://example.org/port"}),
            ("a", 1, {"text": "Back to the top of the page", "link": 1, "url": PAGE + "#top"})]
    snap = from_json(make_snapshot(rows, url=PAGE), 10_000)
    return snap, compute(snap)


def test_away_links_are_links_to_other_pages_not_places_on_this_one():
    snap, _ = page()
    assert np.flatnonzero(links.away_links(snap)).tolist() == [3, 6]


def test_a_row_is_linked_when_most_of_its_text_lies_in_away_links():
    snap, feats = page()
    got = links.linked(snap, feats)
    assert got[2] and got[3]              # the card: its title with a two-digit counter
    assert not got[5]                     # a paragraph with one linked word
    assert not got[7]                     # an anchor to a place on the page


def test_linked_is_found_once_per_page_and_read_only():
    """The teasers and the listed items' names both ask; the second ask is the first's
    answer, which neither may change."""
    snap, feats = page()
    first = links.linked(snap, feats)
    assert links.linked(snap, feats) is first
    with pytest.raises(ValueError):
        first[0] = True
