"""``lecturekit --lang zh``: every subcommand's help and its errors are Chinese.

The check is the one the Chinese chapters' outputs pass (no run of three English words of prose:
``test_i18n_outputs.english_sentences``), after taking out what stays English in every language:
the usage lines (argparse prints the command as it is typed), option names and metavars, the
names a user types (subcommands, presets, schedules, priorities, engines) and install commands.
The same filter finds English in the English help, so it is not blind."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_i18n_outputs import ALLOWED, english_sentences

from lecturekit import language
from lecturekit.cli import SUBCOMMANDS, main, wrap_by_width
from lecturekit.core.list_sched import MORE_PRIORITIES, PRIORITIES
from lecturekit.core.optimal import ENGINES
from lecturekit.language import display_width
from lecturekit.llm.config import PRESETS as MODELS
from lecturekit.llm.pipeline_parallel import ALL_SCHEDULES
from lecturekit.target.machine import PRESETS as MACHINES
from lecturekit.target.real import CPU_PRESETS

SIX = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7\n"

#: the names a user types, which no language translates
NAMES = {
    w.lower()
    for name in (
        *SUBCOMMANDS,
        *PRIORITIES,
        *MORE_PRIORITIES,
        *ENGINES,
        *ALL_SCHEDULES,
        *MACHINES,
        *MODELS,
        *CPU_PRESETS,
        *CPU_PRESETS.values(),
        "pipeline plan layout estimate sync status build list improved optimal auto",
        "stages timeline both ring ulysses newest oldest function loop all lecture llvm-mca",
        "on off dapple megatron optsched gpipe pipedream dualpipe dualpipev zero bubble",
        "clang lecturekit numpy python json toml csv stdin riscv rv64gc sifive-u74",
    )
    for w in re.findall(r"[A-Za-z][A-Za-z0-9'-]*", name)
}
#: proper names and notation the help uses as they are
PROPER = set(
    """
    pytorch schedulegpipe scheduleinterleavedzerobubble deepseek-v3 deepseek megatron-lm
    optsched-style mixtral ulysses moe debian ubuntu macos conda brew apt-get llvm-tools
    conda-forge bare-metal resmii recmii mii flop flops tflop transitive lecture's
    """.split()
)
USAGE = re.compile(r"^(?:用法：|usage: ).*(?:\n {2,}\S.*)*", re.M)
OPTIONS = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|\{[^}]*\}|\b[A-Z][A-Z0-9_|.&]+\b")
INSTALL = re.compile(r"\b(?:apt-get|brew|conda|pip) install\b[^；;）)，,]*")


def english(text: str) -> list[str]:
    text = INSTALL.sub(" ", OPTIONS.sub(" ", USAGE.sub(" ", text)))
    words = ALLOWED | NAMES | PROPER
    found = []
    for sentence in english_sentences(text):
        prose = [
            w
            for w in re.findall(r"[A-Za-z][A-Za-z0-9'-]*", sentence)
            if re.fullmatch(r"[A-Za-z'-]{3,}", w) and w.lower().strip("'-") not in words
        ]
        if len(prose) >= 3:
            found.append(sentence)
    return found


@pytest.fixture
def six(tmp_path):
    path = tmp_path / "six.s"
    path.write_text(SIX, encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    language.set_language(None)


HELP = [
    [],
    ["deps"],
    ["simulate"],
    ["schedule"],
    ["unroll"],
    ["modulo"],
    ["memory"],
    ["parallel"],
    ["parallel", "pipeline"],
    ["parallel", "plan"],
    ["parallel", "layout"],
    ["parallel", "estimate"],
    ["compile"],
    ["mca"],
    ["translate"],
]


@pytest.mark.parametrize("words", HELP, ids=lambda w: " ".join(w) or "lecturekit")
def test_help_in_chinese_has_no_english_sentence(capsys, words):
    assert main(["--lang", "zh", *words, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("用法：lecturekit")
    assert english(out) == [], out


def test_the_filter_sees_english_help(capsys):
    """Not blind: the English help of the same commands is full of sentences it reports."""
    for words in (["schedule"], ["parallel", "pipeline"], ["deps"]):
        assert main(["--lang", "en", *words, "--help"]) == 0
        assert len(english(capsys.readouterr().out)) >= 3


ERRORS = [
    ["deps", "no/such/file.s"],
    ["schedule", "{six}", "-p", "bogus"],
    ["schedule", "{six}", "--time-limit", "soon"],
    ["simulate", "{six}", "--order", "1,2"],
    ["simulate", "{six}", "--machine", "no-such-machine"],
    ["unroll", "{six}", "-k", "3"],
    ["modulo", "{six}"],
    ["parallel", "pipeline", "--schedule", "nonsense"],
    ["parallel", "pipeline", "--schedule", "dualpipe", "-p", "3", "-m", "3"],
    ["parallel", "plan", "--preset", "gpt3", "--cp", "x"],
    ["parallel", "estimate", "--days", "3", "--utilisation", "0.5"],
    ["schedule", "{six}", "--algorithm", "greedy"],
    ["parallel", "pipeline", "-p"],
    ["bogus"],
]


@pytest.mark.parametrize("words", ERRORS, ids=" ".join)
def test_errors_in_chinese_have_no_english_sentence(capsys, six, words):
    args = [six if w == "{six}" else w for w in words]
    assert main(["--lang", "zh", *args]) == 2
    err = capsys.readouterr().err
    assert "错误" in err
    assert english(err) == [], err
    assert main(["--lang", "en", *args]) == 2  # and in English, English
    assert "error" in capsys.readouterr().err


def test_output_in_chinese(capsys, six):
    """A command's own output (not only help and errors) reads in Chinese, its --json stays
    the English contract."""
    assert main(["--lang", "zh", "schedule", six, "-a", "optimal"]) == 0
    out = capsys.readouterr().out
    assert "个周期" in out and "已证明最优" in out and english(out) == [], out
    assert main(["--lang", "zh", "schedule", six, "--json"]) == 0
    zh_json = capsys.readouterr().out
    assert main(["--lang", "en", "schedule", six, "--json"]) == 0
    en_json = capsys.readouterr().out
    strip = re.compile(r'"seconds": [0-9.e-]+')
    assert strip.sub("", zh_json) == strip.sub("", en_json)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(["调度", "周期", "，", "（", "）", "lecturekit", "--json", "a", " "])),
    st.integers(min_value=8, max_value=60),
)
def test_chinese_help_wraps_by_display_width(parts, width):
    """Help in Chinese is wrapped by display columns (argparse counts characters): no line is
    wider than asked (but for one word wider than that, or a closing mark kept at the end of a
    line, two columns), no text is lost, a line never starts with a closing mark nor ends with
    an opening one."""
    text = "".join(parts)
    lines = wrap_by_width(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    longest = max((display_width(w) for w in text.split()), default=0)
    for line in lines:
        assert line == line.strip()
        assert display_width(line) <= max(width, longest) + 2
    for before, after in zip(lines, lines[1:], strict=False):
        assert after[0] not in "，）" and before[-1] != "（"
