"""`pith bench`: accuracy and per-page time of each algorithm on the shared datasets.

For every page of a dataset (layout: ../shared/datasets/README.md) the snapshot is
captured once — rendered snapshots are cached, keyed by capture.js's content — then each
algorithm runs on it; the predictions are scored with the shared scorer
(../shared/tools/score.py, imported, not copied). The anchors (anchors.py: trafilatura,
readability-lxml, Readability.js) run on the same decoded HTML in the same run. Host time
= decoding the snapshot JSON + `select`, which is what the native host does per request;
capture time is reported apart. "One click" is the mean page F1 of the best of the
selection, its parent and its best child: what a reader gets with one grow or shrink.
`--ceiling` adds the row `ceiling`: per page the best single element, read off the truth
(ceiling.py), the most that choosing one element can score.
"""
from __future__ import annotations

import functools
import json
import statistics
import sys
import tempfile
import time
from argparse import Namespace
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from . import anchors
from ..native import framing
from ..pipeline import render
from ..pages import static
from ..errors import PithError
from ..pipeline.options import ALGORITHMS, Options
from ..pages.inputs import Capturer, rendered_fallback
from ..pipeline.select import select
from .datasets import (SnapshotCache, all_datasets, cache_root, load_scorer, load_split,
                       side_of, site_of)

# Bench decodes leniently: a page with a few bad bytes still gets scored (the extract
# command is strict by default and says why).
BENCH_ENCODING_ERRORS = "replace"
# The rows of `--ceiling`: the best single element's text per page, read off the truth,
# and the page's blocks the truth labels content.
CEILING = "ceiling"
CEILING_BLOCKS = "ceiling-blocks"
# The wrong part of the page (issue 33): a page counts when its F1 is under WRONG_PART_F1
# while the best anchor's is over WRONG_PART_ANCHOR — the answer is another part of the
# page (a comment thread, a sidebar list) where an anchor found the content, not a
# precision slip.
WRONG_PART_F1 = 0.2
WRONG_PART_ANCHOR = 0.7
# Suffix of an algorithm's row with the block stage off (`--blocks both` or `off`).
ELEMENT_SUFFIX = ":element"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Track:
    """What one method (algorithm or anchor) produced on one dataset; the ceiling's row is
    kept as an anchor's is (one text per page, no grow or shrink)."""

    name: str
    anchor: bool
    host_ms: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    page_f1: dict[str, float] = field(default_factory=dict)     # selection, per page
    click_f1: dict[str, float] = field(default_factory=dict)    # best of selection/grow/shrink

    def fail(self, exc: PithError) -> None:
        self.failures[exc.name] = self.failures.get(exc.name, 0) + 1


def wrong_part_rate(mine: dict[str, float], anchors_f1: list[dict[str, float]],
                    ids: list[str]) -> float | None:
    """Share of the pages `ids` where `mine` is under WRONG_PART_F1 while the best of
    `anchors_f1` is over WRONG_PART_ANCHOR; None without an anchor to compare with."""
    if not anchors_f1:
        return None
    scored = [i for i in ids if i in mine]
    if not scored:
        return None
    wrong = sum(1 for i in scored if mine[i] < WRONG_PART_F1
                and max(a.get(i, 0.0) for a in anchors_f1) > WRONG_PART_ANCHOR)
    return wrong / len(scored)


def one_click_texts(sel) -> list[str]:
    """What a reader gets with at most one press: the selection, its parent, its best child.

    The same two moves the extension offers (select.grow / select.shrink, no trail),
    not a search of the tree.
    """
    from ..pipeline.select import block_choice, grow, shrink
    texts = [sel.output("text")]
    for move in (grow, shrink):
        try:
            node = move(sel, sel.node)["node"]
        except PithError:
            continue
        choice = block_choice(sel, node)
        if choice is None:
            texts.append(render.to_text(sel.snap, sel.feats, [node]))
        else:
            texts.append(render.output(sel.snap, sel.feats, choice, "text"))
    return texts


