"""Lower bounds: the lecture's numbers, hand-made cases, and every bound below the brute-force
optimum on random small blocks."""

import random

import pytest
from conftest import SIX_BLOCK
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lecturekit.asm.random_blocks import random_block
from lecturekit.core import Edge, Graph, Operation, Reservation, Schedule, evaluate, verify
from lecturekit.core.bounds import (
    ISSUE,
    _Transportation,
    alap,
    asap,
    bounds,
    critical_path_bound,
    flow_assignment,
    flow_feasible,
    heads_and_tails,
    heights,
    issue_width_bound,
    jackson_bound,
    lower_bound,
    relaxed_bounds,
    schedule_in_windows,
    shave_windows,
    strong_lower_bound,
    unit_bounds,
)
from lecturekit.core.search_space import brute_force_optimal
from lecturekit.target.deps import analyze


def test_six_block_critical_path_is_ten():
    dg = analyze(SIX_BLOCK, "lecture")
    assert critical_path_bound(dg) == 10 == dg.critical_path()[1]
    assert lower_bound(dg.graph) == 10
    b = bounds(dg.graph)
    assert b["critical_path"] == 10
    assert b["issue_width"] == 9  # 6 issues from cycle 2: last issue 7, + tail 2
    assert b["unit:alu"] == 9
    assert b["relaxed:issue"] == 10


def test_the_slides_node_numbers():
    g = analyze(SIX_BLOCK, "lecture").graph
    # the slide writes earliest starts (0, 3, 6 along t0 -> t1 -> t0; 3 on t5), counted from 0
    assert [a - g.earliest for a in asap(g)] == [0, 3, 0, 6, 3, 0]
    # heights along the "+3" edges, without and with the 2-cycle tail of an add
    assert heights(g, tails=False) == [6, 3, 3, 0, 0, 0]
    assert heights(g) == [8, 5, 5, 2, 2, 2]
    assert alap(g) == [10 - h for h in heights(g)]
    assert alap(g, 12) == [12 - h for h in heights(g)]


def test_jackson_rule_by_hand():
    # one slot per cycle: the tail-5 job first (0+5), then the others at 1 and 2 (2+1)
    assert jackson_bound([(0, 1), (0, 5), (0, 1)], 1) == 5
    assert jackson_bound([(0, 3), (0, 3), (0, 3)], 1) == 5
    assert jackson_bound([(0, 3), (0, 3), (0, 3)], 3) == 3
    assert jackson_bound([(0, 3), (0, 3)], 1, busy={0: 1}) == 5  # cycle 0 already taken
    assert jackson_bound([(4, 1)], 1) == 5  # waits for its release
    assert jackson_bound([], 1) is None


def fan_out():
    """R feeds P and Q (latency 1); P and Q have long tails; one issue per cycle."""
    ops = [
        Operation("R", reservations=(Reservation("u", 0, 1),), tail=1),
        Operation("P", reservations=(Reservation("u", 0, 1),), tail=4),
        Operation("Q", reservations=(Reservation("u", 0, 1),), tail=4),
    ]
    return Graph(ops, [Edge(0, 1, 1), Edge(0, 2, 1)], units={"u": 1}, issue_width=1)


def test_relaxed_bound_beats_the_simple_ones():
    g = fan_out()
    b = bounds(g)
    assert b["critical_path"] == 6  # R at 1, P at 2, finishes 6
    assert b["issue_width"] == 4
    assert b["relaxed:issue"] == 7  # P and Q cannot both issue in cycle 2
    assert lower_bound(g) == 7


def test_unlimited_width_and_empty_graph():
    g = Graph([Operation("a", tail=2), Operation("b", tail=1)], [Edge(0, 1, 3)])
    assert issue_width_bound(g) is None
    assert bounds(g) == {"critical_path": 5}
    assert relaxed_bounds(g) == {}
    assert unit_bounds(g) == {}
    assert lower_bound(Graph([])) == 0


