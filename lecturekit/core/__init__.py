"""The scheduling core shared by instruction scheduling and pipeline-parallel training.

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
    "PRIORITIES": "list_sched",
    "list_schedule": "list_sched",
    "list_schedule_trace": "list_sched",
    "optimal_schedule": "optimal",
    "optimal_search": "optimal",
    "count_topological_orders": "search_space",
    "length_histogram": "search_space",
}
_LAZY_MODULES = ("list_sched", "optimal", "search_space")


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
