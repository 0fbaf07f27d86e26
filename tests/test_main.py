"""Tests of pith/__main__.py: `python -m pith` is the `pith` command, and importing it runs nothing."""
from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

HOST = Path(__file__).resolve().parents[1] / "host"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(HOST)}
    return subprocess.run([sys.executable, "-m", "pith", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_python_m_pith_prints_the_commands_help():
    done = run("--help")
    assert done.returncode == 0
    assert "usage: pith" in done.stdout and "extract" in done.stdout


def test_python_m_pith_passes_the_exit_code_on():
    done = run("no-such-command")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_importing_the_main_module_does_not_run_the_cli(monkeypatch):
    called = []
    import pith.cli
    monkeypatch.setattr(pith.cli, "main", lambda *a, **k: called.append(1) or 0)
    runpy.run_module("pith.__main__", run_name="__mp_main__")   # as a batch worker imports it
    assert called == []
    try:
        runpy.run_module("pith.__main__", run_name="__main__")
    except SystemExit as exc:
        assert exc.code == 0
    assert called == [1]
