"""Chapter 13's widgets driven headless as a student would click them: the out-of-order
stepper, the global-scheduling explorer and the register budget slider; bad input is shown in
the widget, never raised; the drawings behind them (text views, Chinese labels)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import SIX_BLOCK  # noqa: E402

from lecturekit.language import using  # noqa: E402
from lecturekit.target.ooo import simulate_ooo  # noqa: E402
from lecturekit.viz.ooo import state_text, status_table, timeline_text  # noqa: E402
from lecturekit.widgets.ooo import ooo_stepper  # noqa: E402
from lecturekit.widgets.pressure import register_slider  # noqa: E402
from lecturekit.widgets.regions import region_explorer  # noqa: E402

EXAMPLE = """
        lw   $t0, 0($s1)
        lw   $t1, 0($s2)
        blt  $t0, $zero, neg
        mul  $t2, $t1, $s0
        add  $t2, $t2, $t0
        j    join
neg:    sub  $t2, $zero, $t0
join:   sw   $t2, 0($s3)
        addi $s1, $s1, 4
"""


def example_input(x):
    return {"s0": 3, "s1": 100, "s2": 200, "s3": 300}, {100: x, 200: 2}


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    assert plt.get_fignums() == []
    plt.close("all")


def _png(output):
    (item,) = output.outputs
    return item["data"]["image/png"]


def test_the_stepper_walks_the_cycles_and_reruns_on_a_menu():
    s = ooo_stepper(SIX_BLOCK, "lecture", window=4)
    assert s.error.value == ""
    assert s.result.cycles == 11 and "in order: 12 cycles" in s.summary.value
    assert s.stepper.n_steps == s.result.retired  # one step per cycle from the first dispatch
    assert "cycle 1: dispatch I1" in s.caption.value
    first = _png(s.stepper.output)
    s.stepper.step()
    assert "start I1" in s.caption.value and _png(s.stepper.output) != first
    assert "reservation stations" in s.state.value and "waits for I1" in s.state.value
    s.window.value = 1
    assert s.result.cycles == 12 and s.error.value == ""
    s.rename.value = False
    assert s.result.rename is False
    s.width.value = 2
    assert s.result.width == 2 and s.result.cycles == 12  # one ALU: still one start a cycle


@pytest.mark.parametrize(
    "args, message",
    [
        (("add $t0, $t1",), "line 1, column 13"),
        (("",), "no instructions"),
        (("nop\n" * 25,), "up to 24"),
        ((SIX_BLOCK, "nope"), "unknown machine"),
    ],
)
def test_bad_input_is_shown_in_the_stepper(args, message):
    s = ooo_stepper(*args)
    assert message in s.error.value and s.result is None
    s.stepper.step()
    s.window.value = 2  # still usable


def test_the_explorer_checks_every_version_on_the_interpreter():
    e = region_explorer(
        EXAMPLE,
        [example_input(5), example_input(-4)],
        {"s1"},
        paths=["hot", "cold"],
        profile=[example_input(x) for x in range(1, 9)],
    )
    assert e.error.value == ""
    for version in ("original", "trace", "superblock", "if-conversion"):
        e.version.value = version
        assert e.error.value == ""
        assert "same results as the original on every input" in e.summary.value, version
        assert _png(e.figure)
    assert e.rows["trace"]["hot"] < e.rows["original"]["hot"]
    e.version.value = "trace"
    assert "speculated" in e.notes.value and "mul" in e.notes.value
    e.machine.value = "dual"
    assert e.error.value == ""


def test_the_explorer_shows_bad_input():
    e = region_explorer("add $t0, $t1", [example_input(1)])
    assert "line 1" in e.error.value


def test_the_slider_compares_the_strategies():
    r = register_slider(SIX_BLOCK, "lecture", registers=5)
    assert r.error.value == ""
    assert "prepass" in r.table.value and "integrated" in r.table.value
    spills = {s.name: s.spills for s in r.strategies}
    assert spills["integrated"] == 0 < spills["prepass"]
    r.registers.value = 3
    assert all(s.spills > 0 for s in r.strategies)
    r.strategy.value = "prepass"
    assert "sw $r" in r.code.value and _png(r.figure)
    bad = register_slider("add $t0, $t1")
    assert "line 1" in bad.error.value


def test_text_views_and_their_chinese():
    r = simulate_ooo(SIX_BLOCK, "lecture", window=4)
    assert timeline_text(r).splitlines()[1].startswith("I1 t0 = t1 + t2")
    assert "dispatch (H&P: issue)" in status_table(r)
    with using("zh"):
        assert "保留站" in state_text(r, 4)
        assert "分派" in status_table(r)
