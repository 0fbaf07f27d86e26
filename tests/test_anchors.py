"""Benchmark anchors: each extractor, when installed, reads the example page's article."""
from pathlib import Path

import pytest

from pith.measure import anchors

EXAMPLE = (Path(__file__).resolve().parents[1] / "host" / "examples" / "article.html").read_text()


@pytest.mark.parametrize("name", anchors.ANCHORS)
def test_anchor_extracts_the_article(name):
    try:
        anchor = anchors.make(name)
    except anchors.AnchorMissing as exc:
        pytest.skip(str(exc))
    try:
        text, ms = anchors.timed(anchor, EXAMPLE, "http://127.0.0.1/article.html")
        again, _ = anchors.timed(anchor, EXAMPLE, "http://127.0.0.1/article.html")
    finally:
        anchor.close()
    assert "Every harbour master keeps a tide table" in text
    assert "still looks out of the window" in text
    assert again == text and ms > 0


def test_unknown_anchor_is_refused():
    with pytest.raises(ValueError, match="unknown anchor"):
        anchors.make("magic")


def test_an_anchor_that_raises_gives_an_empty_answer(capsys):
    def broken(html, url):
        raise ValueError("All strings must be XML compatible")
    text, ms = anchors.timed(anchors.Anchor("broken", broken), "<p>x</p>", "http://a/")
    assert text == "" and ms >= 0
    assert "broken failed on http://a/: ValueError" in capsys.readouterr().err
