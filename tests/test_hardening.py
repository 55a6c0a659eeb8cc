"""Issue 16: every repro of the hardening report, as a regression test.

Each bad input gets a clear one-line error naming what and where (exit code 2 from the CLI, a
LectureKitError from the API), or a right answer, in bounded time. Timing itself is not asserted
here (see benchmarks/large_blocks.py); the per-test timeout of the suite is the hang guard.
"""

import argparse
import io
import json
import math
import sys

import pytest

from lecturekit.asm import parse
from lecturekit.cli import build_parser, main
from lecturekit.errors import ConfigError, LectureKitError, MachineError, ParseError


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean_error(code, err, fragment):
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1, f"not one line: {err!r}"
    assert fragment in err, err


@pytest.fixture
def write(tmp_path):
    def make(name, content):
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)

    return make


# -- parser ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "source, fragment",
    [
        ("addi $t0, $t1, 08\n", "leading zero"),
        ("lw $t0, 08($s1)\n", "leading zero"),
        ("t0 = t1 + 09\n", "leading zero"),
        ("li $t0, " + "9" * 5000 + "\n", "too long (5000 digits)"),
        ("t0 = t1 + " + "9" * 4301 + "\n", "too long"),
        ("t0 = t1 // t2\n", "'//' is not an operator"),
        ("li $t0, 99999999999999999999\n", "out of range"),
    ],
)
def test_parser_repros_are_clean_errors(capsys, write, source, fragment):
    with pytest.raises(ParseError) as info:
        parse(source)
    assert fragment in str(info.value) and info.value.line == 1
    code, _, err = run(capsys, "deps", write("bad.s", source))
    assert_clean_error(code, err, fragment)
    assert "line 1, column" in err


def test_leading_zero_error_points_at_the_number():
    with pytest.raises(ParseError) as info:
        parse("nop\naddi $t0, $t1, 08")
    assert (info.value.line, info.value.column) == (2, 16)


def test_zero_and_hex_immediates_still_parse():
    prog = parse("addi $t0, $t1, 0\naddi $t2, $t1, 0x10\nt3 = t1 + 0\nlw $t4, 0($s1)")
    assert [ins.imm for ins in prog][:3] == [0, 16, 0]
    assert prog[3].mem.offset == 0


@pytest.mark.parametrize("separator", ["\u2028", "\x0b", "\x0c", "\x1c", "\x85"])
def test_only_newlines_split_lines(separator):
    # one line holding a separator is one line: no silent second instruction, numbers stay right
    with pytest.raises(ParseError) as info:
        parse(f"add $t0, $t1, $t2{separator}add $t3, $t4, $t5\nbogus")
    assert info.value.line == 1
    prog = parse(f"add $t0, $t1, $t2 # a{separator}b\nadd $t3, $t0, $t2\r\nnop\rnop")
    assert [ins.line for ins in prog] == [1, 2, 3, 4]


@pytest.mark.parametrize("separator", ["\u2028", "\x0b", "\x0c", "\x1c", "\x85"])
def test_only_newlines_split_risc_v_lines(separator):
    prog = parse(f"ld a0, 0(a1) # a{separator}b\naddi a0, a0, 1\r\nadd a2, a0, a0\rnop")
    assert [ins.line for ins in prog] == [1, 2, 3, 4]
    with pytest.raises(ParseError) as info:
        parse(f"ld a0, 0(a1) # note{separator}still a comment\naddi a0, a0, 1\nbogus a1")
    assert info.value.line == 3


def test_double_slash_comment_still_works_after_mips():
    assert len(parse("add $t0, $t1, $t2 // comment\n// whole line")) == 1


def test_random_bytes_on_strict_stdin(capsys, monkeypatch):
    raw = bytes(range(128, 256)) * 3
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdin", stdin)
    code, _, err = run(capsys, "deps", "-")
    assert_clean_error(code, err, "standard input is not UTF-8 text")


def test_strict_stdin_in_a_real_process():
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "lecturekit.cli", "deps", "-"],
        input=b"\xbb\xff\x00garbage",
        capture_output=True,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8:strict"},
        timeout=120,
    )
    assert proc.returncode == 2 and b"not UTF-8" in proc.stderr and b"Traceback" not in proc.stderr


