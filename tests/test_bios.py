"""Author boxes: the "About the author" box named by its class is left out of the post."""
import numpy as np

from pith.pages import static
from pith.pipeline import bios
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

STORY = " ".join([
    "The council voted on Tuesday to reopen the old harbour to fishing boats after a year of",
    "works on the quay walls, which had crumbled in the storms of the last two winters."])
MORE = " ".join([
    "Fishing crews said the delay had cost them a season, and asked the council to waive the",
    "mooring fees for the first six months; the council agreed to halve them instead."])
LAST = " ".join([
    "The ferry to the islands resumes its summer timetable next week, the harbour master",
    "said, once the last of the cranes has been taken down from the northern pier."])
BIO = " ".join([
    "Jane Doe has covered the coast for the Gazette since 2009, writing about fisheries,",
    "ferries and the towns that live by them. She lives in Portmore with two dogs and a boat",
    "that has not left its mooring in years."])


def page(box_class: str) -> str:
    return f"""<!doctype html><html><head><title>Harbour reopens</title></head><body>
<article><h1>The harbour reopens after a year of works</h1>
<p>{STORY}</p><p>{MORE}</p><p>{LAST}</p>
<div class="{box_class}"><img src="/jane.jpg" width="80" height="80" alt="">
<h4>About Jane Doe</h4><p>{BIO}</p></div>
</article></body></html>"""


URL = "https://gazette.example.org/2024/05/03/harbour-reopens"


def test_an_author_box_after_the_post_is_left_out():
    """The failure this fixes: the box's lines are prose, so the block model kept them with
    the post (dragnet_train R464, R41: 'Written by …', 'Known in some circles as …'),
    which the text truths leave out."""
    text = select(static.snapshot_from_html(page("author-bio"), URL), Options()).output("text")
    assert "covered the coast" not in text
    assert "council voted" in text and "halve them" in text and "northern pier" in text
    kept = select(static.snapshot_from_html(page("author-bio"), URL),
                  Options(auto_author_boxes=False)).output("text")
    assert "covered the coast" in kept                 # the model alone keeps the box


def test_only_a_name_that_says_box_or_bio_is_an_author_box():
    html = "<body>" + "".join(f'<div class="{c}">x</div>' for c in (
        "author-bio", "about-the-author", "AuthorBox", "post-author-info", "bio-box",
        "author", "byline", "profile", "entry-author-name")) + "</body>"
    snap = from_json(static.snapshot_from_html(html, URL), 1000)
    rows = np.flatnonzero(bios.boxes(snap))
    assert [snap.cols["cls"][r] for r in rows.tolist()] == [
        "author-bio", "about-the-author", "AuthorBox", "post-author-info", "bio-box"]


def test_a_page_that_is_the_author_box_keeps_it():
    """An author's page: the box holds most of the element's text, so it is the page."""
    html = f"""<!doctype html><html><body><main><div class="author-profile">
<h1>Jane Doe</h1><p>{BIO}</p><p>{STORY}</p><p>{MORE}</p></div></main></body></html>"""
    text = select(static.snapshot_from_html(html, "https://gazette.example.org/authors/jane"),
                  Options()).output("text")
    assert "covered the coast" in text and "council voted" in text
