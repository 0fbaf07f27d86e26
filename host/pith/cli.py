"""The `pith` command line: `extract` pages to text/Markdown/HTML/JSON, `bench`, `train`, `options`,
`install-host` and `doctor` (registering the native host and checking it).

Exit status: 0 when every input succeeded, 1 when at least one failed (each failure
gets one line on stderr and the others are still processed), 2 for a usage error.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from . import __version__
from .pipeline import render
from .batch.command import TABLE_FORMATS
from .batch.warc import is_warc
from .errors import BadOptions, InputNotFound, PithError, Timeout
from .native import deadline
from .pipeline.metadata import frontmatter
from .measure.anchors import ANCHORS
from .pipeline.options import ALGORITHMS, Options
from .pages.inputs import DEFAULT_TIMEOUT_S, Capturer, local_path, output_stem
from .pipeline.select import select

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
SUFFIX = {"text": ".txt", "markdown": ".md", "html": ".html", "json": ".json"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pith", description="Find the main content of web pages.",
        epilog="Exit status: 0 all inputs done, 1 some input failed, 2 usage error.")
    parser.add_argument("--version", action="version", version=f"pith {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ex = sub.add_parser(
        "extract", help="print or save the main content of pages",
        description="Extract the main content of saved pages (paths, file:// URLs), live "
                    "http(s) URLs, folders of pages (recursively), WARC files (.warc, "
                    ".warc.gz) and lists of these on stdin (-). By default each page is "
                    "rendered in headless Chromium and captured by the extension's own "
                    "capture script; --format jsonl or parquet (the default for WARC "
                    "input) writes one row per page, extracted without a browser on every "
                    "core, each page under a time and a memory limit.")
    ex.add_argument("inputs", nargs="+", metavar="PATH_OR_URL",
                    help="a page, a folder, a WARC file, a URL, or - to read them from stdin "
                         "(one per line)")
    ex.add_argument("--algorithm", "-a", choices=ALGORITHMS, default=Options().algorithm,
                    help=f"scoring method (default {Options().algorithm}; see README)")
    ex.add_argument("--format", "-f", choices=render.FORMATS + TABLE_FORMATS, default=None,
                    help="text (default), markdown, html, json (one object per page); "
                         "jsonl or parquet: one row per page or WARC record (the default for "
                         "WARC input; see README 'Crawls')")
    ex.add_argument("--blocks", choices=("on", "off"), default=None,
                    help="the block stage: output only the chosen element's blocks the block "
                         "model keeps (on, the default), or the element's whole text (off)")
    ex.add_argument("--comments", action="store_true",
                    help="text and markdown: add the comment thread found under the post "
                         "after the body, under a 'Comments' heading (rows and json always "
                         "carry it apart as `comments`)")
    ex.add_argument("--out", "-o", metavar="DIR|FILE", type=Path,
                    help="write DIR/X.txt (.md/.html/.json) for each input X.html or URL; "
                         "with --format jsonl or parquet, the FILE of rows")
    ex.add_argument("--front-matter", action="store_true",
                    help="begin text and Markdown output with the page's metadata (title, "
                         "authors, dates, site, ...) as YAML front matter")
    _capture_args(ex)
    ex.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="override a pipeline option (see `pith options`); VALUE is JSON")
    ex.add_argument("--quiet", "-q", action="store_true",
                    help="no progress bar (it is drawn only when stderr is a terminal)")
    _batch_args(ex)
    ex.set_defaults(run=cmd_extract, parser=ex)

    be = sub.add_parser(
        "bench", help="score algorithms on benchmark datasets",
        description="Run algorithms over datasets in the shared layout (index.jsonl, "
                    "html/, truth/), score with the shared scorer and print accuracy and "
                    "per-page times. Rendered snapshots are cached.")
    be.add_argument("datasets", nargs="*", type=Path, metavar="DATASET_DIR")
    be.add_argument("--algorithm", "-a", action="append", choices=ALGORITHMS,
                    help="algorithm to score (repeatable; default: all)")
    _capture_args(be)
    be.add_argument("--save-predictions", metavar="DIR", type=Path,
                    help="keep predictions as DIR/<algorithm>/<dataset>/<id>.txt (score.py reads DIR/<algorithm>)")
    be.add_argument("--limit", type=int, metavar="N", help="first N pages of each dataset")
    be.add_argument("--cache", type=Path, metavar="DIR",
                    help="snapshot cache (default: .cache/snapshots in the repo, or "
                         "$PITH_CACHE)")
    be.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="override a pipeline option for every algorithm (see `pith "
                         "options`); VALUE is JSON")
    be.add_argument("--split", choices=("train", "validation"),
                    help="only the pages of this side of CLG's train/validation split "
                         "(by web site; host/pith/pipeline/models/clg-split.json, written by `pith train`)")
    be.add_argument("--anchor", action="append", choices=ANCHORS,
                    help="other extractor to run on the same pages (repeatable; default: all "
                         "installed)")
    be.add_argument("--no-anchors", action="store_true",
                    help="run no other extractor")
    be.add_argument("--by-type", action="store_true",
                    help="also a row per page type (the index's page_type, e.g. wcxb_dev)")
    be.add_argument("--ceiling", action="store_true",
                    help="also score each page's best single element, picked by reading the "
                         "truth (row ceiling: the most any one-element answer can score), "
                         "and the page's blocks the truth labels content (row "
                         "ceiling-blocks: what an answer made of blocks can reach)")
    be.add_argument("--blocks", choices=("on", "off", "both"), default="both",
                    help="score each algorithm with the block stage (row ALG), without it "
                         "(row ALG:element), or both (default)")
    be.add_argument("--scale", action="store_true",
                    help="instead of datasets, time synthetic pages of 1k..200k elements")
    be.add_argument("--crawl", action="store_true",
                    help="instead of datasets, build a WARC crawl from the shared datasets "
                         "and time batch extraction: one core against trafilatura, every "
                         "core, Dask, memory, a pathological record")
    be.add_argument("--records", type=_positive_int, default=10_000, metavar="N",
                    help="--crawl: HTML records in the crawl (default 10,000)")
    be.add_argument("--compare", type=_positive_int, default=None, metavar="N",
                    help="--crawl: records timed against trafilatura (default: every page "
                         "of the shared datasets once)")
    be.add_argument("--page-timeout", type=_positive_float, default=None, metavar="S",
                    help="--crawl: the per-page time limit of the pathological run (default 2)")
    be.add_argument("--metadata", action="store_true",
                    help="instead of content, score the page metadata (title, author, date, "
                         "site) against the labels of wcxb_dev_full and readability (or the "
                         "datasets named), beside trafilatura's and htmldate's; static")
    be.add_argument("--cost", action="store_true",
                    help="with --metadata: instead of scoring, time the host's select with "
                         "and without the metadata and page type (median and p95, wall and "
                         "CPU) on wcxb_dev_full (or the datasets named); static")
    be.add_argument("--json", action="store_true", help="print results as JSON")
    be.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    be.set_defaults(run=cmd_bench, parser=be)

    tr = sub.add_parser(
        "train", help="train CLG's model on the shared datasets' training split",
        description="Split the shared datasets by web site, label nodes from the truth "
                    "texts, learn CLG's logistic regressions (rendered snapshots from the "
                    "bench cache, static ones from the HTML) and write host/pith/pipeline/models/.")
    _training_args(tr, "clg.json, clg-split.json and MODEL.md", "train")

    tb = sub.add_parser(
        "train-blocks", help="train the block model on the shared datasets' training sites",
        description="Label the blocks of the default element on every training page from the "
                    "truth texts, pick the learner and threshold by site-grouped "
                    "cross-validation, and write host/pith/pipeline/models/blocks.json and BLOCKS.md "
                    "(rendered snapshots from the bench cache, static ones from the HTML).")
    _training_args(tb, "blocks.json and BLOCKS.md", "train_blocks")
    tb.add_argument("--corpus", type=Path, metavar="FILE", default=None,
                    help="keep the labelled blocks in FILE and read them from there next "
                         "time (to iterate on the learner without re-collecting)")
    tb.add_argument("--static-only", action="store_true",
                    help="train the static (box-free) half alone, from the HTML (no rendered "
                         "snapshot cache needed); the rendered half is kept from the model "
                         "file it replaces, or is the new static half if that one was")

    tp = sub.add_parser(
        "train-pagetype", help="train the page type model on the labelled datasets' training sites",
        description="Capture every page of wcxb_dev_full and magic_html with a page_type label "
                    "statically, compute its page-level features, fit a multinomial logistic "
                    "regression on the training sites (L2 by site-grouped cross-validation), "
                    "and write host/pith/pipeline/models/pagetype.json and PAGETYPE.md with the "
                    "validation sites' accuracy and confusion matrix.")
    _training_args(tp, "pagetype.json and PAGETYPE.md", "train_pagetype")

    op = sub.add_parser("options", help="list the pipeline options with defaults and reasons")
    op.set_defaults(run=cmd_options)

    ih = sub.add_parser(
        "install-host", help="register the native-messaging host with the browsers",
        description="Write the launcher of the native host (it runs this Python's pith) and "
                    "the host manifest dev.pith.host.json where each browser looks for it "
                    "(Chrome, Chromium, Edge, Brave, Firefox; on Windows also the registry "
                    "keys under HKEY_CURRENT_USER that name it). Safe to run again; "
                    "--uninstall removes what it wrote.")
    _host_args(ih)
    ih.add_argument("--uninstall", action="store_true", help="remove the registration instead")
    ih.set_defaults(run=cmd_install_host, parser=ih)

    dr = sub.add_parser(
        "doctor", help="check the host registration and that the host answers",
        description="Check each browser's host manifest, start the host through its launcher "
                    "and send hello. Prints ✓ or ✗ (with a fix) per check; exit status 1 when "
                    "a check fails.")
    _host_args(dr)
    dr.set_defaults(run=cmd_doctor, parser=dr)
    return parser


def _training_args(p: argparse.ArgumentParser, writes: str, trainer: str) -> None:
    """Datasets, snapshot cache, output folder and --quiet of a training command, run by
    the module pith.measure.<trainer>."""
    p.set_defaults(run=cmd_train, trainer=trainer)
    p.add_argument("datasets", nargs="*", type=Path, metavar="DATASET_DIR")
    p.add_argument("--cache", type=Path, metavar="DIR",
                   help="snapshot cache filled by `pith bench` (default: .cache/snapshots "
                        "in the repo, or $PITH_CACHE)")
    p.add_argument("--out", type=Path, metavar="DIR", default=None,
                   help=f"where {writes} go (default: the package's models/ folder)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _batch_args(p: argparse.ArgumentParser) -> None:
    from .batch.pool import PAGE_MEMORY_BYTES, PAGE_TIME_S
    g = p.add_argument_group("rows (--format jsonl or parquet)")
    g.add_argument("--jobs", "-j", type=_positive_int, default=None, metavar="N",
                   help="worker processes (default: every core)")
    g.add_argument("--unordered", action="store_true",
                   help="write rows as pages finish instead of in input order")
    g.add_argument("--also", action="append", choices=("markdown", "html"),
                   help="add the content as Markdown or HTML to each row (repeatable)")
    g.add_argument("--page-timeout", type=_positive_float, default=PAGE_TIME_S, metavar="S",
                   help=f"stop a page after S seconds (default {PAGE_TIME_S:g}); it is "
                        "counted as timed out")
    g.add_argument("--page-memory", type=float, default=PAGE_MEMORY_BYTES / 2**20,
                   metavar="MB", help=f"memory one page may use (default "
                                      f"{PAGE_MEMORY_BYTES / 2**20:g}; 0: no limit)")
    g.add_argument("--summary", type=Path, metavar="FILE",
                   help="also write the final counts as JSON to FILE")
    g.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: a process pool here (default); dask: a Dask cluster, "
                        "one task per 4 MB of a gzipped WARC file or per 128 other files")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler to use (e.g. tcp://10.0.0.1:8786); without it "
                        "--engine dask starts a local cluster of --jobs workers")


def _positive_int(value: str) -> int:
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return n


def _positive_float(value: str) -> float:
    x = float(value)
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {value}")
    return x


def _host_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--browser", choices=("chrome", "chromium", "edge", "brave", "firefox", "all"),
                   help="which browser (default: all; chromium with --user-data-dir)")
    p.add_argument("--user-data-dir", type=Path, metavar="DIR",
                   help="a Chrome/Chromium/Edge/Brave profile folder started with "
                        "--user-data-dir=DIR: the host manifest goes to DIR/NativeMessagingHosts "
                        "(Linux and macOS)")


def _capture_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--static", action="store_true",
                   help="no browser: build the snapshot with an HTML5 parser (no layout boxes)")
    p.add_argument("--no-js", action="store_true", help="render with JavaScript disabled")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                   help=f"seconds to load one page (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--encoding", metavar="CHARSET",
                   help="decode local files with CHARSET instead of the declared one")
    p.add_argument("--encoding-errors", choices=("strict", "replace"), default=None,
                   help="'replace' decodes bytes invalid in the charset as U+FFFD "
                        "instead of failing (default: strict for pages, replace for rows)")


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise BadOptions(f"--option {pair!r} must look like KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def extract_one(capturer: Capturer, target: str, opts: Options, fmt: str,
                comments: bool = False, front_matter: bool = False) -> tuple[str, dict]:
    """Capture, select and render one input; returns (output text, JSON record).
    `comments`: text and markdown end with the comment thread (with_comments);
    `front_matter`: they begin with the metadata as YAML front matter."""
    captured = capturer.capture(target)
    sel = select(captured.for_select, opts)
    t0 = time.perf_counter()
    text = sel.output("text")
    body = sel.output(fmt) if fmt in ("markdown", "html") else text
    if comments and fmt in ("text", "markdown"):
        body = with_comments(body, sel.comments_text(fmt), fmt)
    render_ms = (time.perf_counter() - t0) * 1e3
    record = {"input": target, **sel.to_wire(), "text": text}
    if sel.result.kept is not None:   # the kept blocks as portable paths (SNAPSHOT.md)
        record["block_paths"] = sel.snap.paths(sel.result.kept.tolist())
    record["timings"] = {"capture_ms": round(captured.capture_ms, 3),
                         **record["timings"], "render_ms": round(render_ms, 3)}
    if fmt == "json":
        body = json.dumps(record, ensure_ascii=False)
    elif front_matter and sel.metadata is not None:
        body = frontmatter.front_matter(sel.metadata.to_wire()) + "\n" + body
    return body, record


def with_comments(body: str, comments: str | None, fmt: str) -> str:
    """`body` followed by the comment thread under a 'Comments' heading (a Markdown
    heading in markdown); `body` as it is when the page has none."""
    if not comments or not comments.strip():
        return body
    heading = "## Comments" if fmt == "markdown" else "Comments"
    return f"{body.rstrip()}\n\n{heading}\n\n{comments.strip()}\n"


def cmd_extract(args: argparse.Namespace) -> int:
    from tqdm import tqdm
    overrides = {"algorithm": args.algorithm, **parse_overrides(args.option)}
    if args.blocks is not None:
        overrides["blocks"] = args.blocks == "on"
    opts = Options.from_overrides(overrides)
    if args.format is None:
        args.format = "jsonl" if any(is_warc(t) for t in args.inputs) else "text"
    if args.front_matter and args.format not in ("text", "markdown"):
        raise UsageError("--front-matter is for text and markdown output (json and the rows "
                         "carry the metadata as fields)")
    if args.format in TABLE_FORMATS:
        from .batch import command
        return command.run(args, opts, stderr_is_terminal())
    row_only = [flag for flag, used in (
        ("--jobs", args.jobs is not None), ("--unordered", args.unordered),
        ("--also", bool(args.also)), ("--summary", args.summary is not None),
        ("--engine", args.engine != "local"), ("--scheduler", args.scheduler is not None))
        if used]
    if row_only:
        raise UsageError(f"{row_only[0]} is for rows: add --format jsonl (or parquet --out FILE)")

    args.inputs = expand_inputs(args.inputs)
    args.encoding_errors = args.encoding_errors or "strict"
    many = len(args.inputs) > 1
    if many and args.out is None and args.format != "json":
        raise UsageError("several inputs need --out DIR, or --format json (one JSON object "
                         "per line on stdout)")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    used: set[str] = set()
    bar = tqdm(args.inputs, desc="extract", unit="page", file=sys.stderr,
               disable=args.quiet or not many or not stderr_is_terminal(),
               dynamic_ncols=True)
    # a static page gets the single-page limit a rendered one has, --timeout (rows have
    # --page-timeout); a rendered page's is the browser driver's own, where a timer
    # signal must not cut in (NOTES.md, 'Why frames, the cache and static parses are
    # bounded by size')
    page_limit_ms = round(args.timeout * 1000) if args.static else None
    with Capturer(static_mode=args.static, js=not args.no_js, timeout_s=args.timeout,
                  encoding=args.encoding, encoding_errors=args.encoding_errors,
                  max_nodes=opts.max_nodes) as capturer:
        for target in bar:
            try:
                with deadline.within(page_limit_ms, "the page", "--timeout", Timeout):
                    body, _record = extract_one(capturer, target, opts, args.format,
                                                args.comments, args.front_matter)
            except PithError as exc:
                failed += 1
                bar.write(failure_line(target, exc), file=sys.stderr)
                continue
            if args.out is None:
                sys.stdout.write(body if body.endswith("\n") else body + "\n")
                sys.stdout.flush()
                continue
            stem = output_stem(target)
            name, k = stem, 2
            while name in used:
                name, k = f"{stem}-{k}", k + 1
            if name != stem:
                bar.write(f"pith: {target}: {stem}{SUFFIX[args.format]} already written by an "
                          f"earlier input; writing {name}{SUFFIX[args.format]}", file=sys.stderr)
            used.add(name)
            (args.out / f"{name}{SUFFIX[args.format]}").write_text(
                body if body.endswith("\n") else body + "\n", encoding="utf-8")
    if failed and many:
        print(f"pith: {failed} of {len(args.inputs)} inputs failed", file=sys.stderr)
    return EXIT_FAILED if failed else EXIT_OK


def expand_inputs(inputs: list[str]) -> list[str]:
    """Folders and `-` (a list on stdin) as the pages they name, for the one-output-per-page
    formats; a WARC file holds many pages, so it needs rows (--format jsonl)."""
    from .batch import records
    out: list[str] = []
    for given in inputs:
        found = list(records.targets([given], records.Tally()))
        warcs = [t for t in found if is_warc(t)]
        if warcs:
            raise UsageError(f"{warcs[0]} is a WARC file: its pages are rows, use --format "
                             "jsonl (or parquet --out FILE)")
        path = local_path(given) if given != "-" else None
        if not found and path is not None and path.is_dir():
            raise InputNotFound(f"{given} is a folder with no HTML file in it")
        out.extend(found)
    return out


def stderr_is_terminal() -> bool:
    """Whether progress bars may draw: on a terminal only (in a log or a pipe, a bar is
    a stream of carriage-return lines)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):     # replaced or closed stream
        return False


