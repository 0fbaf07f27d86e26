"""The `pith` command: extract in both modes, output naming, JSON, failures and bad input."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from serving import serve
from terminal import pith_on_a_terminal

from pith.pages import static

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "host" / "examples" / "article.html"
HAVE_CHROMIUM = any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser"))
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM, reason="Debian chromium not installed")
# A subprocess that has not finished by then has hung: fail instead of blocking the suite.
CLI_TIMEOUT_S = 180
MODES = [pytest.param(["--static"], id="static"),
         pytest.param([], id="rendered", marks=needs_chromium)]


def pith(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    return subprocess.run([sys.executable, "-m", "pith", *map(str, args)], capture_output=True,
                          text=True, timeout=CLI_TIMEOUT_S, cwd=cwd, env=env)


def assert_main_text(out: str):
    """All of the article, and neither the menu nor the footer (CNR may keep the small
    link-only sidebar next to the article: its links weigh 1 and carry no text)."""
    assert "Every harbour master keeps a tide table" in out
    assert "The four largest constituents" in out
    assert "still looks out of the window" in out
    assert "Privacy" not in out and "Sport" not in out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A throwaway http.server on 127.0.0.1 serving a folder with the example page."""
    root = tmp_path_factory.mktemp("site")
    (root / "article.html").write_bytes(EXAMPLE.read_bytes())
    with serve(root) as url:
        yield url


def test_help_lists_the_commands_and_options():
    top = pith("--help")
    assert top.returncode == 0 and "extract" in top.stdout and "bench" in top.stdout
    ex = pith("extract", "--help")
    for flag in ("--algorithm", "--format", "--out", "--static", "--no-js"):
        assert flag in ex.stdout
    be = pith("bench", "--help")
    for flag in ("--algorithm", "--static", "--save-predictions"):
        assert flag in be.stdout


def test_readme_commands_exist_in_the_cli():
    """Cross-file invariant: every `pith SUBCOMMAND` the README shows is a real subcommand."""
    readme = (REPO / "README.md").read_text()
    used = set(re.findall(r"pith ([\w-]+)", readme)) - {"finds", "is", "bench", "extract",
                                                     "subcommands"}
    for sub in {"extract", "bench", "options"} | used:
        result = pith(sub, "--help")
        assert result.returncode == 0, (sub, result.stderr)


@pytest.mark.parametrize("mode", MODES)
def test_extract_saved_file(mode):
    result = pith("extract", EXAMPLE, *mode)
    assert result.returncode == 0, result.stderr
    assert_main_text(result.stdout)


@needs_chromium
def test_extract_file_url_and_http_url(server):
    for target in (EXAMPLE.as_uri(), f"{server}/article.html"):
        result = pith("extract", target)
        assert result.returncode == 0, (target, result.stderr)
        assert_main_text(result.stdout)
    result = pith("extract", f"{server}/article.html", "--static")
    assert result.returncode == 0, result.stderr
    assert_main_text(result.stdout)


@pytest.mark.parametrize("mode", MODES)
def test_out_dir_naming_and_json_record(tmp_path, mode):
    src = tmp_path / "in"
    src.mkdir()
    (src / "first.html").write_bytes(EXAMPLE.read_bytes())
    (src / "second.htm").write_bytes(EXAMPLE.read_bytes())
    out = tmp_path / "out"
    result = pith("extract", src / "first.html", src / "second.htm", "--out", out,
                  "--format", "json", *mode)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["first.json", "second.json"]
    record = json.loads((out / "first.json").read_text())
    assert record["tag"] in ("article", "main", "div")
    assert isinstance(record["path"], list) and record["score"] > 0
    assert record["title"].startswith("How tide tables are made")
    assert {"capture_ms", "total_ms", "render_ms"} <= set(record["timings"])
    assert "Every harbour master" in record["text"]


