"""The host pipeline, and the only module that knows its stage order.

`select`: validate the capture (snapshot.from_json), compute per-node features
(features.compute), score and choose with the selected algorithm (algorithms.<name>.run),
run the block stage (blocks/keep.py, option `blocks`), classify the page (pagetype), read
the page's metadata around the choice (pith.pipeline.metadata; its title reads the page
type), and describe the choice (node, path, score, runner-ups, kept
blocks, metadata, stage timings). Decisions a change must keep:
  - when hiding leaves no text, or less than `hidden_min_visible` of the page's text
    (display:none and aria-hidden not counted), the page is in a state no reader sees as
    final (anti-flicker opacity, sections a scroll animation has not revealed): it is
    scored as its reveal shows it, display:none and aria-hidden still hiding
    (`hidden_reveal`), and with nothing hidden (`hidden_ignored`) only when that leaves
    nothing to choose from;
  - `lqf_clean` drops the link lists inside the choice; a `pin` (a reader's per-site
    rule) replaces the choice's node, keeping the method's scores and blocks;
  - with auto and the block stage (`auto_block_choice`), the element becomes the one of
    highest expected F1 under the block model's probabilities of every block of the page
    (blocks/expected.py), and every later block decision on the page (the stage, grow, shrink,
    include / exclude) reads those same probabilities;
  - the block stage judges the choice grown `blocks_grow` times, and the node becomes the
    kept blocks' lowest common ancestor (a pinned node is judged as it is);
  - the vote's element inside the comment thread left out of the body moves out of it
    before the block model judges the page (`auto_thread_first`), and an answer that
    would be the headline alone is the headline's post (`auto_post_whole`, whole_post).

`grow` and `shrink` move a choice afterwards, and every press changes the text the reader
sees (a press that only moves the outline looks broken): grow = the nearest ancestor with
more visible text than the selection shows (for a method's answer of several parts, only
those parts); shrink = the child with the method's highest score, and down through
wrappers with the same text; a shrink right after a grow returns along the caller's trail
(NOTES.md, 'Why grow and shrink always change the text').
"""
from __future__ import annotations

import dataclasses
import importlib
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import adlabels
from . import bios
from . import comments as comments_mod
from . import footprint
from . import headline
from . import features as features_mod
from . import notices
from . import pagetype
from . import posts
from . import reader, render
from . import repeats
from . import rights
from . import sidebars
from . import tallies
from . import teasers
from . import wire
from .wire import (MAX_BLOCK_ROWS, MAX_LISTED_PARTS, MAX_LISTED_PATH,  # noqa: F401
                   MAX_NAME_CHARS, MAX_PAGE_CHARS, page_string)
from . import snapshot as snapshot_mod
from .algorithms import lqf
from .algorithms.base import Choice
from .blocks import expected, keep
from .blocks import segment as blocks_mod
from ..errors import BadNode, NoContent
from .metadata import merge as metadata_mod
from .options import Options

def runner(name: str):
    """`run` of the algorithm module `name` (imported on first use)."""
    return importlib.import_module(f"{__package__}.algorithms.{name}").run


