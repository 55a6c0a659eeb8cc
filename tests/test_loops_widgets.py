"""Loop drawings and the software-pipelining widgets, driven headless."""

import html

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lecturekit.loops.examples import example  # noqa: E402
from lecturekit.loops.modulo import explain_ii, modulo_schedule  # noqa: E402
from lecturekit.loops.randloop import random_loop  # noqa: E402
from lecturekit.loops.unroll import unroll  # noqa: E402
from lecturekit.viz.modulo import (  # noqa: E402
    draw_ii_report,
    draw_lifetimes,
    draw_mrt,
    draw_overlap,
    draw_pipelined_vs_not,
    draw_scheduler_step,
)
from lecturekit.viz.unroll import (  # noqa: E402
    cycle_state,
    draw_unrolled_pass,
    pass_table_text,
    unrolled_pass,
)
from lecturekit.widgets.modulo import ii_explorer, modulo_stepper, unroll_explorer  # noqa: E402
from lecturekit.widgets.unroll import unroll_stepper  # noqa: E402

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
    # the lecture's slide: 14 cycles per iteration not pipelined; moving the pointer update
    # above the store (the default) makes it 13, and the figure compares like with like
    for move, cycles in ((False, "14 cycles"), (True, "13 cycles")):
        r = modulo_schedule(SAXPY, "lecture", move_induction=move)
        fig = draw_pipelined_vs_not(r, iterations=4)
        top, bottom = fig.axes
        assert top.get_title(loc="left").startswith("Not pipelined")
        assert cycles in top.get_title(loc="left")
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
    r = modulo_schedule(SAXPY, "dual", move_induction=False)  # the pointer needs 2 registers
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


# -- the unrolled loop, one pass cycle by cycle (chapter 06) --------------------------------------
def _where(u, idx):
    """What the stepper must call line ``idx`` of the scheduled body, from ``unroll``'s origin."""
    copy, p = u.origin[idx]
    if p == u.original.branch:
        return f"I{p + 1}, the branch"
    if p in {iv.position for iv in u.original.inductions.values()}:
        return f"I{p + 1}, pointer update"
    return f"I{p + 1}" if u.k == 1 else f"copy {copy} of I{p + 1}"


@pytest.mark.parametrize("k", [1, 2, 4])
def test_unroll_stepper_follows_unrolls_schedule(k):
    u = unroll(SAXPY, k, "lecture")
    w = unroll_stepper(SAXPY, "lecture", k=k)
    s = w.stepper
    assert w.error.value == "" and w.unrolled.lines == u.lines
    sched = u.schedule
    issue = {}  # cycle -> (text, copy/original) issued then, from unroll's own schedule
    for idx, op in enumerate(sched.order):
        text = " ".join(sched.graph.ops[op].text.split())
        issue.setdefault(sched.start[op], []).append((text, _where(u, idx)))
    first, branch = min(issue), max(issue)
    # one step per cycle, from the pass's first issue to the cycle the next pass starts in
    assert w.view.first == first and w.view.end == u.steady.issue[1][0] == branch + 1
    assert s.n_steps == u.cycles_per_pass + 1 == branch - first + 2
    assert f"<b>{u.cycles_per_pass:g} cycles per pass</b>" in w.summary.value
    assert f"<b>{u.cycles_per_iteration:g} cycles per original iteration</b>" in w.summary.value
    for i in range(s.n_steps):
        s.index = i
        cycle = first + i
        caption = w.caption.value
        assert w.cycle == cycle and caption.startswith(f"<b>cycle {cycle} (")
        if cycle in issue:
            for text, where in issue[cycle]:
                assert f"<code>{html.escape(text)}</code> ({where})" in caption
            assert w.table.value.count("issues now") == len(issue[cycle])
        elif cycle < w.view.end:
            assert "nothing issues" in caption and "waiting:" in caption
            assert "issues now" not in w.table.value
    first_line = " ".join(sched.graph.ops[sched.order[0]].text.split())
    assert f"<code>{html.escape(first_line)}</code> (" in caption and "next pass" in caption
    assert f"= {u.cycles_per_pass:g} cycles for {k} original iteration" in caption
    assert f"{u.cycles_per_iteration:g} cycles per iteration" in caption


