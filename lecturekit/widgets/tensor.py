"""Chapter 14's explorers: a schedule of a loop nest step by step, and the backward pass.

:func:`schedule_explorer` shows a computation (a matmul or a convolution), a text box with its
schedule (one step a line: ``split i 8``, ``reorder ...``, ``vectorize j_i``; the steps are
data) and a cache size; a stepper walks through the steps: after each, the loop nest, its DRAM
traffic by the cache model, its compute ceiling and its point on the roofline, beside the
points of the steps before it. A schedule that is not legal (a loop that does not exist, a
factor that does not divide, a reorder that is not a permutation, ...) is explained in the
error line, naming the step.

:func:`backward_stepper` walks through reverse-mode differentiation of a graph: at each step one
forward node passes its adjoint to its inputs, and the new backward nodes are drawn.

ipywidgets and matplotlib are imported when a widget is built, not when this module is.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _
from ..tensor.cost import EXAMPLE_CPU, cost
from ..tensor.loopnest import conv2d, matmul, parse_schedule, schedule_text, steps_of
from .common import _with_plain_text, plain_text_note

#: the computations the explorer offers: label -> computation
COMPUTATIONS = {
    "matmul 128×128×128": matmul(128, 128, 128),
    "matmul 64×64×64": matmul(64, 64, 64),
    "conv2d 64×64, 3×3 kernel": conv2d(64, 64, 3, 3),
}
#: cache sizes offered (KiB)
CACHE_KIB = (4, 8, 16, 32, 64, 256)

DEFAULT_SCHEDULE = """split i 32
split j 32
split k 4
reorder i_o j_o k_o k_i i_i j_i
split j_i 8
vectorize j_i_i"""
#: the schedule shown when a computation is picked from the menu
DEFAULTS = {
    "matmul 128×128×128": DEFAULT_SCHEDULE,
    "matmul 64×64×64": "tile i j 16 16\nsplit k 16\nreorder i_o j_o k_o i_i k_i j_i",
    "conv2d 64×64, 3×3 kernel": "split x 16\nreorder y x_o r s x_i\nsplit x_i 8\nvectorize x_i_i",
}


def _pre(text: str) -> str:
    return f"<pre style='line-height:1.2;margin:2px 0'>{html.escape(text)}</pre>"


class ScheduleExplorer:
    """The widget :func:`schedule_explorer` returns; displays itself in a notebook.

    Attributes: ``widget`` (VBox), ``computation`` (Dropdown), ``cache`` (Dropdown, KiB),
    ``schedule`` (Textarea), ``stepper`` (:class:`~.common.Stepper`, one step per schedule
    step, the first showing the unscheduled nest), ``error``, ``views`` (the nests after each
    step) and ``costs`` (their costs); both empty after bad input."""

    def __init__(self, computation: str = "matmul 128×128×128", schedule=DEFAULT_SCHEDULE,
                 cache_kib: int = 32):  # fmt: skip
        import ipywidgets as w

        from .common import Stepper, choice_problem, error_html, safe

        problems = [
            choice_problem("computation", computation, list(COMPUTATIONS)),
            choice_problem("cache_kib", cache_kib, list(CACHE_KIB)),
        ]
        if not isinstance(schedule, str):
            problems.append(
                _("schedule: expected text, one step a line, got {name}").format(
                    name=type(schedule).__name__
                )
            )
            schedule = ""
        self.computation = w.Dropdown(
            options=list(COMPUTATIONS), description=_("computation"),
            value=computation if computation in COMPUTATIONS else "matmul 128×128×128",
            layout=w.Layout(width="330px"),
        )  # fmt: skip
        self.cache = w.Dropdown(
            options=list(CACHE_KIB), description=_("cache KiB"),
            value=cache_kib if cache_kib in CACHE_KIB else 32, layout=w.Layout(width="180px"),
        )  # fmt: skip
        self.schedule = w.Textarea(
            value=schedule, description=_("schedule"), rows=7, layout=w.Layout(width="420px"),
            continuous_update=False,
        )  # fmt: skip
        self.summary = w.HTML("")
        self.views: list = []
        self.costs: list = []
        self.stepper = Stepper(1, self._render, title=_("The schedule, one step at a time"),
                               step_name=_("step"))  # fmt: skip
        self.error = self.stepper.error
        self.widget = w.VBox(
            [w.HBox([w.VBox([self.computation, self.cache]), self.schedule]), self.summary,
             self.stepper.widget]
        )  # fmt: skip
        update = safe(self.update, self.error)
        self._quiet = False

        def on_change(_change):
            if not self._quiet:
                update()

        def on_computation(change):
            self._quiet = True  # a schedule of one computation does not fit another
            try:
                self.schedule.value = DEFAULTS[change["new"]]
            finally:
                self._quiet = False
            update()

        self.computation.observe(on_computation, names="value")
        for control in (self.cache, self.schedule):
            control.observe(on_change, names="value")
        problems = [p for p in problems if p]
        if problems:
            self.error.value = "<br>".join(error_html(p) for p in problems)
        else:
            update()

    @property
    def cpu(self):
        return EXAMPLE_CPU.with_(cache_bytes=self.cache.value * 1024)

    def update(self) -> None:
        """Recompute every step from the controls (a bad schedule: the error says why)."""
        from .common import clear

        self.views, self.costs = [], []
        self.summary.value = ""
        self.stepper.caption.value = ""
        clear(self.stepper.output)
        self.stepper.reset(1)
        comp = COMPUTATIONS[self.computation.value]
        steps = parse_schedule(self.schedule.value)
        views = steps_of(comp, steps)
        cpu = self.cpu
        memo: dict = {}
        self.costs = [cost(v.nest, cpu, memo) for v in views]
        self.views = views
        first, last = self.costs[0], self.costs[-1]
        self.summary.value = _(
            "<b>{computation}</b>, {flops:,} FLOPs; on {cpu} with a {kib} KiB "
            "cache: unscheduled {before:,.1f} µs, after the {n_steps} step(s) "
            "<b>{after:,.1f} µs</b> ({speedup:,.1f}× faster)"
        ).format(
            computation=html.escape(comp.text()),
            flops=comp.flops,
            cpu=html.escape(_(cpu.name)),
            kib=self.cache.value,
            before=first.seconds * 1e6,
            n_steps=len(steps),
            after=last.seconds * 1e6,
            speedup=first.seconds / last.seconds,
        )
        self.stepper.reset(len(views), len(views) - 1)

    def _render(self, i: int):
        if not self.views:
            return None
        import matplotlib.pyplot as plt

        from ..viz.tensor import plot_nest_roofline
        from .common import WIDGET_DPI

        view, c = self.views[i], self.costs[i]
        what = _("the computation as written") if view.step is None else view.step.text()
        fig, ax = plt.subplots(figsize=(5.6, 3.4), dpi=WIDGET_DPI)
        labels = [_("as written")] + [v.step.text() for v in self.views[1 : i + 1]]
        plot_nest_roofline(self.costs[: i + 1], labels, ax=ax, title=_("after each step so far"))
        caption = (
            _("<b>step {i}: {what}</b>").format(i=i, what=html.escape(what))
            + f"<br>{html.escape(c.summary())}"
            + _pre(view.nest.text())
            + "<br>".join(html.escape(n) for n in c.traffic.notes)
        )
        return fig, caption

    def _plain_text(self) -> str:
        if not self.views:
            return plain_text_note(_("schedule explorer (the input has an error)"))
        return plain_text_note(
            _("schedule explorer, {n} step(s): ").format(n=len(self.views) - 1)
            + "; ".join(v.step.text() for v in self.views[1:])
        )

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def schedule_explorer(computation: str = "matmul 128×128×128", schedule=DEFAULT_SCHEDULE,
                      cache_kib: int = 32) -> ScheduleExplorer:  # fmt: skip
    """Build the schedule explorer (see the module docstring)."""
    return ScheduleExplorer(computation, schedule, cache_kib)


class BackwardStepper:
    """The widget :func:`backward_stepper` returns: one step per forward node whose adjoint is
    passed back; ``stepper`` (:class:`~.common.Stepper`), ``result`` (the
    :class:`~lecturekit.tensor.autodiff.Backward`), ``values`` (every node's value)."""

    def __init__(self, graph, example, output=None, wrt=None, *, title=None):
        from ..tensor.autodiff import backward
        from .common import Stepper

        self.result = backward(graph, output, wrt, example=example)
        self.values = self.result.graph.evaluate(example)
        self.stepper = Stepper(
            len(self.result.steps) + 1, self._render,
            title=title or _("Reverse mode: each node passes its adjoint to its inputs"),
        )  # fmt: skip
        self.error = self.stepper.error
        self.widget = self.stepper.widget

    def _render(self, i: int):
        import numpy as np

        from ..tensor.graph import TensorGraph
        from ..viz.tensor import draw_tensor_graph

        r = self.result
        fwd = [n for n in r.graph.nodes if n.name in set(r.forward_names)]
        added = [x for s in r.steps[:i] for x in s.added]
        seed = [n.name for n in r.graph.nodes if n.name not in set(r.forward_names)][:2]
        shown = {*(n.name for n in fwd), *added, *seed}
        nodes = [n for n in r.graph.nodes if n.name in shown]
        g = TensorGraph(nodes, [nodes[-1].name], r.graph.name)

        def short(v):
            v = np.asarray(v)
            return f"{v.item():.4g}" if v.size == 1 else _("shape {shape}").format(shape=v.shape)

        notes = {n.name: short(self.values[n.name]) for n in nodes if n.op != "const"}
        last = r.steps[i - 1] if i else None
        fig = draw_tensor_graph(g, backward_from=r.forward_names[-1],
                                highlight=(last.node,) if last else (), notes=notes)  # fmt: skip
        if last is None:
            caption = _("the forward graph, and the seed: the adjoint of {output} is 1").format(
                output=html.escape(r.output)
            )
        else:
            caption = _("<b>{node} = {expression}</b>: {rule}; new nodes: {added}").format(
                node=html.escape(last.node),
                expression=html.escape(last.expression),
                rule=html.escape(last.rule),
                added=html.escape(", ".join(last.added) or "-"),
            )
        return fig, caption

    def _repr_mimebundle_(self, **kwargs):
        note = plain_text_note(
            _("backward pass stepper, {n_steps} steps").format(n_steps=len(self.result.steps))
        )
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), note)


def backward_stepper(graph, example, output=None, wrt=None, *, title=None) -> BackwardStepper:
    """Step through the backward pass of ``graph`` at ``example`` (see the module docstring)."""
    if not hasattr(graph, "nodes"):
        raise LectureKitError(
            _("backward_stepper: expected a TensorGraph, got {name}").format(
                name=type(graph).__name__
            )
        )
    return BackwardStepper(graph, example, output, wrt, title=title)


__all__ = [
    "CACHE_KIB",
    "COMPUTATIONS",
    "DEFAULTS",
    "BackwardStepper",
    "ScheduleExplorer",
    "backward_stepper",
    "schedule_explorer",
    "schedule_text",
]
