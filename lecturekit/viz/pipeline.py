"""Pipeline drawings (matplotlib, imported lazily): the slides' stage table and a timeline.

* :func:`draw_stage_table` — the lecture's table: a row per cycle, a column per stage
  (``ID RR ALU RW``), each cell coloured by the instruction in it and labelled ``I2``. A cell where
  an instruction is *held* (in the same stage as the cycle before: a stall, or waiting behind one)
  is hatched, and the cause is written beside the row. ``upto_cycle`` draws only the first rows,
  so a stepper can grow the table cycle by cycle.
* :func:`draw_timeline` — the transposed view: a row per instruction (issue order), a column per
  cycle, each cell naming the stage.
* :func:`draw_stage_rows` — the drawing behind :func:`draw_stage_table`, from plain rows, for
  a table typed in by hand (e.g. as a slide shows it).

All take their data from a :class:`~lecturekit.target.pipeline.SimResult` (``stage_table()``,
``where``, ``stalls``); nothing is simulated here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..language import _
from . import style
from .fonts import family, figure
from .text import held_cells, label, stall_cycles, stall_reason

ROW_IN = 0.3  # inches per cycle row
COL_IN = 0.78  # inches per stage column
NOTE_IN = 4.4  # inches for the notes beside the table
NOTE_CHARS = 72  # longer notes are cut (the full causes are in the caption / text views)


def _escape(text: str) -> str:
    """Matplotlib would read ``$t0 ... $t1`` as math: escape the dollars for labels/legends."""
    return text.replace("$", r"\$")


def _notes_for(sim, last: int) -> dict[int, str]:
    notes: dict[int, list[str]] = {}
    for s in sim.stalls:
        if s.cycle <= last:
            notes.setdefault(s.cycle, []).append(
                f"{label(s.index)}: {stall_reason(sim, s, short=True)}"
            )
    for (c, k), s in held_cells(sim).items():
        if s is None and c <= last:
            pos = sim.order.index(k)
            ahead = sim.order[pos - 1] if pos else None
            if ahead is not None and sim.issue.get(ahead, 0) >= c:
                why = _("behind {label}").format(label=label(ahead))
            else:
                why = (
                    _("next stage full")
                    if sim.issue.get(k, 0) != c + 1
                    else _("issue width used up")
                )
            notes.setdefault(c, []).append(f"{label(k)}: {why}")
    out = {}
    for c, parts in notes.items():
        text = "; ".join(parts)
        out[c] = text if len(text) <= NOTE_CHARS else text[: NOTE_CHARS - 1] + "…"
    return out


@figure
def draw_stage_rows(
    rows: Sequence[Mapping[str, Sequence[int]]],
    stages: Sequence[str],
    *,
    held: Mapping[tuple[int, int], object] | None = None,
    notes: Mapping[int, str] | None = None,
    texts: Mapping[int, str] | None = None,
    upto_cycle: int | None = None,
    current: int | None = None,
    highlight: Sequence[int] = (),
    title: str | None = None,
    ax=None,
):
    """Draw a cycles × stages table and return the Figure.

    ``rows[c-1]`` maps a stage to the instruction indices in it during cycle ``c``. ``held``:
    cells ``(cycle, index)`` to hatch. ``notes``: cycle -> text written beside the row. ``texts``:
    index -> instruction text for the legend under the table. ``upto_cycle``: rows after it are
    drawn empty (grey). ``current``: a cycle whose row gets a thick frame. ``highlight``:
    instructions whose cells in the ``current`` row get a red frame (e.g. the stalled one).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    held = held or {}
    notes = notes or {}
    n_rows, n_cols = len(rows), len(stages)
    last = n_rows if upto_cycle is None else max(0, min(upto_cycle, n_rows))
    has_notes = bool(notes)
    instr = sorted({k for row in rows for ks in row.values() for k in ks} | set(texts or {}))
    legend_rows = (len(instr) + 1) // 2 if texts else 0

    if ax is None:
        table_w = n_cols * COL_IN + 0.45
        width = table_w + (NOTE_IN if has_notes else 0.2)
        table_h = (n_rows + 1) * ROW_IN
        top_in = 0.45 if title else 0.1
        bottom_in = 0.15 + 0.22 * legend_rows
        fig = plt.figure(figsize=(max(3.0, width), table_h + top_in + bottom_in))
        fw, fh = fig.get_size_inches()
        ax = fig.add_axes((0.45 / fw, bottom_in / fh, n_cols * COL_IN / fw, table_h / fh))
    else:
        fig = ax.figure

    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows + 1, 0)  # row 0 is the header; cycle c is row c
    ax.axis("off")
    for j, stage in enumerate(stages):
        ax.text(
            j + 0.5,
            0.5,
            stage,
            ha="center",
            va="center",
            fontsize=9,
            fontweight="bold",
            parse_math=False,
        )
    for c in range(1, n_rows + 1):
        ax.text(-0.08, c + 0.5, str(c), ha="right", va="center", fontsize=8, color="#444444")
        future = c > last
        row = rows[c - 1]
        for j, stage in enumerate(stages):
            ks = [] if future else list(row.get(stage, []))
            base = style.FUTURE_COLOR if future else style.EMPTY_COLOR
            ax.add_patch(
                Rectangle((j, c), 1, 1, facecolor=base, edgecolor=style.GRID_COLOR, linewidth=0.6)
            )
            for p, k in enumerate(ks):
                w = 1 / len(ks)
                color = style.instruction_color(k)
                is_held = (c, k) in held
                mark = c == current and k in highlight
                ax.add_patch(
                    Rectangle(
                        (j + p * w, c),
                        w,
                        1,
                        facecolor=color,
                        edgecolor="#333333" if is_held else style.GRID_COLOR,
                        hatch=style.HELD_HATCH if is_held else None,
                        linewidth=0.6,
                    )
                )
                if mark:
                    ax.add_patch(
                        Rectangle(
                            (j + p * w + 0.03, c + 0.06),
                            w - 0.06,
                            0.88,
                            fill=False,
                            edgecolor=style.STALL_NOTE_COLOR,
                            linewidth=2.2,
                            zorder=4,
                        )
                    )
                ax.text(
                    j + (p + 0.5) * w,
                    c + 0.5,
                    label(k),
                    ha="center",
                    va="center",
                    fontsize=8 if len(ks) == 1 else 7,
                    color=style.text_color_on(color),
                    fontweight="bold",
                    zorder=5,
                    bbox=dict(boxstyle="round,pad=0.1", facecolor=color, edgecolor="none")
                    if is_held
                    else None,
                )
        if c <= last and notes.get(c):
            ax.text(
                n_cols + 0.12,
                c + 0.5,
                notes[c],
                ha="left",
                va="center",
                fontsize=7.5,
                color=style.STALL_NOTE_COLOR,
                clip_on=False,
                parse_math=False,
            )
    if current is not None and 1 <= current <= n_rows:
        ax.add_patch(
            Rectangle(
                (0, current),
                n_cols,
                1,
                fill=False,
                edgecolor="#000000",
                linewidth=2.0,
                zorder=6,
                clip_on=False,
            )
        )
    if title:
        ax.set_title(title, fontsize=10, loc="left", parse_math=False)
    if texts:
        handles = [
            Patch(
                facecolor=style.instruction_color(k),
                edgecolor="#333333",
                label=_escape(f"{label(k)}  {texts.get(k, '')}"),
            )
            for k in instr
        ]
        if held:
            handles.append(
                Patch(
                    facecolor="white",
                    edgecolor="#333333",
                    hatch=style.HELD_HATCH,
                    label=_("held in that stage"),
                )
            )
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(0.0, 0.0),
            ncol=2,
            fontsize=7.5,
            frameon=False,
            handlelength=1.2,
            columnspacing=1.0,
        )
    return fig


