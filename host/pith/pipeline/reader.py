"""What the reader view leaves out of a selected block: link lists, ads, forms, widgets, hidden rows.

The reader view shows one element of the page (the selection, after any grow or shrink)
without the clutter inside it. The extension asks the host's `clean` action which rows
of that element to leave out, and the in-page collector (extension/inject/collect.js)
skips their subtrees. The rows come from the block stage and the seed methods:

  0. the block stage (blocks/keep.py, option `blocks`): the blocks of the element the block
     model leaves out, with the reader's own `include` / `exclude` rows over the model
     (a click on a dimmed or a kept block in the page); rows whose own text belongs to
     a dropped block while a kept block lies inside them are `quiet`: the collector
     leaves out their own text nodes and keeps their children. With the stage on, what
     is content is the model's and the reader's call, so the overlay shows exactly what
     the reader reads: only the widgets, embeds and ad-server rows of step 2 and the
     hidden rows of step 3 are added (never content, whatever a block decision says);
     steps 1, 4, 5 and step 2's forms, link-list cells and empty tables — all of them
     features of the model — apply when the stage is off;
  1. the link-quota filter (Mantratzis et al.): sections scoring 2 points are link lists —
     navigation, share bars, tag clouds, "related" lists — (algorithms/lqf.py), unless
     together they hold more than `auto_clean_max` of the block's visible text: the block
     is then itself a list (a listing's or a collection's items), the same rule as the
     default pipeline's cleaner (algorithms/auto.py), so on a listing the reader view
     keeps the items `pith extract` keeps (NOTES.md, 'Why the reader view keeps
     link lists that are most of the block');
  2. the DOM filters of Agarwal et al.: their first set (iframes, embeds, scripts and
     whatever else the filters_ignore_* options switch on; form widgets always; forms
     holding under half the block's text, see FORM_MAX_SHARE; not image
     links, which are how articles link figures to their full size), the
     advertisement remover (rows pointing at ad servers), the link-list remover (table
     cells with more links than words allow) and the empty-table remover
     (algorithms/filters.py);
  3. rows hidden in the page (display:none, visibility:hidden, aria-hidden…), unless the
     selection was made with hidden text counted (`hidden_ignored`: on such a page
     everything is hidden and nothing would be left);
  4. for a method that answered with several parts (satisfiable sub-trees, CLG groups),
     while the selection is still that answer: the rows of the block that belong to no
     part and hold none;
  5. page furniture — footer, nav, aside, dialogs and their ARIA roles (auto.furniture) —
     unless it holds nearly all of the block (`auto_furniture_max`): a reader who grew
     the selection to the whole page still reads the article, not its menus and cookie
     banner (option `auto_furniture`, whichever method chose the block).
  6. the comment thread under the post (comments.py, option `comments_apart`): the
     block stage never keeps it, and the clean reply's `comments` (select.reader_view)
     carries it apart, for the reader's folded "Comments" section (none when an
     `include` row lies inside it: the reader took it into the body).
Only the topmost rows are listed (a dropped row's subtree goes with it). The chosen
element itself is never dropped. The DOM-filters paper's "removed links retainer" gives
`links`: the text links of the dropped rows, for the reader's optional list at the end.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .algorithms import auto, filters, lqf
from .algorithms.base import Choice
from .features import Features
from .options import Options
from .snapshot import Snapshot
from . import wire

# Form widgets never belong in a reader; their labels and hints are UI, not content.
WIDGET_TAGS = frozenset({"input", "textarea", "button", "select"})

# A form inside the block goes when it holds less than this share of the block's text (a
# search box, a comment or newsletter form). Some sites (ASP.NET) wrap the whole page in
# one form; grown to such a form's parent, the block must not lose everything.
FORM_MAX_SHARE = 0.5

# A reader wants the links of a share bar or a "see also" list, not the thousand entries of
# a mega-menu: past this many the list stops (the reply must also stay under 1 MB).
MAX_LINKS = 200

# A dropped link is listed with its text cut to this many characters, and only when its
# URL is at most this long (a cut URL would lead somewhere else; a data: URL of megabytes
# is no link a reader follows): 200 links then stay under 0.5 MB whatever the page holds.
MAX_LINK_TEXT_CHARS = 300
MAX_LINK_URL_CHARS = 2048


def _part_outsiders(snap: Snapshot, answer: Choice, node: int,
                    within: np.ndarray) -> np.ndarray:
    """Rows inside `node` that neither lie in a part's subtree nor hold a part (stage 4)."""
    parts = answer.parts
    if parts is None or node != answer.node:
        return np.zeros(snap.n, np.bool_)
    in_part = snap.subtrees(parts)
    holds = snap.subtree_sum(in_part.astype(np.int64)) > 0
    return within & ~in_part & ~holds


