"""Shared test settings: headless matplotlib, and the lecture's example blocks."""

import os

import matplotlib
import pytest

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


#: test files that run longest, started first when the suite runs on several workers
#: (pytest-xdist, ``--dist loadfile``: a file stays on one worker with its session fixtures)
LONGEST_FIRST = (
    "tests/test_browser.py",
    "tests/test_grading.py",
    "tests/test_grading_security.py",
)


def pytest_collection_modifyitems(config, items):
    """Longest files first, so that no worker is left with one at the end; the rest keep
    pytest's order. (Every worker sorts the same way: xdist checks the collections agree.)"""

    def rank(item):
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # once, in the controller (or the only process)
        _compile_lecturekit()
    config.addinivalue_line(
        "markers",
        "browser: runs the chapters in JupyterLab in headless Chromium (deselect with "
        "-m 'not browser')",
    )


# planted submissions are graded by tests/test_grading.py, not validated as chapters by nbval
collect_ignore_glob = ["data/*"]


def _compile_lecturekit() -> None:
    """Write lecturekit's bytecode once before the run. The suite starts hundreds of Python
    processes that import lecturekit (notebook kernels, grading sandboxes, CLI runs); where
    PYTHONDONTWRITEBYTECODE is set (this project's CI image sets it) none of them can cache its
    compiled modules, and each would compile them again. (``__pycache__`` is ignored by git; the
    grading sandbox's restricted copy of the package is made without it.)"""
    import compileall
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "lecturekit"
    compileall.compile_dir(str(package), quiet=1)
