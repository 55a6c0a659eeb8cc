"""Pipeline-parallel schedules on the shared scheduling core: closed forms, memory, deadlocks."""

import difflib
import json
from fractions import Fraction

import pytest
from conftest import SIX_BLOCK
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit import core
from lecturekit.errors import DeadlockError, LectureKitError, ScheduleError
from lecturekit.llm import pipeline_parallel as ppm
from lecturekit.llm.pipeline_parallel import (
    DAPPLE_SLIDE,
    DAPPLE_SLIDE_EXTRACTION,
    SCHEDULES,
    Timing,
    build_pipeline_graph,
    closed_form,
    compare_schedules,
    parse_order,
    pipeline_schedule,
    run_order,
    weight_versions,
)
from lecturekit.target.deps import analyze
from lecturekit.viz.timeline import grid, timeline_text

# -- the bridge: one evaluator, one verifier ----------------------------------------------------


def test_same_evaluator_for_instructions_and_for_gpus():
    block = analyze(SIX_BLOCK, "lecture").graph
    sched = core.evaluate(block, list(range(6)))
    core.verify(block, sched)
    assert sched.length == 12  # DESIGN: program order of the six-instruction block
    run = pipeline_schedule("1f1b", 4, 8)
    assert isinstance(run.pg.graph, core.Graph)
    again = core.evaluate(run.pg.graph, run.order)
    core.verify(run.pg.graph, again)
    assert again.start == run.schedule.start
    assert again.makespan == run.makespan == 33


# -- the lecture's p = 4, m = 8 -----------------------------------------------------------------


def test_p4_m8_table_with_equal_durations():
    runs = {r.name: r for r in compare_schedules(4, 8, v=2, tf=2, tb=2, tw=2)}
    assert set(runs) == set(SCHEDULES)
    u = 2  # one time unit of T_F = T_B = T_W
    # GPipe: bubble (p-1)/(m+p-1); 1F1B the same time with at most p in flight
    assert runs["gpipe"].makespan == (8 + 4 - 1) * 3 * u
    assert runs["gpipe"].bubble_fraction == pytest.approx(3 / 11)
    assert runs["1f1b"].makespan == runs["gpipe"].makespan
    assert runs["1f1b"].peak_in_flight == [4, 3, 2, 1]
    assert runs["gpipe"].peak_in_flight == [8, 8, 8, 8]
    # interleaved: bubble/ideal = (p-1)/(v m)
    assert runs["interleaved"].bubble_over_ideal == pytest.approx(3 / (2 * 8))
    # ZB-H1: a third of 1F1B's bubble, 1F1B's memory
    assert runs["zb-h1"].bubble_time == runs["1f1b"].bubble_time / 3
    assert max(runs["zb-h1"].peak_held) <= 4
    # ZB-H2: no bubble in the steady state, up to 2p - 1 in flight
    assert runs["zb-h2"].steady_bubble_fraction == 0
    assert runs["zb-h2"].peak_in_flight[0] == 7
    # naive: one device busy at a time
    assert runs["naive"].bubble_fraction == pytest.approx(3 / 4)
    assert runs["naive"].m == 8 and runs["naive"].peak_in_flight == [8, 8, 8, 8]
    for r in runs.values():
        assert r.makespan >= max(r.lower_bounds.values())


def test_every_schedule_meets_the_cores_lower_bound_at_p4_m8():
    # with equal durations and no communication none of them can be shortened on its graph:
    # what the later schedules gain, they gain by changing the graph (chunks, B/W split)
    for r in compare_schedules(4, 8, v=2, tf=2, tb=2, tw=2):
        assert r.makespan == r.lower_bounds["core"], r.name


def test_timeline_text_rows():
    text = timeline_text(pipeline_schedule("1f1b", 4, 8), header=False, legend=False)
    rows = [" ".join(line.split()[2:]) for line in text.splitlines()]
    assert rows[0] == (
        "F1 F2 F3 F4 . . . . . . B1 B1 F5 B2 B2 F6 B3 B3 F7 B4 B4 F8 B5 B5 . B6 B6 . B7 B7 . B8 B8"
    )
    assert rows[3].startswith(". . . F1 B1 B1 F2 B2 B2")


