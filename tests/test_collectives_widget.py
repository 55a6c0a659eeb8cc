"""The all-reduce stepper (headless) and the collective drawings."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecturekit.errors import ConfigError
from lecturekit.llm import collectives as C
from lecturekit.llm.comm import ALGORITHMS, Link
from lecturekit.viz import collectives as V
from lecturekit.widgets.collectives import (
    CollectiveStepper,
    all_reduce_stepper,
    ring_all_reduce_stepper,
)


def shown_text(stepper):
    return stepper.stepper.output.outputs[0]["data"]["text/plain"]


def test_stepper_steps_and_shows_the_sum_at_the_end():
    buffers = [np.array([1, 2, 3, 4]) * (r + 1) for r in range(4)]
    s = ring_all_reduce_stepper(buffers)
    assert s.stepper.error.value == ""
    first = s.stepper.caption.value
    assert "step 0 of 6" in first
    assert "rank 0: a0=[1]" in shown_text(s)
    s.stepper.step_button.click()
    assert s.index == 1
    assert s.stepper.caption.value != first
    assert "step 1 of 6 (reduce-scatter)" in s.stepper.caption.value
    assert "rank 0 → rank 1: d" in s.stepper.caption.value
    s.stepper.back_button.click()
    assert s.index == 0 and s.stepper.caption.value == first
    s.stepper.slider.value = s.stepper.slider.max
    total = sum(buffers)
    want = "  ".join(f"Σ{n}=[{v}]" for n, v in zip("abcd", total, strict=True))
    lines = shown_text(s).splitlines()
    assert lines == [f"rank {r}: {want}" for r in range(4)]
    html = s.stepper.output.outputs[0]["data"]["text/html"]
    assert html.count("Σ") == 16  # every cell of the 4 × 4 table holds a complete sum
    assert s.stepper.error.value == ""


def test_stepper_other_algorithms_and_random_data():
    s = all_reduce_stepper(p=4, chunk_elements=3, seed=1, algorithm="halving-doubling")
    assert "recursive halving-doubling" in s.stepper.title_html.value
    s.stepper.slider.value = s.stepper.slider.max
    assert all(line.count("Σ") == 4 for line in shown_text(s).splitlines())
    t = all_reduce_stepper(p=3, algorithm="tree")
    assert t.trace.algorithm == "binomial tree"
    assert hasattr(s, "_repr_mimebundle_")


def test_a_failing_callback_shows_the_error_and_does_not_raise():
    s = ring_all_reduce_stepper(p=3)

    def broken(k):
        raise ValueError(f"boom at step {k}")

    s.table_text = broken
    s.stepper.step_button.click()  # must not raise
    assert "boom at step 1" in s.stepper.error.value
    del s.table_text
    s.stepper.step_button.click()
    assert s.stepper.error.value == ""


def test_stepper_bad_input():
    with pytest.raises(ConfigError, match="expected a CollectiveTrace"):
        CollectiveStepper([np.ones(2)])
    with pytest.raises(ConfigError, match="p must be"):
        ring_all_reduce_stepper(p=0)
    with pytest.raises(ConfigError, match="rank 1 holds shape"):
        ring_all_reduce_stepper([np.ones(2), np.ones(3)])


@pytest.mark.parametrize("name", C.COLLECTIVES)
def test_collective_examples_are_labelled_correctly(name):
    before, after = V.collective_example(name, p=3)
    expected_after = {
        "broadcast": [["a0", "b0", "c0"]] * 3,
        "scatter": [["a0"], ["b0"], ["c0"]],
        "gather": [["a0", "b1", "c2"], None, None],
        "reduce": [["Σa", "Σb", "Σc"], None, None],
        "all-gather": [["a0", "b1", "c2"]] * 3,
        "reduce-scatter": [["Σa"], ["Σb"], ["Σc"]],
        "all-reduce": [["Σa", "Σb", "Σc"]] * 3,
        "all-to-all": [["a0", "a1", "a2"], ["b0", "b1", "b2"], ["c0", "c1", "c2"]],
    }[name]
    assert after == expected_after
    assert len(before) == 3


def test_drawings_build():
    fig = V.plot_collectives(p=3)
    assert len(fig.axes) == 8
    plt.close(fig)
    trace = C.ring_all_reduce_trace([np.arange(6) for _ in range(3)])
    fig = V.plot_trace(trace, show_values=True)
    assert len([ax for ax in fig.axes if ax.get_title()]) == len(trace.steps) + 1
    plt.close(fig)
    ax = V.plot_allreduce_times(8, Link.from_bandwidth(5e-6, 100e9))
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["ring", "binomial tree", "halving-doubling", "double binary tree"]
    assert list(V.ALLREDUCE_LABELS) == list(ALGORITHMS["all-reduce"])  # a name for each
    plt.close(ax.figure)
    ax = V.plot_allreduce_times(6, Link.from_bandwidth(5e-6, 100e9))
    labels = [line.get_label() for line in ax.get_lines()]
    assert "halving-doubling" not in labels and len(labels) == 3  # none for p = 6
    plt.close(ax.figure)
    with pytest.raises(ConfigError, match="unknown collective"):
        V.collective_example("allreduce")
