"""The host package's layout: which subpackage may import which, no cycle between them and
no cycle inside one.

Every module under host/pith is read with `ast` (imports inside functions count; relative
imports are resolved against the module's package) and each import becomes an edge from the
module's part to the imported module's part. The parts and what each may import:

  root     pith/__init__.py and pith/errors.py: importable by all, import nothing of pith
  pipeline -> root, pipeline
  native   -> root, pipeline, native
  pages    -> root, pipeline, native, pages   (extension needs install's paths)
  batch    -> root, pipeline, pages, batch     (crawl-scale extraction: pith.batch)
  measure  -> root, pipeline, native, pages, batch, measure
  entry    cli.py, demo.py, __main__.py: anything

Inside a subpackage no module imports one that imports it back, however far round (the
block stage once grew a circle of eight pipeline modules: blocks -> render -> select ->
keep -> blocks). In the pipeline the data flows one way: the shared tag vocabularies
(pipeline/tags.py) import nothing of the pipeline; the methods (algorithms/) never import
the block stage (blocks/) or select; the block stage never imports render, reader or
select; render and reader read a snapshot and a Choice, never select or the block stage.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pith

PACKAGE_DIR = Path(pith.__file__).resolve().parent
ROOT_MODULES = ("__init__", "errors")
ENTRY_MODULES = ("cli", "demo", "__main__")
MAY_IMPORT = {
    "root": {"root"},
    "pipeline": {"root", "pipeline"},
    "native": {"root", "pipeline", "native"},
    "pages": {"root", "pipeline", "native", "pages"},
    "batch": {"root", "pipeline", "pages", "batch"},
    "measure": {"root", "pipeline", "native", "pages", "batch", "measure"},
    "entry": {"root", "pipeline", "native", "pages", "batch", "measure", "entry"},
}
SUBPACKAGES = ("pipeline", "native", "pages", "batch", "measure")


# --------------------------------------------------------------------------- the reader
def modules_of(package_dir: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of the package at `package_dir`: dotted name -> (file, is a package)."""
    name = package_dir.name
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [name, *path.relative_to(package_dir).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports_of(module: str, path: Path, is_package: bool, known: set[str]) -> list[tuple[str, int]]:
    """(imported module, line) for every import in the file, at any depth.

    `from X import y` names X.y when that is a module of the package, else X.
    """
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if sub in known else target, node.lineno))
    return found


def part_of(module: str, top: str) -> str | None:
    """The part a module of the package belongs to; None outside the package, "?" when the
    module sits in no part the rules know."""
    parts = module.split(".")
    if parts[0] != top:
        return None
    if len(parts) == 1 or parts[1] in ROOT_MODULES:
        return "root"
    if parts[1] in ENTRY_MODULES:
        return "entry"
    if parts[1] in SUBPACKAGES:
        return parts[1]
    return "?"


def edges_of(package_dir: Path) -> list[tuple[str, str, str, str, int]]:
    """(importing module, its part, imported module, its part, line) for every import of
    the package's own modules (the real package's read once per session)."""
    if package_dir == PACKAGE_DIR:
        return _package_edges()
    return _edges_of(package_dir)


@functools.lru_cache(maxsize=None)
def _package_edges() -> list[tuple[str, str, str, str, int]]:
    return _edges_of(PACKAGE_DIR)


def _edges_of(package_dir: Path) -> list[tuple[str, str, str, str, int]]:
    top = package_dir.name
    mods = modules_of(package_dir)
    found = []
    for module, (path, is_package) in mods.items():
        for target, line in imports_of(module, path, is_package, set(mods)):
            target_part = part_of(target, top)
            if target_part is not None:
                found.append((module, part_of(module, top), target, target_part, line))
    return found


