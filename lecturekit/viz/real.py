"""Drawings of lecturekit next to a real core's model (:mod:`lecturekit.target.real`): each
instruction's issue-to-result bar as lecturekit simulates it and as llvm-mca reports it.

Nothing is recomputed: every bar comes from the :class:`~lecturekit.target.real.Comparison`'s
rows.
"""

from __future__ import annotations

from ..language import _
from .fonts import figure


@figure
def draw_comparison(c, ax=None, title: str | None = None):
    """Each instruction's issue-to-result bar in lecturekit (top) and llvm-mca (below it), for a
    :class:`~lecturekit.target.real.Comparison` ``c``; ``title`` replaces the default one."""
    import matplotlib.pyplot as plt

    rows = c.rows()
    if ax is None:
        _unused, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.2))
    for r in rows:
        y = r["index"]
        ax.barh(y - 0.18, r["lk_done"] - r["lk_issue"], left=r["lk_issue"], height=0.34,
                color="#4c72b0", label="lecturekit" if y == 0 else None)  # fmt: skip
        ax.barh(y + 0.18, r["mca_done"] - r["mca_issue"], left=r["mca_issue"], height=0.34,
                color="#dd8452", label="llvm-mca" if y == 0 else None)  # fmt: skip
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"I{r['index'] + 1} {r['text']}" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(_("cycle (issue → result ready)"))
    lk, mca = c.cycles
    ax.set_title(
        title
        or _("{preset}: lecturekit {lk} cycles, llvm-mca {mca}").format(
            preset=c.preset, lk=lk, mca=mca
        ),
        fontsize=9,
    )
    ax.legend(loc="upper right", fontsize=8)
    return ax


__all__ = ["draw_comparison"]
