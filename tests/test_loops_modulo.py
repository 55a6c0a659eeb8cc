"""Software pipelining: bounds, the modulo scheduler, the reservation table, and code that runs."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.core import verify
from lecturekit.errors import ScheduleError
from lecturekit.loops.examples import example, example_state
from lecturekit.loops.interp import compare, run
from lecturekit.loops.model import analyze_loop
from lecturekit.loops.modulo import (
    ISSUE,
    explain_ii,
    iterative_modulo_schedule,
    modulo_schedule,
    rec_mii,
    recurrences,
    res_mii,
)
from lecturekit.loops.randloop import random_loop

SAXPY = example("saxpy_loop")


@pytest.mark.parametrize(
    "name, machine, res, rec, ii, stages",
    [
        ("saxpy_loop", "lecture", 10, 3, 10, 2),
        ("saxpy_loop", "dual", 4, 1, 4, 3),
        ("running_sum", "lecture", 4, 3, 4, 2),
        ("prefix_product", "lecture", 7, 9, 9, 2),
        ("prefix_product", "dual", 3, 6, 6, 2),
    ],
)
def test_bounds_and_ii_of_the_examples(name, machine, res, rec, ii, stages):
    r = modulo_schedule(example(name), machine)
    assert (r.res_mii, r.rec_mii, r.mii, r.ii, r.stage_count) == (
        res,
        rec,
        max(res, rec),
        ii,
        stages,
    )
    verify(r.graph, r.schedule, ii=r.ii)


def test_res_mii_counts_units_and_issue_slots():
    r = modulo_schedule(SAXPY, "lecture")
    bounds = {b.resource: (b.uses, b.capacity, b.bound) for b in r.resources}
    # 8 instructions, one per cycle; the ALU is busy 7 + 3 (the multiply holds it 3 cycles)
    assert bounds == {ISSUE: (8, 1, 8), "alu": (10, 1, 10)}
    d = {b.resource: b.bound for b in modulo_schedule(SAXPY, "dual").resources}
    assert d == {ISSUE: 4, "alu": 4, "mem": 3, "mul": 1}


def test_rec_mii_names_the_binding_recurrence():
    r = modulo_schedule(example("prefix_product"), "lecture")
    top = r.recurrences[0]
    # sw a[i] -> lw a[i-1] next iteration (memory RAW 1) -> mul (RAW 3) -> sw (RAW 5)
    assert top.ops == (0, 1, 2) and (top.latency, top.distance, top.bound) == (9, 1, 9)
    assert "I1 -> I2 -> I3 -> I1" in top.describe(r.graph)


def test_schedule_shape():
    r = modulo_schedule(SAXPY, "dual")
    first = r.graph.earliest
    assert min(r.schedule.start) - first < r.ii  # the first stage is not empty
    assert r.stages == [(t - first) // r.ii for t in r.schedule.start]
    assert r.rows == [(t - first) % r.ii for t in r.schedule.start]
    br = r.loop.branch
    assert (
        r.stages[br] == r.stage_count - 1 and r.rows[br] == r.ii - 1
    )  # the branch ends the kernel
    assert max(r.schedule.start) == r.schedule.start[br]
    for (row, col), users in r.table.cells.items():
        assert 0 <= row < r.ii and len(users) <= dict(r.table.columns)[col]
    assert "I5/s2" in r.table.text() and r.table.overflows() == []


def test_trace_records_placements_evictions_and_done():
    r = modulo_schedule(SAXPY, "dual")
    kinds = [s.kind for s in r.trace]
    assert kinds[0] == "ii" and kinds[-1] == "done"
    assert sum(1 for s in r.trace if s.evicted) >= 1  # the branch displaces the store once
    placed = [s for s in r.trace if s.kind == "place"]
    assert len(placed) == r.schedule.info["placements"] == 10
    assert set(r.trace[-2].placed) == set(range(8))


def test_ii_increments_when_the_budget_runs_out():
    g = analyze_loop(SAXPY, "dual").graph()
    sched, steps = iterative_modulo_schedule(g, budget_ratio=0)  # n placements per II
    assert sched.ii > 4
    assert [s.ii for s in steps if s.kind == "give-up"][0] == 4
    assert "budget of 8 placements used up" in next(s.message for s in steps if s.kind == "give-up")
    verify(g, sched, ii=sched.ii)


def test_starting_below_mii_is_reported():
    g = analyze_loop(SAXPY, "dual").graph()
    sched, steps = iterative_modulo_schedule(g, ii=2)
    assert sched.ii == 4 and "below MII" in steps[1].message


def test_explain_ii_computes_why_smaller_ii_fail():
    r = modulo_schedule(SAXPY, "lecture")
    rep = explain_ii(r, 9)
    assert not rep.feasible and [b.resource for b in rep.resources] == ["alu"]
    assert rep.recurrences == [] and rep.table.overflows()
    text = rep.reasons(r.graph)
    assert text == [
        "unit alu: busy 10 cycle(s) per iteration, but 9 row(s) × 1 = 9: some row overflows "
        "(needs II >= 10)"
    ]
    rep = explain_ii(r, 2)
    assert {x.ops for x in rep.recurrences} == {(5,), (6,)}
    assert any("latency 3 must pass within 1 iteration(s) = 1×2 = 2 cycles" in t
               for t in rep.reasons(r.graph))  # fmt: skip
    assert explain_ii(r, 10).feasible and explain_ii(r, 12).feasible
    rec = modulo_schedule(example("prefix_product"), "lecture")
    rep = explain_ii(rec, 8)
    assert rep.resources == [] and rep.recurrences[0].bound == 9
    with pytest.raises(ScheduleError):
        explain_ii(r, 0)


def test_lifetimes_and_modulo_variable_expansion():
    r = modulo_schedule(SAXPY, "dual", move_induction=False)  # the slide form: $s2 renamed
    by_value = {lt.value: lt for lt in r.lifetimes}
    assert set(by_value) == {"t0", "t1", "t2a", "t2", "s1", "s2"}
    for lt in r.lifetimes:
        assert lt.copies == max(1, math.ceil(lt.length / r.ii))
        assert len(lt.names) >= lt.copies and r.unroll % len(lt.names) == 0
    assert r.unroll == max(lt.copies for lt in r.lifetimes) == 2
    assert by_value["s2"].copies == 2 and by_value["s2"].names == ["s2", "s2_1"]
    body = [line for line in r.kernel[1:] if "bne" not in line]
    assert len(body) == r.unroll * 7 and r.kernel[-1].strip().startswith("bne")
    assert r.registers == 9


@pytest.mark.parametrize("machine", ["lecture", "dual", "classic5"])
@pytest.mark.parametrize("name", ["saxpy_loop", "running_sum", "prefix_product"])
def test_pipelined_code_runs_like_the_original(name, machine):
    src = example(name)
    r = modulo_schedule(src, machine)
    S, u = r.stage_count, r.unroll
    for n in sorted({1, 2, 3, S - 1, S, S + 1, S + u - 1, S + u, S + 2 * u + 1, 17} - {0}):
        assert compare(src, r.code, *example_state(name, n)) == [], n


def test_kernel_runs_n_minus_stages_plus_one_times():
    r = modulo_schedule(example("running_sum"), "dual")
    assert r.unroll == 1 and r.stage_count == 2
    prog = parse(r.code)
    kernel, orig = prog.labels["loop_kernel"], prog.labels["loop_orig"]
    for n in range(1, 9):
        res = run(prog, *example_state("running_sum", n))
        if n < r.stage_count:  # too short: the original loop runs
            assert (res.counts[kernel], res.counts[orig]) == (0, n)
        else:
            assert (res.counts[kernel], res.counts[orig]) == (n - (r.stage_count - 1), 0)


def test_uncountable_loop_is_scheduled_but_has_no_code():
    r = modulo_schedule("loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\nbnez $t0, loop", "dual")
    assert r.code is None and r.kernel and "no runnable code" in r.notes[-1]


def test_json_contract_fields():
    d = modulo_schedule(SAXPY, "dual").to_dict()
    for key in ("machine", "instructions", "edges", "res_mii", "rec_mii", "mii", "ii",
                "stage_count", "ops", "prologue", "kernel", "epilogue"):  # fmt: skip
        assert key in d
    assert d["machine"] == {
        "name": "dual",
        "issue_width": 2,
        "units": {"alu": 1, "mem": 1, "mul": 1},
    }
    assert set(d["edges"][0]) == {"src", "dst", "kind", "on", "latency", "distance"}
    assert set(d["ops"][0]) >= {"index", "cycle", "stage"}
    assert d["instructions"][0] == {"index": 0, "text": "lw    $t0, 0($s1)", "unit": "mem"}


def _graphs(seeds, machines=("lecture", "dual")):
    for seed in seeds:
        rl = random_loop(seed, size=5 + seed % 20)
        for m in machines:
            yield analyze_loop(rl.source, m).graph()


def test_rec_mii_equals_the_largest_recurrence_bound():
    for g in _graphs(range(40)):
        recs = recurrences(g, limit=100_000)
        assert rec_mii(g) == max((r.bound for r in recs), default=0)


def test_random_schedules_are_legal_and_near_mii():
    at_mii = total = 0
    for g in _graphs(range(40)):
        sched, _steps = iterative_modulo_schedule(g)
        verify(g, sched, ii=sched.ii)
        mii = max(res_mii(g), rec_mii(g), 1)
        assert sched.ii >= mii
        at_mii += sched.ii == mii
        total += 1
    assert at_mii >= 0.9 * total


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(4, 12),
    machine=st.sampled_from(["lecture", "dual"]),
    overlap=st.booleans(),
)
def test_random_loops_pipelined_compute_the_same(seed, size, machine, overlap):
    rl = random_loop(seed, size=size, overlap=overlap)
    r = modulo_schedule(rl.source, machine, restrict=not overlap)
    verify(r.graph, r.schedule, ii=r.ii)
    S, u = r.stage_count, r.unroll
    for n in sorted({1, 2, 3, S - 1, S, S + 1, S + u, 17} - {0}):
        regs, mem = rl.state(n, seed)
        assert compare(rl.source, r.code, regs, mem) == [], (n, rl.source, r.code)


@pytest.mark.parametrize("name", ["saxpy_loop", "running_sum", "prefix_product"])
@pytest.mark.parametrize("machine", ["lecture", "dual"])
def test_kernel_takes_ii_cycles_per_iteration_on_the_simulator(name, machine):
    from lecturekit.loops.timing import measure

    src = example(name)
    r = modulo_schedule(src, machine)
    cycles = [measure(r.code, *example_state(name, n), machine).cycles for n in (20, 40)]
    slope = (cycles[1] - cycles[0]) / 20
    assert slope <= r.ii  # in-order hardware issues as early as it can: never slower
    if (name, machine) != ("saxpy_loop", "lecture"):
        assert slope == r.ii


def test_critical_recurrence_finds_a_violated_cycle_exactly():
    from lecturekit.loops.modulo import critical_recurrence

    for seed in range(30):
        rl = random_loop(seed, size=5 + seed % 15)
        g = analyze_loop(rl.source, "lecture", restrict=seed % 2 == 0).graph()
        for ii in range(1, rec_mii(g)):
            r = critical_recurrence(g, ii)
            assert r.latency - ii * r.distance > 0 and r.bound > ii
            assert all(
                a.dst == b.src for a, b in zip(r.edges, r.edges[1:] + r.edges[:1], strict=True)
            )
        assert critical_recurrence(g, max(1, rec_mii(g))) is None


# -- chapter 07's figures (issue 15) -------------------------------------------------------------
MOVED_SAXPY = """loop:   lw    $t0, 0($s1)
        mul   $t1, $t0, $s0
        lw    $t2, 0($s2)
        add   $t2, $t2, $t1
        addi  $s2, $s2, 4
        sw    $t2, -4($s2)
        addi  $s1, $s1, 4
        bne   $s1, $s3, loop
