"""Step through list scheduling cycle by cycle (ipywidgets, imported lazily).

:func:`list_scheduling_stepper` shows, for each cycle of
:func:`lecturekit.core.list_sched.list_schedule_trace`:

* the dependence graph at the start of the cycle, before the choice, with every node coloured by
  its state (grey: scheduled, green: ready, white: waiting) and annotated with its priority and
  its ready cycle counted from 0 (the number the slide *升级版的指令调度* writes on it, from the
  trace's ``ready_at``);
* the ready list as a table: each ready instruction, its priority and what happened to it
  (chosen and why, or blocked and why), then the instructions whose operands are still on their
  way;
* the choice and its reason in the caption ("cycle 2: issue I1 (highest height 8)");
* the pipeline table of the scheduled order growing up to the current cycle.

A menu picks the priority (the lecture's heuristics, then those beyond the lecture:
``height_descendants``, ``bottleneck``) and a box the lookahead (0: the classic non-delay
scheduler; W: an operation may be held back for a more urgent one arriving within W cycles, and
the caption says so: "held back: would block I3 (height 5), ready in cycle 5"); either re-runs
the scheduler. A table compares every heuristic, the lookahead variant and the improved
heuristic with program order, the optimum and the lower bound. The widget draws what the
trace recorded and re-implements nothing.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import N_, _

#: Blocks longer than this are refused with a message (the drawings would not be readable).
MAX_INSTRUCTIONS = 24
#: The largest lookahead the box offers (cycles).
MAX_LOOKAHEAD = 6

_SHORT = {
    "height": N_("height"),
    "successors": N_("succ"),
    "descendants": N_("desc"),
    "noninterfering": N_("succ latency"),
    "original": "",
    "height_descendants": N_("height, desc"),
    "bottleneck": N_("rheight"),
}


def _value(v) -> str:
    if isinstance(v, tuple):  # a tie-broken priority: (height, descendants), ...
        return ", ".join(_value(x) for x in v)
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def priority_note(priority: str, value) -> str:
    """The short text a node is annotated with (``height 8``, ``succ 2``; a tie-broken value
    ``height, desc 8, 3``; ``bottleneck`` shows the resource height alone: ``rheight 9``)."""
    if priority == "original":
        return ""
    if priority == "bottleneck" and isinstance(value, tuple):
        value = value[0]
    short = _SHORT.get(priority)
    name = _(short) if short else _("prio")
    return f"{name} {_value(value)}"


def ready_table_html(graph, step, texts=None) -> str:
    """The ready list of ``step`` (a :class:`~lecturekit.core.list_sched.ListStep`) as an HTML
    table: instruction, text, priority, outcome; then the waiting instructions."""
    texts = texts or [op.text for op in graph.ops]
    rows = []
    chosen = set(step.chosen)
    for i, v in step.ready:
        value = html.escape(_value(v))
        outcome = step.reasons.get(i, "")
        style = "background:#d9f2d0" if i in chosen else ""
        mark = _("issued: ") if i in chosen else _("not issued: ")
        rows.append(
            f'<tr style="{style}"><td><b>{html.escape(graph.label(i))}</b></td>'
            f"<td><code>{html.escape(texts[i])}</code></td><td>{value}</td>"
            f"<td>{html.escape(mark + outcome)}</td></tr>"
        )
    for i, at in step.waiting:
        waiting = _("waiting: operands ready in cycle {at}").format(at=at)
        rows.append(
            f'<tr style="color:#777777"><td>{html.escape(graph.label(i))}</td>'
            f"<td><code>{html.escape(texts[i])}</code></td><td></td>"
            f"<td>{waiting}</td></tr>"
        )
    if not rows:
        nothing = _("nothing ready or on its way")
        rows.append(f'<tr><td colspan="4"><i>{nothing}</i></td></tr>')
    heads = (_("instr"), _("text"), _("priority"), _("this cycle"))
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr>"
    title = _("Ready list, cycle {cycle}").format(cycle=step.cycle)
    return (
        f"<b>{title}</b>"
        '<table style="border-collapse:collapse;font-size:90%" border="1" cellpadding="3">'
        f"{head}{''.join(rows)}</table>"
    )


def comparison_rows(
    dg, *, time_limit: float = 2.0, lookahead: int = 2, current: str = "height"
) -> list[tuple[str, int, str]]:
    """``(what, cycles, order)`` for program order, every built-in priority (the lecture's, then
    those beyond it), ``current`` with ``lookahead`` (when > 0), the improved heuristic, the
    optimum and the lower bound of ``dg`` (a DependenceGraph)."""
    from ..core import evaluate
    from ..core.bounds import lower_bound
    from ..core.list_sched import (
        MORE_PRIORITIES,
        PRIORITIES,
        improved_schedule,
        list_schedule,
    )
    from ..core.optimal import optimal_schedule

    g = dg.graph
    n = len(g.ops)

    def names(order):
        return " ".join(g.label(i) for i in order)

    rows = [
        (_("program order (no scheduling)"), evaluate(g, list(range(n))).length, names(range(n)))
    ]
    for name in [*PRIORITIES, *MORE_PRIORITIES]:
        s = list_schedule(g, name)
        rows.append((_("list: {name}").format(name=name), s.length, names(s.order)))
    if lookahead:
        s = list_schedule(g, current, lookahead=lookahead)
        rows.append(
            (
                _("list: {current}+lookahead{lookahead}").format(
                    current=current, lookahead=lookahead
                ),
                s.length,
                names(s.order),
            )
        )
    s = improved_schedule(g)
    rows.append(
        (_("improved (won by {info})").format(info=s.info["from"]), s.length, names(s.order))
    )
    best = optimal_schedule(g, time_limit=time_limit)
    tag = _("optimal") if best.info["proven_optimal"] else _("best found (time limit)")
    rows.append((tag, best.length, names(best.order)))
    rows.append((_("lower bound"), lower_bound(g), ""))
    return rows


def comparison_html(
    dg, *, current: str | None = None, time_limit: float = 2.0, lookahead: int = 0
) -> str:
    """:func:`comparison_rows` as an HTML table; the row of ``current`` priority (with
    ``lookahead``, when > 0) is bold."""
    rows = []
    mine = (
        _("list: {current}+lookahead{lookahead}").format(current=current, lookahead=lookahead)
        if lookahead
        else _("list: {name}").format(name=current)
    )
    found = comparison_rows(
        dg, time_limit=time_limit, lookahead=lookahead or 2, current=current or "height"
    )
    for what, cycles, order in found:
        bold = current is not None and what == mine
        cell = (lambda s: f"<b>{s}</b>") if bold else (lambda s: s)  # noqa: E731
        rows.append(
            f"<tr><td>{cell(html.escape(what))}</td><td>{cell(cycles)}</td>"
            f"<td><code>{html.escape(order)}</code></td></tr>"
        )
    return _(
        "<b>Heuristics compared</b><table "
        'style="border-collapse:collapse;font-size:90%" border="1" '
        'cellpadding="3"><tr><th>schedule</th><th>cycles</th><th>issue '
        "order</th></tr>{join}</table>"
    ).format(join="".join(rows))


class ListSchedulingStepper:
    """The widget :func:`list_scheduling_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (the :class:`~.common.Stepper`: ``.index``,
    ``.step()``, ``.back()``, ``.caption``), ``priority`` (Dropdown), ``lookahead``
    (BoundedIntText, cycles), ``ready_html`` (HTML: the
    ready list), ``comparison`` (HTML: every heuristic's length), ``summary`` (HTML),
    ``table_output`` (Output: the pipeline table), ``error`` (HTML). After a successful run
    ``dg``, ``schedule``, ``steps`` and ``sim`` hold what is drawn; after bad input they are
    ``None``.
    """

    def __init__(
        self,
        program,
        machine="lecture",
        priority: str = "height",
        *,
        title: str | None = None,
        compare: bool = True,
        lookahead: int = 0,
    ):
        import ipywidgets as w

        from ..core.list_sched import MORE_PRIORITIES, PRIORITIES
        from .common import Stepper, error_html, range_problem, safe

        every = [*PRIORITIES, *MORE_PRIORITIES]
        self.dg = None
        self.schedule = None
        self.steps = None
        self.sim = None
        self.compare = compare
        self.summary = w.HTML("")
        self.ready_html = w.HTML("")
        self.comparison = w.HTML("")
        self.table_output = w.Output()
        self.priority = w.Dropdown(
            options=every,
            value=priority if priority in every else "height",
            description=_("priority"),
            layout=w.Layout(width="260px"),
        )
        bad_lookahead = range_problem("lookahead", lookahead, 0, MAX_LOOKAHEAD)
        self.lookahead = w.BoundedIntText(
            value=0 if bad_lookahead else lookahead,
            min=0,
            max=MAX_LOOKAHEAD,
            description=_("lookahead"),
            layout=w.Layout(width="160px"),
        )
        self.stepper = Stepper(
            1,
            self._render,
            title=title or _("List scheduling"),
            step_name=_("cycle"),
            interval=1200,
        )
        self.error = self.stepper.error
        try:
            if not isinstance(priority, str) or priority not in every:
                raise LectureKitError(
                    _("unknown priority {priority!r}; choose one of {join}").format(
                        priority=priority, join=", ".join(every)
                    )
                )
            if bad_lookahead:
                raise LectureKitError(bad_lookahead)
            self._analyze(program, machine)
            self._run()
            if compare:
                self._compare()
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        self.priority.observe(safe(self._on_priority, self.error), names="value")
        self.lookahead.observe(safe(self._on_priority, self.error), names="value")
        side = w.VBox([self.ready_html, self.table_output], layout=w.Layout(min_width="320px"))
        self.widget = w.VBox(
            [
                w.HBox([self.priority, self.lookahead, self.summary]),
                w.HBox([self.stepper.widget, side]),
                self.comparison,
            ]
        )

    def _analyze(self, program, machine) -> None:
        from ..target.deps import DependenceGraph, analyze
        from .common import as_program

        if isinstance(program, DependenceGraph):
            dg = program
        else:
            dg = analyze(as_program(program), machine)
        if len(dg.program) == 0:
            raise LectureKitError(_("the block has no instructions: give at least one"))
        if len(dg.program) > MAX_INSTRUCTIONS:
            raise LectureKitError(
                _(
                    "the stepper shows blocks of up to {max_instructions} instructions; "
                    "this one has {n_program}"
                ).format(max_instructions=MAX_INSTRUCTIONS, n_program=len(dg.program))
            )
        self.dg = dg

    def _run(self) -> None:
        from ..core.list_sched import list_schedule_trace
        from ..target.pipeline import simulate

        self.schedule, self.steps = list_schedule_trace(
            self.dg.graph, self.priority.value, lookahead=self.lookahead.value
        )
        self.sim = simulate(self.dg.program, self.dg.machine, self.schedule.order)
        s = self.schedule
        bound = s.info["lower_bound"]
        status = (
            _("meets the lower bound: optimal")
            if s.length <= bound
            else _("lower bound {bound}").format(bound=bound)
        )
        ahead = _(", lookahead {n}").format(n=self.lookahead.value) if self.lookahead.value else ""
        self.summary.value = _(
            "<b>{length} cycles</b> with priority <code>{escape}</code>{ahead} on "
            "<code>{escape2}</code> ({status})"
        ).format(
            length=s.length,
            escape=html.escape(self.priority.value),
            ahead=ahead,
            escape2=html.escape(self.dg.machine.name),
            status=status,
        )
        self.stepper.reset(len(self.steps), 0)

    def _on_priority(self, _change) -> None:
        if self.dg is None:
            return
        keep = self.stepper.index
        self._run()
        if self.compare:
            self._compare()
        self.stepper.index = min(keep, len(self.steps) - 1)

    def _compare(self) -> None:
        self.comparison.value = comparison_html(
            self.dg, current=self.priority.value, lookahead=self.lookahead.value
        )

    def _render(self, i: int):
        if self.steps is None:
            return None
        from ..core.list_sched import HELD_BACK
        from ..viz.graph import draw_dependence_graph
        from ..viz.pipeline import draw_stage_table
        from .common import show_figure

        step = self.steps[i]
        g = self.dg.graph
        prio = self.schedule.info["priorities"]
        name = self.schedule.info["priority"]
        # the slide's node number: the ready cycle (from 0) the placements so far allow
        before = self.steps[i - 1].ready_at if i > 0 else {}
        notes = {}
        for j in range(len(g.ops)):
            ready = before.get(j, g.earliest) - g.earliest
            note = priority_note(name, prio[j])
            ready_at = _("ready {cycle}").format(cycle=ready)
            notes[j] = f"{note} · {ready_at}" if note else ready_at
        self.ready_html.value = ready_table_html(g, step)
        upto = max(1, min(step.cycle, self.sim.cycles))
        show_figure(self.table_output, draw_stage_table(self.sim, upto_cycle=upto))
        fig = draw_dependence_graph(
            self.dg,
            annotate=notes or None,
            states=step.states(len(g.ops), after=False),
            title=_(
                "cycle {cycle}, before the choice: grey scheduled, green ready, white waiting"
            ).format(cycle=step.cycle),
        )
        caption = html.escape(step.message)
        if step.held:  # lookahead: say which operation waited, and for what
            words = html.escape(_(HELD_BACK))
            caption = caption.replace(words, f'<b style="color:#8a5a00">{words}</b>')
        if not step.chosen:
            caption = f'<span style="color:#b00000">{caption}</span>'
        return fig, caption

    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def list_scheduling_stepper(
    program_or_text,
    machine="lecture",
    priority: str = "height",
    *,
    title=None,
    compare=True,
    lookahead: int = 0,
) -> ListSchedulingStepper:
    """A widget stepping through list scheduling of ``program_or_text`` (text, a parsed Program
    or a DependenceGraph) on ``machine`` with ``priority`` (any name of ``PRIORITIES`` or
    ``MORE_PRIORITIES``) and ``lookahead`` (cycles, 0 to ``MAX_LOOKAHEAD``; default 0, the
    classic non-delay scheduler). ``compare``: also show the table of every heuristic's length
    (it runs the optimal search once, with a 2-second limit, and the improved heuristic).

    Bad input (a parse error, an unknown machine or priority, a lookahead out of range) is shown
    in the widget's error area, never raised.
    """
    return ListSchedulingStepper(
        program_or_text, machine, priority, title=title, compare=compare, lookahead=lookahead
    )


__all__ = [
    "MAX_INSTRUCTIONS",
    "MAX_LOOKAHEAD",
    "ListSchedulingStepper",
    "comparison_html",
    "comparison_rows",
    "list_scheduling_stepper",
    "priority_note",
    "ready_table_html",
]
