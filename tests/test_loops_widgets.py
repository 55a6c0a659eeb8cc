"""Loop drawings and the software-pipelining widgets, driven headless."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lecturekit.loops.examples import example  # noqa: E402
from lecturekit.loops.modulo import explain_ii, modulo_schedule  # noqa: E402
from lecturekit.viz.modulo import (  # noqa: E402
    draw_ii_report,
    draw_lifetimes,
    draw_mrt,
    draw_overlap,
    draw_pipelined_vs_not,
    draw_scheduler_step,
)
from lecturekit.widgets.modulo import ii_explorer, modulo_stepper, unroll_explorer  # noqa: E402

SAXPY = example("saxpy_loop")


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    plt.close("all")


def _png(output):
    (item,) = output.outputs
    return item["data"]["image/png"]


def _texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts] + [
        ax.get_title(loc="left") for ax in fig.axes
    ]


def test_pipelined_versus_not_figure():
    r = modulo_schedule(SAXPY, "lecture")
    fig = draw_pipelined_vs_not(r, iterations=4)
    top, bottom = fig.axes
    assert top.get_title(loc="left").startswith("Not pipelined") and "14 cycles" in top.get_title(
        loc="left"
    )
    assert bottom.get_title(loc="left").startswith("Pipelined: a new iteration every II = 10")
    labels = [t.get_text() for t in bottom.texts]
    assert "prologue" in labels and "kernel ×3" in labels and "epilogue" in labels
    assert sum(1 for t in top.texts if t.get_text() == "I1") == 4  # one per iteration
    assert top.get_xlim() == bottom.get_xlim()


def test_overlap_marks_the_kernel_window():
    r = modulo_schedule(SAXPY, "dual")
    assert r.kernel_window(6) == (2 + 2 * 4, 2 + 2 * 4 + 4 * 4 - 1)
    assert r.kernel_window(2) is None
    fig = draw_overlap(r, 6)
    assert "kernel ×4" in _texts(fig)
    assert "kernel ×4" not in _texts(draw_overlap(r, 3)) and "kernel ×1" in _texts(
        draw_overlap(r, 3)
    )


def test_mrt_drawing_and_overflow():
    r = modulo_schedule(SAXPY, "dual")
    fig = draw_mrt(r)
    cells = [t for t in fig.axes[0].texts]
    assert len(cells) == sum(len(v) for v in r.table.cells.values())
    rep = explain_ii(r, 3)
    fig = draw_ii_report(r, rep)
    assert fig.axes[0].get_title(loc="left").startswith("II = 3 fails")
    assert any(" " in t.get_text() and "/s" in t.get_text() for t in fig.axes[0].texts)  # red cells


def test_scheduler_step_and_lifetimes():
    r = modulo_schedule(SAXPY, "dual")
    evicting = next(i for i, s in enumerate(r.trace) if s.evicted)
    fig = draw_scheduler_step(r, evicting)
    side = fig.axes[1].texts[0].get_text()
    assert "<- placed" in side and "<- evicted" in side
    fig = draw_lifetimes(r)
    assert any("2 register(s)" in t for t in _texts(fig))


def test_modulo_stepper_walks_the_trace():
    w = modulo_stepper(SAXPY, "dual")
    s = w.stepper
    assert w.error.value == "" and s.n_steps == len(w.result.trace)
    assert "II found <b>4</b>" in w.summary.value
    assert w.caption.value.startswith("try II = 4")
    first = _png(s.output)
    s.step()
    assert "place I1" in w.caption.value and _png(s.output) != first
    s.index = next(i for i, st in enumerate(w.result.trace) if st.evicted)
    assert "evicts" in w.caption.value and "#b00000" in w.caption.value
    s.index = s.n_steps - 1
    assert w.caption.value.startswith("schedule found at II = 4")


def test_ii_explorer_explains_each_ii():
    w = ii_explorer(SAXPY, "lecture")
    s = w.stepper
    assert s.n_steps == 11 and w.ii == 1
    assert "II = 1 fails" in w.caption.value and "recurrence I6 -&gt; I6" in w.reasons.value
    s.index = 8
    assert w.ii == 9 and "unit alu: busy 10 cycle(s)" in w.reasons.value
    assert "recurrence" not in w.reasons.value
    s.index = 9
    assert "II = 10 works" in w.caption.value and w.report.feasible
    assert _png(s.output)


def test_widgets_show_bad_input_instead_of_raising():
    w = modulo_stepper("add $t0, $t1, $t2")
    assert "expected a loop" in w.error.value and w.result is None
    w = ii_explorer("loop: lw $t0, 0($s1\nbne $s1, $s3, loop")
    assert "line 1" in w.error.value
    w = modulo_stepper(SAXPY, "nonesuch")
    assert "unknown machine" in w.error.value


def test_unroll_explorer():
    w = unroll_explorer(SAXPY, "lecture", k=4)
    assert w.error.value == ""
    assert "<td>unrolled ×4</td><td>7.75</td>" in w.table.value
    assert "software-pipelined (II = 10, 2 stages)" in w.table.value
    assert "loop_x4:" in w.output.value
    w.machine.value = "dual"
    assert "<td>unrolled ×4</td><td>3.00</td>" in w.table.value
    w.code.value = "add $t0, $t1, $t2"
    w.run_button.click()
    assert "expected a loop" in w.error.value and w.table.value == ""
    w.code.value = SAXPY
    w.factor.value = 8
    assert w.error.value == "" and "loop_x8:" in w.output.value