def test_out_dir_names_each_format_by_its_suffix(tmp_path):
    """The output's name follows the input and the format, whichever way the page was
    captured (the same code names both: static here, one browser fewer per format)."""
    (tmp_path / "first.html").write_bytes(EXAMPLE.read_bytes())
    out = tmp_path / "out"
    for fmt, suffix in (("text", ".txt"), ("markdown", ".md"), ("html", ".html")):
        result = pith("extract", tmp_path / "first.html", "--out", out, "--format", fmt,
                      "--static")
        assert result.returncode == 0, result.stderr
        assert (out / f"first{suffix}").stat().st_size > 500
    assert sorted(p.name for p in out.iterdir()) == ["first.html", "first.md", "first.txt"]


def test_markdown_output_keeps_the_table_and_code():
    result = pith("extract", EXAMPLE, "--static", "--format", "markdown")
    assert result.returncode == 0, result.stderr
    assert "# How tide tables are made" in result.stdout
    assert "| M2 | 12.42 | principal lunar |" in result.stdout
    assert "```\nheight = sum(" in result.stdout


def bad_inputs(folder: Path) -> dict[str, tuple[Path, str]]:
    """name → (file, the error name the CLI must report)."""
    cases = {
        "png": (b"\x89PNG\r\n\x1a\n" + bytes(200), "input_not_html"),
        "empty": (b"", "input_empty"),
        "blank": (b"  \n\t \n", "input_empty"),
        "notutf8": ('<html><head><meta charset="utf-8"></head><body><p>caf\u00e9 '
                    'au lait</p></body></html>'.encode("latin-1"), "input_decode"),
        "badlabel": (b'<html><head><meta charset="no-such-charset"></head><body>x</body>'
                     b'</html>', "input_decode"),
    }
    out = {}
    for name, (data, error) in cases.items():
        path = folder / f"{name}.html"
        path.write_bytes(data)
        out[name] = (path, error)
    out["missing"] = (folder / "missing.html", "input_not_found")
    return out


@pytest.mark.parametrize("mode", MODES)
def test_bad_inputs_fail_alone_with_one_precise_line(tmp_path, mode):
    cases = bad_inputs(tmp_path)
    good = tmp_path / "good.html"
    good.write_bytes(EXAMPLE.read_bytes())
    targets = [good] + [path for path, _ in cases.values()]
    out = tmp_path / "out"
    result = pith("extract", *targets, "--out", out, "--quiet", *mode)
    assert result.returncode == 1
    assert (out / "good.txt").is_file()
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("pith: ")]
    for name, (path, error) in cases.items():
        line = [ln for ln in lines if str(path) in ln]
        assert len(line) == 1, (name, result.stderr)
        assert error in line[0], (name, line[0])
        assert "Traceback" not in result.stderr
    assert f"{len(cases)} of {len(targets)} inputs failed" in result.stderr
    decode_line = [ln for ln in lines if "notutf8" in ln][0]
    assert re.search(r"byte offset \d+", decode_line) and "utf-8" in decode_line.lower()


def test_decoding_can_be_relaxed(tmp_path):
    path = tmp_path / "latin.html"
    path.write_bytes('<html><head><meta charset="utf-8"></head><body><p>caf\u00e9 au lait '
                     'is a drink</p></body></html>'.encode("latin-1"))
    result = pith("extract", path, "--static", "--encoding-errors", "replace")
    assert result.returncode == 0, result.stderr
    assert "caf\ufffd au lait" in result.stdout
    result = pith("extract", path, "--static", "--encoding", "latin-1")
    assert result.returncode == 0, result.stderr
    assert "café au lait" in result.stdout


@needs_chromium
def test_unreachable_urls_fail_with_fetch_errors(server):
    result = pith("extract", f"{server}/nope.html")
    assert result.returncode == 1
    assert "fetch_failed" in result.stderr and "404" in result.stderr
    result = pith("extract", "http://nonexistent.invalid/")
    assert result.returncode == 1
    assert "fetch_failed" in result.stderr
    result = pith("extract", f"{server}/nope.html", "--static")
    assert result.returncode == 1 and "404" in result.stderr


