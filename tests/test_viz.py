"""Drawings and text views: they show what the simulator and the analysis computed, exactly."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from conftest import FOUR_ADDS, SIX_BLOCK, THREE_ADDS  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

from lecturekit.asm.random_blocks import random_block  # noqa: E402
from lecturekit.core import evaluate  # noqa: E402
from lecturekit.errors import LectureKitError  # noqa: E402
from lecturekit.target.deps import analyze  # noqa: E402
from lecturekit.target.pipeline import simulate  # noqa: E402
from lecturekit.viz import style  # noqa: E402
from lecturekit.viz.graph import draw_dependence_graph, layers  # noqa: E402
from lecturekit.viz.pipeline import draw_stage_rows, draw_stage_table, draw_timeline  # noqa: E402
from lecturekit.viz.text import (  # noqa: E402
    TIMELINE_CHARS,
    TIMELINE_LEGEND,
    dependences_text,
    describe_cycle,
    describe_stall,
    held_cells,
    schedule_table_text,
    stage_rows_text,
    stage_table_text,
    stall_summary,
    timeline_chars,
    timeline_legend,
    timeline_text,
)

LOAD_USE = "lw $t0, 0($s1)\nadd $t2, $t0, $t1\n"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# -- the slides' stage table -------------------------------------------------------------------
# The 11-cycle table of the lecture, colours red/green/blue/purple read as I1..I4.
SLIDE_11 = [
    ("I1", "", "", ""),
    ("I2", "I1", "", ""),
    ("I2", "", "I1", ""),
    ("I2", "", "", "I1"),
    ("I3", "I2", "", ""),
    ("I4", "I3", "I2", ""),
    ("I4", "", "I3", "I2"),
    ("I4", "", "", "I3"),
    ("", "I4", "", ""),
    ("", "", "I4", ""),
    ("", "", "", "I4"),
]


def _as_labels(sim):
    return [
        tuple(",".join(f"I{k + 1}" for k in row[s]) for s in sim.machine.stages)
        for row in sim.stage_table()
    ]


def test_stage_table_text_matches_the_slide():
    sim = simulate(FOUR_ADDS)
    assert _as_labels(sim) == SLIDE_11
    text = stage_table_text(sim)
    assert "cycle | ID   | RR   | ALU  | RW" in text
    assert "    3 | I2*  |      | I1   |" in text
    assert "11 cycles on lecture, 4 stall cycles" in text
    assert "cycle 3: I2 waits in ID: RAW on $t2, written by I1 in cycle 4" in text
    assert "I1  add $t2, $t0, $t1" in text


def test_stage_table_text_grows_cycle_by_cycle():
    sim = simulate(FOUR_ADDS)
    part = stage_table_text(sim, upto_cycle=3, listing=False)
    rows = [line for line in part.splitlines() if line[:5].strip().isdigit()]
    assert len(rows) == 3
    assert "cycle 4:" not in part and "cycle 3: I2 waits" in part


def test_three_adds_take_six_cycles_without_marks():
    sim = simulate(THREE_ADDS)
    text = stage_table_text(sim, listing=False)
    assert sim.cycles == 6 and "*" not in text and "+" not in text
    assert "6 cycles on lecture, 0 stall cycles" in text


def test_held_cells_are_the_stalls_of_the_four_adds():
    sim = simulate(FOUR_ADDS)
    held = held_cells(sim)
    assert sorted(held) == [(3, 1), (4, 1), (7, 3), (8, 3)]
    assert all(held[c].cause == "RAW" for c in held)


def test_stage_rows_text_for_a_hand_built_table():
    rows = [{"ID": [0]}, {"ID": [1], "RR": [0]}, {"ID": [1]}]
    text = stage_rows_text(rows, ["ID", "RR"], held={(3, 1): None}, notes={3: "waits"})
    assert text.splitlines()[-1].startswith("    3 | I2+")
    assert text.rstrip().endswith("waits")


# -- stall sentences ---------------------------------------------------------------------------
def test_describe_stall_sentences():
    sim = simulate(FOUR_ADDS)
    assert describe_stall(sim, sim.stalls[0]) == (
        "cycle 3: I2 waits in ID: RAW on $t2, written by I1 in cycle 4"
    )
    assert stall_summary(sim) == [
        "I2: 2 stall cycles (3-4) in ID: RAW on $t2, written by I1 in cycle 4",
        "I4: 2 stall cycles (7-8) in ID: RAW on $t7, written by I3 in cycle 8",
    ]
    events = describe_cycle(sim, 2)
    assert "cycle 2: I1 issues: reads its operands in RR" in events
    assert "cycle 2: I2 enters ID" in events
    assert "cycle 4: I1 writes $t2 in RW" in describe_cycle(sim, 4)


def test_load_use_stall_on_classic5_is_explained_with_forwarding():
    sim = simulate(LOAD_USE, "classic5")
    assert len(sim.stalls) == 1
    assert describe_stall(sim, sim.stalls[0]) == (
        "cycle 3: I2 waits in IF: RAW on $t0, produced by I1 at the end of MEM in cycle 4 "
        "(forwarded)"
    )


def test_three_address_registers_have_no_dollar():
    sim = simulate(SIX_BLOCK)
    assert "RAW on t0, written by I1" in describe_stall(sim, sim.stalls[0])


# -- the llvm-mca-like timeline ----------------------------------------------------------------
def test_timeline_text_of_the_four_adds():
    sim = simulate(FOUR_ADDS)
    text = timeline_text(sim)
    lines = text.splitlines()
    assert "I1     DREW.......   add $t2, $t0, $t1" in lines
    assert "I2     .D==REW....   add $t4, $t3, $t2" in lines
    assert "I3     ....DREW...   add $t7, $t5, $t6" in lines
    assert "I4     .....D==REW   add $t0, $t0, $t7" in lines
    assert "cycle  12345678901" in lines
    assert timeline_legend(sim.machine) in lines
    legend = next(line for line in lines if line.startswith("legend:"))
    assert legend.startswith("legend: D in ID, not issued yet · ") and "R in RR" in legend
    assert "  I2: 2 stall cycles (3-4) in ID: RAW on $t2, written by I1 in cycle 4" in lines


def test_timeline_legend_names_the_stage_a_waiting_instruction_is_held_in():
    """On classic5 an instruction waiting to issue is held in IF (not decoded yet): the legend
    must say so, not "decoded"."""
    sim = simulate("lw  $t0, 0($s1)\nadd $t2, $t0, $t1", "classic5")
    lines = timeline_text(sim).splitlines()
    assert "I2     .D=RE-W   add $t2, $t0, $t1" in lines
    assert sim.where[1][3] == "IF"  # the held cycle, drawn "="; the "D" before it is IF too
    legend = next(line for line in lines if line.startswith("legend:"))
    assert legend.startswith("legend: D in IF, not issued yet") and "R in ID" in legend
    assert "decoded" not in legend and "decoded" not in TIMELINE_LEGEND


def test_timeline_rows_follow_the_issue_order():
    sim = simulate(FOUR_ADDS, order=[0, 2, 1, 3])
    rows = [line.split()[0] for line in timeline_text(sim).splitlines() if line.startswith("I")]
    assert rows == ["I1", "I3", "I2", "I4"]
    assert sim.cycles == 8


def test_timeline_of_a_multiply_and_memory_stage():
    sim = simulate("mul $t3, $t2, $t2\nlw $t0, 0($s0)\n", "classic5")
    chars = timeline_chars(sim)
    assert chars[0].startswith("DReeE-W")
    assert "RE-W" in chars[1]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.integers(1, 9),
    machine=st.sampled_from(["lecture", "classic5", "dual"]),
)
def test_timeline_characters_agree_with_the_simulation(seed, size, machine):
    sim = simulate(random_block(seed, size), machine)
    chars = timeline_chars(sim)
    m = sim.machine
    held = held_cells(sim)
    assert set("".join(chars.values())) <= set(TIMELINE_CHARS)
    for k, row in chars.items():
        assert len(row) == sim.cycles
        assert row.count("R") == 1
        assert row.index("R") + 1 == sim.issue[k]  # R marks the issue cycle
        assert len(row.rstrip(".")) == sim.finish[k]  # the last mark is the finish
        assert row.count("W") == 1
        assert row.count("=") == sum(1 for (c, j) in held if j == k)
        assert row.count("e") + row.count("E") == m.timing(sim.program[k].op_class).execute_cycles
    stalled = {(s.cycle, s.index) for s in sim.stalls}
    assert stalled <= set(held)  # every stall shows as a held cell


# -- schedules and dependences -----------------------------------------------------------------
def test_schedule_table_text_of_the_scheduled_order():
    dg = analyze(SIX_BLOCK)
    sched = evaluate(dg.graph, [0, 2, 5, 1, 4, 3])
    text = schedule_table_text(sched)
    lines = text.splitlines()
    assert lines[0] == "program-order: 10 cycles"
    assert [line.split()[0] for line in lines[2:]] == ["I1", "I3", "I6", "I2", "I5", "I4"]
    assert "I4      8      10  t0 = t1 + t2" in text
    assert "RAW on t1, waits for I2" in text


def test_dependences_text_lists_every_edge():
    dg = analyze(SIX_BLOCK)
    text = dependences_text(dg)
    assert len(text.splitlines()) == 1 + len(dg.edges) == 7
    assert "I1 -> I2  RAW   t0  3" in text
    assert "I1 -> I4" not in dependences_text(dg, reduce=True)
    assert "$t2" in dependences_text(analyze(FOUR_ADDS))


# -- the dependence graph drawing --------------------------------------------------------------
def _arrows(fig):
    return [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]


def _texts(fig):
    return [t.get_text() for t in fig.axes[0].texts]


def test_graph_draws_reduced_or_full_edges():
    dg = analyze(SIX_BLOCK)
    full_pairs = {(e.src, e.dst) for e in dg.edges}
    reduced_pairs = {(e.src, e.dst) for e in dg.reduction()}
    assert len(_arrows(draw_dependence_graph(dg, reduce=False))) == len(full_pairs) == 4
    assert len(_arrows(draw_dependence_graph(dg))) == len(reduced_pairs) == 3
    texts = _texts(draw_dependence_graph(dg))
    assert "RAW t0 · 3\nWAR t1 · 0" in texts
    assert "t0 = t1 + t2" in texts and "I6" in texts


def test_graph_highlights_the_critical_path():
    dg = analyze(SIX_BLOCK)
    fig = draw_dependence_graph(dg)
    red = [a for a in _arrows(fig) if matplotlib.colors.to_hex(a.get_edgecolor()) == "#d62728"]
    assert len(red) == 2  # I1 -> I2 -> I4
    assert "critical path I1 → I2 → I4: 10 cycles" in fig.axes[0].get_title()
    fig2 = draw_dependence_graph(dg, highlight_critical=False)
    assert not any(matplotlib.colors.to_hex(a.get_edgecolor()) == "#d62728" for a in _arrows(fig2))


def test_graph_annotations_and_states():
    dg = analyze(SIX_BLOCK)
    fig = draw_dependence_graph(dg, annotate={0: "est 2", 3: "prio 3"}, states={0: "scheduled"})
    assert "est 2" in _texts(fig) and "prio 3" in _texts(fig)
    fills = {
        matplotlib.colors.to_hex(p.get_facecolor())
        for p in fig.axes[0].patches
        if not isinstance(p, FancyArrowPatch)
    }
    assert style.STATE_COLORS["scheduled"] in fills and style.STATE_COLORS["waiting"] in fills
    with pytest.raises(LectureKitError, match="state of operation 1"):
        draw_dependence_graph(dg, states={1: "done"})


def test_graph_layers_by_depth():
    dg = analyze(SIX_BLOCK)
    assert layers(dg.graph) == {0: 0, 1: 1, 2: 0, 3: 2, 4: 1, 5: 0}


def test_graph_of_a_core_graph_and_of_an_empty_block():
    dg = analyze("lw $t0, 8($s1)\nsw $t0, 12($s1)\n", "classic5")
    fig = draw_dependence_graph(dg.graph)  # no critical_path on a bare core graph
    assert len(_arrows(fig)) == 1
    fig.savefig(__import__("io").BytesIO(), format="png")  # "$" is not read as math
    empty = draw_dependence_graph(analyze(""))
    assert "(no instructions)" in _texts(empty)


# -- the pipeline drawings ---------------------------------------------------------------------
def _cells(fig, color):
    return [
        p
        for p in fig.axes[0].patches
        if isinstance(p, Rectangle) and matplotlib.colors.to_hex(p.get_facecolor()) == color
    ]


def test_stage_table_figure_colours_one_cell_per_instruction_and_cycle():
    sim = simulate(FOUR_ADDS)
    fig = draw_stage_table(sim)
    for k in range(4):
        assert len(_cells(fig, style.instruction_color(k))) == len(sim.where[k])
    hatched = [p for p in fig.axes[0].patches if p.get_hatch()]
    assert len(hatched) == len(held_cells(sim)) == 4
    texts = _texts(fig)
    assert "I2: RAW on $t2 (I1 writes in cycle 4)" in texts
    assert "11 cycles" in fig.axes[0].get_title(loc="left")
    fig.savefig(__import__("io").BytesIO(), format="png")


def test_stage_table_figure_grows_with_upto_cycle():
    sim = simulate(FOUR_ADDS)
    fig = draw_stage_table(sim, upto_cycle=4)
    coloured = sum(len(_cells(fig, style.instruction_color(k))) for k in range(4))
    expected = sum(1 for k in range(4) for c in sim.where[k] if c <= 4)
    assert coloured == expected == 7  # I1 in cycles 1-4, I2 in 2-4
    assert "cycle 4 of 11" in fig.axes[0].get_title(loc="left")
    assert len(_cells(fig, style.FUTURE_COLOR)) == 7 * 4  # cycles 5..11 not reached yet


def test_dual_issue_cells_are_split():
    sim = simulate(THREE_ADDS, "dual")
    fig = draw_stage_table(sim)
    widths = {round(p.get_width(), 2) for p in _cells(fig, style.instruction_color(0))}
    assert 0.5 in widths


def test_timeline_figure():
    sim = simulate(FOUR_ADDS)
    fig = draw_timeline(sim)
    for k in range(4):
        assert len(_cells(fig, style.instruction_color(k))) == len(sim.where[k])
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels[0].startswith("I1") and r"\$t2" in labels[0]


def test_stage_rows_as_on_a_slide():
    rows = [{"ID": [0]}, {"ID": [1], "RR": [0]}]
    fig = draw_stage_rows(
        rows,
        ["ID", "RR", "ALU", "RW"],
        title="as on the slide",
        texts={0: "add $t2, $t0, $t1", 1: "add $t7, $t5, $t6"},
    )
    assert len(_cells(fig, style.instruction_color(0))) == 2
    assert fig.axes[0].get_title(loc="left") == "as on the slide"


def test_a_machine_without_stages_before_the_read_stage():
    from lecturekit.target.machine import machine_from_dict

    tiny = machine_from_dict(
        {
            "name": "tiny",
            "stages": ["RR", "ALU", "RW"],
            "read_stage": "RR",
            "execute_stage": "ALU",
            "write_stage": "RW",
            "ops": {"alu": {"unit": "alu"}},
            "units": {"alu": 1},
        }
    )
    sim = simulate(FOUR_ADDS, tiny)
    assert timeline_chars(sim)[0].startswith("REW")
    assert describe_cycle(sim, 1) == ["cycle 1: I1 issues: reads its operands in RR"]
    assert "I2 waits (not in the pipeline yet): RAW on $t2" in stage_table_text(sim)
    draw_stage_table(sim, upto_cycle=2)
    draw_timeline(sim)


def test_dual_issue_text_marks_instructions_held_behind_others():
    sim = simulate("lw $t0, 0($s1)\nadd $t2, $t0, $t1\nadd $t3, $t4, $t5\n", "dual")
    text = stage_table_text(sim, listing=False)
    assert "I2*,I3+" in text
    assert "+ held behind an older instruction" in text
    assert any("waits in IF behind I2" in e for e in describe_cycle(sim, 3))


def test_draw_ready_frames_one_panel_per_frame():
    """The slide's animation as small multiples: a panel per frame, numbers from the trace."""
    import matplotlib.pyplot as plt

    from lecturekit.core.list_sched import list_schedule_trace, ready_frames
    from lecturekit.target.deps import analyze
    from lecturekit.viz.graph import draw_ready_frames

    dg = analyze(SIX_BLOCK, "lecture")
    frames = ready_frames(dg, list_schedule_trace(dg, "height")[1])
    fig = draw_ready_frames(dg, frames, cols=4)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[0] == "start: every number 0" and titles[1] == "1. place I1 in cycle 0"
    assert len(titles) == 7
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert "0→3" in texts and "0→1" in texts  # t1 and the last t0 after t0 is placed
    plt.close(fig)