# -- machine files -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, content, fragment",
    [
        ("bad.json", b'{"name":"\xff"}', "not UTF-8 text"),
        ("deep.json", "[" * 100_000 + "]" * 100_000, "nested more than"),
        ("wide.json", '{"base":"lecture","issue_width":' + "9" * 5000 + "}", "integer too long"),
        ("wide.toml", 'base = "lecture"\nissue_width = ' + "9" * 5000 + "\n", "invalid TOML"),
        ("base.toml", 'base = "example.toml"\n', "field 'base'"),
        ("slow.toml", 'base = "lecture"\n[ops.mul]\nexecute_cycles = 100000\n', "at most 1000"),
        ("wide2.toml", 'base = "lecture"\nissue_width = 1000\n', "issue_width must be at most"),
        ("units.toml", 'base = "lecture"\n[units]\nalu = 100000\n', "units.alu"),
    ],
)
def test_machine_file_repros(capsys, write, name, content, fragment):
    path = write(name, content)
    code, _, err = run(capsys, "deps", write("b.s", "t0 = t1 * t2\n"), "--machine", path)
    assert_clean_error(code, err, fragment)
    assert name in err  # the file is named


def test_base_error_names_file_and_field(write):
    from lecturekit.target.machine import load_machine

    with pytest.raises(MachineError, match=r"base\.toml: field 'base': 'example\.toml'"):
        load_machine(write("base.toml", 'base = "example.toml"\n'))


# -- memory calculator -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--parameters", "nan"], "--parameters: not a number"),
        (["--parameters", "inf"], "--parameters: not a number"),
        (["--parameters", "1e400"], "must be a finite number"),
        (["--parameters", "-5"], "at least 1"),
        (
            ["--hidden", "9" * 161, "--heads", "2", "--layers", "1", "--seq", "1"]
            + ["--batch", "1", "--vocab", "1"],
            "--hidden",
        ),
        (
            ["--hidden", "1000000000001", "--heads", "2", "--layers", "1", "--seq", "1"]
            + ["--batch", "1", "--vocab", "1"],
            "at most 1,048,576",
        ),
        (["--preset", "gpt3", "--layers", "1000000000001", "--pp", "2"], "at most 100,000"),
        (["--preset", "gpt3", "--seq", "1000000000"], "at most 16,777,216"),
        (["--preset", "gpt3", "--dp", "9" * 5000], "number too long"),
    ],
)
def test_memory_repros(capsys, argv, fragment):
    code, _, err = run(capsys, "memory", *argv)
    assert_clean_error(code, err, fragment)


def test_memory_table_columns_never_touch(capsys):
    code, out, _ = run(capsys, "memory", "--preset", "gpt3", "--seq", "16000000")
    assert code == 0
    for line in out.splitlines():
        if line.startswith(("activations", "total per GPU")):
            fields = line.split()
            figures = [f for f in fields if f[0].isdigit()]
            assert len(figures) == 2, line  # two columns, separated
            assert all(f.count(".") == 1 for f in figures), line


def test_divisor_list_of_a_large_hidden_is_complete_and_quick():
    from lecturekit.llm.config import ModelConfig

    with pytest.raises(ConfigError, match="Divisors of 1000001: 1, 101, 9901, 1000001"):
        ModelConfig(hidden=1000001, heads=3, layers=1, seq=1, batch=1, vocab=1)


# -- parallel ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["layout", "--dp", "1000", "--pp", "1000", "--tp", "1000"], "at most 131,072 GPUs"),
        (["estimate", "--parameters", "nan"], "--parameters: not a number"),
        (["estimate", "--tokens", "nan", "--json"], "--tokens: not a number"),
        (["estimate", "--days", "0.0001"], "impossible"),
        (["estimate", "--utilisation", "0"], "utilisation: must be greater than 0"),
        (["estimate", "--utilisation", "nan"], "not a number"),
        (["plan", "--tokens=-5"], "--tokens"),
        (["plan", "--efficiency", "inf"], "--efficiency"),
        (["pipeline", "--schedule", "interleaved", "--v", "0"], "argument --v"),
        (["pipeline", "-p", "9" * 5000], "number too long"),
    ],
)
def test_parallel_repros(capsys, argv, fragment):
    code, _, err = run(capsys, "parallel", *argv)
    assert_clean_error(code, err, fragment)


def test_estimate_json_is_valid_json(capsys):
    code, out, _ = run(capsys, "parallel", "estimate", "--json")
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert code == 0 and math.isfinite(data["days"]) and 0 < data["utilisation"] <= 1


def test_plan_names_the_real_reason_when_nothing_splits(capsys):
    code, out, _ = run(capsys, "parallel", "plan", "--gpus", "7", "--all")
    assert code == 0 and "no dp x tp x pp split of 7 GPUs" in out
    assert "fits in memory" not in out


