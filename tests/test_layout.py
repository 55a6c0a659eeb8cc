"""The package's folders show its architecture (docs/DESIGN.md, "Layout").

Each folder of ``lecturekit/`` imports only the folders below it in :data:`MAY_IMPORT` (checked
on every import statement, also those inside functions, and on ``import_module("...")`` with a
literal name), no module imports itself back through others (no cycle), every folder says in
its docstring what it holds, and the design document's map names every folder. Modules that
moved keep working under their old names (``lecturekit.MOVED``), while nothing in the course
itself still uses an old name.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lecturekit import MOVED

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "lecturekit"

#: the modules at the top of the package that every folder may use
FOUNDATION = {"errors", "validate", "i18n", "language"}

#: folder -> the folders its modules may import (besides its own); bottom to top
MAY_IMPORT = {
    "foundation": set(),
    "core": {"foundation"},
    "asm": {"foundation"},
    "target": {"foundation", "core", "asm"},
    "loops": {"foundation", "core", "asm", "target"},
    "regions": {"foundation", "core", "asm", "target", "loops"},
    "llm": {"foundation", "core"},
    "tensor": {"foundation", "core", "llm"},
    "viz": {"foundation", "core", "asm", "target", "loops", "regions", "llm", "tensor"},
    "widgets": {"foundation", "core", "asm", "target", "loops", "regions", "llm", "tensor", "viz"},
    "grading": {"foundation"},
    "cli": {
        "foundation",
        "core",
        "asm",
        "target",
        "loops",
        "regions",
        "llm",
        "tensor",
        "viz",
        "grading",
        "package",
    },
    "package": {"foundation", "asm"},  # lecturekit/__init__.py: the errors, parse on first use
    "__main__": {"cli"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def folder(name: str) -> str:
    parts = name.split(".")
    if len(parts) == 1:
        return "package"
    if len(parts) == 2 and parts[1] in FOUNDATION:
        return "foundation"
    return parts[1]


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module) for every lecturekit module ``name`` imports, wherever the statement is."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = []

    def resolve(level: int, target: str | None) -> str:
        base = package.split(".")
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([target] if target else []))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            target = resolve(node.level, node.module) if node.level else node.module
            if not target or not target.startswith("lecturekit"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((node.lineno, sub if sub in known or sub in MOVED else target))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("lecturekit")]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            text = node.args[0].value
            level = len(text) - len(text.lstrip("."))
            found.append((node.lineno, resolve(level, text[level:]) if level else text))
    return found


def import_graph() -> dict[str, list[tuple[int, str]]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_folder_is_in_the_map():
    folders = {folder(name) for name in modules()}
    assert folders == set(MAY_IMPORT), folders ^ set(MAY_IMPORT)


def test_every_import_names_a_module_that_exists():
    """An import inside a function runs only when called: a wrong relative path there would
    surface in front of a student, not at ``import lecturekit``."""
    known = modules()
    wrong = [
        f"{name} (line {line}) imports {target}: no such module"
        for name, found in import_graph().items()
        for line, target in found
        if target not in known and target not in MOVED
    ]
    assert not wrong, "\n".join(wrong)


#: names that moved to a folder above their module and are still found at the old place (a
#: module ``__getattr__`` importing them on first use, so nothing above is imported before):
#: module -> the module above it that it may import for them
FORWARDED = {
    "lecturekit.target.real": {"lecturekit.viz.real"},  # draw_comparison
}


def test_no_module_imports_a_folder_above_it():
    wrong = []
    for name, found in import_graph().items():
        here = folder(name)
        for line, target in found:
            there = folder(target)
            if target in FORWARDED.get(name, ()):
                continue
            if there != here and there not in MAY_IMPORT[here]:
                wrong.append(f"{name} (line {line}) imports {target}: {here} may not use {there}")
    assert not wrong, "\n".join(wrong)


def test_the_package_uses_no_old_module_name():
    wrong = [
        f"{name} (line {line}) imports {target}, now {MOVED[target]}"
        for name, found in import_graph().items()
        for line, target in found
        if target in MOVED
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    graph = {name: {t for _, t in found} for name, found in import_graph().items()}
    graph = {
        name: {t for t in targets if t in graph and t != name} for name, targets in graph.items()
    }
    # Tarjan's strongly connected components: any component of two or more modules is a cycle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_the_import_check_sees_a_wrong_import(tmp_path):
    """The checks above are not vacuous: a module of the core that reaches up to the machines,
    and two modules that import each other, are found."""
    core = tmp_path / "lecturekit" / "core"
    core.mkdir(parents=True)
    (core / "a.py").write_text("def f():\n    from ..target.deps import analyze\n")
    (core / "b.py").write_text("from . import c\n")
    (core / "c.py").write_text("from .b import x\n")
    known = {f"lecturekit.core.{m}": core / f"{m}.py" for m in "abc"}
    found = {name: imports(name, path, known) for name, path in known.items()}
    assert found["lecturekit.core.a"] == [(2, "lecturekit.target.deps")]
    assert "target" not in MAY_IMPORT["core"]
    assert found["lecturekit.core.b"] == [(1, "lecturekit.core.c")]
    assert found["lecturekit.core.c"] == [(1, "lecturekit.core.b")]


def test_every_folder_is_a_package():
    """A folder without ``__init__.py`` imports as a namespace package: no docstring, and
    setuptools' package discovery would leave it out of a wheel."""
    folders = {p.parent for p in PACKAGE.rglob("*.py")} - {p for p in PACKAGE.rglob("__pycache__")}
    missing = [
        str(f.relative_to(ROOT)) for f in sorted(folders) if not (f / "__init__.py").is_file()
    ]
    assert not missing, missing


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("__init__.py")), ids=str)
def test_every_folder_says_what_it_holds(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8, (
        f"{path.relative_to(ROOT)}: no docstring saying what it holds"
    )


def test_the_design_map_names_every_folder():
    for doc in ("docs/DESIGN.md", "CONTRIBUTING.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        for name in sorted({folder(n) for n in modules()} - {"foundation", "package", "__main__"}):
            assert f"{name}/" in text, f"{doc} does not name lecturekit/{name}/"


# -- the old names -----------------------------------------------------------------------------
BEFORE = json.loads((ROOT / "tests" / "data" / "names_before_layout.json").read_text())


@pytest.mark.parametrize("old", sorted(BEFORE))
def test_old_module_names_still_import(old):
    """A notebook saved before the move (``from lecturekit.deps import analyze``) still runs:
    the old name is the module at its new place, with every public name it had."""
    module = importlib.import_module(old)
    if old in MOVED:
        assert module is importlib.import_module(MOVED[old])
        assert module.__spec__.name == MOVED[old]  # the module keeps its own identity
    missing = [n for n in BEFORE[old] if not hasattr(module, n)]
    assert not missing, f"{old} lost {missing}"


#: names that left their module for a folder below it (so that the module above need not be
#: imported by the one below): old module -> name -> where it is now
RELOCATED = {
    "lecturekit.core.list_sched": {
        "fill_delay_slot": "lecturekit.target.deps",
        "DelaySlotFill": "lecturekit.target.deps",
        "DELAY_SLOT_CANDIDATES": "lecturekit.target.deps",
    },
}


@pytest.mark.parametrize(
    "old, name, new", [(o, n, w) for o, names in RELOCATED.items() for n, w in names.items()]
)
def test_relocated_names_are_at_their_new_place(old, name, new):
    assert not hasattr(importlib.import_module(old), name)
    assert hasattr(importlib.import_module(new), name)


def test_a_forwarded_name_is_the_one_at_its_new_place():
    """``real.draw_comparison`` (a chapter saved before the move) is the drawing function of
    :mod:`lecturekit.viz.real`, imported only when asked for."""
    code = (
        "import sys\n"
        "import lecturekit.target.real as real\n"
        "assert 'lecturekit.viz.real' not in sys.modules\n"
        "from lecturekit.target.real import draw_comparison\n"
        "import lecturekit.viz.real as moved\n"
        "assert draw_comparison is real.draw_comparison is moved.draw_comparison\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_old_names_in_a_fresh_interpreter():
    """Every spelling of an import by an old name works where nothing was imported before."""
    code = (
        "from lecturekit.isa import parse\n"
        "import lecturekit.deps\n"
        "from lecturekit import pipeline, machine\n"
        "from lecturekit.check import Grader\n"
        "import lecturekit.llm.pp_schedules as pp\n"
        "import lecturekit.target.deps as new\n"
        "assert lecturekit.deps is new and pipeline.simulate and machine.preset\n"
        "print(lecturekit.deps.analyze(parse('add $t0, $t1, $t2')).program[0].opcode)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "add"


OLD = re.compile(
    r"(?<![\w.])(" + "|".join(re.escape(m) for m in sorted(MOVED, key=len, reverse=True)) + r")\b"
    r"|from lecturekit import [\w, ]*\b("
    + "|".join(m.rsplit(".", 1)[1] for m in MOVED if m.count(".") == 1)
    + r")\b"
)


def course_files() -> list[Path]:
    """Everything in the course a person reads or runs (what git tracks: a student's own copy
    of a notebook is not the course's), except the old names' own table (in
    ``lecturekit/__init__.py``) and its test, and student submissions (they were written before
    the move, which is the point)."""
    listed = subprocess.run(
        ["git", "ls-files"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    skip = {"lecturekit/__init__.py", "tests/test_layout.py"}
    return [
        ROOT / f
        for f in listed
        if f.endswith((".py", ".ipynb", ".md", ".yaml", ".toml", ".cfg"))
        and f not in skip
        and not f.startswith(("tests/data/submissions/", "build/"))
        and (ROOT / f).is_file()
    ]


def test_the_course_uses_no_old_module_name():
    wrong = []
    for path in course_files():
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = OLD.search(line)
            if m:
                wrong.append(f"{path.relative_to(ROOT)}:{k}: {m.group(0)}")
    assert not wrong, "\n".join(wrong[:40])
