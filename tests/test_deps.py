"""Dependence analysis against edges derived by hand from the lecture's examples, and against a
textbook reaching-definitions analysis (written here, quadratic and plain) on random blocks."""

import json
from itertools import islice

import pytest
from conftest import FOUR_ADDS, SIX_BLOCK, THREE_ADDS
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.cli import main
from lecturekit.target.deps import analyze, iter_memory_dependences, memory_dependences


def edge_set(dg):
    return {(e.src + 1, e.dst + 1, e.kind, e.on, e.latency) for e in dg.edges}


def test_six_instruction_block_edges_by_hand():
    # 1: t0=t1+t2  2: t1=t0+t1  3: t3=t2+t4  4: t0=t1+t2  5: t5=t3+t4  6: t6=t2+t7
    assert edge_set(analyze(SIX_BLOCK, "lecture")) == {
        (1, 2, "RAW", "t0", 3),  # 2 reads t0 written by 1
        (1, 2, "WAR", "t1", 0),  # 2 overwrites t1, which 1 read
        (1, 4, "WAW", "t0", 1),  # both write t0
        (2, 4, "RAW", "t1", 3),  # 4 reads t1 written by 2
        (2, 4, "WAR", "t0", 0),  # 4 overwrites t0, which 2 read
        (3, 5, "RAW", "t3", 3),
    }


def test_raw_only_from_the_reaching_definition():
    dg = analyze("t0 = t1 + t2\nt0 = t3 + t4\nt5 = t0 + t0")
    assert (1, 3, "RAW", "t0", 3) not in edge_set(dg)
    assert (2, 3, "RAW", "t0", 3) in edge_set(dg)


def test_four_adds_and_independent_adds():
    assert edge_set(analyze(THREE_ADDS)) == set()
    assert edge_set(analyze(FOUR_ADDS)) == {
        (1, 2, "RAW", "t2", 3),
        (3, 4, "RAW", "t7", 3),
        (1, 4, "WAR", "t0", 0),
    }


def test_memory_same_base_different_offsets_do_not_alias():
    dg = analyze("sw $t0, 0($s1)\nlw $t1, 4($s1)\nlw $t2, 0($s1)\nsw $t3, 0($s2)")
    kinds = {(e.src + 1, e.dst + 1, e.kind) for e in dg.edges if e.on.startswith("mem")}
    assert (1, 2, "RAW") not in kinds  # 0($s1) vs 4($s1)
    assert (1, 3, "RAW") in kinds  # same word
    assert (1, 4, "WAW") in kinds  # different bases may alias
    assert (3, 4, "WAR") in kinds and (2, 4, "WAR") in kinds


def test_redefined_base_may_alias():
    dg = analyze("sw $t0, 0($s1)\naddi $s1, $s1, 4\nlw $t1, 4($s1)")
    assert any(e.kind == "RAW" and e.on.startswith("mem") for e in dg.edges)


def test_branch_stays_last():
    dg = analyze("add $t0, $t1, $t2\nadd $t3, $t4, $t5\nbne $t0, $t6, L\nL: nop")
    ctrl = {(e.src + 1, e.dst + 1) for e in dg.edges if e.kind == "CTRL"}
    assert (2, 3) in ctrl and (3, 4) in ctrl
    assert all(e.latency == 0 for e in dg.edges if e.kind == "CTRL")
    assert (1, 3) not in ctrl  # already ordered by RAW on t0


def test_reduction_drops_implied_pairs_only():
    dg = analyze("t0 = t1 + t2\nt3 = t0 + t1\nt4 = t3 + t0")
    pairs = {(e.src, e.dst) for e in dg.reduction()}
    assert pairs == {(0, 1), (1, 2)}
    assert {(e.src, e.dst) for e in dg.edges} == {(0, 1), (1, 2), (0, 2)}


def test_critical_path_of_the_six_block_is_ten():
    path, length = analyze(SIX_BLOCK, "lecture").critical_path()
    assert path == [0, 1, 3] and length == 10


@pytest.mark.parametrize("machine", ["lecture", "classic5", "dual"])
def test_json_contract_fields(machine):
    d = analyze("lw $t0, 0($s1)\nadd $t1, $t0, $t2", machine).to_dict()
    assert set(d) == {"machine", "instructions", "edges"}
    assert set(d["machine"]) == {"name", "issue_width", "units"}
    assert d["instructions"][0] == {
        "index": 0,
        "text": "lw $t0, 0($s1)",
        "unit": d["instructions"][0]["unit"],
    }
    assert set(d["edges"][0]) == {"src", "dst", "kind", "on", "latency", "alias", "via"}
    assert d["edges"][0]["alias"] is None and d["edges"][0]["via"] is None  # a register RAW


