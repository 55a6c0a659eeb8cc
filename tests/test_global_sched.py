"""Global scheduling (lecturekit.regions): every transformation is checked by running the
original and the transformed program on the interpreter, on inputs that take every path, and
comparing memory and the registers live at the exit.

The chapter's example (a hot and a cold arm and a join), random control-flow graphs (chains of
straight blocks, if-else diamonds and if-then triangles whose branches test registers the code
never writes, so that every combination of directions is an input), traces chosen at random,
superblocks, if-conversion (also of a loop body, which chapter 07's software pipelining then
takes), and bad input."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.errors import LectureKitError
from lecturekit.loops import analyze_loop, modulo_schedule
from lecturekit.loops.interp import run, same_effect
from lecturekit.regions import (
    cfg_of,
    if_convert,
    path_cycles,
    same_on_every_path,
    schedule_trace,
    select_trace,
    superblock,
    tail_duplicate,
)
from lecturekit.regions.cfg import RegionError
from lecturekit.regions.ifconvert import merge_chains
from lecturekit.regions.paths import acyclic_paths, edge_profile
from lecturekit.target.machine import preset

#: the chapter's example: x = B[i]; z = x < 0 ? -x : C[i]*a + x; D[i] = z; advance the pointers
EXAMPLE = """
        lw   $t0, 0($s1)
        lw   $t1, 0($s2)
        blt  $t0, $zero, neg
        mul  $t2, $t1, $s0
        add  $t2, $t2, $t0
        j    join
neg:    sub  $t2, $zero, $t0
join:   sw   $t2, 0($s3)
        addi $s1, $s1, 4
        addi $s2, $s2, 4
        addi $s3, $s3, 4
