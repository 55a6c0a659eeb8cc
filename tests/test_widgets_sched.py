"""The list-scheduling stepper and the optimal-search viewer, driven headless."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import SIX_BLOCK  # noqa: E402

from lecturekit.asm.random_blocks import random_block  # noqa: E402
from lecturekit.core.list_sched import PRIORITIES  # noqa: E402
from lecturekit.target.deps import analyze  # noqa: E402
from lecturekit.widgets.list_sched import list_scheduling_stepper, priority_note  # noqa: E402
from lecturekit.widgets.optimal import optimal_search_viewer  # noqa: E402


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    assert plt.get_fignums() == []
    plt.close("all")


def _png(output):
    (item,) = output.outputs
    return item["data"]["image/png"]


# -- list scheduling ---------------------------------------------------------------------------
def test_list_stepper_walks_the_six_block():
    w = list_scheduling_stepper(SIX_BLOCK)
    s = w.stepper
    assert w.error.value == ""
    assert s.n_steps == len(w.steps) == 7  # cycles 2..8
    assert "<b>10 cycles</b>" in w.summary.value and "optimal" in w.summary.value
    assert w.caption.value.startswith("cycle 2: issue I1 (highest height 8); not issued: I3")
    assert "issue width 1 used up" in w.caption.value
    assert "Ready list, cycle 2" in w.ready_html.value and "issued: highest height 8" in (
        w.ready_html.value
    )
    graph_png, table_png = _png(s.output), _png(w.table_output)
    s.step()
    assert w.caption.value.startswith("cycle 3: issue I3 (highest height 5)")
    assert _png(s.output) != graph_png and _png(w.table_output) != table_png
    assert "waiting: operands ready in cycle 5" in w.ready_html.value  # I2 after I1
    s.index = 5
    assert "nothing ready: stall" in w.caption.value and "#b00000" in w.caption.value
    s.step_button.click()
    assert "cycle 8: issue I4" in w.caption.value


def test_list_stepper_changes_heuristic_and_compares():
    w = list_scheduling_stepper(SIX_BLOCK)
    for name in PRIORITIES:
        assert f"list: {name}" in w.comparison.value
    assert "program order (no scheduling)</td><td>12" in w.comparison.value
    assert "<b>list: height</b>" in w.comparison.value
    before = w.caption.value
    w.priority.value = "original"
    assert w.caption.value != before and "first in program order" in w.caption.value
    assert "priority <code>original</code>" in w.summary.value
    assert "<b>list: original</b>" in w.comparison.value
    assert w.schedule.algorithm == "list:original"


def test_list_stepper_on_a_dual_issue_block():
    prog = random_block(8, size=10, registers=8)
    w = list_scheduling_stepper(prog, "dual", "successors", compare=False)
    assert w.error.value == "" and w.comparison.value == ""
    assert w.schedule.algorithm == "list:successors"
    w.stepper.index = w.stepper.n_steps - 1
    assert w.caption.value.startswith(f"cycle {w.steps[-1].cycle}:")


def test_list_stepper_draws_the_state_before_the_choice_with_the_slides_numbers():
    """Cycle 4 of the six block: t6 is the only ready instruction, so it is drawn green (not
    grey), and every node carries its ready cycle from the trace (t1 3, t5 4, the last t0 1)."""
    from lecturekit.viz.style import STATE_COLORS

    w = list_scheduling_stepper(SIX_BLOCK)
    fig, caption = w._render(2)
    assert caption.startswith("cycle 4: issue I6 (the only ready operation)")
    texts = [t.get_text() for t in fig.axes[0].texts]
    for note in ("height 5 · ready 3", "height 2 · ready 4", "height 2 · ready 1"):
        assert note in texts
    green = matplotlib.colors.to_rgba(STATE_COLORS["ready"])
    fills = [p.get_facecolor() for p in fig.axes[0].patches if hasattr(p, "get_boxstyle")]
    assert sum(f == green for f in fills) == 1  # t6 alone
    plt.close(fig)


def test_priority_notes():
    assert priority_note("height", 8) == "height 8"
    assert priority_note("noninterfering", 3) == "succ latency 3"
    assert priority_note("original", -2) == ""


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("add $t0, $t1",), {}, "line 1, column 13"),
        ((SIX_BLOCK, "quantum"), {}, "unknown machine"),
        ((SIX_BLOCK,), {"priority": "fastest"}, "unknown priority"),
        (("",), {}, "no instructions"),
        (("\n".join(f"add $t{k % 8}, $t1, $t2" for k in range(30)),), {}, "up to 24"),
    ],
)
def test_list_stepper_shows_bad_input(args, kwargs, message):
    w = list_scheduling_stepper(*args, **kwargs)
    assert message in w.error.value and "color:#c00000" in w.error.value
    assert w.steps is None
    w.stepper.step()  # nothing to draw, nothing raised


def test_a_failing_callback_shows_the_error_in_the_widget(monkeypatch):
    w = list_scheduling_stepper(SIX_BLOCK, compare=False)

    def broken(*args, **kwargs):
        raise RuntimeError("the drawing broke")

    monkeypatch.setattr("lecturekit.viz.graph.draw_dependence_graph", broken)
    w.stepper.step()
    assert "the drawing broke" in w.error.value
    monkeypatch.undo()
    w.priority.value = "descendants"  # the kernel is still usable
    assert w.schedule.algorithm == "list:descendants"


def test_a_failing_priority_change_shows_the_error(monkeypatch):
    w = list_scheduling_stepper(SIX_BLOCK, compare=False)

    def broken(*args, **kwargs):
        raise ValueError("scheduler exploded")

    monkeypatch.setattr("lecturekit.core.list_sched.list_schedule_trace", broken)
    w.priority.value = "successors"
    assert "scheduler exploded" in w.error.value


# -- the optimal search ------------------------------------------------------------------------
def test_optimal_viewer_and_its_switches():
    v = optimal_search_viewer(SIX_BLOCK)
    assert v.error.value == ""
    assert "<b>10 cycles</b>, proven optimal" in v.summary.value
    assert "<b>0 nodes</b>" in v.summary.value  # the list schedule meets the bound
    assert v.caption.value.startswith("start:")
    v.use_initial.value = False
    v.child_order.value = "program"
    v.use_bounds.value = False
    v.use_dominance.value = False
    assert "<b>188 nodes</b>" in v.summary.value  # every prefix of the 60 orders
    assert v.stepper.n_steps == len(v.events) > 10
    first = _png(v.stepper.output)
    v.stepper.index = v.stepper.n_steps - 1
    assert v.caption.value.startswith("done: 188 nodes explored; incumbent 10 cycles")
    assert _png(v.stepper.output) != first
    assert "Incumbent" in v.incumbent_html.value and "10 cycles" in v.incumbent_html.value
    incumbents = [e.incumbent for e in v.events if e.kind == "incumbent"]
    assert incumbents == [12, 11, 10]
    v.use_bounds.value = True
    assert "<b>21 nodes</b>" in v.summary.value


def test_optimal_viewer_accepts_a_dependence_graph():
    dg = analyze(random_block(5, size=12, registers=10), "dual")
    v = optimal_search_viewer(dg)
    assert v.error.value == "" and v.schedule.info["proven_optimal"]


def test_optimal_viewer_bad_input_and_failing_callback(monkeypatch):
    bad = optimal_search_viewer("add $t0, $t1")
    assert "line 1, column 13" in bad.error.value and bad.events is None
    bad.use_bounds.value = False  # no block: nothing happens, nothing raised
    v = optimal_search_viewer(SIX_BLOCK)

    def broken(*args, **kwargs):
        raise RuntimeError("search exploded")

    monkeypatch.setattr("lecturekit.core.optimal.optimal_search", broken)
    v.use_dominance.value = False
    assert "search exploded" in v.error.value


# -- beyond the lecture's heuristics (issue 17) -------------------------------------------------
WITNESS = "add $t5,$t3,$t3\nadd $t6,$t6,$t4\nsub $t7,$t3,$t6\nmul $t4,$t1,$t9\nsub $t3,$t5,$t7"


def test_list_stepper_offers_the_new_priorities_and_lookahead():
    from lecturekit.core.list_sched import MORE_PRIORITIES

    w = list_scheduling_stepper(WITNESS)
    assert list(w.priority.options) == [*PRIORITIES, *MORE_PRIORITIES]
    assert w.lookahead.value == 0 and "<b>12 cycles</b>" in w.summary.value
    for name in [*PRIORITIES, *MORE_PRIORITIES]:
        assert f"list: {name}</" in w.comparison.value
    assert "list: height+lookahead2</td><td>11" in w.comparison.value
    assert "improved (won by height+lookahead2)</td><td>11" in w.comparison.value
    assert "optimal</td><td>11" in w.comparison.value
    w.priority.value = "height_descendants"
    w.lookahead.value = 2
    assert w.schedule.algorithm == "list:height_descendants+lookahead2"
    assert "<b>11 cycles</b>" in w.summary.value and "lookahead 2" in w.summary.value
    assert "<b>list: height_descendants+lookahead2</b>" in w.comparison.value
    assert w.error.value == ""
    w.stepper.index = 2  # cycle 4: I4, the mul, waits for I3
    cap = w.caption.value
    assert "cycle 4: stall: ready but blocked: I4 (" in cap and "#b00000" in cap
    assert "held back</b>: would block I3 (height 5, 1 descendant(s)), ready in cycle 5" in cap
    assert "<td>4, 0</td>" in w.ready_html.value  # I4's (height, descendants)
    fig, _ = w._render(0)
    assert "height, desc 8, 3 · ready 0" in [t.get_text() for t in fig.axes[0].texts]
    plt.close(fig)


def test_bottleneck_priority_on_dual_and_notes():
    w = list_scheduling_stepper(
        "add $t1,$t2,$t5\nsub $t4,$t5,$t9\nmul $t2,$t4,$t3\nmul $t9,$t4,$t1", "dual", compare=False
    )
    height = w.schedule.length
    w.priority.value = "bottleneck"
    assert w.schedule.length == height - 1 and w.error.value == ""
    assert priority_note("bottleneck", (9, 8, 7, 1)) == "rheight 9"
    assert priority_note("height_descendants", (8, 3)) == "height, desc 8, 3"


@pytest.mark.parametrize("bad", [-1, 7, 1.5, "2", True])
def test_list_stepper_refuses_a_bad_lookahead_in_the_widget(bad):
    w = list_scheduling_stepper(SIX_BLOCK, lookahead=bad, compare=False)
    assert "lookahead" in w.error.value and w.steps is None
