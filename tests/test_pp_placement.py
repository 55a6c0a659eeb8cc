"""Stage placement as data (loop, V, custom) and the second edition's schedules: looped BFS,
ZB-V, DualPipeV, interleaved 1F1B from the start; closed forms and memory checked."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit import core
from lecturekit.errors import ScheduleError
from lecturekit.llm import pp_schedules
from lecturekit.llm.pipeline_parallel import (
    ALL_SCHEDULES,
    MORE_SCHEDULES,
    Timing,
    build_pipeline_graph,
    closed_form,
    parse_order,
    pipeline_schedule,
    placement_devices,
    run_order,
)

# -- placement ------------------------------------------------------------------------------------


def test_placements():
    assert placement_devices(4, 2) == (0, 1, 2, 3, 0, 1, 2, 3)
    assert placement_devices(4, 2, "interleaved") == placement_devices(4, 2)
    assert placement_devices(4, 2, "v") == (0, 1, 2, 3, 3, 2, 1, 0)
    assert placement_devices(2, 4, "v") == (0, 1, 1, 0, 0, 1, 1, 0)
    assert placement_devices(3, 1, "v") == (0, 1, 2)
    pg = build_pipeline_graph(4, 2, 2, Timing(2, 2, 2), placement="v")
    for d in range(4):
        assert pg.stages_of(d) == [d, 7 - d]
        assert pg.stage_of(d, 1) == 7 - d
    assert pg.placement_name == "v" and "placement=v" in pg.graph.name
    # the default keeps the loop: every existing graph is unchanged
    old = build_pipeline_graph(4, 2, 2, Timing(2, 2, 2))
    assert old.placement_name == "loop" and [op.device for op in old.ops[:8]] == list(range(4)) * 2


def test_v_placement_has_no_transfer_at_the_turn():
    # stages p-1 and p are both on device p-1: the activation stays on the device
    t = Timing(2, 2, 2, comm=5)
    pg = build_pipeline_graph(3, 1, 2, t, placement="v")
    lat = {(e.src, e.dst): e.latency for e in pg.graph.edges}
    assert lat[pg.op("F", 1, 2), pg.op("F", 1, 3)] == 1  # chunk forward only
    assert lat[pg.op("F", 1, 1), pg.op("F", 1, 2)] == 1 + 5
    loop = build_pipeline_graph(3, 1, 2, t)
    lat = {(e.src, e.dst): e.latency for e in loop.graph.edges}
    assert lat[loop.op("F", 1, 2), loop.op("F", 1, 3)] == 1 + 5


def test_custom_placement_and_hand_written_order():
    pg = build_pipeline_graph(2, 1, 2, Timing(2, 2, 0), placement=[0, 1, 1, 0])
    assert pg.placement_name == "v"
    order = parse_order(pg, ["F1 F1.1 B1.1 B1", "F1 F1.1 B1.1 B1"])
    run = run_order(pg, order)
    core.verify(pg.graph, run.schedule)
    # stage 3 (device 0's chunk 1) is the last: F on 0,1,1,0 then B on 0,1,1,0 = 8 passes of 1
    assert run.makespan == 8
    with pytest.raises(ScheduleError, match="stage 2 runs on device 1, not 0"):
        parse_order(pg, ["F1@2 F1 B1 B1@3", "F1@1 F1@2 B1@2 B1@1"])


@pytest.mark.parametrize(
    "placement, message",
    [
        ("diagonal", "unknown placement"),
        ([0, 1, 2, 3], "4 device number"),
        ([0, 0, 0, 1, 1, 1], "device 0 holds 3"),
        ([0, 1, 5, 0, 1, 2], "stage 2 is on device 5"),
        ("x1", "unknown placement"),
        ([0.5], "1 device number|must"),
    ],
)
def test_bad_placements_are_explained(placement, message):
    with pytest.raises(ScheduleError, match=message):
        build_pipeline_graph(3, 2, 2, Timing(2, 2, 2), placement=placement)


# -- interleaved 1F1B from the start (current Megatron-LM and PyTorch) -----------------------------


def test_interleaved_p8_m8_peak_in_flight_figure():
    new = pipeline_schedule("interleaved", 8, 8, 2, 2, 2, 2)
    old = pipeline_schedule("interleaved", 8, 8, 2, 2, 2, 2, all_forwards_first=True)
    assert [float(x) for x in new.peak_in_flight] == [8, 8, 8, 8, 7.5, 6.5, 5.5, 4.5]
    assert old.peak_in_flight == [8] * 8
    assert new.makespan == old.makespan == 69 == closed_form("interleaved", 8, 8, 2, new.timing)


@pytest.mark.parametrize(
    "p,m,v", [(2, 2, 2), (3, 3, 3), (4, 4, 2), (4, 4, 4), (4, 8, 2), (5, 10, 2)]
)
def test_interleaved_closed_forms_for_every_m_from_p(p, m, v):
    t = Timing(v, 2 * v, v)
    r = pipeline_schedule("interleaved", p, m, v, timing=t)
    work = t.forward + t.full_backward
    assert r.makespan == m * work + (p - 1) * work // v == closed_form("interleaved", p, m, v, t)
    # device d: min(2 (p-d-1) + (v-1) p + 1, m v) chunk-forwards alive before its first backward
    assert r.peak_in_flight == [
        Fraction(min(2 * (p - d - 1) + (v - 1) * p + 1, m * v), v) for d in range(p)
    ]


# -- looped BFS -----------------------------------------------------------------------------------


@pytest.mark.parametrize("p,m,v", [(2, 2, 2), (4, 4, 2), (4, 8, 2), (3, 6, 3), (4, 8, 4)])
def test_looped_bfs_closed_form_and_memory(p, m, v):
    t = Timing(v, v, v)
    r = pipeline_schedule("looped-bfs", p, m, v, timing=t)
    work = t.per_micro_batch()
    # Lamy-Poirier 2022: the interleaved bubble (p-1)/(v m) with GPipe's memory (m in flight)
    assert r.makespan == m * work + (p - 1) * work // v == closed_form("looped-bfs", p, m, v, t)
    assert r.bubble_over_ideal == pytest.approx((p - 1) / (v * m))
    assert r.peak_in_flight == [m] * p
    inter = pipeline_schedule("interleaved", p, m, v, timing=t)
    assert r.makespan == inter.makespan and max(r.peak_in_flight) >= max(inter.peak_in_flight)


# -- ZB-V and DualPipeV ----------------------------------------------------------------------------


@pytest.mark.parametrize("p,m", [(1, 3), (2, 3), (2, 4), (3, 5), (4, 7), (4, 8), (4, 12), (6, 12)])
def test_zb_v_closed_form_and_1f1b_memory(p, m):
    t = Timing(2, 2, 2)
    r = pipeline_schedule("zb-v", p, m, timing=t)
    assert r.pg.placement_name == ("v" if p > 1 else "loop") and r.pg.split
    # every device busy without a gap after p - 1 chunk forwards (T_F / 2 each)
    assert r.makespan == m * 6 + (p - 1) * 1 == closed_form("zb-v", p, m, 2, t)
    # Qi et al.: ZB-V's peak activation memory is 1F1B's p M_B, on every device
    assert r.peak_in_flight == [p] * p == [max(pipeline_schedule("1f1b", p, m).peak_in_flight)] * p
    assert r.peak_held == [p] * p
    # and its time is ZB-H2's minus half the warm-up, at half ZB-H2's memory
    h2 = pipeline_schedule("zb-h2", p, m, timing=t)
    assert r.makespan == h2.makespan - (p - 1)
    assert max(h2.peak_in_flight) == 2 * p - 1


def test_zb_v_with_few_micro_batches_says_so():
    r = pipeline_schedule("zb-v", 4, 4, tf=2, tb=2, tw=2)
    assert "2p - 1" in r.note and closed_form("zb-v", 4, 4, 2, r.timing) is None
    assert r.peak_in_flight == [Fraction(5, 2), 3, Fraction(7, 2), 4]


@pytest.mark.parametrize("p,m", [(1, 2), (2, 4), (3, 6), (3, 9), (4, 8), (4, 12), (6, 12)])
def test_dualpipev_closed_form_and_memory(p, m):
    t = Timing(2, 2, 2)
    r = pipeline_schedule("dualpipev", p, m, timing=t)
    assert r.makespan == m * 6 + (p - 1) == closed_form("dualpipev", p, m, 2, t)
    # DeepSeek's table: activation PP + 1 chunks, here 2p + 1 chunks = p + 1/2 device shares
    assert r.peak_in_flight == [Fraction(2 * p + 1, 2)] * p
    assert "no overlap" in r.note


def test_dualpipev_needs_2p_micro_batches():
    with pytest.raises(ScheduleError, match="at least 2p = 8"):
        pipeline_schedule("dualpipev", 4, 7, tf=2, tb=2, tw=2)


def test_v_schedules_with_unequal_durations_and_communication():
    for name in ("zb-v", "dualpipev"):
        for t in (Timing(2, 4, 2), Timing(4, 2, 2), Timing(2, 2, 2, comm=3)):
            r = pipeline_schedule(name, 4, 8, timing=t)
            core.verify(r.pg.graph, r.schedule)
            assert r.makespan >= max(r.lower_bounds.values())
            assert closed_form(name, 4, 8, 2, t) is None


# -- GPipe's backward order ------------------------------------------------------------------------


def test_gpipe_backward_order_option():
    new = pipeline_schedule("gpipe", 4, 8)
    old = pipeline_schedule("gpipe", 4, 8, gpipe_backward="oldest")
    assert [new.ops[i].label for i in new.device_ops(0)][8:10] == ["B8", "B7"]
    assert [old.ops[i].label for i in old.device_ops(0)][8:10] == ["B1", "B2"]
    assert new.makespan == old.makespan == closed_form("gpipe", 4, 8)
    with pytest.raises(ScheduleError, match="gpipe_backward"):
        pipeline_schedule("gpipe", 4, 8, gpipe_backward="middle")


# -- every new schedule, random shapes -------------------------------------------------------------


def test_names():
    assert set(MORE_SCHEDULES) == {
        "looped-bfs",
        "interleaved-zb",
        "zb-v",
        "v-half",
        "v-min",
        "dualpipev",
        "dualpipe",
    }
    assert set(ALL_SCHEDULES) >= set(MORE_SCHEDULES)
    assert pipeline_schedule("ZBV", 2, 4, tf=2, tb=2, tw=2).name == "zb-v"
    with pytest.raises(ScheduleError, match="exactly 2 chunks"):
        pipeline_schedule("zb-v", 2, 4, v=3)
    with pytest.raises(ScheduleError, match="only applies to the interleaved"):
        pipeline_schedule("zb-h1", 2, 4, v=2)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(MORE_SCHEDULES)),
    st.integers(1, 5),
    st.integers(1, 12),
    st.integers(1, 3),
    st.integers(0, 2),
)
def test_every_new_schedule_verifies(name, p, m, scale, comm):
    if name == "dualpipev":
        m = max(m, 2 * p)
    if name == "interleaved-zb":  # PyTorch sends micro-batches in m // p rounds of equal size
        m -= m % max(1, m // p)
    v = 2
    if name == "dualpipe":  # two directions: p and m even, m >= 2p, one stage per direction
        p += p % 2
        m = max(m + m % 2, 2 * p)
        v = 1
    t = Timing(2 * scale, 2 * ((scale % 2) + 1), 2, comm)
    r = pipeline_schedule(name, p, m, v, timing=t)
    core.verify(r.pg.graph, r.schedule)
    for d in range(p):
        assert sorted(r.device_ops(d)) == sorted(i for i, op in enumerate(r.ops) if op.device == d)
    assert r.makespan >= max(r.lower_bounds.values())
    cf = closed_form(name, p, m, v, t)
    if cf is not None:
        assert r.makespan == cf


def test_orders_are_pure_data():
    keys = pp_schedules.zb_v(3, 5)
    assert all(isinstance(k, tuple) and len(k) == 3 for ks in keys.values() for k in ks)
    assert sum(len(ks) for ks in keys.values()) == 3 * 2 * 5 * 3


# -- V-Half and V-Min (Qi et al. 2024, "Pipeline Parallelism with Controllable Memory") ------------
#
# The authors' table (T_F = T_B = T_W; bubble rate = 1 - m (T_F+T_B+T_W) / makespan; memory in
# micro-batches of one device's activations, held until W):
#
#     1F1B ~p/m, p      V-Min ~2p/3m, (p+4)//3      V-Half ~p/2m, (p+2)//2      V-ZB 0, p
#
# The memory is exact (it follows from each device's order alone); the bubble rates are stated
# only approximately ("~"), so the test asserts ours is at most that and below 1F1B's.


@pytest.mark.parametrize("p", [1, 2, 3, 4, 5, 6, 8])
@pytest.mark.parametrize("k", [2, 3])
def test_v_half_and_v_min_memory_and_bubble(p, k):
    m = k * p
    t = Timing(2, 2, 2)
    ofob = pipeline_schedule("1f1b", p, m, timing=t)
    rate_1f1b = 1 - ofob.ideal / ofob.makespan
    assert max(ofob.peak_in_flight) == p
    for name, memory, rate in (
        ("v-min", (p + 4) // 3, Fraction(2 * p, 3 * m)),
        ("v-half", (p + 2) // 2, Fraction(p, 2 * m)),
    ):
        r = pipeline_schedule(name, p, m, timing=t)
        core.verify(r.pg.graph, r.schedule)
        assert r.pg.placement_name == ("v" if p > 1 else "loop") and r.pg.split
        assert max(r.peak_held) == memory  # held until W, as the paper counts
        assert max(r.peak_in_flight) <= memory
        assert r.ideal == m * 6
        ours = 1 - Fraction(r.ideal, r.makespan)
        assert ours <= rate
        if p > 1:
            assert ours < rate_1f1b
        assert closed_form(name, p, m, 2, t) is None  # no exact closed form is published


def test_v_min_keeps_a_third_and_v_half_half_of_1f1b():
    # p = 8, m = 16: 1F1B 8, V-Half 5, V-Min 4 micro-batches; ZB-V (V-ZB) keeps 1F1B's 8
    t = Timing(2, 2, 2)
    peaks = {
        n: max(pipeline_schedule(n, 8, 16, timing=t).peak_held) for n in ("zb-v", "v-half", "v-min")
    }
    assert peaks == {"zb-v": 8, "v-half": 5, "v-min": 4}
    # device 0 of V-Min at p = 4, by hand from the block (slots of micro-batch 1: chunk-0
    # forward 0, chunk-1 forward 7, chunk-1 backward 8, chunk-0 backward 15; every 6 slots
    # the next micro-batch): slots 0 6 7 8 | 12 13 14 15 | 18 19 20, a W (chunk 1's first) in
    # the first free slot after its B: 9, 16 and 17
    block = pp_schedules.v_min(4, 4, squeeze=False)
    head = [k + str(m) + (".1" if s else "") for k, m, s in block[0][:14]]
    assert head == "F1 F2 F1.1 B1.1 W1.1 F3 F2.1 B2.1 B1 W2.1 W1 F4 F3.1 B3.1".split()


@pytest.mark.parametrize("name", ["v-half", "v-min"])
@pytest.mark.parametrize("p,m", [(3, 6), (4, 8), (6, 12)])
def test_the_squeeze_shortens_without_more_memory(name, p, m):
    # the authors' greedy squeeze of the warm-up and cool-down (the default) against the
    # repeated block as it is: never longer, the same peak memory; V-Half at p = 4, m = 8
    # loses 7 of its 12 units of bubble per device (60 -> 53, 48 units of work)
    t = Timing(2, 2, 2)
    make = pp_schedules.v_half if name == "v-half" else pp_schedules.v_min
    pg = build_pipeline_graph(p, m, 2, t, split=True, placement="v")
    block = run_order(pg, make(p, m, squeeze=False))
    squeezed = pipeline_schedule(name, p, m, timing=t)
    assert squeezed.makespan <= block.makespan
    assert max(squeezed.peak_held) == max(block.peak_held)
    if (name, p, m) == ("v-half", 4, 8):
        assert (block.makespan, squeezed.makespan, squeezed.ideal) == (60, 53, 48)


def test_v_half_and_v_min_in_pytorch_notation():
    from lecturekit.llm.pipeline_parallel.torch_interchange import import_torch, to_torch

    for name in ("v-half", "v-min"):
        ours = pipeline_schedule(name, 4, 8, tf=2, tb=2, tw=2)
        back = import_torch(to_torch(ours), ours.timing)
        assert back.schedule.start == ours.schedule.start, name
        assert back.pg.placement == ours.pg.placement == placement_devices(4, 2, "v")
