"""Author boxes: the "About the author" box a post carries, named so by its class or id, which is not the post.

A blog or a news site puts a box with the author's picture, name and a few lines of
biography before or after the post ("Jeremy Schoemaker – who has written 2565 posts on
ShoeMoney.com", "Known in some circles as the most amazing man in the universe …"). Its
lines are prose, so the block model keeps them with the post; the text truths leave them
out (issue 33, item 3: the lines around the body). Its class or id says what it is:
`author-bio`, `about-the-author`, `authorbox`, `author-info` (AUTHOR_BOX_NAME).

Decisions a change must keep (NOTES.md, 'Why an author box is left out'):
- only a name that says box, biography or profile next to "author" (or "bio-box",
  "writer-bio"): the bare words "author" and "byline" name the line under the headline
  (kept or dropped by the model, as before), and "profile" alone a user's page;
- the blocks inside such rows are judged no content, as a post's sign-off is
  (posts.without_named), unless the outermost such rows inside the element hold half its
  visible text or more (posts.NAMED_SHARE): then the box is the page (an author's page);
- on every page type: the box is no article's, listing's or forum post's text.
"""
from __future__ import annotations

import re

import numpy as np

from . import posts
from .snapshot import Snapshot

# Words of an id or a class (lower-cased, anywhere in the name) naming an author box: the
# author with a box, a biography or a profile word after it (`author-bio`, `author_box`,
# `authorInfo`, `author-description`, `author-details`, `author-card`), "about the author",
# `bio-box` and `writer-bio`. On the training pages benched (dragnet_train, cleaneval,
# wcxb_dev_full, magic_html) 5 of 80 such boxes (over 60 characters) are in the truth.
AUTHOR_BOX_NAME = re.compile(
    r"author[-_]?(?:bio|box|info|description|about|details|profile|card|block)"
    r"|about[-_]?the[-_]?author|author-wrap|bio[-_]?box|writer[-_]?bio")
# ... which every such name holds: the names holding none are not tested.
AUTHOR_BOX_LITERALS = ("author", "bio")


def boxes(snap: Snapshot) -> np.ndarray:
    """Rows whose id or class names an author box (AUTHOR_BOX_NAME, any case)."""
    return posts.named_rows(snap, AUTHOR_BOX_NAME, AUTHOR_BOX_LITERALS)