def _cleaners(snap: Snapshot, feats: Features, opts: Options, answer: Choice, node: int,
              within: np.ndarray, tags: filters.Tags) -> np.ndarray:
    """Steps 1, 2 (forms, link-list cells, empty tables), 4 and 5: the seed methods'
    cleaners, used when the block stage is off."""
    link_lists = lqf.link_quota(snap, feats, opts).link_list & within              # 1
    block = snap.subtrees([node])
    if auto.lists_are_content(snap, feats, block, link_lists, opts):
        link_lists = np.zeros(snap.n, np.bool_)
    drop = link_lists.copy()
    forms = tags.mask({"form"})                                                    # 2
    drop |= forms & (feats.chars < FORM_MAX_SHARE * max(int(feats.chars[node]), 1))
    if opts.filters_link_lists:
        drop |= filters.link_lists(snap, feats, tags, ~filters.dead_rows(snap, feats, drop),
                                   opts)
    if opts.filters_empty_tables:
        drop |= filters.empty_tables(snap, feats, tags, ~filters.dead_rows(snap, feats, drop),
                                     opts)
    if answer.drop is not None and node == answer.node:
        drop |= answer.drop
    drop |= _part_outsiders(snap, answer, node, within)                                     # 4
    if opts.auto_furniture:                                                        # 5
        drop |= auto.furniture_inside(snap, feats, block, auto.furniture(snap),
                                      opts.auto_furniture_max) & within
    return drop


def clean(snap: Snapshot, feats: Features, opts: Options, answer: Choice, node: int,
          blocks: Choice | None, hidden_ignored: bool = False) -> dict[str, Any]:
    """{drop: topmost row ids to leave out of `node`, quiet: rows whose own text is left
    out, links: [{text, href}], counts}. `answer` is the method's answer on the page (its
    parts and dropped rows apply while `node` is its node), `blocks` the block stage's
    choice for `node` with the reader's own include / exclude (None with the stage off),
    `hidden_ignored` whether the page was scored with hidden text counted (step 3).
    select.reader_view passes a Selection's. Page strings and row lists are cut to what a
    reply can carry (wire.py)."""
    node = snap.check_node(node)
    within = lqf.inside(snap, np.array([node]))
    tags = filters.tags_of(snap, feats)                                            # 2
    # image links stay: an article's figures are often links to the full-size image
    widgets = filters.ignored(snap, feats, tags,
                              dataclasses.replace(opts, filters_ignore_image_links=False))
    ads = filters.ad_rows(snap, opts) if opts.filters_ads else np.zeros(snap.n, np.bool_)
    drop = widgets | ads | tags.mask(WIDGET_TAGS)
    if not hidden_ignored:                                                     # 3
        drop |= feats.hidden
    if blocks is not None:                                                         # 0
        # what is content is the block model's (and the reader's) call: link lists,
        # forms, furniture and parts are among its features, not added again
        if blocks.drop is not None:
            drop |= blocks.drop
        drop &= within
    else:
        drop = (drop | _cleaners(snap, feats, opts, answer, node, within, tags)) & within
    removed = drop | snap.below(drop)
    links = filters.removed_links(snap, feats, removed & ~feats.hidden, ads)
    top = np.flatnonzero(drop & ~snap.below(drop))
    quiet = ([] if blocks is None or blocks.quiet is None
             else np.flatnonzero(blocks.quiet & ~removed).tolist())
    # the page's strings and row lists, cut to what a reply can carry (wire.py)
    links = [(t, u) for t, u in links if len(u) <= MAX_LINK_URL_CHARS][:MAX_LINKS]
    rows = wire.MAX_BLOCK_ROWS
    return {
        "node": node,
        "drop": top[:rows].tolist(),
        "quiet": quiet[:rows],
        "links": [{"text": wire.page_string(t, MAX_LINK_TEXT_CHARS), "href": u}
                  for t, u in links],
        "dropped_chars": int(feats.chars[top].sum()),
        "truncated": len(top) > rows or len(quiet) > rows,
    }
