"""Step through a pipeline simulation cycle by cycle (ipywidgets, imported lazily).

:func:`pipeline_stepper` shows the slides' stage table growing one cycle at a time, with
play / back / step / a slider (a :class:`~lecturekit.widgets.common.Stepper` over
``SimResult.snapshots``), a caption saying what happens in the cycle (who issues, who waits and
why: ``cycle 3: I2 waits in ID: RAW on $t2, written by I1 in cycle 4``), and a forwarding switch
that re-runs the simulation with ``Machine.with_options(forwarding=...)``.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _, ngettext
from .common import _with_plain_text, plain_text_note

#: Blocks longer than this are refused with a message (the table would not be readable).
MAX_INSTRUCTIONS = 40


def caption_html(sim, cycle: int) -> str:
    """The caption for ``cycle``: what happens in it, stalls in red."""
    from ..viz.text import describe_cycle

    events = describe_cycle(sim, cycle, kinds=True)
    if not events:
        quiet = _("cycle {cycle}: no instruction issues, stalls or writes; the others move on")
        events = [("", quiet.format(cycle=cycle))]
    lines = []
    for kind, e in events:
        text = html.escape(e)
        if kind in ("stall", "waits"):
            text = f'<span style="color:#b00000">{text}</span>'
        lines.append(text)
    return "<br>".join(lines)


def summary_html(sim) -> str:
    """One line: cycles, machine, stall cycles per cause."""
    m = sim.machine
    counts = ", ".join(f"{c} {n}" for c, n in sorted(sim.stall_counts().items()))
    from ..viz.text import stall_cycles

    stalls = stall_cycles(len(sim.stalls)) + (f" ({counts})" if counts else "")
    fw = _("forwarding on") if m.forwarding else _("no forwarding")
    return _(
        "<b>{cycles} cycles</b> on <code>{escape}</code> ({fw}), {n_program} instructions, {stalls}"
    ).format(
        cycles=sim.cycles,
        escape=html.escape(m.name),
        fw=fw,
        n_program=len(sim.program),
        stalls=stalls,
    )


class PipelineStepper:
    """The widget :func:`pipeline_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (the :class:`~.common.Stepper`: ``.index``,
    ``.step()``, ``.back()``, ``.caption``, ``.slider``, ``.play``), ``forwarding`` (a Checkbox),
    ``summary`` (HTML: cycles and stalls), ``error`` (HTML), ``sim`` (the current
    :class:`~lecturekit.target.pipeline.SimResult`, ``None`` if the input was bad), ``machine``.
    """

    def __init__(self, program, machine="lecture", order=None, *, title: str | None = None):
        import ipywidgets as w

        from ..target.machine import get_machine
        from .common import Stepper, safe

        self.program = program
        self.order = order
        self.sim = None
        self.summary = w.HTML("")
        self.forwarding = w.Checkbox(
            value=False, description=_("forwarding"), indent=False, layout=w.Layout(width="110px")
        )
        self.stepper = Stepper(
            1, self._render, title=title or "", step_name=_("cycle"), interval=1000
        )
        self.error = self.stepper.error
        try:
            self.base_machine = get_machine(machine)
            self.forwarding.value = self.base_machine.forwarding
            self._simulate()
        except LectureKitError as exc:
            self.base_machine = None
            from .common import error_html

            self.error.value = error_html(exc)
        self.forwarding.observe(safe(self._on_forwarding, self.error), names="value")
        self.widget = w.VBox([w.HBox([self.forwarding, self.summary]), self.stepper.widget])

    @property
    def machine(self):
        """The machine simulated now (the base machine with the forwarding switch applied)."""
        if self.base_machine is None:
            return None
        return self.base_machine.with_options(forwarding=self.forwarding.value)

    def _simulate(self) -> None:
        from ..target.pipeline import simulate
        from .common import as_program

        program = as_program(self.program)
        if len(program) == 0:
            raise LectureKitError(_("the block has no instructions: give at least one"))
        if len(program) > MAX_INSTRUCTIONS:
            raise LectureKitError(
                _(
                    "the stepper shows blocks of up to {max_instructions} instructions; "
                    "this one has {n_program}"
                ).format(max_instructions=MAX_INSTRUCTIONS, n_program=len(program))
            )
        self.program = program
        self.sim = None
        self.sim = simulate(program, self.machine, order=self.order)
        self.summary.value = summary_html(self.sim)
        self.stepper.reset(self.sim.cycles, 0)

    def _on_forwarding(self, _change) -> None:
        keep = self.stepper.index
        try:
            self._simulate()
        except LectureKitError:
            self.summary.value = ""
            raise
        self.stepper.index = min(keep, self.sim.cycles - 1)

    def _render(self, i: int):
        if self.sim is None:
            return None
        from ..viz.pipeline import draw_stage_table

        cycle = i + 1
        fig = draw_stage_table(self.sim, upto_cycle=cycle)
        return fig, caption_html(self.sim, cycle)

    def _plain_text(self) -> str:
        if self.sim is None:
            return plain_text_note(_("pipeline stepper (the input has an error)"))
        m = self.sim.machine
        return plain_text_note(
            ngettext(
                "pipeline stepper, {n_program} instruction on {name}, {cycles} cycles",
                "pipeline stepper, {n_program} instructions on {name}, {cycles} cycles",
                len(self.sim.program),
            ).format(
                n_program=len(self.sim.program),
                name=m.name,
                cycles=self.sim.cycles,
            )
        )

    # convenience for tests and scripts
    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def pipeline_stepper(program_or_text, machine="lecture", order=None, *, title=None):
    """A widget stepping through ``program_or_text`` (text or a parsed Program) on ``machine``
    (preset name, file or Machine), instructions issued in ``order`` (default: program order).

    Bad input (a parse error, an order that breaks a dependence, an unknown machine) is shown in
    the widget's error area, never raised.
    """
    return PipelineStepper(program_or_text, machine, order, title=title)


__all__ = [
    "MAX_INSTRUCTIONS",
    "PipelineStepper",
    "caption_html",
    "pipeline_stepper",
    "summary_html",
]