@figure
def draw_stage_table(
    sim,
    upto_cycle: int | None = None,
    ax=None,
    *,
    title: str | None = None,
    notes: bool = True,
    legend: bool = True,
    current: int | None = None,
):
    """The slides' table for ``sim`` (a :class:`~lecturekit.target.pipeline.SimResult`): a row per
    cycle, a column per stage, held cells hatched, stall causes beside the rows.

    ``upto_cycle``: show the first cycles only (the rest of the table stays empty, so the figure
    keeps its size while a stepper grows it); the last shown row is framed and the instructions
    stalled in it are outlined in red. ``notes``: write the stall causes beside the rows.
    """
    last = sim.cycles if upto_cycle is None else max(0, min(upto_cycle, sim.cycles))
    held = {ck: s for ck, s in held_cells(sim).items() if ck[0] <= last}
    stalled_now = [s.index for s in sim.stalls if s.cycle == last] if upto_cycle else []
    if title is None:
        m = sim.machine
        fw = _("forwarding on") if m.forwarding else _("no forwarding")
        title = _("{name} ({fw}): {cycles} cycles, {stalls}").format(
            name=m.name, fw=fw, cycles=sim.cycles, stalls=stall_cycles(len(sim.stalls))
        )
        if upto_cycle is not None and last < sim.cycles:
            title = _("{name} ({fw}): cycle {last} of {cycles}").format(
                name=m.name, fw=fw, last=last, cycles=sim.cycles
            )
    texts = {k: ins.text or str(ins) for k, ins in enumerate(sim.program)} if legend else None
    return draw_stage_rows(
        sim.stage_table(),
        sim.machine.stages,
        held=held,
        notes=_notes_for(sim, last) if notes else None,
        texts=texts,
        upto_cycle=last,
        current=current if current is not None else (last if upto_cycle is not None else None),
        highlight=stalled_now,
        title=title,
        ax=ax,
    )