def test_unroll_stepper_steps_and_explains_the_stalls():
    w = unroll_stepper(SAXPY, "lecture", k=2)
    s = w.stepper
    assert s.n_steps == 19  # the chapter: 18 cycles per pass, cycles 2..19, the next pass at 20
    caption, png = w.caption.value, _png(s.output)
    s.step()
    assert s.index == 1 and w.caption.value != caption and _png(s.output) != png
    assert "copy 1 of I1" in w.caption.value  # the second copy's load right behind the first's
    s.index = 4  # cycle 6: copy 1's multiply waits for the single ALU, held by copy 0's
    assert "nothing issues" in w.caption.value and "#b00000" in w.caption.value
    assert (
        "needs the alu in cycle 7, held by <code>mul $t1_0, $t0_0, $s0</code> (copy 0 of I2)"
        in w.caption.value
    )
    stalls = [i + 2 for i in range(s.n_steps - 1) if not w.view.issued_in(i + 2)]
    assert stalls == [6, 7, 9, 10, 16] and "(5 of them issue nothing)" in w.summary.value
    s.back()
    assert s.index == 3 and "issues <code>mul $t1_0, $t0_0, $s0</code>" in w.caption.value
    w.factor.value = 4
    assert w.error.value == "" and s.n_steps == 32 and s.index == 0
    w.machine.value = "dual"
    assert w.error.value == "" and w.unrolled.cycles_per_iteration == 3
    assert s.n_steps == w.unrolled.cycles_per_pass + 1


def test_unroll_stepper_shows_bad_input_instead_of_raising():
    for args, message in (
        (("add $t0, $t1, $t2",), "expected a loop"),
        (("loop: lw $t0, 0($s1\nbne $s1, $s3, loop",), "line 1"),
        ((SAXPY, "lecture", 0), "the unroll factor must be a positive integer, got 0"),
        ((SAXPY, "lecture", -3), "positive integer"),
        ((SAXPY, "lecture", 100), "at most 16"),
        ((random_loop(3, size=20).source, "lecture", 8), "the stepper shows up to 120"),
        ((SAXPY, "nonesuch"), "unknown machine"),
    ):
        w = unroll_stepper(*args)
        assert message in w.error.value and w.view is None and w.unrolled is None
        assert w.summary.value == "" and w.table.value == ""
        assert "input has an error" in w._repr_mimebundle_()["text/plain"]
    w.machine.value = "lecture"  # picking a known machine repairs it
    assert w.error.value == "" and w.stepper.n_steps == 19


def test_unrolled_pass_explanations_agree_with_the_evaluator():
    """Every instruction still to come has a reason not to issue in the cycle asked about,
    unless it does issue then; the pass shown lasts the steady-state cycles per pass."""
    sources = [SAXPY, example("running_sum"), example("prefix_product")]
    sources += [random_loop(seed, size=7).source for seed in range(6)]
    for source in sources:
        for machine in ("lecture", "dual"):
            u = unroll(source, 2, machine)
            view = unrolled_pass(u)
            assert view.length == u.cycles_per_pass
            assert [view.start[view.shown * view.n + i] for i in range(view.n)] == (
                u.steady.issue[view.shown]
            )
            for cycle in view.cycles:
                st = cycle_state(view, cycle)
                for o, reasons in st.waiting:
                    assert (reasons == []) == (view.start[o] == st.asked), (machine, cycle, o)
                    assert not any("no reason" in r for r in reasons)
            text = pass_table_text(view)
            assert text.splitlines()[-1].startswith(f"{u.cycles_per_pass:g} cycles per pass")


def test_unrolled_pass_figure():
    view = unrolled_pass(unroll(SAXPY, 2, "lecture"))
    fig = draw_unrolled_pass(view)
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.texts if t.get_text().startswith("I")]
    assert len(labels) == len(view.window) == 14  # the pass and the next pass's first load
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "copy 0", "copy 1", "once per pass", "next pass",
    ]  # fmt: skip
    assert any("one pass: 18 cycles = 2 × 9 cycles" in t.get_text() for t in ax.texts)
    fig = draw_unrolled_pass(view, upto_cycle=6)
    assert fig.axes[0].get_title(loc="left").endswith("(cycle 6)")