def violations(package_dir: Path) -> list[str]:
    """One message per import the rules forbid, naming the module, the import and the rule."""
    messages = []
    for module, part, target, target_part, line in edges_of(package_dir):
        if part == "?" or target_part == "?":
            odd = module if part == "?" else target
            messages.append(f"{module} (line {line}) imports {target}: {odd} is in no "
                            f"part of the layout ({', '.join(MAY_IMPORT)})")
        elif target_part not in MAY_IMPORT[part]:
            messages.append(f"{module} (line {line}) imports {target}: {part} may import only "
                            f"{', '.join(sorted(MAY_IMPORT[part]))}, not {target_part}")
    return messages


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` (node -> nodes it points at) as [a, b, ..., a], else None."""
    state: dict[str, int] = {}          # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def part_graph(package_dir: Path) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for _, part, _, target_part, _ in edges_of(package_dir):
        if part != target_part:
            graph.setdefault(part, set()).add(target_part)
    return graph


def module_graph(package_dir: Path) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, _, target, _, _ in edges_of(package_dir):
        if module != target:
            graph.setdefault(module, set()).add(target)
    return graph


def cycles_inside_subpackages(package_dir: Path) -> dict[str, list[str]]:
    """Per subpackage with an import cycle among its own modules (at any depth: its
    sub-subpackages' modules count), one such cycle."""
    graph = module_graph(package_dir)
    found = {}
    for name in SUBPACKAGES:
        prefix = f"{package_dir.name}.{name}."
        inner = {m: {t for t in ts if t.startswith(prefix)}
                 for m, ts in graph.items() if m.startswith(prefix)}
        if cycle := find_cycle(inner):
            found[name] = cycle
    return found


# Imports the pipeline's one-way flow forbids: (importing modules, imported modules), each a
# dotted prefix under pith.pipeline ("blocks." is every module of the block stage).
PIPELINE_FORBIDDEN = (
    (("tags",), ("",)),
    (("algorithms.",), ("blocks.", "select", "reader")),
    (("blocks.",), ("render", "reader", "select")),
    (("render", "reader"), ("select", "blocks.")),
)


def _under(module: str, prefix: str, top: str) -> bool:
    name = module[len(f"{top}.pipeline."):] if module.startswith(f"{top}.pipeline.") else None
    if name is None:
        return False
    return name.startswith(prefix) if prefix.endswith(".") or not prefix else name == prefix


def flow_violations(package_dir: Path) -> list[str]:
    """One message per pipeline import against the one-way flow (PIPELINE_FORBIDDEN)."""
    top = package_dir.name
    messages = []
    for module, _, target, _, line in edges_of(package_dir):
        for sources, targets in PIPELINE_FORBIDDEN:
            if any(_under(module, s, top) for s in sources) and \
                    any(_under(target, t, top) for t in targets) and module != target:
                messages.append(f"{module} (line {line}) imports {target}")
    return messages


# --------------------------------------------------------------------------- the package
def test_every_import_of_the_host_package_follows_the_layout():
    assert edges_of(PACKAGE_DIR), "no import found: the reader is broken"
    assert violations(PACKAGE_DIR) == []


def test_no_cycle_between_the_subpackages():
    graph = part_graph(PACKAGE_DIR)
    assert graph["measure"] >= {"pipeline", "pages"}     # the graph is really read
    assert find_cycle(graph) is None, find_cycle(graph)


def test_no_cycle_inside_a_subpackage():
    graph = module_graph(PACKAGE_DIR)
    assert "pith.pipeline.blocks.segment" in graph["pith.pipeline.blocks.keep"]  # really read
    assert cycles_inside_subpackages(PACKAGE_DIR) == {}


def test_the_pipeline_data_flows_one_way():
    """Tags at the bottom, methods over them, the block stage over the methods, render and
    reader over a snapshot and a Choice, select over all of them."""
    graph = module_graph(PACKAGE_DIR)
    assert "pith.pipeline.tags" in graph["pith.pipeline.render"]     # the graph is really read
    assert "pith.pipeline.blocks.keep" in graph["pith.pipeline.select"]
    assert flow_violations(PACKAGE_DIR) == []


def test_bench_and_the_trainers_share_datasets_instead_of_importing_each_other():
    graph = module_graph(PACKAGE_DIR)
    measure = {m: {t for t in ts if t.startswith("pith.measure.")}
               for m, ts in graph.items() if m.startswith("pith.measure.")}
    assert find_cycle(measure) is None, find_cycle(measure)
    for user in ("pith.measure.bench", "pith.measure.train", "pith.measure.train_blocks"):
        assert "pith.measure.datasets" in measure[user], user


def test_the_package_has_exactly_the_planned_subpackages():
    found = sorted(p.name for p in PACKAGE_DIR.iterdir()
                   if p.is_dir() and (p / "__init__.py").is_file())
    assert found == sorted(SUBPACKAGES)
    loose = sorted(p.stem for p in PACKAGE_DIR.glob("*.py"))
    assert loose == sorted(ROOT_MODULES + ENTRY_MODULES)


def test_each_subpackage_says_its_job_and_what_it_may_import():
    for name in SUBPACKAGES:
        init = PACKAGE_DIR / name / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"{init} has no docstring worth the name"
        assert "may import" in doc, f"{init}'s docstring does not say what it may import"


def test_every_module_compiles_without_a_warning():
    """No module's source holds an invalid escape (a docstring's `\\s` in a plain string is
    a DeprecationWarning at every first import today and an error in a later Python)."""
    import warnings
    for path, _ in modules_of(PACKAGE_DIR).values():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")


def test_importing_the_pipeline_stays_cheap():
    """The subpackages' __init__ files import nothing when imported: importing pith.pipeline
    (as the native host does for hello) must not pull the pipeline's modules in. pith.batch
    is an API, so its __init__ has functions, which import what they need when called."""
    for name in SUBPACKAGES:
        tree = ast.parse((PACKAGE_DIR / name / "__init__.py").read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
               and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
        assert not top, name
        if name != "batch":
            assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                        and getattr(n, "module", "") != "__future__"], name


# --------------------------------------------------------------------------- the checker
def fake_package(root: Path, files: dict[str, str]) -> Path:
    """A tiny package named pith under `root` with the given files (path -> source)."""
    package = root / "pith"
    for rel, source in {"__init__.py": "", "errors.py": "", **files}.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return package


def test_a_forbidden_edge_is_named_with_module_import_and_rule(tmp_path):
    package = fake_package(tmp_path, {
        "pipeline/__init__.py": "",
        "pipeline/select.py": "from .. import errors\n\ndef f():\n    from ..pages import inputs\n",
        "pages/__init__.py": "",
        "pages/inputs.py": "from ..pipeline import select\n",
    })
    (message,) = violations(package)
    assert message.startswith("pith.pipeline.select (line 4) imports pith.pages.inputs")
    assert "pipeline may import only pipeline, root, not pages" in message


def test_relative_imports_are_resolved_against_the_package(tmp_path):
    package = fake_package(tmp_path, {
        "pipeline/__init__.py": "",
        "pipeline/algorithms/__init__.py": "from . import lqf\n",
        "pipeline/algorithms/lqf.py": "from ...errors import X\nfrom ..features import F\n"
                                      "from ...native.host import main\n",
        "pipeline/features.py": "",
        "native/__init__.py": "",
        "native/host.py": "",
    })
    targets = {(m, t) for m, _, t, _, _ in edges_of(package)}
    assert ("pith.pipeline.algorithms", "pith.pipeline.algorithms.lqf") in targets
    assert ("pith.pipeline.algorithms.lqf", "pith.errors") in targets
    assert ("pith.pipeline.algorithms.lqf", "pith.pipeline.features") in targets
    (message,) = violations(package)
    assert "pith.pipeline.algorithms.lqf (line 3) imports pith.native.host" in message


def test_absolute_imports_and_a_module_outside_the_plan_are_caught(tmp_path):
    package = fake_package(tmp_path, {
        "native/__init__.py": "",
        "native/host.py": "import pith.measure.bench\nimport json\n",
        "measure/__init__.py": "",
        "measure/bench.py": "",
        "stray.py": "from pith import errors\n",
    })
    messages = violations(package)
    assert any(m.startswith("pith.native.host (line 1) imports pith.measure.bench") and
               "not measure" in m for m in messages), messages
    assert any("pith.stray is in no part of the layout" in m for m in messages), messages
    assert not any("json" in m for m in messages)


def test_a_cycle_between_subpackages_is_found(tmp_path):
    package = fake_package(tmp_path, {
        "pipeline/__init__.py": "",
        "pipeline/select.py": "def f():\n    from ..native import host\n",
        "native/__init__.py": "",
        "native/host.py": "from ..pipeline import select\n",
    })
    cycle = find_cycle(part_graph(package))
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"pipeline", "native"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_a_cycle_inside_a_subpackage_is_found_at_any_depth(tmp_path):
    """The circle the block stage once made, in miniature: blocks imports render, render
    imports select only for a type, select imports keep inside a function, keep imports
    blocks. Each kind of import counts."""
    package = fake_package(tmp_path, {
        "pipeline/__init__.py": "",
        "pipeline/blocks.py": "from .render import WIDGET_TAGS\n",
        "pipeline/render.py": "from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from .select import Selection\n",
        "pipeline/select.py": "def f():\n    from .stage import keep\n",
        "pipeline/stage/__init__.py": "",
        "pipeline/stage/keep.py": "from .. import blocks\n",
        "native/__init__.py": "",
        "native/host.py": "from ..pipeline import select\n",
    })
    assert violations(package) == []             # every edge is allowed between parts...
    cycles = cycles_inside_subpackages(package)  # ...and still a circle inside one
    assert list(cycles) == ["pipeline"]
    cycle = cycles["pipeline"]
    assert cycle[0] == cycle[-1] and set(cycle) == {
        "pith.pipeline.blocks", "pith.pipeline.render", "pith.pipeline.select",
        "pith.pipeline.stage.keep"}
    # the same modules with the type-only import gone: no circle
    (package / "pipeline" / "render.py").write_text("from .tags import X\n", encoding="utf-8")
    (package / "pipeline" / "tags.py").write_text("", encoding="utf-8")
    assert cycles_inside_subpackages(package) == {}


def test_an_import_against_the_pipeline_flow_is_named(tmp_path):
    package = fake_package(tmp_path, {
        "pipeline/__init__.py": "",
        "pipeline/tags.py": "from .snapshot import Snapshot\n",
        "pipeline/snapshot.py": "",
        "pipeline/render.py": "from .tags import BLOCK_TAGS\nfrom .blocks import segment\n",
        "pipeline/reader.py": "from .algorithms.base import Choice\n",
        "pipeline/select.py": "from . import render, reader\nfrom .blocks import keep\n",
        "pipeline/algorithms/__init__.py": "",
        "pipeline/algorithms/base.py": "",
        "pipeline/algorithms/sst.py": "from ..render import to_text\nfrom ..blocks import keep\n",
        "pipeline/blocks/__init__.py": "",
        "pipeline/blocks/segment.py": "from ..tags import BLOCK_LEVEL\n",
        "pipeline/blocks/keep.py": "from . import segment\nfrom ..algorithms import sst\n"
                                   "def f():\n    from ..select import Selection\n",
    })
    assert sorted(flow_violations(package)) == [
        "pith.pipeline.algorithms.sst (line 2) imports pith.pipeline.blocks.keep",
        "pith.pipeline.blocks.keep (line 4) imports pith.pipeline.select",
        "pith.pipeline.render (line 2) imports pith.pipeline.blocks.segment",
        "pith.pipeline.tags (line 1) imports pith.pipeline.snapshot",
    ]


# --------------------------------------------------------------------------- the notes
NOTES = PACKAGE_DIR.parent / "NOTES.md"


def notes_pointers(source: str) -> list[str]:
    """The section titles a source names as (NOTES.md, 'Why …'), across line breaks and
    comment markers."""
    flat = re.sub(r"\s*\n\s*(?:#\s*)?", " ", source)
    flat = re.sub(r'"\s+"', "", flat)       # adjacent string literals, as Python joins them
    return re.findall(r"NOTES\.md, '(Why .+?)'(?=[).;]|$)", flat)


def notes_sections() -> list[str]:
    """The titles of the notes' decision sections (`## Why …`), in order."""
    return re.findall(r"^## (Why .+)$", NOTES.read_text(encoding="utf-8"), flags=re.M)