@dataclass(eq=False)
class Selection:
    """A scored page and the node chosen on it; kept by the host for grow/shrink."""

    snap: snapshot_mod.Snapshot
    feats: features_mod.Features
    result: Choice
    options: Options
    timings: dict[str, float] = field(default_factory=dict)
    hidden_ignored: bool = False   # stage 3 fell back to scoring hidden text
    pinned: bool = False           # the node is the caller's pin, not the method's choice
    element: Choice | None = None  # the choice before the block stage (None: stage off)
    scope: int | None = None       # the row the block stage judged the node's blocks in
    page: keep.Judged | None = None  # every block judged, when auto chose its element by
                                     # them (auto_block_choice): the block stage's own
    thread: comments_mod.Thread | None = None  # the comment thread left out of the body
    page_type: tuple[str, float] | None = None  # (type, probability), pagetype.classify
    # block-stage answers already computed, by (node, include, exclude): a grow's reply,
    # the reader's clean and the bench's one-click text ask for the same node
    choices: dict = field(default_factory=dict, repr=False)
    metadata: metadata_mod.Metadata | None = None   # the page's, read around the choice

    @property
    def node(self) -> int:
        return self.result.node

    def nbytes(self) -> int:
        """Bytes this selection holds (footprint.py): what it was built with, measured
        once, and the block-stage answers added since (`choices`), measured each time."""
        fixed = self.__dict__.get("_fixed_bytes")
        if fixed is None:
            fixed = footprint.of({k: v for k, v in vars(self).items() if k != "choices"})
            self.__dict__["_fixed_bytes"] = fixed
        return fixed + footprint.of(self.choices)

    def describe(self, node: int, listed: bool = False) -> dict[str, Any]:
        """The wire form of one node: id, path, tag, score and text size, the page's
        strings cut to MAX_NAME_CHARS; `listed` (a runner-up, a part): its path only
        when it is at most MAX_LISTED_PATH deep (null otherwise)."""
        deep = listed and int(self.snap.depth[node]) > MAX_LISTED_PATH
        return {
            "node": node,
            "path": None if deep else self.snap.path(node),
            "tag": page_string(self.snap.tag[node], MAX_NAME_CHARS),
            "id": page_string(self.snap.id[node], MAX_NAME_CHARS),
            "cls": page_string(self.snap.cls[node], MAX_NAME_CHARS),
            "score": round(float(self.result.score[node]), 4),
            "chars": int(self.feats.chars[node]),
        }

    def blocks_wire(self, node: int, include=None, exclude=None) -> dict[str, Any] | None:
        """The block stage's answer inside `node` as row lists of this capture: `kept`
        block rows, `drop` (topmost rows left out), `quiet` (rows whose own text is left
        out); None with the stage off."""
        choice = block_choice(self, node, include, exclude)
        if choice is None:
            return None
        return blocks_reply(choice)

    def output(self, fmt: str) -> str:
        """The answer's content in `fmt` (render.output of this snapshot and choice)."""
        title = self.metadata.title if self.metadata is not None else None
        return render.output(self.snap, self.feats, self.result, fmt, title or "")

    def comments_thread(self, node: int) -> comments_mod.Thread | None:
        """The comment thread answered apart from what selecting `node` shows: None when
        the page has none, it is the content, or `node` lies inside it."""
        thread = self.thread
        return None if thread is None or thread.inside[node] else thread

    def comments_wire(self, node: int) -> dict[str, Any] | None:
        """The reply's `comments` for `node` (comments.wire; PROTOCOL.md), or None."""
        thread = self.comments_thread(node)
        return None if thread is None else comments_mod.wire(self.snap, self.feats, thread)

    def comments_text(self, fmt: str = "text") -> str | None:
        """The comment thread's text apart from the body (text or markdown), or None."""
        thread = self.comments_thread(self.node)
        return None if thread is None else comments_mod.output(self.snap, self.feats,
                                                                thread, fmt)

    def page_type_wire(self) -> tuple[str | None, float | None]:
        """(`page_type`, `page_type_p`) of the reply and the rows: the type and its
        probability rounded to 3 places, (None, None) with no model installed."""
        if self.page_type is None:
            return None, None
        return self.page_type[0], round(self.page_type[1], 3)

    def to_wire(self) -> dict[str, Any]:
        out = self.describe(self.node)
        out["algorithm"] = self.options.algorithm
        out["title"] = page_string(self.snap.meta["title"], MAX_PAGE_CHARS)
        out["url"] = page_string(self.snap.meta["url"], MAX_PAGE_CHARS)
        out["hidden_ignored"] = self.hidden_ignored
        out["pinned"] = self.pinned
        if self.result.parts is not None:
            parts = [int(p) for p in self.result.parts[:MAX_LISTED_PARTS]]
            listed = [p for p in parts if self.snap.depth[p] <= MAX_LISTED_PATH]
            path_of = dict(zip(listed, self.snap.paths(listed)))
            out["parts"] = [path_of.get(p) for p in parts]
        out["candidates"] = [self.describe(int(b), listed=True)
                             for b in self.result.blocks[1:1 + self.options.candidates]]
        if self.result.kept is not None:
            out["blocks"] = blocks_reply(self.result)
        if self.metadata is not None:
            out["metadata"] = self.metadata.to_wire()
        out["comments"] = self.comments_wire(self.node)
        out["page_type"], out["page_type_p"] = self.page_type_wire()
        out["timings"] = {k: round(v, 3) for k, v in self.timings.items()}
        return out


