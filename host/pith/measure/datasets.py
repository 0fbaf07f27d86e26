"""The shared datasets as bench and training read them: where they are, the by-site split, the snapshot cache.

bench, train and train_blocks all import this module and none of them imports another for
these, so the three have no import cycle. The split's rule (`site_of`, `side_of`) decides
which pages CLG and the block model may learn from: changing it changes every validation
figure, so retrain and re-bench together.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import os
import urllib.parse
from pathlib import Path
from types import ModuleType
from typing import Iterable

from ..errors import PithError

REPO = Path(__file__).resolve().parents[3]
# Rendered snapshots are cached under a key of capture.js's content: a new capture.js
# re-renders instead of reading snapshots the old one took.
CAPTURE_JS = Path(__file__).resolve().parents[1] / "pages" / "capture.js"
MODELS_DIR = Path(__file__).resolve().parents[1] / "pipeline" / "models"
SPLIT_FILE = "clg-split.json"
# 1 page in VALIDATION_MODULO goes to validation (by site): the paper's 1/3 test share.
VALIDATION_MODULO = 3


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


def all_datasets() -> list[Path]:
    """Every dataset folder of the shared folder (one with an index.jsonl), sorted."""
    return sorted(p for p in (shared_dir() / "datasets").iterdir() if (p / "index.jsonl").is_file())


def datasets_to_use(datasets: list[Path]) -> list[Path]:
    """The datasets a trainer learns from: `wcxb_dev` is left out when `wcxb_dev_full` is
    there (its 380 pages are inside it, same ids and bytes: they would count twice)."""
    names = {d.name for d in datasets}
    return [d for d in datasets if not (d.name == "wcxb_dev" and "wcxb_dev_full" in names)]


def pages_of(dataset: Path, quiet: bool = False) -> tuple[str, Iterable[dict]]:
    """(the dataset's name, its index entries behind a progress bar drawn only on a
    terminal and not when `quiet`)."""
    from tqdm import tqdm
    entries = [json.loads(line) for line in (dataset / "index.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    return name, tqdm(entries, desc=name, unit="page", file=sys.stderr,
                      disable=quiet or not sys.stderr.isatty(), dynamic_ncols=True)


def cache_root(given: Path | None) -> Path:
    """Where rendered snapshots are cached: --cache, else $PITH_CACHE, else .cache/snapshots."""
    return given or Path(os.environ.get("PITH_CACHE", REPO / ".cache" / "snapshots"))


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


# --------------------------------------------------------------------------- split
def site_of(entry: dict) -> str:
    """The web site of an index entry: url host without "www.", else dataset/id."""
    url = entry.get("url") or ""
    host = (urllib.parse.urlsplit(url).hostname or "") if url else ""
    host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    return host or f"{entry.get('dataset', '')}/{entry['id']}"


def side_of(site: str) -> str:
    """train or validation, from a hash of the site (stable across runs and machines)."""
    h = int(hashlib.sha1(site.encode("utf-8")).hexdigest(), 16)
    return "validation" if h % VALIDATION_MODULO == 0 else "train"


def make_split(datasets: Iterable[Path]) -> dict:
    """The split of every page of `datasets`: {"pages": {dataset: {id: side}}, ...}."""
    pages: dict[str, dict[str, str]] = {}
    sites: dict[str, set] = {"train": set(), "validation": set()}
    for d in datasets:
        for line in (d / "index.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            e = json.loads(line)
            name = e.get("dataset", d.name)
            site = site_of({**e, "dataset": name})
            side = side_of(site)
            sites[side].add(site)
            pages.setdefault(name, {})[e["id"]] = side
    counts = {name: {s: sum(1 for v in ids.values() if v == s) for s in ("train", "validation")}
              for name, ids in pages.items()}
    return {"rule": f"site = host of the index url without 'www.' (dataset/id without url); "
                    f"validation iff int(sha1(site), 16) % {VALIDATION_MODULO} == 0",
            "counts": counts,
            "sites": {s: len(v) for s, v in sites.items()},
            "pages": pages}


def write_split(split: dict, path: Path) -> dict:
    """Write `split` (make_split's) as the split file: pages sorted per dataset. Returns
    what was written."""
    out = {k: v for k, v in split.items() if k != "pages"}
    out["pages"] = {name: dict(sorted(ids.items())) for name, ids in sorted(split["pages"].items())}
    path.write_text(json.dumps(out, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    return out


def load_split(path: Path | None = None) -> dict:
    path = path or MODELS_DIR / SPLIT_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PithError(f"no split file at {path} ({exc}); run `pith train`") from None
