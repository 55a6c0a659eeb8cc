"""Register pressure: MaxLive counted two ways (a sweep over the intervals, the largest clique of
the interval graph, and the registers a left-edge allocation uses), and over a modulo schedule
(per kernel row, and on many iterations laid out one II apart); the register budget of the list
scheduler; register allocation with spill code, correct on the interpreter, with spill code
exactly when MaxLive exceeds the registers; prepass, postpass and integrated on the lecture's
block."""

import random

import networkx as nx
import pytest
from conftest import SIX_BLOCK
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.asm.random_blocks import random_block
from lecturekit.core import verify
from lecturekit.core.list_sched import list_schedule
from lecturekit.core.pressure import (
    RegisterBudget,
    Value,
    assign_registers,
    live_intervals,
    live_per_row,
    max_live,
)
from lecturekit.errors import LectureKitError, ScheduleError
from lecturekit.loops import modulo_schedule
from lecturekit.loops.examples import example
from lecturekit.loops.interp import run
from lecturekit.loops.pressure import flat_max_live, kernel_pressure
from lecturekit.target.deps import analyze
from lecturekit.target.regalloc import (
    AllocationError,
    allocate,
    block_max_live,
    check_allocation,
    compare_strategies,
    integrated,
    rename,
    values_of,
)

OPS = ["add", "sub", "mul", "addi", "lw", "sw"]


def block(seed, size=None):
    rng = random.Random(seed)
    return random_block(
        rng, size=size or rng.randrange(1, 14), registers=rng.randrange(2, 8), opcodes=OPS
    )


def state(seed):
    rng = random.Random(seed)
    regs = {f"t{i}": rng.randrange(-50, 50) for i in range(8)} | {"s0": 1000, "s1": 2000}
    mem = {b + o: rng.randrange(100) for b in (1000, 2000) for o in (0, 4, 8)}
    return regs, mem


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 8)), max_size=14))
def test_max_live_three_ways(pairs):
    intervals = [(a, a + length) for a, length in pairs]
    sweep = max_live(intervals)
    g = nx.Graph()
    g.add_nodes_from(range(len(intervals)))
    g.add_edges_from(
        (i, j)
        for i in range(len(intervals))
        for j in range(i + 1, len(intervals))
        if intervals[i][0] < intervals[j][1] and intervals[j][0] < intervals[i][1]
    )
    clique = max((len(c) for c in nx.find_cliques(g)), default=0)
    registers = assign_registers(intervals)
    assert sweep == clique == (max(registers) + 1 if registers else 0)
    for i in range(len(intervals)):  # and the assignment is a proper one
        for j in g.neighbors(i):
            assert registers[i] != registers[j]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 12)), max_size=10), st.integers(1, 6))
def test_modulo_max_live_by_rows_and_by_unrolling(pairs, ii):
    intervals = [(a, a + length) for a, length in pairs]
    rows = live_per_row(intervals, ii)
    flat = [(a + k * ii, b + k * ii) for k in range(100) for a, b in intervals]
    steady = [sum(1 for a, b in flat if a <= t < b) for t in range(45, 45 + ii)]
    assert sorted(rows) == sorted(steady)
    assert max_live(intervals, ii) == max(steady, default=0)


