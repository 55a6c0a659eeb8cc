"""A schedule: the cycle each operation starts in, and the figures derived from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

from .graph import Graph


@dataclass
class Schedule:
    """Start cycles for every operation of ``graph``.

    ``order`` is the issue order (by start cycle; ties keep the order the algorithm gave).
    ``ii`` is set for a modulo schedule (iterations start every ``ii`` cycles). ``info`` carries
    algorithm-specific figures: ``lower_bound``, ``proven_optimal``, ``nodes``, ``seconds``, ...
    ``reasons`` (optional) says, per operation, what set its start cycle. An algorithm may give
    them as a function (:meth:`explain_by`) that writes them when they are first read: most
    schedules are made to be measured (a search or a heuristic makes thousands), and writing
    their text would cost more than making them.
    """

    graph: Graph
    start: list[int]
    algorithm: str = ""
    order: list[int] = field(default_factory=list)
    ii: int | None = None
    info: dict[str, Any] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.order:
            self.order = sorted(range(len(self.start)), key=lambda i: (self.start[i], i))

    def explain_by(self, explain: Callable[[], list[str]]) -> None:
        """Give :attr:`reasons` as ``explain()``, called when they are first read (in the
        language spoken then)."""
        self._explain = explain
        self.__dict__.pop("reasons", None)

    def __getattr__(self, name: str) -> Any:
        # only for attributes not found: ``reasons`` given by explain_by, written on first read
        if name == "reasons" and "_explain" in self.__dict__:
            self.reasons = self.__dict__.pop("_explain")()
            return self.reasons
        raise AttributeError(name)

    @property
    def finish(self) -> list[int]:
        return [self.graph.finish_of(i, s) for i, s in enumerate(self.start)]

    @property
    def length(self) -> int:
        """The cycle in which the last operation finishes (cycles count from 1)."""
        return max(self.finish, default=0)

    @property
    def makespan(self) -> int:
        """Cycles from the first start to the last finish, inclusive."""
        if not self.start:
            return 0
        return self.length - min(self.start) + 1

    def to_dict(self) -> dict[str, Any]:
        d = {
            "algorithm": self.algorithm,
            "order": list(self.order),
            "issue": list(self.start),
            "finish": list(self.finish),
            "cycles": self.length,
        }
        if self.ii is not None:
            d["ii"] = self.ii
        for key, value in self.info.items():
            d[key] = _plain(value)
        return d


def _plain(value: Any) -> Any:
    """Dataclasses (e.g. evaluate's Wait records) as dicts, so to_dict() is JSON-ready."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