@figure
def draw_timeline(sim, upto_cycle: int | None = None, ax=None, *, title: str | None = None):
    """Instructions (rows, in issue order) × cycles (columns): each cell names the stage the
    instruction is in, coloured by instruction; held cells hatched. Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = sim.cycles
    last = n if upto_cycle is None else max(0, min(upto_cycle, n))
    order = list(sim.order)
    held = held_cells(sim)
    names = [f"{label(k)}  {sim.program[k].text or sim.program[k]}" for k in order]
    label_in = 0.2 + 0.075 * max([len(s) for s in names] + [4])
    if ax is None:
        cell_in = 0.42
        top_in = 0.7 if title != "" else 0.35
        w = label_in + n * cell_in + 0.2
        h = len(order) * 0.34 + top_in + 0.15
        fig = plt.figure(figsize=(max(3.5, w), h))
        fw, fh = fig.get_size_inches()
        ax = fig.add_axes((label_in / fw, 0.15 / fh, n * cell_in / fw, len(order) * 0.34 / fh))
    else:
        fig = ax.figure
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(len(order), 0)
    for row, k in enumerate(order):
        color = style.instruction_color(k)
        for c in range(1, n + 1):
            stage = sim.where.get(k, {}).get(c)
            if stage is None or c > last:
                ax.add_patch(
                    Rectangle(
                        (c - 1, row),
                        1,
                        1,
                        facecolor=style.FUTURE_COLOR if c > last else style.EMPTY_COLOR,
                        edgecolor="#dddddd",
                        linewidth=0.5,
                    )
                )
                continue
            is_held = (c, k) in held
            ax.add_patch(
                Rectangle(
                    (c - 1, row),
                    1,
                    1,
                    facecolor=color,
                    edgecolor="#333333" if is_held else "white",
                    hatch=style.HELD_HATCH if is_held else None,
                    linewidth=0.6,
                )
            )
            ax.text(
                c - 0.5,
                row + 0.5,
                stage,
                ha="center",
                va="center",
                fontsize=6.5,
                color=style.text_color_on(color),
                parse_math=False,
                bbox=dict(boxstyle="round,pad=0.08", facecolor=color, edgecolor="none")
                if is_held
                else None,
            )
    ax.set_yticks(
        [r + 0.5 for r in range(len(order))],
        [_escape(s) for s in names],
        fontsize=8,
        family=family("monospace"),
    )
    ax.set_xticks([c - 0.5 for c in range(1, n + 1)], [str(c) for c in range(1, n + 1)], fontsize=7)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title is None:
        m = sim.machine
        title = _("timeline on {name}: {n} cycles, {stall_cycles} (hatched: held)").format(
            name=m.name, n=n, stall_cycles=stall_cycles(len(sim.stalls))
        )
    if title:
        ax.set_title(title, fontsize=9, loc="left", pad=16, parse_math=False)
    return fig


@figure
def draw_processor_overview(ax=None):
    """A block diagram of a modern out-of-order, superscalar core, as the lecture describes it
    (after Bryant & O'Hallaron, CS:APP §5.7): the instruction control unit (fetch control with
    branch prediction, instruction cache, decode into micro-operations, retirement unit and
    register file) feeding the execution unit (branch, arithmetic, load and store units, data
    cache). Returns the Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    if ax is None:
        fig, ax = plt.subplots(figsize=(8.2, 5.4))
    else:
        fig = ax.figure
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 7)
    ax.axis("off")

    def region(x, y, w, h, title, color):
        ax.add_patch(
            FancyBboxPatch(
                (x, y),
                w,
                h,
                boxstyle="round,pad=0.05,rounding_size=0.15",
                facecolor=color,
                edgecolor="#555555",
                linewidth=1.2,
            )
        )
        ax.text(
            x + 0.12,
            y + h - 0.12,
            title,
            ha="left",
            va="top",
            fontsize=10,
            fontweight="bold",
            color="#333333",
        )

    def box(x, y, w, h, text, color="#ffffff", note=""):
        ax.add_patch(
            FancyBboxPatch(
                (x, y),
                w,
                h,
                boxstyle="round,pad=0.03,rounding_size=0.1",
                facecolor=color,
                edgecolor="#333333",
                linewidth=1.0,
                zorder=2,
            )
        )
        ax.text(
            x + w / 2,
            y + h / 2 + (0.1 if note else 0),
            text,
            ha="center",
            va="center",
            fontsize=8.5,
            zorder=3,
        )
        if note:
            ax.text(
                x + w / 2,
                y + h / 2 - 0.2,
                note,
                ha="center",
                va="center",
                fontsize=7,
                color=style.NOTE_COLOR,
                zorder=3,
            )
        return (x, y, w, h)

    def arrow(a, b, text="", both=False, connection="arc3,rad=0"):
        ax.add_patch(
            FancyArrowPatch(
                a,
                b,
                arrowstyle="<|-|>" if both else "-|>",
                mutation_scale=11,
                color="#333333",
                linewidth=1.0,
                connectionstyle=connection,
                zorder=1,
            )
        )
        if text and a[1] == b[1]:  # horizontal: the label goes above
            ax.text(
                (a[0] + b[0]) / 2,
                a[1] + 0.08,
                text,
                fontsize=7,
                ha="center",
                va="bottom",
                color="#444444",
                style="italic",
            )
        elif text:
            ax.text(
                (a[0] + b[0]) / 2 + 0.08,
                (a[1] + b[1]) / 2,
                text,
                fontsize=7,
                ha="left",
                va="center",
                color="#444444",
                style="italic",
            )

    icu, eu = "#e8f0fa", "#fdf0e2"
    region(0.2, 3.7, 9.6, 3.1, _("Instruction control unit (ICU)"), icu)
    region(0.2, 0.2, 9.6, 3.0, _("Execution unit (EU)"), eu)
    fetch = box(0.6, 5.3, 2.1, 0.8, _("Fetch control"), note=_("branch prediction"))
    icache = box(3.6, 5.3, 2.1, 0.8, _("Instruction cache"))
    decode = box(3.6, 3.95, 2.1, 0.8, _("Instruction decode"), note=_("→ micro-operations"))
    retire = box(6.5, 5.3, 2.5, 0.8, _("Retirement unit"), note=_("in program order"))
    regs = box(6.5, 3.95, 2.5, 0.8, _("Register file"))
    units = []
    for k, (name, note) in enumerate(
        [
            ("Branch", ""),
            ("Arithmetic", _("int add")),
            ("Arithmetic", _("int/FP mul")),
            ("Load", ""),
            ("Store", ""),
        ]
    ):
        units.append(box(0.6 + k * 1.75, 1.7, 1.5, 0.75, name, "#ffffff", note))
    dcache = box(6.15, 0.45, 2.6, 0.7, _("Data cache"))

    def top(b):
        return (b[0] + b[2] / 2, b[1] + b[3])

    def bottom(b):
        return (b[0] + b[2] / 2, b[1])

    arrow((fetch[0] + fetch[2], 5.7), (icache[0], 5.7), "address")
    arrow(bottom(icache), top(decode), "instructions")
    arrow(bottom(decode), (top(decode)[0], 2.7), _("operations (µops)"))
    ax.plot([top(units[0])[0], top(units[-1])[0]], [2.7, 2.7], color="#333333", linewidth=1.0)
    for u in units:
        ax.add_patch(
            FancyArrowPatch(
                (top(u)[0], 2.7),
                top(u),
                arrowstyle="-|>",
                mutation_scale=9,
                color="#333333",
                linewidth=0.8,
            )
        )
    arrow((top(units[0])[0] - 0.3, top(units[0])[1]), (1.35, fetch[1]), _("prediction OK?"))
    arrow((units[3][0] + 0.8, units[3][1]), (6.9, dcache[1] + dcache[3]), both=True)
    arrow((units[4][0] + 0.8, units[4][1]), (8.0, dcache[1] + dcache[3]))
    right = (units[-1][0] + units[-1][2], units[-1][1] + units[-1][3] / 2)
    ax.plot(
        [right[0], 9.45, 9.45],
        [right[1], right[1], regs[1] + regs[3] / 2],
        color="#333333",
        linewidth=1.0,
    )
    arrow((9.45, regs[1] + regs[3] / 2), (regs[0] + regs[2], regs[1] + regs[3] / 2))
    ax.text(
        9.55,
        3.1,
        _("operation results"),
        fontsize=7,
        rotation=90,
        ha="left",
        va="center",
        color="#444444",
        style="italic",
    )
    arrow(bottom(retire), top(regs), _("register updates"))
    ax.set_title(_("A modern processor: out of order and superscalar"), fontsize=10)
    return fig


__all__ = ["draw_processor_overview", "draw_stage_rows", "draw_stage_table", "draw_timeline"]
