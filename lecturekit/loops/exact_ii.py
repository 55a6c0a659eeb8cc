"""Whether a loop can be modulo-scheduled at a given II: an exact answer (a schedule, or a proof
that none exists), for the IIs the heuristics (iterative and swing modulo scheduling) leave open.

MII is only a lower bound: a loop may need more, and a heuristic may miss an II that works. To
know the smallest II we decide each candidate exactly. A modulo schedule at II puts operation
``k`` in **row** ``r_k = start_k mod II`` of the modulo reservation table and **stage**
``s_k = start_k // II``. The rows alone decide the resources (every unit and the issue slots
per row); given the rows, the dependences ``start_d - start_s >= latency - II * distance``
become constraints on the stages alone,

    s_d - s_s >= ceil((latency - II * distance - r_d + r_s) / II),

a system of difference constraints, which has an integer solution exactly when its graph has no
cycle of positive weight (Bellman and Ford; the stages are then the longest paths). So the
search enumerates rows, operation by operation, and keeps the longest paths between all
operations up to date: an edge with an unplaced end counts with the smallest weight any row of
that end could give it, so a positive cycle among those optimistic weights already proves that
no completion works, and the branch is cut. Rows that would overfill the table are never tried.
Adding a constant to every start changes no constraint, so the first operation's row is fixed
to 0.

The search is exponential in the worst case: it has a deadline (:class:`~.mii._OutOfTime`), and
callers treat a timeout as "not decided". Two variable orders run in turn with a growing node
budget (restarts), since each is fast on loops where the other is slow.
"""

from __future__ import annotations

from ..core.graph import Graph
from ..core.verify import verify
from .mii import ISSUE, _clock, _OutOfTime

NEG = float("-inf")
#: the first node budget of each order; it grows fourfold on every round of restarts
RESTART_NODES = 2000