def test_heads_and_tails_without_issue_width_or_units_are_the_latencies_alone():
    """No issue slots and no unit to count: the resource-constrained heads and tails are asap
    and heights, and the strong bound is the critical path (it used to raise a TypeError)."""
    g = Graph(
        [Operation("a", tail=2), Operation("b", tail=1), Operation("c", tail=1)],
        [Edge(0, 1, 3), Edge(0, 2, 1), Edge(2, 1, 1)],
    )
    assert heads_and_tails(g) == (asap(g), heights(g))
    assert strong_lower_bound(g) == critical_path_bound(g) == 5


def test_unit_bound_counts_non_pipelined_cycles():
    # three multiplies on the lecture machine hold the single ALU 3 cycles each
    g = analyze("mul $t0, $t1, $t2\nmul $t3, $t4, $t5\nmul $t6, $t7, $t8", "lecture").graph
    b = bounds(g)
    # ALU first used in cycle 3, busy 9 cycles (3..11), then the RW stage: cycle 12
    assert b["unit:alu"] == 12
    assert lower_bound(g) == 12


OPCODES = ["add", "sub", "mul", "div", "lw", "sw", "addi"]

CASES = [(seed, m) for seed in range(40) for m in ("lecture", "classic5", "dual")]


@pytest.mark.parametrize("seed, machine", CASES)
def test_every_bound_is_below_the_optimum(seed, machine):
    rng = random.Random(seed)
    prog = random_block(rng, size=rng.randint(2, 6), opcodes=["add", "mul", "lw", "sw", "div"])
    g = analyze(prog, machine).graph
    _order, best = brute_force_optimal(g)
    b = bounds(g)
    assert all(v <= best for v in b.values()), (b, best)
    for name, value in b.items():  # the relaxed bounds dominate the counting ones
        if name == "issue_width":
            assert b["relaxed:issue"] >= value
        if name.startswith("unit:"):
            assert b["relaxed:" + name[5:]] >= value


# --- resource-constrained heads and tails (issue 17, engine="optsched") ---


def test_heads_and_tails_see_the_single_alu():
    # four independent adds feed two adds that feed one on the lecture machine: one issue per
    # cycle, so the last input issues 3 cycles after the first, and two RAW latencies of 3 follow
    prog = "add $t0, $t1, $t2\nadd $t3, $t1, $t2\nadd $t4, $t1, $t2\nadd $t5, $t1, $t2\n"
    g = analyze(prog + "add $t6, $t0, $t3\nadd $t7, $t4, $t5\nadd $t8, $t6, $t7", "lecture").graph
    head, tail = heads_and_tails(g)
    est, height = asap(g), heights(g)
    assert all(h >= a for h, a in zip(head, est, strict=True))
    assert all(t >= q for t, q in zip(tail, height, strict=True))
    assert est[6] == g.earliest + 6  # latency alone: two levels of RAW 3
    assert head[6] == g.earliest + 3 + 3 + 3  # heights and asap alone cannot see it
    assert strong_lower_bound(g) >= critical_path_bound(g)
    assert strong_lower_bound(g) == brute_force_optimal(g)[1]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 7),
    machine=st.sampled_from(["lecture", "classic5", "dual"]),
    registers=st.integers(3, 32),
)
def test_heads_tails_and_the_strong_bound_never_exceed_the_optimum(seed, size, machine, registers):
    prog = random_block(seed, size=size, registers=registers, opcodes=OPCODES)
    g = analyze(prog, machine).graph
    order, best = brute_force_optimal(g)
    s = evaluate(g, order)  # an optimal schedule: no head above its issue cycle, no tail too long
    head, tail = heads_and_tails(g)
    assert all(head[j] <= s.start[j] for j in range(len(g.ops)))
    assert all(s.start[j] + tail[j] <= best for j in range(len(g.ops)))
    assert lower_bound(g) <= strong_lower_bound(g) <= best
    assert flow_feasible(g, head, tail, best)  # the relaxation never rules out the optimum


