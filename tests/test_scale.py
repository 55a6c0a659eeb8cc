"""Scale (issue 17): pipeline-parallel schedules for p = 32, m = 256 run and verify without a cap;
the faster evaluator and memory curves agree with their direct definitions. Functional checks
only: the timings are in benchmarks/pipeline_parallel.py."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.core.evaluate import evaluate
from lecturekit.llm.pipeline_parallel import (
    build_pipeline_graph,
    closed_form,
    pipeline_schedule,
    run_order,
)
from lecturekit.llm.pp_schedules import one_f_one_b, zb_h1


@pytest.mark.parametrize("name", ["1f1b", "gpipe"])
def test_p32_m256_runs_and_verifies(name):
    run = pipeline_schedule(name, 32, 256)
    verify(run.pg.graph, run.schedule)
    assert len(run.ops) == 32 * 256 * 2
    # 1F1B and GPipe with T_F = T_W = 1, a full backward 2: (m + p - 1) x 3 time units, the
    # closed form the module states
    assert run.makespan == (256 + 32 - 1) * 3 == closed_form(name, 32, 256)
    assert run.bubble_over_ideal == pytest.approx((32 - 1) / 256)
    peak = run.peak_in_flight
    assert peak[0] == (32 if name == "1f1b" else 256)
    assert run.summary()["makespan"] == run.makespan


def _reference_evaluate(graph, streams):
    """The evaluator's rule written directly: repeatedly start the stream head that can start
    earliest (ties: the first stream), each head as early as order, dependences and units let it."""
    start = {}
    used = {}
    heads = dict.fromkeys(streams, 0)
    last = dict.fromkeys(streams, graph.earliest)
    while any(heads[s] < len(o) for s, o in streams.items()):
        best = None
        for rank, (s, order) in enumerate(streams.items()):
            if heads[s] >= len(order):
                continue
            i = order[heads[s]]
            if any(e.src not in start for e in graph.preds(i) if not e.distance):
                continue
            t = max([last[s]] + [start[e.src] + e.latency for e in graph.preds(i)])
            while any(
                used.get((r.unit, c), 0) >= graph.units[r.unit]
                for r in graph.ops[i].reservations
                for c in range(t + r.offset, t + r.offset + r.cycles)
            ):
                t += 1
            if best is None or (t, rank) < best[:2]:
                best = (t, rank, s, i)
        t, _rank, s, i = best
        start[i] = t
        heads[s] += 1
        last[s] = t
        for r in graph.ops[i].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                used[(r.unit, c)] = used.get((r.unit, c), 0) + 1
    return [start[i] for i in range(len(graph.ops))]


@settings(max_examples=40, deadline=None)
@given(
    p=st.integers(1, 5),
    m=st.integers(1, 7),
    tf=st.integers(1, 3),
    tb=st.integers(1, 3),
    split=st.booleans(),
)
def test_evaluator_and_memory_curves_match_their_definitions(p, m, tf, tb, split):
    from lecturekit.llm.pipeline_parallel import Timing

    timing = Timing(tf, tb, 1 if split else 0, 0)
    pg = build_pipeline_graph(p, m, 1, timing, split=split)
    keys = zb_h1(p, m) if split else one_f_one_b(p, m)
    run = run_order(pg, keys)
    streams = {name: list(order) for name, order in run.order.items()}
    assert run.schedule.start == _reference_evaluate(pg.graph, streams)
    assert evaluate(pg.graph, streams).start == run.schedule.start
    # memory per time unit, counted directly: a micro-batch holds m_b from its F's start to its
    # B's finish, then m_w until its W's finish
    for d in range(p):
        direct = [Fraction(0)] * (run.last - run.first + 1)
        held = [Fraction(0)] * len(direct)
        for i in run.device_ops(d):
            op = run.ops[i]
            if op.kind != "F":
                continue
            b_end = run.finish(pg.op("B", op.micro, op.stage))
            end = run.finish(pg.op("W", op.micro, op.stage)) if split else b_end
            for t in range(run.start(i), end + 1):
                direct[t - run.first] += 3 if t <= b_end else 1
                held[t - run.first] += 1
        assert run.memory(d, 3, 1) == direct
        assert run.held(d) == held
