"""Dependence analysis against edges derived by hand from the lecture's examples."""

import pytest
from conftest import FOUR_ADDS, SIX_BLOCK, THREE_ADDS

from lecturekit.target.deps import analyze


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
    assert set(d["edges"][0]) == {"src", "dst", "kind", "on", "latency"}