def two_full_cycles():
    """Issue width 2, units A, B, C of capacity 1: a and c must issue in cycle 0 to end by
    cycle 2, and both b's by cycle 1, but they share unit B."""
    ops = [
        Operation(name, reservations=(Reservation(unit, 0, 1),), tail=tail)
        for name, unit, tail in (("a", "A", 2), ("c", "C", 2), ("b1", "B", 1), ("b2", "B", 1))
    ]
    return Graph(ops, [], units={"A": 1, "B": 1, "C": 1}, issue_width=2)


def test_flow_sees_what_one_resource_at_a_time_cannot():
    g = two_full_cycles()
    e = g.earliest  # the first issue cycle
    head, tail = heads_and_tails(g)
    assert strong_lower_bound(g) == e + 2  # every one-resource bound is met by some placement
    assert not flow_feasible(g, head, tail, e + 2)  # but no placement meets them all at once
    assert flow_feasible(g, head, tail, e + 3)
    assert flow_feasible(g, head, tail, e + 2, ops=[0, 2]) and not flow_feasible(g, head, tail, e)
    assert brute_force_optimal(g)[1] == e + 3


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 8),
    registers=st.integers(3, 32),
    cut=st.integers(0, 8),
)
def test_flow_with_busy_slots_never_rules_out_the_rest_of_an_optimum(seed, size, registers, cut):
    # the search's question at a node: an optimal schedule, split after its first ``cut``
    # operations (by issue cycle); the rest, released no earlier than the last issue cycle of
    # the first part, must still fit around the slots the first part holds
    g = analyze(random_block(seed, size=size, registers=registers, opcodes=OPCODES), "dual").graph
    order, best = brute_force_optimal(g)
    s = evaluate(g, order)
    first, rest = order[:cut], order[cut:]
    busy = {ISSUE: {}}
    for j in first:
        busy[ISSUE][s.start[j]] = busy[ISSUE].get(s.start[j], 0) + 1
        for r in g.ops[j].reservations:
            use = busy.setdefault(r.unit, {})
            for c in range(s.start[j] + r.offset, s.start[j] + r.offset + r.cycles):
                use[c] = use.get(c, 0) + 1
    head, tail = heads_and_tails(g)
    last = max((s.start[j] for j in first), default=g.earliest)
    release = [max(h, last) for h in head]
    assert flow_feasible(g, release, tail, best, rest, busy)


def test_flow_counts_the_slots_already_taken():
    g = two_full_cycles()
    e = g.earliest
    head, tail = heads_and_tails(g)
    # a and c issued together in cycle e: the two b's fit in cycles e + 1 and e + 2 ...
    taken = {ISSUE: {e: 2}, "A": {e: 1}, "C": {e: 1}}
    assert flow_feasible(g, head, tail, e + 3, [2, 3], taken)
    # ... but not when one b must be done by e + 1 (tail 1, end e + 2) and cycle e is full
    assert not flow_feasible(g, head, tail, e + 2, [2, 3], taken)
    assert flow_feasible(g, head, tail, e + 2, [2, 3])  # without the taken slots it would fit
    # a unit slot taken counts too: B busy in cycle e + 1 leaves the b's only cycle e
    assert not flow_feasible(g, head, tail, e + 2, [2, 3], {"B": {e + 1: 1}})


