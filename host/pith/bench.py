"""`pith bench`: accuracy and per-page time of each algorithm on the shared datasets.

For every page of a dataset (layout: ../shared/datasets/README.md) the snapshot is
captured once — rendered snapshots are cached, keyed by capture.js's content — then each
algorithm runs on it; the predictions are scored with the shared scorer
(../shared/tools/score.py, imported, not copied). trafilatura runs on the same decoded
HTML in the same run as an anchor. Host time = decoding the snapshot JSON + `select`,
which is what the native host does per request; capture time is reported apart.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
from argparse import Namespace
from pathlib import Path
from types import ModuleType
from typing import Any

from . import render, static
from .errors import PithError
from .options import ALGORITHMS, Options
from .pages import Capturer
from .select import select

REPO = Path(__file__).resolve().parents[2]
CAPTURE_JS = Path(__file__).with_name("capture.js")
# Bench decodes leniently: a page with a few bad bytes still gets scored (the extract
# command is strict by default and says why).
BENCH_ENCODING_ERRORS = "replace"


def shared_dir() -> Path:
    return Path(os.environ.get("PITH_SHARED", REPO.parent / "shared"))


def load_scorer() -> ModuleType:
    """Import ../shared/tools/score.py by path; PithError if the shared folder is absent."""
    path = shared_dir() / "tools" / "score.py"
    if not path.is_file():
        raise PithError(f"scorer not found at {path} (set PITH_SHARED to the shared folder)")
    spec = importlib.util.spec_from_file_location("pith_shared_score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


class SnapshotCache:
    """Rendered snapshots on disk: <root>/<mode key>/<dataset>/<id>.json (git-ignored)."""

    def __init__(self, root: Path, mode: str) -> None:
        digest = hashlib.sha1(CAPTURE_JS.read_bytes()).hexdigest()[:10]
        self.dir = root / f"{mode}-{digest}"

    def get(self, dataset: str, page: str) -> str | None:
        path = self.dir / dataset / f"{page}.json"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def put(self, dataset: str, page: str, data: str) -> None:
        path = self.dir / dataset / f"{page}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(data, encoding="utf-8")
        tmp.replace(path)


def run_dataset(dataset: Path, args: Namespace, capturer: Capturer, cache: SnapshotCache | None,
                algorithms: list[str], scorer: ModuleType, pred_root: Path) -> list[dict]:
    """All algorithms (and the anchor) on one dataset; one result row each."""
    from tqdm import tqdm
    entries = scorer.load_index(str(dataset))
    if getattr(args, "split", None):   # the CLG training split (models/clg-split.json)
        from .train import load_split
        sides = load_split().get("pages", {}).get(
            entries[0].get("dataset", dataset.name) if entries else dataset.name, {})
        entries = [e for e in entries if sides.get(e["id"]) == args.split]
    entries = entries[: args.limit or None]
    overrides = getattr(args, "overrides", None) or {}
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    capture_ms: list[float] = []
    host_ms: dict[str, list[float]] = {a: [] for a in algorithms}
    failures: dict[str, dict[str, int]] = {a: {} for a in algorithms}   # per algorithm
    anchor = None if args.no_anchors else _anchor()
    anchor_ms: list[float] = []
    for algo in algorithms + (["trafilatura"] if anchor else []):
        (pred_root / algo / name).mkdir(parents=True, exist_ok=True)
    bar = tqdm(entries, desc=name, unit="page", file=sys.stderr, disable=args.quiet,
               dynamic_ncols=True)
    for entry in bar:
        pid, html_path = entry["id"], dataset / entry["html"]
        try:
            data, ms = _snapshot_json(capturer, cache, name, pid, html_path)
        except PithError as exc:
            for counts in failures.values():   # no snapshot: every algorithm fails
                counts[exc.name] = counts.get(exc.name, 0) + 1
            bar.write(f"pith bench: {name}/{pid}: {exc}", file=sys.stderr)
            data = None
        else:
            if ms is not None:
                capture_ms.append(ms)
        for algo in algorithms:
            text = ""
            if data is not None:
                try:
                    t0 = time.perf_counter()
                    sel = select(json.loads(data), Options.from_overrides(
                        {**overrides, "algorithm": algo}))
                    host_ms[algo].append((time.perf_counter() - t0) * 1e3)
                    text = render.output(sel, "text")
                except PithError as exc:
                    failures[algo][exc.name] = failures[algo].get(exc.name, 0) + 1
            (pred_root / algo / name / f"{pid}.txt").write_text(text, encoding="utf-8")
        if anchor:
            text = ""
            try:
                html, _ = static.decode_html(html_path.read_bytes(), None, BENCH_ENCODING_ERRORS)
            except PithError as exc:
                bar.write(f"pith bench: {name}/{pid}: trafilatura not run: {exc}", file=sys.stderr)
            else:
                t0 = time.perf_counter()
                text = anchor(html) or ""
                anchor_ms.append((time.perf_counter() - t0) * 1e3)
            (pred_root / "trafilatura" / name / f"{pid}.txt").write_text(text, encoding="utf-8")
    rows = []
    for algo in algorithms + (["trafilatura"] if anchor else []):
        scores = scorer.score_dataset(str(dataset), str(pred_root / algo / name)) \
            if args.limit is None and not getattr(args, "split", None) else _score_subset(scorer, dataset, entries, pred_root / algo / name)
        is_anchor = algo == "trafilatura"
        times = anchor_ms if is_anchor else host_ms[algo]
        rows.append({
            "dataset": name, "algorithm": algo, "mode": "static" if args.static else "rendered",
            "pages": len(entries),
            "f1": scores["shingle"]["f1"], "precision": scores["shingle"]["precision"],
            "recall": scores["shingle"]["recall"],
            "word_f1": (scores.get("words") or {}).get("f1"),
            "snippet_f1": (scores.get("snippets") or {}).get("f1"),
            "capture_ms_median": None if is_anchor else statistics.median(capture_ms) if capture_ms else None,
            "capture_ms_p95": None if is_anchor else percentile(capture_ms, 0.95) if capture_ms else None,
            "host_ms_median": statistics.median(times) if times else None,
            "host_ms_p95": percentile(times, 0.95) if times else None,
            "failures": {} if is_anchor else failures[algo],
            "options": {} if is_anchor else overrides,
        })
    return rows


def _score_subset(scorer: ModuleType, dataset: Path, entries: list[dict], pred_dir: Path) -> dict:
    """Score only the first --limit pages: a temporary dataset folder with a cut index."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "index.jsonl").write_text(
            "".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
        (tmp_path / "truth").symlink_to(dataset / "truth")
        return scorer.score_dataset(str(tmp_path), str(pred_dir))


