"""Type a block, see its dependence graph and its pipeline table (ipywidgets, imported lazily).

:func:`block_explorer` gives a text area (either notation of the lecture), a machine menu (the
presets), a forwarding switch and a "transitive reduction" switch. On every change (the text
area updates when it loses focus, or with the *Update* button) it re-analyses the block and
redraws the dependence graph, the stage table and the llvm-mca-like timeline. A parse error is
shown in the widget's error area with its line and column, never as a traceback.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _, ngettext
from .common import _with_plain_text, plain_text_note

DEFAULT_TEXT = """\
add $t2, $t0, $t1
add $t4, $t3, $t2
add $t7, $t5, $t6
add $t0, $t0, $t7
"""

#: Blocks longer than this are refused with a message (the drawings would not be readable).
MAX_INSTRUCTIONS = 24


class BlockExplorer:
    """The widget :func:`block_explorer` returns; displays itself in a notebook.

    Controls: ``textarea``, ``machine_dropdown``, ``forwarding`` (Checkbox), ``reduce``
    (Checkbox), ``update_button``. Outputs: ``summary`` (HTML: cycles, stalls, critical path),
    ``error`` (HTML, red; empty when the block is fine), ``graph_output``, ``table_output``,
    ``timeline_output`` (ipywidgets.Output). After a successful update ``dg`` and ``sim`` hold the
    :class:`~lecturekit.target.deps.DependenceGraph` and
    :class:`~lecturekit.target.pipeline.SimResult` drawn; after an error both are ``None`` and the
    outputs are empty.
    """

    def __init__(self, text: str = DEFAULT_TEXT, machine="lecture"):
        import ipywidgets as w

        from ..target.machine import PRESETS, Machine, get_machine
        from .common import as_text, error_html, safe

        self.dg = None
        self.sim = None
        self._machines: dict[str, Machine] = {}
        self._quiet = False
        self.error = w.HTML("")
        options = list(PRESETS)
        try:
            start = get_machine(machine)
        except LectureKitError as exc:
            self.error.value = error_html(exc)
            start = get_machine("lecture")
        if isinstance(machine, str) and machine in PRESETS:
            key = machine
        else:
            key = (
                _("{name} (custom)").format(name=start.name)
                if start.name in PRESETS
                else start.name
            )
            self._machines[key] = start
            options.append(key)
        text, problem = as_text(text)
        if problem:
            self.error.value = error_html(problem)
        self.textarea = w.Textarea(
            value=text,
            rows=max(6, min(14, text.count("\n") + 2)),
            continuous_update=False,
            placeholder=_("one instruction per line: add $t2, $t0, $t1  or  t0 = t1 + t2"),
            layout=w.Layout(width="340px"),
        )
        self.textarea.add_class("lecturekit-code")  # monospace, through the style below
        self.machine_dropdown = w.Dropdown(
            options=options, value=key, description=_("machine"), layout=w.Layout(width="220px")
        )
        self.forwarding = w.Checkbox(
            value=start.forwarding, description=_("forwarding"), indent=False
        )
        self.reduce = w.Checkbox(value=True, description=_("transitive reduction"), indent=False)
        self.update_button = w.Button(
            description=_("Update"), button_style="primary", layout=w.Layout(width="100px")
        )
        self.summary = w.HTML("")
        self.graph_output = w.Output()
        self.table_output = w.Output()
        self.timeline_output = w.Output()

        update = safe(self._update, self.error)
        self.textarea.observe(lambda _c: update(), names="value")
        self.forwarding.observe(lambda _c: None if self._quiet else update(), names="value")
        self.reduce.observe(lambda _c: update(), names="value")
        self.machine_dropdown.observe(safe(self._on_machine, self.error), names="value")
        self.update_button.on_click(lambda _b: update())

        controls = w.VBox(
            [self.machine_dropdown, self.forwarding, self.reduce, self.update_button],
            layout=w.Layout(padding="0 0 0 12px"),
        )
        style = (
            ".lecturekit-code textarea {font-family: monospace; font-size: 13px}"  # i18n: not shown
        )
        css = w.HTML(f"<style>{style}</style>")
        self.widget = w.VBox(
            [
                css,
                w.HBox([self.textarea, controls]),
                self.error,
                self.summary,
                w.HBox([self.graph_output, self.table_output]),
                self.timeline_output,
            ]
        )
        if not self.error.value:
            update()

    # -- state -----------------------------------------------------------------------------
    @property
    def machine(self):
        """The machine selected now, with the forwarding switch applied."""
        from ..target.machine import get_machine

        key = self.machine_dropdown.value
        base = self._machines[key] if key in self._machines else get_machine(key)
        return base.with_options(forwarding=self.forwarding.value)

    def _on_machine(self, _change) -> None:
        from ..target.machine import get_machine

        key = self.machine_dropdown.value
        base = self._machines[key] if key in self._machines else get_machine(key)
        self._quiet = True  # the machine's own forwarding default, without a second redraw
        try:
            self.forwarding.value = base.forwarding
        finally:
            self._quiet = False
        self._update()

    def _clear(self) -> None:
        from .common import clear

        self.dg = None
        self.sim = None
        self.summary.value = ""
        for out in (self.graph_output, self.table_output, self.timeline_output):
            clear(out)

    def _update(self) -> None:
        from ..asm import parse
        from ..target.deps import analyze
        from ..target.pipeline import simulate
        from ..viz.graph import draw_dependence_graph
        from ..viz.pipeline import draw_stage_table
        from ..viz.text import stall_cycles, timeline_text
        from .common import show_figure, show_text

        try:
            machine = self.machine
            program = parse(self.textarea.value)
            if len(program) == 0:
                raise LectureKitError(_("the block is empty: type at least one instruction"))
            if len(program) > MAX_INSTRUCTIONS:
                raise LectureKitError(
                    _(
                        "the explorer draws blocks of up to {max_instructions} instructions; "
                        "this one has {n_program}"
                    ).format(max_instructions=MAX_INSTRUCTIONS, n_program=len(program))
                )
            dg = analyze(program, machine)
            sim = simulate(program, machine)
        except Exception:
            self._clear()
            raise
        self.dg, self.sim = dg, sim
        path, bound = dg.critical_path()
        counts = ", ".join(f"{c} {n}" for c, n in sorted(sim.stall_counts().items()))
        fw = _("forwarding on") if machine.forwarding else _("no forwarding")
        self.summary.value = _(
            "<b>{cycles} cycles</b> in program order on <code>{escape}</code> "
            "({fw}): {instructions}, {dependences}, "
            "{stall_cycles}{value}; critical path {join} = {bound} cycles (a lower "
            "bound for any order)"
        ).format(
            cycles=sim.cycles,
            escape=html.escape(machine.name),
            fw=fw,
            instructions=ngettext("{n} instruction", "{n} instructions", len(program)).format(
                n=len(program)
            ),
            dependences=ngettext("{n} dependence", "{n} dependences", len(dg.edges)).format(
                n=len(dg.edges)
            ),
            stall_cycles=stall_cycles(len(sim.stalls)),
            value=f" ({counts})" if counts else "",
            join=" → ".join(f"I{k + 1}" for k in path),
            bound=bound,
        )
        show_figure(self.graph_output, draw_dependence_graph(dg, reduce=self.reduce.value))
        show_figure(self.table_output, draw_stage_table(sim))
        show_text(self.timeline_output, timeline_text(sim))

    def _plain_text(self) -> str:
        return plain_text_note(
            _("block explorer on {value}").format(value=self.machine_dropdown.value)
        )

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def block_explorer(text: str = DEFAULT_TEXT, machine="lecture") -> BlockExplorer:
    """A widget to type a block and see its dependence graph, stage table and timeline on
    ``machine`` (a preset name, a machine file, or a Machine). Errors show inside the widget."""
    return BlockExplorer(text, machine)


__all__ = ["BlockExplorer", "DEFAULT_TEXT", "MAX_INSTRUCTIONS", "block_explorer"]
