"""Fuzzing every entry point from the outside (issue 16): random and adversarial text, bytes,
numbers, machine files and calculator arguments through the CLI (in-process) and the parser.

Every call must end with exit code 0, or with exit code 2 and a one-line error; never a
traceback, and within a per-call bound. The bound is a hang guard enforced with SIGALRM (it is
generous on purpose: this is not a timing assertion). Examples are few and derandomized, so the
module is deterministic and quick in CI.
"""

import io
import signal
import sys
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.cli import main
from lecturekit.errors import LectureKitError

#: seconds one call may take before it counts as a hang
HANG_GUARD = 30

FUZZ = settings(
    max_examples=40,
    derandomize=True,
    deadline=None,  # the alarm below is the bound; hypothesis deadlines flake on a busy machine
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


class Hang(Exception):
    pass


@contextmanager
def hang_guard(seconds=HANG_GUARD):
    if not hasattr(signal, "SIGALRM"):  # pragma: no cover - not on Windows
        yield
        return

    def alarm(signum, frame):
        raise Hang(f"call did not finish within {seconds} s")

    # pytest-timeout may have its own timer on SIGALRM: keep it, and give it back afterwards
    remaining, _interval = signal.getitimer(signal.ITIMER_REAL)
    started = time.monotonic()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, remaining) if remaining else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if remaining:
            left = remaining - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))


def cli(argv, stdin_bytes=None):
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin_bytes is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8", errors="strict")
    try:
        with hang_guard(), redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def check(code, err):
    assert "Traceback" not in err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = err.rstrip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("lecturekit"), err


# -- building blocks ---------------------------------------------------------------------------
REG = st.sampled_from(["$t0", "$t1", "t2", "$s1", "$zero", "$0", "x", "$", "$99", "t0t"])
NUMBER = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["08", "09", "007", "0x", "0xFFFFFFFFFFFFFFFFFFFF", "1e3", "-0", "+5"]),
    st.integers(1, 6000).map(lambda n: "9" * n),
)
OPCODE = st.sampled_from(["add", "addi", "lw", "sw", "mul", "beq", "j", "li", "nop", "bogus"])
JUNK = st.sampled_from(["//", "#", ";", "(", ")", "[", "]", "=", "==", ",", ":", "\u2028", "\x0c"])


@st.composite
def line(draw):
    kind = draw(st.integers(0, 3))
    if kind == 0:
        parts = [draw(OPCODE)] + draw(st.lists(st.one_of(REG, NUMBER, JUNK), max_size=4))
        return " ".join(parts[:1]) + " " + ", ".join(parts[1:])
    if kind == 1:
        op = draw(st.sampled_from(["+", "-", "*", "/", "//", "<", "&"]))
        return f"{draw(REG)} = {draw(st.one_of(REG, NUMBER))} {op} {draw(st.one_of(REG, NUMBER))}"
    if kind == 2:
        return f"{draw(REG)} = mem[{draw(REG)} + {draw(NUMBER)}]"
    return draw(st.text(max_size=30))


blocks = st.lists(line(), min_size=1, max_size=8).map("\n".join)


# -- the parser --------------------------------------------------------------------------------
@FUZZ
@given(st.one_of(blocks, st.text(max_size=200)))
def test_parser_raises_only_parse_errors(source):
    with hang_guard():
        try:
            prog = parse(source)
        except LectureKitError:
            return
    for ins in prog:
        assert ins.line >= 1


@FUZZ
@given(st.binary(max_size=300))
def test_cli_on_random_bytes_from_stdin(data):
    code, _, err = cli(["deps", "-"], stdin_bytes=data)
    check(code, err)


@FUZZ
@given(blocks, st.sampled_from(["deps", "simulate", "schedule"]))
def test_cli_on_malformed_blocks(tmp_path_factory, source, command):
    path = tmp_path_factory.mktemp("fuzz") / "block.s"
    path.write_text(source, encoding="utf-8")
    code, _, err = cli([command, str(path)])
    check(code, err)


# -- machine files -----------------------------------------------------------------------------
FIELD_VALUE = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(1, 3000).map(lambda n: int("9" * n)),
    st.booleans(),
    st.text(max_size=10),
    st.lists(st.text(max_size=4), max_size=4),
    st.just({"alu": 1}),
)
FIELDS = st.sampled_from(
    ["base", "name", "stages", "issue_width", "forwarding", "units", "read_stage", "bogus"]
)


@FUZZ
@given(
    st.dictionaries(FIELDS, FIELD_VALUE, max_size=4),
    st.integers(-5, 200_000),
    st.sampled_from(["json", "toml", "bytes"]),
)
def test_cli_on_random_machine_files(tmp_path_factory, fields, cycles, fmt):
    import json

    folder = tmp_path_factory.mktemp("machine")
    data = {"base": "lecture", **fields, "ops": {"mul": {"execute_cycles": cycles}}}
    if fmt == "json":
        path = folder / "m.json"
        path.write_text(json.dumps(data), encoding="utf-8")
    elif fmt == "toml":
        path = folder / "m.toml"
        lines = [f"{k} = {json.dumps(v)}" for k, v in data.items() if not isinstance(v, dict)]
        lines.append(f"[ops.mul]\nexecute_cycles = {cycles}")
        path.write_text("\n".join(lines), encoding="utf-8")
    else:
        path = folder / "m.json"
        path.write_bytes(b'{"name": "\xff\xfe' + bytes([cycles % 256]) + b'"}')
    block = folder / "b.s"
    block.write_text("t0 = t1 * t2\nt3 = t0 * t0\nt4 = t3 + t1\n", encoding="utf-8")
    for command in ("simulate", "schedule"):
        code, _, err = cli([command, str(block), "--machine", str(path)])
        check(code, err)


# -- calculators -------------------------------------------------------------------------------
WEIRD = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "1e400", "-5", "0", "0.0001", "1e-300", "7B", "x"]),
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(1, 5000).map(lambda n: "9" * n),
)


@FUZZ
@given(
    st.sampled_from(["--hidden", "--layers", "--seq", "--dp", "--tp", "--pp", "--zero"]),
    WEIRD,
)
def test_memory_calculator_arguments(option, value):
    code, out, err = cli(["memory", "--preset", "gpt3", option, value])
    check(code, err)


@FUZZ
@given(WEIRD)
def test_memory_parameter_counts(value):
    code, out, err = cli(["memory", "--parameters", value, "--json"])
    check(code, err)
    if code == 0:
        import json

        json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON output"))


@FUZZ
@given(
    st.sampled_from(
        [
            ["estimate", "--parameters"],
            ["estimate", "--tokens"],
            ["estimate", "--days"],
            ["estimate", "--utilisation"],
            ["plan", "--tokens"],
            ["plan", "--efficiency"],
            ["plan", "--gpus"],
            ["layout", "--dp"],
            ["pipeline", "-m"],
            ["pipeline", "--v"],
        ]
    ),
    WEIRD,
)
def test_parallel_arguments(argv, value):
    code, out, err = cli(["parallel", *argv, value, "--json"])
    check(code, err)
    if code == 0:
        import json

        json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON output"))
