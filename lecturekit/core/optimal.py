"""Exhaustive optimal scheduling by branch and bound (指令调度的空间).

"寻找最快的指令时间表是众所周知的 NP 难题": finding the fastest schedule is NP-hard, so in
general nothing much better than searching is known. For a basic block of a few dozen instructions
a well-pruned search still finishes quickly, and it tells how good the heuristics are.

What "optimal" means here
-------------------------
The optimum is the shortest schedule of issue cycles that :func:`~lecturekit.core.verify`
accepts: every latency met, never more than the issue width or a unit's capacity per cycle.
The search walks through *instruction orders* and places each order in order, as early as
possible, the way in-order hardware does (:func:`~lecturekit.core.evaluate`). That searches
the right space because of two facts:

* every order placed this way is a legal schedule, so the best order is no shorter than the
  optimum over issue cycles;
* take any legal schedule and sort it by issue cycle. Placing that order in order puts every
  instruction no later than the schedule did. (By induction: its planned cycle is still free of
  dependences, issue slots and unit conflicts, because everything before it moved earlier or
  stayed put, and a unit reservation that moves earlier only frees later cycles.) So some order
  is as good as the optimum.

Hence on the machines lecturekit builds (each operation holds a unit for one interval starting a
fixed number of cycles after issue: ``Machine.reservation``) the best order *is* the optimum over
issue cycles, and the schedule returned is both: a verified schedule and an order a compiler can
emit for in-order hardware. The tests check this against an independent brute force over issue
cycles. For a general :class:`Graph` whose reservations on one unit start at different offsets,
the search is still exact over in-order placements (``info["exact_over_issue_cycles"]`` is then
``False`` and the dominance rule below is switched off).

Searching orders rather than issue cycles also keeps the tree small. A cycle-by-cycle search
must consider leaving a cycle idle on purpose, because sometimes the best schedule waits. In-order
placement waits only when it has to.

The search
----------
Depth-first over order prefixes. Children (the operations whose predecessors are all placed) are
tried earliest placement first, then by height. The first incumbent is the best list schedule.

* **Bounds.** A prefix is cut off when a lower bound on every completion is no better than the
  incumbent. The bound of a prefix is the largest of: the latest finish so far; the critical path
  of what is left, each operation released no earlier than the last issue cycle; and the Rim–Jain
  relaxed resource bounds of what is left (issue slots and each unit, counting the slots the
  prefix already occupies). See :mod:`lecturekit.core.bounds`. The search stops at once when the
  incumbent meets the lower bound of the whole block.
* **History domination.** Two prefixes that placed the same set of operations are compared. One
  dominates the other when it is no later in every respect that matters for the rest of the
  block: the next free issue cycle, the cycle each remaining operation's operands arrive, the
  latest finish so far, and the slots still occupied in every later cycle. The dominated one is
  cut off: any completion of it does at least as well from the dominating prefix. This is the
  "history domination" of OptSched (Shobaki et al.).
* **Time limit.** After ``time_limit`` seconds (or ``node_limit`` nodes) the best order found is
  returned with ``info["proven_optimal"]`` false, unless it already meets the lower bound.

engine="optsched" adds stronger bounds (resource-constrained heads and tails, a flow
relaxation, destructive lower bounding by shaving time windows) and better first incumbents:
see :func:`optimal_search`.

``info``: ``lower_bound`` (of the whole block), ``proven_optimal``, ``nodes`` (prefixes
placed), ``seconds``, ``pruned_bound``, ``pruned_dominance``, ``timed_out``, ``initial`` (the list
schedule the search started from), ``exact_over_issue_cycles``; engine="optsched" also
``pruned_flow`` (the prefixes among ``pruned_bound`` that only the flow relaxation cut off).

With ``trace=True`` the search also returns its history as :class:`SearchEvent` records (start,
every new incumbent, progress every ``trace_every`` nodes, done), for the widget and notebooks.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field

from ..errors import ScheduleError
from ..language import N_, _
from .bounds import (
    ISSUE,
    _topo,
    as_graph,
    flow_feasible,
    heads_and_tails,
    heights,
    jackson_bound,
    lower_bound,
    one_iteration,
    relaxed_bounds,
    schedule_in_windows,
    shave_windows,
    strong_lower_bound,
)
from .evaluate import evaluate
from .graph import Edge, Graph
from .schedule import Schedule
from .verify import verify

#: Blocks with more operations get the best list schedule (not proven optimal) without a search.
MAX_DEPTH = 3000
#: with a time limit, longer blocks skip the initial list schedules (one cannot be interrupted)
LIST_IN_SEARCH_MAX = 1000
#: engine="optsched" computes resource-constrained heads and tails (quadratic) up to this size
STRONG_BOUNDS_MAX = 400
#: engine="optsched": greedy descents with random tie-breaking tried for the first incumbent
RANDOM_DIVES = 8
#: engine="optsched": an operation with at most this many descendants (itself included) gets
#: the exact optimum of that sub-block as its tail, searched with at most ``EXACT_TAIL_NODES``
#: nodes each and ``EXACT_TAIL_BUDGET`` nodes for the whole block
EXACT_TAIL_MAX = 20
EXACT_TAIL_NODES = 2000
EXACT_TAIL_BUDGET = 40_000
#: engine="optsched": descents improved by forward-backward rounds (each round a descent by the
#: latest starts of the previous one, right-justified), from this many random descents, at most
#: this many rounds each, while the descents take under a tenth of the time limit
FBI_STARTS, FBI_ROUNDS = 24, 8
#: engine="optsched" on multi-issue machines: the destructive bound (``shave_windows``) may run
#: until this share of the time limit has passed
SHAVE_SHARE = 0.5
#: ... and a schedule within the windows it leaves is looked for until this share
WINDOWS_SHARE = 0.7
#: ... and only after a search of this many nodes has not finished (most blocks need no more)
SHAVE_AFTER_NODES = 2000
#: a weight that puts the bottleneck unit's operations before all others in a descent
BOTTLENECK_FIRST = 1000
#: engine="optsched" with a time limit of at least this many seconds (or none): when the
#: descents miss the root bound, the improved list heuristic (forward-backward improvement) is
#: one more first incumbent; it cannot be interrupted, so not within short limits
IMPROVED_MIN_LIMIT = 5.0
#: engine="optsched", the flow relaxation at nodes: asked at least this many times, then only
#: while at least one ask in ``FLOW_RATE`` cuts off its node (measured: a third of the asks on
#: the full dual-issue block it was made for, an eighth on one it only slowed down)
FLOW_TRIAL, FLOW_RATE = 50, 5
#: the engines :func:`optimal_search` accepts (the optimal-search widget offers these)
ENGINES = ("classic", "optsched")
#: the engine used when none is named (issue 30: the stronger one; chapter 05 names "classic"
#: where it counts that search's nodes)
DEFAULT_ENGINE = "optsched"


@dataclass
class SearchEvent:
    """One moment of the search: ``kind`` is ``start``, ``incumbent``, ``progress`` or ``done``
    (marked with ``N_``: translate it where shown, ``_(event.kind)``).

    ``incumbent`` is the best length found so far and ``incumbent_order`` its order; ``prefix``
    the order prefix being explored (progress events); ``bound`` the lower bound of the block.
    """

    kind: str
    nodes: int
    seconds: float
    incumbent: int | None
    bound: int
    incumbent_order: list[int] = field(default_factory=list)
    prefix: list[int] = field(default_factory=list)
    pruned_bound: int = 0
    pruned_dominance: int = 0
    message: str = ""


def uniform_reservations(graph: Graph) -> bool:
    """Whether every reservation of a unit starts at the same offset after issue and no
    operation reserves a unit twice (true for every machine built from a Machine)."""
    offsets: dict[str, set[int]] = {}
    for op in graph.ops:
        units = [r.unit for r in op.reservations]
        if len(units) != len(set(units)):
            return False
        for r in op.reservations:
            offsets.setdefault(r.unit, set()).add(r.offset)
    return all(len(s) == 1 for s in offsets.values())


class _Search:
    def __init__(
        self,
        g: Graph,
        *,
        prune: bool,
        dominance: bool,
        time_limit,
        node_limit,
        greedy=True,
        strong: bool = False,
        tail_floor: list[int] | None = None,
    ):
        self.g = g
        self.n = n = len(g.ops)
        self.preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.succs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.pred_mask = [0] * n
        for (s, d), lat in g.delays().items():
            self.preds[d].append((s, lat))
            self.succs[s].append((d, lat))
            self.pred_mask[d] |= 1 << s
        #: the cycle each operation's operands arrive from its placed predecessors (kept up to
        #: date by apply/undo)
        self.rdy = [g.earliest] * n
        self.topo = _topo(g)
        self.q = heights(g)
        self.strong = strong
        self.memo_per_set, self.memo_total = (32, 400_000)
        self.head = [g.earliest] * n  # a cycle no legal schedule issues j before
        if strong and n <= STRONG_BOUNDS_MAX:  # engine="optsched": resource-constrained
            # heads and tails (quadratic to compute: only for blocks the search can finish),
            # and a larger history
            self.head, self.q = heads_and_tails(g)
            if tail_floor is not None:  # valid tails known from outside (a sub-block's search)
                self.q = [max(a, b) for a, b in zip(self.q, tail_floor, strict=True)]
            self.memo_per_set, self.memo_total = (64, 1_000_000)
        self.tail = [op.tail for op in g.ops]
        #: children placed in the same cycle are tried by the largest key first: the tails
        #: without the exact tails of sub-blocks (those only raise the bounds; as a priority
        #: they proved no better)
        self.key = self.q
        self.resv = [[(r.unit, r.offset, r.cycles) for r in op.reservations] for op in g.ops]
        self.width = g.issue_width
        #: every busy cycle of an operation as (unit, cycles after issue)
        self.cycles_of = [
            [(unit, off + k) for unit, off, cycles in self.resv[j] for k in range(cycles)]
            for j in range(n)
        ]
        #: a unit every operation uses at the same offset, no more often than the issue width
        #: allows: its relaxed bound already implies the issue slots' one, which is skipped
        self.issue_implied = self.width is not None and any(
            g.units[u] <= self.width
            and len({o for r in self.resv for un, o, _ in r if un == u}) == 1
            and all(sum(1 for un, _, _ in r if un == u) == 1 for r in self.resv)
            for u in g.units
        )
        self.est = [0] * n
        self.dive_start: list[int] = []  # the issue cycles of the last descent
        #: the resources whose relaxed bounds a node checks, the one of largest root bound first
        self.resources = [] if self.width is None or self.issue_implied else [ISSUE]
        self.resources += list(g.units)
        if strong:
            root = relaxed_bounds(g, self.head, self.q)
            self.resources.sort(key=lambda r: -root.get("issue" if r == ISSUE else r, 0))
        self.full = (1 << n) - 1
        self.uniform = uniform_reservations(g)
        #: engine="optsched" on a machine issuing several operations per cycle: nodes the
        #: one-resource bounds leave one cycle to spare may also be checked by the transportation
        #: relaxation (``flow_feasible``: every resource at once; the search turns it off on
        #: blocks where it does not raise the root bound). With one issue slot per cycle it
        #: sees nothing Jackson's rule on the issue slots does not (each cycle holds one
        #: operation whatever its unit), so it is never asked there.
        self.flow_at_nodes = (
            strong and self.uniform and self.width is not None and self.width > 1 and bool(g.units)
        )
        self.pruned_flow = 0
        self.flow_asks = 0
        self.prune = prune
        self.dominance = dominance and self.uniform
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.greedy = greedy
        # state
        self.start = [-1] * n
        self.mask = 0
        self.order: list[int] = []
        self.last = g.earliest
        self.maxfin = 0
        self.issued: dict[int, int] = {}
        self.usage: dict[str, dict[int, int]] = {u: {} for u in g.units}
        # results
        self.best: int | None = None
        self.best_order: list[int] = []
        self.nodes = 0
        self.pruned_bound = 0
        self.pruned_dominance = 0
        self.memo: dict[int, list[tuple]] = {}
        self.memo_size = 0
        self.stop = False
        self.timed_out = False
        self.events: list[SearchEvent] = []
        self.trace = False
        self.trace_every = 500
        self.root_bound = 0
        self.t0 = time.perf_counter()

    # -- placing -------------------------------------------------------------------------
    def fits(self, j: int, t: int) -> bool:
        if self.width is not None and self.issued.get(t, 0) >= self.width:
            return False
        for unit, off, cycles in self.resv[j]:
            use = self.usage[unit]
            cap = self.g.units[unit]
            for c in range(t + off, t + off + cycles):
                if use.get(c, 0) >= cap:
                    return False
        return True

    def place_time(self, j: int) -> int:
        t = self.last if self.last > self.rdy[j] else self.rdy[j]
        while not self.fits(j, t):
            t += 1
        return t

    def apply(self, j: int, t: int) -> tuple:
        changed = []  # (successor, its previous operand-arrival cycle)
        rdy = self.rdy
        for d, lat in self.succs[j]:
            if t + lat > rdy[d]:
                changed.append((d, rdy[d]))
                rdy[d] = t + lat
        saved = (self.last, self.maxfin, changed)
        self.start[j] = t
        self.mask |= 1 << j
        self.order.append(j)
        self.last = t
        self.maxfin = max(self.maxfin, t + self.tail[j])
        self.issued[t] = self.issued.get(t, 0) + 1
        for unit, off, cycles in self.resv[j]:
            use = self.usage[unit]
            for c in range(t + off, t + off + cycles):
                use[c] = use.get(c, 0) + 1
        return saved

    def undo(self, j: int, saved: tuple) -> None:
        t = self.start[j]
        for unit, off, cycles in self.resv[j]:
            use = self.usage[unit]
            for c in range(t + off, t + off + cycles):
                use[c] -= 1
                if not use[c]:
                    del use[c]
        self.issued[t] -= 1
        if not self.issued[t]:
            del self.issued[t]
        self.order.pop()
        self.mask &= ~(1 << j)
        self.start[j] = -1
        self.last, self.maxfin, changed = saved
        rdy = self.rdy
        for d, old in reversed(changed):
            rdy[d] = old

    def dive(self, key: list[int]) -> tuple[int, list[int]]:
        """One greedy descent: the ready operation that can issue first, ties by the largest
        ``key`` (a list schedule in the search's own terms); the tree is left as it was."""
        undo = []
        while self.mask != self.full:
            pick = None
            for j in range(self.n):
                if self.start[j] < 0 and self.pred_mask[j] & ~self.mask == 0:
                    c = (self.place_time(j), -key[j], j)
                    if pick is None or c < pick:
                        pick = c
            t, _, j = pick
            undo.append((j, self.apply(j, t)))
        result = (self.maxfin, list(self.order))
        self.dive_start = list(self.start)  # its issue cycles (forward-backward rounds use them)
        for j, saved in reversed(undo):
            self.undo(j, saved)
        return result

    def bottleneck_users(self) -> list[bool]:
        """Per operation, whether it uses the unit of the largest root bound (the resources are
        sorted by it; no unit: all False)."""
        bottleneck = next((r for r in self.resources if r != ISSUE), None)
        return [any(u == bottleneck for u, _o, _c in self.resv[j]) for j in range(self.n)]

    def forward_backward(
        self, rng: random.Random, forward: int = 0, backward: int = 0
    ) -> tuple[int, list[int]]:
        """Forward-backward improvement with the search's own descents: a descent by the tails
        (ties at random), then rounds of a descent by the latest starts of the last one (each
        operation moved as late as the last one's length allows:
        :func:`~lecturekit.core.list_sched.right_justify`; the earliest latest start first), at
        most ``FBI_ROUNDS``, while no round is worse. Returns the last (length, order): no
        longer than the first descent, an order the search places as it would.

        ``forward`` and ``backward`` weigh the *bottleneck unit* (the unit of the largest root
        bound, :meth:`bottleneck_users`): among the operations that can issue equally early,
        one using it counts ``forward`` cycles of tail more in the first descent, and
        ``backward`` cycles of latest start less in the later ones (``BOTTLENECK_FIRST``:
        before all others). On issue 30's ``dual`` blocks the ALU is busy nearly every cycle:
        a cycle it idles is a cycle lost, and tails alone do not see it."""
        from .list_sched import right_justify

        uses = self.bottleneck_users()
        key = [
            (q + forward * u) * 64 + rng.randrange(64) for q, u in zip(self.key, uses, strict=True)
        ]
        length, order = self.dive(key)
        for _round in range(FBI_ROUNDS):
            if length <= self.root_bound:
                break
            late = right_justify(self.g, Schedule(self.g, self.dive_start, order=order))
            if late is None:
                break
            key = [
                (-t * 16 + backward * u) * 64 + rng.randrange(64)
                for t, u in zip(late, uses, strict=True)
            ]
            length2, order2 = self.dive(key)
            if length2 > length:
                break
            length, order = length2, order2
        return length, order

    # -- bounding ------------------------------------------------------------------------
    def base(self) -> int:
        """The first cycle the next operation could issue in (order and issue width alone)."""
        if self.width is not None and self.issued.get(self.last, 0) >= self.width:
            return self.last + 1
        return self.last

    def node_bound(self, best: int) -> int:
        """A lower bound on every completion of the prefix (stops early once it reaches
        ``best``): the latest finish so far, the critical path of what is left released at the
        frontier, and the relaxed bound of each resource on what is left."""
        base = self.base()
        start, head, q, preds, est = self.start, self.head, self.q, self.preds, self.est
        bound = self.maxfin
        todo = []
        for j in self.topo:
            if start[j] >= 0:
                continue
            e = base if base > head[j] else head[j]
            for s, lat in preds[j]:
                v = start[s]
                v = (v if v >= 0 else est[s]) + lat
                if v > e:
                    e = v
            est[j] = e
            if e + q[j] > bound:
                bound = e + q[j]
            todo.append(j)
        if bound >= best:
            return bound
        pieces: dict[str, list[tuple[int, int]]] = {}
        for j in todo:
            e, qj = est[j], q[j]
            for unit, delta in self.cycles_of[j]:
                lst = pieces.get(unit)
                if lst is None:
                    lst = pieces[unit] = []
                lst.append((e + delta, qj - delta))
        for res in self.resources:  # the bottleneck first: a prune costs one of them
            if res == ISSUE:
                jobs, capacity, busy = [(est[j], q[j]) for j in todo], self.width, self.issued
            elif res in pieces:
                jobs, capacity, busy = pieces[res], self.g.units[res], self.usage[res]
            else:
                continue
            v = jackson_bound(jobs, capacity, busy, stop=best)
            if v is not None and v > bound:
                bound = v
                if bound >= best:
                    return bound
        if self.flow_at_nodes and bound == best - 1 and self.flow_pays():
            # one cycle to spare by every one-resource bound: can all resources at once still
            # fit what is left by cycle best - 1?
            self.flow_asks += 1
            busy = {ISSUE: self.issued, **self.usage}
            if not flow_feasible(self.g, est, q, best - 1, todo, busy):
                self.pruned_flow += 1
                return best
        return bound

    def flow_pays(self) -> bool:
        """Whether to keep asking the flow relaxation at nodes: a flow costs about as much as
        four nodes, so after ``FLOW_TRIAL`` asks it is asked only while at least one ask in
        ``FLOW_RATE`` cuts its node off (counted, not timed: the same every run)."""
        return self.flow_asks < FLOW_TRIAL or self.pruned_flow * FLOW_RATE >= self.flow_asks

    def signature(self) -> tuple:
        base = self.base()
        start = self.start
        ready = [r if r > base else base for j, r in enumerate(self.rdy) if start[j] < 0]
        busy = {}
        for c, k in self.issued.items():
            if c >= base:
                busy[(ISSUE, c)] = k
        for unit, use in self.usage.items():
            for c, k in use.items():
                if c >= base:
                    busy[(unit, c)] = k
        return (base, self.maxfin, tuple(ready), busy)

    @staticmethod
    def dominates(p: tuple, q: tuple) -> bool:
        pb, pf, pr, pbusy = p
        qb, qf, qr, qbusy = q
        if pb > qb or pf > qf:
            return False
        if any(a > b for a, b in zip(pr, qr, strict=True)):
            return False
        for (res, c), k in pbusy.items():
            if c >= qb and k > qbusy.get((res, c), 0):
                return False
        return True

    def dominated(self) -> bool:
        sig = self.signature()
        seen = self.memo.setdefault(self.mask, [])
        for old in seen:
            if self.dominates(old, sig):
                return True
        if len(seen) < self.memo_per_set and self.memo_size < self.memo_total:
            seen.append(sig)
            self.memo_size += 1
        return False

    # -- the search ----------------------------------------------------------------------
    def event(self, kind: str, message: str = "") -> None:
        if self.trace:
            self.events.append(
                SearchEvent(
                    kind,
                    self.nodes,
                    time.perf_counter() - self.t0,
                    self.best,
                    self.root_bound,
                    list(self.best_order),
                    list(self.order),
                    self.pruned_bound,
                    self.pruned_dominance,
                    message,
                )
            )

    def out_of_time(self) -> bool:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return True
        return self.time_limit is not None and time.perf_counter() - self.t0 > self.time_limit

    def dfs(self, siblings: dict[int, int] | None = None) -> None:
        """Explore below the current prefix. ``siblings`` (engine="optsched") maps each child of
        the parent prefix to its placement cycle there, for the symmetry rule below."""
        if self.mask == self.full:
            if self.best is None or self.maxfin < self.best:
                self.best = self.maxfin
                self.best_order = list(self.order)
                self.event(
                    N_("incumbent"), _("new incumbent: {best} cycles").format(best=self.best)
                )
                if self.prune and self.best <= self.root_bound:
                    self.stop = True
            return
        children = []
        for j in range(self.n):
            if self.start[j] < 0 and self.pred_mask[j] & ~self.mask == 0:
                children.append((self.place_time(j), -self.key[j], j))
        children.sort(key=None if self.greedy else (lambda c: c[2]))
        times = {j: t for t, _unused, j in children} if self.strong else None
        k = self.order[-1] if self.order else -1
        for t, _unused, j in children:
            if siblings is not None and j < k and t == self.start[k] and siblings.get(j) == t:
                # symmetry: j could already issue in cycle t before k was placed there, so the
                # prefix "... j k" (both in cycle t) is this very placement; only it is explored
                self.pruned_dominance += 1
                continue
            self.nodes += 1
            if self.out_of_time():  # every node: a node costs O(n), the clock far less
                self.timed_out = True
                self.stop = True
                return
            if self.trace and self.nodes % self.trace_every == 0:
                self.event(N_("progress"), _("{nodes} nodes explored").format(nodes=self.nodes))
            saved = self.apply(j, t)
            if self.strong and self.dominance and self.dominated():  # the cheaper test first
                self.pruned_dominance += 1
                self.undo(j, saved)
                continue
            if self.prune and self.best is not None:
                if self.node_bound(self.best) >= self.best:
                    self.pruned_bound += 1
                    self.undo(j, saved)
                    continue
            if not self.strong and self.dominance and self.dominated():
                self.pruned_dominance += 1
                self.undo(j, saved)
                continue
            self.dfs(times)
            self.undo(j, saved)
            if self.stop:
                return


def optimal_search(
    graph,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    prune: bool = True,
    dominance: bool = True,
    initial: bool = True,
    child_order: str = "greedy",
    trace_every: int = 500,
    engine: str = DEFAULT_ENGINE,
) -> tuple[Schedule, list[SearchEvent]]:
    """Branch and bound (see the module docstring); returns the schedule and the search trace.

    ``prune=False`` turns off every bound (and the early stop at the lower bound), and
    ``dominance=False`` the history domination; ``initial=False`` starts without a list-schedule
    incumbent. ``child_order="program"`` tries the ready instructions in program order instead
    of earliest placement first (the first leaf is then program order, the way a naive
    enumeration starts). These switches exist to show, in the notebooks, how much each part
    saves; none changes the optimum.

    ``engine="optsched"`` (issue 17; the default since issue 30: :data:`DEFAULT_ENGINE`) searches
    the same tree as ``engine="classic"`` (the search chapter 05 counts nodes of, by name) with
    what OptSched (Shobaki et al.) and the literature on lower bounds add:

    * **resource-constrained heads and tails** (:func:`~lecturekit.core.bounds.heads_and_tails`,
      Langevin and Cerny's recursive bounds): a cycle no legal schedule issues an operation
      before, raised by the work its ancestors put on each unit and the issue slots, and the
      cycles from its issue to the end, raised by its descendants' work. At every node the
      operations left are released no earlier than their heads, and every tail in the critical
      path and the relaxed per-resource bounds of what is left is the resource-constrained one;
    * **a stronger root bound** (:func:`~lecturekit.core.bounds.strong_lower_bound`): the relaxed
      bounds of the whole block released at the heads with those tails, so many blocks are
      proven the moment a first schedule meets it;
    * **the flow relaxation at nodes** (issue width 2 or more, on blocks where it raised the
      root bound): where the one-resource bounds of a prefix leave a single cycle to spare,
      :func:`~lecturekit.core.bounds.flow_feasible` asks whether the operations left, in their
      windows, fit the issue slots and every unit *at once* (the slots the prefix holds
      taken). On a dual-issue block whose ALU and issue slots are both nearly full each
      resource alone has room and only together they do not; the search then cuts off
      prefixes it would otherwise explore by the hundred thousand (issue 30: a 120-instruction
      ``dual`` block proven in about 300 nodes, unproven in 10 s without it). A flow costs
      about four nodes, so it stays on only while it cuts often enough (``FLOW_RATE``);
    * **exact tails of small sub-blocks** (when the first schedules do not meet the root
      bound): the tail of an operation with at most ``EXACT_TAIL_MAX`` descendants is raised
      to the optimum of the sub-block it heads, found by this search (a bounded number of
      nodes; its root bound if not proven), and the raised tails carry up the recursion. This
      sees what every relaxation above misses near the end of a block: latencies and a
      non-pipelined unit that force idle cycles among the last few instructions;
    * **a cheap first incumbent**: greedy descents of the search itself (the ready operation that
      issues first, ties by tail, by height, by tail then head, or by descendants, then a few by
      tail with ties broken at random, seeded) instead of the traced list schedules, which cost
      more than the whole search on a 100-instruction block; when they miss the root bound
      (raised by the exact tails and the flow relaxation below), forward-backward rounds of
      descents (each by the right-justified latest starts of the last; ``FBI_STARTS`` x
      ``FBI_ROUNDS``), two starts in three with the *bottleneck unit's* operations first among
      those that can issue equally early (the unit of the largest root bound: on a ``dual``
      block whose ALU is busy nearly every cycle, a cycle the ALU idles is a cycle lost, and
      tails alone do not see it; on issue 30's blocks 120002, 150000 and 150002 the first
      incumbents went from 69, 83 and 83 cycles to 66, 80 and 81), and, with a time limit of
      at least ``IMPROVED_MIN_LIMIT`` (or none), the improved list heuristic: they pack wide
      blocks' issue slots better;
    * **destructive lower bounding** (issue width 2 or more, when ``SHAVE_AFTER_NODES`` nodes of
      search have not finished): :func:`~lecturekit.core.bounds.shave_windows` asks "can any
      schedule end by the root bound?" by narrowing every operation's window with the flow
      relaxation and the latencies; each "no" raises the bound by one. Where the answer stays
      open and the incumbent is one cycle above the bound, the narrowed windows become the
      search's heads and tails (it only looks for schedules ending by the bound, and they all
      lie within the windows), its children are tried by those tails with the bottleneck
      unit's first, and it starts again from the root. On issue 30's blocks this is what
      proves 66, 80 and 80 cycles optimal where the relaxations alone gave 65, 79 and 79
      (CP-SAT's bounds in 150 s: 63, 66 and 70), and what lets the search find the third
      block's 80 (in about 350 nodes; without the windows not in 20,000). Where every
      operation holds one unit for one cycle (the flow is then exact), a schedule within the
      windows is first looked for directly, over issue cycles
      (:func:`~lecturekit.core.bounds.schedule_in_windows`: pin or postpone, as a constraint
      solver would). It runs until ``SHAVE_SHARE`` of the time limit (the direct look until
      ``WINDOWS_SHARE``);
    * **symmetry and cheaper nodes**: two operations that could issue in the same cycle in either
      order are tried in one order only; the history table is consulted before the bounds, the
      bottleneck resource's bound is computed first, and operands' arrival cycles are kept up
      to date incrementally;
    * **a larger history table** (64 prefixes per set of placed operations, a million in all).

    Same optimum, same verification; the heads and tails are computed for blocks of up to
    ``STRONG_BOUNDS_MAX`` operations (quadratic time).
    """
    return _optimal_search(
        graph,
        time_limit=time_limit,
        node_limit=node_limit,
        prune=prune,
        dominance=dominance,
        initial=initial,
        child_order=child_order,
        trace_every=trace_every,
        engine=engine,
    )


def _optimal_search(
    graph,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    prune: bool = True,
    dominance: bool = True,
    initial: bool = True,
    child_order: str = "greedy",
    trace_every: int = 500,
    engine: str = DEFAULT_ENGINE,
    exact_tails: bool = True,
    tail_floor: list[int] | None = None,
) -> tuple[Schedule, list[SearchEvent]]:
    """:func:`optimal_search`; ``exact_tails=False`` skips the exact tails of small sub-blocks
    (the sub-block searches themselves), ``tail_floor`` gives valid tails known beforehand."""
    t0 = time.perf_counter()  # the time limit covers everything below, list schedules included
    g = as_graph(graph)
    g.check_acyclic()
    if engine not in ENGINES:
        raise ScheduleError(
            _("engine is 'classic' or 'optsched', got {engine!r}").format(engine=engine)
        )
    if child_order not in ("greedy", "program"):
        raise ScheduleError(
            _("child_order is 'greedy' or 'program', got {child_order!r}").format(
                child_order=child_order
            )
        )
    if time_limit is not None and not (
        isinstance(time_limit, (int, float)) and 0 <= time_limit < float("inf")
    ):
        raise ScheduleError(
            _(
                "time limit must be a finite number of seconds >= 0 (or None), got {time_limit!r}"
            ).format(time_limit=time_limit)
        )
    n = len(g.ops)
    if n == 0:
        s = Schedule(g, [], algorithm="optimal")
        s.info.update(
            lower_bound=0,
            proven_optimal=True,
            nodes=0,
            seconds=0.0,
            pruned_bound=0,
            pruned_dominance=0,
            pruned_flow=0,
            timed_out=False,
            initial=None,
            exact_over_issue_cycles=True,
        )
        return s, []
    search = _Search(
        g,
        prune=prune,
        dominance=dominance,
        time_limit=time_limit,
        node_limit=node_limit,
        greedy=child_order == "greedy",
        strong=engine == "optsched",
        tail_floor=tail_floor,
    )
    search.t0 = t0
    search.trace = True
    search.trace_every = max(1, int(trace_every))
    search.root_bound = lower_bound(g)
    if search.strong and n <= STRONG_BOUNDS_MAX:
        search.root_bound = strong_lower_bound(g, (search.head, search.q))
    initial_length = None
    if initial:
        from .list_sched import PRIORITIES, list_schedule

        long_block = time_limit is not None and n > LIST_IN_SEARCH_MAX
        if long_block:
            # a cheap incumbent (program order, linear time) instead of list schedules, which
            # cannot be interrupted: a wide block often meets the bound with it anyway
            order = g.topological_order()
            search.best, search.best_order = evaluate(g, order).length, order
            initial_length = search.best
            if search.best > search.root_bound:
                search.timed_out = True
        if search.strong and not long_block:
            # greedy descents of the search itself: list schedules at a fraction of the cost
            # of list_schedule() (no trace), by the search's own tails, by height, by tail then
            # head (a later head first: what is released late is also urgent), by descendants
            desc = [0] * n  # bitset of each operation's descendants
            for i in reversed(search.topo):
                for d, _lat in search.succs[i]:
                    desc[i] |= desc[d] | (1 << d)
            keys = (
                search.key,
                heights(g),
                [q * 4096 + h for q, h in zip(search.key, search.head, strict=True)],
                [bin(m).count("1") for m in desc],
            )
            # then ties among equal tails broken at random (seeded: the same every run), while
            # they take under a tenth of the time limit
            rng = random.Random(n)
            spread = [
                [q * 64 + rng.randrange(64) for q in search.key] for _unused in range(RANDOM_DIVES)
            ]
            for k, key in enumerate((*keys, *spread)):
                if search.best is not None and (
                    search.best <= search.root_bound
                    or search.out_of_time()
                    or k >= len(keys)
                    and time_limit is not None
                    and time.perf_counter() - t0 > time_limit / 10
                ):
                    break
                length, order = search.dive(key)
                if search.best is None or length < search.best:
                    search.best, search.best_order = length, order
                    initial_length = length
        for name in PRIORITIES:
            if long_block or search.strong:  # the descents above stand in for them
                break
            if search.best is not None and search.out_of_time():
                search.timed_out = True  # the limit holds for the initial schedules too
                break
            order = list_schedule(g, name).order
            length = evaluate(g, order).length
            if search.best is None or length < search.best:
                search.best, search.best_order = length, order
                initial_length = length
    if (
        search.strong
        and prune
        and exact_tails
        and n <= STRONG_BOUNDS_MAX
        and search.best is not None
        and search.best > search.root_bound
        and not search.timed_out
    ):
        # not proven by the first schedules: raise the tails by the exact optima of small
        # sub-blocks (a search each), then the root bound with them
        tail_of = _exact_tail_oracle(g, t0, time_limit)
        if tail_of is not None:
            raised = heads_and_tails(g, tail_of, tails_only=True)[1]
            search.q = [max(a, b) for a, b in zip(search.q, raised, strict=True)]
            search.root_bound = max(
                search.root_bound, strong_lower_bound(g, (search.head, search.q))
            )
    flow_raised = False  # whether the flow relaxation proves more than the bounds before it
    if (
        search.strong
        and prune
        and search.uniform
        and n <= STRONG_BOUNDS_MAX
        and search.best is not None
        and not search.timed_out
    ):
        # the transportation relaxation: raise the root bound while no flow meets it
        while search.root_bound < search.best and not search.out_of_time():
            if flow_feasible(g, search.head, search.q, search.root_bound):
                break
            search.root_bound += 1
            flow_raised = True
    # at the nodes too, but only where it proved more at the root: elsewhere it seldom cuts a
    # node off and costs as much as a hundred (measured: a 50-instruction dual block proven in
    # 8 s without it, not in 10 s with it)
    flow_eligible = search.flow_at_nodes
    search.flow_at_nodes = flow_eligible and flow_raised
    if (
        search.strong
        and initial
        and n <= LIST_IN_SEARCH_MAX
        and search.best is not None
        and search.best > search.root_bound
        and not search.timed_out
    ):
        # still above the (raised) root bound: better first incumbents for wide blocks
        from .list_sched import improved_schedule

        rng = random.Random(n + 1)
        t1 = time.perf_counter()
        for k in range(FBI_STARTS):
            # two starts in three weigh the bottleneck unit (see forward_backward): strictly
            # first forward, or a few cycles of tail forward and strictly first backward
            if (
                search.best <= search.root_bound
                or search.out_of_time()
                or time_limit is not None
                and time.perf_counter() - t1 > time_limit / 10
            ):
                break
            c, b = ((0, 0), (BOTTLENECK_FIRST, 0), (rng.randrange(3, 12), BOTTLENECK_FIRST))[k % 3]
            length, order = search.forward_backward(rng, c, b)
            if length < search.best:
                search.best, search.best_order = length, order
                initial_length = length
        if (
            search.best > search.root_bound
            and (time_limit is None or time_limit >= IMPROVED_MIN_LIMIT)
            and not search.out_of_time()
        ):
            # forward-backward improvement packs the issue slots better than greedy
            # descents on wide blocks whose bound is tight
            order = improved_schedule(g, pilot=False).order
            length = evaluate(g, order).length
            if length < search.best:
                search.best, search.best_order = length, order
                initial_length = length
    # the destructive bound (see _shave), after a short search: most blocks need no more
    shaving = (
        search.strong
        and prune
        and search.uniform
        and search.width is not None
        and search.width > 1
        and bool(g.units)
        and n <= STRONG_BOUNDS_MAX
    )
    search.event(
        N_("start"),
        _("lower bound {root_bound}; list scheduling gives {best}").format(
            root_bound=search.root_bound, best=search.best
        ),
    )
    if n > MAX_DEPTH:  # the depth-first search recurses once per instruction
        search.timed_out = True
        search.event(
            N_("done"),
            _("{n} operations: more than {max_depth}, no exhaustive search").format(
                n=n, max_depth=MAX_DEPTH
            ),
        )
    elif search.out_of_time():  # checked before the first node too
        search.timed_out = True
    elif not (prune and search.best is not None and search.best <= search.root_bound):
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, n + 500))
        try:
            node_limit = search.node_limit
            if shaving:
                search.node_limit = min(SHAVE_AFTER_NODES, node_limit or SHAVE_AFTER_NODES)
            search.dfs()
            search.node_limit = node_limit
            if (
                shaving
                and search.timed_out
                and search.best is not None
                and not search.out_of_time()
            ):
                # not done within SHAVE_AFTER_NODES nodes: shave, then search again from the
                # root (with a fresh history: a prefix remembered but not finished would cut
                # itself off) with the raised bound and the narrowed windows
                search.stop = search.timed_out = False
                search.memo.clear()
                search.memo_size = 0
                _shave(search, t0, time_limit, flow_eligible)
                if search.best > search.root_bound and not search.timed_out:
                    search.dfs()
        finally:
            sys.setrecursionlimit(old_limit)
    seconds = time.perf_counter() - search.t0
    proven = (not search.timed_out) or (
        search.best is not None and search.best <= search.root_bound
    )
    if search.best is None:  # timed out before the first leaf without an initial schedule
        from .list_sched import list_schedule

        search.best_order = list_schedule(g, "height").order
        search.best = evaluate(g, search.best_order).length
        proven = search.best <= search.root_bound
    sched = evaluate(g, search.best_order, algorithm="optimal")
    verify(one_iteration(g), sched)
    if sched.length != search.best:  # pragma: no cover - the search and evaluate disagree
        raise ScheduleError(
            _(
                "internal error: the search placed order {best_order} in {best} cycles "
                "but evaluate() gives {length}"
            ).format(best_order=search.best_order, best=search.best, length=sched.length)
        )
    sched.info.update(
        {
            "lower_bound": search.root_bound,
            "proven_optimal": proven,
            "nodes": search.nodes,
            "seconds": seconds,
            "pruned_bound": search.pruned_bound,
            "pruned_dominance": search.pruned_dominance,
            "pruned_flow": search.pruned_flow,
            "timed_out": search.timed_out,
            "initial": initial_length,
            "exact_over_issue_cycles": search.uniform,
            "engine": engine,
        }
    )
    if search.timed_out:
        what = _("proven optimal anyway (meets the bound)") if proven else _("not proven optimal")
        search.event(
            N_("done"),
            _("limit reached after {nodes} nodes: best {best}, {what}").format(
                nodes=search.nodes, best=search.best, what=what
            ),
        )
    else:
        search.event(
            N_("done"),
            _("search complete after {nodes} nodes: optimum {best}").format(
                nodes=search.nodes, best=search.best
            ),
        )
    search.events[-1].seconds = seconds
    return sched, search.events


