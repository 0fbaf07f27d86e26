"""The words that name a comment thread or a comment, in an id, a class or a custom element's tag.

Read by comments.py (a thread is found by its names: NOTES.md, 'Why comment threads are
found by their names') and by features.py (a comment in an undefined custom element is
shown: NOTES.md, 'Why comments in undefined custom elements are shown'), which comments.py
reads in turn: the words live here, below both.
"""
from __future__ import annotations

import re

# Words of an id or a class that name a comment thread or one of its comments (lower
# case), at the start of the name or of a part of it: `commentlist`, `comment-body`,
# `dsq-comment-57935`, `ugccmt-comments`, `jc_commentsDiv`; not inside a word
# (`feature_chompcommentimages`), and not commenting or commentary (a site's commenting
# guidelines, an article's commentary are its text).
THREAD_WORDS = re.compile(r"(?:^|[\W_\d])(?:comment(?!ing|ary|ator)|disqus|dsq-|ugccmt|livefyre"
                          r"|talkback)")
# The words THREAD_WORDS is made of, as written: a name holding none of them is no
# thread's (names_thread is not asked).
THREAD_LITERALS = ("comment", "disqus", "dsq-", "ugccmt", "livefyre", "talkback")
# Names that state whether a page or a post has comments, not where they are: a post's
# `has-comments`, a page's `no-comments` or `comments-open` (WordPress and Squarespace
# put them on the article and the body).
STATE_NAMES = re.compile(r"^(?:has|no|not|with|without|allow|disable|enable|show|showing|hide)"
                         r"[-_]|[-_](?:open|closed|off|on|enabled|disabled|count|number|link|"
                         r"links|placeholder)$")


def names_thread(name: str) -> bool:
    """Whether one of the words of an id or a class attribute names a thread or a comment
    (THREAD_WORDS), not a state (STATE_NAMES)."""
    low = name.lower()
    if not THREAD_WORDS.search(low):          # most names: one search, no split
        return False
    return any(THREAD_WORDS.search(word) and not STATE_NAMES.search(word)
               for word in low.split())
