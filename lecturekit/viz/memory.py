"""Stacked bars of the four training-memory consumers (draws :class:`MemoryReport` objects).

matplotlib is imported inside the functions so ``import lecturekit`` stays cheap.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..language import _
from ..llm import hardware
from ..llm.memory import CONSUMERS, GB, GIB, consumer_label
from .fonts import figure

#: one colour per consumer (colour-blind safe, Okabe-Ito)
COLORS = {
    "parameters": "#0072B2",
    "gradients": "#56B4E9",
    "optimizer": "#E69F00",
    "activations": "#D55E00",
}
_UNITS = {"GiB": GIB, "GB": GB}


@figure
def plot_memory(
    reports,
    labels: list[str] | None = None,
    unit: str = "GiB",
    gpu: str | None = "A100-80GB",
    ax=None,
    title: str | None = None,
    log: bool = False,
):
    """Horizontal stacked bars: per-GPU bytes of each consumer, one bar per report.

    ``reports``: a :class:`~lecturekit.llm.memory.MemoryReport`, a list of them, or a list of
    ``(label, report)`` pairs (as :func:`~lecturekit.llm.memory.technique_effects` returns).
    ``gpu`` draws that GPU's memory as a dashed line. Returns the matplotlib ``Axes``.
    """
    import matplotlib.pyplot as plt

    if unit not in _UNITS:
        raise ConfigError(_("unit: must be GiB or GB; got {unit!r}").format(unit=unit))
    if not isinstance(reports, list | tuple):
        reports = [reports]
    if reports and isinstance(reports[0], tuple):
        labels = [lab for lab, _unused in reports]
        reports = [rep for _unused, rep in reports]
    if labels is None:
        labels = [rep.model.name for rep in reports]
    if ax is None:
        _unused, ax = plt.subplots(figsize=(8, 0.45 * len(reports) + 1.4), dpi=90)
    div = _UNITS[unit]
    ys = list(range(len(reports)))[::-1]
    left = [0.0] * len(reports)
    for name in CONSUMERS:
        widths = [getattr(rep, name) / div for rep in reports]
        ax.barh(ys, widths, left=left, color=COLORS[name], label=consumer_label(name), height=0.7)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    for y, total in zip(ys, left, strict=True):
        ax.text(total, y, f" {total:,.1f}", va="center", fontsize=8)
    xmax = max(left + [1e-9])
    if gpu is not None:
        g = hardware.gpu(gpu)
        line = g.memory_bytes / div
        xmax = max(xmax, line)
        ax.axvline(line, color="k", ls="--", lw=1)
        ax.text(
            line, 1.0, f" {g.name}", fontsize=8, va="bottom", transform=ax.get_xaxis_transform()
        )
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=9)
    ax.set_xlabel(
        _("memory per GPU ({unit} = {value} bytes)").format(
            unit=unit, value="2^30" if unit == "GiB" else "10^9"
        )
    )
    if log:
        ax.set_xscale("log")
    else:
        ax.set_xlim(0, xmax * 1.15)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=10, pad=14)
    ax.figure.tight_layout()
    return ax
