"""The network explorer and the drawings of chapter 15, headless."""

from __future__ import annotations

import pytest

from lecturekit.errors import ConfigError
from lecturekit.llm import nccl
from lecturekit.llm.fabric import Fabric

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def explorer():
    from lecturekit.widgets.network import network_explorer

    return network_explorer()


def test_default_shows_the_cross_nic_collision(explorer):
    assert explorer.error.value == ""
    assert explorer.result.algorithm == "ring (cross-NIC)"
    assert "2 connections share one link" in explorer.summary.value
    assert "verified" in explorer.summary.value
    assert explorer.stepper.n_steps == 13
    assert explorer.stepper.output.outputs  # frame 0 drawn
    explorer.stepper.step()
    assert "busy at" in explorer.stepper.caption.value and explorer.stepper.error.value == ""


def test_rail_alignment_removes_it(explorer):
    explorer.controls["algorithm"].value = "ring"
    assert "no link between switches carries two connections" in explorer.summary.value
    assert explorer.result.max_connections <= 1
    explorer.controls["algorithm"].value = "ring cross-NIC"
    explorer.controls["policy"].value = "adaptive"
    assert "no link between switches carries two" in explorer.summary.value
    explorer.controls["policy"].value = "ecmp"


def test_a_size_that_does_not_fit_is_explained_and_the_last_run_stays(explorer):
    before = explorer.result
    explorer.controls["nodes"].value = 8  # 8 nodes x 4 GPUs need 8 pods of radix 4
    assert "pods" in explorer.error.value and "radix-4" in explorer.error.value
    assert explorer.result is before
    explorer.controls["radix"].value = 8
    assert explorer.error.value == ""
    assert explorer.result.ranks == 32
    explorer.controls["nodes"].value = 4
    explorer.controls["radix"].value = 4


@pytest.mark.parametrize("name", list(nccl.ALGORITHMS))
def test_every_algorithm_runs_in_the_explorer(explorer, name):
    explorer.controls["algorithm"].value = name
    assert explorer.error.value == "", explorer.error.value
    assert explorer.result.seconds > 0
    explorer.stepper.index = 5
    assert explorer.stepper.error.value == ""


def test_bad_arguments_are_refused_with_a_message():
    from lecturekit.widgets.network import network_explorer

    e = network_explorer(policy="random", nodes=99)
    assert "random" in e.error.value and "nodes" in e.error.value
    assert e.result is None


def test_drawings():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lecturekit.viz.network import plot_fabric, plot_link_timeline

    f = Fabric.build(4, 4, radix=4)
    run = nccl.ring_all_reduce(f, 64e6, cross_nic=True)
    ax = plot_fabric(f, run.connection_load(("nic", "tor-leaf", "leaf-spine")), label="connections")
    assert len(ax.lines) > 40
    ax2 = plot_link_timeline(run.run, top=6)
    assert len(ax2.get_yticklabels()) == 6
    plt.close("all")
    with pytest.raises(ConfigError, match="too many to draw"):
        plot_fabric(Fabric.build(20, 8, radix=40))