def test_dapple_slide_grid_is_the_eager_list_schedule():
    run = pipeline_schedule("1f1b-eager", 4, 8)
    assert [" ".join(row) for row in grid(run)] == list(DAPPLE_SLIDE)
    assert run.makespan == 33 and run.peak_in_flight == [4, 4, 4, 1]
    # the extraction is garbled (ı, į, Ę, !, "(5" ... and dropped cells) but mostly agrees
    for ours, raw in zip(DAPPLE_SLIDE, DAPPLE_SLIDE_EXTRACTION.splitlines(), strict=True):
        a = [c[1:] if c != "." else "" for c in ours.split()]
        b = [c.strip() for c in raw.split("\t")]
        assert difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() > 0.75


# -- closed forms -------------------------------------------------------------------------------


@pytest.mark.parametrize("p,m", [(1, 1), (2, 5), (4, 8), (4, 3), (6, 13), (8, 8)])
@pytest.mark.parametrize("tf,tb,tw", [(1, 1, 0), (1, 2, 0), (2, 1, 1), (1, 1, 1)])
def test_gpipe_and_1f1b_closed_form(p, m, tf, tb, tw):
    t = Timing(tf, tb, tw)
    for name in ("gpipe", "1f1b", "pipedream", "1f1b-eager"):
        r = pipeline_schedule(name, p, m, tf=tf, tb=tb, tw=tw)
        assert r.makespan == (m + p - 1) * (tf + tb + tw) == closed_form(name, p, m, 1, t)
        assert r.bubble_fraction == pytest.approx((p - 1) / (m + p - 1))
    one = pipeline_schedule("1f1b", p, m, tf=tf, tb=tb, tw=tw)
    assert one.peak_in_flight[0] == min(p, m)
    assert one.peak_in_flight == [min(p - s, m) for s in range(p)]
    assert pipeline_schedule("gpipe", p, m, tf=tf, tb=tb, tw=tw).peak_in_flight == [m] * p


@pytest.mark.parametrize("comm", [1, 3])
def test_gpipe_with_communication(comm):
    r = pipeline_schedule("gpipe", 4, 8, tf=1, tb=2, tw=0, comm=comm)
    assert r.makespan == 11 * 3 + 2 * 3 * comm == closed_form("gpipe", 4, 8, 1, r.timing)
    naive = pipeline_schedule("naive", 4, 8, tf=1, tb=2, tw=0, comm=comm)
    assert naive.makespan == 4 * 8 * 3 + 2 * 3 * 8 * comm


def test_1f1b_pays_more_for_communication_than_gpipe():
    # 1F1B's steady state waits for round trips; GPipe streams: a known trade-off
    g = pipeline_schedule("gpipe", 4, 8, comm=2)
    f = pipeline_schedule("1f1b", 4, 8, comm=2)
    assert f.makespan > g.makespan


@pytest.mark.parametrize("p,m,v", [(2, 4, 2), (4, 8, 2), (4, 12, 3), (3, 9, 2), (4, 16, 4)])
def test_interleaved_exact_formula(p, m, v):
    # m (T_F + T_B) + (p - 1)(T_F + T_B) / v, i.e. bubble / ideal = (p - 1) / (v m)
    tf, tb, tw = v, v, v
    r = pipeline_schedule("interleaved", p, m, v, tf, tb, tw)
    work = tf + tb + tw
    assert (
        r.makespan
        == m * work + (p - 1) * work // v
        == closed_form("interleaved", p, m, v, r.timing)
    )
    assert r.bubble_over_ideal == pytest.approx((p - 1) / (v * m))
    one = pipeline_schedule("1f1b", p, m, None, tf, tb, tw)
    assert r.bubble_time == one.bubble_time / v


def test_interleaved_memory_is_higher_than_1f1b():
    r = pipeline_schedule("interleaved", 4, 8, 2, 2, 2, 2)
    # device 0 runs 2 (p-1) + (v-1) p + 1 = 11 chunk-forwards before its first backward: 5.5
    assert r.peak_in_flight[0] == Fraction(11, 2)
    assert r.peak_in_flight[0] > pipeline_schedule("1f1b", 4, 8).peak_in_flight[0]


