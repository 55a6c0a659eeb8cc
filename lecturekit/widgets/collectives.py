"""A step-through explorer of all-reduce traces (the ring by default).

Play / ``◀ back`` / ``step ▶`` buttons and a slider (the shared
:class:`~lecturekit.widgets.common.Stepper`) move through the steps of a
:class:`~lecturekit.llm.collectives.CollectiveTrace`; a table shows every rank's chunks (what
they contain and their values) and which chunk just moved where. The widget only *reads* the
trace; the algorithm lives in :mod:`lecturekit.llm.collectives`.

Any error inside a callback is shown in the widget in red; the kernel never sees it.
ipywidgets is imported when a stepper is built, not when this module is imported::

    from lecturekit.widgets.collectives import ring_all_reduce_stepper
    ring_all_reduce_stepper(p=4)      # four ranks, one random integer per chunk
"""

from __future__ import annotations

import html

import numpy as np

from ..errors import ConfigError
from ..language import _
from ..llm.collectives import CollectiveTrace, all_reduce_trace, cell_label, chunk_name

_ADD = "#fdd0a2"  # received and added this step
_COPY = "#c7e9c0"  # received and copied this step
_FULL = "#9ecae1"  # holds the complete sum


class CollectiveStepper:
    """Step through an all-reduce trace, built on :class:`lecturekit.widgets.common.Stepper`.

    State ``k`` is the buffers after step ``k`` (``k = 0``: before the first step). Attributes:
    ``widget`` (the box to display), ``stepper`` (the underlying Stepper: ``step_button``,
    ``back_button``, ``slider``, ``caption``, ``error``, ``output``), ``trace``."""

    def __init__(self, trace: CollectiveTrace):
        if not isinstance(trace, CollectiveTrace):
            raise ConfigError(
                _("CollectiveStepper: expected a CollectiveTrace, got {name}").format(
                    name=type(trace).__name__
                )
            )
        self.trace = trace
        self.stepper = None  # Stepper draws state 0 while being built; we draw it just after
        from .common import Stepper

        self.stepper = Stepper(
            len(trace.steps) + 1,
            self._render,
            title=_("{algorithm} all-reduce on p={p} ranks").format(
                algorithm=trace.algorithm, p=trace.p
            ),
            step_name=_("state"),
        )
        self.widget = self.stepper.widget
        self.stepper.redraw()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    @property
    def index(self) -> int:
        """The state shown (0 = before the first step)."""
        return self.stepper.index

    def _render(self, k: int) -> str | None:
        from .common import show_text

        if self.stepper is None:
            return None
        show_text(self.stepper.output, self.table_text(k), html_text=self._table_html(k))
        return self.caption_html(k)

    # -- what is shown (plain functions of the trace) ----------------------------------------
    def caption_html(self, k: int) -> str:
        """One line: which step, which phase, who sends which chunk to whom."""
        t = self.trace
        if k == 0:
            return _("step 0 of {n_steps}: every rank holds only its own data").format(
                n_steps=len(t.steps)
            )
        step = t.steps[k - 1]
        moves = "; ".join(
            _("rank {src} → rank {dst}: {chunks} ({nbytes} B, {combine})").format(
                src=m.src,
                dst=m.dst,
                chunks=",".join(chunk_name(c) for c in m.chunks),
                nbytes=m.nbytes,
                combine=m.combine,
            )
            for m in step.transfers
        )
        return _("step {k} of {n_steps} ({escape}): {escape2}").format(
            k=k, n_steps=len(t.steps), escape=html.escape(step.phase), escape2=html.escape(moves)
        )

    def table_text(self, k: int) -> str:
        """The buffers after step ``k`` as text, one line per rank."""
        t = self.trace
        contrib, buffers = t.contributors_at(k), t.buffers_at(k)
        lines = []
        for r in range(t.p):
            cells = []
            for c in range(t.p):
                lo, hi = t.bounds[c]
                vals = " ".join(f"{v:g}" for v in np.asarray(buffers[r][lo:hi]))
                cells.append(f"{cell_label(c, contrib[r][c], t.p)}=[{vals}]")
            lines.append(_("rank {r}: ").format(r=r) + "  ".join(cells))
        return "\n".join(lines)

    def _table_html(self, k: int) -> str:
        t = self.trace
        contrib = t.contributors_at(k)
        buffers = t.buffers_at(k)
        received = {}
        if k > 0:
            for m in t.steps[k - 1].transfers:
                for c in m.chunks:
                    received[(m.dst, c)] = m.combine
        cell = "border:1px solid #999;padding:2px 6px;text-align:center"  # i18n: not shown (CSS)
        cell += ";font-family:monospace"
        header = "".join(f'<th style="{cell}">chunk {chunk_name(c)}</th>' for c in range(t.p))
        rows = [f"<tr><th></th>{header}</tr>"]
        for r in range(t.p):
            tds = []
            for c in range(t.p):
                lo, hi = t.bounds[c]
                vals = np.asarray(buffers[r][lo:hi])
                shown = " ".join(f"{v:g}" for v in vals[:4]) + (" …" if vals.size > 4 else "")
                how = received.get((r, c))
                if how == "add":
                    bg = _ADD
                elif how == "copy":
                    bg = _COPY
                elif len(contrib[r][c]) == t.p:
                    bg = _FULL
                else:
                    bg = "white"
                label = html.escape(cell_label(c, contrib[r][c], t.p))
                tds.append(
                    f'<td style="{cell};background:{bg}">{label}<br><span '
                    f'style="color:#555">{html.escape(shown)}</span></td>'
                )
            sent = sum(m.nbytes for s in t.steps[:k] for m in s.transfers if m.src == r)
            rows.append(
                _(
                    '<tr><th style="{cell}">rank {r}</th>{join}<td style="padding:2px '
                    '6px;color:#555">sent so far: {sent} B</td></tr>'
                ).format(cell=cell, r=r, join="".join(tds), sent=sent)
            )
        legend = _(
            '<small><span style="background:{add}">&nbsp;added into&nbsp;</span> '
            '<span style="background:{copy}">&nbsp;copied&nbsp;</span> <span '
            'style="background:{full}">&nbsp;complete sum&nbsp;</span></small>'
        ).format(add=_ADD, copy=_COPY, full=_FULL)
        return f'<table style="border-collapse:collapse">{"".join(rows)}</table>{legend}'


