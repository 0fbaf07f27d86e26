"""Code samples on a service page: a product's demo (an editor's hero, a platform's API example), not the page's text, left out of the answer.

A service's landing page shows its product at work: an editor's screen of code, a
hosting platform's "Example: generate alt text" function, a framework's deploy snippet,
each in a `pre`. The block stage keeps code whatever the model says (keep.structured:
readers of an article or a reference expect its listings), so the reader of
code.visualstudio.com got 4,600 characters of a demo's TypeScript after the pitch's
first lines (page F1 0.22, the block oracle's 0.89).

Decisions a change must keep (NOTES.md, 'Why a service page's code samples are left out'):
- only on a page the page type model calls a service page (pagetype.classify, the
  method's element; its most likely class, SERVICE): an article's, a documentation
  page's or a forum's code is what its readers came for, and their truths keep it;
- only code blocks (keep.CODE_BLOCK_TAGS: `pre` and its old spellings) and what they
  hold; inline `code` in a sentence stays with its sentence;
- the page type is asked for only when a kept block is code.
"""
from __future__ import annotations

import numpy as np

from . import pagetype
from .features import Features, tag_in
from .snapshot import Snapshot

# The page type (pagetype.CLASSES) whose code blocks are demos: on the training sites
# every kept code block of a page so called was left out by its truth (vscode, netlify,
# vercel), and no page of another type so called kept code its truth leaves out for this reason.
SERVICE = "service"


def left_out(snap: Snapshot, feats: Features, node: int, rows: np.ndarray, keep: np.ndarray,
             code_tags: frozenset[str]) -> np.ndarray:
    """`keep` (per block, `rows` their rows) without the blocks inside a code block
    (`code_tags`), on a page the page type model calls a service page (`node` the
    method's element); `keep` as it is on any other page."""
    code = tag_in(snap, code_tags)
    code = (code | snap.below(code))[rows] & keep
    if not code.any():                 # most pages: no code kept, no page type asked for
        return keep
    kind = pagetype.classify(snap, feats, node)
    if kind is None or kind[0] != SERVICE:
        return keep
    return keep & ~code
