"""One frozen Options object: every tunable of the pipeline, its default and its reason.

The host owns the defaults; callers (the extension, the CLI) pass only overrides, as a
dict, through `Options.from_overrides`, the one validation point. Unknown keys, wrong
types and out-of-range values raise `BadOptions` naming the key.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..errors import BadOptions

# Each name is a module of pith/pipeline/algorithms/ with `run(snap, feats, opts) -> Choice`.
ALGORITHMS = ("cnr", "lqf", "sst", "filters", "clg", "auto")

# Tags Algorithm 1 of the CNR paper treats as "nonContentNode": weight 1, no characters,
# subtree not counted. The paper names img, nav, a, script, video and svg "for
# instance"; the rest are of the same three kinds it describes (no text, menus, code or
# embedded media), plus `head`, which is never main content.
CNR_NON_CONTENT = frozenset({
    # the paper's own examples
    "img", "nav", "a", "script", "video", "svg",
    # code and metadata
    "style", "noscript", "template", "head", "title", "meta", "link", "base",
    # embedded media and widgets without readable text (a frame is not one of them: the
    # document of a same-origin frame is captured as its child and may be the content)
    "audio", "canvas", "object", "embed", "picture", "map",
    "select", "button", "input", "textarea",
})

# Structurally important elements of the link-quota filter (options.lqf_structural).
LQF_STRUCTURAL = frozenset({
    # the paper's table-like structures, and p
    "table", "tr", "td", "ul", "ol", "li", "div", "p",
    # the same table and list roles
    "th", "dl", "dt", "dd", "menu",
    # today's containers in div's role
    "section", "article", "aside", "nav", "header", "footer", "main", "form",
    "blockquote", "figure", "details",
    # roots
    "html", "body",
})


def _opt(default, why: str, **meta):
    """A field with its reason; `meta` may carry `lo`/`hi` bounds or `choices`."""
    return field(default=default, metadata={"why": why, **meta})


@dataclass(frozen=True)
class Options:
    """Every tunable of the host pipeline. Read the `why` of a field before changing it."""

    algorithm: str = _opt(
        "auto", "the scoring method: one seed paper each, or auto, their vote (README, 'The "
        "methods'); auto is the default because on the validation sites it scored above every "
        "single method on all three shared datasets (issue notes, `pith bench --split validation`)",
        choices=ALGORITHMS)

    # --- CNR (López, Silva, Insa) ---------------------------------------------------
    cnr_non_content: frozenset = _opt(
        CNR_NON_CONTENT, "Algorithm 1's nonContentNode set: weight 1, 0 chars, subtree ignored")
    cnr_top_fraction: float = _opt(
        0.25,
        "Algorithm 2's 'top-rated nodes': this share of the elements that hold text, taken "
        "in decreasing CNR. The paper's worked example (Example 4.2, Figure 3) marks 4 of "
        "its roughly 15 nodes as top-rated, about a quarter; a share of the page, not a "
        "fixed count, scales from a short note to a long thread.",
        lo=0.0, hi=1.0)
    # --- LQF, link-quota filter (Mantratzis, Orgun, Cassidy) --------------------------
    lqf_structural: frozenset = _opt(
        LQF_STRUCTURAL,
        "the paper's 'structurally important' elements, the roots of sections; every other "
        "element (span, a, b, h1…) is flattened into its nearest one. The paper's table-like "
        "set (table, tr, td, ul, ol, li, div) and p; th, dl/dt/dd and menu in the same table "
        "and list roles; the HTML5 containers that took over div's job since 2005 (section, "
        "article, aside, nav, header, footer, main, form, blockquote, figure, details); html "
        "and body as the roots")
    lqf_anchor_ratio: float = _opt(
        0.5, "the paper's first criterion: non-empty anchors / non-empty tags of a section "
        "at or above this earns one point", lo=0.0, hi=1.0)
    lqf_text_ratio: float = _opt(
        0.4, "the paper's second criterion: linked characters / all characters of a section "
        "at or above this earns one point", lo=0.0, hi=1.0)
    lqf_decay: float = _opt(
        0.1, "share by which a sub-section's values shrink per structural level as they are "
        "pulled into their parent (the paper: 'decreased by a percentage analogous to the "
        "distance', no number given). Small, so the nested tables and lists the paper "
        "targets, two to four levels deep, still add up: four levels keep 66%",
        lo=0.0, hi=1.0)
    lqf_block_share: float = _opt(
        0.5, "LQF as an extractor steps from a section into the child section holding more "
        "than this share of the text left after dropping link lists ('mostly inside one "
        "child'); at least one half, so there is never more than one such child",
        lo=0.5, hi=1.0)
    lqf_clean: bool = _opt(
        False, "after the chosen algorithm, drop the link lists (two LQF points) inside its "
        "block: CNR+LQF is measured in the bench (--option lqf_clean=true); making it part "
        "of the default pipeline is issue 6's decision")

    # --- SST, satisfiable sub-trees (Qi, Sun) -----------------------------------------
    sst_generations: int = _opt(
        2, "G of the paper (its tested value): from each text node go up this many "
        "generations (1 = the element owning the text) to the sub-tree to test, and look "
        "this many generations down from it for a long text node", lo=1, hi=64)
    sst_min_text: int = _opt(
        40, "alpha of the paper (its tested value): a satisfiable sub-tree holds a text node "
        "of at least this many characters within G generations", lo=0, hi=1_000_000)
    sst_min_total: int = _opt(
        100, "beta of the paper (its tested value): a satisfiable sub-tree holds at least "
        "this many characters of text in all", lo=0, hi=100_000_000)
    sst_max_anchor: float = _opt(
        0.3, "gamma of the paper (its tested value): anchor text is at most this share of "
        "a satisfiable sub-tree's text", lo=0.0, hi=1.0)
    sst_title: bool = _opt(
        True, "put the page's headline (first h1, else <title>) before the parts when it "
        "falls outside them: the paper's own remedy for the title node it discards")

    # --- DOM filters and NLP (Agarwal) ------------------------------------------------
    # First set of filters: ignore tags. Defaults are the ticks of the paper's Figure 1.
    filters_ignore_scripts: bool = _opt(
        True, "Figure 1 default. No effect on a snapshot: script text is never captured and "
        "scripts are code for every method; kept so the paper's switch exists")
    filters_ignore_styles: bool = _opt(
        False, "Figure 1 default (off). No effect on a snapshot: style text is never "
        "captured and no output writes it")
    filters_ignore_style_attributes: bool = _opt(
        True, "Figure 1 default ('style attribute in <div>'). No effect on a snapshot: it "
        "holds no style attributes and no output writes any")
    filters_ignore_meta: bool = _opt(
        True, "Figure 1 default. No effect on a snapshot: meta rows sit in head and carry "
        "no text")
    filters_ignore_forms: bool = _opt(
        False, "Figure 1 default (off): leave form subtrees out. Off matters: ASP.NET pages "
        "wrap the whole body in one form")
    filters_ignore_inputs: bool = _opt(
        False, "Figure 1 default (off): leave input/textarea rows out. No visible effect: "
        "render never outputs form widgets and they hold no counted text")
    filters_ignore_buttons: bool = _opt(
        False, "Figure 1 default (off): leave button rows out; their labels then stop "
        "counting in the link list and empty table tests (no output shows them anyway)")
    filters_ignore_selects: bool = _opt(
        False, "Figure 1 default (off): leave select rows out; their option labels then "
        "stop counting in the link list and empty table tests (no output shows them anyway)")
    filters_ignore_iframes: bool = _opt(
        True, "Figure 1 default: leave iframe/frame subtrees out, captured same-origin "
        "frame documents included (embedded widgets, ads)")
    filters_ignore_embeds: bool = _opt(
        True, "Figure 1 default: leave embed/object rows out (plug-in media, ads)")
    filters_ignore_image_links: bool = _opt(
        True, "Figure 1 default: leave out links whose only content is images (banners, "
        "badges); links with text stay")
    # Second set: the algorithmic filters.
    filters_ads: bool = _opt(
        True, "Figure 1 default: the advertisement remover drops every row whose href/src "
        "host (or a parent domain of it) is a listed ad or tracker server")
    filters_ad_lists: str = _opt(
        "", "extra ad/tracker lists to load besides the built-in "
        "host/pith/pipeline/algorithms/ad_hosts.txt, file paths joined by the OS path separator; EasyList/EasyPrivacy ('||host^' rules, "
        "e.g. from a uBlock Origin install) or hosts-file lines. Empty: built-in list only, "
        "so results do not depend on what a machine has installed")
    filters_link_lists: bool = _opt(
        True, "the paper's link list remover: table cells with more links per non-linked "
        "word than filters_link_ratio are removed")
    filters_link_ratio: float = _opt(
        0.25, "the paper's 'link/text removal ratio' (links / non-linked words), which it "
        "leaves to the user without a number. 0.25, one link per four words of plain text, "
        "is 5-10x above running prose with links (one per 20-50 words) and far below menus "
        "(several links per word); not tuned on the benchmarks",
        lo=0.0, hi=1000.0)
    filters_chars_per_word: float = _opt(
        5.0, "the paper's average characters per word, turning non-linked characters into "
        "non-linked words for the link/text ratio", lo=1.0, hi=100.0)
    filters_link_list_tags: frozenset = _opt(
        frozenset({"td", "th"}), "elements the link list remover inspects: the paper's "
        "'table cells'. Modern pages build menus from ul/div, which the paper's filter "
        "does not touch; add them here to extend it")
    filters_empty_tables: bool = _opt(
        True, "the paper's empty table remover: tables left without substance after the "
        "other filters are removed")
    filters_table_min_chars: int = _opt(
        1, "characters a table needs to be substantive; the paper leaves the number to the "
        "user. 1 removes exactly the tables with no text left (emptied by the other "
        "filters, or spacer tables), never a small data table",
        lo=0, hi=1_000_000)
    filters_table_substance: frozenset = _opt(
        frozenset({"img", "picture", "video", "audio", "canvas", "svg", "math", "object",
                   "embed", "iframe"}),
        "elements that make a table substantive without text (the paper's user-chosen "
        "'tags considered to be substance'): media and formulas")
    filters_retain_links: bool = _opt(
        False, "the paper's removed links retainer: list the text links the filters removed "
        "at the end of the output; off as in the paper's Figure 2 ('Append Links to Bottom "
        "of Page' unticked)")
    filters_article_chars: int = _opt(
        500, "the paper's threshold: the article is the first subtree whose paragraph text "
        "reaches this many characters ('a good threshold value is 500')",
        lo=1, hi=10_000_000)
    filters_paragraph_tags: frozenset = _opt(
        frozenset({"p", "div"}), "the paper's paragraph forms '<div> text' and '<p> text'; "
        "the third, 'text <br> text', is any block with a br child")
    filters_image_relevance: bool = _opt(
        True, "the paper's NLP step: an image in the article stays only if it has a "
        "caption whose entity vector is cosine-similar to the article text")
    filters_image_similarity: float = _opt(
        0.1, "cosine threshold of the image relevance test; the paper gives no number. At "
        "0.1 a caption must share an entity the article mentions repeatedly: one shared "
        "entity named once among ~20 scores about 0.05, the article's main name about 0.3",
        lo=0.0, hi=1.0)

    # --- CLG, learning and grouping (Wu, Liu, Fan) -----------------------------------
    clg_mode: str = _opt(
        "clg", "clg = the paper's method; lr = its baseline LR (threshold + compaction, no "
        "grouping); lr_a = its baseline LR_A (the single best-scored node) (§7.2)",
        choices=("clg", "lr", "lr_a"))
    clg_threshold: float = _opt(
        0.55, "logistic-regression score above which a node is a candidate: the paper's "
        "value (§7.1), chosen there for precision/recall balance and shown insensitive "
        "above 0.4 (Figure 13)", lo=0.0, hi=1.0)
    clg_overlap: float = _opt(
        0.7, "projection overlap ratio T above which two candidates are aligned and "
        "stay in one group: the paper's value (§7.1, Figure 15)", lo=0.0, hi=1.0)
    clg_theta1: float = _opt(
        0.05, "Algorithm 1: a selection under this share of the page grows to its "
        "ancestors; about 1% of the paper's truths are smaller than 5% of the page (§7.1)",
        lo=0.0, hi=1.0)
    clg_theta2: float = _opt(
        0.2, "Algorithm 1: growing stops at this share of the page, where the paper's "
        "truth sizes become dense (20–40%, §7.1)", lo=0.0, hi=1.0)
    clg_theta3: float = _opt(
        0.4, "Algorithm 1: a common ancestor at most this share of the page is returned "
        "whole (upper end of the dense 20–40% range, §7.1)", lo=0.0, hi=1.0)
    clg_theta4: float = _opt(
        0.9, "Algorithm 1: a common ancestor at least this share of the page is drilled "
        "into; under 2% of the paper's truths are larger than 90% of the page (§7.1)",
        lo=0.0, hi=1.0)
    clg_depth: int = _opt(
        3, "Algorithm 1's d: a common ancestor below the top d levels (html = level 1) is "
        "returned whole; main content is 'usually not the top 3 levels' (§7.1)",
        lo=0, hi=1000)
    clg_title: bool = _opt(
        True, "add a missing H1–H6 title at the top of the selection (§6.3)")
    clg_title_gap: float = _opt(
        250.0, "largest gap in CSS px between a heading and the top of the selection for "
        "it to be 'the title at the top' (the paper gives no number): a headline, byline "
        "and share bar fit, a site banner above a hero image does not", lo=0.0, hi=1e6)
    clg_title_gap_chars: int = _opt(
        200, "the same gap without layout, in visible characters read between the heading "
        "and the selection: a byline and a date fit, a navigation menu does not",
        lo=0, hi=1_000_000)
    clg_unstyled_text: float = _opt(
        0.75, "share of a rendered page's visible characters drawn in the browser's "
        "defaults (left edge at the body's 8 px margin, 16 px, black) from which it was "
        "drawn without its style sheets and CLG reads it box-free, as it does a page whose "
        "links show the browser's blue; 0 turns the test off. On the cached training "
        "pages 178 of the 186 it fires on are already caught by the links' colours; the "
        "other 8 have no or few links (NOTES.md, 'Why a page whose text is drawn in the "
        "browser's defaults is read without boxes')", lo=0.0, hi=1.0)

    # --- auto: the methods combined ---------------------------------------------------
    auto_members: tuple = _opt(
        ("cnr", "lqf", "sst", "clg"),
        "the methods whose proposals vote (algorithms/auto.py); filters is left out: its "
        "'first subtree with 500 characters' rule proposes partial blocks by design")
    auto_clean: bool = _opt(
        True, "drop link lists inside the winning block with the LQF cleaner")
    auto_clg_wide: bool = _opt(
        True, "CLG proposes twice when it is a member: as configured, and with clg_depth 0, so "
        "a common ancestor high in the tree (a listing's repeated items) is returned "
        "whole (NOTES.md, 'Why CLG proposes twice in auto (auto_clg_wide)')")
    auto_filters_vote: bool = _opt(
        True, "the DOM-filters method votes but never proposes: its 'first subtree with 500 "
        "characters' is a partial block by design, yet where it lands says where the "
        "paragraphs are (NOTES.md, 'Why the DOM filters vote but never propose in auto "
        "(auto_filters_vote)')")
    auto_clean_max: float = _opt(
        0.25, "the LQF cleaner leaves the winner's link lists in when they hold more than this "
        "share of its visible text: the block is then a list (a listing's or a "
        "collection's items, a documentation index), not an article with a menu in it. "
        "The reader view's cleaner (reader.py) keeps link lists by the same rule "
        "(NOTES.md, 'Why auto_clean_max is 0.25')",
        lo=0.0, hi=1.0)
    auto_furniture: bool = _opt(
        True, "page furniture (footer, nav, aside, dialog and the contentinfo, navigation, "
        "complementary, dialog and alertdialog roles) counts for nothing in the "
        "agreement, cannot win while a proposal outside it can, and inside the winner is "
        "dropped (auto_furniture_max); header/banner stay out, as an article's header "
        "holds its headline (NOTES.md, 'Why auto leaves page furniture out "
        "(auto_furniture)')")
    auto_furniture_max: float = _opt(
        0.9, "a furniture landmark inside the winner stays when it holds at least this share "
        "of the winner's visible text: the block is then that landmark's content (a page "
        "that wraps everything in an aside) (NOTES.md, 'Why auto_furniture_max is 0.9')",
        lo=0.0, hi=1.0)
    auto_union: bool = _opt(
        False, "join the winner with every proposal that shows none of its rows when another "
        "ballot entry agrees with that proposal (auto_union_agree). Off: it helped "
        "rendered snapshots but not static ones, and a change is kept only when it helps "
        "both (NOTES.md, 'Why auto_union is off')")
    auto_union_agree: float = _opt(
        0.3, "weighted Jaccard with another ballot entry (proposal or voter) a proposal apart "
        "from the winner needs to join it; 0.3 sits inside the measured plateau "
        "(NOTES.md, 'Why auto_union_agree is 0.3')",
        lo=0.0, hi=1.0)

    # --- the block stage (blocks/keep.py) --------------------------------------------
    blocks: bool = _opt(
        True, "answer below the element: inside the chosen element, keep the blocks the "
        "block model (models/blocks.json, BLOCKS.md) judges content and leave the rest "
        "out of what is read, exported and shown in the reader; the element stays what "
        "grow and shrink move. Off: the element's whole text, as before")
    blocks_keep_structured: bool = _opt(
        True, "code (pre), data tables, figures with an image (and no caption text: "
        "blocks_keep_captioned_figures) and displayed formulas inside the method's own "
        "element are kept whatever the block model says: readers expect listings, tables "
        "and pictures in the reader view, and the text truths disagree on code and captions "
        "and cannot see images, so the model learns to doubt them")
    blocks_keep_captioned_figures: bool = _opt(
        True, "with blocks_keep_structured, a figure with an image AND caption text is "
        "kept whatever the model says too: a reader keeps the picture, and the text truths' "
        "gain from leaving captions out is within the noise; off: the model judges it like "
        "any block (NOTES.md, 'Why a captioned figure stays in the answer')")
    blocks_max: int = _opt(
        50_000, "with the block stage, an element whose scope holds more blocks than this is "
        "answered whole, as with the stage off: far above any real page's scope, it "
        "bounds the time and memory a runaway page costs (NOTES.md, 'Why blocks_max is "
        "50,000')",
        lo=1, hi=50_000_000)
    blocks_rule: str = _opt(
        "blend", "with the block stage, how the block model's probability decides: 'blend', "
        "the model file's cross-validated rule (BLOCKS.md, 'keep at' / 'add at'), keeps "
        "what the method shows unless the model is sure it is not content and takes in "
        "what it does not show only when sure it is; 'boundary' keeps a text block when "
        "p >= 0.5, the classifier's own boundary, wherever it lies. On the validation "
        "sites 'boundary' is a point more precise and a point and a half less complete: "
        "level with 'blend' in F1 on static snapshots, half a point under it on rendered "
        "ones, so 'blend' stays the default and 'boundary' is there for whoever wants less "
        "clutter at the price of a paragraph now and then (NOTES.md, 'Why blocks_rule is "
        "blend')",
        choices=("blend", "boundary"))
    blocks_drop_copies: bool = _opt(
        True, "with the block stage, a passage the kept blocks hold twice (a run of two or "
        "more blocks, 500 characters or more, whose texts repeat an earlier run in order) "
        "is read once: pages ship their content twice for layouts a stylesheet hides (a "
        "static snapshot sees both copies) or carousels clone their slides, and a reader "
        "wants the article once (NOTES.md, 'Why the block stage drops copied passages')")
    blocks_drop_quoted: bool = _opt(
        True, "with the block stage, a kept quote (a blockquote, one block) holding, in order, the "
        "texts of two or more earlier kept blocks, 500 characters or more and half its own, "
        "is left out: a forum reply quoting a whole earlier post repeats what the reader "
        "has read (NOTES.md, 'Why a quote of an earlier post is read once')")
    blocks_form_max: float = _opt(
        0.0, "with the block stage, the blocks of a form holding less than this share of "
        "the judged element's text are left out (a subscribe, search or comment form is "
        "interface; a form round the whole page, as ASP.NET pages have, holds most of it); "
        "0 turns it off (NOTES.md, 'Why small forms are not left out by rule')",
        lo=0.0, hi=1.0)
    blocks_grow: int = _opt(
        1, "with the block stage, the element judged block by block is the method's choice "
        "grown this many times (the grow button's rule), so a headline or a first "
        "paragraph just outside it can be taken in; the block model prunes what the wider "
        "element adds (NOTES.md, 'Why blocks_grow is 1')",
        lo=0, hi=5)
    auto_block_choice: bool = _opt(
        True, "auto with the block stage: every block of the page gets the block model's "
        "probability (the vote's element as the method's), and the element becomes the one "
        "whose text has the highest expected F1 under them (expected.py; no parameter); "
        "the block stage, grow, shrink and the reader's include / exclude then decide with "
        "those same probabilities. The vote often outlines a part of a listing's or a "
        "service page's content; on the validation sites it lifted wcxb_dev_full's mean "
        "page F1 more on collections and listings than anywhere else (NOTES.md, 'Why auto "
        "chooses its element by expected F1')")
    auto_headline: bool = _opt(
        True, "auto with auto_block_choice: when a heading the block model would keep shows "
        "the page's own title (<title> or og:title, or their first or last part at a "
        "separator; headline.py), the blocks before it are judged no content and the "
        "element holds it, unless the page's best element lies inside the best one that "
        "does (the body under its header), and the block stage keeps the heading where the "
        "element holds it; not on product pages. A short post beside a longer sidebar list "
        "or comment thread is then read with its title, not its neighbour (NOTES.md, 'Why "
        "the element holds the headline')")
    auto_headline_scope: bool = _opt(
        False, "auto with auto_headline: when the block stage's scope (the element grown "
        "blocks_grow times) lies after the headline without holding it, the scope is their "
        "nearest common ancestor if that holds at most SCOPE_SHARE (1.5) times the text of "
        "the two (headline.scope_over): a blog's entry title sits beside its body, not "
        "above it in one row, and the post was read without its title (NOTES.md, 'Why the "
        "headline beside the post's body is read with it'). Off: the truths disagree "
        "(dragnet_train keeps such titles, wcxb_dev_full's and magic_html's leave them out)")
    auto_thread_first: bool = _opt(
        True, "auto with auto_block_choice: the vote's element, when it lies inside the "
        "comment thread left out of the body (comments.apart), moves out of it before the "
        "block model judges the page: the model reads the method's element as evidence, and "
        "judged from the thread it scored a short post's paragraphs as boilerplate, the post "
        "read as its headline alone (NOTES.md, 'Why the page is judged from outside the "
        "comment thread')")
    auto_sidebars: bool = _opt(
        True, "auto: a row whose id or a class starts with the word sidebar ('sidebar', "
        "'sidebar2', 'sidebar-block'; sidebars.py) is page furniture in the vote, as an "
        "aside is, and the blocks inside one that holds neither the headline nor (without "
        "one) the vote's element are judged no content before the element is chosen: a "
        "column beside the post, not the post (NOTES.md, 'Why a named sidebar is not the "
        "post')")
    auto_page_headers: bool = _opt(
        True, "auto with auto_block_choice: the blocks inside a row whose id or a class is "
        "the word header ('header', 'header2'; sidebars.headers), holding no main landmark "
        "nor article, and holding neither the headline nor (without one) the vote's element, "
        "are judged no content before the element is chosen: the page's banner (its name, "
        "a tagline) is not the post under it (NOTES.md, 'Why a named page header is not the "
        "post')")
    auto_post_whole: bool = _opt(
        True, "auto with auto_headline: when the block stage would answer the headline alone, "
        "the answer is the headline's post (its nearest container with other text, at most "
        "half the page's; headline.post) with every block of it kept but a comment thread's: "
        "the block model, unsure of a short post's few lines, kept only its title (NOTES.md, "
        "'Why a post is more than its headline')")
    auto_author_boxes: bool = _opt(
        True, "auto with auto_block_choice: a row whose class or id names an author box "
        "('author-bio', 'about-the-author', 'authorbox'; bios.py) is judged no content, "
        "unless such rows hold half the element's text (NOTES.md, 'Why an author box is "
        "left out')")
    auto_rights_lines: bool = _opt(
        True, "auto with auto_block_choice: a short block that is a rights notice "
        "('Copyright © 2006 …', '© The Gazette', 'All rights reserved'; rights.py) is judged "
        "no content, so the article does not end on its site's copyright line (NOTES.md, "
        "'Why a copyright line is left out')")
    auto_ad_labels: bool = _opt(
        True, "auto with auto_block_choice: a block whose whole text is an ad slot's label "
        "('Advertisement', 'Continua após a publicidade'; adlabels.py) is judged no "
        "content, so the story is not broken by its ads' labels (NOTES.md, 'Why an ad's "
        "label is left out')")
    auto_hosting_notices: bool = _opt(
        True, "auto with auto_block_choice: a short block that is a platform's hosting "
        "statement ('…本平台仅提供信息存储服务。', '… only provides information storage "
        "services.'; notices.py) is judged no content, so a hosted post does not end on its "
        "platform's legal line (NOTES.md, 'Why a platform's notices are left out')")
    auto_signup_prompts: bool = _opt(
        True, "auto with auto_block_choice: a short block that is a newsletter's sign-up "
        "prompt ('Sign up for our newsletter …', 'By signing up you agree …', 'Thanks for "
        "signing up!'; notices.py) is judged no content, so the story is not broken by its "
        "newsletter box (NOTES.md, 'Why a platform's notices are left out')")
    auto_adjacent_repeats: bool = _opt(
        True, "auto with auto_block_choice: a block whose text (at least "
        "repeats.REPEAT_CHARS characters) is the previous text block's is judged no content, "
        "so a carousel's clones and a credit under every picture are read once (NOTES.md, "
        "'Why a line said twice in a row is read once')")
    auto_teasers: bool = _opt(
        True, "auto with auto_block_choice, on a page the page type model calls an article "
        "(not a forum's): lists of teaser cards after the post (three or more alike cards, "
        "each holding a heading linked off the page or being one such link, holding most of "
        "their row's text; teasers.py) are judged no content when nothing after them is "
        "the post's, so 'More from', 'Related stories' and 'Most read' lists are not read "
        "as the article's end (NOTES.md, 'Why teaser lists after the post are left out')")
    auto_teasers_story: bool = _opt(
        True, "auto with auto_teasers: teaser lists trailing a post whose headline sits in "
        "an `article` element holding the post and none of the lists are left out however "
        "far their cards outweigh the post (teasers.story): the page says where its story "
        "ends, and a stream of other stories after a short story is not its content "
        "(NOTES.md, 'Why a stream of other stories after a short story is left out')")

    blocks_item_names: bool = _opt(
        True, "on a page the page type model calls a listing or a collection, a short link "
        "(cards.NAME_MAX_CHARS) whose previous and next text blocks are both kept is kept "
        "too: a listed item's name between its rank and its score, which the block model "
        "doubts as it doubts a menu's entry (cards.py; NOTES.md, 'Why a listed item keeps "
        "its name')")

    blocks_service_code: bool = _opt(
        True, "on a page the page type model calls a service page, the code blocks (pre) "
        "the block stage keeps are left out: a landing page's code is its product's demo "
        "(an editor's screen, a platform's API example), which the training truths of "
        "service pages never keep (demos.py; NOTES.md, 'Why a service page's code samples "
        "are left out')")

    blocks_card_controls: bool = _opt(
        True, "on a page the page type model calls a listing or a collection, a kept block "
        "whose whole text is a card's button or toggle label ('Add to cart', 'Compare', "
        "'+ Wishlist', 'Quick view'; cards.CONTROL_LABEL) is left out: the training truths "
        "of listings never keep one (cards.py; NOTES.md, 'Why a listed card's buttons are "
        "left out')")

    blocks_product_teasers: bool = _opt(
        True, "on a page the page type model calls a product's, the teaser groups "
        "(teasers.groups: other items' cards, each a linked name) after the last kept line "
        "of the product's own (judged at least teasers.SURE) are left out, with their "
        "heading: 'You may also like', 'Complete the look' and 'Matching designs' rows are "
        "not the product's text (teasers.after_product; NOTES.md, 'Why the cards of other "
        "products after a product are left out')")

    blocks_product_price_cards: bool = _opt(
        True, "with blocks_product_teasers, other products' cards named in no link count "
        "as teaser groups too when each card shows a price and a picture and links off "
        "the page, and such groups ending before the product's h1 go too "
        "(teasers.price_cards: eBay's 'People who viewed this item also viewed', "
        "Zalando's 'How about these?'; NOTES.md, 'Why other products' priced cards are "
        "left out')")

    blocks_product_own_lines: bool = _opt(
        True, "blocks_product_teasers' listing guard (cards outweighing the product "
        "teasers.POST_RATIO times stay) weighs every kept line of the product's own "
        "outside the groups and headings, not only those judged at least teasers.SURE: "
        "a product's price and specification rows are judged near 0.5, half of them "
        "under it, and were left out of the weight (NOTES.md, 'Why other products' "
        "priced cards are left out')")

    blocks_product_tail_lines: int = _opt(
        1, "with blocks_product_teasers, this many of the product's last sure lines of "
        "its own (0: none) do not make other products' cards before them part of the "
        "product when they hold less text than those cards: a stock note or a delivery "
        "line closing the buy box after a row of other products' cards "
        "(teasers.closing; NOTES.md, 'Why a buy box's last line does not hold other "
        "products' cards')")

    blocks_product_price: bool = _opt(
        True, "on a page the page type model calls a product's, a price line "
        "(prices.PRICE_MAX_CHARS) between a kept block of the h1 naming the product and a "
        "kept line is kept too: the block model doubts a bare price as it doubts the "
        "prices of the page's cards (prices.py; NOTES.md, 'Why a product's price stays "
        "beside its name')")

    comments_apart: bool = _opt(
        True, "a comment thread under the post (comments.py: a container named for comments "
        "whose items hold most of its text) is left out of the body and answered apart as "
        "`comments`; a thread with no content before it (a forum's, a Q&A page's) stays the "
        "body (NOTES.md, 'Why comment threads are found by their names')")

    comments_link_post: int = _opt(
        100, "a comment thread outside which the page shows at most this many characters of "
        "prose (visible text outside links) is the page's content, not comments apart: a "
        "link aggregator's story (Lobsters, Hacker News) is a linked title and a byline, "
        "and its discussion is all the page has to read; a post of a sentence or more, or "
        "a site's prose in sidebars and footers, keeps it apart (comments.is_link_post; 0: "
        "off; NOTES.md, 'Why a link post's thread is its content')", lo=0, hi=100_000)

    forum_thread: bool = _opt(
        True, "a comment thread that is the page's content (comments.is_content: a forum's "
        "or a Q&A site's address, or threads interleaved with the posts) is read whole: "
        "an element chosen inside it (the first post, longer than any reply) grows to "
        "hold all of it (NOTES.md, 'Why a forum's element holds its whole thread')")

    forum_posts_within: bool = _opt(
        True, "with forum_posts, on a page whose thread is its content (comments.content) "
        "where the element holds every post already (no peer "
        "outside it), its blocks written like the text it keeps, mostly prose "
        "(posts.INSIDE_LINKED), are kept like the first post: a thread's short replies "
        "the block model doubts (NOTES.md, 'Why the replies inside the element are kept "
        "like its first post')")

    forum_posts_best: bool = _opt(
        True, "with forum_posts, where the block model is sure (posts.SURE) of no block "
        "of the element, the block it keeps and judges most likely names the posts' text: "
        "a post the model doubts in a rendered capture still carries its replies (NOTES.md, "
        "'Why the replies inside the element are kept like its first post')")

    forum_posts_bare: bool = _opt(
        True, "with forum_posts, a reply of the element written bare in a classed row "
        "(Invision's `div.ipsType_richText`, its own block) is written like the first "
        "post's text in `p`s inside a row of that tag and class and kept like it, unless it "
        "copies text the element shows (posts._bare; NOTES.md, 'Why a forum's replies are "
        "kept like its first post')")

    forum_posts_body: bool = _opt(
        True, "with forum_posts, a block the element's growth over its peers brings in "
        "inside a post's body (the classed row holding a post's text: posts.in_bodies) is "
        "kept at the keep threshold, as the element's own blocks are, not at the bar of a "
        "block outside the element: a reply's quote of an earlier post, its list or its "
        "code is the reply's text (NOTES.md, 'Why a reply's quote is kept with the reply')")

    forum_engine_posts: bool = _opt(
        True, "on a page with a forum engine's post markup (comments.FORUM_POST_CLASSES) and "
        "no named thread that is its content, the engine's posts are that thread "
        "(comments.engine_posts): an element holding none of them (a board-wide banner "
        "drawn above the topic) or a small part of them grows to hold them like a named "
        "thread's (NOTES.md, 'Why a forum engine's posts are the thread')")

    forum_board_around: bool = _opt(
        True, "on a page whose thread is a forum engine's posts (comments.engine_posts), the "
        "blocks of the element outside the thread's root, but the headline, are judged no "
        "content: the board's quick links, forum lists, breadcrumb and notices around the "
        "thread are not the thread (comments.board_around; NOTES.md, 'Why the board around "
        "a forum engine's thread is left out')")
    forum_typed: bool = _opt(
        True, "a comment thread on a page the page type model calls a forum, at least "
        "comments.FORUM_SURE sure (pagetype.py), "
        "is the page's content like one on a forum's address: a Q&A page served from an "
        "address, a type and a markup that name no forum (a /faq/ question, an image "
        "gallery's thread) keeps its answers in the body; the forum rules of posts.py are "
        "not applied by it (NOTES.md, 'Why a thread on a page typed forum is its content')")

    forum_question: bool = _opt(
        True, "a page whose title heading (h1) is, or sits inside, a row named for a "
        "question (comments.QUESTION_WORD: `question-title`, `page-question-detail`) is a "
        "Q&A page like one on a forum's address: its comment thread is its answers, kept "
        "in the body, and the forum rules of posts.py apply (comments.asks_question; "
        "NOTES.md, 'Why a page whose title is its question is a Q&A page')")

    forum_question_lines: bool = _opt(
        True, "on a page whose comment thread is its content (comments.content), when the "
        "block stage would show the question above the thread by its headline alone (the "
        "model doubts every other line of the headline's post and keeps answers), the "
        "element grows to hold the post and its lines are kept like the answers "
        "(posts.question; NOTES.md, 'Why a question is kept with its answers')")

    forum_posts: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), the replies written in the "
        "markup of the text the block stage keeps in the element (the same tag under the "
        "same class) are posts too: the element grows to hold them and they are kept like "
        "the first post (posts.py; NOTES.md, 'Why a forum's replies are kept like its "
        "first post')")
    forum_meta: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), a post's meta line (a date "
        "with an author's name or 'asked', a few words, which the block model doubts) that "
        "every post repeats under one signature is left out, and so are an author card's "
        "lines ('Posts: 1,077', 'Offline': short, no sentence, every line under their "
        "signature one) (posts.meta_lines; NOTES.md, "
        "'Why a post's meta lines are left out')")
    forum_meta_dates: bool = _opt(
        True, "with forum_meta, a post's date line written bare ('May 9th, 2024 05:18 AM', "
        "'#2 2024-08-03 14:22:38') that posts repeat under one signature is left out even "
        "where the block model is sure of it (posts.bare_date; NOTES.md, 'Why a post's "
        "bare date line is left out')")
    forum_sign_offs: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), a row whose class or id "
        "names a signature (a member's sign-off under each post, Stack Exchange's "
        "'asked … / user card' box) is left out (posts.sign_offs; NOTES.md, "
        "'Why a post's sign-off is left out')")
    forum_notices: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), a row whose class or id "
        "names a notice, an announcement, a banner or an alert ('This topic has 3 "
        "replies', 'Not the answer you're looking for?', 'Install the app', an author's "
        "rank) is left out (posts.notices; NOTES.md, 'Why a post's sign-off is left out')")
    forum_repeats: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), a line the element shows in "
        "three blocks or more, outside code and quotes ('Comment hidden because of low "
        "score.', 'Re: <topic>'), is kept once (posts.repeated_lines; NOTES.md, "
        "'Why a board's repeated lines are left out')")
    forum_post_comments: bool = _opt(
        True, "on a page whose comment thread is its content, a thread found by its names "
        "in two roots or more with a post's prose before each (the comments under each "
        "question and answer of a Q&A page: comments.under_posts) is left out of the body "
        "and answered apart: remarks on a post are not the thread's posts (NOTES.md, 'Why "
        "a post's comments are left out of a Q&A thread')")
    forum_tallies: bool = _opt(
        True, "on a forum's or a Q&A site's page (posts.forum), a line of the thread's "
        "counts ('4 replies 0 likes 0 votes 188 views', '2 Answers') is left out "
        "(tallies.without; NOTES.md, 'Why a board's tally lines are left out')")

    # --- every method ----------------------------------------------------------------
    skip_hidden: bool = _opt(
        True, "hidden elements (display:none, visibility:hidden, aria-hidden, zero size) "
        "count like nonContentNodes: a reader never sees their text")

    aria_hidden_links: bool = _opt(
        True, "an aria-hidden link a reader sees (drawn, under no other hidden row) whose "
        "text is mostly not read elsewhere on the page is read as shown: a card's second "
        "link to one address, a teaser's excerpt (features.shown_aria_links; NOTES.md, "
        "'Why a shown aria-hidden link is read')")
    parked_main_hidden: bool = _opt(
        True, "on a page that shows less than 5 % of its text, a main landmark hidden by "
        "display:none alone (itself or the rows above it) is read as shown: a slideshow or "
        "an app shell its scripts switch on once they run (features.hidden_main_rows; "
        "NOTES.md, 'Why a page that shows nearly nothing reads its hidden main landmark')")
    reveal_faded_hidden: bool = _opt(
        True, "on a rendered page waiting for a scroll reveal, a section at opacity:0 and "
        "visibility:hidden together (a fade's start state, GSAP's autoAlpha) counts as one "
        "of its sections and is read as shown, visibility included (features.scroll_reveal; "
        "NOTES.md, 'Why a section faded out and hidden together waits for its reveal')")

    hidden_min_visible: float = _opt(
        0.1, "when hiding leaves less than this share of the page's text visible, the page is "
        "scored as if nothing were hidden (select.py stage 3; 0 = only when no text at "
        "all is visible); only text waiting to be revealed (opacity, visibility) counts "
        "as hidden here (NOTES.md, 'Why hidden_min_visible is 0.1')", lo=0.0, hi=1.0)
    hidden_reveal: bool = _opt(
        True, "when too little text is visible (hidden_min_visible), the page is scored first "
        "as its reveal shows it: opacity:0 and visibility:hidden taken off, display:none and "
        "aria-hidden kept; nothing hidden only when that leaves no text (NOTES.md, 'Why a "
        "page waiting for its reveal keeps its closed menus hidden')")

    # --- reply ----------------------------------------------------------------------
    candidates: int = _opt(
        5, "how many runner-up blocks the reply lists, for the UI and for debugging",
        lo=0, hi=100)

    # --- limits ---------------------------------------------------------------------
    max_nodes: int = _opt(
        1_000_000, "snapshots above this many rows are refused before any work: 5x the "
        "largest real page we have seen (200k elements), so only runaway pages hit it",
        lo=1, hi=50_000_000)
    max_request_ms: int = _opt(
        50_000, "a select or clean still running after this many ms is cut off with "
        "request_too_slow and the host serves the next request: below the extension's own "
        "limit for them (60 s), so the reader gets the host's precise error instead of a "
        "killed host, and far above what a 1,000,000-element page takes on a loaded machine "
        "(about 15 s, tests/bench_host_scale.py)", lo=100, hi=600_000)
    max_grow_ms: int = _opt(
        12_000, "the same cut-off for grow and shrink, whose extension limit is 15 s: they "
        "rerun the block stage on one element (about 1 s at 25k elements)",
        lo=100, hi=600_000)

    @classmethod
    def from_overrides(cls, overrides: dict[str, Any] | None = None) -> "Options":
        """Defaults updated by `overrides`, validated; the one way to build Options."""
        if overrides is None:
            return cls()
        if not isinstance(overrides, dict):
            raise BadOptions(f"options must be an object, got {type(overrides).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in overrides.items():
            f = fields.get(key)
            if f is None:
                raise BadOptions(f"unknown option {key!r}", key=key)
            values[key] = _check(f, value)
        return cls(**values)

    def describe(self) -> list[dict]:
        """Each option with its value and reason (for `pith options` and the docs)."""
        out = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, frozenset):
                value = sorted(value)
            elif isinstance(value, tuple):
                value = list(value)
            item = {"name": f.name, "value": value, "kind": _kind(f.default),
                    "why": f.metadata["why"]}
            item.update({k: list(v) if k == "choices" else v
                         for k, v in f.metadata.items() if k in ("choices", "lo", "hi")})
            out.append(item)
        return out


def _kind(default: Any) -> str:
    """The JSON kind of an option, for forms that edit it (the options page)."""
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, (int, float)):
        return "int" if isinstance(default, int) else "float"
    if isinstance(default, str):
        return "str"
    return "list"


def _check(f: dataclasses.Field, value: Any) -> Any:
    """Coerce and validate one override against its field's default type and bounds."""
    default, meta, key = f.default, f.metadata, f.name
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise BadOptions(f"option {key!r} must be true or false", key=key)
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadOptions(f"option {key!r} must be an integer", key=key)
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadOptions(f"option {key!r} must be a number", key=key)
        try:
            value = float(value)
        except OverflowError:       # a JSON integer beyond a double (10**400)
            raise BadOptions(f"option {key!r} is beyond a number's range", key=key) from None
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise BadOptions(f"option {key!r} must be a string", key=key)
    elif isinstance(default, tuple):   # an ordered list of method names
        members = [a for a in ALGORITHMS if a != "auto"]
        if not isinstance(value, (list, tuple)) or not value or not all(
                v in members for v in value):
            raise BadOptions(f"option {key!r} must be a non-empty list of: "
                             f"{', '.join(members)}", key=key)
        return tuple(value)
    elif isinstance(default, frozenset):
        if not isinstance(value, (list, tuple, set, frozenset)) or not all(
                isinstance(v, str) for v in value):
            raise BadOptions(f"option {key!r} must be a list of strings", key=key)
        return frozenset(v.lower() for v in value)
    if "choices" in meta and value not in meta["choices"]:
        raise BadOptions(f"option {key!r} must be one of {', '.join(meta['choices'])}",
                         key=key)
    if "lo" in meta and not (meta["lo"] <= value <= meta["hi"]):
        raise BadOptions(f"option {key!r} must be between {meta['lo']} and {meta['hi']}",
                         key=key)
    return value
