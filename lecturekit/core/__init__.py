"""The scheduling core shared by instruction scheduling and pipeline-parallel training."""

from .bounds import bounds, lower_bound
from .evaluate import Wait, evaluate
from .graph import Edge, Graph, Operation, Reservation
from .list_sched import PRIORITIES, list_schedule, list_schedule_trace
from .optimal import optimal_schedule, optimal_search
from .schedule import Schedule
from .search_space import count_topological_orders, length_histogram
from .verify import is_legal, verify, violations

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
