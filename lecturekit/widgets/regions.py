"""Explore global scheduling on a small control-flow graph (ipywidgets, imported lazily).

:func:`region_explorer` takes a program, sample inputs (one per path to show) and the registers
live at the exit. A menu chooses the version of the code — as written, trace scheduling,
superblock (tail duplication, then scheduling), if-conversion — and one the machine; the widget
draws the control-flow graph (the trace in colour, duplicated blocks in blue), the cycles of each
path, the code size, what moved (speculated above a branch, copied as compensation code), and
whether the version computes what the original computes on every input (it is run on the
interpreter).
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _
from .common import _with_plain_text, plain_text_note

#: the versions the menu offers (value, label for the menu)
VERSIONS = ("original", "trace", "superblock", "if-conversion")


def version_label(v: str) -> str:
    return {
        "original": _("as written"),
        "trace": _("trace scheduling"),
        "superblock": _("superblock"),
        "if-conversion": _("if-conversion"),
    }[v]


def build_version(version: str, program, inputs, results, machine, profile=None):
    """``(cfg, trace, copies, notes)`` of one version of ``program`` (see the module
    docstring); the trace follows the edge profile of ``profile`` (inputs; default ``inputs``);
    ``notes`` are sentences about what the transformation did."""
    from ..regions import cfg_of, if_convert, schedule_trace, select_trace, superblock
    from ..regions.ifconvert import merge_chains
    from ..regions.paths import edge_profile

    cfg = cfg_of(program, live_at_exit=results)
    trace = select_trace(cfg, edge_profile(program, profile or inputs))
    if version == "original":
        return cfg, trace, (), []
    if version in ("trace", "superblock"):
        g = (schedule_trace if version == "trace" else superblock)(cfg, trace, machine)
        notes = []
        if g.speculated:
            notes.append(
                _("moved above a branch (speculated): {ins}").format(ins="; ".join(g.speculated))
            )
        if g.sunk:
            notes.append(_("moved below a branch: {ins}").format(ins="; ".join(g.sunk)))
        notes.append(
            _(
                "compensation code: {exits} on exits, {joins} on entrances; copied by tail "
                "duplication: {dup}"
            ).format(exits=g.exit_copies, joins=g.join_copies, dup=g.duplicated)
        )
        copies = [b.name for b in g.cfg.blocks if b.name.endswith(("_t", "_x")) or "_t" in b.name]
        return g.cfg, trace, copies, notes
    heads = [b.name for b in cfg.blocks if b.branch is not None and b.branch.opcode != "j"]
    notes = []
    for head in heads:
        try:
            ic = if_convert(cfg, head)
        except LectureKitError as exc:
            notes.append(str(exc))
            continue
        cfg = ic.cfg
        notes.append(
            _(
                "{head}: {shape} turned into straight-line code, {added} instructions added, "
                "selects for {regs}"
            ).format(head=head, shape=ic.shape, added=ic.added, regs=", ".join(ic.selects) or "-")
        )
    return merge_chains(cfg), (), (), notes


class RegionExplorer:
    """The widget :func:`region_explorer` returns. Attributes: ``version``, ``machine``
    (Dropdowns), ``summary``, ``notes`` (HTML), ``figure`` (Output), ``error``; ``rows``:
    ``{version: {path: cycles}}`` for every version computed so far."""

    def __init__(
        self, program, inputs, results=None, *, paths=None, machine="lecture", profile=None
    ):
        import ipywidgets as w

        from .common import follow

        self.program = program
        self.inputs = list(inputs)
        self.results = results
        self.paths = paths
        self.profile = list(profile) if profile is not None else None
        self.rows: dict[str, dict[str, int]] = {}
        self.version = w.Dropdown(
            options=[(version_label(v), v) for v in VERSIONS],
            value="original",
            description=_("code"),
        )
        self.machine = w.Dropdown(
            options=["lecture", "dual"],
            value=machine if machine in ("lecture", "dual") else "lecture",
            description=_("machine"),
        )
        self.summary = w.HTML("")
        self.notes = w.HTML("")
        self.error = w.HTML("")
        self.figure = w.Output()
        follow((self.version, self.machine), self._update, self.error)
        self.widget = w.VBox(
            [
                w.HBox([self.version, self.machine]),
                self.error,
                self.summary,
                self.notes,
                self.figure,
            ]
        )

    def _update(self) -> None:
        from ..regions.paths import path_cycles, same_on_every_path
        from ..viz.regions import plot_cfg
        from .common import show_figure

        m = self.machine.value
        cfg, trace, copies, notes = build_version(
            self.version.value, self.program, self.inputs, self.results, m, self.profile
        )
        code = cfg.to_program()
        problems, _paths = same_on_every_path(self.program, code, self.inputs, self.results)
        names = self.paths or [_("input {k}").format(k=k + 1) for k in range(len(self.inputs))]
        cycles = {
            name: path_cycles(code, regs, mem, m)[0]
            for name, (regs, mem) in zip(names, self.inputs, strict=True)
        }
        self.rows[self.version.value] = cycles
        same = (
            _("same results as the original on every input")
            if not problems
            else _("DIFFERENT results: {first}").format(first=problems[0])
        )
        self.summary.value = "<b>{}</b>: {}; {}; {}".format(
            html.escape(version_label(self.version.value)),
            html.escape(
                ", ".join(_("{path} {n} cycles").format(path=p, n=n) for p, n in cycles.items())
            ),
            html.escape(_("{n} instructions of code").format(n=len(code))),
            html.escape(same),
        )
        self.notes.value = "<br>".join(html.escape(n) for n in notes)
        ax = plot_cfg(cfg, trace, copies=copies)
        show_figure(self.figure, ax.figure)

    def _plain_text(self) -> str:
        return plain_text_note(_("global scheduling explorer"))

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def region_explorer(program, inputs, results=None, *, paths=None, machine="lecture", profile=None):
    """A widget comparing the versions of ``program`` (module docstring). ``inputs``: ``(regs,
    mem)`` pairs, ``paths``: a name for each (e.g. "hot", "cold"); ``results``: the registers
    live at the exit (compared with the original's); ``profile``: the inputs whose edge counts
    choose the trace (default: ``inputs``)."""
    return RegionExplorer(program, inputs, results, paths=paths, machine=machine, profile=profile)


__all__ = ["RegionExplorer", "VERSIONS", "build_version", "region_explorer"]
