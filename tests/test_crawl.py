"""pith.measure.crawl: the benchmark crawl is built from the shared pages, and its memory
sampler sees a whole process tree."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pith.batch import warc
from pith.measure import crawl, datasets

HAVE_SHARED = (datasets.shared_dir() / "datasets").is_dir()


@pytest.mark.skipif(not HAVE_SHARED, reason="../shared/datasets absent")
def test_the_crawl_cycles_the_shared_pages_into_warc_files(tmp_path, monkeypatch):
    monkeypatch.setattr(crawl, "crawl_dir", lambda n: tmp_path / f"records-{n}")
    monkeypatch.setattr(crawl, "PATHOLOGICAL_ELEMENTS", 2_000)
    files = crawl.build(30)
    assert len(files) == crawl.CRAWL_FILES and all(f.suffixes[-2:] == [".warc", ".gz"] for f in files)
    pages = [e for f in files for e in warc.read(f) if isinstance(e, warc.Page)]
    assert len(pages) == 30 and len({p.url for p in pages}) == 30
    assert crawl.build(30) == files                      # built once, then reused
    bad = [e for f in crawl.build(30, pathological=True) for e in warc.read(f)
           if isinstance(e, warc.Page)]
    differs = [a.url for a, b in zip(pages, bad) if a.url != b.url]
    assert differs == [pages[15].url] and bad[15].data.count(b"<div>") == 1_000


def test_tree_memory_counts_children_and_grandchildren():
    code = ("import subprocess, sys, time; "
            "subprocess.Popen([sys.executable, '-c', 'x = bytearray(150 << 20); import time; "
            "time.sleep(2)']); time.sleep(2)")
    proc = subprocess.Popen([sys.executable, "-c", code])
    with crawl.TreeMemory(proc.pid) as memory:
        time.sleep(1.5)
    proc.wait()
    assert memory.peak_one >= 150 << 20
    assert memory.peak_total > memory.peak_one