def _shave(search: _Search, t0: float, time_limit: float | None, flow_eligible: bool) -> None:
    """Destructive lower bounding (:func:`~lecturekit.core.bounds.shave_windows`) for a search
    that did not finish quickly: while shaving refutes "some schedule ends by the root bound",
    the bound rises by one. Where the windows hold and the incumbent is one cycle above the
    bound, the search looks only for schedules ending by the bound, and every one of those
    issues each operation within its narrowed window: the windows become the search's heads
    and tails (raising them prunes more; a schedule ending earlier still lies within them).
    It runs until ``SHAVE_SHARE`` of the time limit has passed; windows narrowed until then
    are kept. Wherever it raises the bound, the flow relaxation is asked at nodes too. Where
    the windows hold and the incumbent is above the bound, a schedule within them is looked
    for directly (:func:`~lecturekit.core.bounds.schedule_in_windows`, until
    ``WINDOWS_SHARE`` of the time limit): found, it ends by the bound and is optimal."""
    g = search.g

    def stops() -> bool:
        return search.out_of_time() or (
            time_limit is not None and time.perf_counter() - t0 > time_limit * SHAVE_SHARE
        )

    windows = None
    raised = False
    while search.best > search.root_bound and not stops():
        windows = shave_windows(g, search.head, search.q, search.root_bound, stops)
        if windows is not None:
            break
        search.root_bound += 1
        raised = True
    # (only where the relaxation is exact: every operation holds at most one unit for one
    # cycle; elsewhere pinned windows pass it without being schedules, and the search drowns)
    exact = all(
        len(op.reservations) <= 1 and sum(r.cycles for r in op.reservations) <= 1 for op in g.ops
    )
    if windows is not None and exact and search.best > search.root_bound and not stops():
        # a schedule within the windows, looked for directly (over issue cycles) until
        # WINDOWS_SHARE of the time limit: sorted by issue cycle and placed in order it is
        # no longer, so it ends by the bound and proves it
        def stops_looking() -> bool:
            return search.out_of_time() or (
                time_limit is not None and time.perf_counter() - t0 > time_limit * WINDOWS_SHARE
            )

        cycles = schedule_in_windows(g, *windows, stops_looking)
        if cycles is not None:
            order = sorted(range(search.n), key=lambda j: (cycles[j], j))
            length = evaluate(g, order).length
            if length < search.best:
                search.best, search.best_order = length, order
                search.event(N_("incumbent"), _("new incumbent: {best} cycles").format(best=length))
    if windows is not None and search.best == search.root_bound + 1:
        first, last = windows
        search.head = [max(h, a) for h, a in zip(search.head, first, strict=True)]
        search.q = [max(q, search.root_bound - b) for q, b in zip(search.q, last, strict=True)]
        # children by these tails, the bottleneck unit's first (as in the descents above)
        search.key = [
            q + BOTTLENECK_FIRST * u
            for q, u in zip(search.q, search.bottleneck_users(), strict=True)
        ]
    if raised:
        search.flow_at_nodes = flow_eligible
        search.event(
            N_("progress"),
            _("shaving the windows raises the lower bound to {root_bound}").format(
                root_bound=search.root_bound
            ),
        )
    if search.out_of_time():
        search.timed_out = True


