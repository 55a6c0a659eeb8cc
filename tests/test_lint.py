"""The test command also runs the linter and the formatter check (configured in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

import pytest
from course_files import tracked

ROOT = Path(__file__).resolve().parents[1]


def ruff(*args):
    """The ruff installed in this Python's environment (the version the project pins), not
    another on PATH."""
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def course_sources() -> list[str]:
    """The Python files and notebooks the course tracks (tools/course_files.py), so that a
    student's own notebook or script in the course folder is never linted; "." where the course
    is not a git work tree."""
    files = tracked(ROOT)
    if files is None:
        return ["."]
    return sorted(f for f in files if f.endswith((".py", ".ipynb")) and (ROOT / f).is_file())


@pytest.mark.parametrize("args", [("check",), ("format", "--check")])
def test_ruff(args):
    # --force-exclude: pyproject's exclude (exercises, solutions, ...) holds for named files too
    result = ruff(*args, "--force-exclude", *course_sources())
    assert result.returncode == 0, result.stdout + result.stderr