"""
RESULTS = {"s1", "s2", "s3"}


def example_input(x, y):
    return {"s0": 3, "s1": 100, "s2": 200, "s3": 300}, {100: x, 200: y}


EXAMPLE_INPUTS = [example_input(x, y) for x, y in ((5, 2), (-4, 9), (0, 0), (7, -3), (-1, -1))]


def test_the_example_trace_and_superblock():
    cfg = cfg_of(EXAMPLE, live_at_exit=RESULTS)
    profile = edge_profile(EXAMPLE, [example_input(x, 3) for x in [*range(1, 20), -2]])
    trace = select_trace(cfg, profile)
    assert trace == ["B1", "B2", "join"]
    every = set(acyclic_paths(cfg))
    assert len(every) == 2
    for result in (schedule_trace(cfg, trace, "lecture"), superblock(cfg, trace, "lecture")):
        verify(result.schedule.graph, result.schedule)
        problems, paths = same_on_every_path(EXAMPLE, result.program, EXAMPLE_INPUTS, RESULTS)
        assert problems == [] and paths == every, result.kind
        assert "mul  $t2, $t1, $s0" in result.speculated  # hoisted above the branch
        hot_before = path_cycles(EXAMPLE, *example_input(5, 2), "lecture")[0]
        hot_after = path_cycles(result.program, *example_input(5, 2), "lecture")[0]
        assert hot_after < hot_before
    trace_result = schedule_trace(cfg, trace, "lecture")
    assert trace_result.join_copies > 0  # an addi moved above the join: copied onto neg's edge
    sb = superblock(cfg, trace, "lecture")
    assert sb.join_copies == 0 and sb.duplicated == 4  # the join block, copied for neg
    assert sb.growth >= sb.duplicated - 1


# -- random control-flow graphs ----------------------------------------------------------------
def random_cfg(seed: int) -> tuple[str, int]:
    """Code with up to three branches, each testing its own register $c0.. (never written), and
    the number of branches."""
    rng = random.Random(seed)
    regs = ["t0", "t1", "t2", "t3", "t4"]
    labels = itertools.count()
    lines: list[str] = []
    branches = 0

    def ops(k):
        for _ in range(k):
            kind = rng.random()
            d, a, b = (rng.choice(regs) for _ in range(3))
            if kind < 0.15:
                lines.append(f"lw ${d}, {4 * rng.randrange(3)}($s0)")
            elif kind < 0.25:
                lines.append(f"sw ${a}, {4 * rng.randrange(3)}($s1)")
            elif kind < 0.4:
                lines.append(f"mul ${d}, ${a}, ${b}")
            elif kind < 0.55:
                lines.append(f"addi ${d}, ${a}, {rng.randrange(1, 9)}")
            else:
                lines.append(f"{rng.choice(['add', 'sub', 'xor'])} ${d}, ${a}, ${b}")

    ops(rng.randrange(1, 4))
    for _ in range(rng.randrange(1, 4)):
        shape = rng.choice(["diamond", "triangle", "straight"])
        if shape == "straight":
            ops(rng.randrange(1, 3))
            continue
        c = f"c{branches}"
        branches += 1
        test = rng.choice([f"blt ${c}, $zero", f"bne ${c}, $zero", f"beqz ${c},"])
        k = next(labels)
        if shape == "diamond":
            lines.append(f"{test} else{k}".replace(", else", ", else").replace(",,", ","))
            ops(rng.randrange(1, 4))
            lines.append(f"j join{k}")
            lines.append(f"else{k}:")
            ops(rng.randrange(1, 4))
            lines.append(f"join{k}:")
        else:
            lines.append(f"{test} join{k}".replace(",,", ","))
            ops(rng.randrange(1, 4))
            lines.append(f"join{k}:")
        ops(rng.randrange(1, 3))
    lines.append("nop")
    text = "\n".join(
        line.replace("$zero else", "$zero, else").replace("$zero join", "$zero, join")
        for line in lines
    )
    return text, branches


def all_inputs(seed: int, branches: int):
    rng = random.Random(seed)
    base = {f"t{i}": rng.randrange(-20, 20) for i in range(5)} | {"s0": 1000, "s1": 2000}
    mem = {1000 + 4 * i: rng.randrange(50) for i in range(3)}
    out = []
    for bits in itertools.product([-1, 0, 1], repeat=branches):
        regs = dict(base) | {f"c{i}": v for i, v in enumerate(bits)}
        out.append((regs, mem))
    return out


def random_trace(cfg, rng):
    trace = [cfg.entry]
    while True:
        options = [s for s in cfg[trace[-1]].successors if s not in trace]
        if not options:
            return trace
        trace.append(rng.choice(options))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["lecture", "dual"]), st.booleans())
def test_random_traces_and_superblocks_compute_the_same(seed, machine, live_all):
    text, branches = random_cfg(seed)
    results = None if live_all else {"t0", "t1"}
    cfg = cfg_of(text, live_at_exit=results)
    inputs = all_inputs(seed, branches)
    every = set(acyclic_paths(cfg))
    trace = random_trace(cfg, random.Random(seed))
    for result in (schedule_trace(cfg, trace, machine), superblock(cfg, trace, machine)):
        verify(result.schedule.graph, result.schedule)
        problems, paths = same_on_every_path(text, result.program, inputs, results)
        assert problems == [], (result.kind, text, trace, result.cfg.text())
        assert paths == every


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_tail_duplication_leaves_no_side_entrance(seed):
    text, branches = random_cfg(seed)
    cfg = cfg_of(text)
    trace = random_trace(cfg, random.Random(seed))
    dup, copied = tail_duplicate(cfg, trace)
    for a, b in zip(trace, trace[1:], strict=False):
        assert dup.preds(b) == [a]
    problems, _ = same_on_every_path(text, dup.to_program(), all_inputs(seed, branches))
    assert problems == []
    assert (copied > 0) == (dup.size() > cfg.size() or copied > 0)


def test_if_conversion_of_the_example():
    cfg = cfg_of(EXAMPLE, live_at_exit=RESULTS)
    ic = if_convert(cfg, "B1")
    assert ic.shape == "diamond" and ic.join == "join" and ic.selects == ["t2"]
    merged = merge_chains(ic.cfg)
    assert len(merged.blocks) == 1  # one block: no branch left
    problems, paths = same_on_every_path(EXAMPLE, merged.to_program(), EXAMPLE_INPUTS, RESULTS)
    assert problems == [] and len(paths) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_if_conversion_of_random_regions(seed):
    text, branches = random_cfg(seed)
    cfg = cfg_of(text, live_at_exit={"t0", "t1", "t2"})
    heads = [b.name for b in cfg.blocks if b.branch is not None and b.branch.opcode != "j"]
    converted = 0
    for head in heads:
        try:
            cfg = if_convert(cfg, head).cfg
            converted += 1
        except RegionError as exc:
            assert "store" in str(exc) or "load" in str(exc) or "diamond" in str(exc)
    problems, _ = same_on_every_path(
        text, merge_chains(cfg).to_program(), all_inputs(seed, branches), {"t0", "t1", "t2"}
    )
    assert problems == []


ABS_SUM = """
loop:   lw   $t0, 0($s1)
        bge  $t0, $zero, pos
        sub  $t0, $zero, $t0
