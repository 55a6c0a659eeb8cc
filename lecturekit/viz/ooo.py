"""Drawings of the out-of-order core (:mod:`lecturekit.target.ooo`): its timeline, H&P's status
tables at a cycle, and cycles against the window size.

The timeline marks each instruction's cycles as llvm-mca's timeline view does: ``D`` dispatched
(it entered the reservation stations and the reorder buffer: H&P's *issue*), ``=`` waiting in the
stations, ``E`` executing (from the cycle it starts to its last execute cycle), ``W`` until its
result is written, ``-`` written and waiting to commit, ``C`` the cycle it commits. Nothing is
recomputed: every mark comes from the :class:`~lecturekit.target.ooo.OooResult`.
"""

from __future__ import annotations

from ..language import _
from .fonts import figure
from .style import instruction_color
from .text import text_table

#: the marks of the timeline (llvm-mca's, with W and C for the write and commit cycles)
MARKS = ("D", "=", "E", "W", "-", "C")


def marks(result, k: int, cycle: int) -> str:
    """The mark of instruction ``k`` in ``cycle`` ('' when it is not in the core)."""
    if cycle == result.dispatch[k]:
        return "D"
    if result.dispatch[k] < cycle < result.issue[k]:
        return "="
    if result.issue[k] <= cycle <= result.complete[k]:
        return "E"
    if result.complete[k] < cycle <= result.write[k]:
        return "W"
    if result.write[k] < cycle < result.commit[k]:
        return "-"
    if cycle == result.commit[k]:
        return "C"
    return ""


def timeline_text(result, *, upto: int | None = None) -> str:
    """One row per instruction, one column per cycle (:data:`MARKS`), up to ``upto``."""
    last = result.retired if upto is None else min(upto, result.retired)
    first = min(result.dispatch, default=1)
    head = "".join(str(c % 10) for c in range(first, last + 1))
    label_w = max(
        (len(f"I{k + 1} {result.program[k].text}") for k in range(len(result.program))), default=4
    )
    lines = [" " * (label_w + 2) + head]
    for k in range(len(result.program)):
        row = "".join(marks(result, k, c) or "." for c in range(first, last + 1))
        label = f"I{k + 1} {result.program[k].text}"
        lines.append(f"{label:<{label_w}}  {row}")
    return "\n".join(lines)


def status_table(result) -> str:
    """H&P's *instruction status* with cycles: dispatch (their issue), start, execution
    complete, write result, commit."""
    headers = [
        _("instruction"),
        _("dispatch (H&P: issue)"),
        _("start"),
        _("execute done"),
        _("write result"),
        _("commit"),
    ]
    rows = [
        [r["instruction"], r["dispatch"], r["issue"], r["complete"], r["write"], r["commit"]]
        for r in result.table()
    ]
    return text_table(headers, rows, right=(1, 2, 3, 4, 5))


def state_text(result, cycle: int) -> str:
    """The core during ``cycle``: reservation stations (with the results each still waits
    for), executing instructions, the reorder buffer, the register status (renaming)."""

    def name(k: int) -> str:
        return f"I{k + 1} ({result.program[k].text})"

    s = result.state(cycle)
    status_words = {
        "waiting": _("waiting"),
        "executing": _("executing"),
        "written": _("written"),
    }
    lines = [_("cycle {cycle}").format(cycle=cycle)]
    if s["dispatched"]:
        lines.append(
            _("  dispatched: {names}").format(names=", ".join(name(k) for k in s["dispatched"]))
        )
    if s["held"]:
        held = {
            "window": _("the stations are full"),
            "rob": _("the reorder buffer is full"),
            "width": _("the dispatch width is used up"),
        }
        lines.append(_("  dispatch stopped: {why}").format(why=held.get(s["held"], s["held"])))
    if s["committed"]:
        lines.append(
            _("  committed: {names}").format(names=", ".join(name(k) for k in s["committed"]))
        )
    lines.append(_("reservation stations:"))
    if not s["stations"]:
        lines.append(_("  (empty)"))
    for k, tags in s["stations"]:
        if tags:
            waits = _("waits for {tags}").format(tags=", ".join(f"I{t + 1}" for t in tags))
        else:
            waits = _("operands ready")
        lines.append(f"  {name(k)}: {waits}")
    lines.append(
        _("executing: {names}").format(names=", ".join(name(k) for k in s["executing"]) or "-")
    )
    lines.append(_("reorder buffer (oldest first):"))
    if not s["rob"]:
        lines.append(_("  (empty)"))
    for k, status in s["rob"]:
        lines.append(f"  {name(k)}: {status_words.get(status, status)}")
    renamed = ", ".join(f"${r} <- I{k + 1}" for r, k in sorted(s["renamed"].items()))
    lines.append(_("register status: {renamed}").format(renamed=renamed or "-"))
    return "\n".join(lines)