def _witness_fits(g, head, tail, target, cycle, ops=None, busy=None):
    """Whether ``cycle`` (a flow_assignment witness) places every operation asked about in its
    window, within the free issue slots and the free places of each unit."""
    busy = busy or {}
    todo = range(len(g.ops)) if ops is None else ops
    if set(cycle) != set(todo):
        return False
    issued, used = {}, {}
    for j, t in cycle.items():
        if not head[j] <= t <= target - tail[j]:
            return False
        issued[t] = issued.get(t, 0) + 1
        if len(g.ops[j].reservations) == 1:
            r = g.ops[j].reservations[0]
            used[(r.unit, t + r.offset)] = used.get((r.unit, t + r.offset), 0) + 1
    return all(
        k + busy.get(ISSUE, {}).get(t, 0) <= g.issue_width for t, k in issued.items()
    ) and all(k + busy.get(u, {}).get(c, 0) <= g.units[u] for (u, c), k in used.items())


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(4, 40),
    registers=st.integers(3, 32),
    shift=st.integers(-2, 3),
    moved=st.integers(0, 5),
)
def test_flow_witness_fits_and_a_kept_flow_changes_no_answer(seed, size, registers, shift, moved):
    g = analyze(random_block(seed, size=size, registers=registers, opcodes=OPCODES), "dual").graph
    head, tail = heads_and_tails(g)
    target = strong_lower_bound(g) + shift
    cold = flow_assignment(g, head, tail, target)
    assert (cold is not None) == flow_feasible(g, head, tail, target)
    if cold is None:
        return
    assert _witness_fits(g, head, tail, target, cold)
    # narrower windows asked of the flow kept from the first question, as shaving asks them
    n = len(g.ops)
    flow = _Transportation(g, list(range(n)), None)
    first, last = list(head), [target - q for q in tail]
    assert flow.solve(first, last)
    rng = random.Random(seed)
    for _round in range(3):
        changed = rng.sample(range(n), min(moved, n))
        for j in changed:  # narrower or wider: the kept flow must follow either way
            first[j] += rng.randint(-1, 2)
        kept = flow.solve(first, last)
        fresh = flow_assignment(g, first, [target - b for b in last], target)
        assert kept == (fresh is not None)
        if kept:
            assert _witness_fits(g, first, [target - b for b in last], target, flow.where)


# --- destructive lower bounding (issue 30, item 3) ---


def test_shaving_sees_what_the_flow_alone_cannot():
    # the flow without precedence fits a and b into the two slots of cycle e; but b reads a
    # (latency 1), so one of them is one cycle later, and the chain a -> b -> c of latencies
    # 1 and 1 ends only at e + 3, while with the bound e + 2 the windows of a, b, c are
    # {e}, {e .. e + 1}, {e + 1}: pinning b to e leaves a no cycle, pinning b to e + 1 leaves
    # c none
    ops = [Operation(x, reservations=(Reservation("A", 0, 1),), tail=1) for x in "abc"]
    g = Graph(ops, [Edge(0, 1, 1), Edge(1, 2, 1)], units={"A": 2}, issue_width=2)
    e = g.earliest
    head, tail = heads_and_tails(g)
    assert brute_force_optimal(g)[1] == e + 3
    windows = shave_windows(g, head, tail, e + 3)
    assert windows is not None and windows == ([e, e + 1, e + 2], [e, e + 1, e + 2])
    assert shave_windows(g, head, tail, e + 2) is None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 8),
    registers=st.integers(3, 32),
    machine=st.sampled_from(["dual", "lecture"]),
)
def test_shaving_never_refutes_the_optimum_and_keeps_an_optimal_schedule(
    seed, size, registers, machine
):
    g = analyze(random_block(seed, size=size, registers=registers, opcodes=OPCODES), machine).graph
    order, best = brute_force_optimal(g)
    s = evaluate(g, order)
    head, tail = heads_and_tails(g)
    windows = shave_windows(g, head, tail, best)
    assert windows is not None  # the optimum ends by ``best``: no window may empty
    first, last = windows
    assert all(first[j] <= s.start[j] <= last[j] for j in range(len(g.ops)))
    for target in range(best - 3, best):  # below the optimum it may refute or not, never err
        shave_windows(g, head, tail, target)


