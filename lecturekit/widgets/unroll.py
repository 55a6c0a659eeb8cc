"""Step through one pass of an unrolled loop, cycle by cycle (ipywidgets, imported lazily).

:func:`unroll_stepper` unrolls a loop ``k`` times with renaming and schedules it
(:func:`lecturekit.loops.unroll.unroll`), then walks through one pass of the scheduled body as
in-order hardware runs it, pass after pass (the steady state ``unroll`` measures), one cycle per
step: which instruction issues, of which copy ``j = 0 .. k-1`` of which original instruction, and
what the next one waits for (an operand, the unit a multiply still holds, its turn). The figure
puts each copy in a row of its own, so the copies' interleaving shows; the last step is the cycle
the next pass starts in, where the cycles per pass and per original iteration add up. A table
lists every instruction of the pass with its state in the current cycle.

Buttons pick ``k`` (1, 2, 4, 8) and a menu the machine. Everything shown comes from ``unroll``'s
result via :mod:`lecturekit.viz.unroll`; nothing is rescheduled. Bad input (code that is not a
loop, an unroll factor below 1, an unknown machine) shows its message in the widget's red error
area; nothing is raised into the kernel.
"""

from __future__ import annotations

import html

from ..errors import LectureKitError
from ..language import _, ngettext
from .common import _with_plain_text, plain_text_note

#: the largest unroll factor the stepper accepts
MAX_FACTOR = 16
#: unrolled bodies longer than this are refused (the figure would not be readable)
MAX_INSTRUCTIONS = 120
#: passes longer than this many cycles are refused
MAX_CYCLES = 150

FACTORS = (1, 2, 4, 8)


