"""Rights lines: the copyright notice a page writes under its text ("Copyright © 2006 Pearson Education, Inc. All rights reserved."), which is not the text.

A site prints its rights notice under every article: "Copyright 2000, The New Republic",
"© Canada Post Corporation, 2006", "Copyright © 뉴시스. 무단전재 및 재배포 금지.", "Created
in 1996-2006 © by Tim Dirks. All rights reserved." Inside the chosen element, or just
after it, the block model judges such a line as it judges the post's last sentence (a
short line of words and a year), so the reader's article ended on it (issue 33: the lines
around the body). The text truths leave it out: counted on the training sites before the
rule, in auto's answers, 27 such lines not in the truth against 6 in it (NOTES.md, 'Why a
copyright line is left out').

Decisions a change must keep (that section):
- a line is a rights notice by its words, in any language the training pages wrote one
  in: it opens with "Copyright", "©" or "(c)" before a year or a name (RIGHTS_OPENER), or
  it says "all rights reserved" (or the Korean, Chinese or Japanese form; RIGHTS_RESERVED);
- only a short block: a line when it only opens like a notice (RIGHTS_LINE_CHARS: a
  photo's "© …" credit run into the first paragraph is that paragraph), a few sentences
  when it reserves the rights (RIGHTS_CHARS): a paragraph that discusses copyright, or
  quotes a licence, is text;
- on every page type: the notice is no article's, listing's or forum's text.
"""
from __future__ import annotations

import re

import numpy as np

from .blocks import features as bf

# What a rights notice opens with (lower-cased, whitespace collapsed): "copyright" or "©"
# or "(c)", then within a few characters a year or a holder's name. "Copyright license" or
# "Copyright, property …" as a heading does not open with a year or a ©, so it stays.
RIGHTS_OPENER = re.compile(
    r"^(?:copyright\s*(?:©|\(c\)|c(?=\d))?\s*(?:(?:19|20)\d\d|©)|©|\(c\)\s*(?:copyright|(?:19|20)\d\d))")
# ... or the reservation itself, anywhere in the line ("all rights reserved", Korean 무단전재
# "reproduction without permission forbidden", Chinese 版权所有 "copyright owned",
# Japanese 無断転載 "no reprint without permission").
RIGHTS_RESERVED = re.compile(r"all rights reserved|무단\s*전재|版权所有|無断転載")
# A notice that only opens like one is a line of at most this many characters (the
# training answers' longest, "Copyright © 2001 by Harvey Seifter. Reprinted with
# permission from Leader to Leader, …", 149): a picture's credit run into the story's
# first paragraph ("© Provided by Business Insider Inc Nintendo/Apple Nintendo and Apple
# shocked the world …", readability's msn page, 290) is the paragraph.
RIGHTS_LINE_CHARS = 160
# A block that reserves the rights is one of at most this many characters (a book
# excerpt's "The foregoing is excerpted from … All rights reserved. No part of this book
# may be reproduced …", 277). Longer, a block is prose about rights.
RIGHTS_CHARS = 300
# A word one of which every notice holds (lower-cased): RIGHTS_OPENER opens with the first
# three, RIGHTS_RESERVED needs one of the others; a text without any is not read.
RIGHTS_WORDS = ("copyright", "©", "(c)", "all rights reserved", "무단", "版权所有", "無断転載")


def lines(texts: list[str], join: bf.Joined | None = None) -> np.ndarray:
    """Bool per block text (whitespace collapsed, as segment.texts gives them): a rights
    notice, opening like one (RIGHTS_OPENER, at most RIGHTS_LINE_CHARS characters) or
    reserving the rights (RIGHTS_RESERVED, at most RIGHTS_CHARS). Only the texts holding one of RIGHTS_WORDS
    are read (NOTES.md, 'Why the line rules search a page's texts at once'), found in
    `join` (bf.joined of the texts; made when None)."""
    out = np.zeros(len(texts), bool)
    join = bf.joined(texts) if join is None else join
    for i in np.flatnonzero(join.holding(RIGHTS_WORDS)).tolist():   # a page's one notice or none
        text = texts[i]
        if not 0 < len(text) <= RIGHTS_CHARS:
            continue                       # lower case never shortens a text
        line = text.lower()
        if len(line) <= RIGHTS_CHARS:
            out[i] = ((len(line) <= RIGHTS_LINE_CHARS and RIGHTS_OPENER.search(line) is not None)
                      or RIGHTS_RESERVED.search(line) is not None)
    return out


def without(page):
    """`page` (keep.Judged) with every rights notice judged no content (its texts read as
    `lines` reads them, searched in its `join`); `page` as it is when it shows none."""
    return page.dropping(lines(page.texts, page.join))