@pytest.mark.parametrize("seed", range(12))
def test_shaving_on_larger_dual_blocks_agrees_with_the_classic_search(seed):
    # 20 to 30 instructions: the classic engine (no shaving) proves the optimum; the windows at
    # it must hold that schedule (they hold every schedule ending by then)
    from lecturekit.core.optimal import optimal_schedule

    rng = random.Random(seed)
    prog = random_block(rng, size=rng.randint(20, 30), registers=rng.choice((8, 32)))
    g = analyze(prog, "dual").graph
    best = optimal_schedule(g, engine="classic", time_limit=None, node_limit=200_000)
    assert best.info["proven_optimal"]
    head, tail = heads_and_tails(g)
    windows = shave_windows(g, head, tail, best.length)
    assert windows is not None
    first, last = windows
    assert all(a <= t <= b for a, t, b in zip(first, best.start, last, strict=True))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_flow_never_refutes_a_schedule_with_mixed_offsets(data):
    # hand-built graphs where one unit is reserved at different offsets after issue, for
    # several cycles, or together with another unit: the flow forgets what it cannot model and
    # never rules out the length of an actual schedule (the brute force over orders)
    n = data.draw(st.integers(1, 6))
    units = {"A": data.draw(st.integers(1, 2)), "B": 1}
    ops = []
    for i in range(n):
        picked = data.draw(st.lists(st.sampled_from(["A", "B"]), max_size=2, unique=True))
        reservations = tuple(
            Reservation(u, data.draw(st.integers(0, 1)), data.draw(st.integers(1, 2)))
            for u in picked
        )
        ops.append(Operation(f"o{i}", reservations=reservations, tail=data.draw(st.integers(1, 3))))
    edges = [
        Edge(a, b, data.draw(st.integers(0, 2)))
        for a in range(n)
        for b in range(a + 1, n)
        if data.draw(st.booleans())
    ]
    g = Graph(ops, edges, units=units, issue_width=data.draw(st.integers(1, 3)))
    order, best = brute_force_optimal(g)
    verify(g, evaluate(g, order))
    head, tail = heads_and_tails(g)
    assert flow_feasible(g, head, tail, best)
    assert shave_windows(g, head, tail, best) is not None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 8),
    registers=st.integers(3, 32),
    machine=st.sampled_from(["dual", "lecture"]),
)
def test_schedule_in_windows_finds_the_optimum_and_nothing_shorter(seed, size, registers, machine):
    # a complete search: within the shaved windows at the brute-force optimum it finds a legal
    # schedule ending by it; one cycle lower there is none to find. Where the relaxation is
    # exact (every operation holds one unit for one cycle: no div, no non-pipelined unit)
    g = analyze(random_block(seed, size=size, registers=registers, opcodes=OPCODES), machine).graph
    assume(all(len(op.reservations) == 1 and op.reservations[0].cycles == 1 for op in g.ops))
    _order, best = brute_force_optimal(g)
    head, tail = heads_and_tails(g)
    first, last = shave_windows(g, head, tail, best)
    cycles = schedule_in_windows(g, first, last)
    assert cycles is not None
    s = verify(g, Schedule(g, cycles))
    assert s.length <= best and all(
        a <= t <= b for a, t, b in zip(first, cycles, last, strict=True)
    )
    # sorted by issue cycle and placed in order: no longer (the search's own terms)
    assert evaluate(g, sorted(range(len(g.ops)), key=lambda j: (cycles[j], j))).length <= best
    lower = shave_windows(g, head, tail, best - 1)
    assert lower is None or schedule_in_windows(g, *lower) is None


def test_schedule_in_windows_gives_up_when_told():
    g = analyze(random_block(3, size=8, registers=8), "dual").graph
    head, tail = heads_and_tails(g)
    _order, best = brute_force_optimal(g)
    assert schedule_in_windows(g, *shave_windows(g, head, tail, best), lambda: True) is None
