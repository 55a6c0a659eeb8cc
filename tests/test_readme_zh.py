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


# -- README.zh.md says everything README.md says ---------------------------------------------
#: README.md's sections (``## ...``) and the Chinese README's, in the same order: a section added
#: to one README without the other fails
SECTIONS = {
    "Set up": "安装与运行",
    "Chapters": "章节",
    "The `lecturekit` command": "`lecturekit` 命令",
    "The Chinese edition (中文版)": "中文版",
    "Problem sets": "习题",
    "For contributors": "参与开发",
}
#: the paragraphs README.md leads with a bold phrase, and the Chinese README's, per section
LEADS = {
    "**Which language.**": "**用哪种语言。**",
    "**Figures in Chinese.**": "**图中的中文。**",
    "**Changing English text.**": "**修改英文原文之后。**",
    "**Students.**": "**学生。**",
    "**Instructors.**": "**教师。**",
    "**Limits per submission.**": "**每份提交的限制。**",
    "**What grading defends against.**": "**评分能防范什么。**",
    "**What it does\nnot defend against:**": "**它不能防范的：**",
}


def sections(text: str) -> dict[str, str]:
    """``## `` heading -> its text, in order."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def spaced(text: str) -> str:
    return " ".join(text.split())


def code_spans(text: str) -> list[str]:
    """Inline code of ``text`` (fenced blocks left out), whitespace made single spaces."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return [spaced(s) for s in re.findall(r"`([^`]+)`", prose)]


def block_lines(text: str) -> list[str]:
    """The code of every fenced block's lines (a trailing ``  # comment`` is prose)."""
    return [
        line.split("  #")[0].strip()
        for block in re.findall(r"```\w*\n(.*?)```", text, re.S)
        for line in block.splitlines()
        if line.split("  #")[0].strip()
    ]


def numbers(text: str) -> list[str]:
    prose = re.sub(r"```.*?```|`[^`]+`|\([a-z]+://[^)]+\)", "", text, flags=re.S)
    return re.findall(r"(?<![\w.])\d+(?:\.\d+)?", prose)


def test_the_chinese_readme_has_every_section_of_the_english_one():
    assert list(sections(README)) == list(SECTIONS), "README.md's sections changed: map them"
    assert list(sections(ZH)) == list(SECTIONS.values())


@pytest.mark.parametrize("en", SECTIONS)
def test_each_section_says_in_chinese_what_the_english_one_says(en):
    """Everything of a README.md section that is not prose is in the same README.zh.md section:
    each paragraph led by a bold phrase, each file, command, option, package and name in code,
    each line of its code blocks, each number (limits, versions, sizes, seconds)."""
    english, chinese = sections(README)[en], sections(ZH)[SECTIONS[en]]
    leads = [lead for lead in LEADS if lead in english]
    assert [LEADS[lead] for lead in leads] == [z for z in LEADS.values() if z in chinese], en
    missing = [s for s in dict.fromkeys(code_spans(english)) if s not in spaced(chinese)]
    assert not missing, f"README.zh.md's {SECTIONS[en]!r} lacks: {missing}"
    lines = set(block_lines(chinese))
    assert not [line for line in block_lines(english) if line not in lines], en
    zh_numbers = set(numbers(chinese))
    assert not [n for n in numbers(english) if n not in zh_numbers], en


def test_both_readmes_tell_how_to_get_a_chinese_font():
    """What the code does when a Chinese figure has no font: the packages its warning names (the
    system's and the optional PyPI package lecturekit looks for) are in both READMEs; the
    Chinese README no longer says that figures are English only."""
    from lecturekit.viz import fonts

    packages = re.findall(r"install ((?:fonts|noto)-[\w-]+)", fonts.NO_FONT)
    packages += re.findall(r" or ((?:fonts|noto)-[\w-]+)", fonts.NO_FONT)
    pypi = fonts.PACKAGE_FONT[0].replace("_", "-")
    assert pypi in packages and "fonts-noto-cjk" in packages, packages
    for name, text in (("README.md", README), ("README.zh.md", ZH)):
        edition = [s for title, s in sections(text).items() if "中文版" in title][0]
        for package in packages:
            assert f"`{package}`" in edition or package in spaced(edition), (name, package)
    assert "中文字体" in ZH and "只用英文" not in ZH


def test_both_readmes_say_how_the_language_is_chosen():
    from lecturekit import i18n, language

    for name, text in (("README.md", README), ("README.zh.md", ZH)):
        edition = [s for title, s in sections(text).items() if "中文版" in title][0]
        for needed in ('lecturekit.set_language("zh")', language.ENV, "--lang zh"):
            assert needed in edition, (name, needed)
        for var in language.LOCALE_ENV:
            assert f"`{var}`" in edition, (name, var)
        assert "lecturekit assign" in text and "exercises/zh/NN_<标题>_习题.ipynb" in edition, name
        # the example names are the ones lecturekit.i18n gives chapter 04's editions
        for example in (
            f"notebooks/zh/{i18n.title('04_list_scheduling', 'zh')}.ipynb",
            f"exercises/zh/{i18n.problems_name('04_list_scheduling', 'zh')}",
        ):
            assert example in edition, (name, example)