@pytest.mark.parametrize("name", ["saxpy_loop", "running_sum", "prefix_product"])
@pytest.mark.parametrize("machine", ["dual", "lecture", "hp-fp"])
def test_kernel_pressure_of_the_example_loops(name, machine):
    r = modulo_schedule(example(name), machine)
    k = kernel_pressure(r)
    assert k.max_live == flat_max_live(r) + len(k.invariants)
    assert k.max_live >= -(-sum(b - a for a, b in k.intervals) // r.ii) + len(k.invariants)
    assert k.mve_registers >= k.max_live  # expansion never needs fewer than MaxLive


def test_the_six_instruction_block():
    """Live-ins t1 t2 t4 t7; every value the block leaves live at the end: 6 at once in
    program order (before the last instruction: t2 t4 t7 t0' t1' t3... see the intervals)."""
    values = values_of(SIX_BLOCK)
    assert [v.name for v in values if v.definition is None] == ["t1", "t2", "t4", "t7"]
    assert block_max_live(SIX_BLOCK) == 6
    assert block_max_live(SIX_BLOCK, [0, 2, 5, 1, 4, 3]) == 6
    only_t0 = block_max_live(SIX_BLOCK, live_out={"t0"})
    assert only_t0 < 6


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 7))
def test_allocation_is_correct_and_spills_exactly_when_needed(seed, k):
    p = block(seed)
    a = allocate(p, k)
    regs, mem = state(seed)
    assert check_allocation(p, a, regs, mem, run=run) == []
    assert (a.spill_instructions > 0) == (a.max_live > k)
    assert a.max_live == block_max_live(p)
    names = {r for ins in a.program for r in (*ins.reads(), *ins.writes())}
    assert names <= set(a.registers) | {"sp"}  # only the K registers and the spill base


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 7), st.sampled_from(["lecture", "dual"]))
def test_the_budget_counts_what_the_intervals_count(seed, k, machine):
    """The list scheduler's running count of live values (RegisterBudget) and MaxLive of the
    order it chose (the intervals) are the same number; every schedule is verified."""
    renamed, _last = rename(block(seed))
    values = values_of(renamed)
    budget = RegisterBudget(values, k)
    g = analyze(renamed, machine).graph
    s = list_schedule(g, "height", registers=budget)
    verify(g, s)
    position = [0] * len(s.order)
    for p, i in enumerate(s.order):
        position[i] = p
    assert s.info["max_live"] == max_live(live_intervals(values, position, end=len(position)))
    if not s.info["over_budget"]:  # only the live-ins may start above the budget
        live_ins = sum(1 for v in values if v.definition is None)
        assert s.info["max_live"] <= max(k, live_ins)


def test_the_strategies_on_the_lecture_block():
    """With five registers: prepass spills (its schedule keeps six values alive), postpass pins
    the order with reused registers, the register-aware scheduler needs no spill and is fastest.
    With six registers no strategy spills, and prepass reaches the optimum 10 cycles."""
    five = {s.name: s for s in compare_strategies(SIX_BLOCK, 5, "lecture")}
    assert five["prepass"].spills > 0 and five["integrated"].spills == 0
    assert five["integrated"].cycles < min(five["prepass"].cycles, five["postpass"].cycles)
    six = {s.name: s for s in compare_strategies(SIX_BLOCK, 6, "lecture")}
    assert all(s.spills == 0 for s in six.values())
    assert six["prepass"].cycles == 10 < six["postpass"].cycles
    regs, mem = state(1)
    for s in [*five.values(), *six.values()]:
        assert check_allocation(SIX_BLOCK, s.allocation, regs, mem, run=run) == [], s.name


def test_integrated_results_run_on_random_blocks():
    for seed in range(30):
        p = block(seed)
        if not len(p):
            continue
        s = integrated(p, 3, "lecture")
        regs, mem = state(seed)
        assert check_allocation(p, s.allocation, regs, mem, run=run) == []


def test_bad_input():
    with pytest.raises(AllocationError, match="at least 2"):
        allocate(SIX_BLOCK, 1)
    with pytest.raises(AllocationError, match="branch"):
        allocate("add $t0, $t1, $t2\nbne $t0, $t1, done\ndone: nop", 3)
    with pytest.raises(AllocationError, match="spill area"):
        allocate("add $sp, $t1, $t2", 3)
    with pytest.raises(ScheduleError, match="budget"):
        RegisterBudget([], 0)
    with pytest.raises(ScheduleError, match="does not exist"):
        live_intervals([Value("x", 5)], [1, 2])
    assert isinstance(AllocationError("x"), LectureKitError)
    assert parse("add $t0, $t1, $t2")  # the notation the allocator writes reads back
