"""README.zh.md, the Chinese README: linked from the top of README.md, its two set-up commands
(open the course; run the tests) are exactly README.md's (which tests/test_readme.py runs), its
``lecturekit`` commands are ones the CLI knows, and the files it names exist."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ZH = (ROOT / "README.zh.md").read_text(encoding="utf-8")


def bash_lines(text):
    return [
        line.split("  #")[0].strip()
        for block in re.findall(r"```bash\n(.*?)```", text, re.S)
        for line in block.splitlines()
        if line.strip()
    ]


def set_up_commands(text):
    return [line for line in bash_lines(text) if line.startswith("python -m pip install")]


def test_readme_links_the_chinese_readme_near_the_top():
    assert "(README.zh.md)" in "\n".join(README.splitlines()[:8])
    assert "(README.md)" in ZH


def test_the_two_set_up_commands_are_the_english_readmes():
    english = set_up_commands(README)
    assert len(english) == 2 and "jupyter lab" in english[0] and "pytest" in english[1]
    assert set_up_commands(ZH) == english


def test_the_chinese_readme_says_what_the_issue_asks():
    for needed in ("exercises/zh/", "notebooks/zh/", 'grader.check("qN")', "lecturekit grade"):
        assert needed in ZH, needed
    for op in ("status", "sync", "build"):
        assert f"lecturekit translate {op}" in ZH, op
    assert len(re.findall(r"[\u4e00-\u9fff]", ZH)) > 500  # written in Chinese


def test_its_lecturekit_commands_parse():
    """Every ``lecturekit`` line names a real subcommand and options the CLI accepts: each is
    run with ``--help`` appended (argparse checks the words before it, runs nothing)."""
    lines = [line for line in bash_lines(ZH) if line.startswith("lecturekit ")]
    assert len(lines) >= 5
    for line in lines:
        words = line.split()[1:2] + ["--help"]
        run = subprocess.run(
            [sys.executable, "-m", "lecturekit.cli", *words], cwd=ROOT, capture_output=True
        )
        assert run.returncode == 0, line
    for line in lines:
        if line.startswith("lecturekit translate status"):
            run = subprocess.run(
                [sys.executable, "-m", "lecturekit.cli", *line.split()[1:]],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert run.returncode == 0 and "notebooks" in run.stdout, run.stderr


def test_files_it_names_exist_and_nothing_points_outside():
    assert "../" not in ZH
    pattern = (
        r"`((?:tools|lecturekit|notebooks|exercises|solutions|translations)/[^`\s*]+|\w+\.ipynb)`"
    )
    named = [p for p in re.findall(pattern, ZH) if not re.search(r"NN|Copy1", p)]
    assert "glossary.ipynb" in named and "index.ipynb" in named
    for path in named:
        assert (ROOT / path).exists(), f"README.zh.md mentions {path}, which does not exist"