def _snapshot_json(capturer: Capturer, cache: SnapshotCache | None, dataset: str, pid: str,
                   html_path: Path) -> tuple[str, float | None]:
    """(snapshot JSON, capture ms); from the cache when there, with the ms it took then."""
    if cache is not None:
        cached = cache.get(dataset, pid)
        if cached is not None:
            return cached, json.loads(cached).get("capture_ms_total")
    captured = capturer.capture(str(html_path))
    captured.snapshot["capture_ms_total"] = round(captured.capture_ms, 3)
    data = json.dumps(captured.snapshot, ensure_ascii=False)
    if cache is not None:
        cache.put(dataset, pid, data)
    return data, captured.capture_ms


def _anchor():
    """trafilatura's extract with library defaults, or None when it is not installed."""
    try:
        import trafilatura
    except ImportError:
        print("pith bench: trafilatura is not installed (pip install -e '.[bench]'); "
              "no anchor", file=sys.stderr)
        return None
    return lambda html: trafilatura.extract(html)


def format_rows(rows: list[dict]) -> str:
    head = (f"{'dataset':<12} {'algorithm':<12} {'mode':<8} {'pages':>5}  {'F1':>5} {'P':>5} "
            f"{'R':>5}  {'wordF1':>6} {'snipF1':>6}  {'capture ms med/p95':>18}  "
            f"{'host ms med/p95':>16}  failures")
    lines = [head, "-" * len(head)]

    def num(v, fmt):
        return format(v, fmt) if isinstance(v, (int, float)) else "-"
    for r in rows:
        cap = f"{num(r['capture_ms_median'], '.1f')}/{num(r['capture_ms_p95'], '.1f')}"
        host = f"{num(r['host_ms_median'], '.2f')}/{num(r['host_ms_p95'], '.2f')}"
        fails = ", ".join(f"{k} {v}" for k, v in sorted(r["failures"].items())) or "0"
        lines.append(f"{r['dataset']:<12} {r['algorithm']:<12} {r['mode']:<8} {r['pages']:>5}  "
                     f"{r['f1']:.3f} {r['precision']:.3f} {r['recall']:.3f}  "
                     f"{num(r['word_f1'], '6.3f'):>6} {num(r['snippet_f1'], '6.3f'):>6}  "
                     f"{cap:>18}  {host:>16}  {fails}")
    return "\n".join(lines)


def main(args: Namespace) -> int:
    if args.scale:
        from .scale import main as scale_main
        return scale_main(args)
    scorer = load_scorer()
    datasets = args.datasets or sorted(p for p in (shared_dir() / "datasets").iterdir()
                                       if (p / "index.jsonl").is_file())
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
    algorithms = args.algorithm or list(ALGORITHMS)
    mode = "static" if args.static else ("nojs" if args.no_js else "rendered")
    cache_root = args.cache or Path(os.environ.get("PITH_CACHE", REPO / ".cache" / "snapshots"))
    cache = None if args.static else SnapshotCache(cache_root, mode)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        pred_root = args.save_predictions or Path(tmp)
        with Capturer(static_mode=args.static, js=not args.no_js, timeout_s=args.timeout,
                      encoding=args.encoding, encoding_errors=BENCH_ENCODING_ERRORS) as capturer:
            for d in datasets:
                rows.extend(run_dataset(d, args, capturer, cache, algorithms, scorer, pred_root))
    print(json.dumps(rows, indent=1) if args.json else format_rows(rows))
    if getattr(args, "overrides", None) and not args.json:
        print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in args.overrides.items()))
    return 0
