"""An instruction window: what an out-of-order core adds to list scheduling.

A compiler's list scheduler (:mod:`.list_sched`) sees the whole block at once and picks, in every
cycle, the ready operation with the best priority. An out-of-order core does the same thing in
hardware (乱序：指令执行的顺序和二进制代码中的顺序不一定相同), with two differences: its priority is
age (the oldest ready operation first), and it sees only a *window* of the program at a time.
:class:`Window` is that window, as an option of the one list scheduler
(``list_schedule(graph, "original", window=Window(...))``), so that there is one scheduling loop
for the compiler and for the hardware:

* **dispatch**: operations enter the window in program ``order`` (the order of the binary), at
  most ``width`` per cycle, while the window has a free entry (at most ``size`` operations that
  have entered and not yet started: the reservation stations, or scheduler) and the reorder
  buffer has one (at most ``rob`` operations that have entered and not yet retired);
* **issue**: an operation may start ``delay`` cycles after it entered at the earliest (it is
  decoded and renamed on the way); the list scheduler then starts it when its operands are
  ready and its unit and an issue slot are free, oldest first;
* **retire** (commit): operations leave the reorder buffer in program order, at most
  ``retire_width`` per cycle, at the earliest the cycle after they finish (their result has been
  written).

Within a cycle the order is: retire, issue, dispatch (an entry freed by an operation that starts
or retires in a cycle takes a new operation in the same cycle, as the in-order pipeline's
decode stage takes the next instruction while the previous one moves on).

``in_order=True`` lets only the oldest operation that has not started start (then the next
oldest, in the same cycle if the issue width allows): an in-order pipeline. Each operation
then starts as early as the one before it, its operands, its unit and the issue width allow —
exactly :func:`~lecturekit.core.evaluate` of ``order``, on a machine of any issue width (the
tests check it, and that the cycle-by-cycle pipeline simulator agrees). On a single-issue
machine a window of one entry is the same thing. An unbounded window and reorder buffer with no
dispatch limit is plain list scheduling with the age priority.

``None`` for ``size``, ``width``, ``rob`` or ``retire_width`` means no limit. The cycles each
operation entered and retired are recorded (``dispatch``, ``retire``), with why dispatch waited
(``held``: cycle -> reason), and :func:`window_violations` checks them independently of the loop
that made them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ScheduleError
from ..language import _

#: why an operation could not enter the window in a cycle (``Window.held``)
FULL_WINDOW = "window"
FULL_ROB = "rob"
DISPATCH_WIDTH = "width"


def _limit(name: str, value, low: int = 1) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScheduleError(
            _("{name} must be a whole number >= {low} or None, got {value!r}").format(
                name=name, low=low, value=value
            )
        )
    return value


@dataclass
class Window:
    """The instruction window of an out-of-order core over a fixed ``order`` (module docstring).

    After the list scheduler has run, ``dispatch[i]`` and ``retire[i]`` hold the cycles operation
    ``i`` entered the window and retired, and ``held`` the reasons dispatch waited.
    """

    order: list[int]
    size: int | None = None
    width: int | None = None
    rob: int | None = None
    retire_width: int | None = None
    delay: int = 1
    in_order: bool = False
    dispatch: dict[int, int] = field(default_factory=dict)
    retire: dict[int, int] = field(default_factory=dict)
    held: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.size = _limit(_("window size"), self.size)
        self.width = _limit(_("dispatch width"), self.width)
        self.rob = _limit(_("reorder buffer size"), self.rob)
        self.retire_width = _limit(_("retire width"), self.retire_width)
        if isinstance(self.delay, bool) or not isinstance(self.delay, int) or self.delay < 1:
            raise ScheduleError(
                _(
                    "the delay from dispatch to issue must be a whole number >= 1, got {delay!r}"
                ).format(delay=self.delay)
            )
        self.order = list(self.order)

    # -- driven by the list scheduler --------------------------------------------------------
    def open(self, n: int, earliest: int) -> None:
        """Start a run over ``n`` operations whose first issue cycle is ``earliest``: check the
        order, forget an earlier run, and dispatch in the cycles before ``earliest``."""
        if sorted(self.order) != list(range(n)):
            raise ScheduleError(
                _("the window's order must list each operation 0..{last} once, got {order}").format(
                    last=n - 1,
                    order=self.order if len(self.order) <= 20 else str(self.order[:20]) + "...",
                )
            )
        self._n = n
        self._next = 0  # position in order of the next operation to dispatch
        self._oldest = 0  # position in order of the oldest operation not retired
        self._waiting: set[int] = set()  # dispatched, not started
        self._position = {i: k for k, i in enumerate(self.order)}
        self._unstarted = 0  # position in order of the oldest operation not started
        self._finish: dict[int, int] = {}
        self._cycle = earliest - 1
        self.dispatch, self.retire, self.held = {}, {}, {}
        for t in range(earliest - self.delay, earliest):
            self._dispatch(t)

    def begin(self, t: int) -> None:
        """Cycle ``t`` begins: retire what finished before it, in order."""
        self._cycle = t
        retired = 0
        while self._oldest < self._n:
            i = self.order[self._oldest]
            if i not in self._finish or self._finish[i] >= t:
                break
            if self.retire_width is not None and retired >= self.retire_width:
                break
            self.retire[i] = t
            self._oldest += 1
            retired += 1

    def eligible(self, i: int, t: int) -> bool:
        """Whether operation ``i`` is in the window and may start in cycle ``t``."""
        if i not in self._waiting or self.dispatch[i] + self.delay > t:
            return False
        return not self.in_order or self._position[i] == self._unstarted

    def started(self, i: int, t: int, finish: int) -> None:
        """Operation ``i`` starts in cycle ``t`` and finishes (writes its result) in ``finish``."""
        if i not in self._waiting:
            raise ScheduleError(_("operation {i} started without being in the window").format(i=i))
        self._waiting.discard(i)
        self._finish[i] = finish
        while self._unstarted < self._n and self.order[self._unstarted] in self._finish:
            self._unstarted += 1

    def end(self, t: int) -> None:
        """Cycle ``t`` ends: dispatch into the entries free now."""
        self._dispatch(t)

    def horizon(self, n: int, longest: int) -> int:
        """Extra cycles a run may take beyond a list schedule's (dispatch waiting for
        retirement): each operation at most its delay, its longest finish and one cycle."""
        return n * (self.delay + longest + 2)

    def _dispatch(self, t: int) -> None:
        entered = 0
        while self._next < self._n:
            if self.width is not None and entered >= self.width:
                self.held[t] = DISPATCH_WIDTH
                return
            if self.size is not None and len(self._waiting) >= self.size:
                self.held[t] = FULL_WINDOW
                return
            if self.rob is not None and self._next - self._oldest >= self.rob:
                self.held[t] = FULL_ROB
                return
            i = self.order[self._next]
            self.dispatch[i] = t
            self._waiting.add(i)
            self._next += 1
            entered += 1

    def finish_retirement(self, finish: list[int]) -> None:
        """After the last operation started: retire the rest (the list scheduler stops once
        everything has started)."""
        for i, f in enumerate(finish):
            self._finish[i] = f
        t = self._cycle + 1
        while self._oldest < self._n:
            self.begin(t)
            t += 1


def window_violations(window: Window, start: list[int], finish: list[int]) -> list[str]:
    """Every rule of the window the recorded cycles break (empty when they keep them all),
    checked from ``dispatch``, ``retire``, ``start`` and ``finish`` alone."""
    problems: list[str] = []
    order = window.order
    n = len(order)
    if sorted(window.dispatch) != list(range(n)) or sorted(window.retire) != list(range(n)):
        return [_("not every operation has a dispatch and a retire cycle")]
    for a, b in zip(order, order[1:], strict=False):
        if window.dispatch[b] < window.dispatch[a]:
            problems.append(
                _("operation {b} entered the window before {a}, which is older").format(b=b, a=a)
            )
        if window.retire[b] < window.retire[a]:
            problems.append(_("operation {b} retired before {a}, which is older").format(b=b, a=a))
    for i in range(n):
        if start[i] < window.dispatch[i] + window.delay:
            problems.append(
                _(
                    "operation {i} starts in cycle {start}, less than {delay} cycle(s) "
                    "after it entered the window (cycle {dispatch})"
                ).format(i=i, start=start[i], delay=window.delay, dispatch=window.dispatch[i])
            )
        if window.retire[i] <= finish[i]:
            problems.append(
                _(
                    "operation {i} retires in cycle {retire}, not after it finished (cycle "
                    "{finish})"
                ).format(i=i, retire=window.retire[i], finish=finish[i])
            )
    cycles = sorted(set(window.dispatch.values()) | set(window.retire.values()) | set(start))
    for t in range(cycles[0], cycles[-1] + 1) if cycles else ():
        entered = sum(1 for i in range(n) if window.dispatch[i] == t)
        left = sum(1 for i in range(n) if window.retire[i] == t)
        if window.width is not None and entered > window.width:
            problems.append(
                _("cycle {t}: {entered} operations entered, width {width}").format(
                    t=t, entered=entered, width=window.width
                )
            )
        if window.retire_width is not None and left > window.retire_width:
            problems.append(
                _("cycle {t}: {left} retired, retire width {retire_width}").format(
                    t=t, left=left, retire_width=window.retire_width
                )
            )
        # at the end of cycle t: entered by t and not started by t / not retired by t
        waiting = sum(1 for i in range(n) if window.dispatch[i] <= t < start[i])
        in_rob = sum(1 for i in range(n) if window.dispatch[i] <= t < window.retire[i])
        if window.size is not None and waiting > window.size:
            problems.append(
                _("cycle {t}: {waiting} operations wait in a window of {size}").format(
                    t=t, waiting=waiting, size=window.size
                )
            )
        if window.rob is not None and in_rob > window.rob:
            problems.append(
                _("cycle {t}: {in_rob} operations in a reorder buffer of {rob}").format(
                    t=t, in_rob=in_rob, rob=window.rob
                )
            )
    return problems


__all__ = ["DISPATCH_WIDTH", "FULL_ROB", "FULL_WINDOW", "Window", "window_violations"]
