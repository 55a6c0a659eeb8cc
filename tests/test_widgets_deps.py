"""The dependence stepper (chapter 03): the graph built one instruction at a time, headless."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import SIX_BLOCK  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lecturekit.asm import parse  # noqa: E402
from lecturekit.asm.random_blocks import random_block  # noqa: E402
from lecturekit.target.deps import analyze  # noqa: E402
from lecturekit.widgets.deps import (  # noqa: E402
    MAX_INSTRUCTIONS,
    dependence_stepper,
    new_edges,
    prefix_graphs,
)


@pytest.fixture(autouse=True)
def _no_figures_left():
    yield
    assert plt.get_fignums() == []
    plt.close("all")


def _key(e):
    return (e.src, e.dst, e.kind, e.on, e.latency)


def _edge_lines(caption: str) -> list[str]:
    return [line for line in caption.split("<br>") if re.match(r"I\d+ → I\d+: ", line)]


@pytest.mark.parametrize("machine", ["lecture", "classic5", "dual"])
@pytest.mark.parametrize("seed", range(6))
def test_prefix_graphs_are_the_full_graph_cut_at_each_instruction(machine, seed):
    """Dependences point forward, so the analysis of the first k+1 instructions finds exactly
    the full block's edges that end at or before k, with the same latencies."""
    program = random_block(seed, size=10, registers=5)
    full = analyze(program, machine)
    graphs = prefix_graphs(program, machine)
    assert len(graphs) == len(program)
    for k, dg in enumerate(graphs):
        assert sorted(map(_key, dg.edges)) == sorted(_key(e) for e in full.edges if e.dst <= k)
    assert graphs[-1].critical_path() == full.critical_path()


def test_prefix_graphs_with_a_branch_and_memory():
    text = (
        "lw $t0, 0($s1)\nsw $t1, 0($s1)\nadd $t2, $t0, $t1\nbeq $t2, $t3, out\n"
        "add $t4, $t0, $t0\nout:"
    )
    full = analyze(text, "lecture")
    graphs = prefix_graphs(parse(text), "lecture")
    for k, dg in enumerate(graphs):
        assert sorted(map(_key, dg.edges)) == sorted(_key(e) for e in full.edges if e.dst <= k)
    assert {e.kind for e in full.edges} >= {"RAW", "WAR", "CTRL"}


def test_the_lectures_block_step_by_step():
    s = dependence_stepper(SIX_BLOCK, "lecture")
    assert s.error.value == ""
    assert s.stepper.n_steps == 6
    full = analyze(SIX_BLOCK, "lecture")
    lengths = []
    for k in range(6):
        s.stepper.index = k
        caption = s.caption.value
        assert s.stepper.error.value == ""
        assert caption.startswith(f"<b>I{k + 1}</b>")
        # one line per new edge, each naming its kind and latency as the analysis found them
        lines = _edge_lines(caption)
        edges = new_edges(full, k)
        assert len(lines) == len(edges)
        for line, e in zip(lines, edges, strict=True):
            assert line.startswith(f"I{e.src + 1} → I{e.dst + 1}: {e.kind} on ")
            assert line.endswith(f"latency {e.latency}")
        if not edges:
            assert "no dependence on an earlier instruction" in caption
        lengths.append(int(re.search(r"(\d+) cycles$", caption).group(1)))
        png = s.stepper.output.outputs[-1]["data"]["image/png"]
        assert png
    # I2 brings the RAW on t0 and the WAR on t1; the critical path ends at the lecture's 10
    s.stepper.index = 1
    assert "RAW on <code>t0</code>, latency 3" in s.caption.value
    assert "WAR on <code>t1</code>, latency 0" in s.caption.value
    assert lengths == sorted(lengths)  # a prefix's critical path never shrinks
    assert lengths[-1] == full.critical_path()[1] == 10


def test_step_moves_on_and_changes_caption_and_figure():
    s = dependence_stepper(SIX_BLOCK)
    before = (s.caption.value, s.stepper.output.outputs)
    s.stepper.step()
    assert s.stepper.index == 1
    assert s.caption.value != before[0]
    assert s.stepper.output.outputs != before[1]
    s.stepper.index = 5
    s.stepper.step()  # stays on the last step
    assert s.stepper.index == 5
    assert s.stepper.step_button.disabled


@given(seed=st.integers(0, 10_000), size=st.integers(1, 9))
@settings(max_examples=8, deadline=None)
def test_every_step_renders_for_random_blocks(seed, size):
    program = random_block(seed, size=size, registers=4)
    s = dependence_stepper(program, "dual")
    full = analyze(program, "dual")
    for k in range(size):
        s.stepper.index = k
        assert s.stepper.error.value == ""
        assert len(_edge_lines(s.caption.value)) == len(new_edges(full, k))
    plt.close("all")


@pytest.mark.parametrize(
    ("text", "machine", "message"),
    [
        ("t0 = t1 +", "lecture", "line 1, column 10"),
        ("add $t0, $t1, $t2", "no-such-machine", "unknown machine"),
        ("", "lecture", "the block is empty"),
        ("add $t0, $t1, $t2\n" * (MAX_INSTRUCTIONS + 1), "lecture", "at most"),
    ],
)
def test_bad_input_is_shown_not_raised(text, machine, message):
    s = dependence_stepper(text, machine)
    assert message in s.error.value
    assert "Traceback" not in s.error.value
    assert s.graphs == []
    s.stepper.step()  # still a working widget
    assert "nothing to show" in s.caption.value
