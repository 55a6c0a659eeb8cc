"""Software-pipelining explorers (ipywidgets, imported lazily).

* :func:`modulo_stepper` -- step through iterative modulo scheduling: each placement of an
  instruction into the modulo reservation table, the evictions it causes, the II increments when
  the budget runs out (the trace of :func:`lecturekit.loops.modulo.iterative_modulo_schedule`).
* :func:`ii_explorer` -- a slider over II from 1 to the II found: for each one, why it fails
  (which resource has more work than II rows can hold, which recurrence needs more cycles),
  computed by :func:`lecturekit.loops.modulo.explain_ii`, and the found schedule folded onto that
  many rows (over-full cells in red).
* :func:`unroll_explorer` -- a loop in a text box, a machine and an unroll factor: the unrolled
  code and its cycles per iteration next to the software-pipelined loop's II.

Bad input (code that is not a loop, an unknown machine) shows its message in the widget's red
error area; nothing is raised into the kernel.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _

#: loops longer than this are refused (the tables would not be readable)
MAX_INSTRUCTIONS = 30


def _result(source, machine, restrict):
    from ..loops.modulo import ModuloResult, modulo_schedule

    if isinstance(source, ModuloResult):
        return source
    result = modulo_schedule(source, machine, restrict=restrict)
    if len(result.loop) > MAX_INSTRUCTIONS:
        raise LectureKitError(
            _(
                "the explorer shows loops of up to {max_instructions} instructions; "
                "this one has {n_loop}"
            ).format(max_instructions=MAX_INSTRUCTIONS, n_loop=len(result.loop))
        )
    return result


def _summary(result) -> str:
    return _(
        "ResMII <b>{res_mii}</b>, RecMII <b>{rec_mii}</b>, MII <b>{mii}</b>; "
        "II found <b>{ii}</b>, {stage_count} stage(s) on <code>{escape}</code>"
    ).format(
        res_mii=result.res_mii,
        rec_mii=result.rec_mii,
        mii=result.mii,
        ii=result.ii,
        stage_count=result.stage_count,
        escape=html.escape(result.machine.name),
    )


class ModuloStepper:
    """The widget :func:`modulo_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (VBox), ``stepper`` (:class:`~.common.Stepper`: ``index``, ``step()``,
    ``back()``), ``caption``, ``summary`` (HTML), ``error`` (HTML), ``result`` (the
    :class:`~lecturekit.loops.modulo.ModuloResult`, ``None`` after bad input).
    """

    def __init__(self, source, machine="lecture", *, restrict: bool = True, title=None):
        import ipywidgets as w

        from .common import Stepper, error_html

        self.result = None
        self.summary = w.HTML("")
        self.stepper = Stepper(
            1, self._render, title=title or _("Iterative modulo scheduling"), step_name=_("step"),
            interval=1200,
        )  # fmt: skip
        self.error = self.stepper.error
        try:
            self.result = _result(source, machine, restrict)
            self.summary.value = _summary(self.result)
            self.stepper.reset(len(self.result.trace), 0)
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        self.widget = w.VBox([self.summary, self.stepper.widget])

    def _render(self, i: int):
        if self.result is None:
            return None
        from ..viz.modulo import draw_mrt, draw_scheduler_step

        step = self.result.trace[i]
        caption = html.escape(step.message)
        if step.kind == "give-up" or step.evicted:
            caption = f'<span style="color:#b00000">{caption}</span>'
        if step.kind == "done":
            fig = draw_mrt(self.result, title=_("Final table: II = {ii}").format(ii=self.result.ii))
        else:
            fig = draw_scheduler_step(self.result, i)
        return fig, caption

    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def modulo_stepper(source, machine="lecture", *, restrict: bool = True, title=None):
    """Step through the modulo scheduling of the loop ``source`` (text, parsed program, Loop or
    a ModuloResult) on ``machine``."""
    return ModuloStepper(source, machine, restrict=restrict, title=title)


class IIExplorer:
    """The widget :func:`ii_explorer` returns. ``stepper.index = i`` shows II = i + 1;
    ``reasons`` (HTML) lists why it fails; ``report`` is the current
    :class:`~lecturekit.loops.modulo.IIReport`."""

    def __init__(self, source, machine="lecture", *, restrict: bool = True, extra: int = 1):
        import ipywidgets as w

        from .common import Stepper, error_html

        self.result = None
        self.report = None
        self.summary = w.HTML("")
        self.reasons = w.HTML("")
        self.stepper = Stepper(
            1,
            self._render,
            title=_("Why not a smaller II?"),
            step_name="II",  # i18n: as is
            interval=1500,
        )
        self.error = self.stepper.error
        try:
            self.result = _result(source, machine, restrict)
            self.summary.value = _summary(self.result)
            self.stepper.reset(self.result.ii + max(0, extra), 0)
        except LectureKitError as exc:
            self.error.value = error_html(exc)
        self.widget = w.VBox([self.summary, self.stepper.widget, self.reasons])

    @property
    def ii(self) -> int:
        return self.stepper.index + 1

    def _render(self, i: int):
        if self.result is None:
            return None
        from ..loops.modulo import explain_ii
        from ..viz.modulo import draw_ii_report

        ii = i + 1
        self.report = explain_ii(self.result, ii)
        reasons = self.report.reasons(self.result.graph)
        color = "#1a7f37" if self.report.feasible else "#b00000"
        items = "".join(f"<li>{html.escape(r)}</li>" for r in reasons)
        self.reasons.value = f'<ul style="color:{color};margin:0">{items}</ul>'
        verdict = "works" if self.report.feasible else "fails"
        caption = f'<b style="color:{color}">II = {ii} {verdict}</b>'
        if self.report.broken and not self.report.feasible:
            broken = len(self.report.broken)
            caption += _(" (folded, the found schedule would break {broken} dependence(s))").format(
                broken=broken
            )
        return draw_ii_report(self.result, self.report), caption

    @property
    def caption(self):
        return self.stepper.caption

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def ii_explorer(source, machine="lecture", *, restrict: bool = True, extra: int = 1):
    """A slider over II = 1 .. (II found + ``extra``) for the loop ``source``: why each smaller
    II fails, computed."""
    return IIExplorer(source, machine, restrict=restrict, extra=extra)


class UnrollExplorer:
    """The widget :func:`unroll_explorer` returns: ``code`` (Textarea), ``machine`` (Dropdown),
    ``factor`` (ToggleButtons 1/2/4/8), ``output`` (the unrolled loop as text), ``table`` (HTML:
    cycles per iteration for every factor and the software-pipelined loop), ``error``."""

    def __init__(self, source: str, machine: str = "lecture", k: int = 2):
        import ipywidgets as w

        from ..target.machine import PRESETS
        from .common import as_text, error_html, safe

        source, problem = as_text(source, _("the loop"))
        problems = [problem] if problem else []
        if not (isinstance(machine, str) and machine in PRESETS):
            problems.append(
                _("machine: this explorer offers the presets {join}; got {machine!r}").format(
                    join=", ".join(PRESETS), machine=machine
                )
            )
        if isinstance(k, bool) or k not in (1, 2, 4, 8):
            problems.append(
                _("k: this explorer offers unroll factors 1, 2, 4 and 8; got {k!r}").format(k=k)
            )
        self.code = w.Textarea(value=source, layout=w.Layout(width="420px", height="200px"))
        self.machine = w.Dropdown(
            options=list(PRESETS), value=machine if isinstance(machine, str)
            and machine in PRESETS else "lecture",
            description=_("machine"), layout=w.Layout(width="220px"),
        )  # fmt: skip
        self.factor = w.ToggleButtons(
            options=[1, 2, 4, 8], value=k if k in (1, 2, 4, 8) else 2, description=_("unroll k"),
            style={"button_width": "40px"},
        )  # fmt: skip
        self.run_button = w.Button(description=_("analyse"), button_style="primary")
        self.error = w.HTML("")
        self.table = w.HTML("")
        self.output = w.HTML("")
        self.unrolled = None
        self.modulo = None
        update = safe(self._update, self.error)
        self.run_button.on_click(lambda _b: update())
        self.machine.observe(lambda _c: update(), names="value")
        self.factor.observe(lambda _c: update(), names="value")
        self.widget = w.VBox(
            [
                w.HBox([self.code, w.VBox([self.machine, self.factor, self.run_button])]),
                self.error,
                self.table,
                self.output,
            ]
        )
        if problems:  # shown, and nothing computed with a value the user did not give
            self.error.value = "<br>".join(error_html(p) for p in problems)
        else:
            update()

    def _update(self) -> None:
        from ..loops.modulo import modulo_schedule
        from ..loops.unroll import unroll

        self.unrolled = None
        self.modulo = None
        self.table.value = ""
        self.output.value = ""
        source, machine = self.code.value, self.machine.value
        rows = []
        for k in (1, 2, 4, 8):
            u = unroll(source, k, machine, scheduler="list")
            if len(u.loop) > 4 * MAX_INSTRUCTIONS:
                raise LectureKitError(
                    _("the unrolled loop has {n_loop} instructions: too long").format(
                        n_loop=len(u.loop)
                    )
                )
            if k == self.factor.value:
                self.unrolled = u
            style = ' style="background:#fff3c4"' if k == self.factor.value else ""
            rows.append(
                _(
                    "<tr{style}><td>unrolled "
                    "×{k}</td><td>{cycles_per_iteration:.2f}</td><td>{registers}</td><td>{code_size}</td></tr>"
                ).format(
                    style=style,
                    k=k,
                    cycles_per_iteration=u.cycles_per_iteration,
                    registers=u.registers,
                    code_size=u.code_size,
                )
            )
        self.modulo = m = modulo_schedule(source, machine)
        size = m.code_size if m.code else "-"
        rows.append(
            _(
                "<tr><td>software-pipelined (II = {ii}, {stage_count} "
                "stages)</td><td>{ii:.2f}</td><td>{registers}</td><td>{size}</td></tr>"
            ).format(ii=m.ii, stage_count=m.stage_count, registers=m.registers, size=size)
        )
        head = _(
            "<tr><th>loop</th><th>cycles / iteration</th><th>registers (loop body)</th>"
            "<th>code size</th></tr>"
        )
        self.table.value = f"<table>{head}{''.join(rows)}</table>"
        text = "\n".join(self.unrolled.lines)
        self.output.value = f"<pre style='line-height:1.2'>{html.escape(text)}</pre>"

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def unroll_explorer(source: str, machine: str = "lecture", k: int = 2) -> UnrollExplorer:
    """Edit a loop, pick a machine and an unroll factor: the unrolled code, and cycles per
    iteration for k = 1, 2, 4, 8 and for software pipelining."""
    return UnrollExplorer(source, machine, k)


__all__ = [
    "IIExplorer",
    "MAX_INSTRUCTIONS",
    "ModuloStepper",
    "UnrollExplorer",
    "ii_explorer",
    "modulo_stepper",
    "unroll_explorer",
]
