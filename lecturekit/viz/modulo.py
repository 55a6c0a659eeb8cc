"""Drawings for loops: overlapped iterations, the modulo reservation table, lifetimes.

* :func:`draw_overlap` -- iterations × cycles, each instruction a coloured block at its issue
  cycle; for a software-pipelined loop the prologue, the kernel's steady state and the epilogue
  are marked. :func:`draw_pipelined_vs_not` puts the lecture's "Not pipelined / Pipelined" figure
  side by side (the same loop, list-scheduled and run iteration after iteration on in-order
  hardware, versus modulo-scheduled).
* :func:`draw_mrt` -- the modulo reservation table (rows 0..II-1 × issue slots and units); an
  over-full cell (a smaller II folding the schedule) is drawn red.
* :func:`draw_scheduler_step` -- one step of the iterative modulo scheduler (for the widget).
* :func:`draw_ii_report` -- why an II fails: the folded table and the reasons.
* :func:`draw_lifetimes` -- register lifetimes against II (why modulo variable expansion).

Everything is drawn from the results of :mod:`lecturekit.loops`; nothing is recomputed.
matplotlib is imported inside the functions.
"""

from __future__ import annotations

from ..language import _
from .fonts import family, figure
from .style import GRID_COLOR, NOTE_COLOR, instruction_color, lighten, text_color_on

KERNEL_COLOR = "#ffe9a8"
OVERFLOW_COLOR = "#ff9a9a"
PROLOGUE_COLOR = "#e3f0ff"
EPILOGUE_COLOR = "#eaf7e3"

__all__ = [
    "draw_ii_report",
    "draw_lifetimes",
    "draw_mrt",
    "draw_overlap",
    "draw_pipelined_vs_not",
    "draw_scheduler_step",
]


def _plt():
    import matplotlib.pyplot as plt

    return plt


def _draw_iterations(ax, issue, labels, *, finish=None, title=None, first=None):
    """issue[r][k]: issue cycle of instruction k in iteration r."""
    from matplotlib.patches import Rectangle

    n_it = len(issue)
    lo = min(min(row) for row in issue)
    hi = max(max(row) for row in issue)
    if finish is not None:
        hi = max(hi, max(max(row) for row in finish))
    for r, row in enumerate(issue):
        y = n_it - 1 - r
        if finish is not None:
            a, b = min(row), max(finish[r])
            ax.add_patch(
                Rectangle((a, y + 0.15), b - a + 1, 0.7, facecolor="#f2f2f2", edgecolor="none")
            )
        per_cycle: dict[int, list[int]] = {}
        for k, t in enumerate(row):
            per_cycle.setdefault(t, []).append(k)
        for t, ks in per_cycle.items():
            h = 0.7 / len(ks)
            for j, k in enumerate(ks):
                color = instruction_color(k)
                ax.add_patch(
                    Rectangle(
                        (t, y + 0.15 + j * h), 1, h, facecolor=color, edgecolor="white", lw=0.8
                    )
                )
                ax.text(
                    t + 0.5,
                    y + 0.15 + (j + 0.5) * h,
                    labels[k],
                    ha="center",
                    va="center",
                    fontsize=7 if len(ks) == 1 else 6,
                    color=text_color_on(color),
                )
    ax.set_xlim(lo - 0.5, hi + 1.5)
    ax.set_ylim(-0.2, n_it + 0.2)
    ax.set_yticks([n_it - 1 - r + 0.5 for r in range(n_it)])
    ax.set_yticklabels([_("iteration {r}").format(r=r) for r in range(n_it)], fontsize=8)
    ax.set_xlabel(_("cycle (issue)"))
    step = max(1, (hi - lo) // 20 + 1)
    ax.set_xticks([t + 0.5 for t in range(lo, hi + 1, step)])
    ax.set_xticklabels([str(t) for t in range(lo, hi + 1, step)], fontsize=7)
    ax.grid(axis="x", color=GRID_COLOR, alpha=0.25)
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10, loc="left")


