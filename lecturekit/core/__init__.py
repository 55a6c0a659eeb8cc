"""The scheduling core shared by instruction scheduling and pipeline-parallel training."""

from .evaluate import Wait, evaluate
from .graph import Edge, Graph, Operation, Reservation
from .schedule import Schedule
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
]
