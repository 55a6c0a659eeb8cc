"""Priority scheduling of gradient chunks on the scheduling core (相关工作--优先级调度)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit import core
from lecturekit.errors import LectureKitError
from lecturekit.llm.priority_comm import (
    build_graph,
    compare,
    ddp_bucket_sweep,
    ddp_closed_form,
    ddp_step,
    fsdp_closed_form,
    fsdp_forward,
    priority_schedule,
)


def test_the_chapters_small_case_by_hand():
    # 3 layers, B = 2, F = 1, each gradient in 2 chunks of 2 time units; time starts at 1.
    # B3 1-2, B2 3-4, B1 5-6; chunks of layer l can go from 3, 5, 7.
    # FIFO: G3 G3 G2 G2 G1 G1 occupy the link 3..14; F1 waits for G1.2 (13-14): starts 15.
    # Priority: G3.1 at 3 (alone), G2.1 at 5 (before G3.2), G1.1 at 7, G1.2 at 9 -> F1 at 11;
    # then G2.2 11-12 -> F2 at 13; G3.2 13-14 -> F3 at 15.
    runs = compare(layers=3, backward=2, forward=1, chunks=2, chunk_time=2)
    fifo, prio = runs["fifo"], runs["priority"]
    assert fifo.link_order() == ["G3.1", "G3.2", "G2.1", "G2.2", "G1.1", "G1.2"]
    assert prio.link_order() == ["G3.1", "G2.1", "G1.1", "G1.2", "G2.2", "G3.2"]
    assert (fifo.forward_start, fifo.forward_end) == (15, 17)
    assert (prio.forward_start, prio.forward_end) == (11, 15)
    assert [prio.start_of(f"F{k}") for k in (1, 2, 3)] == [11, 13, 15]
    assert [prio.start_of(f"B{k}") for k in (3, 2, 1)] == [1, 3, 5]  # backward unchanged
    for r in runs.values():
        core.verify(r.graph, r.schedule)


def test_timeline_text():
    prio = priority_schedule("priority")
    gpu, link = prio.timeline().splitlines()
    assert gpu.split()[1:] == "B3 B3 B2 B2 B1 B1 . . . . F1 . F2 . F3".split()
    assert link.split()[1:8] == ". . G3.1 G3.1 G2.1 G2.1 G1.1".split()


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6), st.integers(1, 4), st.integers(1, 3), st.integers(1, 4), st.integers(1, 4)
)
def test_priorities_never_start_the_forward_later(layers, backward, forward, chunks, chunk_time):
    shape = dict(
        layers=layers, backward=backward, forward=forward, chunks=chunks, chunk_time=chunk_time
    )
    runs = compare(**shape)
    for r in runs.values():
        core.verify(r.graph, r.schedule)
        # the link carries every chunk once; the GPU runs every pass once
        assert len(r.link_order()) == layers * chunks
    fifo, prio = runs["fifo"], runs["priority"]
    assert prio.forward_start <= fifo.forward_start
    # layer 1's gradient can be synchronised no earlier than B1's end plus its chunks
    first = backward * layers + 1 + chunks * chunk_time
    assert prio.forward_start >= first
    # strictly earlier exactly when FIFO still had chunks of later layers queued (not yet on the
    # link) when layer 1's chunks became ready: those are what the priority sends after them
    ready1 = backward * layers + 1
    queued = [
        n for n in fifo.link_order() if not n.startswith("G1.") and fifo.start_of(n) >= ready1
    ]
    assert (prio.forward_start < fifo.forward_start) == bool(queued)


def test_bad_input_is_named():
    with pytest.raises(LectureKitError, match="policy"):
        priority_schedule("lifo")
    with pytest.raises(LectureKitError, match="chunks"):
        build_graph(chunks=0)


def test_ddp_buckets_by_hand():
    # 4 layers, F = 1, B = 2, all-reduce 2 per layer + 1 per call, buckets of 2; time from 1.
    # F1..F4 1-4, B4 5-6, B3 7-8, B2 9-10, B1 11-12.
    # Overlap: bucket 1 (layers 4, 3) ready after B3 (8): A1 9-13 (1 + 2 * 2); bucket 2 after B1
    # (12) but the link is busy until 13: A2 14-18 -> step 18.
    # No overlap: both wait for B1: A1 13-17, A2 18-22 -> step 22.
    on, off = ddp_step(), ddp_step(overlap=False)
    assert (on.start_of("A1"), on.start_of("A2"), on.step_time) == (9, 14, 18)
    assert (off.start_of("A1"), off.start_of("A2"), off.step_time) == (13, 18, 22)
    assert on.exposed_comm() == 6 and off.exposed_comm() == 10  # 4 time units hidden
    assert on.timeline().splitlines()[1].split()[1:] == ["."] * 8 + ["A1"] * 5 + ["A2"] * 5
    # bucket size: 1 layer pays the latency 4 times (link-bound), 4 layers cannot overlap
    assert ddp_bucket_sweep() == {1: (18, 24), 2: (18, 22), 3: (20, 22), 4: (21, 21)}
    for r in (on, off):
        core.verify(r.graph, r.schedule)


def test_fsdp_prefetch_by_hand():
    # 3 layers, F = 2, all-gather 3. Without prefetch: G1 1-3 F1 4-5 G2 6-8 F2 9-10 G3 11-13
    # F3 14-15. With: G2 right after G1 (4-6, while F1 runs), F2 7-8, G3 7-9 (F1 freed its
    # layer), F3 10-11.
    on, off = fsdp_forward(), fsdp_forward(prefetch=False)
    assert [on.start_of(n) for n in ("G1", "F1", "G2", "F2", "G3", "F3")] == [1, 4, 4, 7, 7, 10]
    assert [off.start_of(n) for n in ("G1", "F1", "G2", "F2", "G3", "F3")] == [1, 4, 6, 9, 11, 14]
    assert (on.step_time, off.step_time) == (11, 15)
    # compute-bound: the all-gathers hide entirely behind the forward after the first
    assert fsdp_forward(4, forward=3, gather=1).step_time == 1 + 4 * 3


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(1, 3),
    st.integers(1, 4),
    st.integers(0, 4),
    st.integers(1, 8),
    st.integers(0, 3),
)
def test_ddp_closed_form_and_bounds(layers, forward, backward, allreduce, bucket, latency):
    bucket = min(bucket, layers)
    if allreduce == latency == 0:
        allreduce = 1
    shape = dict(
        layers=layers,
        forward=forward,
        backward=backward,
        allreduce=allreduce,
        bucket=bucket,
        latency=latency,
    )
    on, off = ddp_step(**shape), ddp_step(overlap=False, **shape)
    for r in (on, off):
        core.verify(r.graph, r.schedule)
    compute = layers * (forward + backward)
    n = -(-layers // bucket)
    comm = n * latency + layers * allreduce
    assert off.step_time == compute + comm  # nothing hidden
    assert max(compute, layers * forward + comm) < on.step_time <= off.step_time
    if layers % bucket == 0:
        assert on.step_time == ddp_closed_form(**shape)
        assert off.step_time == ddp_closed_form(overlap=False, **shape)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10), st.integers(1, 5), st.integers(1, 5))
def test_fsdp_closed_form(layers, forward, gather):
    for prefetch in (True, False):
        r = fsdp_forward(layers, forward, gather, prefetch)
        core.verify(r.graph, r.schedule)
        assert r.step_time == fsdp_closed_form(layers, forward, gather, prefetch)


def test_overlap_bad_input_is_named():
    with pytest.raises(LectureKitError, match="bucket"):
        ddp_step(layers=4, bucket=5)
    with pytest.raises(LectureKitError, match="overlap"):
        ddp_step(overlap="yes")
    with pytest.raises(LectureKitError, match="both 0"):
        ddp_step(allreduce=0, latency=0)
    with pytest.raises(LectureKitError, match="gather"):
        fsdp_forward(gather=0)
    with pytest.raises(LectureKitError, match="prefetch"):
        fsdp_forward(prefetch=1)