@figure
def draw_overlap(result, iterations: int = 5, ax=None, *, title: str | None = None):
    """The pipelined iterations of a :class:`~lecturekit.loops.modulo.ModuloResult`: iteration
    ``i`` issues instruction ``k`` at ``start[k] + i*II``; the kernel window (every stage busy)
    is shaded yellow, the prologue blue and the epilogue green."""
    from matplotlib.patches import Rectangle

    plt = _plt()
    if ax is None:
        fig, ax = plt.subplots(figsize=(9, 0.45 * iterations + 1.3), dpi=90)
    issue = result.iteration_starts(iterations)
    tails = [op.tail for op in result.graph.ops]
    finish = [[t + tails[k] for k, t in enumerate(row)] for row in issue]
    first, ii, S = result.first, result.ii, result.stage_count
    end = first + (iterations + S - 1) * ii
    window = result.kernel_window(iterations)
    spans = [(first, first + (S - 1) * ii, PROLOGUE_COLOR, "prologue")]
    if window:
        kernel = _("kernel ×{n}").format(n=iterations - S + 1)
        spans.append((window[0], window[1] + 1, KERNEL_COLOR, kernel))
        spans.append((window[1] + 1, end, EPILOGUE_COLOR, _("epilogue")))
    for a, b, color, name in spans:
        if b > a:
            ax.add_patch(
                Rectangle((a, -0.2), b - a, iterations + 0.4, facecolor=color, edgecolor="none",
                          zorder=0)
            )  # fmt: skip
            ax.text((a + b) / 2, iterations + 0.05, name, ha="center", va="bottom", fontsize=8,
                    color=NOTE_COLOR)  # fmt: skip
    _draw_iterations(
        ax,
        issue,
        [op.name for op in result.graph.ops],
        finish=finish,
        title=title
        or _("Pipelined: a new iteration every II = {ii} cycles, {s} stage(s) on {name}").format(
            ii=result.ii, s=S, name=result.machine.name
        ),
    )
    ax.set_ylim(-0.2, iterations + 0.6)
    return ax.figure


@figure
def draw_pipelined_vs_not(result, iterations: int = 4, *, not_pipelined=None, figsize=None):
    """The lecture's figure: "Not pipelined" (the loop list-scheduled, iterations one after the
    other on in-order hardware) above "Pipelined" (the modulo schedule), on one cycle axis.

    ``not_pipelined``: a :class:`~lecturekit.loops.unroll.Unrolled` with ``k = 1`` (computed
    from the same loop if not given).
    """
    plt = _plt()
    if not_pipelined is None:
        from ..loops.unroll import unroll

        not_pipelined = unroll(
            result.loop,
            1,
            result.machine,
            restrict=result.loop.restrict,
            move_induction=result.move_induction,
        )
    from ..loops.unroll import steady_state

    plain = steady_state(not_pipelined.loop, passes=max(3, iterations))
    plain_issue = plain.issue[:iterations]
    # put each list-scheduled instruction back under its original number (and colour)
    remapped = [[0] * len(row) for row in plain_issue]
    for r, row in enumerate(plain_issue):
        for j, t in enumerate(row):
            remapped[r][not_pipelined.origin[j][1]] = t
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=figsize or (9.5, 0.9 * iterations + 2.4), dpi=90, sharex=True
    )
    per_it = not_pipelined.cycles_per_iteration
    tails = [op.tail for op in result.graph.ops]
    _draw_iterations(
        top,
        remapped,
        [op.name for op in result.graph.ops],
        finish=[[t + tails[k] for k, t in enumerate(row)] for row in remapped],
        title=_(
            "Not pipelined: one iteration after the other ({per_it:g} cycles per iteration)"
        ).format(per_it=per_it),
    )
    draw_overlap(
        result,
        iterations,
        ax=bottom,
        title=_("Pipelined: a new iteration every II = {ii} cycles").format(ii=result.ii),
    )
    pipelined = result.iteration_starts(iterations)
    lo = min(min(map(min, remapped)), min(map(min, pipelined))) - 0.5
    hi = max(
        max(map(max, remapped)) + 1,
        result.first + (iterations + result.stage_count - 1) * result.ii,
    )
    top.set_xlim(lo, hi + 0.5)
    top.set_xlabel("")
    fig.tight_layout()
    return fig


@figure
def draw_mrt(table, ax=None, *, title: str | None = None, highlight: set[int] | None = None):
    """The modulo reservation table (a :class:`~lecturekit.loops.modulo.ReservationTable` or a
    result with ``.table``): one column per issue slot and per copy of each unit, one row per
    cycle of the kernel; each cell the instruction using it and its stage. Over-full cells (more
    users than copies) are red and list every user. ``highlight``: instructions to outline."""
    from matplotlib.patches import Rectangle

    plt = _plt()
    table = getattr(table, "table", table)
    ii = table.ii
    cols = []
    for name, cap in table.columns:
        for c in range(cap):
            cols.append((name, c, cap))
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(1.1 * len(cols) + 1.2, 0.42 * ii + 1.1), dpi=90)
    highlight = highlight or set()
    for x, (name, c, cap) in enumerate(cols):
        for row in range(ii):
            users = table.cells.get((row, name), [])
            over = len(users) > cap
            y = ii - 1 - row
            if over:
                if c == 0:
                    ax.add_patch(Rectangle((x, y), cap, 1, facecolor=OVERFLOW_COLOR,
                                           edgecolor="#b00000", lw=1.5))  # fmt: skip
                    text = " ".join(f"{table.labels[k]}/s{s}" for k, s in users)
                    ax.text(x + cap / 2, y + 0.5, text, ha="center", va="center", fontsize=6.5,
                            color="#600000", wrap=True)  # fmt: skip
                continue
            if c < len(users):
                k, s = users[c]
                color = instruction_color(k)
                ax.add_patch(
                    Rectangle((x, y), 1, 1, facecolor=lighten(color, 0.15 * s),
                              edgecolor="#222222" if k in highlight else "white",
                              lw=2.2 if k in highlight else 1)
                )  # fmt: skip
                ax.text(x + 0.5, y + 0.5, f"{table.labels[k]}/s{s}", ha="center", va="center",
                        fontsize=8, color=text_color_on(color))  # fmt: skip
            else:
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", edgecolor="#dddddd"))
    ax.set_xlim(0, len(cols))
    ax.set_ylim(0, ii)
    ax.set_xticks([x + 0.5 for x in range(len(cols))])
    ax.set_xticklabels(
        [("issue" if name == "issue" else name) + (f" {c + 1}" if cap > 1 else "")
         for name, c, cap in cols],
        fontsize=8,
    )  # fmt: skip
    ax.xaxis.tick_top()
    ax.set_yticks([ii - 1 - r + 0.5 for r in range(ii)])
    ax.set_yticklabels([_("row {r}").format(r=r) for r in range(ii)], fontsize=8)
    for s in ("top", "right", "bottom", "left"):
        ax.spines[s].set_visible(False)
    ax.tick_params(length=0)
    default = _("Modulo reservation table, II = {ii} (I3/s1: I3 in stage 1)").format(ii=ii)
    ax.set_title(title or default, fontsize=9, loc="left", pad=18)
    if own:
        ax.figure.tight_layout()
    return ax.figure