def test_every_pointer_to_the_notes_names_one_of_its_sections():
    headings = set(notes_sections())
    pointers = {(path.relative_to(PACKAGE_DIR).as_posix(), title)
                for path in PACKAGE_DIR.rglob("*.py")
                for title in notes_pointers(path.read_text(encoding="utf-8"))}
    assert len(pointers) >= 15, pointers                # the reader finds them
    assert [p for p in pointers if p[1] not in headings] == []
    assert headings - {title for _, title in pointers} == set(), "a section no code points to"
    from pith.pipeline.options import Options
    for item in Options().describe():                   # the reasons `pith options` prints
        for title in notes_pointers(item["why"]):
            assert title in headings, (item["name"], title)


def test_the_notes_contents_lists_every_section_once():
    """The contents at the top of the notes (one line a section, under its subject) and
    the sections below agree: none missing, none twice, none that is not there."""
    text = NOTES.read_text(encoding="utf-8")
    contents = text.split("\n## Contents, by subject\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^  - '(Why .+)'$", contents, flags=re.M)
    sections = notes_sections()
    assert len(sections) == len(set(sections)), "two sections of one title"
    assert sorted(listed) == sorted(sections)



BENCHMARKS = PACKAGE_DIR.parent / "BENCHMARKS.md"


def test_the_benchmarks_contents_lists_every_section_once():
    """The benchmarks page's contents (one line a section, under its subject) and its
    sections agree, so the newest figures and each branch's can be found from the top."""
    text = BENCHMARKS.read_text(encoding="utf-8")
    contents = text.split("\n## Contents, by subject\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^  - '(.+)'$", contents, flags=re.M)
    sections = [s for s in re.findall(r"^## (.+)$", text, flags=re.M)
                if s != "Contents, by subject"]
    assert len(sections) == len(set(sections)), "two sections of one title"
    assert sorted(listed) == sorted(sections)

def test_the_pointer_reader_reads_wrapped_pointers():
    source = ('x = _opt(1, "a reason (NOTES.md, \'Why the "\n        "thing is 1\')")\n'
              "# seed (NOTES.md, 'Why the\n# trees are shallow').\n")
    assert notes_pointers(source) == ["Why the thing is 1", "Why the trees are shallow"]


# --------------------------------------------------------------------------- the readme
README = PACKAGE_DIR.parent.parent / "README.md"
# The README is for users: what Pith is, how to set it up and use it, where the rest
# lives; measured histories go to host/NOTES.md and figures to host/BENCHMARKS.md.
README_MAX_LINES = 250


def test_the_readme_stays_a_users_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    assert "make run" in "\n".join(lines[:20]) and "make test" in "\n".join(lines[:20])
