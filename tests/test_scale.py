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
from lecturekit.llm.pipeline_parallel.generators import one_f_one_b, zb_h1


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


def _general_loop(graph, order):
    """evaluate with its O(n + e) pass for orders whose units each belong to one stream turned
    off: the heap-driven loop every other order takes."""
    from unittest import mock

    with mock.patch("lecturekit.core.evaluate._each_unit_one_stream", return_value=False):
        return evaluate(graph, order)


def _outcome(graph, order):
    from lecturekit.errors import LectureKitError

    try:
        s = evaluate(graph, order)
    except LectureKitError as exc:
        return type(exc).__name__, str(exc)
    return s.start, s.order, s.reasons, s.info["waits"], s.info["stalls"]


def _general_outcome(graph, order):
    from lecturekit.errors import LectureKitError

    try:
        s = _general_loop(graph, order)
    except LectureKitError as exc:
        return type(exc).__name__, str(exc)
    return s.start, s.order, s.reasons, s.info["waits"], s.info["stalls"]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_one_pass_evaluation_equals_the_general_loop(data):
    """Random graphs whose units each belong to one stream (the pipeline-parallel shape):
    starts, issue order, waits and deadlock messages are the general loop's."""
    from lecturekit.core import Edge, Graph, Operation, Reservation
    from lecturekit.core.evaluate import _each_unit_one_stream

    n = data.draw(st.integers(1, 12))
    k = data.draw(st.integers(1, 3))
    stream = [data.draw(st.integers(0, k - 1)) for _ in range(n)]
    ops = [
        Operation(
            f"o{i}",
            # a stream may own two units (then it can start two operations in one cycle)
            reservations=(
                Reservation(
                    f"u{stream[i]}.{data.draw(st.integers(0, 1))}", 0, data.draw(st.integers(1, 3))
                ),
            ),
            tail=data.draw(st.integers(0, 2)),
        )
        for i in range(n)
    ]
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n)
    )
    edges = [
        Edge(a, b, data.draw(st.integers(1, 4)), data.draw(st.sampled_from(["ACT", "GRAD"])), "x")
        for a, b in pairs
        if a != b
    ]
    graph = Graph(
        ops,
        edges,
        units={f"u{s}.{u}": 1 for s in range(k) for u in (0, 1)},
        earliest=data.draw(st.integers(0, 2)),
    )
    ranks = data.draw(st.permutations(range(n)))
    order = {f"d{s}": [i for i in ranks if stream[i] == s] for s in range(k)}
    assert _each_unit_one_stream(graph, order)
    assert _outcome(graph, order) == _general_outcome(graph, order)


@pytest.mark.parametrize("name", ["zb-v", "interleaved", "1f1b-eager"])
def test_pipeline_schedules_evaluate_as_the_general_loop(name):
    run = pipeline_schedule(name, 4, 8, 2 if name == "interleaved" else None, 2, 2, 2)
    assert _outcome(run.pg.graph, run.order) == _general_outcome(run.pg.graph, run.order)


def test_simulate_imports_only_what_it_uses():
    """``lecturekit simulate`` loads no scheduler, no other subcommand and no networkx (issue
    17's start-up target; the time itself is in benchmarks/startup.py)."""
    import subprocess
    import sys

    code = (
        "import sys, tempfile\n"
        "from lecturekit.cli import main\n"
        "with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as f:\n"
        "    f.write('lw $t0, 0($s0)\\nadd $t1, $t0, $t2\\n')\n"
        "assert main(['simulate', f.name, '--json']) == 0\n"
        "bad = ['networkx', 'numpy', 'matplotlib', 'lecturekit.core.list_sched',\n"
        "       'lecturekit.core.optimal', 'lecturekit.llm', 'lecturekit.cli.schedule']\n"
        "print('LOADED', [m for m in bad if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "LOADED []"
    cheap = (
        "import sys, lecturekit\n"
        "print(sorted(m for m in sys.modules if m.startswith('lecturekit')))"
    )
    out = subprocess.run([sys.executable, "-c", cheap], capture_output=True, text=True, check=True)
    # the foundation only: errors, and the language spoken (stdlib gettext; `set_language` is
    # part of the top-level API)
    assert out.stdout.strip() == "['lecturekit', 'lecturekit.errors', 'lecturekit.language']"


@pytest.mark.parametrize("name", ["zb-v", "dualpipe", "1f1b"])
def test_lower_bounds_agree_with_their_separate_definitions(name):
    """The critical path and the core bound come from one call of bounds(); the module's own
    longest-path walk and lower_bound() give the same figures."""
    from lecturekit.core.bounds import lower_bound
    from lecturekit.llm.pipeline_parallel import critical_path

    run = pipeline_schedule(name, 4, 8, None, 2, 2, 2, 1)
    g = run.pg.graph
    assert run.lower_bounds["critical path"] == critical_path(run.pg)
    assert run.lower_bounds["core"] == lower_bound(g) - g.earliest + 1
    assert run.makespan >= max(run.lower_bounds.values())


def test_the_garbage_collector_runs_again_after_a_schedule():
    """Building a schedule pauses the cyclic collector; it is running again afterwards, also
    after an error, and stays off if it was off."""
    import gc

    from lecturekit.errors import ScheduleError

    pipeline_schedule("zb-h1", 2, 3).to_dict()
    assert gc.isenabled()
    with pytest.raises(ScheduleError):
        pipeline_schedule("interleaved", 4, 6)  # m not a multiple of p
    assert gc.isenabled()
    gc.disable()
    try:
        pipeline_schedule("1f1b", 2, 3).summary()
        assert not gc.isenabled()
    finally:
        gc.enable()