@pytest.mark.parametrize("p,m", [(1, 3), (2, 2), (2, 6), (3, 9), (4, 4), (4, 8), (5, 10), (6, 12)])
def test_zero_bubble_h1(p, m):
    r = pipeline_schedule("zb-h1", p, m)
    assert r.makespan == 3 * m + (p - 1) == closed_form("zb-h1", p, m)
    one = pipeline_schedule("1f1b", p, m)
    assert r.bubble_time * 3 == one.bubble_time  # exactly a third
    assert r.bubble_over_ideal == pytest.approx((p - 1) / (3 * m))
    assert r.peak_in_flight == one.peak_in_flight  # the same memory as 1F1B ...
    assert max(r.peak_held) <= p  # ... even counting what W keeps


@pytest.mark.parametrize("p,m", [(1, 3), (2, 6), (3, 9), (4, 7), (4, 8), (4, 16), (5, 10), (6, 12)])
def test_zero_bubble_h2(p, m):
    r = pipeline_schedule("zb-h2", p, m)
    assert r.makespan == 3 * m + (p - 1) == closed_form("zb-h2", p, m)
    # a parallelogram: each device is busy from its first pass to its last without a gap
    for d in range(p):
        first, last = r.span(d)
        assert last - first + 1 == r.busy(d)
    assert r.steady_period == r.ideal and r.steady_bubble_fraction == 0
    assert r.peak_in_flight[0] == min(2 * p - 1, m)
    assert max(r.peak_in_flight) > pipeline_schedule("zb-h1", p, m).peak_in_flight[0] or p == 1


def test_zb_h2_follows_the_papers_order_on_device_0():
    # Qi et al. 2023, Fig. 3 (bottom), device 1: F1..F7 B1 W1 F8 B2 W2 ... B8 W8
    r = pipeline_schedule("zb-h2", 4, 8)
    labels = [r.ops[i].label for i in r.device_ops(0)]
    assert labels[:10] == ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "B1", "W1", "F8"]
    assert labels[10:] == [f"{k}{i}" for i in range(2, 9) for k in "BW"]
    # last device: F1 B1 F2 B2 ... F7 B7 W1 F8 B8 W2 .. W8
    last = [r.ops[i].label for i in r.device_ops(3)]
    assert last[:14] == [f"{k}{i}" for i in range(1, 8) for k in "FB"]
    assert last[14:] == ["W1", "F8", "B8"] + [f"W{i}" for i in range(2, 9)]


@pytest.mark.parametrize("p,m", [(2, 3), (3, 5), (4, 7), (4, 8), (4, 16), (5, 12), (6, 12)])
def test_zb_h2_peak_memory_within_the_papers_bound(p, m):
    # The paper's Table: 1F1B and ZB-H1 peak at p M_B, ZB-H2 at (2p - 1) M_B. Counting every
    # micro-batch at a full M_B until its W pass (the upper bound), ZB-H2 never holds more than
    # 2p - 1 (the W-before-F order; F-before-W would hold 2p, as many as GPipe at m = 2p).
    r = pipeline_schedule("zb-h2", p, m)
    assert max(r.peak_memory(1)) == min(2 * p - 1, m)
    assert max(r.peak_held) == min(2 * p - 1, m)
    gp = pipeline_schedule("gpipe", p, 2 * p)
    assert max(pipeline_schedule("zb-h2", p, 2 * p).peak_memory(1)) < max(gp.peak_memory(1))
    core.verify(r.pg.graph, r.schedule)


@pytest.mark.parametrize("p,m", [(2, 4), (3, 6), (4, 8), (4, 12), (6, 12)])
def test_zb_h1_only_the_maximum_equals_1f1b(p, m):
    one = pipeline_schedule("1f1b", p, m)
    h1 = pipeline_schedule("zb-h1", p, m)
    mb, mw = Fraction(1), Fraction(1, 4)
    assert one.peak_memory(mb, mw) == [p - s for s in range(p)]  # no W: m_w plays no part
    # by hand: stage s holds p - s micro-batches between F and B, as 1F1B, plus s W passes
    # postponed, each M_W: p - s + s/4. Only stage 0 (the maximum) equals 1F1B's.
    assert h1.peak_memory(mb, mw) == [p - s + s * mw for s in range(p)]
    assert max(h1.peak_memory(mb, mw)) == max(one.peak_memory(mb, mw)) == p
    # with everything kept until W (M_W = M_B) every stage holds p
    assert h1.peak_memory(1) == [p] * p


