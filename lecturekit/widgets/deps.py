"""Build a dependence graph one instruction at a time (ipywidgets, imported lazily).

:func:`dependence_stepper` walks through a block as the dependence analysis reads it: step ``k``
adds instruction ``I(k+1)`` and the edges that point into it (every dependence goes from an
earlier instruction to a later one, so when ``I(k+1)`` arrives its incoming edges are all it
adds). The figure is the graph of the first ``k+1`` instructions, the new one marked and the
critical path so far in red; the caption names each new edge (kind, register or memory word,
latency) and how the critical path grew.

The graph at step ``k`` is :func:`lecturekit.target.deps.analyze` of the first ``k+1`` instructions:
the widget runs the analysis, it does not re-implement it.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _
from .common import _with_plain_text, plain_text_note

#: Blocks longer than this are refused with a message (the drawing would not be readable).
MAX_INSTRUCTIONS = 24


def prefix_graphs(program, machine) -> list:
    """The dependence graph of the first ``k+1`` instructions, for each ``k``."""
    from ..asm import Program
    from ..target.deps import analyze

    instructions = list(program)
    return [analyze(Program(instructions[: k + 1]), machine) for k in range(len(instructions))]


def new_edges(dg, k: int) -> list:
    """The edges instruction ``k`` adds when it arrives: those pointing into it."""
    return [e for e in dg.edges if e.dst == k]


def step_caption(dg, k: int, previous_length: int) -> str:
    """What arriving instruction ``k`` adds: its edges, one per line, and the critical path."""
    from ..viz.text import label, register_name

    ins = dg.instructions[k]
    head = f"<b>{label(k)}</b> <code>{html.escape(ins.text)}</code>"
    edges = new_edges(dg, k)
    if edges:
        lines = []
        for e in edges:
            on = (
                register_name(dg.program, e.dst, e.on)
                if e.kind in ("RAW", "WAR", "WAW")
                else _(e.on)
            )
            lines.append(
                _("{label} → {label2}: {kind} on <code>{escape}</code>, latency {latency}").format(
                    label=label(e.src),
                    label2=label(e.dst),
                    kind=e.kind,
                    escape=html.escape(on),
                    latency=e.latency,
                )
            )
        what = "<br>".join(lines)
    else:
        what = _("no dependence on an earlier instruction: nothing before it makes it wait")
    path, length = dg.critical_path()
    chain = " → ".join(label(v) for v in path)
    grew = (
        _("grew from {previous_length} to {length} cycles").format(
            previous_length=previous_length, length=length
        )
        if length > previous_length
        else _("stays {length} cycles").format(length=length)
    )
    return _("{head}<br>{what}<br>critical path {chain}: {grew}").format(
        head=head, what=what, chain=chain, grew=grew
    )


class DependenceStepper:
    """The widget :func:`dependence_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (the :class:`~.common.Stepper`: ``.index``,
    ``.step()``, ``.back()``, ``.caption``), ``error`` (HTML, red, empty when the block is
    fine), ``graphs`` (the dependence graph of each prefix; empty after bad input).
    """

    def __init__(self, program, machine="lecture", *, title: str | None = None):
        import ipywidgets as w

        from ..target.machine import get_machine
        from .common import Stepper, as_program, error_html

        self.error = w.HTML("")
        self.graphs: list = []
        try:
            program = as_program(program)
            if len(program) == 0:
                raise LectureKitError(_("the block is empty: give at least one instruction"))
            if len(program) > MAX_INSTRUCTIONS:
                raise LectureKitError(
                    _(
                        "the block has {n_program} instructions; this stepper draws at most "
                        "{max_instructions}"
                    ).format(n_program=len(program), max_instructions=MAX_INSTRUCTIONS)
                )
            self.graphs = prefix_graphs(program, get_machine(machine))
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        self.stepper = Stepper(
            max(1, len(self.graphs)),
            self._render,
            title or _("Building the dependence graph, one instruction at a time"),
            step_name=_("instruction"),
        )
        self.widget = w.VBox([self.error, self.stepper.widget])

    def _render(self, k: int):
        from ..viz.graph import draw_dependence_graph

        if not self.graphs:
            return _("(nothing to show: see the error above)")
        dg = self.graphs[k]
        previous = self.graphs[k - 1].critical_path()[1] if k else 0
        kinds: dict[int, list[str]] = {}
        for e in new_edges(dg, k):
            kinds.setdefault(e.src, []).append(e.kind)
        annotate = {src: "→ " + ", ".join(ks) for src, ks in kinds.items()}
        annotate[k] = "new"
        fig = draw_dependence_graph(
            dg,
            reduce=False,
            annotate=annotate,
            legend=False,
            title=_("first {value} instructions").format(value=k + 1),
        )
        fig.set_size_inches(5.5, 3.6)
        return fig, step_caption(dg, k, previous)

    # convenience for tests and scripts
    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        text = plain_text_note(
            _("dependence stepper, {n_graphs} instructions").format(n_graphs=len(self.graphs))
        )
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), text)


def dependence_stepper(program_or_text, machine="lecture", *, title=None) -> DependenceStepper:
    """A widget that builds the dependence graph of ``program_or_text`` (text in either notation,
    or a parsed Program) on ``machine`` one instruction at a time.

    Bad input (a parse error, an unknown machine, an empty or too long block) is shown in the
    widget's error area, never raised.
    """
    return DependenceStepper(program_or_text, machine, title=title)


__all__ = [
    "MAX_INSTRUCTIONS",
    "DependenceStepper",
    "dependence_stepper",
    "new_edges",
    "prefix_graphs",
    "step_caption",
]