"""

HAND_PIPELINED_SAXPY = """
        lw    $t0, 0($s1)
        lw    $t2a, 0($s2)
        addi  $s2, $s2, 4
        mul   $t1, $t0, $s0
        addi  $s1, $s1, 4
        add   $t2, $t2a, $t1
        beq   $s1, $s3, done
kernel: lw    $t0, 0($s1)
        lw    $t2a, 0($s2)
        addi  $s2, $s2, 4
        mul   $t1, $t0, $s0
        addi  $s1, $s1, 4
        sw    $t2, -8($s2)
        add   $t2, $t2a, $t1
        bne   $s1, $s3, kernel
done:   sw    $t2, -4($s2)
"""


def _slope(code, machine, name="saxpy_loop"):
    from lecturekit.loops.timing import measure

    t = [measure(code, *example_state(name, n), machine).cycles for n in (24, 48)]
    return (t[1] - t[0]) / 24


def test_saxpy_on_lecture_runs_9_5_cycles_because_the_expanded_kernel_shares_its_branch():
    """Chapter 07: II 10, but 9.5 measured cycles per iteration. The ALU is busy in all 10 rows;
    the kernel unrolled x2 by modulo variable expansion holds 2 x 7 instructions + one bne."""
    r = modulo_schedule(example("saxpy_loop"), "lecture", move_induction=False)
    assert r.ii == 10 and r.unroll == 2
    assert all(r.table.cells.get((row, "alu")) for row in range(r.ii))  # ALU busy in every row
    alu = [sum(x.cycles for x in op.reservations if x.unit == "alu") for op in r.graph.ops]
    assert sum(alu) == 10
    per_pass = r.unroll * sum(alu[:-1]) + alu[-1]
    assert per_pass == 19 and len(r.kernel) - 1 == 2 * 7 + 1
    assert _slope(r.code, "lecture") == per_pass / r.unroll == 9.5


def test_saxpy_on_dual_evicts_twice_and_only_the_pointer_needs_copies():
    dual = modulo_schedule(example("saxpy_loop"), "dual")
    evictions = [(s.op, v) for s in dual.trace for v, _ in s.evicted]
    assert evictions == [(7, 4), (4, 7)]  # the branch evicts the store, then the store the branch
    for machine in ("lecture", "dual"):
        r = modulo_schedule(example("saxpy_loop"), machine, move_induction=False)
        assert [lt.value for lt in r.lifetimes if lt.copies > 1] == ["s2"]
        moved = modulo_schedule(example("saxpy_loop"), machine)  # the default moves the update
        assert [lt.value for lt in moved.lifetimes if lt.copies > 1] == []


def test_moving_the_pointer_update_and_counting_offsets_removes_the_expansion():
    """The source rewrite alone (update above the store, sw -4($s2)) computes the same memory but
    our scheduler still keeps $s2 alive 11 > II cycles; counting the updates in the offsets
    (sw -8($s2) in the kernel) needs one register and a kernel of one iteration."""
    saxpy = example("saxpy_loop")
    moved = modulo_schedule(MOVED_SAXPY, "lecture")
    for n in range(1, 15):
        state = example_state("saxpy_loop", n, seed=n)
        assert compare(saxpy, MOVED_SAXPY, *state) == []
        assert compare(saxpy, moved.code, *state) == []
        assert compare(saxpy, HAND_PIPELINED_SAXPY, *state) == []
    assert [(lt.value, lt.end - lt.start) for lt in moved.lifetimes if lt.copies > 1] == [
        ("s2", 11)
    ]
    wrong = HAND_PIPELINED_SAXPY.replace("-8($s2)", "-4($s2)")
    assert compare(saxpy, wrong, *example_state("saxpy_loop", 6, seed=6)) != []
    prog = parse(HAND_PIPELINED_SAXPY)
    assert prog.labels["done"] - prog.labels["kernel"] == 8  # one iteration, no copy
    assert _slope(HAND_PIPELINED_SAXPY, "lecture") == 10  # II, with no stall


# Induction-variable motion in the generated code (issue 17)


@pytest.mark.parametrize("machine", ["lecture", "dual"])
def test_motion_removes_the_pointers_modulo_variable_expansion(machine):
    from lecturekit.loops.timing import measure

    src = example("saxpy_loop")
    plain = modulo_schedule(src, machine, move_induction=False)
    moved = modulo_schedule(src, machine)  # the default
    assert moved.ii == plain.ii and moved.schedule.start == plain.schedule.start
    copies = {lt.register: lt.copies for lt in plain.lifetimes if lt.register == "s2"}
    assert copies == {"s2": 2} and plain.unroll == 2  # the pointer alone needed two registers
    assert all(lt.copies == 1 for lt in moved.lifetimes) and moved.unroll == 1
    (m,) = moved.motion  # sw $t2, 0($s2) in stage 2 reads $s2 after its next update: -4
    assert (m["index"], m["register"], m["offset_change"]) == (4, "s2", -4)
    assert any("sw    $t2, -4($s2)" in line for line in moved.kernel)
    assert any("induction-variable motion" in note for note in moved.notes)
    assert moved.to_dict()["motion"] == moved.motion and plain.to_dict()["motion"] == []
    assert len(moved.code.splitlines()) < len(plain.code.splitlines())
    for n in range(1, 20):
        assert compare(src, moved.code, *example_state("saxpy_loop", n)) == [], n
    a, b = (measure(r.code, *example_state("saxpy_loop", 40), machine) for r in (plain, moved))
    assert b.cycles - a.cycles < 4 * moved.ii  # the same kernel speed: no pass is lost


@pytest.mark.parametrize("name", ["running_sum", "prefix_product"])
@pytest.mark.parametrize("machine", ["lecture", "dual"])
def test_motion_keeps_the_recurrences_right(name, machine):
    src = example(name)
    r = modulo_schedule(src, machine, move_induction=True)
    for n in range(1, 14):
        assert compare(src, r.code, *example_state(name, n)) == [], (n, r.code)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(4, 14),
    machine=st.sampled_from(["lecture", "dual", "classic5"]),
    overlap=st.booleans(),
)
def test_random_loops_pipelined_with_motion_compute_the_same(seed, size, machine, overlap):
    rl = random_loop(seed, size=size, overlap=overlap)
    r = modulo_schedule(rl.source, machine, restrict=not overlap, move_induction=True)
    plain = modulo_schedule(rl.source, machine, restrict=not overlap, move_induction=False)
    verify(r.graph, r.schedule, ii=r.ii)
    assert r.ii == plain.ii and r.unroll <= plain.unroll
    S, u = r.stage_count, r.unroll
    for n in sorted({1, 2, 3, S - 1, S, S + 1, S + u, S + 2 * u + 1, 17} - {0}):
        regs, mem = rl.state(n, seed)
        assert compare(rl.source, r.code, regs, mem) == [], (n, rl.source, r.code)


def test_cli_modulo_move_induction(tmp_path, capsys):
    import json

    from lecturekit.cli import main

    path = tmp_path / "saxpy.s"
    path.write_text(example("saxpy_loop"))
    assert main(["modulo", str(path), "--json", "--move-induction"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unroll"] == 1 and data["motion"][0]["offset_change"] == -4
    assert main(["modulo", str(path), "--json"]) == 0  # the default moves too
    assert json.loads(capsys.readouterr().out) == data
    assert main(["modulo", str(path), "--json", "--no-move-induction"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["motion"] == [] and plain["unroll"] == 2
    assert main(["modulo", str(path), "--move-induction"]) == 0
    assert "induction-variable motion" in capsys.readouterr().out


# -- the smallest II, proven (issue 30) -----------------------------------------------------------
def test_a_loop_the_iterative_scheduler_misses_gets_its_minimum_ii():
    # a 25-operation random loop on lecture: Rau's iterative scheduler stops at II 31 with any
    # budget; the exact search finds MII = 30, which is therefore the smallest
    rl = random_loop(250_007, size=25, recurrence=False)
    source = rl.source
    free = analyze_loop(source, "lecture").graph(renamed=True)
    assert iterative_modulo_schedule(free, budget_ratio=48)[0].ii == 31
    r = modulo_schedule(source, "lecture")
    verify(r.graph, r.schedule, ii=r.ii)
    assert r.ii == r.mii == 30 and r.schedule.info["proven_minimum"]
    assert any("the exact search found II = 30" in note for note in r.notes)
    assert r.schedule.algorithm == "exact modulo"
    for n in (1, r.stage_count, 9):  # the pipelined code computes what the loop computes
        assert compare(source, r.code, *rl.state(n, 3)) == []


def _brute_force_feasible(graph, ii, horizon):
    """Some start vector in [0, horizon)^n meets every edge and the reservation table."""
    import itertools

    n = len(graph.ops)
    cells = [
        [(ISSUE, 0)] * (graph.issue_width is not None)
        + [(r.unit, r.offset + c) for r in op.reservations for c in range(r.cycles)]
        for op in graph.ops
    ]
    cap = dict(graph.units) | ({ISSUE: graph.issue_width} if graph.issue_width else {})
    for start in itertools.product(range(horizon), repeat=n):
        if any(start[e.dst] - start[e.src] < e.latency - ii * e.distance for e in graph.edges):
            continue
        use = {}
        for k in range(n):
            for res, off in cells[k]:
                key = (res, (start[k] + off) % ii)
                use[key] = use.get(key, 0) + 1
        if all(v <= cap[res] for (res, _row), v in use.items()):
            return True
    return False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 4),
    edges=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2)),
        max_size=6,
    ),
    units=st.lists(st.sampled_from(["alu", "mem"]), min_size=4, max_size=4),
    cycles=st.lists(st.integers(1, 2), min_size=4, max_size=4),
    width=st.sampled_from([None, 1, 2]),
    ii=st.integers(1, 4),
)
def test_exact_ii_decision_agrees_with_brute_force(n, edges, units, cycles, width, ii):
    from lecturekit.core import Edge, Graph, Operation, Reservation
    from lecturekit.loops.exact_ii import modulo_schedule_at

    ops = [
        Operation(f"o{k}", reservations=(Reservation(units[k], 0, cycles[k]),)) for k in range(n)
    ]
    es = [
        Edge(s, d, lat, distance=dist if s < d else max(dist, 1))  # backward edges go around
        for s, d, lat, dist in edges
        if s < n and d < n
    ]
    g = Graph(ops, es, units={"alu": 1, "mem": 2}, issue_width=width)
    start, _nodes = modulo_schedule_at(g, ii)
    if start is not None:
        verify(g, start, ii=ii)
    # a schedule, if any, fits in this window (stages are at most the longest path's length)
    horizon = ii * (1 + sum(max(0, e.latency) for e in es) // ii + 1) + ii
    assert (start is not None) == _brute_force_feasible(g, ii, min(horizon, 12)) or (
        start is not None and max(start) >= 12
    )


def test_exact_ii_below_the_bounds_is_impossible_at_once():
    from lecturekit.loops.exact_ii import modulo_schedule_at

    g = analyze_loop(SAXPY, "lecture").graph(renamed=True)
    mii = max(res_mii(g), rec_mii(g))
    assert modulo_schedule_at(g, mii - 1) == (None, 0)  # ResMII: the table cannot hold it
    start, _ = modulo_schedule_at(g, mii)
    verify(g, start, ii=mii)
