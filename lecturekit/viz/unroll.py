"""One pass through an unrolled loop, cycle by cycle: which copy issues, who waits and why.

An :class:`~lecturekit.loops.unroll.Unrolled` loop already knows its timing: ``steady`` holds the
issue cycle of every instruction of six passes run back to back on in-order hardware
(:func:`lecturekit.core.evaluate` on :func:`lecturekit.loops.model.expand`), and its first pass
is ``schedule``. :func:`unrolled_pass` evaluates the same passes once more (for the graph of all
passes and its start cycles), checks that the cycles agree with ``steady``, and picks one pass
whose length is the steady-state cycles per pass (the first pass, unless it is shorter than the
others because nothing from an earlier pass holds it up). The rest reads that :class:`PassView`:

* :func:`cycle_state` -- in cycle ``c``: what issues, what issued before, and for every
  instruction still to come why it cannot issue in ``c`` if nothing does, else in ``c + 1`` (an
  operand not ready yet, an earlier instruction still waiting: the machine issues in order, a
  busy unit, a full issue slot);
* :func:`describe_pass_cycle` -- that as sentences (the stepper's caption);
* :func:`pass_table_text` -- every cycle of the pass as a text table (for a page without widgets);
* :func:`draw_unrolled_pass` -- copies × cycles: each instruction a box at its issue cycle in the
  row of its copy ``j``, coloured and named after the original instruction, so the copies'
  interleaving is visible; the pointer updates and the branch (once per pass) in a row of their
  own; the cycles in which nothing issues shaded; the current cycle marked.

Nothing here schedules: cycles come from the evaluator; the explanations only compare them with
the dependence edges and the units' reservations. matplotlib is imported inside the functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ScheduleError
from ..language import _, display_width, ljust, ngettext, ordinal, rjust
from .fonts import figure
from .style import GRID_COLOR, NOTE_COLOR, instruction_color, lighten, text_color_on

#: background of the current cycle, and of cycles in which nothing issues
NOW_COLOR = "#fff3c4"
IDLE_COLOR = "#fbe3e3"

__all__ = [
    "CycleState",
    "PassLine",
    "PassView",
    "cycle_state",
    "describe_pass_cycle",
    "draw_unrolled_pass",
    "pass_table_text",
    "unrolled_pass",
]


@dataclass(frozen=True)
class PassLine:
    """Line ``index`` of the scheduled unrolled body: its ``text``, the ``original`` instruction
    it comes from (0-based body index), and its ``role``: ``"copy"`` (part of copy ``copy`` of
    the original body), ``"update"`` (a pointer update, merged: once per pass) or ``"branch"``."""

    index: int
    text: str
    original: int
    copy: int
    role: str


@dataclass
class PassView:
    """One pass of ``unrolled`` in the steady state.

    ``start[o]``: issue cycle of operation ``o = r * n + i`` (line ``i`` of pass ``r``, ``n`` lines
    per pass) in the evaluation of ``len(steady.issue)`` passes (``graph``: those passes, from
    :func:`~lecturekit.loops.model.expand`; ``preds``: its edges by target); ``shown``: the pass
    shown (0-based), whose first pass takes ``first_pass_length`` cycles;
    ``first``/``end``: the cycle its first instruction issues and the cycle the next pass's first
    instruction issues (``end - first`` cycles per pass); ``cycles``: ``first .. end``, one step
    each; ``window``: the operations issuing in those cycles (the pass, and the neighbours' that
    share its first or last cycle on a multi-issue machine)."""

    unrolled: object
    graph: object
    start: list[int]
    n: int
    shown: int
    first: int
    end: int
    lines: list[PassLine]
    first_pass_length: int
    preds: dict[int, list] = field(default_factory=dict)

    @property
    def k(self) -> int:
        return self.unrolled.k

    @property
    def length(self) -> int:
        """Cycles of the pass shown: from its first issue to the next pass's first issue."""
        return self.end - self.first

    @property
    def cycles(self) -> list[int]:
        return list(range(self.first, self.end + 1))

    @property
    def window(self) -> list[int]:
        return [o for o, t in enumerate(self.start) if self.first <= t <= self.end]

    def line(self, o: int) -> PassLine:
        return self.lines[o % self.n]

    def text(self, o: int) -> str:
        return " ".join(self.line(o).text.split())

    def where(self, o: int) -> str:
        """``copy 1 of I2``; ``I6, pointer update (once per pass)``; ``, next pass`` if not in
        the pass shown."""
        ln = self.line(o)
        name = f"I{ln.original + 1}"
        if ln.role == "branch":
            out = _("{name}, the branch").format(name=name)
        elif ln.role == "update":
            out = _("{name}, pointer update").format(name=name)
        elif self.k == 1:
            out = name
        else:
            out = _("copy {copy} of {name}").format(copy=ln.copy, name=name)
        r = o // self.n
        if r < self.shown:
            out += _(", previous pass")
        elif r > self.shown:
            out += _(", next pass")
        return out

    def issued_in(self, cycle: int) -> list[int]:
        return [o for o in self.window if self.start[o] == cycle]