# Block-stage answers a selection keeps for nodes other than its own (`choices`): a
# grow's reply, the reader's clean and the bench's one-click text ask for the same node
# in a row; each holds a few arrays of the page's length, so a reader pressing grow and
# shrink all over a large page must not pile them up.
MAX_CHOICES = 4



def blocks_reply(choice: Choice) -> dict[str, Any]:
    """{kept, drop, quiet, truncated} of a block-stage choice (rows of the capture), each
    list cut at wire.MAX_BLOCK_ROWS (a reply stays far under the 1 MB cap)."""
    lists = {
        "kept": choice.kept.tolist() if choice.kept is not None else [],
        "drop": np.flatnonzero(choice.drop).tolist() if choice.drop is not None else [],
        "quiet": np.flatnonzero(choice.quiet).tolist() if choice.quiet is not None else [],
    }
    limit = wire.MAX_BLOCK_ROWS
    truncated = any(len(v) > limit for v in lists.values())
    return {**{k: v[:limit] for k, v in lists.items()}, "truncated": truncated}


def block_choice(sel: "Selection", node: int, include=None, exclude=None) -> Choice | None:
    """The block stage's choice for `node` (the selection's own when it is the chosen
    node and the reader changed nothing), None with the stage off."""
    if not sel.options.blocks:
        return None
    node = sel.snap.check_node(node)
    if node == sel.node and not include and not exclude:
        return sel.result
    inc = tuple(sel.snap.check_node(r) for r in include or ())
    exc = tuple(sel.snap.check_node(r) for r in exclude or ())
    key = (node, inc, exc)
    if key not in sel.choices:
        # a Selection made without the stage (element, scope None) judges the node itself
        scope = sel.scope if (node == sel.node and sel.scope is not None) else node
        method = sel.element if sel.element is not None else sel.result
        while len(sel.choices) >= MAX_CHOICES:
            del sel.choices[next(iter(sel.choices))]       # the oldest
        sel.choices[key] = keep.apply(sel.snap, sel.feats, sel.options, scope, method,
                                      np.array(inc, np.int64), np.array(exc, np.int64),
                                      answer=node, page=sel.page,
                                      leave_out=comments_mod.left_out(sel.thread, scope))
    return sel.choices[key]


def reader_view(sel: Selection, node: int, include=None, exclude=None) -> dict[str, Any]:
    """What the reader view leaves out of `node` (reader.clean) for this selection: its
    method's answer, the block stage's choice for `node` with the reader's `include` /
    `exclude` rows, and whether hidden text was counted."""
    node = sel.snap.check_node(node)
    out = reader.clean(sel.snap, sel.feats, sel.options, sel.result, node,
                       block_choice(sel, node, include, exclude), sel.hidden_ignored)
    return {**out, "comments": reader_comments(sel, node, include),
            "metadata": metadata_at(sel, node)}


def reader_comments(sel: Selection, node: int, include=None) -> dict[str, Any] | None:
    """The comment thread apart from the reader view's body (Selection.comments_wire), None
    when the reader took a part of it into the body (an `include` row inside it)."""
    thread = sel.comments_thread(node)
    if thread is None or any(thread.inside[sel.snap.check_node(r)] for r in include or ()):
        return None
    return sel.comments_wire(node)


