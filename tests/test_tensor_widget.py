"""Chapter 14's widgets, headless: the schedule explorer and the backward-pass stepper."""

from __future__ import annotations

import numpy as np

from lecturekit.tensor import examples
from lecturekit.tensor.capture import from_ast
from lecturekit.tensor.cost import cost
from lecturekit.tensor.loopnest import apply
from lecturekit.widgets.tensor import (
    COMPUTATIONS,
    DEFAULTS,
    backward_stepper,
    schedule_explorer,
)


def test_the_explorer_steps_through_the_schedule():
    e = schedule_explorer()
    assert e.error.value == ""
    n = len(e.views)
    assert n == 7 and e.stepper.n_steps == 7 and e.stepper.index == 6  # the last step shown
    comp = COMPUTATIONS["matmul 128×128×128"]
    final = cost(apply(comp, e.schedule.value), e.cpu)
    assert e.costs[-1].seconds == final.seconds
    assert f"{final.seconds * 1e6:,.1f} µs" in e.summary.value
    e.stepper.index = 0
    assert "the computation as written" in e.stepper.caption.value
    assert "for k in range(128):" in e.stepper.caption.value
    assert e.stepper.output.outputs  # a roofline figure


def test_the_explorer_explains_a_bad_schedule_and_recovers():
    e = schedule_explorer()
    e.schedule.value = "split i 7"
    assert "step 1 (split i 7)" in e.error.value and "does not divide" in e.error.value
    assert e.views == []
    e.schedule.value = "reorder i j"
    assert "permutation" in e.error.value
    e.schedule.value = "bogus"
    assert "unknown step" in e.error.value
    e.schedule.value = "reorder i k j"
    assert e.error.value == "" and len(e.views) == 2


def test_the_explorer_follows_its_menus():
    e = schedule_explorer(schedule="")
    before = e.costs[-1].traffic.bytes
    e.cache.value = 256
    assert e.costs[-1].traffic.bytes < before
    e.computation.value = "conv2d 64×64, 3×3 kernel"  # its own schedule comes with it
    assert e.error.value == "" and e.views[0].nest.names == ["y", "x", "r", "s"]
    assert e.schedule.value == DEFAULTS["conv2d 64×64, 3×3 kernel"]
    assert e.costs[-1].lanes_used == 8 and len(e.views) == 5


def test_the_explorer_refuses_bad_arguments():
    e = schedule_explorer(computation="fft", cache_kib=3)
    assert "computation" in e.error.value and "cache_kib" in e.error.value
    e = schedule_explorer(schedule=None)
    assert "expected text" in e.error.value
    bundle = e._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "run the notebook" in bundle["text/plain"]


def test_the_backward_stepper():
    g = from_ast(examples.baydin)
    s = backward_stepper(g, {"x1": 2.0, "x2": 5.0})
    assert s.stepper.n_steps == len(s.result.steps) + 1 == 6
    assert "adjoint of sub is 1" in s.stepper.caption.value
    s.stepper.step()
    assert "<b>sub = add - sin</b>" in s.stepper.caption.value
    s.stepper.index = 5
    assert "log(x1)" in s.stepper.caption.value and s.error.value == ""
    assert np.isclose(float(s.values[s.result.gradients["x1"]]), 5.5)