def all_reduce_stepper(
    buffers=None, p: int = 4, chunk_elements: int = 1, seed: int = 0, algorithm: str = "ring"
) -> CollectiveStepper:
    """A stepper for an all-reduce (``ring``, ``tree`` or ``halving-doubling``) of ``buffers``,
    or of ``p`` ranks holding random small integers (``chunk_elements`` per chunk, seeded) when
    ``buffers`` is None."""
    if buffers is None:
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 16:
            raise ConfigError(
                _("all_reduce_stepper: p must be an integer 1..16, got {p!r}").format(p=p)
            )
        if (
            isinstance(chunk_elements, bool)
            or not isinstance(chunk_elements, int)
            or chunk_elements < 1
        ):
            raise ConfigError(
                _(
                    "all_reduce_stepper: chunk_elements must be an integer >= 1, got "
                    "{chunk_elements!r}"
                ).format(chunk_elements=chunk_elements)
            )
        rng = np.random.default_rng(seed)
        buffers = [rng.integers(0, 10, size=p * chunk_elements) for _unused in range(p)]
    return CollectiveStepper(all_reduce_trace(buffers, algorithm))


def ring_all_reduce_stepper(
    buffers=None, p: int = 4, chunk_elements: int = 1, seed: int = 0
) -> CollectiveStepper:
    """The ring all-reduce stepper (see :func:`all_reduce_stepper`)."""
    return all_reduce_stepper(buffers, p, chunk_elements, seed, "ring")