def select(capture: dict | snapshot_mod.Snapshot, options: Options | None = None,
           pin: int | None = None, consume: bool = False) -> Selection:
    """Run stages 1–5 on a decoded capture (or an already validated Snapshot); `pin`,
    a row of that capture, is then the chosen node (BadNode when it is not a row).
    `consume`: the capture's column lists are emptied once validated (the host's request
    is never read again, and a million-element page's number lists are a few hundred MB
    of its peak memory; the strings live on in the Snapshot's arrays)."""
    opts = options or Options()
    t0 = time.perf_counter()
    if isinstance(capture, snapshot_mod.Snapshot):
        snap = capture
    else:
        snap = snapshot_mod.from_json(capture, opts.max_nodes)
        if consume and isinstance(capture.get("nodes"), dict):
            capture["nodes"].clear()
    t1 = time.perf_counter()
    feats = features_mod.compute(snap, skip_hidden=opts.skip_hidden,
                                  reading=features_mod.Reading.of(opts))
    t2 = time.perf_counter()
    run = runner(opts.algorithm)
    hidden_ignored = False
    try:
        if mostly_hidden(snap, feats, opts):
            raise NoContent("too little visible text")
        result = run(snap, feats, opts)
    except NoContent:
        if not opts.skip_hidden or not feats.hidden.any():
            raise
        feats, result = revealed(snap, opts, run) if opts.hidden_reveal else (feats, None)
        if result is None:
            opts = dataclasses.replace(opts, skip_hidden=False)
            feats = features_mod.compute(snap, skip_hidden=False,
                                         reading=features_mod.Reading.of(opts))
            result = run(snap, feats, opts)
            hidden_ignored = True
    if pin is not None:
        result = keep.pin(result, snap.check_node(pin))
    if opts.lqf_clean:
        result = lqf.clean(snap, feats, opts, result)
    t3 = time.perf_counter()
    thread = comments_mod.apart(snap, feats, opts)
    page, top = None, -1
    if opts.blocks and pin is None and opts.algorithm == "auto" and opts.auto_block_choice:
        if opts.auto_thread_first:
            result = comments_mod.without(snap, feats, result, thread)
        result, page, top = choose_by_blocks(snap, feats, opts, result, thread)
    result = comments_mod.without(snap, feats, result, thread, pinned=pin is not None)
    content = comments_mod.content(snap, feats, opts) if thread is None else None
    result = comments_mod.whole(snap, feats, result, content, pinned=pin is not None)
    if page is not None and opts.forum_posts and posts.forum(snap, opts.forum_question):
        model = keep.model_of(snap)
        # the posts inside the element are lifted where a thread is known to be the
        # content (NOTES.md, 'Why the replies inside the element are kept like its first post')
        result, page = posts.alike(snap, feats, result, page, blocks_mod.compute(snap, feats),
                                   model.threshold, model.add,
                                   opts.forum_posts_within and content is not None,
                                   opts.forum_posts_best, opts.forum_posts_bare,
                                   opts.forum_posts_body)
        if opts.forum_meta:
            page = posts.meta_lines(snap, result, page, blocks_mod.compute(snap, feats),
                                    opts.forum_meta_dates)
        if opts.forum_sign_offs:
            page = posts.without_named(snap, feats, result.node, page,
                                       blocks_mod.compute(snap, feats), posts.sign_offs(snap))
        if opts.forum_notices:
            page = posts.without_named(snap, feats, result.node, page,
                                       blocks_mod.compute(snap, feats), posts.notices(snap))
        if opts.forum_repeats:
            page = posts.repeated_lines(snap, result.node, page, blocks_mod.compute(snap, feats))
        if opts.forum_tallies:
            # a thread's counts are not a post's text (NOTES.md, 'Why a board's tally lines
            # are left out')
            page = tallies.without(page)
    if page is not None and top >= 0 and opts.forum_question_lines:
        # the question above its answers is more than its title, once the answers are
        # kept alike (NOTES.md, 'Why a question is kept with its answers')
        model = keep.model_of(snap)
        result, page = posts.question(snap, feats, result, page, blocks_mod.compute(snap, feats),
                                      content, top, model.threshold)
    if page is not None and opts.forum_board_around:
        # the board around an engine's thread is not the thread, nor what the posts' likes
        # grew the element over outside it (NOTES.md, 'Why the board around a forum
        # engine's thread is left out')
        page = dataclasses.replace(page, p=comments_mod.board_around(
            snap, blocks_mod.compute(snap, feats), result.node, content, top, page.p))
    if page is not None and opts.auto_author_boxes:
        # an "About the author" box is not the post (NOTES.md, 'Why an author box is left out')
        page = posts.without_named(snap, feats, result.node, page,
                                   blocks_mod.compute(snap, feats), bios.boxes(snap))
    if page is not None and (opts.auto_rights_lines or opts.auto_ad_labels
                             or opts.auto_hosting_notices or opts.auto_signup_prompts
                             or opts.auto_adjacent_repeats):
        # the line rules read the page's texts as judged (whitespace collapsed) and
        # search the features' join of them (NOTES.md, 'Why the line rules search a
        # page's texts at once')
        if opts.auto_rights_lines:
            # a copyright notice is not the text (NOTES.md, 'Why a copyright line is left out')
            page = rights.without(page)
        if opts.auto_ad_labels:
            # an ad slot's label is not the text (NOTES.md, 'Why an ad's label is left out')
            page = adlabels.without(page)
        if opts.auto_hosting_notices:
            # a platform's hosting statement is not the post (NOTES.md, 'Why a platform's
            # notices are left out')
            page = page.dropping(notices.hosting(page.texts, page.join))
        if opts.auto_signup_prompts:
            # nor is a newsletter's sign-up prompt (NOTES.md, 'Why a platform's notices are
            # left out')
            page = page.dropping(notices.boxes(snap, feats, blocks_mod.compute(snap, feats),
                                                       notices.signups(page.texts, page.join)))
        if opts.auto_adjacent_repeats:
            # a line said twice in a row is read once (NOTES.md, 'Why a line said twice in
            # a row is read once')
            page = repeats.without(page, blocks_mod.compute(snap, feats))
    if page is not None and content is not None and opts.forum_post_comments \
            and comments_mod.under_posts(snap, feats, content):
        # the remarks under each post of a Q&A thread are comments on it, not its posts:
        # left out of the body and answered apart (NOTES.md, 'Why a post's comments are
        # left out of a Q&A thread')
        page = comments_mod.judged_without(snap, feats, page, content)
        thread = content
    element = result
    if opts.blocks:
        mine = pin is None             # a reader's pinned element is judged as it is
        scope = keep.widen(snap, feats, result.node, opts.blocks_grow if mine else 0)
        if mine and top >= 0 and opts.auto_headline_scope:
            # the title beside the post's body is the post's (NOTES.md, 'Why the headline
            # beside the post's body is read with it')
            scope = headline.scope_over(snap, feats, scope, top)
        result = keep.apply(snap, feats, opts, scope, result,
                            answer=None if mine else result.node, page=page,
                            leave_out=comments_mod.left_out(thread, scope))
        if top >= 0 and opts.auto_post_whole:
            result = whole_post(snap, feats, opts, element, result, page, top, thread)
    t4 = time.perf_counter()
    # the page type first: the title's choice reads it (NOTES.md, 'Why a service page's
    # declared title names it')
    page_type = pagetype.classify(snap, feats, result.node)
    t5 = time.perf_counter()
    metadata = metadata_mod.compute(snap, feats.gone, result.node,
                                    page_type=page_type[0] if page_type else None)
    t6 = time.perf_counter()
    timings = {"validate_ms": (t1 - t0) * 1e3, "features_ms": (t2 - t1) * 1e3,
               "score_ms": (t3 - t2) * 1e3, "blocks_ms": (t4 - t3) * 1e3,
               "metadata_ms": (t6 - t5) * 1e3, "page_type_ms": (t5 - t4) * 1e3,
               "total_ms": (t6 - t0) * 1e3}
    return Selection(snap=snap, feats=feats, result=result, options=opts, timings=timings,
                     hidden_ignored=hidden_ignored, pinned=pin is not None,
                     element=element if opts.blocks else None,
                     scope=scope if opts.blocks else None, page=page, thread=thread,
                     metadata=metadata, page_type=page_type)