def _exact_tail_oracle(g: Graph, t0: float, time_limit: float | None):
    """For :func:`~lecturekit.core.bounds.heads_and_tails`: the tail of an operation with at
    most ``EXACT_TAIL_MAX`` descendants is at least the optimum of the sub-block of it and its
    descendants, started in cycle 0. (Any schedule of the block, restricted to those operations
    and shifted so that the operation issues in cycle 0, is a legal schedule of the sub-block:
    its descendants issue no earlier than it, and fewer operations use the resources.) The
    sub-block is searched by this engine, with the descendants' tails found so far, and its
    proven optimum, or else its root lower bound, is returned. Only where that argument holds:
    reservations uniform (the search is exact over issue cycles) and no negative latency."""
    if not uniform_reservations(g) or any(lat < 0 for lat in g.delays().values()):
        return None
    intra = g.intra_edges()
    budget = [EXACT_TAIL_BUDGET]

    def tail_of(i: int, dist: dict[int, int], tail: list[int]) -> int | None:
        if len(dist) > EXACT_TAIL_MAX or budget[0] <= 0:
            return None
        if time_limit is not None and time.perf_counter() - t0 > time_limit / 4:
            return None
        members = sorted(dist)
        idx = {o: k for k, o in enumerate(members)}
        sub = Graph(
            [g.ops[o] for o in members],
            [
                Edge(idx[e.src], idx[e.dst], e.latency)
                for e in intra
                if e.src in idx and e.dst in idx
            ],
            units=dict(g.units),
            issue_width=g.issue_width,
            earliest=0,
        )
        sched, _ = _optimal_search(
            sub,
            time_limit=None,
            node_limit=min(EXACT_TAIL_NODES, budget[0]),
            engine="optsched",
            exact_tails=False,
            tail_floor=[tail[o] for o in members],
        )
        budget[0] -= sched.info["nodes"]
        return sched.length if sched.info["proven_optimal"] else sched.info["lower_bound"]

    return tail_of


def optimal_schedule(graph, *, trace: bool = False, **options):
    """The shortest legal schedule of ``graph`` (a core Graph or a DependenceGraph), as a verified
    :class:`~lecturekit.core.Schedule` with ``algorithm="optimal"``; with ``trace=True`` the pair
    ``(schedule, events)``. Options as for :func:`optimal_search` (``time_limit`` in seconds,
    default 10; ``engine`` default :data:`DEFAULT_ENGINE`, the stronger search)."""
    sched, events = optimal_search(graph, **options)
    return (sched, events) if trace else sched


__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "SearchEvent",
    "optimal_schedule",
    "optimal_search",
    "uniform_reservations",
]