class _Restart(Exception):
    pass


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class _RowSearch:
    def __init__(self, graph: Graph, ii: int, deadline: float | None):
        self.g, self.ii, self.deadline = graph, ii, deadline
        self.n = n = len(graph.ops)
        # every cell an operation in row 0 takes: (resource, row offset)
        self.cells = []
        for op in graph.ops:
            cells = [(ISSUE, 0)] if graph.issue_width is not None else []
            cells += [(r.unit, r.offset + c) for r in op.reservations for c in range(r.cycles)]
            self.cells.append(cells)
        self.capacity = dict(graph.units)
        if graph.issue_width is not None:
            self.capacity[ISSUE] = graph.issue_width
        self.edges = [(e.src, e.dst, e.latency - ii * e.distance) for e in graph.edges]
        self.edges_dist = [e.distance for e in graph.edges]
        self.incident: list[list[int]] = [[] for _ in range(n)]
        for k, (s, d, _c) in enumerate(self.edges):
            self.incident[s].append(k)
            if d != s:
                self.incident[d].append(k)
        self.row: list[int | None] = [None] * n
        self.used: dict[tuple[str, int], int] = {}
        self.nodes = 0

    def weight(self, k: int) -> int:
        """The edge's weight on the stages, or its smallest over the rows of an unplaced end."""
        s, d, c = self.edges[k]
        ii = self.ii
        rs, rd = self.row[s], self.row[d]
        if s == d:
            return _ceil_div(c, ii)
        low_s = rs if rs is not None else 0
        high_d = rd if rd is not None else ii - 1
        return _ceil_div(c - high_d + low_s, ii)

    def closure(self) -> list[list[float]] | None:
        """Longest paths between all operations under the current weights (None: a positive
        cycle)."""
        n = self.n
        dist = [[NEG] * n for _ in range(n)]
        for i in range(n):
            dist[i][i] = 0
        for k in range(len(self.edges)):
            s, d, _ = self.edges[k]
            w = self.weight(k)
            if w > dist[s][d]:
                dist[s][d] = w
        for m in range(n):
            dm = dist[m]
            for i in range(n):
                dim = dist[i][m]
                if dim == NEG:
                    continue
                di = dist[i]
                for j in range(n):
                    v = dim + dm[j]
                    if v > di[j]:
                        di[j] = v
        if any(dist[i][i] > 0 for i in range(n)):
            return None
        return dist

    @staticmethod
    def raise_edge(dist: list[list[float]], s: int, d: int, w: int) -> bool:
        """Longest paths after edge s -> d's weight rose to ``w``; False on a positive cycle."""
        if w <= dist[s][d]:
            return True
        n = len(dist)
        into = [dist[i][s] for i in range(n)]
        out = dist[d]
        if into[d] != NEG and into[d] + w > 0:  # d ... s -> d closes a positive cycle
            return False
        out = list(out)
        for i in range(n):
            a = into[i]
            if a == NEG:
                continue
            di = dist[i]
            base = a + w
            for j in range(n):
                b = out[j]
                if b != NEG and base + b > di[j]:
                    di[j] = base + b
        return True

    def fits(self, j: int, r: int) -> bool:
        ii = self.ii
        need: dict[tuple[str, int], int] = {}
        for res, off in self.cells[j]:
            key = (res, (r + off) % ii)
            need[key] = need.get(key, 0) + 1
        return all(self.used.get(key, 0) + k <= self.capacity[key[0]] for key, k in need.items())

    def take(self, j: int, r: int, sign: int) -> None:
        ii = self.ii
        for res, off in self.cells[j]:
            key = (res, (r + off) % ii)
            self.used[key] = self.used.get(key, 0) + sign
            self.left[res] -= sign

    def room(self) -> bool:
        """Every resource still has as many free cells as the unplaced operations need."""
        free: dict[str, int] = {}
        for (res, _row), k in self.used.items():
            free[res] = free.get(res, 0) + k
        return all(
            self.left[res] <= self.capacity[res] * self.ii - free.get(res, 0) for res in self.left
        )

    def solve(self) -> list[int] | None:
        total: dict[str, int] = {}
        for cells in self.cells:
            for res, _ in cells:
                total[res] = total.get(res, 0) + 1
        if any(k > self.capacity[res] * self.ii for res, k in total.items()):
            return None  # below ResMII: the table cannot hold one iteration
        dist = self.closure()
        if dist is None:
            return None
        # two orders, restarted with a growing node budget until one finishes (a portfolio: each
        # is fast on loops where the other is slow; either one's "no schedule" is a proof):
        # the iterative scheduler's (height at this II first), rows from the one the placed
        # predecessors' results arrive in; and the most constrained first, rows in order
        from .mii import modulo_heights

        height = modulo_heights(self.g, self.ii)
        constrained = [(-len(self.incident[j]), -len(self.cells[j])) for j in range(self.n)]
        strategies = (
            (sorted(range(self.n), key=lambda j: (-height[j], j)), True),
            (sorted(range(self.n), key=constrained.__getitem__), False),
        )
        budget = RESTART_NODES
        while True:
            for order, follow in strategies:
                self.row = [None] * self.n
                self.used = {}
                self.left = {res: 0 for res in self.capacity}  # cells still to place
                for cells in self.cells:
                    for res, _ in cells:
                        self.left[res] += 1
                self.follow, self.budget = follow, self.nodes + budget
                try:
                    rows = self._search(order, 0, dist)
                except _Restart:
                    continue
                break
            else:
                budget *= 4
                continue
            break
        if rows is None:
            return None
        for j, r in enumerate(rows):
            self.row[j] = r
        dist = self.closure()
        assert dist is not None
        # longest path from a virtual source: stages as small as the constraints allow
        stage = [int(max(dist[i][j] for i in range(self.n))) for j in range(self.n)]
        low = min(stage)
        return [rows[j] + self.ii * (stage[j] - low) for j in range(self.n)]

    def _search(self, order: list[int], depth: int, dist) -> list[int] | None:
        if depth == len(order):
            return [int(r) for r in self.row]  # type: ignore[arg-type]
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Restart
        if self.deadline is not None and self.nodes % 64 == 0 and _clock() > self.deadline:
            raise _OutOfTime
        j = order[depth]
        ii = self.ii
        if depth == 0:
            rows = [0]
        elif not self.follow:
            rows = range(ii)
        else:  # from the row its placed predecessors' results arrive in, then the next ones
            arrive = [
                self.row[s] + c + ii * self.edges_dist[k]
                for k in self.incident[j]
                for s, d, c in (self.edges[k],)
                if d == j and s != j and self.row[s] is not None
            ]
            first = max(arrive, default=0) % ii
            rows = [(first + k) % ii for k in range(ii)]
        for r in rows:
            if not self.fits(j, r):
                continue
            self.row[j] = r
            new = [list(x) for x in dist]
            ok = True
            for k in self.incident[j]:
                s, d, _ = self.edges[k]
                if s == d:
                    if self.weight(k) > 0:
                        ok = False
                        break
                    continue
                if not self.raise_edge(new, s, d, self.weight(k)):
                    ok = False
                    break
            if ok:
                self.take(j, r, +1)
                found = self._search(order, depth + 1, new) if self.room() else None
                self.take(j, r, -1)
                if found is not None:
                    return found
            self.row[j] = None
        return None


def modulo_schedule_at(graph: Graph, ii: int, *, deadline: float | None = None):
    """A legal modulo schedule of ``graph`` at ``ii`` (start cycles from 0, verified), or
    ``None`` when there is none (proven). Raises :class:`~.mii._OutOfTime` past ``deadline``.
    ``info``-like figures: the number of search nodes is returned as the second value."""
    search = _RowSearch(graph, ii, deadline)
    start = search.solve()
    if start is not None:
        verify(graph, start, ii=ii)
    return start, search.nodes


__all__ = ["modulo_schedule_at"]