def run_dataset(dataset: Path, args: Namespace, capturer: Capturer, cache: SnapshotCache | None,
                algorithms: list[str], anchor_objs: list, scorer: ModuleType,
                pred_root: Path) -> list[dict]:
    """All algorithms and anchors on one dataset; one result row each (and per page type)."""
    from tqdm import tqdm
    entries = scorer.load_index(str(dataset))
    if getattr(args, "split", None):   # the CLG training split (models/clg-split.json)
        name = entries[0].get("dataset", dataset.name) if entries else dataset.name
        sides = load_split().get("pages", {}).get(name, {})
        # a dataset the split file predates (dragnet_train, magic_html) is split by the
        # same rule on the fly, as train_blocks splits it
        entries = [e for e in entries if sides.get(e["id"], side_of(site_of(
            {**e, "dataset": name}))) == args.split]
    entries = entries[: args.limit or None]
    overrides = getattr(args, "overrides", None) or {}
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    snippets = snippet_only(entries)
    capture_ms: list[float] = []
    configs = tracks_of(algorithms, getattr(args, "blocks", "on") or "on")
    algo_tracks = [Track(a, False) for a, _ in configs]
    anchor_tracks = [Track(a.name, True) for a in anchor_objs]
    ceiling_tracks = ([Track(CEILING, True), Track(CEILING_BLOCKS, True)]
                      if getattr(args, "ceiling", False) and not snippets else [])
    tracks = algo_tracks + anchor_tracks + ceiling_tracks
    for track in tracks:
        (pred_root / track.name / name).mkdir(parents=True, exist_ok=True)
    bar = tqdm(entries, desc=name, unit="page", file=sys.stderr,
               disable=args.quiet or not sys.stderr.isatty(),   # a bar only on a terminal
               dynamic_ncols=True)
    for entry in bar:
        pid, html_path = entry["id"], dataset / entry["html"]
        truth = "" if snippets else (dataset / entry.get("truth", f"truth/{pid}.txt")).read_text(
            encoding="utf-8", errors="replace")
        page_f1 = (functools.partial(snippet_f1, scorer, entry) if snippets
                   else lambda text: scorer.score_pair(text, truth)[2])
        try:
            data, ms = _snapshot_json(capturer, cache, name, pid, html_path)
        except PithError as exc:
            for track in algo_tracks:   # no snapshot: every algorithm fails
                track.fail(exc)
            bar.write(f"pith bench: {name}/{pid}: {exc}", file=sys.stderr)
            data = None
        else:
            if ms is not None:
                capture_ms.append(ms)
        body = _as_body(data) if data is not None else None
        for track, (_, config) in zip(algo_tracks, configs):
            texts = [""]
            if data is not None:
                try:
                    t0 = time.perf_counter()        # the host's work: its frame's body in
                    capture = framing.decode_body(body)
                    if entry.get("url"):    # the page's own address, as a browser's capture
                        capture["url"] = entry["url"]   # has it (comments.forum_url reads it)
                    sel = select(capture, Options.from_overrides({**overrides, **config}))
                    track.host_ms.append((time.perf_counter() - t0) * 1e3)
                    texts = one_click_texts(sel)
                except PithError as exc:
                    track.fail(exc)
            f1s = [page_f1(t) for t in texts]
            track.page_f1[pid], track.click_f1[pid] = f1s[0], max(f1s)
            (pred_root / track.name / name / f"{pid}.txt").write_text(texts[0], encoding="utf-8")
        if ceiling_tracks:
            for track, text in zip(ceiling_tracks, _ceiling_texts(data, truth, scorer)):
                track.page_f1[pid] = scorer.score_pair(text, truth)[2]
                (pred_root / track.name / name / f"{pid}.txt").write_text(text, encoding="utf-8")
        if anchor_tracks:
            try:
                html, _ = static.decode_html(static.read_page(html_path), None, BENCH_ENCODING_ERRORS)
            except PithError as exc:
                html = None
                bar.write(f"pith bench: {name}/{pid}: anchors not run: {exc}", file=sys.stderr)
            for track, anchor in zip(anchor_tracks, anchor_objs):
                text = ""
                if html is not None:
                    text, ms = anchors.timed(anchor, html, entry.get("url") or "")
                    track.host_ms.append(ms)
                track.page_f1[pid] = page_f1(text)
                (pred_root / track.name / name / f"{pid}.txt").write_text(text, encoding="utf-8")
    groups = [(name, entries)]
    if getattr(args, "by_type", False):
        types = sorted({e["page_type"] for e in entries if e.get("page_type")})
        groups += [(f"{name}:{t}", [e for e in entries if e.get("page_type") == t]) for t in types]
    rows = []
    for group, subset in groups:
        for track in tracks:
            scores = (scorer.score_dataset(str(dataset), str(pred_root / track.name / name))
                      if subset is entries and len(entries) == _index_size(dataset)
                      else _score_subset(scorer, dataset, subset, pred_root / track.name / name))
            ids = [e["id"] for e in subset]
            shingle = scores.get("shingle") or {}    # none on a snippet-only dataset
            rows.append({
                "dataset": group, "algorithm": track.name,
                "mode": "static" if args.static else "rendered", "pages": len(subset),
                "f1": shingle.get("f1"), "precision": shingle.get("precision"),
                "recall": shingle.get("recall"),
                "word_f1": (scores.get("words") or {}).get("f1"),
                "snippet_f1": (scores.get("snippets") or {}).get("f1"),
                "mean_page_f1": _mean(track.page_f1, ids),
                # against the anchors, each anchor against the others
                "wrong_part": wrong_part_rate(track.page_f1, [
                    a.page_f1 for a in anchor_tracks if a is not track], ids),
                "one_click_f1": None if track.anchor else _mean(track.click_f1, ids),
                "capture_ms_median": None if track.anchor or not capture_ms
                else statistics.median(capture_ms),
                "capture_ms_p95": None if track.anchor or not capture_ms
                else percentile(capture_ms, 0.95),
                "host_ms_median": statistics.median(track.host_ms) if track.host_ms else None,
                "host_ms_p95": percentile(track.host_ms, 0.95) if track.host_ms else None,
                "failures": track.failures if group == name else {},
                "options": {} if track.anchor else overrides,
            })
    return rows


