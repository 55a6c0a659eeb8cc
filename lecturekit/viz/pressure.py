"""Drawings of register pressure (:mod:`lecturekit.core.pressure`,
:mod:`lecturekit.target.regalloc`) and of task schedules (:mod:`lecturekit.core.polynomial`).

:func:`plot_live_ranges` draws each value's live interval as a bar over the instructions of an
order, the number of values live at each point under them, and the register count as a line:
where the count rises above the line, something must be spilled.
"""

from __future__ import annotations

from ..language import _
from .fonts import figure
from .style import instruction_color
from .text import text_table


@figure
def plot_live_ranges(
    values, order_texts, intervals, *, registers: int | None = None, title: str | None = None
):
    """Live intervals ``[a, b)`` of ``values`` (their names) over the points of an order whose
    instructions are ``order_texts``; ``registers``: the line to stay under. Returns the
    Figure."""
    import matplotlib.pyplot as plt

    n = len(order_texts)
    fig, (top, bottom) = plt.subplots(
        2,
        1,
        figsize=(7.2, 0.26 * len(values) + 2.6),
        dpi=100,
        sharex=True,
        gridspec_kw={"height_ratios": [max(2, len(values)), 3]},
    )
    lo = -1
    for k, ((a, b), v) in enumerate(zip(intervals, values, strict=True)):
        a, b = max(a, lo), min(b, n)
        top.barh(k, b - a, left=a - 0.5, height=0.6, color=instruction_color(k), alpha=0.8)
        top.text(a - 0.45, k, v.name.replace("$", r"\$"), va="center", fontsize=6.5)
    top.set_yticks([])
    top.set_ylim(len(values) - 0.5, -0.7)
    live = [sum(1 for a, b in intervals if a <= p < b) for p in range(lo, n)]
    bottom.step(list(range(lo, n)), live, where="mid", color="#333333")
    bottom.fill_between(list(range(lo, n)), live, step="mid", alpha=0.15, color="#333333")
    if registers is not None:
        bottom.axhline(registers, color="#b00000", linestyle="--", linewidth=1)
        bottom.text(
            n - 0.5,
            registers + 0.1,
            _("{k} registers").format(k=registers),
            color="#b00000",
            fontsize=7,
            ha="right",
            va="bottom",
        )
    bottom.set_ylabel(_("live values"), fontsize=8)
    bottom.set_xticks(range(lo, n))
    bottom.set_xticklabels(
        [_("entry")] + [t.replace("$", r"\$") for t in order_texts],
        rotation=60,
        ha="right",
        fontsize=6.5,
    )
    from matplotlib.ticker import MaxNLocator

    bottom.yaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.set_ylim(0, max(live + [registers or 0]) + 1)
    top.set_title(
        title or _("live ranges over the order, and the values live at each point"), fontsize=9
    )
    fig.tight_layout()
    return fig


def strategies_table(rows) -> str:
    """``rows``: ``(registers, [Strategy, ...])``; one line per register count and strategy:
    cycles, spill instructions, MaxLive of the order allocated."""
    names = {"prepass": _("prepass"), "postpass": _("postpass"), "integrated": _("integrated")}
    headers = [_("registers"), _("strategy"), _("cycles"), _("spill code"), _("MaxLive")]
    body = [
        [k, names.get(s.name, s.name), s.cycles, s.spills, s.max_live]
        for k, strategies in rows
        for s in strategies
    ]
    return text_table(headers, body, right=(0, 2, 3, 4))


def task_schedule_text(schedule) -> str:
    """A schedule of a task graph (:func:`lecturekit.core.polynomial.task_graph`) as a table:
    one row per time step, one column per processor."""
    g = schedule.graph
    m = g.units.get("proc", 1)
    steps: dict[int, list[str]] = {}
    for i, s in enumerate(schedule.start):
        for t in range(s, s + g.ops[i].tail + 1):
            steps.setdefault(t, []).append(g.ops[i].name)
    first = min(steps, default=1)
    rows = []
    for t in range(first, schedule.length + 1):
        names = sorted(steps.get(t, []), key=lambda x: (len(x), x))
        rows.append([t] + names + ["·"] * (m - len(names)))
    headers = [_("step")] + [_("processor {p}").format(p=p + 1) for p in range(m)]
    return text_table(headers, rows, right=(0,))


__all__ = ["plot_live_ranges", "strategies_table", "task_schedule_text"]
