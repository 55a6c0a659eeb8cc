"""The README's examples run as written (from the repository root), and neither the README nor
CONTRIBUTING points outside the repository."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


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
