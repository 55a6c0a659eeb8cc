"""The scheduling core shared by instruction scheduling and pipeline-parallel training.

* :mod:`~lecturekit.core.graph` -- :class:`Graph`: operations, the units they hold, latency
  edges (with an iteration distance in loops); :mod:`~lecturekit.core.schedule` -- a start per
  operation;
* :mod:`~lecturekit.core.verify` -- the one verifier every schedule passes;
* :mod:`~lecturekit.core.evaluate` -- a fixed order (or one per stream, per GPU) placed on the
  resources as in-order hardware would;
* :mod:`~lecturekit.core.bounds` -- heights, earliest and latest starts, lower bounds;
* :mod:`~lecturekit.core.priorities` and :mod:`~lecturekit.core.list_sched` -- list scheduling
  and its heuristics; :mod:`~lecturekit.core.optimal` -- the optimal search;
  :mod:`~lecturekit.core.search_space` -- counting and enumerating orders;
* :mod:`~lecturekit.core.window` -- an instruction window for the list scheduler (the
  out-of-order core); :mod:`~lecturekit.core.pressure` -- register pressure (MaxLive) and a
  register budget for the list scheduler; :mod:`~lecturekit.core.polynomial` -- the polynomial
  cases (Hu, Coffman–Graham) and task graphs.

The core knows nothing of instructions or of training: :mod:`lecturekit.target` and
:mod:`lecturekit.llm` build graphs for it.

The graph, the evaluator, the verifier and the bounds load with the package; the schedulers
(list scheduling, the optimal search, counting orders) load when one of their names is first
used, so a command that only simulates or evaluates an order does not pay for them.
"""

from importlib import import_module

from .bounds import bounds, lower_bound
from .evaluate import Wait, evaluate
from .graph import Edge, Graph, Operation, Reservation
from .schedule import Schedule
from .verify import is_legal, verify, violations

#: names loaded on first use, and the module each comes from
_LAZY = {
    "PRIORITIES": "priorities",
    "list_schedule": "list_sched",
    "list_schedule_trace": "list_sched",
    "optimal_schedule": "optimal",
    "optimal_search": "optimal",
    "count_topological_orders": "search_space",
    "length_histogram": "search_space",
}
_LAZY_MODULES = ("list_sched", "optimal", "priorities", "search_space")


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    if name in _LAZY_MODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))


__all__ = [
    "Edge",
    "Graph",
    "Operation",
    "Reservation",
    "Schedule",
    "Wait",
    "evaluate",
    "is_legal",
    "verify",
    "violations",
    "PRIORITIES",
    "bounds",
    "count_topological_orders",
    "length_histogram",
    "list_schedule",
    "list_schedule_trace",
    "lower_bound",
    "optimal_schedule",
    "optimal_search",
]