def test_memory_with_m_w_between_zero_and_m_b():
    from lecturekit.llm.activations import korthikanti_layer_bytes, weight_pass_bytes

    r = pipeline_schedule("zb-h2", 4, 8)
    mb = korthikanti_layer_bytes(2048, 1, 12288, 96)  # GPT-3 layer, one sequence
    mw = weight_pass_bytes(2048, 1, 12288)
    assert mw == 32 * 2048 * 12288 and mw < mb
    peaks = r.peak_memory(mb, mw)
    assert peaks[0] == 7 * mb  # stage 0: W right after B, 7 in flight at F8
    assert all(x <= 7 * mb for x in peaks) and peaks[3] < peaks[0]
    # M_W = 0 is the in-flight count, M_W = M_B the held count
    assert r.peak_memory(1, 0) == r.peak_in_flight
    assert r.peak_memory(1, 1) == r.peak_held
    with pytest.raises(ScheduleError, match="m_w <= m_b"):
        r.peak_memory(1, 2)


def test_zb_h2_with_few_micro_batches_says_so():
    r = pipeline_schedule("zb-h2", 4, 4)
    assert "2p - 1" in r.note
    assert r.makespan >= pipeline_schedule("zb-h1", 4, 4).makespan


def test_uneven_durations_still_verify_and_zb_helps():
    for tf, tb, tw in [(1, 2, 1), (2, 3, 1), (3, 2, 2), (1, 1, 3)]:
        one = pipeline_schedule("1f1b", 4, 8, tf=tf, tb=tb, tw=tw)
        h1 = pipeline_schedule("zb-h1", 4, 8, tf=tf, tb=tb, tw=tw)
        assert h1.makespan <= one.makespan


# -- PipeDream -------------------------------------------------------------------------------


def test_pipedream_weight_versions():
    run = pipeline_schedule("pipedream", 4, 8)
    wv = weight_versions(run)
    # stage 0 keeps one version per micro-batch in flight: p; stage s: p - s
    assert wv["stored"] == [4, 3, 2, 1]
    # the first p micro-batches start with the initial weights on stage 0
    assert [wv["forward"][k][0] for k in range(4)] == [0, 0, 0, 0]
    # micro-batch 5 enters stage 0 after one update there, stage 3 after four
    assert wv["forward"][4] == [1, 2, 3, 4]
    assert wv["stale"][4]  # different stages saw different versions
    # without stashing a backward would use newer weights than its forward did
    assert any(
        b > f
        for fr, br in zip(wv["forward"], wv["latest_at_backward"], strict=True)
        for f, b in zip(fr, br, strict=True)
    )
    # no flush: in the steady state every device is busy all the time
    assert run.steady_period == run.ideal < run.makespan
    assert pipeline_schedule("1f1b", 4, 8).steady_period == 33


# -- deadlock and bad input -------------------------------------------------------------------


def test_hand_written_order_that_deadlocks():
    pg = build_pipeline_graph(2, 2)
    # device 1 wants micro-batch 2 first; device 0 will not send it before B1 comes back
    with pytest.raises(DeadlockError) as exc:
        run_order(pg, ["F1 B1 F2 B2", "F2 F1 B1 B2"])
    msg = str(exc.value)
    assert "device 0 is stuck at B1@0" in msg and "device 1 is stuck at F2@1" in msg


def test_hand_written_order_that_works():
    pg = build_pipeline_graph(2, 2)
    run = run_order(pg, {0: "F1 F2 B1 B2", 1: "F1 B1 F2 B2"})
    assert run.makespan == 9  # (m + p - 1)(T_F + T_B + T_W)
    split = build_pipeline_graph(2, 1, split=True)
    assert run_order(split, ["F1 B1 W1", "F1@1 B1 W1"]).makespan == 5