def _ceiling_texts(data: str | None, truth: str, scorer: ModuleType) -> tuple[str, str]:
    """The texts of the page's best single element and of its content blocks
    (ceiling.py), "" without a snapshot."""
    if data is None:
        return "", ""
    from . import ceiling
    try:   # select's snapshot and features: hidden text counted as the methods count it
        sel = select(json.loads(data), Options.from_overrides({"blocks": False}))
    except PithError:   # the algorithms' rows already count this page as failed
        return "", ""
    return (ceiling.best(sel.snap, sel.feats, truth, scorer.score_pair)[1],
            ceiling.best_blocks(sel.snap, sel.feats, truth))


def snippet_only(entries: list[dict]) -> bool:
    """Whether the dataset has no truth text, only snippets each page's main text must
    hold (`with`) or must not (`without`): its index marks "truth_kind": "snippets"
    (trafilatura's evaluation set), the scorer's own test."""
    return any(e.get("truth_kind") == "snippets" for e in entries)


def snippet_f1(scorer: ModuleType, entry: dict, text: str) -> float:
    """One page's snippet F1, 2 tp / (2 tp + fp + fn) of the scorer's snippet counts (its
    dataset F1 is the same formula over the summed counts); 0 for a page with no snippet."""
    tp, fp, fn, _ = scorer.snippet_counts(text, entry.get("with") or [],
                                          entry.get("without") or [])
    return 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 0.0


