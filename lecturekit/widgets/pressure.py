"""A register budget slider: the same block scheduled and allocated with fewer and fewer
registers (ipywidgets, imported lazily).

:func:`register_slider` shows, for the number of registers on the slider, the three ways to
combine scheduling and allocation (:mod:`lecturekit.target.regalloc`: prepass, postpass, and the
list scheduler that keeps a register budget) with their cycles and spill code, the live ranges
of the order the chosen one allocated against the register line, and its code.
"""

from __future__ import annotations

import html

from ..language import _
from .common import _with_plain_text, plain_text_note

STRATEGIES = ("prepass", "postpass", "integrated")


def strategy_label(name: str) -> str:
    return {"prepass": _("prepass"), "postpass": _("postpass"), "integrated": _("integrated")}[name]


class RegisterSlider:
    """The widget :func:`register_slider` returns. Attributes: ``registers`` (IntSlider),
    ``strategy`` (Dropdown), ``table``, ``code`` (HTML), ``figure`` (Output), ``error``,
    ``strategies`` (the current :class:`~lecturekit.target.regalloc.Strategy` list)."""

    def __init__(self, program, machine="lecture", *, registers=5, low=2, high=10, live_out=None):
        import ipywidgets as w

        from .common import follow

        self.program = program
        self.machine = machine
        self.live_out = live_out
        self.strategies = []
        self.registers = w.IntSlider(
            value=max(low, min(registers, high)),
            min=low,
            max=high,
            description=_("registers"),
            continuous_update=False,
        )
        self.strategy = w.Dropdown(
            options=[(strategy_label(s), s) for s in STRATEGIES],
            value="integrated",
            description=_("shown"),
        )
        self.table = w.HTML("")
        self.code = w.HTML("")
        self.error = w.HTML("")
        self.figure = w.Output()
        follow((self.registers, self.strategy), self._update, self.error)
        self.widget = w.VBox(
            [
                w.HBox([self.registers, self.strategy]),
                self.error,
                self.table,
                self.figure,
                self.code,
            ]
        )

    def _update(self) -> None:
        from ..core.pressure import live_intervals
        from ..target.regalloc import compare_strategies, values_of
        from ..viz.pressure import plot_live_ranges, strategies_table
        from .common import as_program, show_figure

        program = as_program(self.program)
        k = self.registers.value
        self.strategies = compare_strategies(program, k, self.machine, live_out=self.live_out)
        self.table.value = (
            "<pre style='line-height:1.25'>"
            + html.escape(strategies_table([(k, self.strategies)]))
            + "</pre>"
        )
        chosen = next(s for s in self.strategies if s.name == self.strategy.value)
        a = chosen.allocation
        # the order that was allocated: its live ranges (before spill code), in the renamed
        # names for prepass and integrated
        from ..target.regalloc import rename

        base = program if chosen.name == "postpass" else rename(program)[0]
        live_out = self.live_out if chosen.name == "postpass" else None
        if chosen.name != "postpass":
            _renamed, last = rename(program)
            written = {r for ins in program for r in ins.writes()}
            keep = written if self.live_out is None else set(self.live_out) & written
            live_out = {last[r] for r in keep}
        emitted = [base[i] for i in a.order]
        from ..asm import Program

        block = Program(emitted, {}, "")
        values = values_of(block, live_out)
        intervals = live_intervals(values, list(range(len(block))), end=len(block))
        fig = plot_live_ranges(
            values,
            [ins.text for ins in block],
            intervals,
            registers=k,
            title=_("{strategy}: live ranges of the order it allocated (MaxLive {m})").format(
                strategy=strategy_label(chosen.name), m=a.max_live
            ),
        )
        show_figure(self.figure, fig)
        self.code.value = (
            "<b>"
            + html.escape(
                _(
                    "the allocated code ({n} instructions, {s} of them spill code), {c} cycles"
                ).format(n=len(a.program), s=a.spill_instructions, c=chosen.cycles)
            )
            + "</b>"
            + "<pre style='line-height:1.2'>"
            + html.escape(a.text)
            + "</pre>"
        )

    def _plain_text(self) -> str:
        return plain_text_note(_("register budget slider"))

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def register_slider(program, machine="lecture", *, registers=5, low=2, high=10, live_out=None):
    """A widget: the block under a register budget (module docstring). Bad input is shown in
    the widget, never raised."""
    return RegisterSlider(
        program, machine, registers=registers, low=low, high=high, live_out=live_out
    )


__all__ = ["RegisterSlider", "STRATEGIES", "register_slider"]