def metadata_at(sel: Selection, node: int) -> dict[str, Any]:
    """The wire form of the page's metadata read around `node` (the reader's node after
    grow and shrink: a byline at its top); the selection's own for its chosen node."""
    node = sel.snap.check_node(node)
    if node == sel.node and sel.metadata is not None:
        return sel.metadata.to_wire()
    return metadata_mod.compute(sel.snap, sel.feats.gone, node,
                                page_type=sel.page_type[0] if sel.page_type else None).to_wire()


def choose_by_blocks(snap: snapshot_mod.Snapshot, feats: features_mod.Features, opts: Options,
                     method: Choice, thread: comments_mod.Thread | None = None
                     ) -> tuple[Choice, keep.Judged | None, int]:
    """(auto's choice moved to the element of highest expected F1 under the block model's
    probabilities of every block of the page, every block so judged, the headline's row
    or -1); the choice as it is, None and -1 past blocks_max blocks (option auto_block_choice, blocks/expected.py). A
    comment thread left out of the body (`thread`) is judged no content."""
    page = keep.judge_page(snap, feats, opts, method)
    if page is None:
        return method, None, -1
    page = comments_mod.judged_without(snap, feats, page, thread)
    # the post starts at its headline: the element holds it when the page shows one
    # (NOTES.md, 'Why the element holds the headline')
    blocks = blocks_mod.compute(snap, feats)
    top = (headline.find(snap, feats, blocks, page.p, keep.model_of(snap).threshold)
           if opts.auto_headline and headline.posts(snap, feats, method.node) else -1)
    # teaser lists trailing the post (after its headline, when found) are not the post
    # (NOTES.md, 'Why teaser lists after the post are left out')
    if opts.auto_teasers:
        def forum(page_snap: snapshot_mod.Snapshot) -> bool:
            return posts.forum(page_snap, opts.forum_question)
        page = dataclasses.replace(page, p=teasers.left_out(snap, feats, blocks, top, page.p,
                                                             method.node, forum,
                                                             opts.auto_teasers_story))
    # a column the page names a sidebar is not the post beside it (NOTES.md, 'Why a named
    # sidebar is not the post')
    if opts.auto_sidebars:
        page = dataclasses.replace(page, p=sidebars.left_out(
            snap, blocks, headline.holders(snap, top if top >= 0 else method.node), page.p))
    # nor is a banner the page names its header (NOTES.md, 'Why a named page header is not
    # the post')
    if opts.auto_page_headers:
        page = dataclasses.replace(page, p=sidebars.left_out(
            snap, blocks, headline.holders(snap, top if top >= 0 else method.node), page.p,
            sidebars.headers(snap)))
    if top < 0:
        best = expected.choose(snap, blocks, page.p)
    else:
        # what precedes the headline is not the post, for the choice and every later
        # decision; once chosen, the headline is the post's, kept where the element holds it
        page = dataclasses.replace(page, p=headline.from_top(snap, blocks, top, page.p))
        best = headline.anchored(snap, blocks, page.p, top)
        page = dataclasses.replace(page, p=headline.as_content(snap, blocks, top, page.p))
    if best is None or best == method.node:
        return method, page, top
    # the method's element moved: what it dropped (link lists, furniture inside its
    # winner) stays dropped where the new element holds it, never the new element itself
    # nor a row holding it (a post in an `aside` the method left out as furniture: NOTES.md,
    # 'Why the element the block choice moves to is never dropped'); its parts, preface
    # and appendix belonged to the old element
    drop = method.drop
    if drop is not None:
        drop = drop & ~headline.holders(snap, best)
    return dataclasses.replace(keep.pin(method, best), drop=drop), page, top


