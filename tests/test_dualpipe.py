"""DualPipe (DeepSeek-V3): micro-batches in two directions, so the placement depends on the
micro-batch; its order as DeepSeek's ``dualpipe.py`` runs it; DeepSeek's table checked.

DeepSeek's table (DeepSeek-V3 report, the DualPipe README), ``PP`` pipeline stages,
``F``/``B``/``W`` a stage's forward / full backward / weight-gradient chunk, ``F&B`` a paired
forward and backward:

    1F1B      bubble (PP-1)(F+B)            parameters 1x  activations PP
    DualPipe  bubble (PP/2-1)(F&B+B-3W)     parameters 2x  activations PP+1

The cost model of the bubble check: one pass at a time per device (nothing overlaps, so
``F&B = F + B``: a paired forward and full backward take their sum), no communication time,
``T_F = T_B = T_W = t`` (so ``F = W = t`` and the full backward ``B = T_B + T_W = 2t``), and
every *call* of the reference implementation is one unit (``calls=True``): a full backward
sends its input gradient only when its weight gradient is done too (one autograd call), and a
forward paired with a backward waits for both inputs and sends both outputs at the end of the
pair, as ``_forward_backward_chunk`` does. Then the bubble per device is exactly
``(p/2 - 1)(3t + 2t - 3t) = (p/2 - 1) 2t``. Without the calls (every pass sends its output as
soon as it ends, ``calls=False``) the schedule loses half of that: ``(p/2 - 1) t``.

The overlap (issue 30): ``Timing(paired=F&B)`` gives the time of a paired forward and full
backward when their computation and communication overlap (DeepSeek-V3, section 3.2.1: "the key
idea of DualPipe is to overlap the computation and communication within a pair of individual
forward and backward chunks"), ``F&B < F + B``. Then devices do different amounts of work (the
middle ones pair more chunks) and the table's bubble is the most idle device's, for every
``F&B`` the model allows.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit import core
from lecturekit.errors import ScheduleError
from lecturekit.llm import pp_schedules
from lecturekit.llm.pipeline_parallel import (
    ALL_SCHEDULES,
    Timing,
    build_pipeline_graph,
    closed_form,
    deepseek_bubble,
    parse_order,
    pipeline_schedule,
    placement_devices,
    placement_directions,
    run_order,
)

# -- placement that depends on the micro-batch's direction -----------------------------------------


def test_dualpipe_placement_is_data():
    assert placement_directions(4, 1, "dualpipe") == ((0, 1, 2, 3), (3, 2, 1, 0))
    assert placement_directions(4, 2, "v") == (placement_devices(4, 2, "v"),)
    assert placement_directions(3, 1, [[0, 1, 2], [2, 1, 0]]) == ((0, 1, 2), (2, 1, 0))
    assert placement_directions(3, 1, {0: [0, 1, 2], 1: [1, 2, 0]})[1] == (1, 2, 0)
    pg = build_pipeline_graph(4, 8, 1, Timing(), split=True, placement="dualpipe")
    assert pg.placement_name == "dualpipe" and "placement=dualpipe" in pg.graph.name
    assert pg.directions == (0, 0, 0, 0, 1, 1, 1, 1)  # half enter at each end
    for d in range(4):
        assert pg.chunks_of(d) == [(0, d), (1, 3 - d)]  # stage d down, stage 3 - d up
        assert pg.parameter_share(d) == Fraction(2, 4)  # two copies: 2x 1F1B's 1/p
    for op in pg.ops:
        want = op.stage if op.micro <= 4 else 3 - op.stage
        assert op.device == want and op.chunk == (op.micro > 4)
        assert pg.device_of(op.stage, op.micro) == want
    one = build_pipeline_graph(4, 8)
    assert one.parameter_share(0) == Fraction(1, 4) and one.directions == ()


def test_two_directions_fill_each_others_bubble_by_hand():
    # p = 2, m = 2, every pass 1 time unit: micro-batch 1 goes down (device 0 then 1),
    # micro-batch 2 up (1 then 0).
    # t=1: dev0 F1, dev1 F2; t=2: dev0 F2 (stage 1), dev1 F1 (stage 1); t=3: the two last
    # stages turn round, B2 on dev0, B1 on dev1; t=4: B1 on dev0, B2 on dev1: no idle slot,
    # where 1F1B needs (m + p - 1) 2 = 6
    pg = build_pipeline_graph(2, 2, timing=Timing(1, 1, 0), placement=[[0, 1], [1, 0]])
    run = run_order(pg, parse_order(pg, ["F1 F2 B2 B1", "F2 F1 B1 B2"]))
    core.verify(pg.graph, run.schedule)
    assert run.makespan == 4 and run.bubble_time == 0
    assert pipeline_schedule("1f1b", 2, 2, tw=0).makespan == 6
    # chunk 1 of a device is its stage of the up direction, where micro-batch 2 runs
    assert parse_order(pg, ["F1 F2.1 B2.1 B1", "F2.1 F1 B1 B2.1"]) == run.order
    assert [run.ops[i].label for i in run.device_ops(1)] == ["F2.1", "F1", "B1", "B2.1"]
    with pytest.raises(ScheduleError, match="chunk 0 of device 0 is in direction 0"):
        parse_order(pg, ["F1 F2.0 B2 B1", "F2 F1 B1 B2"])
    with pytest.raises(ScheduleError, match="stage 0 runs on device 1, not 0"):
        parse_order(pg, ["F1 F2@0 B2 B1", "F2 F1 B1 B2"])
    # the directions are data too: swapped, micro-batch 1 goes up
    swapped = build_pipeline_graph(2, 2, placement=[[0, 1], [1, 0]], directions=[1, 0])
    assert swapped.device_of(0, 1) == 1 and swapped.device_of(0, 2) == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"placement": [[0, 1, 2], [2, 1, 0], [0, 1, 2]]}, "one direction or two"),
        ({"placement": [[0, 1, 2], [2, 1]]}, "2 device number"),
        ({"placement": {0: [0, 1, 2], 2: [2, 1, 0]}}, "numbered 0, 1"),
        ({"placement": "dualpipe", "directions": [0, 1]}, "2 given for m = 4"),
        ({"placement": "dualpipe", "directions": [0, 1, 2, 0]}, "micro-batch 3 has direction 2"),
        ({"placement": "dualpipe", "directions": "up"}, "one direction number"),
    ],
)
def test_bad_two_direction_placements_are_explained(kwargs, message):
    with pytest.raises(ScheduleError, match=message):
        build_pipeline_graph(3, 4, 1, **kwargs)


def test_odd_m_does_not_split_in_two_directions():
    with pytest.raises(ScheduleError, match="do not split evenly"):
        build_pipeline_graph(2, 3, placement="dualpipe")
    with pytest.raises(ScheduleError, match="placement_directions"):
        placement_devices(4, 1, "dualpipe")


# -- the order of DeepSeek's dualpipe.py -----------------------------------------------------------


def test_device_0_runs_the_reference_steps():
    # p = 4, m = 8 (half_num_chunks 4), rank 0 (half_rank 0, num_half_ranks 2), read off the
    # eight steps of dualpipe.py: 1: nF0 x2; 2: nF0F1 x1; 3: nB1W1F1 x1 (zero bubble); 4: main
    # step x1 (F0 with a full B1, F1 with a full B0); 5: nB1F1B0 x1; 6: nB1B0 x1 (the second
    # backward split: B only); 7: nWB0 x1; 8: nW x1. Micro-batches 5-8 are the up direction.
    want = (
        "F1 F2 | F3 F5 | B5 W5 F6 | F4 B6 W6 F7 B1 W1 | B7 W7 F8 B2 W2 | B8 W8 B3 | W3 B4 | W4"
    ).replace("| ", "")
    keys = pp_schedules.dualpipe(4, 8)[0]
    assert " ".join(f"{k}{m}" for k, m, _ in keys) == want
    calls = pp_schedules.dualpipe_calls(4, 8)[0]
    assert [("F", 4, 0), ("B", 6, 3), ("W", 6, 3)] in calls  # paired: forward with a backward
    assert [("B", 7, 3), ("W", 7, 3)] in calls and [("B", 3, 0)] in calls


@pytest.mark.parametrize("p,m", [(2, 4), (4, 8), (6, 14)])
def test_mirrored_devices_share_one_dualpipev_order(p, m):
    keys = pp_schedules.dualpipe(p, m)
    for d in range(p // 2):
        mirror = keys[p - 1 - d]
        assert len(keys[d]) == len(mirror) == 3 * m
        for (k1, m1, s1), (k2, m2, s2) in zip(keys[d], mirror, strict=True):
            # the same step on the mirror: same pass and stage number, the other direction
            assert k1 == k2 and s2 == s1 and (m1 - 1) % (m // 2) == (m2 - 1) % (m // 2)
            assert (m1 > m // 2) != (m2 > m // 2)
    # rank d's order is DualPipeV's device min(d, p-1-d) on p/2 devices and m/2 micro-batches
    v = pp_schedules.dualpipe_v(p // 2, m // 2)[0]
    assert [(k, (mi - 1) % (m // 2) + 1) for k, mi, _ in keys[0]] == [(k, mi) for k, mi, _ in v]


# -- DeepSeek's table ------------------------------------------------------------------------------


@pytest.mark.parametrize("p,m", [(2, 4), (4, 8), (4, 12), (6, 12), (8, 16)])
@pytest.mark.parametrize("t", [1, 3])
def test_deepseek_table(p, m, t):
    timing = Timing(t, t, t)
    f, b, w = t, 2 * t, t  # a stage's forward, full backward, weight gradient
    fb = f + b  # a paired forward and backward, run one after the other
    loose = pipeline_schedule("dualpipe", p, m, timing=timing)
    calls = pipeline_schedule("dualpipe", p, m, timing=timing, calls=True)
    ofob = pipeline_schedule("1f1b", p, m, timing=timing)
    for r in (loose, calls):
        core.verify(r.pg.graph, r.schedule)
        assert r.ideal == m * 3 * t  # every device runs one stage of every micro-batch
        # activations PP + 1 (1F1B: PP), in a stage's activations of one micro-batch
        assert r.peak_in_flight == [p + 1] * p and max(ofob.peak_in_flight) == p
        assert r.peak_held == [p + 1] * p
        # parameters 2x
        assert [r.pg.parameter_share(d) for d in range(p)] == [Fraction(2, p)] * p
        assert ofob.pg.parameter_share(0) == Fraction(1, p)
    # bubble (PP/2 - 1)(F&B + B - 3W) per device with the reference's calls as units
    assert calls.bubble_time == (p // 2 - 1) * (fb + b - 3 * w)
    assert calls.makespan == m * 3 * t + (p // 2 - 1) * (fb + b - 3 * w)
    assert calls.makespan == closed_form("dualpipe", p, m, 1, timing, calls=True)
    # each pass sending its output at once: half of it
    assert (
        loose.bubble_time == (p // 2 - 1) * t == closed_form("dualpipe", p, m, 1, timing) - r.ideal
    )
    # 1F1B's (PP - 1)(F + B) for comparison
    assert ofob.bubble_time == (p - 1) * (f + b)


@pytest.mark.parametrize("p,m", [(2, 4), (3, 6), (4, 8)])
def test_dualpipev_with_calls_has_deepseeks_bubble(p, m):
    # DualPipeV: PP = 2p stages of half a device's share; F = W = 1 chunk unit, B = 2
    r = pipeline_schedule("dualpipev", p, m, tf=2, tb=2, tw=2, calls=True)
    assert r.bubble_time == (2 * p // 2 - 1) * (3 + 2 - 3)
    assert r.makespan == closed_form("dualpipev", p, m, 2, r.timing, calls=True)
    assert r.peak_in_flight == [Fraction(2 * p + 1, 2)] * p  # PP + 1 chunks


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([2, 4, 6]),
    st.integers(0, 4),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(0, 2),
    st.booleans(),
)
def test_dualpipe_verifies_for_any_durations(p, extra, tf, tb, tw, comm, calls):
    m = 2 * p + 2 * extra
    r = pipeline_schedule("dualpipe", p, m, tf=tf, tb=tb, tw=tw, comm=comm, calls=calls)
    core.verify(r.pg.graph, r.schedule)
    assert r.makespan >= max(r.lower_bounds.values())
    for d in range(p):
        ops = [r.ops[i] for i in r.device_ops(d)]
        assert len(ops) == 3 * m and all(op.device == d for op in ops)
        assert all(op.stage == (d if op.micro <= m // 2 else p - 1 - d) for op in ops)
    cf = closed_form("dualpipe", p, m, 1, r.timing, calls=calls)
    if cf is not None:
        assert r.makespan == cf
    if calls:  # calls only add waits
        assert (
            r.makespan
            >= pipeline_schedule("dualpipe", p, m, tf=tf, tb=tb, tw=tw, comm=comm).makespan
        )


def test_dualpipe_errors_and_names():
    assert "dualpipe" in ALL_SCHEDULES
    assert pipeline_schedule("DualPipe", 2, 4).name == "dualpipe"
    for p, m in ((3, 6), (4, 7), (4, 6)):
        with pytest.raises(ScheduleError, match="even number of devices p and an even number"):
            pipeline_schedule("dualpipe", p, m)
    with pytest.raises(ScheduleError, match="one stage of each direction"):
        pipeline_schedule("dualpipe", 4, 8, v=2)
    with pytest.raises(ScheduleError, match="only dualpipe and dualpipev have calls"):
        pipeline_schedule("1f1b", 4, 8, calls=True)
    with pytest.raises(ScheduleError, match="calls: there is no pass"):
        build_pipeline_graph(2, 2, calls=[[("F", 3, 0)]])
    with pytest.raises(ScheduleError, match="run on one device"):
        build_pipeline_graph(2, 2, calls=[[("F", 1, 0), ("F", 1, 1)]])
    from lecturekit.llm.pipeline_parallel.torch_interchange import format_torch

    with pytest.raises(ScheduleError, match="two directions"):
        format_torch(pipeline_schedule("dualpipe", 2, 4))


def test_cli_dualpipe(capsys):
    from lecturekit.cli import main

    assert main(["parallel", "pipeline", "--schedule", "dualpipe", "-p", "4", "-m", "8"]) == 0
    out = capsys.readouterr().out
    assert "F5.1" in out and "makespan 25" in out and "go down from device 0" in out
    code = main(
        [
            "parallel",
            "pipeline",
            "--schedule",
            "dualpipe",
            "-p",
            "4",
            "-m",
            "8",
            "--calls",
            "--json",
        ]
    )
    import json

    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["makespan"] == data["closed_form_makespan"] == 26
    assert data["peak_in_flight"] == [5, 5, 5, 5]
    assert main(["parallel", "pipeline", "--schedule", "dualpipe", "-p", "3", "-m", "8"]) == 2
    assert "even number of devices" in capsys.readouterr().err


def test_widget_shows_both_directions():
    pytest.importorskip("ipywidgets")
    from lecturekit.widgets.pipeline_parallel import pipeline_explorer, step_caption

    ex = pipeline_explorer("dualpipe")
    assert ex.error.value == "" and ex.run.makespan == 8 * 6 + 1 * 2  # T = 2: m 3T + (p/2-1) T
    assert "dualpipe: 0: 0 down, 3 up; 1: 1 down, 2 up" in ex.summary.value
    assert "parameters per device (of the model)</td><td><b>1/2" in ex.summary.value
    assert "(stages 0 down, 3 up)" in step_caption(ex.run, 1)
    ex.controls["p"].value = 3
    assert "even number of devices" in ex.error.value and ex.run.p == 4


# -- the overlap of a paired forward and backward (issue 30) ---------------------------------------


def _most_idle(r):
    return max(r.idle(d) for d in range(r.p))


@pytest.mark.parametrize("name", ["dualpipe", "dualpipev"])
@pytest.mark.parametrize("p,m", [(2, 4), (4, 8), (4, 12), (6, 14), (8, 16), (8, 20)])
@pytest.mark.parametrize("t", [2, 4])
def test_overlap_gives_deepseeks_bubble_on_the_most_idle_device(name, p, m, t):
    v = 2 if name == "dualpipev" else 1
    stages = p * v
    f, b, w = Fraction(t, v), Fraction(2 * t, v), Fraction(t, v)
    runs = []
    for paired in range(2 * t + 1, 3 * t + 1):  # from the fullest overlap the model allows
        if paired % v:
            continue
        r = pipeline_schedule(name, p, m, tf=t, tb=t, tw=t, calls=True, paired=paired)
        core.verify(r.pg.graph, r.schedule)
        fb = Fraction(paired, v)
        assert (
            _most_idle(r)
            == (stages // 2 - 1) * (fb + b - 3 * w)
            == deepseek_bubble(name, p, r.timing)
        )
        runs.append(r)
    # the reference's order is kept: only the pairs' durations change
    plain = pipeline_schedule(name, p, m, tf=t, tb=t, tw=t, calls=True)
    assert all(r.order == plain.order for r in runs)
    assert runs[-1].schedule.start == plain.schedule.start  # F&B = F + B + W: no overlap
    # a fuller overlap never makes the step longer, and overlapping at all shortens it
    spans = [r.makespan for r in runs]
    assert spans == sorted(spans) and (len(runs) == 1 or spans[0] < spans[-1])
    assert deepseek_bubble(name, p, plain.timing) == (stages // 2 - 1) * (f + b + b - 3 * w)


def test_an_overlapped_pair_takes_f_and_b_on_its_device():
    r = pipeline_schedule("dualpipe", 4, 8, tf=4, tb=4, tw=4, calls=True, paired=9)
    pairs = [c for c in r.pg.calls if {k for k, _, _ in c} == {"F", "B", "W"}]
    assert pairs
    for call in pairs:
        ops = [r.pg.op(*key) for key in call]
        first, last = r.schedule.start[ops[0]], r.finish(ops[-1])
        assert last - first + 1 == 9  # F&B, the forward's share 9 - (4 + 4) = 1
        assert r.pg.ops[ops[0]].duration == 1
    assert r.timing.as_dict() == {"F": 4, "B": 4, "W": 4, "comm": 0, "F&B": 9}
    assert "F&B = 9 (overlapped; F + B + W = 12)" in r.note
    assert closed_form("dualpipe", 4, 8, 1, r.timing, calls=True) is None  # devices differ


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(name="dualpipe", paired=8), "at least T_B \\+ T_W \\+ 1 = 9"),
        (dict(name="dualpipe", paired=13), "at most T_F \\+ T_B \\+ T_W = 12"),
        (dict(name="dualpipev", paired=11), "not divisible by v = 2"),
        (dict(name="dualpipe", paired=10, calls=False), "as one call"),
        (dict(name="zb-v", paired=10, calls=False), "as one call"),
    ],
)
def test_bad_overlaps_are_explained(kwargs, message):
    kwargs = {"calls": True, **kwargs}
    name = kwargs.pop("name")
    with pytest.raises(ScheduleError, match=message):
        pipeline_schedule(name, 4, 8, tf=4, tb=4, tw=4, **kwargs)


def test_cli_overlap(capsys):
    from lecturekit.cli import main

    args = ["parallel", "pipeline", "--schedule", "dualpipe", "-p", "8", "-m", "16", "--calls"]
    args += ["--tf", "4", "--tb", "4", "--tw", "4"]
    assert main([*args, "--paired", "10"]) == 0
    out = capsys.readouterr().out
    assert "most idle device: 18 time units; DeepSeek-V3's (PP/2 - 1)(F&B + B - 3W) = 18" in out
    assert main(args) == 0
    assert "most idle device: 24 time units" in capsys.readouterr().out
    assert main([a for a in args if a != "--calls"] + ["--paired", "10"]) == 2
    assert "as one call" in capsys.readouterr().err