def _lines(unrolled) -> list[PassLine]:
    loop = unrolled.original
    updates = {iv.position for iv in loop.inductions.values()}
    out = []
    for i, ins in enumerate(unrolled.loop.body):
        copy, p = unrolled.origin[i]
        role = "branch" if p == loop.branch else "update" if p in updates else "copy"
        out.append(PassLine(i, ins.text or str(ins), p, copy, role))
    return out


def unrolled_pass(unrolled) -> PassView:
    """The :class:`PassView` of an :class:`~lecturekit.loops.unroll.Unrolled` (see the module
    docstring). Raises :class:`~lecturekit.errors.ScheduleError` if the evaluation does not
    reproduce ``unrolled.steady`` (it always should)."""
    from ..core.evaluate import evaluate
    from ..loops.model import expand

    steady = unrolled.steady
    passes = len(steady.issue)
    n = len(unrolled.loop)
    graph = expand(unrolled.loop, passes, renamed=False)
    sched = evaluate(graph, list(range(len(graph.ops))))
    issue = [sched.start[r * n : (r + 1) * n] for r in range(passes)]
    if issue != [list(row) for row in steady.issue]:
        raise ScheduleError(_("the evaluation of the unrolled loop does not reproduce its timing"))
    lengths = [issue[r + 1][0] - issue[r][0] for r in range(passes - 1)]
    shown = next((r for r, d in enumerate(lengths) if d == steady.period), passes // 2 - 1)
    preds: dict[int, list] = {o: [] for o in range(len(graph.ops))}
    for e in graph.edges:
        preds[e.dst].append(e)
    return PassView(
        unrolled=unrolled,
        graph=graph,
        start=list(sched.start),
        n=n,
        shown=shown,
        first=issue[shown][0],
        end=issue[shown + 1][0],
        lines=_lines(unrolled),
        first_pass_length=lengths[0],
        preds=preds,
    )


# -- what happens in a cycle ---------------------------------------------------------------------
@dataclass
class CycleState:
    """Cycle ``cycle`` of a :class:`PassView`: the operations that ``issued`` in it and those
    ``done`` before it. ``asked`` is the cycle the waiting ones are asked about: ``cycle`` itself
    when nothing issues in it (why not now?), else the next cycle (why not next?). ``waiting``:
    the operations that issue after ``cycle``, each with why it cannot issue in ``asked`` (empty:
    it issues then); ``head`` is the first of them (the machine issues in order)."""

    cycle: int
    asked: int
    issued: list[int]
    done: list[int]
    waiting: list[tuple[int, list[str]]]
    head: int | None


def _operand(on: str) -> str:
    return f"${on}" if on and not on.startswith("mem") and on != "branch" else on


def _why_not(view: PassView, o: int, cycle: int) -> list[str]:
    """Why operation ``o`` cannot issue in ``cycle``, given everything that issued up to
    ``cycle``; empty if it does issue then."""
    start = view.start
    if start[o] <= cycle:
        return []
    reasons = []
    for e in view.preds[o]:
        s = start[e.src]
        ready = s + e.latency
        if ready <= cycle or (s > cycle and e.kind != "RAW"):
            continue  # satisfied, or covered by "in order" below
        who = f"`{view.text(e.src)}` ({view.where(e.src)})"
        if e.kind == "RAW" and s > cycle:
            reasons.append(
                _("needs {operand} from {who}, not issued yet").format(
                    operand=_operand(e.on), who=who
                )
            )
        elif e.kind == "RAW":
            reasons.append(
                _("needs {operand} from {who}, ready in cycle {ready}").format(
                    operand=_operand(e.on), who=who, ready=ready
                )
            )
        else:
            reasons.append(
                _("{kind} on {operand} after {who}: not before cycle {ready}").format(
                    kind=e.kind, operand=_operand(e.on), who=who, ready=ready
                )
            )
    head = next((q for q in range(o) if start[q] > cycle), None)
    if head is not None:
        reasons.append(
            _("in order, behind `{text}` ({where})").format(
                text=view.text(head), where=view.where(head)
            )
        )
    if reasons:
        return reasons
    graph = view.graph
    earlier = [q for q in range(o) if start[q] <= cycle]
    for res in graph.ops[o].reservations:
        for t in range(cycle + res.offset, cycle + res.offset + res.cycles):
            holders = [
                q
                for q in earlier
                for h in graph.ops[q].reservations
                if h.unit == res.unit and start[q] + h.offset <= t < start[q] + h.offset + h.cycles
            ]
            if len(holders) >= graph.units[res.unit]:
                who = ", ".join(f"`{view.text(q)}` ({view.where(q)})" for q in holders)
                reasons.append(
                    _("needs the {unit} in cycle {t}, held by {who}").format(
                        unit=res.unit, t=t, who=who
                    )
                )
                break
    width = graph.issue_width
    if width is not None and sum(1 for q in earlier if start[q] == cycle) >= width:
        reasons.append(
            _("the issue slot of this cycle is taken")
            if width == 1
            else _("all {width} issue slots of this cycle are taken").format(width=width)
        )
    return reasons or [_("(no reason found)")]


def cycle_state(view: PassView, cycle: int) -> CycleState:
    """What happens in ``cycle`` (one of ``view.cycles``)."""
    if not view.first <= cycle <= view.end:
        raise ScheduleError(
            _("cycle {cycle} is outside the pass ({first}..{end})").format(
                cycle=cycle, first=view.first, end=view.end
            )
        )
    window = view.window
    issued = [o for o in window if view.start[o] == cycle]
    done = [o for o in window if view.start[o] < cycle]
    later = [o for o in window if view.start[o] > cycle]
    asked = cycle + 1 if issued else cycle
    waiting = [(o, _why_not(view, o, asked)) for o in later]
    return CycleState(cycle, asked, issued, done, waiting, later[0] if later else None)


def describe_pass_cycle(view: PassView, cycle: int) -> list[str]:
    """Sentences for ``cycle``: what issues, what the next instruction waits for, and at the
    end of the pass how its cycles add up."""
    st = cycle_state(view, cycle)
    pos = cycle - view.first + 1
    if cycle == view.end:
        head = _("cycle {cycle} (the 1st of the next pass)").format(cycle=cycle)
    else:
        head = _("cycle {cycle} ({ordinal} of the pass)").format(cycle=cycle, ordinal=ordinal(pos))
    if st.issued:
        what = _(" and ").join(f"`{view.text(o)}` ({view.where(o)})" for o in st.issued)
        out = [_("{head}: issues {what}").format(head=head, what=what)]
    else:
        out = [_("{head}: nothing issues").format(head=head)]
    if cycle == view.end:
        u = view.unrolled
        out.append(
            ngettext(
                "the next pass begins: one pass takes {cycle} - {first} = {length} "
                "cycles for {k} original iteration: {per} cycles per iteration",
                "the next pass begins: one pass takes {cycle} - {first} = {length} "
                "cycles for {k} original iterations: {per} cycles per iteration",
                u.k,
            ).format(
                cycle=cycle,
                first=view.first,
                length=view.length,
                k=u.k,
                per=_num(view.length / u.k),
            )
        )
    elif st.head is not None:
        out.append(_head_sentence(view, st))
    return out


def _head_sentence(view: PassView, st: CycleState) -> str:
    reasons = dict(st.waiting)[st.head]
    who = f"`{view.text(st.head)}` ({view.where(st.head)})"
    if not reasons:
        return _("next: {who}, in cycle {asked}").format(who=who, asked=st.asked)
    return _("waiting: {who}: {reasons}; it issues in cycle {start}").format(
        who=who, reasons="; ".join(reasons), start=view.start[st.head]
    )


def _num(x: float) -> str:
    return f"{x:g}"


def pass_table_text(view: PassView) -> str:
    """Every cycle of the pass shown: what issues (copy and original instruction), and what the
    next instruction in order waits for."""
    rows = [(_("cycle"), _("issues"), _("next in order waits for"))]
    for c in view.cycles:
        st = cycle_state(view, c)
        issued = "; ".join(f"{view.text(o)}  ({view.where(o)})" for o in st.issued) or "-"
        why = ""
        if st.head is not None and c < view.end and dict(st.waiting)[st.head]:
            why = f"{view.text(st.head)}: {'; '.join(dict(st.waiting)[st.head])}"
        rows.append((str(c), issued, why.replace("`", "")))
    w0 = max(display_width(r[0]) for r in rows)
    w1 = max(display_width(r[1]) for r in rows)
    lines = [f"{rjust(a, w0)}  {ljust(b, w1)}  {c}".rstrip() for a, b, c in rows]
    u = view.unrolled
    lines.append(
        _(
            "{length} cycles per pass (cycle {first} to {end}) / k = {k}: {num} "
            "cycles per original iteration"
        ).format(
            length=view.length, first=view.first, end=view.end, k=u.k, num=_num(view.length / u.k)
        )
    )
    return "\n".join(lines)


# -- drawing -----------------------------------------------------------------------------------
def _rows(view: PassView) -> list[str]:
    k = view.k
    names = [_("iteration")] if k == 1 else [_("copy {j}").format(j=j) for j in range(k)]
    names.append(_("once per pass"))
    others = {(o // view.n > view.shown) for o in view.window if o // view.n != view.shown}
    if others:
        names.append({frozenset({True}): "next pass", frozenset({False}): "previous pass"}.get(
            frozenset(others), "other passes"))  # fmt: skip
    return names


def _row_of(view: PassView, o: int, rows: list[str]) -> int:
    if o // view.n != view.shown:
        return len(rows) - 1
    ln = view.line(o)
    return ln.copy if ln.role == "copy" else view.k


@figure
def draw_unrolled_pass(view: PassView, upto_cycle: int | None = None, ax=None, *, title=None):
    """Copies × cycles of the pass (see the module docstring). With ``upto_cycle`` the
    instructions issuing later are drawn pale and that cycle is marked; without it the whole
    pass is drawn."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    rows = _rows(view)
    cycles = view.cycles
    lo, hi = cycles[0], cycles[-1]
    if ax is None:
        width = max(6.5, min(11.0, 2.2 + 0.24 * len(cycles)))
        _fig, ax = plt.subplots(figsize=(width, 0.42 * len(rows) + 1.7), dpi=90)
    now = upto_cycle if upto_cycle is not None else hi
    y_of = {r: len(rows) - 1 - r for r in range(len(rows))}
    for c in cycles:
        if c <= now and not view.issued_in(c):
            ax.add_patch(Rectangle((c, -0.1), 1, len(rows) + 0.2, facecolor=IDLE_COLOR,
                                   edgecolor="none", zorder=0))  # fmt: skip
    if upto_cycle is not None:
        ax.add_patch(Rectangle((upto_cycle, -0.1), 1, len(rows) + 0.2, facecolor=NOW_COLOR,
                               edgecolor="#c9a400", lw=1.2, zorder=0.5))  # fmt: skip
    cells: dict[tuple[int, int], list[int]] = {}
    for o in view.window:
        cells.setdefault((_row_of(view, o, rows), view.start[o]), []).append(o)
    small = len(cycles) > 45
    for (r, c), ops in cells.items():
        h = 0.7 / len(ops)
        for m, o in enumerate(ops):
            color = instruction_color(view.line(o).original)
            future = c > now
            other = o // view.n != view.shown
            face = lighten(color, 0.8 if future else 0.45 if other else 0.0)
            y = y_of[r] + 0.85 - (m + 1) * h  # the first in program order on top
            ax.add_patch(Rectangle((c, y), 1, h, facecolor=face, edgecolor="white", lw=0.8,
                                   hatch="///" if other else None, zorder=1))  # fmt: skip
            ax.text(c + 0.5, y + h / 2, f"I{view.line(o).original + 1}", ha="center",
                    va="center", fontsize=5 if small or len(ops) > 1 else 7, zorder=2,
                    color="#9a9a9a" if future else text_color_on(face))  # fmt: skip
    # the pass: first issue to the next pass's first issue
    top = len(rows) + 0.15
    ax.annotate("", xy=(hi + 0.5, top), xytext=(lo + 0.5, top),
                arrowprops={"arrowstyle": "<->", "color": NOTE_COLOR, "lw": 1})  # fmt: skip
    u = view.unrolled
    ax.text((lo + hi + 1) / 2, top + 0.08,
            _("one pass: {length} cycles = {k} × {per} cycles per iteration").format(
                length=view.length, k=u.k, per=_num(view.length / u.k)
            ),
            ha="center", va="bottom", fontsize=8, color=NOTE_COLOR)  # fmt: skip
    ax.set_xlim(lo - 0.2, hi + 1.2)
    ax.set_ylim(-0.2, len(rows) + 0.75)
    ax.set_yticks([y_of[r] + 0.5 for r in range(len(rows))])
    ax.set_yticklabels(rows, fontsize=8)
    step = 1 if len(cycles) <= 30 else 5
    ticks = [c for c in cycles if (c - lo) % step == 0]
    ax.set_xticks([c + 0.5 for c in ticks])
    ax.set_xticklabels([str(c) for c in ticks], fontsize=7)
    ax.grid(axis="x", color=GRID_COLOR, alpha=0.2)
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    legend = "   ".join(f"I{p + 1} {ins.opcode}" for p, ins in enumerate(u.original.body))
    ax.set_xlabel(
        _("cycle (issue)\n{legend}    (red: a cycle in which nothing issues)").format(
            legend=legend
        ),
        fontsize=7,
    )
    if title is None:
        title = _("Unrolled ×{k} on {name}: one pass, copies interleaved").format(
            k=u.k, name=u.original.machine.name
        )
        if upto_cycle is not None:
            title += _(" (cycle {cycle})").format(cycle=upto_cycle)
    ax.set_title(title, fontsize=9, loc="left", pad=14)
    ax.figure.tight_layout()
    return ax.figure
