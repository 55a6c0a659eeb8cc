"""Shared test settings: headless matplotlib, the lecture's example blocks, the order files
start in, the ``needs`` marker for optional tools (``tests/system_tools.py``), only the course's
own notebooks validated (never a student's copy), and the versions installed in the header."""

import os
import re
import sys
from importlib import metadata
from pathlib import Path

import matplotlib
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # course_files, readme_commands, course_home
# pytest caches each test module it rewrites for assert introspection (tests/__pycache__, ignored
# by git) unless bytecode writing is off, as PYTHONDONTWRITEBYTECODE turns it off in this
# project's CI image: then every worker of every run rewrites all of them again (about 5 s of
# CPU a worker). The rewritten modules are the tests' own, so write them.
sys.dont_write_bytecode = False

from course_files import is_course_file  # noqa: E402
from system_tools import require  # noqa: E402

# Headless drawing in this process only: setting MPLBACKEND in the environment would reach the
# notebook kernels nbval starts, and their figures would silently disappear.
matplotlib.use("Agg")

# The tests read English (error messages, tables, CLI output) on any desktop: a developer's
# zh_CN locale must not change them. Notebook kernels still speak their notebook's edition (the
# edition wins over the environment, lecturekit.language), so notebooks/zh runs in Chinese.
os.environ["LECTUREKIT_LANG"] = "en"

THREE_ADDS = "add $t2, $t0, $t1\nadd $t5, $t3, $t4\nadd $t8, $t6, $t7\n"
FOUR_ADDS = "add $t2, $t0, $t1\nadd $t4, $t3, $t2\nadd $t7, $t5, $t6\nadd $t0, $t0, $t7\n"
SIX_BLOCK = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7\n"


@pytest.fixture
def six_block():
    return SIX_BLOCK


@pytest.fixture(params=["posix", "portable"])
def check_calls(request, monkeypatch):
    """``grader.check``'s calls of a student's function both ways
    (``lecturekit.grading.local_callee``): with POSIX's ``select``, ``SIGALRM`` and process
    groups, and the portable way Windows takes, forced here, on which ``select.select`` and
    ``os.killpg`` fail the test if this process uses them."""
    import select

    from lecturekit.grading.local_callee import PORTABLE_ENV

    if request.param == "posix":
        if os.name != "posix":
            pytest.skip("POSIX's way is for Linux and macOS")
        monkeypatch.delenv(PORTABLE_ENV, raising=False)
        return request.param
    monkeypatch.setenv(PORTABLE_ENV, "1")

    def posix_only(*args, **kwargs):
        raise AssertionError("the portable way used select or killpg, which Windows lacks")

    monkeypatch.setattr(select, "select", posix_only)
    monkeypatch.setattr(os, "killpg", posix_only, raising=False)
    return request.param


#: test files that run longest, started first when the suite runs on several workers
#: (pytest-xdist, ``--dist loadfile``: a file stays on one worker with its session fixtures), so
#: that the last files to start are short and both workers finish together; measured with
#: ``python benchmarks/suite.py`` (longest first: 380, 57, 53, 52, 39, 36, 30, 28, 28, 23 s)
LONGEST_FIRST = (
    "tests/test_browser.py",
    "tests/test_grading.py",
    "tests/test_grading_security.py",
    "tests/test_pipeline_parallel_widget.py",
    "tests/test_loops_widgets.py",
    "tests/test_widgets_deps.py",
    "notebooks/zh/05_最优调度.ipynb",
    "tests/test_real.py",
    "tests/test_widgets_pipeline.py",
    "notebooks/09_pipeline_parallelism.ipynb",
)


def pytest_collection_modifyitems(config, items):
    """Only the course's own notebooks (tools/course_files.py: what git tracks) are validated:
    a student's copy saved beside a chapter (``notebooks/04_list_scheduling-Copy1.ipynb``) is
    deselected, unless named on the command line. Then the longest files first, so that no
    worker is left with one at the end; the rest keep pytest's order. (Every worker sorts the
    same way: xdist checks the collections agree.)"""
    named = {Path(a.split("::")[0]).resolve() for a in config.invocation_params.args}
    copies = [
        item
        for item in items
        if item.path.suffix == ".ipynb"
        and item.path.resolve() not in named
        and not is_course_file(item.path, ROOT)
    ]
    if copies:
        config.hook.pytest_deselected(items=copies)
        left = set(map(id, copies))
        items[:] = [item for item in items if id(item) not in left]
        _left_out.update(str(item.path.relative_to(ROOT)) for item in copies)

    def rank(item):
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


_left_out: set[str] = set()


def pytest_report_collectionfinish(config, start_path, items):
    if _left_out:
        return f"deselected, not the course's own (git does not track them): {sorted(_left_out)}"
    return []


def pytest_report_header(config):
    """The installed version of every package lecturekit and its tests depend on."""
    try:
        wanted = metadata.requires("lecturekit") or []
    except metadata.PackageNotFoundError:
        return "lecturekit is not installed (pip install -e '.[test]')"
    names = []
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        if name not in names and "python_version < " not in requirement:
            names.append(name)
    installed = []
    for name in [*names, "pip", "torch"]:
        try:
            installed.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            installed.append(f"{name} (not installed)")
    return "installed: " + ", ".join(installed)


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # once, in the controller (or the only process)
        _compile_lecturekit()
    config.addinivalue_line(
        "markers",
        "browser: runs the chapters in JupyterLab in headless Chromium (deselect with "
        "-m 'not browser')",
    )
    config.addinivalue_line(
        "markers",
        "needs(*tools): optional tools the test runs (bwrap, chromium, clang, llvm-mca, "
        "gcc-riscv, torch, cjk-font); skips saying what to install when one is missing, "
        "fails under CI",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture: a test marked ``needs(...)`` skips (fails under CI) without them."""
    for mark in item.iter_markers("needs"):
        require(*mark.args)


# planted submissions are graded by tests/test_grading.py, not validated as chapters by nbval
collect_ignore_glob = ["data/*"]


def _compile_lecturekit() -> None:
    """Write lecturekit's bytecode once before the run. The suite starts hundreds of Python
    processes that import lecturekit (notebook kernels, grading sandboxes, CLI runs); where
    PYTHONDONTWRITEBYTECODE is set (this project's CI image sets it) none of them can cache its
    compiled modules, and each would compile them again. (``__pycache__`` is ignored by git; the
    grading sandbox's restricted copy of the package is made without it.)"""
    import compileall

    package = ROOT / "lecturekit"
    compileall.compile_dir(str(package), quiet=1)