def tracks_of(algorithms: list[str], blocks: str) -> list[tuple[str, dict]]:
    """(row name, option overrides) per algorithm: with the block stage (the name alone),
    without it (name + ELEMENT_SUFFIX), or both."""
    out = []
    for a in algorithms:
        if blocks in ("on", "both"):
            out.append((a, {"algorithm": a, "blocks": True}))
        if blocks in ("off", "both"):
            out.append((a + ELEMENT_SUFFIX, {"algorithm": a, "blocks": False}))
    return out


def _mean(values: dict[str, float], ids: list[str]) -> float | None:
    picked = [values[i] for i in ids if i in values]
    return sum(picked) / len(picked) if picked else None


def _index_size(dataset: Path) -> int:
    with open(dataset / "index.jsonl", encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def mean_rows(rows: list[dict]) -> list[dict]:
    """Per method, the unweighted mean over the whole datasets (not per-type rows)."""
    out = []
    whole = [r for r in rows if ":" not in r["dataset"]]
    for method in dict.fromkeys(r["algorithm"] for r in whole):
        mine = [r for r in whole if r["algorithm"] == method]
        if len(mine) < 2:
            continue
        row = {"dataset": "MEAN", "algorithm": method, "mode": mine[0]["mode"],
               "pages": sum(r["pages"] for r in mine), "failures": {}, "options": mine[0]["options"],
               "capture_ms_median": None, "capture_ms_p95": None, "host_ms_median": None,
               "host_ms_p95": None, "snippet_f1": None}
        for key in ("f1", "precision", "recall", "word_f1", "mean_page_f1", "one_click_f1",
                    "wrong_part"):
            vals = [r[key] for r in mine if r[key] is not None]
            row[key] = sum(vals) / len(vals) if len(vals) == len(mine) else None
        out.append(row)
    return out


def _score_subset(scorer: ModuleType, dataset: Path, entries: list[dict], pred_dir: Path) -> dict:
    """Score only the first --limit pages: a temporary dataset folder with a cut index."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "index.jsonl").write_text(
            "".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
        if (dataset / "truth").is_dir():        # a snippet-only dataset may have none
            (tmp_path / "truth").symlink_to((dataset / "truth").resolve())
        return scorer.score_dataset(str(tmp_path), str(pred_dir))


def _snapshot_json(capturer: Capturer, cache: SnapshotCache | None, dataset: str, pid: str,
                   html_path: Path) -> tuple[str, float | None]:
    """(snapshot JSON, capture ms); from the cache when there, with the ms it took then."""
    if cache is not None:
        cached = cache.get(dataset, pid)
        if cached is not None:
            snap = json.loads(cached)
            code = None if capturer.static_mode else rendered_fallback(snap)
            if code is not None:                                  # cached before the fallback
                snap = capturer.static_fallback(str(html_path), code)
                snap["capture_ms_total"] = None
                cached = json.dumps(snap, ensure_ascii=False)
                cache.put(dataset, pid, cached)
            return cached, snap.get("capture_ms_total")
    captured = capturer.capture(str(html_path))
    captured.snapshot["capture_ms_total"] = round(captured.capture_ms, 3)
    data = json.dumps(captured.snapshot, ensure_ascii=False)
    if cache is not None:
        cache.put(dataset, pid, data)
    return data, captured.capture_ms


def format_rows(rows: list[dict]) -> str:
    head = (f"{'dataset':<22} {'algorithm':<16} {'mode':<8} {'pages':>5}  {'F1':>5} {'P':>5} "
            f"{'R':>5}  {'wordF1':>6} {'snipF1':>6} {'pageF1':>6} {'click':>5} {'wrong%':>6}  "
            f"{'capture ms med/p95':>18}  "
            f"{'ms/page med/p95':>16}  failures")
    lines = [head, "-" * len(head)]

    def num(v, fmt):
        return format(v, fmt) if isinstance(v, (int, float)) else "-"
    for r in rows:
        cap = f"{num(r['capture_ms_median'], '.1f')}/{num(r['capture_ms_p95'], '.1f')}"
        host = f"{num(r['host_ms_median'], '.2f')}/{num(r['host_ms_p95'], '.2f')}"
        fails = ", ".join(f"{k} {v}" for k, v in sorted(r["failures"].items())) or "0"
        wrong = "n/a" if r.get("wrong_part") is None else f"{100 * r['wrong_part']:.1f}"
        lines.append(f"{r['dataset']:<22} {r['algorithm']:<16} {r['mode']:<8} {r['pages']:>5}  "
                     f"{num(r['f1'], '5.3f'):>5} {num(r['precision'], '5.3f'):>5} "
                     f"{num(r['recall'], '5.3f'):>5}  "
                     f"{num(r['word_f1'], '6.3f'):>6} {num(r['snippet_f1'], '6.3f'):>6} "
                     f"{num(r['mean_page_f1'], '6.3f'):>6} {num(r['one_click_f1'], '5.3f'):>5} "
                     f"{wrong:>6}  "
                     f"{cap:>18}  {host:>16}  {fails}")
    lines.append("F1/P/R: shingle metric of ../shared/tools/score.py; snipF1: its snippet "
                 "metric (a snippet-only dataset has no other); pageF1: mean of per-page "
                 "F1 (snippet F1 where there is no truth text); click: the same mean for the best of selection, grow, shrink (one press); "
                 f"wrong%: pages scoring under {WRONG_PART_F1} where the best anchor (for an "
                 f"anchor, the best other one) scores over {WRONG_PART_ANCHOR}, n/a without "
                 "anchors; "
                 "ceiling (with --ceiling): the best single element of each page, chosen by "
                 "reading the truth (an oracle: the most any one-element answer can score); "
                 "ms/page: host pipeline for our "
                 "methods (snapshot JSON decode + select), the whole extract call for anchors.")
    return "\n".join(lines)


def main(args: Namespace) -> int:
    if getattr(args, "metadata", False) and getattr(args, "cost", False):
        from .cost_bench import main as cost_main
        return cost_main(args)
    if getattr(args, "metadata", False):
        from .metadata_bench import main as metadata_main
        return metadata_main(args)
    if args.scale:
        from .scale import main as scale_main
        return scale_main(args)
    if args.crawl:
        from . import crawl
        if args.page_timeout is None:
            args.page_timeout = crawl.PAGE_TIMEOUT_S
        return crawl.main(args)
    scorer = load_scorer()
    datasets = args.datasets or all_datasets()
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
    algorithms = args.algorithm or list(ALGORITHMS)
    mode = "static" if args.static else ("nojs" if args.no_js else "rendered")
    cache = None if args.static else SnapshotCache(cache_root(args.cache), mode)
    anchor_objs = []
    for anchor_name in ([] if args.no_anchors else (args.anchor or list(anchors.ANCHORS))):
        try:
            anchor_objs.append(anchors.make(anchor_name))
        except anchors.AnchorMissing as exc:
            print(f"pith bench: anchor {anchor_name} left out: {exc}", file=sys.stderr)
    rows: list[dict] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            pred_root = args.save_predictions or Path(tmp)
            with Capturer(static_mode=args.static, js=not args.no_js, timeout_s=args.timeout,
                          encoding=args.encoding,
                          encoding_errors=BENCH_ENCODING_ERRORS) as capturer:
                for d in datasets:
                    rows.extend(run_dataset(d, args, capturer, cache, algorithms, anchor_objs,
                                            scorer, pred_root))
    finally:
        for anchor in anchor_objs:
            anchor.close()
    rows += mean_rows(rows)
    print(json.dumps(rows, indent=1) if args.json else format_rows(rows))
    if getattr(args, "overrides", None) and not args.json:
        print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in args.overrides.items()))
    return 0


def _as_body(data: str) -> bytes:
    """The frame body a browser sends for the capture `data`: UTF-8, where a lone
    surrogate (a cached capture may hold one) is escaped as JSON.stringify escapes it."""
    try:
        return data.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(json.loads(data)).encode("ascii")
