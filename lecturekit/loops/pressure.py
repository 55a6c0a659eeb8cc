"""Register pressure of a software-pipelined loop: the kernel's MaxLive, and what modulo
variable expansion spends on top of it.

In the kernel, iteration ``i`` runs beside iterations ``i-1, i-2, ...``: a value whose lifetime
(:func:`lecturekit.loops.codegen.lifetimes`: from its definition's issue to its last reader's,
a reader in the next iteration ``II`` later) is longer than II is alive in two iterations at
once. The registers the kernel needs at a moment are the values live then, of every iteration
in flight: **MaxLive** is the most, over the kernel's II rows
(:func:`lecturekit.core.pressure.max_live` with ``ii``), plus the loop invariants (registers the
body reads and never writes, alive all along). It is the fewest registers any allocation of the
kernel can use (Rau, Lee, Tirumalai and Schlansker, *Register allocation for software pipelined
loops*, PLDI 1992). Modulo variable expansion (Lam 1988; :mod:`lecturekit.loops.codegen`) gives
each value ``ceil(lifetime / II)`` registers of its own and unrolls the kernel to name them, so
it may use more: ``mve_registers``. Rotating registers (IA-64) reach MaxLive without unrolling.

:func:`flat_max_live` counts a second way: it lays out many iterations, each one II after the
last, and counts the live values in the steady state, cycle by cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.pressure import live_per_row, max_live


@dataclass
class KernelPressure:
    """``rows``: live loop-variant values on each kernel row; ``invariants``: registers the
    body reads and never writes; ``max_live``: ``max(rows) + len(invariants)``; ``average``:
    the lifetimes' total over II (no allocation does better than its ceiling); ``mve_registers``:
    the registers modulo variable expansion gives the values (plus the invariants);
    ``intervals``: each value's ``[start, end)`` in iteration 0."""

    ii: int
    rows: list[int]
    invariants: list[str]
    max_live: int
    average: float
    mve_registers: int
    intervals: list[tuple[int, int]]


def _intervals(result) -> list[tuple[int, int]]:
    return [(lt.start, max(lt.end, lt.start + 1)) for lt in result.lifetimes]


def kernel_pressure(result) -> KernelPressure:
    """The register pressure of a :class:`~lecturekit.loops.modulo.ModuloResult`."""
    intervals = _intervals(result)
    rows = live_per_row(intervals, result.ii)
    body = result.loop.body
    written = {r for ins in body for r in ins.writes()}
    invariants = sorted({r for ins in body for r in ins.reads()} - written)
    total = sum(b - a for a, b in intervals)
    return KernelPressure(
        ii=result.ii,
        rows=rows,
        invariants=invariants,
        max_live=max(rows, default=0) + len(invariants),
        average=total / result.ii,
        mve_registers=sum(len(lt.names) for lt in result.lifetimes) + len(invariants),
        intervals=intervals,
    )


def flat_max_live(result, iterations: int | None = None) -> int:
    """MaxLive counted on ``iterations`` iterations laid out one II apart (default: enough for
    a long steady state), over the cycles where every stage is busy: the loop-variant values
    only (add the invariants for the registers)."""
    ii = result.ii
    intervals = _intervals(result)
    span = max((b for _, b in intervals), default=0) - min((a for a, _ in intervals), default=0)
    depth = span // ii + 2
    iterations = iterations or 3 * depth + 4
    flat = [(a + i * ii, b + i * ii) for i in range(iterations) for a, b in intervals]
    first = min(a for a, _ in intervals) + depth * ii
    last = min(a for a, _ in intervals) + (iterations - depth) * ii
    window = [(max(a, first), min(b, last)) for a, b in flat if a < last and b > first]
    return max_live(window)


__all__ = ["KernelPressure", "flat_max_live", "kernel_pressure"]
