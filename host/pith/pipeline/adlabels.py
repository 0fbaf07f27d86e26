"""Ad labels: the line a site prints over an ad slot inside its story ("Advertisement", "Continua após a publicidade"), which is not the text.

A news site breaks its story for ads and labels each slot: "Advertisement" (Liputan6,
Business Insider), "Continua após a publicidade" (UOL), "İçeriğin Devamı Aşağıda"
("the content continues below", onedio), "Sponsored" (rediff).
The ad itself is a script's and not in a static page, but its label is a text block
between two paragraphs, and the block model keeps it with them (issue 33: the lines
around the body). The text truths leave it out: counted on the training sites before the
rule, in auto's answers, 36 such lines not in the truth against 3 in it (NOTES.md, 'Why an
ad's label is left out').

Decisions a change must keep (that section):
- a block is an ad's label only when its whole text is the label (AD_LABEL, after
  trimming punctuation): a sentence about advertising, or a heading "Advertising" over
  a paragraph in the same block, is text;
- the words are the labels the training pages wrote, and their plain forms in the
  languages Pith's pages most often come in; no list of every language's word.
"""
from __future__ import annotations

import re

import numpy as np

from .blocks import features as bf

# An ad slot's label, the block's whole text (lower-cased, whitespace collapsed, trimmed
# of the dashes, dots and colons around it): the word for an ad ("advertisement",
# "anzeige", "publicidad", "广告" …), or a "the story continues below / after the ad"
# line in the forms the training pages wrote. Not "advertising": the name of a field as
# often as a label (a list of graphic design's specialities, wcxb_dev_full 0823).
AD_LABEL = re.compile(
    r"^(?:advertisements?|advert|sponsored|anzeige|werbung|publicit[ée]|"
    r"publicidad|publicidade|pubblicit[àa]|reklam|реклама|广告|廣告|広告|광고|"
    r"(?:(?:the\s+)?(?:story|article|content)\s+)?continues?\s+(?:below|after)"
    r"(?:\s+(?:this\s+|the\s+)?(?:advertisement|ad|advert))?|"
    r"continua após a publicidade|continúa después de la publicidad|"
    r"i̇?çeriğin devamı aşağıda|"
    r"advertisement\s*[-–—:]?\s*scroll to continue|scroll to continue with content)$")
# Trimmed around a label before it is read ("— Advertisement —", "Advertisement:").
TRIM = " \t\n.:;…·•|-–—_*()[]"
# A label is a short line: no block longer than this is read (the longest form above).
AD_LABEL_CHARS = 40
# A word one of which every label AD_LABEL reads holds (lower-cased; "contin" for
# "continues", "continua", "continúa"; "public" for "publicité", "publicidad"): a text
# without any is not read. None ends in "i" (features.containing).
AD_WORDS = ("advert", "sponsored", "anzeige", "werbung", "public", "pubblicit", "reklam",
            "реклама", "广告", "廣告", "広告", "광고", "contin", "çeriğin")


def labels(texts: list[str], join: bf.Joined | None = None) -> np.ndarray:
    """Bool per block text (whitespace collapsed, as segment.texts gives them): its whole
    text is an ad slot's label (AD_LABEL). Only the texts holding one of AD_WORDS are read (NOTES.md,
    'Why the line rules search a page's texts at once')."""
    out = np.zeros(len(texts), bool)
    join = bf.joined(texts) if join is None else join
    for i in join.holding(AD_WORDS).nonzero()[0].tolist():   # one regular expression per hit
        text = texts[i]
        if len(text) <= 2 * AD_LABEL_CHARS:
            line = text.lower().strip(TRIM)
            out[i] = 0 < len(line) <= AD_LABEL_CHARS and AD_LABEL.match(line) is not None
    return out


def without(page):
    """`page` (keep.Judged) with every ad label judged no content (its texts read as
    `labels` reads them, searched in its `join`); `page` as it is when it shows none."""
    return page.dropping(labels(page.texts, page.join))