@figure
def plot_ooo_timeline(result, ax=None, *, upto: int | None = None, title: str | None = None):
    """The timeline as coloured cells with their marks; ``upto`` greys what has not happened by
    that cycle (for stepping). Returns the Axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = len(result.program)
    first = min(result.dispatch, default=1)
    last = result.retired
    if ax is None:
        width = min(13.0, 2.6 + 0.27 * (last - first + 1))
        _unused, ax = plt.subplots(figsize=(width, 0.34 * n + 1.0), dpi=100)
    shade = {"D": 0.25, "=": 0.08, "E": 1.0, "W": 0.6, "-": 0.12, "C": 0.35}
    for k in range(n):
        color = instruction_color(k)
        for c in range(first, last + 1):
            mark = marks(result, k, c)
            if not mark:
                continue
            future = upto is not None and c > upto
            ax.add_patch(
                Rectangle(
                    (c - 0.5, k - 0.42),
                    1,
                    0.84,
                    facecolor="#f4f4f4" if future else color,
                    alpha=1.0 if future else shade[mark],
                    edgecolor="#9a9a9a",
                    linewidth=0.4,
                )
            )
            ax.text(
                c,
                k,
                mark,
                ha="center",
                va="center",
                fontsize=7,
                color="#b0b0b0" if future else "#111111",
            )
    if upto is not None:
        ax.axvline(upto + 0.5, color="#b00000", linewidth=1)
    ax.set_xlim(first - 0.5, last + 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_yticks(range(n))
    ax.set_yticklabels(
        [f"I{k + 1}  {result.program[k].text}".replace("$", r"\$") for k in range(n)],
        fontsize=7,
        family="monospace",
    )
    ax.set_xticks(range(first, last + 1))
    ax.tick_params(axis="x", labelsize=6)
    ax.set_xlabel(_("cycle"))
    window = "∞" if result.window is None else str(result.window)
    rob = "∞" if result.rob is None else str(result.rob)
    ax.set_title(
        title
        or _(
            "out of order on {machine}: {cycles} cycles (stations {window}, ROB {rob}); "
            "D dispatch, = waits, E executes, W writes, - waits to commit, C commits"
        ).format(machine=result.machine.name, cycles=result.cycles, window=window, rob=rob),
        fontsize=8,
    )
    return ax


@figure
def plot_window_sweep(table: dict, windows, *, title: str | None = None, ax=None):
    """Cycles against the window size, one line per order (``table`` from
    :func:`lecturekit.target.ooo.compare_windows`), the in-order figure as a dashed line of the
    same colour. Returns the Axes."""
    import matplotlib.pyplot as plt

    if ax is None:
        _unused, ax = plt.subplots(figsize=(6.4, 3.0), dpi=100)
    xs = list(range(len(windows)))
    for k, (name, row) in enumerate(table.items()):
        color = instruction_color(k)
        ax.plot(xs, [row[w] for w in windows], marker="o", color=color, label=name)
        ax.axhline(row["in-order"], color=color, linestyle="--", linewidth=1)
    ax.set_xticks(xs)
    ax.set_xticklabels(["∞" if w is None else str(w) for w in windows])
    ax.set_xlabel(_("reservation stations (window size)"))
    ax.set_ylabel(_("cycles"))
    ax.set_title(title or _("out of order (solid) and in order (dashed)"), fontsize=9)
    ax.legend(fontsize=7)
    return ax


__all__ = [
    "MARKS",
    "marks",
    "plot_ooo_timeline",
    "plot_window_sweep",
    "state_text",
    "status_table",
    "timeline_text",
]