def test_calculator_api_repros():
    from lecturekit.llm import formats, hardware, planner

    with pytest.raises(ConfigError, match="total_bytes: must be a finite number"):
        hardware.gpus_needed(float("nan"), "A100-80GB")
    with pytest.raises(ConfigError, match="to_bits: expected a number, got NoneType"):
        formats.to_bits(None, "bf16")
    assert formats.to_bits(float("nan"), "fp32") == 0x7FC00000  # NaN itself is a value
    with pytest.raises(ConfigError, match="peak_flops: must be greater than 0"):
        planner.days_to_train(175e9, 300e9, 1024, 0.5, peak_flops=-1)
    with pytest.raises(ConfigError, match="parameters"):
        planner.days_to_train(float("nan"), 300e9, 1024, 0.5)
    with pytest.raises(ConfigError, match="impossible"):
        planner.utilisation_for_days(0.0001, 175e9, 300e9, 1024)
    with pytest.raises(ConfigError, match="at most 131,072"):
        planner.rank_layout(1000, 1000, 1000)


# -- bounded work ------------------------------------------------------------------------------
def test_execute_cycles_cap_is_named():
    from lecturekit.target.machine import preset

    m = preset("lecture")
    slow = dict(m.ops)
    slow["mul"] = slow["mul"].__class__(unit="alu", execute_cycles=100_000)
    with pytest.raises(MachineError, match="execute_cycles must be at least 1 and at most 1000"):
        m.with_options(ops=slow)


def test_optimal_search_reports_honestly_when_stopped(capsys, write):
    from lecturekit.asm.random_blocks import random_block
    from lecturekit.core.optimal import optimal_search
    from lecturekit.target.deps import analyze

    g = analyze(random_block(3, size=40), "lecture").graph
    sched, events = optimal_search(g, time_limit=0)
    assert sched.info["timed_out"] and sched.info["nodes"] == 0
    assert sched.info["proven_optimal"] == (sched.length <= sched.info["lower_bound"])
    text = "\n".join(i.text for i in random_block(3, size=40))
    code, out, _ = run(capsys, "schedule", write("b.s", text), "-a", "optimal", "-t", "0")
    assert code == 0
    last = out.strip().splitlines()[-1]
    if "lower bound" in last and sched.length > sched.info["lower_bound"]:
        assert "best found, not proven optimal" in last
    assert "proven optimal (time limit" not in out


def test_modulo_scheduler_has_a_time_limit():
    from lecturekit.loops.modulo import modulo_schedule

    body = "\n".join(
        f"lw $t{k % 20}, {4 * k}($s1)\nmul $t{(k + 1) % 20}, $t{k % 20}, $t{k % 20}"
        for k in range(60)
    )
    src = f"loop:\n{body}\naddi $s1, $s1, 4\nbne $s1, $s2, loop\n"
    r = modulo_schedule(src, "lecture", time_limit=0, codegen=False)
    assert r.schedule.info["timed_out"] is True
    with pytest.raises(LectureKitError, match="time_limit"):
        modulo_schedule(src, "lecture", time_limit=float("nan"))


def test_unroll_refuses_huge_factors_up_front():
    from lecturekit.loops.unroll import unroll

    src = "loop:\nlw $t0, 0($s1)\naddi $s1, $s1, 4\nbne $s1, $s2, loop\n"
    with pytest.raises(LectureKitError, match="at most 256"):
        unroll(src, 10**6, "lecture")


def test_long_blocks_still_match_a_pairwise_definition():
    """The near-linear analysis keeps every dependence the pairwise definition has, directly or
    through a chain whose latencies add up to at least the direct one."""
    import networkx as nx

    from lecturekit.asm.random_blocks import random_block
    from lecturekit.target.deps import analyze, may_alias

    for seed in range(5):
        prog = random_block(seed, size=60)
        dg = analyze(prog, "classic5")
        g = nx.DiGraph()
        for e in dg.edges:
            w = (
                max(e.latency, g.edges[e.src, e.dst]["w"])
                if g.has_edge(e.src, e.dst)
                else e.latency
            )
            g.add_edge(e.src, e.dst, w=w)
        g.add_nodes_from(range(len(prog)))
        longest = {}
        for s in range(len(prog)):
            dist = {s: 0}
            for v in nx.topological_sort(g):
                if v in dist:
                    for _, w, d in g.out_edges(v, data=True):
                        dist[w] = max(dist.get(w, -1), dist[v] + d["w"])
            longest[s] = dist
        m = dg.machine
        for i in range(len(prog)):
            for j in range(i + 1, len(prog)):
                a, b = prog[i], prog[j]
                if (a.is_store or b.is_store) and may_alias(prog, i, j):
                    kind = "WAW" if a.is_store and b.is_store else "RAW" if a.is_store else "WAR"
                    need = m.latency(kind, a.op_class, b.op_class, memory=True)
                    assert longest[i].get(j, -1) >= need, (seed, i, j)


