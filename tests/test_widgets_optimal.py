"""The optimal-search viewer's engine menu (issue 17), driven headless."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import SIX_BLOCK  # noqa: E402

from lecturekit.asm.random_blocks import random_block  # noqa: E402
from lecturekit.core.optimal import optimal_search  # noqa: E402
from lecturekit.target.deps import analyze  # noqa: E402
from lecturekit.widgets.optimal import engines, optimal_search_viewer  # noqa: E402


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    assert plt.get_fignums() == []
    plt.close("all")


def test_the_engine_menu_lists_the_engines_and_reruns_the_search():
    assert {"classic", "optsched"} <= set(engines())
    dg = analyze(random_block(6, size=12, registers=10), "dual")
    assert optimal_search_viewer(SIX_BLOCK).engine.value == "optsched"  # the default (issue 30)
    v = optimal_search_viewer(dg, engine="classic")  # chapter 05 names the classic engine
    assert [value for _label, value in v.engine.options] == list(engines())
    assert v.engine.value == "classic" and v.error.value == ""
    v.use_initial.value = False  # the searches differ most without a list-schedule start
    classic = optimal_search(dg.graph, initial=False, engine="classic")[0]
    assert v.schedule.info["nodes"] == classic.info["nodes"]
    v.engine.value = "optsched"
    fast = optimal_search(dg.graph, initial=False, engine="optsched")[0]
    assert v.schedule.info["engine"] == "optsched"
    assert v.schedule.info["nodes"] == fast.info["nodes"] != classic.info["nodes"]
    assert v.schedule.length == classic.length == fast.length == 10  # the same optimum
    assert "engine optsched" in v.summary.value
    assert f"<b>{fast.info['nodes']} nodes</b>" in v.summary.value
    assert v.stepper.n_steps == len(v.events)


def test_an_engine_can_be_chosen_up_front_and_a_bad_one_is_reported():
    v = optimal_search_viewer(SIX_BLOCK, engine="optsched")
    assert v.engine.value == "optsched" and v.schedule.info["engine"] == "optsched"
    assert "<b>10 cycles</b>, proven optimal" in v.summary.value
    bad = optimal_search_viewer(SIX_BLOCK, engine="cplex")
    assert "engine is one of" in bad.error.value and "cplex" in bad.error.value
    assert bad.schedule is None