@pytest.mark.parametrize(
    "order,message",
    [
        (["F1 F2 B1", "F1 B1 F2 B2"], "leaves out B2@0"),
        (["F1 F2 B1 B2 B2", "F1 B1 F2 B2"], "more than once"),
        (["F1 F2 B1 X2", "F1 B1 F2 B2"], "starts with F, B or W"),
        (["F1 F2 B1 B9", "F1 B1 F2 B2"], "micro-batch 9 is not in 1..2"),
        (["F1 F2 B1 W2", "F1 B1 F2 B2"], "has no W"),
        (["F1 F2 B1 B2@1", "F1 B1 F2 B2"], "runs on device 1"),
        (["F1 F2 B1 Bx", "F1 B1 F2 B2"], "expected a micro-batch number"),
        (["F1 F2 B1 B2"], "1 device line(s) but p = 2"),
    ],
)
def test_bad_orders_are_explained(order, message):
    pg = build_pipeline_graph(2, 2)
    with pytest.raises(ScheduleError) as exc:
        run_order(pg, order)
    assert message in str(exc.value)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"name": "pipedreem"}, "unknown pipeline schedule"),
        ({"name": "1f1b", "v": 2}, "only applies to the interleaved"),
        ({"name": "interleaved", "m": 6}, "not a multiple of p = 4"),
        ({"name": "interleaved", "v": 2, "tf": 3}, "not divisible by v = 2"),
        ({"name": "zb-h1", "tw": 0}, "weight-gradient pass of at least 1"),
        ({"name": "1f1b", "p": 0}, "p (pipeline stages / devices): must be between 1 and 64"),
        ({"name": "1f1b", "m": 2.5}, "m (micro-batches): must be an integer"),
        ({"name": "1f1b", "tf": 0}, "forward (T_F): must be between 1"),
        ({"name": "1f1b", "comm": -1}, "comm"),
        # beyond the runaway bound (MAX_OPS = 100,000 passes since the scale work of issue 17)
        ({"name": "interleaved", "p": 64, "m": 512, "v": 16}, "more than this simulator handles"),
    ],
)
def test_bad_parameters_are_explained(kwargs, message):
    args = {"name": "1f1b", "p": 4, "m": 8}
    args.update(kwargs)
    with pytest.raises(LectureKitError) as exc:
        pipeline_schedule(**args)
    assert message in str(exc.value)


def test_aliases_and_json():
    assert pipeline_schedule("DAPPLE").name == "1f1b"
    assert pipeline_schedule("zb1p").name == "zb-h1"
    d = json.loads(json.dumps(pipeline_schedule("zb-h1", 4, 8).to_dict()))
    for key in ("schedule", "p", "m", "makespan", "bubble_fraction", "peak_in_flight", "devices"):
        assert key in d
    assert d["devices"][0]["ops"][0] == {
        "op": "F1",
        "kind": "F",
        "micro": 1,
        "stage": 0,
        "chunk": 0,
        "start": 1,
        "finish": 1,
    }
    assert sum(len(dev["ops"]) for dev in d["devices"]) == 3 * 4 * 8


