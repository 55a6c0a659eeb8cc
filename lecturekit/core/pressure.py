"""Register pressure: how many values a schedule keeps alive at once (MaxLive), and a list
scheduler that keeps it within a register budget.

Scheduling pulls producers up and consumers down (chapter 04: cover the latency). Every value
then lives longer, and the values alive at the same moment must each sit in a register. When
more are alive than the machine has registers, some must be *spilled*: stored to memory and
loaded back, extra instructions and extra cycles (:mod:`lecturekit.target.regalloc` writes that
code). This module counts, on plain data, for any operations:

* a :class:`Value` is defined by one operation (``None``: it is live on entry, a live-in) and
  read by ``uses``; ``live_out`` keeps it alive to the end;
* its **live interval** over ``points`` (a position in the emitted order, or a start cycle) is
  ``[def, last use)``: it occupies a register from its definition up to the point its last
  reader reads it, which may write its own result into the same register. A live-in starts
  before every point; a live-out ends after every point; a value nobody reads still needs a
  register at its definition (one point);
* **MaxLive** is the most intervals containing one point: the registers the code needs without
  spilling (straight-line code: the intervals form an interval graph, whose chromatic number is
  its largest clique). For a **modulo schedule** (``ii``) every iteration has the same intervals
  shifted by II, so MaxLive is the most interval-cycles falling on one row ``t mod II`` of the
  kernel: the registers the kernel needs, if registers could rotate (modulo variable expansion
  needs more: ``ceil(length / II)`` copies per value, see :mod:`lecturekit.loops.codegen`).

:class:`RegisterBudget` is an option of the one list scheduler
(``list_schedule(graph, p, registers=RegisterBudget(values, 6))``): an operation that would
raise the number of live values above the budget waits while some operation that would not is
still to come (Goodman and Hsu's integrated prepass scheduling, ICS 1988, switches the same way
between scheduling for the pipeline and for the registers); when none is, it goes anyway and the
register allocator will have to spill.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ScheduleError
from ..language import _


@dataclass(frozen=True)
class Value:
    """A value: defined by operation ``definition`` (``None`` for a live-in), read by ``uses``,
    kept to the end when ``live_out``. ``name`` is for display (a register, ``t0@3``)."""

    name: str
    definition: int | None
    uses: tuple[int, ...] = ()
    live_out: bool = False


def live_intervals(
    values: Sequence[Value], points: Sequence[int], *, end: int | None = None
) -> list[tuple[int, int]]:
    """``[first, last)`` of every value over ``points`` (``points[i]``: where operation ``i``
    is: its position in the order or its start cycle). ``end`` is the point after the last
    operation (default: the largest point + 1); a live-in starts at the smallest point - 1."""
    if not points:
        return [(0, 0) for _value in values]
    low = min(points) - 1
    end = max(points) + 1 if end is None else end
    out = []
    for v in values:
        for i in ((v.definition,) if v.definition is not None else ()) + tuple(v.uses):
            if not 0 <= i < len(points):
                raise ScheduleError(
                    _("value {name} names operation {i}, which does not exist").format(
                        name=v.name, i=i
                    )
                )
        first = low if v.definition is None else points[v.definition]
        last = max((points[u] for u in v.uses), default=first)
        if v.live_out:
            last = end
        if last < first:
            raise ScheduleError(_("value {name} is read before it is defined").format(name=v.name))
        out.append((first, max(last, first + 1)))
    return out


def max_live(intervals: Sequence[tuple[int, int]], ii: int | None = None) -> int:
    """The most intervals ``[a, b)`` containing one point (``ii``: one row ``t mod ii``)."""
    if ii is not None:
        return max(live_per_row(intervals, ii), default=0)
    change: Counter = Counter()
    for a, b in intervals:
        change[a] += 1
        change[b] -= 1
    live = best = 0
    for t in sorted(change):
        live += change[t]
        best = max(best, live)
    return best


def live_per_row(intervals: Sequence[tuple[int, int]], ii: int) -> list[int]:
    """How many interval-cycles fall on each row ``t mod ii`` (the kernel's rows)."""
    if isinstance(ii, bool) or not isinstance(ii, int) or ii < 1:
        raise ScheduleError(_("ii must be a whole number >= 1, got {ii!r}").format(ii=ii))
    rows = [0] * ii
    for a, b in intervals:
        whole, part = divmod(b - a, ii)
        for r in range(ii):
            rows[r] += whole
        for t in range(a, a + part):
            rows[t % ii] += 1
    return rows


def live_at(intervals: Sequence[tuple[int, int]], point: int) -> int:
    """How many intervals contain ``point``."""
    return sum(1 for a, b in intervals if a <= point < b)


def assign_registers(intervals: Sequence[tuple[int, int]]) -> list[int]:
    """A register number (0, 1, ...) for every interval, no two overlapping ones sharing one:
    the left-edge algorithm (intervals by start, each takes the lowest register free at its
    start). It uses exactly :func:`max_live` registers: a second way to the same number."""
    order = sorted(range(len(intervals)), key=lambda k: (intervals[k][0], intervals[k][1], k))
    free_at: list[int] = []  # register -> the point it becomes free
    out = [0] * len(intervals)
    for k in order:
        a, b = intervals[k]
        reg = next((r for r, f in enumerate(free_at) if f <= a), None)
        if reg is None:
            reg = len(free_at)
            free_at.append(b)
        else:
            free_at[reg] = b
        out[k] = reg
    return out


class RegisterBudget:
    """A register budget for the list scheduler (module docstring): ``values`` over the graph's
    operations and ``limit`` registers. ``live`` is the number of values alive now; the
    scheduler asks :meth:`fits` before it places an operation and calls :meth:`place` after."""

    def __init__(self, values: Sequence[Value], limit: int):
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ScheduleError(
                _("a register budget is a whole number >= 1, got {limit!r}").format(limit=limit)
            )
        self.values = list(values)
        self.limit = limit
        self.peak = 0
        self.over: list[int] = []  # operations placed above the budget

    def open(self, n: int) -> None:
        for v in self.values:
            for i in ((v.definition,) if v.definition is not None else ()) + tuple(v.uses):
                if not 0 <= i < n:
                    raise ScheduleError(
                        _("value {name} names operation {i}, which does not exist").format(
                            name=v.name, i=i
                        )
                    )
        self._left = [len(set(v.uses)) for v in self.values]  # readers not placed yet
        self._alive = [v.definition is None and bool(v.uses or v.live_out) for v in self.values]
        self._defines: dict[int, list[int]] = {}
        self._reads: dict[int, list[int]] = {}
        for k, v in enumerate(self.values):
            if v.definition is not None:
                self._defines.setdefault(v.definition, []).append(k)
            for u in set(v.uses):
                self._reads.setdefault(u, []).append(k)
        self.live = sum(self._alive)
        self.peak = sum(1 for v in self.values if v.definition is None)
        self.over = []

    def delta(self, i: int) -> int:
        """How many more values are live at operation ``i``'s point than now, if it is placed
        next: the values it defines (one it never reads still needs a register there) minus
        those it reads last."""
        born = len(self._defines.get(i, ()))
        dies = sum(
            1
            for k in self._reads.get(i, ())
            if self._alive[k] and self._left[k] == 1 and not self.values[k].live_out
        )
        return born - dies

    def fits(self, i: int) -> bool:
        """Whether placing ``i`` next keeps the live values within the budget (or at least does
        not raise them)."""
        d = self.delta(i)
        return d <= 0 or self.live + d <= self.limit

    def place(self, i: int) -> None:
        d = self.delta(i)
        if d > 0 and self.live + d > self.limit:
            self.over.append(i)
        self.peak = max(self.peak, self.live + d)
        for k in self._reads.get(i, ()):
            self._left[k] -= 1
            if self._left[k] == 0 and not self.values[k].live_out:
                self._alive[k] = False
        for k in self._defines.get(i, ()):
            v = self.values[k]
            self._alive[k] = bool(v.uses or v.live_out)
        self.live = sum(self._alive)


__all__ = [
    "RegisterBudget",
    "Value",
    "assign_registers",
    "live_at",
    "live_intervals",
    "live_per_row",
    "max_live",
]