# -- help texts (issue 13 item 4) --------------------------------------------------------------
def _options(parser, path=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif not isinstance(action, argparse._HelpAction):
            yield " ".join(path), action


def test_every_option_has_help_stating_its_default():
    missing = [
        f"{cmd} {'/'.join(a.option_strings) or a.dest}"
        for cmd, a in _options(build_parser())
        if not a.help or (a.option_strings and "default" not in a.help.lower())
    ]
    assert not missing, "options without help text stating the default: " + ", ".join(missing)


# -- widgets: never raise, show the error, never substitute a value ----------------------------
LOOP = (
    "loop:\nlw $t0, 0($s1)\naddi $t0, $t0, 1\nsw $t0, 0($s1)\naddi $s1, $s1, 4\n"
    "bne $s1, $s2, loop\n"
)


def _text_widgets():
    from lecturekit.widgets import deps, explorer, list_sched, modulo, optimal, pipeline

    return {
        "block_explorer": explorer.block_explorer,
        "dependence_stepper": deps.dependence_stepper,
        "list_scheduling_stepper": list_sched.list_scheduling_stepper,
        "pipeline_stepper": pipeline.pipeline_stepper,
        "optimal_search_viewer": optimal.optimal_search_viewer,
        "unroll_explorer": modulo.unroll_explorer,
    }


@pytest.mark.parametrize("name", sorted(_text_widgets()))
@pytest.mark.parametrize(
    "value, fragment",
    [
        (None, "NoneType"),
        (123, "int"),
        (b"add $t0, $t1, $t2", "bytes"),
        ("addi $t0, $t1, 08", "leading zero"),
        ("li $t0, " + "9" * 5000, "too long"),
    ],
)
def test_widget_constructors_show_errors(name, value, fragment):
    widget = _text_widgets()[name](value)
    assert fragment in widget.error.value, widget.error.value


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda w: w.planner.planner_explorer(gpus=7), "gpus: this control offers"),
        (lambda w: w.planner.planner_explorer("bogus"), "model: this control offers"),
        (lambda w: w.pipeline_parallel.pipeline_explorer("bogus"), "schedule: this control"),
        (lambda w: w.pipeline_parallel.pipeline_explorer(p=0), "p: this control goes from 1"),
        (lambda w: w.pipeline_parallel.pipeline_explorer(p=10**6), "p: this control goes"),
        (lambda w: w.memory.memory_explorer("bogus"), "model: this control offers"),
        (lambda w: w.modulo.unroll_explorer(LOOP, k=0), "k: this explorer offers"),
    ],
)
def test_widgets_refuse_values_instead_of_replacing_them(make, fragment):
    import lecturekit.widgets.memory
    import lecturekit.widgets.modulo
    import lecturekit.widgets.pipeline_parallel
    import lecturekit.widgets.planner

    widget = make(lecturekit.widgets)
    assert fragment in widget.error.value, widget.error.value


def test_widget_callback_error_keeps_line_and_column():
    from lecturekit.widgets.explorer import block_explorer

    ex = block_explorer()
    assert ex.error.value == ""
    ex.textarea.value = "nop\naddi $t0, $t1, 08"
    assert "line 2, column 16" in ex.error.value and "leading zero" in ex.error.value


def test_simulation_of_a_long_slow_block_stops_at_its_time_limit(capsys, write):
    machine = write("slow.toml", 'base = "lecture"\n[ops.div]\nexecute_cycles = 1000\n')
    block = write("divs.s", "\n".join(f"div $t{i % 5}, $t{(i + 1) % 5}, $t0" for i in range(400)))
    code, _, err = run(capsys, "simulate", block, "-M", machine, "-t", "0")
    assert_clean_error(code, err, "simulation stopped at the time limit of 0 s")


def test_list_scheduling_refuses_a_block_beyond_its_limit_up_front(capsys, write):
    from lecturekit.asm.random_blocks import random_block
    from lecturekit.core.list_sched import MAX_OPS

    block = "\n".join(str(i) for i in random_block(3, size=MAX_OPS + 1))
    path = write("big.s", block + "\n")
    code, _, err = run(capsys, "schedule", path)
    assert_clean_error(code, err, f"at most {MAX_OPS:,} operations; this block has {MAX_OPS + 1:,}")
    # the optimal search still answers (from program order) within its time limit
    code, out, _ = run(capsys, "schedule", path, "-a", "optimal", "-t", "1")
    assert code == 0 and "best found, not proven optimal" in out
