"""The one verifier: every schedule any algorithm returns goes through :func:`verify`.

A schedule is legal iff every edge's latency is met (``latency - ii * distance`` in a loop) and
no cycle (no row of the modulo reservation table, in a loop) exceeds the issue width or a unit's
capacity.
"""

from __future__ import annotations

from collections import Counter

from ..errors import ScheduleError
from .graph import Graph
from .schedule import Schedule


def violations(graph: Graph, start: list[int] | Schedule, ii: int | None = None) -> list[str]:
    """Every rule ``start`` breaks, as readable sentences (empty when legal)."""
    if isinstance(start, Schedule):
        ii = start.ii if ii is None else ii
        start = start.start
    problems: list[str] = []
    n = len(graph.ops)
    if len(start) != n:
        return [f"the schedule gives {len(start)} start cycles for {n} operations"]
    for i, s in enumerate(start):
        if not isinstance(s, int) or isinstance(s, bool):
            problems.append(f"{graph.label(i)} starts at {s!r}, not a whole cycle")
        elif s < graph.earliest and ii is None:
            problems.append(f"{graph.label(i)} starts at cycle {s}, before cycle {graph.earliest}")
    if problems:
        return problems
    if ii is not None and ii < 1:
        return [f"initiation interval must be at least 1, got {ii}"]
    for e in graph.edges:
        if e.distance and ii is None:
            problems.append(
                f"edge {graph.label(e.src)}->{graph.label(e.dst)} crosses iterations "
                f"(distance {e.distance}) but no initiation interval was given"
            )
            continue
        need = e.latency - (ii or 0) * e.distance
        if start[e.dst] - start[e.src] < need:
            via = f" on {e.on}" if e.on else ""
            lag = f" - {ii}×{e.distance}" if e.distance else ""
            problems.append(
                f"{e.kind}{via}: {graph.label(e.dst)} starts at {start[e.dst]} but must wait "
                f"{e.latency}{lag} cycle(s) after {graph.label(e.src)} (cycle {start[e.src]})"
            )

    def slot(t: int) -> int:
        return t % ii if ii else t

    where = "row" if ii else "cycle"
    if graph.issue_width is not None:
        per_cycle = Counter(slot(s) for s in start)
        for t, count in sorted(per_cycle.items()):
            if count > graph.issue_width:
                who = ", ".join(graph.label(i) for i in range(n) if slot(start[i]) == t)
                problems.append(
                    f"{where} {t}: {count} operations start ({who}) but the issue width is "
                    f"{graph.issue_width}"
                )
    busy = (  # (unit, cycle) for every cycle every operation holds a unit
        (r.unit, c)
        for i, op in enumerate(graph.ops)
        for r in op.reservations
        for c in range(start[i] + r.offset, start[i] + r.offset + r.cycles)
    )
    use = Counter(((u, c % ii) for u, c in busy) if ii else busy)
    over = sorted(key for key, count in use.items() if count > graph.units[key[0]])
    if over:  # name the operations only where a unit is over its capacity
        users: dict = {key: [] for key in over}
        for i, op in enumerate(graph.ops):
            for r in op.reservations:
                for c in range(start[i] + r.offset, start[i] + r.offset + r.cycles):
                    if (r.unit, slot(c)) in users:
                        users[(r.unit, slot(c))].append(graph.label(i))
        for unit, t in over:
            problems.append(
                f"{where} {t}: unit {unit} is used by {use[(unit, t)]} operations "
                f"({', '.join(users[(unit, t)])}) but has {graph.units[unit]}"
            )
    return problems


def is_legal(graph: Graph, start: list[int] | Schedule, ii: int | None = None) -> bool:
    return not violations(graph, start, ii)


def verify(graph: Graph, schedule: list[int] | Schedule, ii: int | None = None) -> Schedule | list:
    """Return ``schedule`` if legal; otherwise raise ScheduleError listing every problem."""
    problems = violations(graph, schedule, ii)
    if problems:
        raise ScheduleError("illegal schedule:\n  " + "\n  ".join(problems))
    return schedule
