"""`make run` (pith.demo): says what was chosen in words and ends with the steps to use Pith in one's own browser."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pith import demo

REPO = Path(__file__).resolve().parents[1]
HAVE_CHROMIUM = any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser"))


def test_an_element_in_words():
    text = "How tide tables are made\n" + "word " * 1235      # 5 + 1,235 words
    assert demo.in_words("article", "How tide tables are made", text) == \
        'the <article> "How tide tables are made" · 1,240 words'
    assert demo.in_words("div", "", "one") == "the <div> · 1 word"
    long = demo.in_words("main", "A heading " * 20, "x y")
    assert long.count("…") == 1 and len(long.split('"')[1]) == demo.HEADING_CHARS


def test_next_steps_name_install_host_and_the_extension_folder(tmp_path):
    steps = demo.next_steps(tmp_path)
    assert f"demo profile ({tmp_path})" in steps
    assert "install-host" in steps and str(demo.EXTENSION_DIR) in steps
    assert "chrome://extensions" in steps and "about:debugging" in steps


@pytest.mark.browser
@pytest.mark.skipif(not HAVE_CHROMIUM, reason="Debian chromium not installed")
def test_make_run_headless_says_what_it_chose_and_what_next(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(REPO / "host")
    done = subprocess.run([sys.executable, "-m", "pith.demo", "--headless", "--profile",
                           str(tmp_path / "profile"), "--out", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert 'Chose the <article> "How tide tables are made" · ' in out
    assert "(node " not in out and "at path [" not in out
    last = out.rstrip().splitlines()
    steps = "\n".join(last[-4:])
    assert "install-host" in steps and "Load unpacked" in steps and "Alt+Shift+P" in steps
    assert (tmp_path / "run" / "reader-dark.png").is_file()
