"""The README's examples run as written (from the repository root), its two set-up commands
work in a fresh terminal on every platform it names, and neither the README nor CONTRIBUTING
points outside the repository."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from readme_commands import commands

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["open", "test"])
def test_set_up_commands_work_in_a_fresh_linux_or_macos_terminal(kind):
    """A fresh Debian 12 / Ubuntu 24.04 terminal has ``python3`` and no ``python``, and its
    pip refuses to install outside a virtual environment (PEP 668); so does Homebrew's. Each
    command makes (or reuses) ``.venv`` with ``python3`` and runs everything else with that
    environment's Python, with nothing to activate first."""
    line = commands(README, "bash")[kind]
    steps = line.split(" && ")
    assert steps[0] == "python3 -m venv .venv", line
    for step in steps[1:]:
        assert step.startswith(".venv/bin/python -m "), f"{step!r} does not use .venv's Python"
    assert steps[1].startswith(".venv/bin/python -m pip install -e ")  # into .venv only


@pytest.mark.parametrize("kind", ["open", "test"])
def test_set_up_commands_work_in_windows_powershell(kind):
    """Windows PowerShell 5.1 (what Windows ships) has no ``&&``: each step runs only when the
    one before it succeeded (``if ($?)``), with the environment's Python."""
    line = commands(README, "powershell")[kind]
    assert line.startswith("py -m venv .venv; if ($?) { .venv\\Scripts\\python -m pip install -e ")
    assert "&&" not in line and line.count("{") == line.count("}")
    linux = commands(README, "bash")[kind].split(" && ")
    windows = re.findall(r"\.venv\\Scripts\\python (-m [^;}]+?)\s*(?:;|})", line)
    assert windows == [step.removeprefix(".venv/bin/python ") for step in linux[1:]] or (
        kind == "open" and windows[:1] == [linux[1].removeprefix(".venv/bin/python ")]
    ), (windows, linux)


def test_ci_runs_the_readmes_linux_commands_as_written():
    """.ci/run reads both Linux commands from README.md (tools/readme_commands.py) and runs them
    from a shell where ``python`` does not exist."""
    for kind in ("open", "test"):
        assert f"tools/readme_commands.py {kind}" in CI, kind
    assert "no_python" in CI


def command_lines():
    """The ``lecturekit ...`` lines of the README's bash blocks that read example files."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if re.match(r"lecturekit (deps|simulate|schedule|unroll|modulo)\b", line):
                lines.append(line)
    return lines


def test_readme_shows_the_example_commands():
    assert len(command_lines()) >= 4
    assert "lecturekit/data/examples/" in README


@pytest.mark.parametrize("line", command_lines())
def test_readme_command_runs_as_written(line):
    script = f'lecturekit() {{ "{sys.executable}" -m lecturekit.cli "$@"; }}\n{line}\n'
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, f"{line}\n{run.stderr}"
    assert run.stdout.strip()


def test_readme_data_folder_command_prints_the_examples():
    line = re.search(r'`(python -c "import lecturekit, pathlib;[^`]*)`', README).group(1)
    run = subprocess.run(
        line.replace("python", sys.executable, 1),
        shell=True,
        cwd="/",
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert (Path(run.stdout.strip()) / "examples" / "saxpy_loop.s").is_file()


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_nothing_points_outside_the_repository(name):
    assert "../" not in (ROOT / name).read_text(encoding="utf-8")


def test_files_the_readme_names_exist():
    pattern = r"`((?:docs|tools|tests|lecturekit|notebooks|exercises)/[^`\s*]+|index.ipynb)`"
    for path in re.findall(pattern, README):
        if not re.search(r"NN|NAME|[{]", path):
            assert (ROOT / path).exists(), f"README.md mentions {path}, which does not exist"