@figure
def draw_scheduler_step(result, index: int):
    """Step ``index`` of the modulo scheduler's trace: the partial reservation table at that
    step's II, the instruction just placed outlined, the message as the title."""
    from ..loops.modulo import reservation_table

    plt = _plt()
    step = result.trace[index]
    table = reservation_table(result.graph, step.placed, step.ii, 0)
    fig, (ax, side) = plt.subplots(
        1, 2, figsize=(9, 0.42 * step.ii + 1.6), dpi=90, gridspec_kw={"width_ratios": [3, 2]}
    )
    draw_mrt(table, ax=ax, title=_("II = {ii}: partial table").format(ii=step.ii),
             highlight={step.op} if step.op is not None else set())  # fmt: skip
    side.axis("off")
    rows = []
    for k, op in enumerate(result.graph.ops):
        t = step.placed.get(k)
        mark = ""
        if k == step.op:
            mark = _("  <- placed")
        elif any(k == e for e, _unused in step.evicted):
            mark = _("  <- evicted")
        rows.append(f"{op.name:<4}{'-' if t is None else t:>4}{mark}")
    side.text(0, 1, _("instr cycle\n") + "\n".join(rows), family=family("monospace"), fontsize=8,
              va="top")  # fmt: skip
    fig.tight_layout()
    return fig


@figure
def draw_ii_report(result, report):
    """The folded table of an :class:`~lecturekit.loops.modulo.IIReport` with its verdict."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 0.42 * report.ii + 1.3), dpi=90)
    verdict = "works" if report.feasible else "fails"
    draw_mrt(
        report.table,
        ax=ax,
        title=_(
            "II = {ii} {verdict}: the found schedule (II = {ii2}) folded onto {ii} "
            "row(s); red = more users than the machine has"
        ).format(ii=report.ii, verdict=verdict, ii2=result.ii),
    )
    fig.tight_layout()
    return fig


@figure
def draw_lifetimes(result, ax=None):
    """Each value's lifetime (issue of its definition to its last read) as a bar, with II
    marked: a bar longer than II needs ``ceil(lifetime / II)`` registers."""
    plt = _plt()
    lives = result.lifetimes
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 0.35 * len(lives) + 1.2), dpi=90)
    for y, lt in enumerate(lives):
        color = instruction_color(lt.op)
        ax.barh(y, max(lt.length, 0.15), left=lt.start, color=color, height=0.6)
        ax.text(lt.start + max(lt.length, 0.15) + 0.2, y,
                _("{length} cycle(s) -> {copies} register(s)").format(
                    length=lt.length, copies=lt.copies
                ),
                va="center", fontsize=7)  # fmt: skip
    ax.set_yticks(range(len(lives)))
    ax.set_yticklabels([f"${lt.value} (I{lt.op + 1})" for lt in lives], fontsize=8)
    ax.invert_yaxis()
    lo = min((lt.start for lt in lives), default=0)
    ax.axvspan(lo, lo + result.ii, color=KERNEL_COLOR, alpha=0.5, zorder=0)
    ax.text(lo + result.ii / 2, len(lives) - 0.45, _("II = {ii}").format(ii=result.ii),
            ha="center", va="bottom", fontsize=8, color=NOTE_COLOR)  # fmt: skip
    ax.set_xlabel(_("cycle"))
    ax.set_title(
        _(
            "Register lifetimes: the kernel is unrolled {unroll}× (modulo variable "
            "expansion)"
        ).format(unroll=result.unroll),
        fontsize=9, loc="left",
    )  # fmt: skip
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    return ax.figure