def failure_line(target: str, exc: PithError) -> str:
    """The one stderr line of a failed input, naming the input once: the message of an
    input error usually starts with the input already (its path or URL)."""
    path = local_path(target)
    named = target in exc.message or (path is not None and str(path) in exc.message)
    return f"pith: {exc}" if named else f"pith: {target}: {exc}"


def cmd_bench(args: argparse.Namespace) -> int:
    from .measure import bench
    args.overrides = parse_overrides(args.option)
    Options.from_overrides(args.overrides)   # a bad option is a usage error, before any work
    return bench.main(args)


def cmd_train(args: argparse.Namespace) -> int:
    """`pith train`, `train-blocks` and `train-pagetype`: each its module's main, writing
    to the package's models/ folder unless --out says otherwise."""
    import importlib
    from .measure.datasets import MODELS_DIR
    trainer = importlib.import_module(f".measure.{args.trainer}", __package__)
    if args.out is None:
        args.out = MODELS_DIR
    return trainer.main(args)


def cmd_options(args: argparse.Namespace) -> int:
    for item in Options().describe():
        value = item["value"]
        if isinstance(value, list):
            value = ",".join(value)
        print(f"{item['name']} = {value}\n    {item['why']}")
    return EXIT_OK


def cmd_install_host(args: argparse.Namespace) -> int:
    from .native import install
    try:
        browsers = install.resolve_browsers(args.browser, args.user_data_dir)
        if args.uninstall:
            removed = install.uninstall(browsers, args.user_data_dir)
            for path in removed:
                print(f"removed {path}")
            if not removed:
                print("nothing to remove")
            return EXIT_OK
        for item in install.install(browsers, args.user_data_dir):
            state = "wrote" if item.changed else "unchanged"
            print(f"{item.what}: {state} {item.path}")
    except install.InstallError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        print(f"pith install-host: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print("Reload the extension (or restart the browser) if it was running; "
          "`pith doctor` checks the result.")
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    from .native import install
    try:
        browsers = install.resolve_browsers(args.browser, args.user_data_dir)
        checks = install.doctor(browsers, args.user_data_dir)
    except install.InstallError as exc:
        raise UsageError(str(exc)) from None
    for check in checks:
        print(check.line())
    return EXIT_FAILED if any(c.ok is False for c in checks) else EXIT_OK


class UsageError(Exception):
    """A command line that cannot work as given (exit status 2)."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, BadOptions) as exc:
        getattr(args, "parser", parser).error(str(exc))   # the subcommand's usage line
    except PithError as exc:
        print(f"pith: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("pith: interrupted", file=sys.stderr)
        return 130
    return EXIT_OK
