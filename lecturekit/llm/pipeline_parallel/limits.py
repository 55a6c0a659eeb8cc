"""Limits and argument checks shared by the pipeline-schedule modules: the largest graph and
the longest pass accepted, an integer check with a clear message, and pausing Python's cyclic
garbage collector while a large schedule is built."""

from __future__ import annotations

import gc
from functools import wraps

from ...errors import ScheduleError
from ...language import _

#: a bound against runaway input only: the evaluator and the figures are O(n log n) in the number
#: of passes (p = 32, m = 256 with a split backward is 24,576 passes, seconds); a million would
#: take minutes
MAX_OPS = 100_000
#: and it walks time unit by time unit; keep durations modest
MAX_DURATION = 1000


def collector_paused(func):
    """Run ``func`` with Python's cyclic garbage collector paused (when it was running): a
    schedule of p = 32, m = 256 creates a few hundred thousand objects at once, none of them
    garbage, and the collector would walk them over and over while they are made (about a
    third of the time). It runs again afterwards, also when ``func`` raises."""

    @wraps(func)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return paused


def bounded_int(name: str, value, low: int, high: int | None = None) -> int:
    """``value`` when it is an integer (not a bool) from ``low`` to ``high``; otherwise a
    :class:`ScheduleError` that names ``name`` and says what was expected."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScheduleError(
            _("{name}: must be an integer, got {value!r}").format(name=name, value=value)
        )
    if value < low or (high is not None and value > high):
        rng = (
            f">= {low}"
            if high is None
            else _("between {low} and {high}").format(low=low, high=high)
        )
        raise ScheduleError(
            _("{name}: must be {rng}, got {value}").format(name=name, rng=rng, value=value)
        )
    return value