def huge_page(elements: int) -> str:
    rows = "".join(f"<div><p>Row {k} has some text in it.</p></div>" for k in range(elements // 2))
    return f"<html><body><main>{rows}</main></body></html>"


def deep_page(depth: int) -> str:
    return ("<html><body>" + "<div>" * depth + "<p>" + "Deep content here. " * 20 + "</p>"
            + "</div>" * depth + "</body></html>")


@pytest.mark.parametrize("mode", MODES)
def test_a_page_of_200k_elements_finishes(tmp_path, mode):
    (tmp_path / "huge.html").write_text(huge_page(200_000))
    result = pith("extract", tmp_path / "huge.html", "--timeout", "120", *mode)
    assert result.returncode == 0, result.stderr
    assert re.search(r"Row \d+ has some text in it", result.stdout)


@needs_chromium
def test_nesting_10000_deep_renders_flattened(tmp_path):
    (tmp_path / "deep.html").write_text(deep_page(10_000))
    result = pith("extract", tmp_path / "deep.html")
    assert result.returncode == 0, result.stderr
    assert "Deep content here." in result.stdout


def test_nesting_10000_deep_is_answered_in_static_mode(tmp_path):
    """The HTML5 parser keeps every level (libxml2, before it, stopped at 2048)."""
    (tmp_path / "deep.html").write_text(deep_page(10_000))
    result = pith("extract", tmp_path / "deep.html", "--static")
    assert result.returncode == 0, result.stderr
    assert "Deep content here." in result.stdout


def test_usage_errors_exit_2(tmp_path):
    result = pith("extract", EXAMPLE, EXAMPLE, "--static")
    assert result.returncode == 2 and "--out" in result.stderr
    assert result.stderr.startswith("usage: pith extract ")      # extract's, not pith's
    assert "pith extract: error: several inputs need --out" in result.stderr
    result = pith("extract", EXAMPLE, "--static", "--option", "nope=1")
    assert result.returncode == 2 and "unknown option 'nope'" in result.stderr
    result = pith("extract", EXAMPLE, "--format", "pdf")
    assert result.returncode == 2


def test_no_progress_bar_when_stderr_is_a_pipe(tmp_path):
    """A log or a pipe gets no stream of carriage-return bar lines."""
    for k in range(3):
        (tmp_path / f"p{k}.html").write_bytes(EXAMPLE.read_bytes())
    result = pith("extract", *sorted(tmp_path.glob("*.html")), "--out", tmp_path / "o",
                  "--static")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""
    assert len(list((tmp_path / "o").iterdir())) == 3


def test_progress_bar_on_a_terminal_for_many_inputs(tmp_path):
    for k in range(3):
        (tmp_path / f"p{k}.html").write_bytes(EXAMPLE.read_bytes())
    status, drawn = pith_on_a_terminal(
        ["extract", *sorted(map(str, tmp_path.glob("*.html"))), "--out", str(tmp_path / "o"),
         "--static"], CLI_TIMEOUT_S)
    assert status == 0
    assert b"3/3" in drawn and b"\r" in drawn


@pytest.mark.browser      # its second half runs the rendered mode, which needs Chromium
def test_one_input_error_names_the_input_once(tmp_path):
    for mode in (["--static"], []):
        missing = tmp_path / "missing.html"
        result = pith("extract", missing, *mode)
        assert result.returncode == 1
        assert result.stderr.count(str(missing)) == 1, result.stderr
        assert "input_not_found (50)" in result.stderr


@pytest.mark.parametrize("mode", MODES)
def test_a_folder_without_pages_has_one_message_in_both_modes(tmp_path, mode):
    (tmp_path / "notes.txt").write_text("no page here")
    result = pith("extract", tmp_path, *mode)
    assert result.returncode == 1
    assert result.stderr == (f"pith: input_not_found (50): {tmp_path} is a folder with no "
                             "HTML file in it\n")


def test_a_folder_stands_for_its_pages(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "article.html").write_bytes(EXAMPLE.read_bytes())
    result = pith("extract", tmp_path, "--static")
    assert result.returncode == 0, result.stderr
    assert_main_text(result.stdout)


@pytest.mark.parametrize("mode", MODES)
def test_network_failures_in_words(mode):
    import socket
    with socket.socket() as s:               # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = pith("extract", "http://nonexistent.invalid/", f"http://127.0.0.1:{port}/",
                  "--format", "json", *mode)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert ("pith: fetch_failed (54): http://nonexistent.invalid/: cannot reach "
            "nonexistent.invalid: name not resolved") in lines, result.stderr
    assert (f"pith: fetch_failed (54): http://127.0.0.1:{port}/: cannot reach "
            f"127.0.0.1:{port}: connection refused") in lines, result.stderr
    assert "net::" not in result.stderr and "Errno" not in result.stderr


@pytest.mark.parametrize("mode", MODES)
def test_markdown_and_text_files_are_refused(tmp_path, mode):
    (tmp_path / "notes.md").write_text("# Notes\n\nPress <kbd>Ctrl</kbd>; see "
                                       "<https://example.org/docs>.\n\n- one\n- two\n")
    (tmp_path / "notes.txt").write_text("Some notes <https://example.org> in plain text.\n")
    result = pith("extract", tmp_path / "notes.md", tmp_path / "notes.txt", "--format", "json",
                  *mode)
    assert result.returncode == 1 and result.stdout == ""
    assert f"input_not_html (51): {tmp_path / 'notes.md'} is Markdown, not HTML" in result.stderr
    assert f"input_not_html (51): {tmp_path / 'notes.txt'} is plain text, not HTML" in result.stderr


def test_static_snapshot_of_the_example_matches_decode_rules():
    text, charset = static.decode_html(EXAMPLE.read_bytes())
    assert charset.lower().replace("-", "") == "utf8"
    assert "harbour" in text


@pytest.mark.parametrize("mode", MODES)
def test_local_pages_link_to_their_real_folder(mode):
    result = pith("extract", EXAMPLE, "--format", "markdown", *mode)
    assert result.returncode == 0, result.stderr
    folder = EXAMPLE.parent.resolve().as_uri()
    assert f"]({folder}/tide-chart.png)" in result.stdout
    assert "pith.invalid" not in result.stdout


def test_json_lists_the_kept_blocks_and_blocks_off_gives_the_whole_element():
    on = pith("extract", EXAMPLE, "--static", "--format", "json")
    assert on.returncode == 0, on.stderr
    record = json.loads(on.stdout)
    paths = record["block_paths"]
    assert paths and all(p[:len(record["path"])] == record["path"] for p in paths)
    assert len(paths) == len(record["blocks"]["kept"])
    off = pith("extract", EXAMPLE, "--static", "--format", "json", "--blocks", "off")
    plain = json.loads(off.stdout)
    assert "block_paths" not in plain and "blocks" not in plain and plain["text"]


def test_readme_train_example_is_what_make_train_runs():
    """`pith train` takes dataset folders (each with index.jsonl), or none: every dataset
    of the shared folder, as `make train` runs it. The README once passed their parent."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"pith train(?!-)([^#\n`]*)", readme)
    assert examples, "README shows no `pith train`"
    for args in examples:
        for arg in args.split():
            if not arg.startswith("-"):
                assert (REPO / arg / "index.jsonl").is_file() or arg.endswith("DATASET_DIR"), \
                    f"README's `pith train{args}`: {arg} is not a dataset folder"
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^\t\$\(BIN\)/pith train$", makefile, re.M)


def test_every_optional_test_import_is_a_declared_test_extra():
    """A test that skips when its module is missing must name a module the `test` extra
    installs, so `make test` never skips it silently (sklearn: scikit-learn)."""
    import tomllib
    dist_of = {"sklearn": "scikit-learn"}
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    test_extra = {re.split(r"[<>=!~ \[]", req, maxsplit=1)[0].lower()
                  for req in project["optional-dependencies"]["test"]}
    for path in sorted((REPO / "tests").glob("test_*.py")):
        for module in re.findall(r"importorskip\(\"([\w.]+)\"", path.read_text(encoding="utf-8")):
            top = module.split(".")[0]
            assert dist_of.get(top, top).lower() in test_extra, (path.name, module)


def test_a_single_static_page_has_a_time_limit(tmp_path):
    """Single-page mode stops a static page after --timeout, as it stops a rendered one
    (issue 34, finding 5; rows have --page-timeout): one line with the code, exit
    status 1, no traceback."""
    page = tmp_path / "long.html"
    page.write_text("<html><body>" + "<section><h2>Part</h2><p>A story told at length, "
                    "sentence after sentence.</p></section>" * 20_000 + "</body></html>")
    result = pith("extract", "--static", "--timeout", "0.05", page)
    assert result.returncode == 1, result.stdout[:200]
    assert "timeout (58)" in result.stderr and "--timeout" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


# --- inputs Pith does not read (issue 34, finding 9) -------------------------------------
def odd_inputs(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Inputs that are no readable page: name -> (input, the error's name and words)."""
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)                             # nothing writes to it: a read would block
    (tmp_path / "a.html").symlink_to(tmp_path / "b.html")
    (tmp_path / "b.html").symlink_to(tmp_path / "a.html")
    return {
        "ftp": ("ftp://127.0.0.1/x.html", "input_unsupported (59): ftp://127.0.0.1/x.html: "
                                          "the URL scheme 'ftp' is not supported"),
        "data": ("data:text/html,<p>x</p>", "input_unsupported (59): data:text/html,<p>x</p>: "
                                            "the URL scheme 'data' is not supported"),
        "javascript": ("javascript:alert(1)", "input_unsupported (59): javascript:alert(1): "
                                              "the URL scheme 'javascript' is not supported"),
        "fifo": (str(fifo), "input_unsupported (59): " + str(fifo) + " is a FIFO"),
        "device": ("/dev/zero", "input_unsupported (59): /dev/zero is a device"),
        "loop": (str(tmp_path / "a.html"), "input_unreadable (100): " + str(tmp_path / "a.html")
                 + ": a loop of symbolic links"),
    }


