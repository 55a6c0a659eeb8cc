"""Real compilers and real cores: the RISC-V parser on clang's output, the real-core presets,
llvm-mca's JSON, the side-by-side comparison and its named differences, the CLI.

Parser and llvm-mca-parsing tests read committed fixtures (tests/data/real: clang 14 output for
daxpy.c and kernels.c, llvm-mca 14 JSON for the daxpy loop), so they need no LLVM. Live tests
call clang / llvm-mca / a RISC-V GCC: they skip with a message when the tool is missing, and
fail under CI (``CI`` set), where .ci/run installs them (tests/system_tools.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from system_tools import require

from lecturekit.asm import parse
from lecturekit.asm.riscv import looks_like_riscv, parse_riscv
from lecturekit.cli import main
from lecturekit.core.verify import verify
from lecturekit.errors import LectureKitError, ParseError
from lecturekit.target import real
from lecturekit.target.deps import analyze
from lecturekit.target.machine import preset
from lecturekit.target.pipeline import simulate

DATA = Path(__file__).parent / "data" / "real"
KERNELS = (DATA / "kernels_u74.s").read_text()
DAXPY = (DATA / "daxpy_u74.s").read_text()


def need(*tools):
    """Skip (or fail under CI) when a tool is missing: ``clang``, ``llvm-mca``, ``gcc-riscv``."""
    require(*tools)


# -- parsing clang's output -------------------------------------------------------------------


def test_clang_output_parses_with_directives_noted():
    prog = parse(KERNELS)
    assert all(ins.notation == "riscv" for ins in prog)
    assert len(prog) == 34
    assert {"dot", "divide", "poly", "bytes", ".LBB0_1", ".LBB0_2"} <= set(prog.labels)
    assert any(".p2align" in note for note in prog.notes)
    assert any(".globl" in note for note in prog.notes)
    by_text = {ins.text: ins for ins in prog}
    divw = by_text["divw a3, a0, a1"]
    assert (divw.op_class, divw.dests, divw.srcs) == ("div", ("a3",), ("a0", "a1"))
    slliw = by_text["slliw a4, a0, 3"]
    assert (slliw.op_class, slliw.imm) == ("alu", 3)
    sw = by_text["sw a3, 0(a2)"]
    assert sw.is_store and sw.srcs == ("a3", "a2") and sw.mem.size == 4
    fmadd = by_text["fmadd.d fa0, ft0, fa0, ft1"]
    assert fmadd.op_class == "fmul" and fmadd.srcs == ("ft0", "fa0", "ft1")
    fld = by_text["fld ft0, 24(a0)"]
    assert fld.is_load and fld.mem.offset == 24 and fld.mem.size == 8
    assert by_text["lb a2, 0(a1)"].mem.size == 1
    assert by_text["mv a0, a3"].op_class == "alu"
    ret = by_text["ret"]
    assert ret.is_branch and ret.reads() == ("ra",)
    bnez = by_text["bnez a2, .LBB0_1"]
    assert bnez.target == ".LBB0_1" and prog.labels[".LBB0_1"] == prog.instructions.index(bnez) - 7


def test_relocations_and_symbols():
    prog = parse(
        "lui a0, %hi(C+80)\naddi a0, a0, %lo(C+80)\nfld ft0, %lo(.LCPI0_0)(a1)\ncall memcpy\n",
        notation="riscv",
    )
    assert [i.op_class for i in prog] == ["alu", "alu", "load", "branch"]
    assert prog[1].srcs == ("a0",) and prog[1].imm is None
    assert prog[2].mem.base == "a1" and prog[3].dests == ("ra",)


def test_numbered_registers_are_abi_names_and_x0_is_zero():
    prog = parse("add x10, x0, x11\nfadd.d f10, f0, f31\nmv s0, fp\n")
    assert prog[0].dests == ("a0",) and prog[0].srcs == ("zero", "a1")
    assert prog[0].reads() == ("a1",)
    assert prog[1].dests == ("fa0",) and prog[1].srcs == ("ft0", "ft11")
    assert prog[2].srcs == ("s0",)
    g = analyze("addi x0, a0, 1\nadd a1, zero, x0\nadd a2, a1, x0\n", "rocket-rv64")
    assert [(e.src, e.dst, e.kind, e.on) for e in g.edges] == [(1, 2, "RAW", "a1")]


def test_lecture_notations_still_parse_as_before():
    mips = "loop: lw $t0, 8($s1)\n add $t2, $t0, $t1\n bne $s1, $s3, loop\n"
    assert not looks_like_riscv(mips)
    assert all(i.notation == "mips" for i in parse(mips))
    tac = "t0 = t1 + t2\nt6 = mem[t1 + 8]\n"
    assert not looks_like_riscv(tac)
    assert parse(tac)[1].opcode == "lw"
    assert not looks_like_riscv("add t0, t1, t2\nlw t3, 0(t0)\n")  # valid both ways: MIPS
    assert looks_like_riscv("\t.text\nadd t0, t1, t2\n")
    assert looks_like_riscv("ld a0, 0(a1)\n")
    assert looks_like_riscv("add x5, x6, x7\n")


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("addi a0, a1\n", 1, 12, "expected ','"),
        ("nop\nfadd.d a0, fa1, fa2\n", 2, 8, "floating-point register"),
        ("ld a0, 8(q9)\n", 1, 10, "register for the base"),
        ("  frobnicate a0, a1\n", 1, 3, "unknown RISC-V opcode"),
        ("add a0, a1, 5\n", 1, 13, "use addi"),
        ("ld a0, 8(a1) extra\n", 1, 14, "end of instruction"),
        ("x:\nx: nop\n", 2, 1, "defined twice"),
        ("addi a0, a1, 123456789012345678901234\n", 1, 14, "too long"),
        ("fcvt.w.d a0, fa0, sideways\n", 1, 19, "rounding mode"),
    ],
)
def test_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(ParseError) as exc:
        parse(text, notation="riscv")
    assert (exc.value.line, exc.value.column) == (line, column)
    assert words in exc.value.message


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="adfilnstuwx0123456789(),.%:- \n\tzer", max_size=60))
def test_arbitrary_text_parses_or_raises_parse_error(text):
    try:
        parse_riscv(text)
    except ParseError:
        pass


def test_virtual_registers_and_the_loop_tools_on_clang_output(capsys, tmp_path):
    """Compiled code goes into every lecturekit tool: the loop tools rename registers (written
    back as virtual registers %v) and their generated code parses back."""
    prog = parse("fld %v1, 0(a1)\nfadd.d %v2, %v1, $fa0\nnop\n")
    assert prog[0].dests == ("v1",) and prog[1].srcs == ("v1", "fa0")
    with pytest.raises(ParseError, match="register for the base"):
        parse("ld a0, 8(q9)\n", notation="riscv")  # a typo is still an error
    loop = real.loop_body(DAXPY, "daxpy")
    path = tmp_path / "loop.s"
    path.write_text(loop)
    for args in (
        ["unroll", str(path), "-M", "sifive-7-rv64", "--json"],
        ["modulo", str(path), "-M", "rocket-rv64", "--json"],
    ):
        assert main(args) == 0, args
        data = json.loads(capsys.readouterr().out)
        assert data["machine"]["name"] == args[3]
    from lecturekit.loops.unroll import unroll

    result = unroll(loop, 2, "sifive-7-rv64")
    assert result.cycles_per_iteration < unroll(loop, 1, "sifive-7-rv64").cycles_per_iteration


def test_mixed_width_accesses_alias_by_bytes():
    def mem_edges(text):
        return [(e.src, e.dst, e.kind) for e in analyze(text, "rocket-rv64").edges]

    assert mem_edges("sd a0, 0(a1)\nlw a2, 4(a1)\n") == [(0, 1, "RAW")]
    assert mem_edges("sw a0, 0(a1)\nlw a2, 4(a1)\n") == []
    assert mem_edges("sb a0, 1(a1)\nlbu a2, 2(a1)\n") == []
    assert mem_edges("sb a0, 1(a1)\nlhu a2, 0(a1)\n") == [(0, 1, "RAW")]
    assert (0, 2, "RAW") in mem_edges("sw a0, 0(a1)\naddi a1, a1, 4\nlw a2, 4(a1)\n")


def test_the_lecture_loop_as_clang_compiles_it():
    block = real.loop_body(DAXPY, "daxpy")
    assert block.splitlines()[0] == ".LBB0_1:"
    dg = analyze(real.instructions_only(block), "rocket-rv64")
    edges = {(e.src, e.dst, e.kind, e.on, e.latency) for e in dg.edges}
    assert (0, 2, "RAW", "ft0", 2) in edges  # fld -> fmadd: the load latency
    assert (1, 2, "RAW", "ft1", 2) in edges
    assert (2, 3, "RAW", "ft0", 7) in edges  # fmadd -> fsd: the FP multiply-add
    assert (1, 3, "WAR", "mem 0(a0)", 0) in edges
    assert (4, 7, "RAW", "a2", 1) in edges
    path, length = dg.critical_path()
    assert length == 1 + 2 + 7 + 1 and path[-2:] == [2, 3]  # issue, fld, fmadd.d, fsd
    assert simulate(dg.program, "rocket-rv64").cycles == 16  # in order, the addi's queue behind


def test_function_and_loop_cutting():
    funcs = real.functions(KERNELS)
    assert list(funcs) == ["dot", "divide", "poly", "bytes"]
    assert funcs["divide"].splitlines()[0] == "divide:" and "ret" in funcs["divide"]
    assert ".size" not in funcs["poly"] and ".cfi" not in funcs["poly"]
    loop = real.loop_body(KERNELS, "dot")
    assert loop.splitlines()[0] == ".LBB0_1:" and loop.splitlines()[-1].split()[0] == "bnez"
    with pytest.raises(LectureKitError, match="no loop"):
        real.loop_body(KERNELS, "poly")
    with pytest.raises(LectureKitError, match="no function 'nope'"):
        real.function_body(KERNELS, "nope")


# -- presets ----------------------------------------------------------------------------------

#: opcode -> (rocket-rv64, sifive-7-rv64) latency, from llvm-mca 14 -instruction-info
LLVM_LATENCY = {
    "add a0, a1, a2": (1, 3),
    "addi a0, a1, 1": (1, 3),
    "mul a0, a1, a2": (4, 3),
    "div a0, a1, a2": (33, 16),
    "ld a0, 0(a1)": (2, 3),
    "lw a0, 0(a1)": (2, 3),
    "sd a0, 0(a1)": (1, 1),
    "beq a0, a1, .L": (1, 1),
    "fadd.d fa0, fa1, fa2": (6, 7),
    "fmul.d fa0, fa1, fa2": (7, 7),
    "fmadd.d fa0, fa1, fa2, fa3": (7, 7),
}


@pytest.mark.parametrize("k, name", [(0, "rocket-rv64"), (1, "sifive-7-rv64")])
def test_presets_carry_llvm_latencies(k, name):
    m = preset(name)
    for text, lat in LLVM_LATENCY.items():
        ins = parse(text + ("\n.L:" if ".L" in text else ""), notation="riscv")[0]
        assert m.timing(ins.op_class).execute_cycles == lat[k], text
        if ins.dests:  # a dependent ALU op waits exactly the LLVM latency
            assert m.latency("RAW", ins.op_class, "alu") == lat[k]
    assert m.issue_width == (1, 2)[k]
    assert m.timing("div").pipelined is False
    src = (Path(real.__file__).parent.parent / "data" / "machines" / f"{name}.toml").read_text()
    assert "RISCVSched" in src and "llvm-mca" in src  # sources cited


def test_presets_match_llvm_mca_instruction_info():
    need("llvm-mca")
    for k, cpu in enumerate(("rocket-rv64", "sifive-7-rv64")):
        block = "".join(t + "\n" for t in LLVM_LATENCY) + ".L:\n"
        mca = real.run_mca(block, cpu)
        assert mca.latency == [lat[k] for lat in LLVM_LATENCY.values()]


def test_dual_issue_unit_pairs():
    """On the U74 preset exactly LLVM's pairs issue together: two ALU ops, ALU + load,
    load + mul; not two loads, not mul + branch."""
    m = preset("sifive-7-rv64")

    def together(a, b):
        sim = simulate(parse(a + "\n" + b + "\n.L:\n", notation="riscv"), m)
        return sim.issue[0] == sim.issue[1]

    assert together("add a0, a1, a2", "add a3, a4, a5")
    assert together("add a0, a1, a2", "ld a3, 0(a4)")
    assert together("ld a0, 0(a1)", "mul a3, a4, a5")
    assert not together("ld a0, 0(a1)", "sd a3, 0(a4)")
    assert not together("mul a0, a1, a2", "bnez a3, .L")


# -- llvm-mca output and the comparison -------------------------------------------------------


def saved_mca(cpu):
    return real.parse_mca_json((DATA / f"daxpy_loop_{cpu}.json").read_text(), cpu)


def test_mca_json_fixture_parses():
    mca = saved_mca("rocket-rv64")
    assert mca.cycles == 16 and mca.dispatch_width == 1
    assert mca.instructions[2] == "fmadd.d ft0, fa0, ft0, ft1"
    assert mca.latency == [2, 2, 7, 1, 1, 1, 1, 1]
    assert mca.dispatch == [0, 1, 3, 10, 11, 12, 13, 14]
    assert all(
        e == d + lat for d, e, lat in zip(mca.dispatch, mca.executed, mca.latency, strict=True)
    )
    assert saved_mca("sifive-7-rv64").dispatch_width == 2
    with pytest.raises(LectureKitError, match="JSON"):
        real.parse_mca_json("{}")


def test_daxpy_loop_side_by_side_from_saved_mca():
    block = real.loop_body(DAXPY, "daxpy")
    c = real.compare(block, "rocket-rv64", mca=saved_mca("rocket-rv64"))
    assert c.cycles == (16, 16) and c.agree and c.differences() == []
    assert [r["lk_issue"] for r in c.rows()] == [r["mca_issue"] for r in c.rows()]
    c = real.compare(block, "sifive-u74", mca=saved_mca("sifive-7-rv64"))
    assert c.cycles == (16, 15)  # LLVM gives fld 2 cycles on the U74, lw/ld 3
    kinds = {d.kind for d in c.differences()}
    assert kinds == {"latency"}
    assert "fld" in c.differences()[0].detail
    data = c.to_dict()
    assert data["cycles"] == {"lecturekit": 16, "llvm_mca": 15}
    assert json.loads(json.dumps(data)) == data
    sched = c.sim.to_schedule()
    verify(sched.graph, sched)


def test_write_back_order_named_on_the_classic_example():
    """mul then an independent add on Rocket: LLVM holds the add until its result is written
    after the multiply's (cycle 4), the lecture's pipeline lets it go at once."""
    block = "mul a0, a1, a2\nadd a3, a4, a5\n"
    mca = real.McaResult("rocket-rv64", 6, block.splitlines(), [4, 1], [0, 3], [0, 3], [4, 4],
                         [4, 4], 1)  # fmt: skip
    c = real.compare(block, "rocket-rv64", mca=mca)
    assert c.cycles == (5, 6)
    (d,) = c.differences()
    assert (d.index, d.kind) == (1, "write-back order")
    assert not real.coinciding(c)


def test_coinciding_class_agrees_with_llvm_mca_on_random_blocks():
    """Where the two models are meant to coincide (lecturekit.target.real.coinciding: same
    latencies, lecturekit already writes back in order, no WAW or memory-order stall, no pipe
    conflict on the U74), lecturekit's issue cycles and cycles equal llvm-mca's, instruction by
    instruction. Outside the class, every difference has a name, never 'other'."""
    need("llvm-mca")
    for cpu in ("rocket-rv64", "sifive-7-rv64"):
        in_class = 0
        for seed in range(70):
            c = real.compare(real.random_block(seed), cpu)
            kinds = {d.kind for d in c.differences()}
            assert "other" not in kinds, (cpu, seed, c.table())
            assert kinds <= set(real.MODEL_DIFFERENCES)
            if not c.agree:
                assert kinds, (cpu, seed)
            if real.coinciding(c):
                in_class += 1
                assert c.agree, (cpu, seed, c.table())
                assert all(r["lk_issue"] == r["mca_issue"] for r in c.rows()), c.table()
            sched = c.sim.to_schedule()
            verify(sched.graph, sched)
        assert in_class >= 5, (cpu, in_class)


def test_llvm_inorder_rules_reproduce_llvm_mca_on_rocket():
    """lecturekit's latencies plus llvm-mca's in-order rules (write-back in program order, no
    WAW or memory rule) give llvm-mca's dispatch cycles on Rocket, block for block: the named
    differences are the whole difference."""
    need("llvm-mca")
    checked = 0
    for seed in range(60):
        c = real.compare(real.random_block(seed), "rocket-rv64")
        if any(r["mca_latency"] != r["lk_latency"] for r in c.rows()):
            continue
        checked += 1
        assert real.llvm_inorder_issue(c.program, "rocket-rv64") == [
            r["mca_issue"] for r in c.rows()
        ], (seed, c.table())
    assert checked >= 50


def test_llvm_inorder_rules_offline():
    block = real.instructions_only(real.loop_body(DAXPY, "daxpy"))
    mca = saved_mca("rocket-rv64")
    assert real.llvm_inorder_issue(block, "rocket-rv64") == [d + 1 for d in mca.dispatch]
    issue = real.llvm_inorder_issue("mul a0, a1, a2\nadd a3, a4, a5\nadd a6, a3, a3\n")
    assert issue == [1, 4, 5]  # the add waits until it writes back after the mul (cycle 5)


def test_random_blocks_are_deterministic_integer_code():
    a, b = real.random_block(3), real.random_block(3)
    assert a == b and 5 <= len(a.splitlines()) <= 40
    classes = {i.op_class for s in range(30) for i in parse(real.random_block(s))}
    assert classes == {"alu", "load", "store", "mul", "div"}


# -- tools missing ----------------------------------------------------------------------------


def test_missing_tools_say_what_to_install(monkeypatch):
    monkeypatch.setenv("LECTUREKIT_LLVM_MCA", "/nonexistent/llvm-mca")
    with pytest.raises(real.ToolMissingError, match="not an executable"):
        real.find_tool("llvm-mca")
    monkeypatch.delenv("LECTUREKIT_LLVM_MCA")
    monkeypatch.setenv("PATH", "/nonexistent")
    for tool in ("clang", "llvm-mca"):
        with pytest.raises(real.ToolMissingError) as exc:
            real.find_tool(tool)
        msg = str(exc.value)
        assert "apt-get install clang-14 llvm-14" in msg
        assert "brew install llvm" in msg and "conda install -c conda-forge" in msg
    with pytest.raises(real.ToolMissingError, match="gcc-riscv64-linux-gnu"):
        real.compile_gcc("int f(void){return 0;}\n")
    assert real.have("clang") is False


# -- live: clang, GCC, llvm-mca -------------------------------------------------------------


def test_clang_scheduling_and_unrolling_change_the_loop():
    need("clang")
    src = DATA / "daxpy.c"
    plain = real.compile_c(src, schedule=False, unroll=False)
    assert "-fno-unroll-loops" in plain.command and "-enable-misched=false" in plain.command
    rolled = parse(real.instructions_only(plain.loop("daxpy")))
    assert [i.opcode for i in rolled][:4] == ["fld", "fld", "fmadd.d", "fsd"]
    unrolled = real.compile_c(src, schedule=True, unroll=True)
    body = parse(real.instructions_only(unrolled.loop("daxpy")))
    assert len(body) > 3 * len(rolled)  # clang unrolls for the U74
    unsched = real.compile_c(src, schedule=False, unroll=True)
    flat = parse(real.instructions_only(unsched.loop("daxpy")))
    assert sorted(i.opcode for i in flat) == sorted(i.opcode for i in body)
    m = preset("sifive-7-rv64")
    assert simulate(body, m).cycles < simulate(flat, m).cycles  # the scheduler pays off
    with pytest.raises(real.ToolFailedError, match="clang failed"):
        real.compile_c("int f( {\n")


def test_gcc_schedule_flags():
    need("gcc-riscv")
    on = real.compile_gcc(DATA / "daxpy.c", schedule=True)
    off = real.compile_gcc(DATA / "daxpy.c", schedule=False)
    assert "-fschedule-insns" in on.command and "-fno-schedule-insns2" in off.command
    for c in (on, off):
        assert parse(real.instructions_only(c.loop("daxpy")))
    after = real.compile_gcc(DATA / "daxpy.c", schedule="after")
    assert "-fno-schedule-insns" in after.command and "-fschedule-insns2" in after.command
    m = preset("sifive-7-rv64")
    cycles = [simulate(real.instructions_only(c.loop("daxpy")), m).cycles for c in (off, on)]
    assert cycles[1] < cycles[0]  # GCC fills the load latency with the addi's
    with pytest.raises(LectureKitError, match="schedule must be"):
        real.compile_gcc(DATA / "daxpy.c", schedule="sometimes")


def test_mca_live_matches_saved_fixture():
    need("llvm-mca")
    block = real.loop_body(DAXPY, "daxpy")
    for cpu in ("rocket-rv64", "sifive-7-rv64"):
        live = real.run_mca(block, cpu)
        saved = saved_mca(cpu)
        assert (live.cycles, live.dispatch, live.executed) == (
            saved.cycles,
            saved.dispatch,
            saved.executed,
        )
    for bad in ("vsetvli a0, a1, e32\n", "add a0, a1, a2\nvsetvli a0, a1, e32\n"):
        with pytest.raises(real.ToolFailedError, match="llvm-mca (failed|rejected)"):
            real.run_mca(bad, "rocket-rv64")


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_mca_json(capsys):
    need("llvm-mca")
    assert main(["mca", str(DATA / "kernels_u74.s"), "-f", "divide", "--cpu", "sifive-u74",
                 "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["preset"] == "sifive-7-rv64" and data["cpu"] == "sifive-u74"
    assert data["cycles"]["lecturekit"] == data["cycles"]["llvm_mca"] == 24
    assert data["differences"][0]["kind"] == "write-back order"
    assert main(["mca", str(DATA / "kernels_u74.s"), "--block", "loop", "-f", "dot"]) == 0
    assert "rocket-rv64: lecturekit" in capsys.readouterr().out


def test_cli_compile_json(capsys):
    need("clang")
    args = ["compile", str(DATA / "daxpy.c"), "--block", "loop", "--no-unroll", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["assembly"].startswith(".LBB0_1:")
    assert data["schedule"]["cycles"] == 16
    assert {e["kind"] for e in data["deps"]["edges"]} >= {"RAW", "WAR"}
    assert main(["compile", str(DATA / "daxpy.c")]) == 0
    assert "critical path" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, words",
    [
        (["mca", "/nonexistent.s"], "no such file"),
        (["mca", str(DATA / "daxpy.c")], "line 1"),
        (["compile", str(DATA / "kernels_u74.s")], "expected a C file"),
        (["mca", str(DATA / "kernels_u74.s"), "--cpu", "pentium"], "invalid choice"),
        (["mca", str(DATA / "kernels_u74.s"), "-f", "nope"], "no function 'nope'"),
    ],
)
def test_cli_errors_are_one_line_exit_2(args, words, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_cli_help_lists_defaults(capsys):
    for cmd in ("compile", "mca"):
        assert main([cmd, "--help"]) == 0
        out = capsys.readouterr().out
        assert out.count("default") >= 3
