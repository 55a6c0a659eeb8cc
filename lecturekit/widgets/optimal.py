"""Watch the exhaustive optimal search (ipywidgets, imported lazily).

:func:`optimal_search_viewer` runs :func:`lecturekit.core.optimal.optimal_search` on a block and
steps through its trace: each step is a moment of the search (the start, every new incumbent,
progress every so many nodes, the end) showing the incumbent (the best schedule found so far)
against the lower bound and the nodes explored, with the incumbent's schedule as a table.
Switches turn the bounds, the history domination and the list-schedule start on and off, to
see how many nodes each saves, and a menu picks the search engine (:func:`engines`: chapter 05's
classic branch and bound, or the OptSched-style one with stronger bounds). The widget draws the
recorded trace and re-implements nothing.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import N_, _, ngettext

#: Blocks longer than this are refused with a message (a search trace would be unreadable).
MAX_INSTRUCTIONS = 40
#: About how many progress steps a trace is thinned to.
PROGRESS_STEPS = 40
#: How the engine menu names the engines it knows (others are shown by their name).
ENGINE_LABELS = {
    "classic": N_("classic (chapter 05)"),
    "optsched": N_("OptSched-style (stronger bounds)"),
}


def engines() -> tuple[str, ...]:
    """The engines :func:`lecturekit.core.optimal.optimal_search` accepts (its ``ENGINES`` when it
    lists them; ``classic`` and ``optsched`` otherwise)."""
    from ..core import optimal

    return tuple(getattr(optimal, "ENGINES", ("classic", "optsched")))


def event_caption(event) -> str:
    """One line for a :class:`~lecturekit.core.optimal.SearchEvent`: kind, nodes, incumbent,
    bound, pruned counts."""
    best = (
        _("none yet")
        if event.incumbent is None
        else ngettext("{n} cycle", "{n} cycles", event.incumbent).format(n=event.incumbent)
    )
    gap = ""
    if event.incumbent is not None:
        gap = _(" (meets the bound)") if event.incumbent <= event.bound else ""
    text = _(
        "{kind}: {nodes} nodes explored; incumbent {best}{gap}; lower bound "
        "{bound}; cut off by bounds {pruned_bound}, by domination "
        "{pruned_dominance}"
    ).format(
        kind=_(event.kind),
        nodes=event.nodes,
        best=best,
        gap=gap,
        bound=event.bound,
        pruned_bound=event.pruned_bound,
        pruned_dominance=event.pruned_dominance,
    )
    if event.message:
        text += f". {event.message}"
    return html.escape(text)


def thin_trace(graph, *, target: int = PROGRESS_STEPS, **options):
    """Run the search twice if needed so the trace has about ``target`` progress events:
    once to count the nodes, once with ``trace_every`` set from that count."""
    from ..core.optimal import optimal_search

    sched, events = optimal_search(graph, trace_every=10**12, **options)
    nodes = sched.info["nodes"]
    if nodes > target and not sched.info["timed_out"] and nodes <= 2_000_000:
        sched, events = optimal_search(graph, trace_every=max(1, nodes // target), **options)
    return sched, events


class OptimalSearchViewer:
    """The widget :func:`optimal_search_viewer` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (:class:`~.common.Stepper` over the trace),
    ``use_bounds``, ``use_dominance``, ``use_initial`` (Checkboxes), ``child_order``
    (Dropdown: earliest placement first or program order), ``engine`` (Dropdown: the search
    engines, :func:`engines`), ``summary`` (HTML),
    ``incumbent_html`` (HTML: the incumbent's schedule), ``error`` (HTML). After a run,
    ``schedule`` and ``events`` hold the result and the trace (``None`` after bad input).
    """

    def __init__(
        self,
        program,
        machine="lecture",
        *,
        time_limit: float = 5.0,
        title=None,
        engine: str = "optsched",
    ):
        import ipywidgets as w

        from .common import Stepper, error_html, safe

        self.dg = None
        self.schedule = None
        self.events = None
        self.time_limit = time_limit
        self.summary = w.HTML("")
        self.incumbent_html = w.HTML("")
        box = {"indent": False, "layout": w.Layout(width="190px")}
        self.use_bounds = w.Checkbox(value=True, description=_("prune by bounds"), **box)
        self.use_dominance = w.Checkbox(value=True, description=_("history domination"), **box)
        self.use_initial = w.Checkbox(value=True, description=_("start from list schedule"), **box)
        self.child_order = w.Dropdown(
            options=[(_("earliest placement first"), "greedy"), (_("program order"), "program")],
            value="greedy",
            description=_("try children"),
            layout=w.Layout(width="300px"),
        )
        names = engines()
        self.engine = w.Dropdown(
            options=[(_(ENGINE_LABELS[e]) if e in ENGINE_LABELS else e, e) for e in names],
            value=engine if engine in names else names[0],
            description=_("engine"),
            layout=w.Layout(width="330px"),
        )
        self.stepper = Stepper(
            1,
            self._render,
            title=title or _("Branch and bound"),
            step_name=_("event"),
            interval=700,
        )
        self.error = self.stepper.error
        try:
            if engine not in names:
                raise LectureKitError(
                    _("engine is one of {join}; got {engine!r}").format(
                        join=", ".join(names), engine=engine
                    )
                )
            self._analyze(program, machine)
            self._run()
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        controls = (
            self.use_bounds,
            self.use_dominance,
            self.use_initial,
            self.child_order,
            self.engine,
        )
        for control in controls:
            control.observe(safe(self._on_switch, self.error), names="value")
        switches = w.HBox([self.use_bounds, self.use_dominance, self.use_initial])
        menus = w.HBox([self.child_order, self.engine])
        self.widget = w.VBox(
            [switches, menus, self.summary, self.stepper.widget, self.incumbent_html]
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
                    "the viewer searches blocks of up to {max_instructions} instructions; "
                    "this one has {n_program}"
                ).format(max_instructions=MAX_INSTRUCTIONS, n_program=len(dg.program))
            )
        self.dg = dg

    def _run(self) -> None:
        self.schedule, self.events = thin_trace(
            self.dg.graph,
            time_limit=self.time_limit,
            prune=self.use_bounds.value,
            dominance=self.use_dominance.value,
            initial=self.use_initial.value,
            child_order=self.child_order.value,
            engine=self.engine.value,
        )
        info = self.schedule.info
        proven = _("proven optimal") if info["proven_optimal"] else _("not proven (time limit)")
        self.summary.value = _(
            "<b>{length} cycles</b>, {proven}; lower bound {info}; <b>{info2} "
            "nodes</b> explored (cut off: {info3} by bounds, {info4} by "
            "domination; engine {value})"
        ).format(
            length=self.schedule.length,
            proven=proven,
            info=info["lower_bound"],
            info2=info["nodes"],
            info3=info["pruned_bound"],
            info4=info["pruned_dominance"],
            value=self.engine.value,
        )
        self.stepper.reset(len(self.events), 0)

    def _on_switch(self, _change) -> None:
        if self.dg is None:
            return
        self._run()

    def _render(self, i: int):
        if not self.events:
            return None
        from ..core import evaluate
        from ..viz.search import draw_search_progress
        from ..viz.text import schedule_table_text

        event = self.events[i]
        if event.incumbent_order:
            sched = evaluate(self.dg.graph, event.incumbent_order, algorithm="incumbent")
            table = html.escape(schedule_table_text(sched, reasons=False))
            name = _("Incumbent")
            self.incumbent_html.value = f"<b>{name}</b><pre style='line-height:1.25'>{table}</pre>"
        else:
            self.incumbent_html.value = _("<i>no incumbent yet</i>")
        fig = draw_search_progress(self.events, upto=i)
        return fig, event_caption(event)

    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def optimal_search_viewer(
    program_or_text,
    machine="lecture",
    *,
    time_limit: float = 5.0,
    title=None,
    engine: str = "optsched",
) -> OptimalSearchViewer:
    """A widget stepping through the branch-and-bound search for the optimal schedule of
    ``program_or_text`` (text, a parsed Program or a DependenceGraph) on ``machine``, with the
    search ``engine`` first selected in its menu (:func:`engines`; default the stronger
    ``optsched``, as :func:`lecturekit.core.optimal.optimal_search`; chapter 05 passes
    ``engine="classic"`` where it counts the classic search's nodes).

    Bad input is shown in the widget's error area, never raised.
    """
    return OptimalSearchViewer(
        program_or_text, machine, time_limit=time_limit, title=title, engine=engine
    )


__all__ = [
    "ENGINE_LABELS",
    "MAX_INSTRUCTIONS",
    "OptimalSearchViewer",
    "engines",
    "event_caption",
    "optimal_search_viewer",
    "thin_trace",
]
