"""The one verifier: every schedule any algorithm returns goes through :func:`verify`.

A schedule is legal iff every edge's latency is met (``latency - ii * distance`` in a loop) and
no cycle (no row of the modulo reservation table, in a loop) exceeds the issue width or a unit's
capacity.
"""

from __future__ import annotations

from collections import Counter

from ..errors import ScheduleError
from ..language import _
from .graph import Graph
from .schedule import Schedule


def violations(
    graph: Graph, start: list[int] | Schedule, ii: int | None = None, *, kinds: bool = False
) -> list:
    """Every rule ``start`` breaks, as readable sentences (empty when legal). With ``kinds``:
    ``(kind, sentence)`` pairs, the kind being what code may test (the sentence is in the
    language spoken): ``"starts"`` (the start list itself is wrong), ``"ii"``, ``"dependence"``
    (an edge's latency is not met), ``"issue"`` (too many starts in a cycle or row), ``"unit"``
    (a unit over its capacity)."""
    found = _violations(graph, start, ii)
    return found if kinds else [text for _kind, text in found]


def _violations(graph: Graph, start, ii) -> list[tuple[str, str]]:
    if isinstance(start, Schedule):
        ii = start.ii if ii is None else ii
        start = start.start
    problems: list[tuple[str, str]] = []
    n = len(graph.ops)
    if len(start) != n:
        return [
            (
                "starts",
                _("the schedule gives {n_start} start cycles for {n} operations").format(
                    n_start=len(start), n=n
                ),
            )
        ]
    for i, s in enumerate(start):
        if not isinstance(s, int) or isinstance(s, bool):
            problems.append(
                (
                    "starts",
                    _("{label} starts at {s!r}, not a whole cycle").format(
                        label=graph.label(i), s=s
                    ),
                )
            )
        elif s < graph.earliest and ii is None:
            problems.append(
                (
                    "starts",
                    _("{label} starts at cycle {s}, before cycle {earliest}").format(
                        label=graph.label(i), s=s, earliest=graph.earliest
                    ),
                )
            )
    if problems:
        return problems
    if ii is not None and ii < 1:
        return [("ii", _("initiation interval must be at least 1, got {ii}").format(ii=ii))]
    for e in graph.edges:
        if e.distance and ii is None:
            problems.append(
                (
                    "dependence",
                    _(
                        "edge {src}->{dst} crosses iterations (distance {distance}) but "
                        "no initiation interval was given"
                    ).format(src=graph.label(e.src), dst=graph.label(e.dst), distance=e.distance),
                )
            )
            continue
        need = e.latency - (ii or 0) * e.distance
        if start[e.dst] - start[e.src] < need:
            lag = f" - {ii}×{e.distance}" if e.distance else ""
            problems.append(
                (
                    "dependence",
                    _(
                        "{dependence}: {dst} starts at {start} but must wait {latency}{lag} "
                        "cycle(s) after {src} (cycle {src_start})"
                    ).format(
                        dependence=e.describe(),
                        dst=graph.label(e.dst),
                        start=start[e.dst],
                        latency=e.latency,
                        lag=lag,
                        src=graph.label(e.src),
                        src_start=start[e.src],
                    ),
                )
            )

    def slot(t: int) -> int:
        return t % ii if ii else t

    def where(t: int) -> str:
        return _("row {t}").format(t=t) if ii else _("cycle {t}").format(t=t)

    if graph.issue_width is not None:
        per_cycle = Counter(slot(s) for s in start)
        for t, count in sorted(per_cycle.items()):
            if count > graph.issue_width:
                who = ", ".join(graph.label(i) for i in range(n) if slot(start[i]) == t)
                problems.append(
                    (
                        "issue",
                        _(
                            "{where}: {count} operations start ({who}) but the issue width is "
                            "{issue_width}"
                        ).format(
                            where=where(t), count=count, who=who, issue_width=graph.issue_width
                        ),
                    )
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
                (
                    "unit",
                    _(
                        "{where}: unit {unit} is used by {use} operations ({users}) but has "
                        "{capacity}"
                    ).format(
                        where=where(t),
                        unit=unit,
                        use=use[(unit, t)],
                        users=", ".join(users[(unit, t)]),
                        capacity=graph.units[unit],
                    ),
                )
            )
    return problems


def is_legal(graph: Graph, start: list[int] | Schedule, ii: int | None = None) -> bool:
    return not violations(graph, start, ii)


def verify(graph: Graph, schedule: list[int] | Schedule, ii: int | None = None) -> Schedule | list:
    """Return ``schedule`` if legal; otherwise raise ScheduleError listing every problem."""
    problems = violations(graph, schedule, ii)
    if problems:
        raise ScheduleError(_("illegal schedule:") + "\n  " + "\n  ".join(problems))
    return schedule
