"""Roofline plots (log-log): the roofs of one or more GPUs, ridge points, operators placed on them.

Computed by :mod:`lecturekit.llm.roofline`; matplotlib is imported inside the functions.
"""

from __future__ import annotations

import numpy as np

from ..errors import ConfigError
from ..language import _
from ..llm.roofline import Op, Roof
from .fonts import figure


def _as_roofs(roofs) -> list[Roof]:
    if isinstance(roofs, Roof):
        return [roofs]
    roofs = list(roofs)
    if not roofs or not all(isinstance(r, Roof) for r in roofs):
        raise ConfigError(_("plot_roofline: roofs must be a Roof or a non-empty list of Roofs"))
    return roofs


@figure
def plot_roofline(roofs, ops=(), ax=None, xlim=(0.1, 10_000), label_ops: bool = True):
    """Draw ``min(peak, bandwidth × I)`` for each roof and place ``ops`` under the first roof.

    ``ops`` are :class:`~lecturekit.llm.roofline.Op` objects or ``(label, intensity)`` pairs.
    Each op sits at its intensity and the FLOP/s it can attain there; a hollow marker means it
    is memory-bound, a filled one compute-bound. Returns the axes."""
    import matplotlib.pyplot as plt

    roofs = _as_roofs(roofs)
    if ax is None:
        _unused, ax = plt.subplots(figsize=(6.5, 4.2), dpi=80)
    x = np.logspace(np.log10(xlim[0]), np.log10(xlim[1]), 400)
    for roof in roofs:
        y = np.minimum(roof.peak_flops, roof.bandwidth * x)
        (line,) = ax.loglog(
            x,
            y,
            lw=2,
            label=_("{name} (ridge {ridge:.0f} FLOP/B)").format(name=roof.name, ridge=roof.ridge),
        )
        ax.plot([roof.ridge], [roof.peak_flops], "o", color=line.get_color(), ms=4)
    first = roofs[0]
    for item in ops:
        if isinstance(item, Op):
            label, intensity = item.name, item.intensity
        else:
            label, intensity = item
        perf = first.attainable(intensity)
        bound = intensity >= first.ridge
        ax.plot(
            [intensity],
            [perf],
            "s",
            ms=6,
            mfc="k" if bound else "white",
            mec="k",
            zorder=5,
        )
        if label_ops:
            # labels of ops in the right part of the plot go to the left of their marker
            right = np.log(intensity / xlim[0]) > 0.7 * np.log(xlim[1] / xlim[0])
            ax.annotate(
                label,
                (intensity, perf),
                textcoords="offset points",
                xytext=(-5, -11) if right else (5, -11),
                ha="right" if right else "left",
                fontsize=7,
            )
    ax.set_xlabel(_("arithmetic intensity (FLOP / byte of DRAM traffic)"))
    ax.set_ylabel(_("attainable FLOP/s"))
    ax.set_xlim(*xlim)
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(_("roofline: hollow = memory-bound, filled = compute-bound"), fontsize=10)
    return ax