@pytest.mark.parametrize(
    ("dp", "pp", "tp", "cp", "ep"), [(2, 4, 2, 1, 1), (4, 1, 2, 2, 4), (2, 2, 2, 3, 6)]
)
def test_rank_layout_figure_shows_every_gpu_once_in_5d(dp, pp, tp, cp, ep):
    """Each GPU is one cell, at its stage's row and under its replica's and context rank's
    columns, labelled with its global rank (and its expert slice when ep > 1)."""
    from lecturekit.llm.planner import rank_layout
    from lecturekit.viz.timeline import plot_rank_layout

    lay = rank_layout(dp, pp, tp, gpus_per_node=4, cp=cp, ep=ep)
    ax = plot_rank_layout(lay)
    cells = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(cells) == lay.world_size
    labels = {t.get_text() for t in ax.texts if not t.get_text().startswith("data replica")}
    want = {f"{r}" if ep == 1 else f"{r}\ne{lay.expert_of(r)}" for r in range(lay.world_size)}
    assert labels == want
    for t in ax.texts:
        if t.get_text() in want:
            r = int(t.get_text().split("\n")[0])
            x, y = t.get_position()
            d, stage = next(
                (d, s)
                for d in range(dp)
                for s in range(pp)
                if r in {lay.rank(d, s, k, c) for k in range(tp) for c in range(cp)}
            )
            assert round(y - 0.43) == stage
            col = round(x - 0.46 - d * (cp * tp + 0.6))
            assert lay.rank(d, stage, col % tp, col // tp) == r
    assert (f"cp={cp}" in ax.get_title(loc="left")) == (cp > 1)
    plt.close("all")