def whole_post(snap: snapshot_mod.Snapshot, feats: features_mod.Features, opts: Options,
               element: Choice, answer: Choice, page: keep.Judged | None, top: int,
               thread: comments_mod.Thread | None) -> Choice:
    """`answer` (the block stage's), or, when it shows the headline `top` alone, the
    headline's post (headline.post) with every block of it kept but the comment thread's:
    the block model, unsure of a short post's few lines, kept its title only, and a post
    is more than its title (option auto_post_whole; NOTES.md, 'Why a post is more than its
    headline')."""
    blocks = blocks_mod.compute(snap, feats)
    if not headline.alone(snap, blocks, answer.kept, top):
        return answer
    inside = None if thread is None else thread.inside
    post = headline.post(snap, feats, top, inside)
    if post < 0:
        return answer
    # what precedes the headline is not the post (headline.from_top), nor the thread
    rows = blocks.rows
    before = rows[(rows > post) & (snap.end[rows] <= top)]
    roots = np.empty(0, np.int64) if thread is None else \
        thread.roots[(thread.roots > post) & (thread.roots < snap.end[post])]
    return keep.apply(snap, feats, opts, post, element, include=np.array([post]),
                      exclude=np.concatenate((before, roots)), page=page,
                      leave_out=comments_mod.left_out(thread, post))