def _code(text: str) -> str:
    """``a `b` c`` as HTML with ``b`` in <code>."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def summary_html(view) -> str:
    """One line: instructions per pass and what they are made of, cycles per pass and per
    original iteration (``unroll``'s own figures)."""
    u = view.unrolled
    roles = [ln.role for ln in view.lines]
    copies = roles.count("copy")
    updates = roles.count("update")
    if u.k > 1:
        parts = _("{k} copies × {n}").format(k=u.k, n=copies // u.k)
    else:
        parts = f"{copies}"
    pointers = ngettext("{n} pointer update", "{n} pointer updates", updates).format(n=updates)
    idle = sum(1 for c in view.cycles[:-1] if not view.issued_in(c))
    out = _(
        "<b>unrolled ×{k}</b> on <code>{escape}</code> ({escape2} scheduler): "
        "{n_lines} instructions per pass ({parts} + {pointers} + the branch); "
        "<b>{cycles_per_pass:g} cycles per "
        "pass</b> ({idle} of them issue nothing) = <b>{cycles_per_iteration:g} "
        "cycles per original iteration</b>"
    ).format(
        k=u.k,
        escape=html.escape(u.original.machine.name),
        escape2=html.escape(u.scheduler),
        n_lines=len(view.lines),
        parts=parts,
        pointers=pointers,
        cycles_per_pass=u.cycles_per_pass,
        idle=idle,
        cycles_per_iteration=u.cycles_per_iteration,
    )
    if view.shown:
        out += _(
            "<br><i>shown: pass {value} of the loop; the first pass takes "
            "{first_pass_length} cycles (nothing from an earlier pass holds it "
            "up)</i>"
        ).format(value=view.shown + 1, first_pass_length=view.first_pass_length)
    if view.length != u.cycles_per_pass:
        out += _(
            "<br><i>this pass: {length} cycles; passes differ once the loop settles</i>"
        ).format(length=view.length)
    return out


def pass_table_html(view, cycle: int) -> str:
    """Every instruction of the pass (and the neighbours' sharing its cycles) with its state in
    ``cycle``: issued, issuing now, or waiting and for what."""
    from ..viz.unroll import cycle_state

    st = cycle_state(view, cycle)
    why = dict(st.waiting)
    rows = []
    for o in view.window:
        t = view.start[o]
        if t < cycle:
            state, style = _("issued in cycle {t}").format(t=t), "color:#888888"
        elif t == cycle:
            state, style = _("<b>issues now</b>"), "background:#d9f2d0"
        elif not why[o]:
            state, style = _("issues next, in cycle {t}").format(t=t), ""
        else:
            color = "#b00000" if o == st.head else "#555555"
            state = _code(_("waiting: {reasons}").format(reasons="; ".join(why[o])))
            style = f"color:{color}"
        line = view.line(o)
        code, where = html.escape(view.text(o)), html.escape(view.where(o))
        rows.append(
            f'<tr style="{style}"><td>{line.index + 1}</td><td><code>{code}</code></td>'
            f"<td>{where}</td><td>{t}</td><td>{state}</td></tr>"
        )
    heads = (
        _("line"),
        _("instruction"),
        _("from"),
        _("issues in"),
        _("in cycle {cycle}").format(cycle=cycle),
    )
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr>"
    return (
        '<table style="border-collapse:collapse;font-size:85%" border="1" cellpadding="2">'
        f"{head}{''.join(rows)}</table>"
    )


class UnrollStepper:
    """The widget :func:`unroll_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (VBox), ``stepper`` (:class:`~.common.Stepper`: ``index``, ``step()``,
    ``back()``; step ``i`` is cycle ``view.first + i``), ``factor`` (ToggleButtons), ``machine``
    (Dropdown), ``summary`` and ``table`` (HTML), ``caption``, ``error``; ``unrolled`` (the
    :class:`~lecturekit.loops.unroll.Unrolled`) and ``view`` (its
    :class:`~lecturekit.viz.unroll.PassView`), both ``None`` after bad input.
    """

    def __init__(self, source, machine="lecture", k=2, *, title=None):
        import ipywidgets as w

        from ..target.machine import PRESETS
        from .common import Stepper, safe

        self.source = source
        self.unrolled = None
        self.view = None
        self._k = k
        self._machine = machine
        good_k = isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= MAX_FACTOR
        self.factor = w.ToggleButtons(
            options=sorted({*FACTORS, k}) if good_k else list(FACTORS),
            value=k if good_k else None, description=_("unroll k"), style={"button_width": "36px"},
        )  # fmt: skip
        self.machine = w.Dropdown(
            options=list(PRESETS), description=_("machine"), layout=w.Layout(width="200px"),
            value=machine if isinstance(machine, str) and machine in PRESETS else None,
        )  # fmt: skip
        self.summary = w.HTML("")
        self.table = w.HTML("")
        self.stepper = Stepper(
            1, self._render, title=title or _("One pass through the unrolled loop, cycle by cycle"),
            step_name=_("step"), interval=900,
        )  # fmt: skip
        self.error = self.stepper.error
        update = safe(self._update, self.error)
        update()
        self.factor.observe(lambda c: update(k=c["new"]), names="value")
        self.machine.observe(lambda c: update(machine=c["new"]), names="value")
        self.widget = w.VBox(
            [w.HBox([self.factor, self.machine]), self.summary, self.stepper.widget, self.table]
        )

    def _update(self, k=None, machine=None) -> None:
        from ..loops.model import analyze_loop
        from ..loops.unroll import unroll
        from ..viz.unroll import unrolled_pass
        from .common import clear

        if k is not None:
            self._k = k
        if machine is not None:
            self._machine = machine
        self.unrolled = self.view = None
        self.summary.value = self.table.value = self.stepper.caption.value = ""
        clear(self.stepper.output)
        self.stepper.reset(1)
        k = self._k
        if isinstance(k, int) and not isinstance(k, bool) and k > MAX_FACTOR:
            raise LectureKitError(
                _("the stepper unrolls at most {max_factor} times, got k = {k}").format(
                    max_factor=MAX_FACTOR, k=k
                )
            )
        if isinstance(k, int) and not isinstance(k, bool) and k >= 1:
            n = len(analyze_loop(self.source, self._machine))  # the code and the machine
            if k * (n - 1) + 1 > MAX_INSTRUCTIONS:
                raise LectureKitError(
                    _(
                        "unrolled ×{k}, this loop of {n} instructions would have about "
                        "{value}; the stepper shows up to {max_instructions} (use a smaller k)"
                    ).format(k=k, n=n, value=k * (n - 1) + 1, max_instructions=MAX_INSTRUCTIONS)
                )
        u = unroll(self.source, k, self._machine)  # checks k >= 1, the code and the machine
        view = unrolled_pass(u)
        if view.length > MAX_CYCLES:
            raise LectureKitError(
                _(
                    "a pass takes {length} cycles; the stepper shows up to {max_cycles} "
                    "(use a smaller k)"
                ).format(length=view.length, max_cycles=MAX_CYCLES)
            )
        self.unrolled, self.view = u, view
        self.summary.value = summary_html(view)
        self.stepper.reset(len(view.cycles), 0)

    @property
    def cycle(self) -> int | None:
        """The cycle shown (``None`` after bad input)."""
        return None if self.view is None else self.view.first + self.stepper.index

    def _render(self, i: int):
        if self.view is None:
            return None
        from ..viz.unroll import cycle_state, describe_pass_cycle, draw_unrolled_pass

        view = self.view
        cycle = view.first + i
        lines = describe_pass_cycle(view, cycle)
        st = cycle_state(view, cycle)
        waiting = st.head is not None and bool(dict(st.waiting).get(st.head))
        caption = [f"<b>{_code(lines[0])}</b>"]
        for text in lines[1:]:  # the sentence after the head: the next pass, or what waits
            if cycle == view.end:
                caption.append(f'<span style="color:#1a7f37"><b>{_code(text)}</b></span>')
            elif waiting:
                caption.append(f'<span style="color:#b00000">{_code(text)}</span>')
            else:
                caption.append(_code(text))
        self.table.value = pass_table_html(view, cycle)
        return draw_unrolled_pass(view, upto_cycle=cycle), "<br>".join(caption)

    @property
    def caption(self):
        return self.stepper.caption

    def _plain_text(self) -> str:
        if self.view is None:
            return plain_text_note(_("unrolled-loop stepper (the input has an error)"))
        u = self.unrolled
        v = self.view
        return plain_text_note(
            _(
                "one pass of the loop unrolled ×{k} on {name}, cycles {first} to "
                "{end}: {length} cycles per pass"
            ).format(k=u.k, name=u.original.machine.name, first=v.first, end=v.end, length=v.length)
        )

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


def unroll_stepper(source, machine="lecture", k: int = 2, *, title=None) -> UnrollStepper:
    """Step through one pass of the loop ``source`` (text, parsed program or Loop) unrolled
    ``k`` times and scheduled on ``machine``, one cycle per step (see the module docstring)."""
    return UnrollStepper(source, machine, k, title=title)


__all__ = [
    "FACTORS",
    "MAX_CYCLES",
    "MAX_FACTOR",
    "MAX_INSTRUCTIONS",
    "UnrollStepper",
    "pass_table_html",
    "summary_html",
    "unroll_stepper",
]
