"""Priority scheduling of gradient chunks on the scheduling core (相关工作--优先级调度)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit import core
from lecturekit.errors import LectureKitError
from lecturekit.llm.priority_comm import build_graph, compare, priority_schedule


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
