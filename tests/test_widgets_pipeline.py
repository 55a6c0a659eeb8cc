"""The pipeline stepper and the block explorer, driven headless as a student would click them."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import FOUR_ADDS, SIX_BLOCK, THREE_ADDS  # noqa: E402

from lecturekit.target.machine import preset  # noqa: E402
from lecturekit.target.pipeline import simulate  # noqa: E402
from lecturekit.widgets.explorer import block_explorer  # noqa: E402
from lecturekit.widgets.pipeline import pipeline_stepper  # noqa: E402


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    assert plt.get_fignums() == []  # every figure a widget draws is shown and closed
    plt.close("all")


def _png(output):
    (item,) = output.outputs
    return item["data"]["image/png"]


# -- the pipeline stepper ----------------------------------------------------------------------
def test_stepper_walks_the_four_adds_cycle_by_cycle():
    p = pipeline_stepper(FOUR_ADDS)
    s = p.stepper
    assert s.n_steps == p.sim.cycles == 11
    assert "<b>11 cycles</b>" in p.summary.value and "RAW 4" in p.summary.value
    assert "cycle 1: I1 enters ID" in p.caption.value
    first = _png(s.output)
    s.step()
    assert "cycle 2: I1 issues" in p.caption.value
    assert _png(s.output) != first
    s.step_button.click()
    assert s.index == 2
    assert "cycle 3: I2 waits in ID: RAW on $t2, written by I1 in cycle 4" in p.caption.value
    assert "color:#b00000" in p.caption.value  # the stall is highlighted
    s.back_button.click()
    assert s.index == 1 and "cycle 2:" in p.caption.value
    s.slider.value = 10
    assert "cycle 11: I4 writes $t0 in RW" in p.caption.value
    s.step()  # at the end: stays
    assert s.index == 10
    assert p.error.value == ""


def test_forwarding_switch_resimulates():
    p = pipeline_stepper(FOUR_ADDS)
    p.stepper.index = 5
    p.forwarding.value = True
    assert p.machine.forwarding
    assert (
        p.sim.cycles == simulate(FOUR_ADDS, preset("lecture").with_options(forwarding=True)).cycles
    )
    assert p.stepper.n_steps == p.sim.cycles == 7
    assert p.stepper.index == 5  # stays where it was when it can
    assert "forwarding on" in p.summary.value and "0 stall cycles" in p.summary.value
    p.forwarding.value = False
    assert p.sim.cycles == 11


def test_stepper_with_an_order_and_another_machine():
    p = pipeline_stepper(FOUR_ADDS, order=[0, 2, 1, 3])
    assert p.sim.cycles == 8
    q = pipeline_stepper(THREE_ADDS, machine="classic5")
    assert q.forwarding.value is True and q.sim.cycles == 7
    r = pipeline_stepper(SIX_BLOCK, machine=preset("dual"))
    assert r.sim.machine.name == "dual"


@pytest.mark.parametrize(
    "args, message",
    [
        (("add $t0, $t1",), "line 1, column 13"),
        ((FOUR_ADDS, "nope"), "unknown machine"),
        ((FOUR_ADDS, "lecture", [1, 0, 2, 3]), "the order puts I2 before I1"),
        (("",), "no instructions"),
        (("nop\n" * 41,), "up to 40 instructions"),
    ],
)
def test_bad_input_is_shown_in_the_stepper(args, message):
    p = pipeline_stepper(*args)  # never raises
    assert message in p.error.value
    assert p.sim is None
    p.stepper.step()  # still usable
    p.forwarding.value = not p.forwarding.value


# -- the block explorer ------------------------------------------------------------------------
def test_explorer_draws_graph_table_and_timeline():
    e = block_explorer()
    assert e.error.value == ""
    assert "<b>11 cycles</b>" in e.summary.value
    assert e.sim.cycles == 11 and len(e.dg.edges) == 3
    assert _png(e.graph_output) and _png(e.table_output)
    assert "DREW" in e.timeline_output.outputs[0]["data"]["text/plain"]


def test_explorer_shows_parse_errors_with_line_and_column():
    e = block_explorer()
    e.textarea.value = "t0 = t1 + t2\nt1 = t0 + + t1\n"  # no exception reaches the test
    assert "line 2, column" in e.error.value
    assert "Traceback" not in e.error.value
    assert e.sim is None and e.dg is None and e.summary.value == ""
    assert e.graph_output.outputs == () and e.table_output.outputs == ()
    e.textarea.value = SIX_BLOCK
    assert e.error.value == ""
    assert "<b>12 cycles</b>" in e.summary.value
    assert "critical path I1 → I2 → I4 = 10 cycles" in e.summary.value


def test_explorer_machine_menu_changes_the_cycle_count():
    e = block_explorer(FOUR_ADDS)
    assert "<b>11 cycles</b>" in e.summary.value
    before = _png(e.table_output)
    e.machine_dropdown.value = "classic5"
    assert e.forwarding.value is True  # the machine's own default
    assert "<b>8 cycles</b>" in e.summary.value and "classic5" in e.summary.value
    assert _png(e.table_output) != before
    e.forwarding.value = False
    assert "no forwarding" in e.summary.value
    assert (
        e.sim.cycles
        == simulate(FOUR_ADDS, preset("classic5").with_options(forwarding=False)).cycles
    )
    e.machine_dropdown.value = "dual"
    assert e.sim.machine.name == "dual" and e.sim.machine.issue_width == 2


def test_explorer_update_button_and_reduce_switch():
    e = block_explorer(SIX_BLOCK)
    reduced = _png(e.graph_output)
    e.reduce.value = False
    assert _png(e.graph_output) != reduced
    e.update_button.click()
    assert e.error.value == ""


def test_explorer_with_a_custom_machine_and_bad_blocks():
    slow = preset("lecture").with_options(name="slow", forwarding=True)
    e = block_explorer(THREE_ADDS, slow)
    assert e.machine_dropdown.value == "slow" and e.forwarding.value is True
    e.textarea.value = ""
    assert "empty" in e.error.value
    e.textarea.value = "add $t0, $t1, $t2\n" * 25
    assert "up to 24 instructions" in e.error.value
    e.textarea.value = "lw $t0, 0($s1)\nadd $t2, $t0, $t1\n"
    assert e.error.value == ""
    bad = block_explorer(THREE_ADDS, "no-such-machine")
    assert "unknown machine" in bad.error.value


def test_widgets_display_a_readable_note_without_a_frontend():
    bundle = pipeline_stepper(FOUR_ADDS)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == (
        "[interactive widget: pipeline stepper, 4 instructions on lecture, 11 cycles; "
        "run the notebook to use it]"
    )
    assert "block explorer on lecture" in block_explorer()._repr_mimebundle_()["text/plain"]