@pytest.mark.parametrize("mode", MODES)
def test_other_schemes_pipes_devices_and_loops_are_refused_at_once(tmp_path, mode):
    """Each is one line with its own code, the input named as given, and nothing blocks
    (a FIFO no one writes to, /dev/zero): the run ends well inside the subprocess timeout."""
    for name, (target, words) in odd_inputs(tmp_path).items():
        result = pith("extract", target, *mode)
        assert result.returncode == 1, name
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"pith: {words}"), (name, result.stderr)


def test_odd_inputs_are_failed_rows_in_folders_and_stdin_lists(tmp_path):
    cases = odd_inputs(tmp_path)
    (tmp_path / "good.html").write_bytes(EXAMPLE.read_bytes())
    listing = "\n".join(target for target, _ in cases.values()) + f"\n{tmp_path}\n"
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    result = subprocess.run([sys.executable, "-m", "pith", "extract", "-", "--format", "jsonl",
                             "-j", "1"], input=listing, capture_output=True, text=True,
                            timeout=CLI_TIMEOUT_S, env=env)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    errors = {r["source"]: f"{r['error']['name']} ({r['error']['code']}): {r['error']['message']}"
              for r in rows if r["error"]}
    for name, (target, words) in cases.items():
        assert errors[target].startswith(words), (name, errors)
    # the folder gives its FIFO and its loop again, each a failed row, and its page
    by_source = [(r["source"], r["error"]["name"] if r["error"] else r["status"]) for r in rows]
    assert by_source.count((cases["fifo"][0], "input_unsupported")) == 2
    assert by_source.count((cases["loop"][0], "input_unreadable")) == 2
    assert (str(tmp_path / "b.html"), "input_unreadable") in by_source
    assert (str(tmp_path / "good.html"), "ok") in by_source
    assert len(rows) == len(cases) + 4


