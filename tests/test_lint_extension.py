"""tests/lint_extension.py (`make lint`'s web-ext step): one line when clean, fails on anything unexpected."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lint_extension

REPO = Path(__file__).resolve().parents[1]
needs_web_ext = pytest.mark.skipif(not lint_extension.WEB_EXT.exists(),
                                   reason="web-ext not installed (make npm)")
EXPECTED_WARNING = {"_type": "warning", "code": "BACKGROUND_SERVICE_WORKER_IGNORED",
                    "message": "Unsupported manifest property is ignored by Firefox.",
                    "file": "manifest.json"}


def test_the_expected_warning_alone_passes_in_one_line():
    result = lint_extension.verdict({"errors": [], "notices": [], "warnings": [EXPECTED_WARNING]})
    assert result.ok and result.lines == [
        "web-ext lint: 0 errors, 1 expected warning (BACKGROUND_SERVICE_WORKER_IGNORED: "
        "Firefox uses background.scripts)"]


def test_any_error_or_other_warning_fails_and_is_shown():
    other = {"code": "DANGEROUS_EVAL", "message": "eval can be harmful.", "file": "x.js",
             "line": 3}
    result = lint_extension.verdict({"errors": [], "warnings": [EXPECTED_WARNING, other]})
    assert not result.ok
    assert "warning DANGEROUS_EVAL: eval can be harmful. (x.js:3)" in result.lines
    assert result.lines[-1].startswith("web-ext lint: 0 errors, 1 unexpected warning, "
                                       "1 expected warning")
    error = {"code": "MANIFEST_FIELD_REQUIRED", "message": "version is missing"}
    result = lint_extension.verdict({"errors": [error], "warnings": []})
    assert not result.ok and result.lines[-1] == "web-ext lint: 1 error, 0 warnings"


@needs_web_ext
@pytest.mark.slow     # web-ext lint in Node: tens of seconds
def test_the_real_extension_is_clean_in_one_line():
    done = subprocess.run([sys.executable, str(REPO / "tests" / "lint_extension.py")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "web-ext lint: 0 errors, 1 expected warning (BACKGROUND_SERVICE_WORKER_IGNORED: "
        "Firefox uses background.scripts)"]


@needs_web_ext
@pytest.mark.slow
def test_a_new_warning_in_the_extension_fails(tmp_path):
    copy = tmp_path / "extension"
    shutil.copytree(REPO / "extension", copy)
    with open(copy / "background.js", "a", encoding="utf-8") as f:
        f.write("\nexport const risky = (s) => eval(s);\n")
    done = subprocess.run([sys.executable, str(REPO / "tests" / "lint_extension.py"),
                           "--source-dir", str(copy)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "warning DANGEROUS_EVAL" in done.stdout and "1 unexpected warning" in done.stdout
