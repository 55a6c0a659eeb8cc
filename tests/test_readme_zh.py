"""README.zh.md, the Chinese README: linked from the top of README.md, its two set-up commands
(open the course; run the tests) for Linux/macOS and for Windows are exactly README.md's (whose
form tests/test_readme.py checks and .ci/run runs), its ``lecturekit`` commands are ones the
CLI knows, and the files it names exist."""

import re
from pathlib import Path

import pytest
from readme_commands import commands

from lecturekit.cli import main

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


def test_readme_links_the_chinese_readme_near_the_top():
    assert "(README.zh.md)" in "\n".join(README.splitlines()[:8])
    assert "(README.md)" in ZH


@pytest.mark.parametrize("shell", ["bash", "powershell"])
def test_the_two_set_up_commands_are_the_english_readmes(shell):
    assert commands(ZH, shell) == commands(README, shell)


def test_the_chinese_readme_says_what_the_issue_asks():
    for needed in ("exercises/zh/", "notebooks/zh/", 'grader.check("qN")', "lecturekit grade"):
        assert needed in ZH, needed
    for op in ("status", "sync", "build"):
        assert f"lecturekit translate {op}" in ZH, op
    assert len(re.findall(r"[\u4e00-\u9fff]", ZH)) > 500  # written in Chinese


def test_its_lecturekit_commands_parse(monkeypatch, capsys):
    """Every ``lecturekit`` line names a real subcommand and options the CLI accepts: each is
    run with ``--help`` appended (argparse checks the words before it, runs nothing), in this
    process (``lecturekit`` is ``lecturekit.cli.main``; tests/test_cli_foundation.py runs the
    installed command itself)."""
    lines = [line for line in bash_lines(ZH) if line.startswith("lecturekit ")]
    assert len(lines) >= 5
    monkeypatch.chdir(ROOT)
    for line in lines:
        assert main([*line.split()[1:2], "--help"]) == 0, line
    capsys.readouterr()
    for line in lines:
        if line.startswith("lecturekit translate status"):
            assert main(line.split()[1:]) == 0, capsys.readouterr()
            assert "notebooks" in capsys.readouterr().out


def test_files_it_names_exist_and_nothing_points_outside():
    assert "../" not in ZH
    pattern = (
        r"`((?:tools|lecturekit|notebooks|exercises|solutions|translations)/[^`\s*]+|\w+\.ipynb)`"
    )
    named = [p for p in re.findall(pattern, ZH) if not re.search(r"NN|Copy1", p)]
    assert "glossary.ipynb" in named and "index.ipynb" in named
    for path in named:
        assert (ROOT / path).exists(), f"README.zh.md mentions {path}, which does not exist"