def test_activation_bytes_and_memory_calculator_agree():
    from lecturekit.llm.config import ParallelConfig
    from lecturekit.llm.memory import memory_report

    for sched in ("1f1b", "gpipe"):
        par = ParallelConfig(pp=4, micro_batches=8, schedule=sched)
        rep = memory_report("gpt2", par)
        run = pipeline_schedule(sched, 4, 8)
        assert [st.in_flight for st in rep.stages] == run.peak_in_flight
        per_mb = [st.activations // st.in_flight for st in rep.stages]
        assert run.activation_bytes(per_mb[1])[1] == rep.stages[1].activations


# -- properties ---------------------------------------------------------------------------------


@st.composite
def settings_for_a_schedule(draw):
    name = draw(st.sampled_from(list(SCHEDULES)))
    p = draw(st.integers(1, 6))
    v = None
    if name == "interleaved":
        v = draw(st.integers(1, 3))
        m = p * draw(st.integers(1, 4))
        tf, tb, tw = (v * draw(st.integers(1, 3)) for _ in range(3))
    else:
        m = draw(st.integers(1, 12))
        tf, tb = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        tw = draw(st.integers(1 if name.startswith("zb") else 0, 3))
    comm = draw(st.integers(0, 3))
    return name, p, m, v, tf, tb, tw, comm


@settings(max_examples=150, deadline=None)
@given(settings_for_a_schedule())
def test_every_schedule_is_legal_and_bounded(args):
    name, p, m, v, tf, tb, tw, comm = args
    run = pipeline_schedule(name, p, m, v, tf, tb, tw, comm)  # no DeadlockError
    core.verify(run.pg.graph, run.schedule)
    # each device runs exactly its own passes, each once
    for d in range(p):
        mine = sorted(i for i, op in enumerate(run.ops) if op.device == d)
        assert sorted(run.device_ops(d)) == mine
    assert sum(len(run.device_ops(d)) for d in range(p)) == len(run.ops)
    lb = run.lower_bounds
    assert run.makespan >= lb["device work"]
    assert run.makespan >= lb["critical path"]
    assert run.makespan >= lb["core"]
    assert 0 <= run.bubble_fraction < 1
    cf = closed_form(name, p, m, run.v, run.timing)
    if cf is not None:
        assert run.makespan == cf
    if name in ("1f1b", "pipedream", "zb-h1"):
        assert run.peak_in_flight == [min(p - s, m) for s in range(p)]
    if name == "gpipe":
        assert run.peak_in_flight == [m] * p


def test_orders_module_is_pure_data():
    from lecturekit.llm import pp_schedules

    keys = pp_schedules.one_f_one_b(4, 8)
    assert keys[0][:5] == [("F", 1, 0), ("F", 2, 0), ("F", 3, 0), ("F", 4, 0), ("B", 1, 0)]
    pg = build_pipeline_graph(4, 8)
    assert run_order(pg, keys).makespan == 33
    text = ["F1 F2 F3 F4 B1 F5 B2 F6 B3 F7 B4 F8 B5 B6 B7 B8"] + [
        " ".join(f"{k}{mb}" for k, mb, _ in keys[d]) for d in range(1, 4)
    ]
    assert run_order(pg, parse_order(pg, text)).schedule.start == run_order(pg, keys).schedule.start
    assert ppm.MAX_OPS >= 1000


def test_eager_list_schedule_is_a_heuristic():
    # chapter 4's lesson again: greedy list scheduling is not always optimal
    eager = pipeline_schedule("1f1b-eager", 3, 4, tf=2, tb=1, tw=0)
    strict = pipeline_schedule("1f1b", 3, 4, tf=2, tb=1, tw=0)
    assert (eager.makespan, strict.makespan) == (19, 18)
    assert closed_form("1f1b-eager", 3, 4, 1, eager.timing) is None


def test_eager_memory_cap():
    from lecturekit.llm.pipeline_parallel import eager_order

    pg = build_pipeline_graph(4, 8)
    # one micro-batch in flight: no overlap at all, like naive model parallelism
    assert run_order(pg, eager_order(pg, cap=1)).makespan == 4 * 8 * 3
    assert run_order(pg, eager_order(pg, cap=4)).makespan == 33
    with pytest.raises(ScheduleError, match="cap"):
        eager_order(pg, cap=0)
    with pytest.raises(ScheduleError, match="v = 1"):
        eager_order(build_pipeline_graph(4, 8, split=True))


def test_mapping_of_token_lists_is_parsed():
    from lecturekit.llm.pipeline_parallel import pipeline_schedule, run_order

    pg = pipeline_schedule("1f1b", 2, 2).pg
    by_text = run_order(pg, ["F1 F2 B1 B2", "F1 B1 F2 B2"])
    by_tokens = run_order(pg, {0: ["F1", "F2", "B1", "B2"], 1: ["F1", "B1", "F2", "B2"]})
    assert by_tokens.makespan == by_text.makespan
    assert by_tokens.schedule.start == by_text.schedule.start


def test_bubble_sweep_keeps_coinciding_curves_distinguishable():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lecturekit.viz.timeline import plot_bubble_sweep

    ms = [1, 2, 4, 8]
    series = {
        n: [(m, pipeline_schedule(n, 4, m).bubble_fraction) for m in ms] for n in ("gpipe", "1f1b")
    }
    series["(p-1)/(m+p-1)"] = [(m, 3 / (m + 3)) for m in ms]
    # the three curves coincide (this is what the chapter's figure shows): the same m on every
    # curve, and bubble fractions equal up to rounding (pytest.approx takes flat sequences only)
    for name, curve in series.items():
        assert [m for m, _ in curve] == ms, name
    fractions = {name: [f for _, f in curve] for name, curve in series.items()}
    assert fractions["gpipe"] == pytest.approx(fractions["1f1b"])
    assert fractions["1f1b"] == pytest.approx(fractions["(p-1)/(m+p-1)"])
    fig, ax = plt.subplots()
    plot_bubble_sweep(series, ax, p=4)
    lines = ax.get_lines()
    # ... so each is drawn with its own marker and line style, the first the biggest
    looks = {(ln.get_marker(), str(ln.get_linestyle())) for ln in lines}
    assert len(looks) == len(lines) == 3
    sizes = [ln.get_markersize() for ln in lines]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
    plt.close(fig)
