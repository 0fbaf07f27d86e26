"""Rights lines: the copyright notice under a post is not the post (issue 33's lines around the body)."""
import random

from conftest import PAGES
from pith.pages import static
from pith.pipeline import rights
from pith.pipeline.options import Options
from pith.pipeline.select import select

TEASER_PAGE = PAGES / "teaser-cards" / "source.html"
LAST_LINE = "returns for the season."
NOTICE = "Copyright © 2024 The Harbour Gazette Ltd. Reproduction of this story is not permitted."


def collapsed(texts):
    """Texts with their whitespace collapsed, the form segment.texts gives the rules."""
    return [" ".join(t.split()) for t in texts]


def read(options=None):
    """The teaser-cards story with the site's rights notice as the post body's last
    paragraph (where many sites print it, inside the element the reader gets)."""
    html = TEASER_PAGE.read_text(encoding="utf-8").replace(
        f"{LAST_LINE}</p>\n    </div>", f"{LAST_LINE}</p>\n      <p>{NOTICE}</p>\n    </div>", 1)
    assert NOTICE in html
    snap = static.snapshot_from_html(html, "https://gazette.example.org/news/ferry-timetable")
    return select(snap, Options.from_overrides(options or {})).output("text")


def test_the_copyright_line_under_a_story_is_left_out():
    """The failure this fixes: the block model judges the notice, a short line of words
    and a year, as the story's last sentence and the article ended on it (fails with
    auto_rights_lines off, below)."""
    text = read()
    assert LAST_LINE in text and "Copyright" not in text
    assert NOTICE in read({"auto_rights_lines": False})


def test_rights_notices_are_found_by_their_words():
    found = ["Copyright 2000, The New Republic",
             "Copyright © 2001 Yahoo! Inc. All rights reserved. Privacy Policy",
             "Copyright ©2004 MX", "Copyright C2004 Jonathan Schell",
             "© Canada Post Corporation, 2006",
             "Created in 1996-2006 © by Tim Dirks. All rights reserved.",
             "Copyright © 뉴시스. 무단전재 및 재배포 금지.", "(c) Copyright 1990-1994, Example Co."]
    kept = ["Copyright license", "Copyright, Property, or Business matters",
            "Copyright notice: all reader-contributed material is its author's",
            "(Copyright: parts of this paper are reproduced from the network's course)",
            "The court held that the copyright in the photographs had expired in 1998.",
            "(c) the tenant shall repair the wall",
            "All rights reserved. " + "No part of this book may be reproduced. " * 8]
    assert rights.lines(collapsed(found)).all()
    assert not rights.lines(collapsed(kept)).any()


def test_a_credit_run_into_the_first_paragraph_is_the_paragraph():
    """readability's msn page: the photo's "© Provided by …" credit and the story's first
    paragraph are one block; the first form of the rule left the paragraph out."""
    block = ("© Provided by Business Insider Inc Nintendo/Apple Nintendo and Apple shocked "
             "the world earlier this year by announcing a mobile game, the company's first "
             "foray into mobile gaming. It's a game you can play on your phone with one "
             "hand, so what's not to love?")
    assert len(block) > rights.RIGHTS_LINE_CHARS
    assert not rights.lines(collapsed([block])).any()
    assert rights.lines(collapsed([block[:60]])).all()


def slow_lines(texts):
    """The rule as it read before its prefilter: every text lower-cased and searched."""
    out = []
    for text in texts:
        line = text.lower()
        out.append(0 < len(text) <= rights.RIGHTS_CHARS and len(line) <= rights.RIGHTS_CHARS
                   and ((len(line) <= rights.RIGHTS_LINE_CHARS
                         and rights.RIGHTS_OPENER.search(line) is not None)
                        or rights.RIGHTS_RESERVED.search(line) is not None))
    return out


def test_the_prefilter_passes_over_no_notice():
    """Only the texts holding one of RIGHTS_WORDS are read (NOTES.md, 'Why the line rules
    search a page's texts at once'); a notice at the filter's edge is still found: in
    capitals, at the first and the last place of the join, exactly RIGHTS_CHARS long,
    after a text cut at the join's TEXT_STATS_MAX_CHARS, beside an "İ" (whose lower case
    is two characters: the join is then searched as written) or holding one."""
    edge = ["COPYRIGHT 2019 ACME", "©", "(C) 1999 Example", "Copyright\u00a0©\u00a0Acme",
            "x" * (rights.RIGHTS_CHARS - 19) + "ALL RIGHTS RESERVED", "무단 전재 금지",
            "版权所有", "無断転載を禁じます", "ALL RIGHTS RESERVED İSTANBUL", "© İzmir Haber"]
    for filler in ([], ["İstanbul"], ["word " * 5000]):
        for text in edge:
            texts = [" ".join(text.split())] + filler + ["A paragraph."] + [" ".join(text.split())]
            assert rights.lines(texts).tolist() == slow_lines(texts)
            assert rights.lines(texts)[[0, -1]].all()


def test_the_prefilter_agrees_with_the_rule_on_mixed_texts():
    """Texts drawn from the notices' words in any case, years, "İ" and filler: the
    prefiltered rule flags exactly what the rule read text by text flags."""
    rng = random.Random(20261128)
    parts = ["copyright", "Copyright", "COPYRİGHT", "©", "(c)", "(C)", "all rights reserved",
             "All Rights Reserved", "무단", "전재", "版权所有", "無断転載", "2024", "1999",
             "İ", "Acme", "x" * 150, "the", ".", ","]
    for _ in range(300):
        texts = [" ".join(rng.choice(parts) for _ in range(rng.randint(0, 5)))
                 for _ in range(rng.randint(1, 12))]
        assert rights.lines(texts).tolist() == slow_lines(texts)