# -- complete lists: a store that only may alias kills nothing ------------------------------------
ISSUE_30 = "sw $t2, 0($s1)\nsw $t0, 16($s0)\nlw $t6, 0($s1)"


def test_a_may_alias_store_between_does_not_hide_the_dependence():
    # the load reads exactly what I1 stored unless $s0 + 16 == $s1: I1 -> I3 is a RAW (must
    # alias); the scheduler's graph orders it through I2 (WAW 1 + RAW 1 >= RAW 1)
    dg = analyze(ISSUE_30, "lecture")
    listed = {(e.src + 1, e.dst + 1, e.kind, e.alias, e.via) for e in dg.edges}
    assert listed == {
        (1, 2, "WAW", "may", None),
        (2, 3, "RAW", "may", None),
        (1, 3, "RAW", "must", 1),
    }
    assert {(e.src, e.dst) for e in dg.graph.edges} == {(0, 1), (1, 2)}
    assert [(e.src, e.dst) for e in dg.implied()] == [(0, 2)]


def test_cli_and_json_list_the_pair_ordered_through_a_store(capsys, tmp_path):
    path = tmp_path / "b.s"
    path.write_text(ISSUE_30)
    assert main(["deps", str(path), "--json"]) == 0
    edges = json.loads(capsys.readouterr().out)["edges"]
    assert {"src": 0, "dst": 2, "kind": "RAW", "on": "mem 0($s1)", "latency": 1,
            "alias": "must", "via": 1} in edges  # fmt: skip
    assert main(["deps", str(path)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("I1    I3"))
    assert row.split() == ["I1", "I3", "RAW", "mem", "0($s1)", "must", "1", "implied", "via", "I2"]
    assert "3 dependences (1 ordered through a store between" in out


def test_a_certain_overwrite_kills_the_earlier_store():
    # I2 overwrites every byte I1 wrote (same base, same offset): I1 reaches nothing after it
    dg = analyze("sw $t0, 0($s1)\nsw $t1, 0($s1)\nlw $t2, 0($s1)\nlw $t3, 0($s0)", "lecture")
    assert {(e.src + 1, e.dst + 1, e.kind, e.alias) for e in dg.edges} == {
        (1, 2, "WAW", "must"),
        (2, 3, "RAW", "must"),
        (2, 4, "RAW", "may"),
    }


def test_riscv_a_narrow_store_does_not_kill_a_wide_one():
    # sb overwrites one of sd's eight bytes: the ld still reads seven bytes sd wrote
    dg = analyze(
        "sd t0, 0(s1)\nsb t1, 2(s1)\nld t2, 0(s1)\nsd t3, 0(s1)\nlw t4, 4(s1)", "rocket-rv64"
    )
    mem = {
        (e.src + 1, e.dst + 1, e.kind, e.alias, None if e.via is None else e.via + 1)
        for e in dg.edges
        if e.alias
    }
    assert (1, 3, "RAW", "must", 2) in mem and (2, 3, "RAW", "must", None) in mem
    # I4 (sd 0..7) covers I1, I2 and I3's bytes: only I4 reaches the lw
    assert {(s, d) for s, d, *_ in mem if d == 5} == {(4, 5)}


# the textbook analysis, written from its definition: pairs, not the library's bookkeeping
def _same_value(program, i, j):
    a, b = program[i].mem, program[j].mem
    return a.base == b.base and not any(a.base in program[k].writes() for k in range(i, j))


def _bytes(m):
    return set(range(m.offset, m.offset + m.size)) if m.size is not None else {("word", m.offset)}


def _may(program, i, j):
    a, b = program[i].mem, program[j].mem
    return not _same_value(program, i, j) or bool(_bytes(a) & _bytes(b))


def _certainly_overwrites(program, k, i):
    return _same_value(program, i, k) and _bytes(program[i].mem) <= _bytes(program[k].mem)


def textbook_dependences(program):
    """(src, dst, kind, what, alias): registers by reaching definitions (a value dies at the next
    write of its register, a read's too at its own instruction's write), memory the same with
    "write" meaning a store that certainly overwrites every byte (same base and value, covering
    offsets); a store that may alias kills nothing."""
    out = set()
    n = len(program)
    for j in range(n):
        for i in range(j):
            a, b = program[i], program[j]
            for r in set(a.writes()) | set(a.reads()):
                between = any(r in program[k].writes() for k in range(i + 1, j))
                if between:
                    continue
                if r in a.writes() and r in b.reads():
                    out.add((i, j, "RAW", r, ""))
                if r in a.writes() and r in b.writes():
                    out.add((i, j, "WAW", r, ""))
                if r in a.reads() and r not in a.writes() and r in b.writes():
                    out.add((i, j, "WAR", r, ""))
            if a.mem is None or b.mem is None or not (a.is_store or b.is_store):
                continue
            if not _may(program, i, j):
                continue
            if any(program[k].is_store and _certainly_overwrites(program, k, i)
                   for k in range(i + 1, j)):  # fmt: skip
                continue
            kind = "WAW" if a.is_store and b.is_store else "RAW" if a.is_store else "WAR"
            out.add((i, j, kind, "mem", "may" if not _same_value(program, i, j) else "must"))
    return out


def listed(dg):
    return {
        (e.src, e.dst, e.kind, "mem" if e.on.startswith("mem") else e.on, e.alias)
        for e in dg.edges
        if e.kind != "CTRL"
    }


@st.composite
def blocks(draw):
    """MIPS blocks with loads and stores through three bases that are sometimes redefined, or
    RISC-V blocks with accesses of 1, 2, 4 and 8 bytes at byte offsets (partial overlaps)."""
    riscv = draw(st.booleans())
    lines = []
    for _ in range(draw(st.integers(1, 14))):
        what = draw(st.sampled_from(["load", "store", "store", "base", "alu"]))
        t = [draw(st.integers(0, 3)) for _ in range(3)]
        base = draw(st.sampled_from(["s0", "s1", "s2"]))
        if riscv:
            off = draw(st.integers(0, 12))
            if what == "load":
                lines.append(
                    f"{draw(st.sampled_from(['lb', 'lh', 'lw', 'ld']))} t{t[0]}, {off}({base})"
                )
            elif what == "store":
                lines.append(
                    f"{draw(st.sampled_from(['sb', 'sh', 'sw', 'sd']))} t{t[0]}, {off}({base})"
                )
            elif what == "base":
                lines.append(f"addi {base}, {base}, 8")
            else:
                lines.append(f"add t{t[0]}, t{t[1]}, t{t[2]}")
        else:
            off = 4 * draw(st.integers(0, 3))
            if what == "load":
                lines.append(f"lw $t{t[0]}, {off}(${base})")
            elif what == "store":
                lines.append(f"sw $t{t[0]}, {off}(${base})")
            elif what == "base":
                lines.append(f"addi ${base}, ${base}, 4")
            else:
                lines.append(f"add $t{t[0]}, $t{t[1]}, $t{t[2]}")
    return ("rocket-rv64" if riscv else "lecture"), "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(blocks())
def test_every_dependence_of_a_textbook_reaching_definitions_analysis_is_listed(block):
    machine, text = block
    program = parse(text)
    assert listed(analyze(program, machine)) == textbook_dependences(program), text


def _longest(graph, src, dst):
    best = {src: 0}
    for v in range(src + 1, dst + 1):
        ins = [best[e.src] + e.latency for e in graph.preds(v) if e.src in best]
        if ins:
            best[v] = max(ins)
    return best.get(dst)


@settings(max_examples=150, deadline=None)
@given(blocks(), st.sampled_from(["lecture", "classic5", "dual"]))
def test_a_pair_left_out_of_the_graph_is_ordered_through_its_store(block, machine):
    # so a schedule of the scheduler's graph meets every listed dependence's latency
    notation, text = block
    program = parse(text)
    dg = analyze(program, "rocket-rv64" if notation == "rocket-rv64" else machine)
    in_graph = {(e.src, e.dst, e.kind, e.on) for e in dg.graph.edges}
    for e in dg.edges:
        if e.via is None:
            assert (e.src, e.dst, e.kind, e.on) in in_graph
            continue
        assert (e.src, e.dst, e.kind, e.on) not in in_graph
        k = e.via
        assert e.src < k < e.dst and program[k].is_store
        assert _may(program, e.src, k) and _may(program, k, e.dst)
        assert _longest(dg.graph, e.src, e.dst) >= e.latency, (text, e)
    assert sorted(dg.edges, key=lambda e: (e.dst, e.src, e.kind, e.on)) == list(dg.iter_edges())
    fast = memory_dependences(program, complete=False)
    assert fast == [p for p in memory_dependences(program) if p.via is None]


def test_a_quadratic_list_is_built_only_when_read():
    # every store through a freshly redefined base: each pair may alias, none is killed
    text = "\n".join(f"addi $s1, $s1, 4\nsw $t{k % 5}, 0($s1)" for k in range(1500))
    dg = analyze(text, "lecture")
    stores = len(dg.graph.edges)  # near-linear: the chain of stores and base updates
    assert stores < 10 * 3000
    assert dg._edges is None  # analyze built the graph only
    first = list(islice(dg.iter_edges(), 200))  # by destination, as the CLI prints a long block
    assert [(e.dst, e.src) for e in first] == sorted((e.dst, e.src) for e in first)
    assert any(e.via is not None for e in first)
    assert sum(1 for _ in islice(iter_memory_dependences(parse(text)), 5000)) == 5000