def test_an_unreadable_file_has_its_own_code_and_words(tmp_path):
    page = tmp_path / "secret.html"
    page.write_bytes(EXAMPLE.read_bytes())
    page.chmod(0)
    # root reads any file: drop the capabilities that let it, so permissions apply
    prefix = []
    if os.geteuid() == 0:
        if not Path("/usr/bin/setpriv").exists():
            pytest.skip("running as root without setpriv: every file is readable")
        prefix = ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    for args in (["--static"], ["--format", "jsonl", "-j", "1"]):
        result = subprocess.run([*prefix, sys.executable, "-m", "pith", "extract", str(page), *args],
                                capture_output=True, text=True, timeout=CLI_TIMEOUT_S, env=env)
        assert result.returncode == 1
        said = result.stderr if args[0] == "--static" else result.stdout
        assert f"input_unreadable (100): {page}: permission denied" in said or \
            '"name":"input_unreadable"' in said.replace(" ", ""), said
        assert "input_not_found" not in said and "Traceback" not in result.stderr
    # a folder that may not be listed is a failed row, not its pages silently missing
    tree = tmp_path / "tree"
    (tree / "locked").mkdir(parents=True)
    (tree / "a.html").write_bytes(EXAMPLE.read_bytes())
    (tree / "locked" / "b.html").write_bytes(EXAMPLE.read_bytes())
    (tree / "locked").chmod(0)
    result = subprocess.run([*prefix, sys.executable, "-m", "pith", "extract", str(tree),
                             "--format", "jsonl", "-j", "1"],
                            capture_output=True, text=True, timeout=CLI_TIMEOUT_S, env=env)
    (tree / "locked").chmod(0o755)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(Path(r["source"]).name, r["error"]["name"] if r["error"] else r["status"])
            for r in rows] == [("a.html", "ok"), ("locked", "input_unreadable")]