def revealed(snap: snapshot_mod.Snapshot, opts: Options, run
             ) -> tuple[features_mod.Features, Choice | None]:
    """(the features of the page as its reveal shows it, the method's choice on them, or
    None when nothing is left to choose from): opacity:0 and visibility:hidden read as
    shown, display:none and aria-hidden still hiding (option hidden_reveal; NOTES.md, 'Why
    a page waiting for its reveal keeps its closed menus hidden')."""
    feats = features_mod.compute(snap, skip_hidden=True, revealed=True,
                                  reading=features_mod.Reading.of(opts))
    try:
        return feats, run(snap, feats, opts)
    except NoContent:
        return feats, None


def mostly_hidden(snap: snapshot_mod.Snapshot, feats: features_mod.Features,
                  opts: Options) -> bool:
    """Whether less than opts.hidden_min_visible of the page's text is visible, counting
    only text that waits to be revealed (opacity:0, visibility:hidden) as hidden; code and
    text hidden on purpose (features.HIDDEN_ON_PURPOSE) do not count."""
    if not opts.skip_hidden or not feats.hidden.any():
        return False
    bits = features_mod.hidden_bits(snap, features_mod.Reading.of(opts))
    out = features_mod.code_rows(snap) | ((bits & features_mod.HIDDEN_ON_PURPOSE) > 0)
    total = int(feats.own_chars[~(out | snap.below(out))].sum())
    return int(feats.chars[0]) < opts.hidden_min_visible * total


def shown_chars(sel: Selection, node: int) -> int:
    """Visible characters of what selecting `node` shows: the method's parts when `node` is
    its multi-part answer, else the node's subtree."""
    parts = sel.result.parts
    if node != sel.node or parts is None:
        return int(sel.feats.chars[node])
    inside = sel.snap.subtrees(parts)
    return int(np.where(inside & ~sel.feats.gone, sel.feats.own_chars, 0).sum())


def moved(sel: Selection, node: int) -> dict[str, Any]:
    """The wire form of the node a grow or shrink moved to, with its blocks."""
    out = sel.describe(node)
    wire = sel.blocks_wire(node)
    if wire is not None:
        out["blocks"] = wire
    return out


def grow(sel: Selection, node: int) -> dict[str, Any]:
    """The nearest ancestor of `node` that shows more text; BadNode when none does."""
    node = sel.snap.check_node(node)
    parent, chars = sel.snap.parent, sel.feats.chars
    shown = shown_chars(sel, node)
    up = int(parent[node])
    while up >= 0 and chars[up] <= shown:
        up = int(parent[up])
    if up < 0:
        raise BadNode("the selection already shows the whole page; it cannot grow", node=node)
    return moved(sel, up)


def shrink(sel: Selection, node: int, trail: list[int] | None = None) -> dict[str, Any]:
    """Back down the grow trail if it leads here, else the child with the highest score
    (the CNR for the cnr method, as the paper says; each method's own score otherwise),
    passing through children that show the same text as `node`."""
    snap = sel.snap
    node = snap.check_node(node)
    if trail:
        last = snap.check_node(trail[-1])
        if node < last < snap.end[node]:
            return moved(sel, last)
    chars, score = sel.feats.chars, sel.result.score
    shown = shown_chars(sel, node)
    at = node
    while True:
        kids = snap.children(at)
        kids = kids[chars[kids] > 0]
        if not len(kids):
            raise BadNode("the selection has no smaller block with text; it cannot shrink",
                          node=node)
        best = int(kids[np.lexsort((-chars[kids], -score[kids]))[0]])
        if chars[best] != shown:
            return moved(sel, best)
        at = best
