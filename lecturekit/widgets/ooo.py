"""Step through the out-of-order core cycle by cycle (ipywidgets, imported lazily).

:func:`ooo_stepper` shows, for every cycle, the timeline so far (:func:`lecturekit.viz.ooo.
plot_ooo_timeline`) and, under it, the reservation stations with the results each instruction
still waits for, what executes, the reorder buffer and the register status (renaming), from
:meth:`lecturekit.target.ooo.OooResult.state`. Menus change the number of reservation stations,
the dispatch width and renaming, and the block is run again; the summary line puts the cycles
beside the in-order pipeline's.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _
from .common import _with_plain_text, plain_text_note

#: Blocks longer than this are refused with a message (the table would not be readable).
MAX_INSTRUCTIONS = 24
#: the window sizes the menu offers (None: unlimited)
WINDOWS = (1, 2, 3, 4, 6, 8, 16, None)


def _window_label(w) -> str:
    return "∞" if w is None else str(w)


class OooStepper:
    """The widget :func:`ooo_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (a :class:`~.common.Stepper` over cycles),
    ``window``, ``width`` (Dropdowns), ``rename`` (Checkbox), ``summary``, ``state`` (HTML: the
    core in the current cycle), ``error``, ``result`` (the current
    :class:`~lecturekit.target.ooo.OooResult`, ``None`` after bad input)."""

    def __init__(
        self,
        program,
        machine="lecture",
        *,
        window=4,
        width=None,
        rename=True,
        order=None,
        title: str | None = None,
    ):
        import ipywidgets as w

        from .common import Stepper, error_html, safe

        self.program = program
        self.machine = machine
        self.order = order
        self.result = None
        self.in_order = None
        self.summary = w.HTML("")
        self.state = w.HTML("")
        self.window = w.Dropdown(
            options=[(_window_label(x), x) for x in WINDOWS],
            value=window if window in WINDOWS else 4,
            description=_("stations"),
            layout=w.Layout(width="160px"),
        )
        self.width = w.Dropdown(
            options=[("1", 1), ("2", 2), ("4", 4)],
            value=width if width in (1, 2, 4) else 1,
            description=_("width"),
            layout=w.Layout(width="140px"),
        )
        self.rename = w.Checkbox(
            value=rename, description=_("renaming"), indent=False, layout=w.Layout(width="110px")
        )
        self.stepper = Stepper(
            1, self._render, title=title or "", step_name=_("cycle"), interval=900
        )
        self.error = self.stepper.error
        try:
            if width is None:
                from ..target.machine import get_machine

                issue = get_machine(machine).issue_width
                self.width.value = issue if issue in (1, 2, 4) else 1
            self._simulate()
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        for control in (self.window, self.width, self.rename):
            control.observe(safe(self._on_change, self.error), names="value")
        self.widget = w.VBox(
            [
                w.HBox([self.window, self.width, self.rename]),
                self.summary,
                self.stepper.widget,
                self.state,
            ]
        )

    def _simulate(self) -> None:
        from ..target.ooo import simulate_ooo
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
        self.result = None
        self.result = simulate_ooo(
            program,
            self.machine,
            window=self.window.value,
            width=self.width.value,
            rename=self.rename.value,
            order=self.order,
        )
        self.in_order = simulate(program, self.machine, order=self.order).cycles
        r = self.result
        self.summary.value = _(
            "<b>{cycles} cycles</b> out of order (last commit in cycle {retired}) on "
            "<code>{machine}</code>, {stations} stations, width {width}; in order: {in_order} "
            "cycles"
        ).format(
            cycles=r.cycles,
            retired=r.retired,
            machine=html.escape(r.machine.name),
            stations=_window_label(r.window),
            width=r.width,
            in_order=self.in_order,
        )
        self.stepper.reset(r.retired - min(r.dispatch) + 1, 0)

    def _on_change(self, _change) -> None:
        keep = self.stepper.index
        try:
            self._simulate()
        except LectureKitError:
            self.summary.value = ""
            self.state.value = ""
            raise
        self.stepper.index = min(keep, self.stepper.n_steps - 1)

    def _render(self, i: int):
        if self.result is None:
            return None
        from ..viz.ooo import plot_ooo_timeline, state_text

        cycle = min(self.result.dispatch) + i
        ax = plot_ooo_timeline(self.result, upto=cycle)
        self.state.value = (
            "<pre style='line-height:1.25;font-size:12px'>"
            + html.escape(state_text(self.result, cycle))
            + "</pre>"
        )
        s = self.result.state(cycle)
        parts = []
        if s["dispatched"]:
            parts.append(
                _("dispatch {names}").format(names=", ".join(f"I{k + 1}" for k in s["dispatched"]))
            )
        started = [k for k in range(len(self.result.program)) if self.result.issue[k] == cycle]
        if started:
            parts.append(_("start {names}").format(names=", ".join(f"I{k + 1}" for k in started)))
        if s["committed"]:
            parts.append(
                _("commit {names}").format(names=", ".join(f"I{k + 1}" for k in s["committed"]))
            )
        caption = _("cycle {cycle}: {events}").format(
            cycle=cycle, events="; ".join(parts) or _("waiting")
        )
        return ax.figure, html.escape(caption)

    def _plain_text(self) -> str:
        if self.result is None:
            return plain_text_note(_("out-of-order stepper (the input has an error)"))
        return plain_text_note(
            _("out-of-order stepper, {n} instructions, {cycles} cycles").format(
                n=len(self.result.program), cycles=self.result.cycles
            )
        )

    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def ooo_stepper(
    program_or_text, machine="lecture", *, window=4, width=None, rename=True, order=None, title=None
):
    """A widget stepping through ``program_or_text`` on an out-of-order ``machine``. Bad input
    is shown in the widget's error area, never raised."""
    return OooStepper(
        program_or_text,
        machine,
        window=window,
        width=width,
        rename=rename,
        order=order,
        title=title,
    )


__all__ = ["MAX_INSTRUCTIONS", "OooStepper", "WINDOWS", "ooo_stepper"]