COMMENTS_PAGE = REPO / "tests" / "fixtures" / "pages" / "bread-post" / "source.html"
POST_LINE = "measure the dough's temperature before you change the flour"
COMMENT_LINE = "A cheap probe thermometer changed my baking"


def test_comments_are_apart_from_the_body_and_added_on_request():
    """A blog post with a thread longer than itself: the body is the post; --comments adds
    the thread after it under a heading; the JSON record carries it apart."""
    body = pith("extract", COMMENTS_PAGE, "--static")
    assert body.returncode == 0, body.stderr
    assert POST_LINE in body.stdout and COMMENT_LINE not in body.stdout
    both = pith("extract", COMMENTS_PAGE, "--static", "--comments")
    before, _, after = both.stdout.partition("\n\nComments\n\n")
    assert POST_LINE in before and COMMENT_LINE in after and "Leave a Reply" not in after
    md = pith("extract", COMMENTS_PAGE, "--static", "--comments", "-f", "markdown").stdout
    assert "\n## Comments\n" in md and md.index(POST_LINE) < md.index(COMMENT_LINE)
    record = json.loads(pith("extract", COMMENTS_PAGE, "--static", "-f", "json").stdout)
    assert COMMENT_LINE in record["comments"]["text"] and COMMENT_LINE not in record["text"]
    assert record["comments"]["roots"] and record["comments"]["truncated"] is False


@pytest.mark.parametrize("command, trainer", [("train", "train"), ("train-blocks", "train_blocks"),
                                              ("train-pagetype", "train_pagetype")])
def test_each_training_command_runs_its_own_trainer_into_the_models_folder(command, trainer, monkeypatch):
    import importlib
    from pith import cli
    from pith.measure.datasets import MODELS_DIR
    module = importlib.import_module(f"pith.measure.{trainer}")
    seen = {}
    monkeypatch.setattr(module, "main", lambda args: seen.setdefault("out", args.out) and 0)
    args = cli.build_parser().parse_args([command])
    assert args.run(args) == 0
    assert seen["out"] == MODELS_DIR