pos:    add  $s4, $s4, $t0
        addi $s1, $s1, 4
        bne  $s1, $s3, loop
"""


WIDE = preset("dual").with_options(
    name="wide4", issue_width=4, units={"alu": 3, "mem": 1, "mul": 1}
)


@pytest.mark.parametrize("machine", ["dual", "lecture", WIDE], ids=["dual", "lecture", "wide4"])
def test_if_conversion_makes_a_loop_body_one_block_for_software_pipelining(machine):
    """Sum of absolute values: the if splits the body; after if-conversion it is one block,
    and modulo scheduling (chapter 07) produces code that computes the same sum. (On the
    four-issue machine the induction update and the kernel's branch share the last kernel row:
    the kernel was one pass short until lecturekit.loops.codegen counted that.)"""
    cfg = cfg_of(ABS_SUM, live_at_exit={"s4", "s1"})
    with pytest.raises(LectureKitError):
        analyze_loop(ABS_SUM)
    ic = if_convert(cfg, "loop")
    assert ic.shape == "triangle"
    body = merge_chains(ic.cfg)
    assert len([b for b in body.blocks if b.instructions]) == 1
    text = body.text()
    analyze_loop(text)
    result = modulo_schedule(text, machine)
    assert result.code is not None
    for n in (1, 2, 3, 4, 7, 8, 9, 32):
        values = [(-1) ** k * (k % 7) for k in range(n)]
        regs = {"s1": 100, "s3": 100 + 4 * n, "s4": 0}
        mem = {100 + 4 * i: v for i, v in enumerate(values)}
        want = run(ABS_SUM, regs, mem, strict=True)
        assert want.regs["s4"] == sum(abs(v) for v in values)
        got = run(result.code, regs, mem, strict=True)
        assert same_effect(want, got, ["s4", "s1"]) == [], n


def test_bad_input():
    cfg = cfg_of(EXAMPLE)
    with pytest.raises(RegionError, match="no edge"):
        schedule_trace(cfg, ["B1", "join"], "lecture")
    with pytest.raises(RegionError, match="conditional branch"):
        if_convert(cfg, "join")
    with pytest.raises(RegionError, match="RISC-V"):
        cfg_of("addiw a0, a0, 1\n")
    with pytest.raises(RegionError, match="no block"):
        cfg["nowhere"]
    store_arm = EXAMPLE.replace("sub  $t2, $zero, $t0", "sw $t0, 4($s3)")
    with pytest.raises(RegionError, match="store"):
        if_convert(cfg_of(store_arm), "B1")
    assert isinstance(RegionError("x"), LectureKitError)
