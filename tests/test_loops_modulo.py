"""Software pipelining: bounds, the modulo scheduler, the reservation table, and code that runs."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.errors import ScheduleError
from lecturekit.isa import parse
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
    r = modulo_schedule(SAXPY, "dual")
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
