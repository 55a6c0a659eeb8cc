"""Searching the schedule space (TVM's auto-tuning, Halide's autoscheduler, in miniature).

The heterogeneous-platform talk: search-based operator generation (方案三, Halide/TVM) separates
computation and schedule and then *searches* the schedules: "搜索空间大，搜索不一定找到最优解".
The space
here is a template, as TVM's are: split every axis by a factor, order the outer (tile) loops and
the inner loops, vectorize the innermost loop, run the outermost on all cores. A
:class:`Candidate` is one point of it; :meth:`Candidate.steps` is its schedule, plain data.

Three strategies, all deterministic for a given ``seed`` and ``budget`` (the number of
schedules costed), all stopping at ``time_limit`` seconds (checked before every evaluation, one
evaluation being a fraction of a millisecond to a few milliseconds) and saying so
(:attr:`SearchResult.timed_out`):

- :func:`exhaustive`: every candidate, in a fixed order: the optimum *under the model*;
- :func:`random_search`: ``budget`` candidates drawn at random;
- :func:`local_search`: from random starts, move to the best neighbour (one factor, one swap of
  adjacent loops, one flag) until none is better (hill climbing with restarts).

Each candidate is costed by :func:`lecturekit.tensor.cost.cost` (the cache model and the
roofline): a search is only as good as its cost model, which is why TVM measures its best
candidates on the hardware; chapter 14 runs the winners and compares them with numpy and with
the cache simulation.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..errors import ConfigError
from ..language import N_, _
from .cost import CPU, EXAMPLE_CPU, Cost, cost
from .loopnest import MAX_VECTOR, Computation, Parallel, Reorder, Split, Vectorize, apply, divisors


@dataclass(frozen=True)
class Candidate:
    """Tile factors per axis (the computation's axis order), the order of the outer and of the
    inner loops (axis names), and whether to vectorize the innermost / parallelize the
    outermost loop."""

    factors: tuple[int, ...]
    outer: tuple[str, ...]
    inner: tuple[str, ...]
    vectorize: bool = False
    parallel: bool = False

    def steps(self, comp: Computation) -> list:
        steps: list = [Split(a.name, f) for a, f in zip(comp.axes, self.factors, strict=True)]
        steps.append(Reorder(*[f"{a}_o" for a in self.outer], *[f"{a}_i" for a in self.inner]))
        if self.vectorize:
            steps.append(Vectorize(f"{self.inner[-1]}_i"))
        if self.parallel:
            steps.append(Parallel(f"{self.outer[0]}_o"))
        return steps

    def label(self) -> str:
        f = "×".join(map(str, self.factors))
        flags = ("vec " if self.vectorize else "") + ("par" if self.parallel else "")
        return (
            _("tiles {f}, outer {outer}, inner {inner} {flags}")
            .format(f=f, outer="".join(self.outer), inner="".join(self.inner), flags=flags)
            .strip()
        )


@dataclass(frozen=True)
class Space:
    """The template: allowed factors per axis; whether loop orders, vectorizing and parallel
    loops are searched."""

    computation: Computation
    factors: tuple[tuple[int, ...], ...]
    orders: bool = True
    vectorize: bool = True
    parallel: bool = True

    @property
    def axes(self) -> list[str]:
        return [a.name for a in self.computation.axes]

    def _orders(self) -> list[tuple[str, ...]]:
        return list(itertools.permutations(self.axes)) if self.orders else [tuple(self.axes)]

    def _flags(self, factors, outer, inner) -> list[tuple[bool, bool]]:
        reduce = {a.name: a.reduce for a in self.computation.axes}
        f = dict(zip(self.axes, factors, strict=True))
        ext = self.computation.extents
        vec = [False]
        if self.vectorize and not reduce[inner[-1]] and 1 < f[inner[-1]] <= MAX_VECTOR:
            vec = [False, True]
        par = [False]
        if self.parallel and not reduce[outer[0]] and ext[outer[0]] // f[outer[0]] > 1:
            par = [False, True]
        return [(v, p) for v in vec for p in par]

    def __iter__(self) -> Iterator[Candidate]:
        orders = self._orders()
        for factors in itertools.product(*self.factors):
            for outer in orders:
                for inner in orders:
                    for v, p in self._flags(factors, outer, inner):
                        yield Candidate(factors, outer, inner, v, p)

    @property
    def size(self) -> int:
        return sum(1 for _ in self)

    def random(self, rng: random.Random) -> Candidate:
        factors = tuple(rng.choice(fs) for fs in self.factors)
        orders = self._orders()
        outer, inner = rng.choice(orders), rng.choice(orders)
        v, p = rng.choice(self._flags(factors, outer, inner))
        return Candidate(factors, outer, inner, v, p)

    def neighbours(self, c: Candidate) -> list[Candidate]:
        """One factor to the next smaller or larger allowed value; one swap of adjacent outer
        or inner loops; one flag flipped (where legal)."""
        found = []
        for k, fs in enumerate(self.factors):
            pos = fs.index(c.factors[k])
            for q in (pos - 1, pos + 1):
                if 0 <= q < len(fs):
                    factors = c.factors[:k] + (fs[q],) + c.factors[k + 1 :]
                    found.append((factors, c.outer, c.inner))
        if self.orders:
            for which in ("outer", "inner"):
                order = list(getattr(c, which))
                for k in range(len(order) - 1):
                    swapped = order[:]
                    swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
                    outer = tuple(swapped) if which == "outer" else c.outer
                    inner = tuple(swapped) if which == "inner" else c.inner
                    found.append((c.factors, outer, inner))
        result = []
        for factors, outer, inner in found + [(c.factors, c.outer, c.inner)]:
            flags = self._flags(factors, outer, inner)
            keep = (c.vectorize, c.parallel)
            choices = [keep] if keep in flags else flags[-1:]
            if (factors, outer, inner) == (c.factors, c.outer, c.inner):
                choices = [f for f in flags if f != keep]
            result += [Candidate(factors, outer, inner, v, p) for v, p in choices]
        return result


def space(
    comp: Computation,
    factors: Sequence[int] | None = None,
    *,
    orders: bool = True,
    vectorize: bool = True,
    parallel: bool = True,
) -> Space:
    """The template space of ``comp``: every axis split by each of ``factors`` that divides its
    extent (default: its powers of two), every order of the outer and of the inner loops."""
    per_axis = []
    for a in comp.axes:
        if factors is None:
            fs = [d for d in divisors(a.extent) if d & (d - 1) == 0]
        else:
            for f in factors:
                if isinstance(f, bool) or not isinstance(f, int) or f < 1:
                    raise ConfigError(
                        _("space: factors must be whole numbers >= 1, got {f!r}").format(f=f)
                    )
            fs = sorted({f for f in factors if a.extent % f == 0})
        if not fs:
            raise ConfigError(
                _("space: no factor in {list} divides {name}={extent}").format(
                    list=list(factors), name=a.name, extent=a.extent
                )
            )
        per_axis.append(tuple(fs))
    return Space(comp, tuple(per_axis), orders, vectorize, parallel)


@dataclass
class SearchResult:
    """The best candidate found, its cost, and how the search went."""

    method: str
    best: Candidate | None
    best_cost: Cost | None
    evaluated: int
    history: list[float] = field(default_factory=list)  #: seconds of each candidate costed
    timed_out: bool = False
    seconds: float = 0.0
    budget: int | None = None
    space_size: int | None = None

    @property
    def best_so_far(self) -> list[float]:
        out, best = [], math.inf
        for t in self.history:
            best = min(best, t)
            out.append(best)
        return out

    def steps(self) -> list:
        return self.best.steps(self.best_cost.nest.computation) if self.best else []

    def summary(self) -> str:
        if self.best is None:
            return _("{method}: nothing evaluated").format(method=_(self.method))
        stop = _(", stopped by its time limit") if self.timed_out else ""
        return _(
            "{method}: {evaluated:,} schedules costed{stop}; best {value:,.1f} µs ({label})"
        ).format(
            method=_(self.method),
            evaluated=self.evaluated,
            stop=stop,
            value=self.best_cost.seconds * 1e6,
            label=self.best.label(),
        )


class _Evaluator:
    def __init__(self, comp: Computation, cpu: CPU, time_limit: float | None):
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, (int, float))
            or not time_limit > 0
        ):
            raise ConfigError(
                _("time_limit must be a number of seconds > 0, got {time_limit!r}").format(
                    time_limit=time_limit
                )
            )
        self.comp, self.cpu = comp, cpu
        self.memo: dict = {}
        self.seen: dict[Candidate, Cost] = {}
        self.history: list[float] = []
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.timed_out = False
        self.best: tuple[Candidate, Cost] | None = None

    def out_of_time(self) -> bool:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.timed_out = True
        return self.timed_out

    def __call__(self, c: Candidate) -> Cost:
        if c in self.seen:
            return self.seen[c]
        result = cost(apply(self.comp, c.steps(self.comp)), self.cpu, self.memo)
        self.seen[c] = result
        self.history.append(result.seconds)
        if self.best is None or result.seconds < self.best[1].seconds:
            self.best = (c, result)
        return result

    def result(self, method: str, budget=None, size=None) -> SearchResult:
        best, best_cost = self.best if self.best else (None, None)
        return SearchResult(
            method,
            best,
            best_cost,
            len(self.history),
            self.history,
            self.timed_out,
            time.perf_counter() - self.start,
            budget,
            size,
        )


def _budget(budget) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ConfigError(
            _("budget must be a whole number >= 1, got {budget!r}").format(budget=budget)
        )
    return budget


def exhaustive(
    sp: Space, cpu: CPU = EXAMPLE_CPU, *, time_limit: float | None = 30.0
) -> SearchResult:
    """Cost every candidate of ``sp`` (in its fixed order), until ``time_limit``."""
    ev = _Evaluator(sp.computation, cpu, time_limit)
    for c in sp:
        if ev.out_of_time():
            break
        ev(c)
    return ev.result(N_("exhaustive"), None, sp.size)


def random_search(
    sp: Space,
    cpu: CPU = EXAMPLE_CPU,
    *,
    budget: int = 200,
    seed: int = 0,
    time_limit: float | None = 30.0,
) -> SearchResult:
    """``budget`` distinct candidates drawn at random (seeded), until ``time_limit``."""
    budget = _budget(budget)
    rng = random.Random(seed)
    ev = _Evaluator(sp.computation, cpu, time_limit)
    draws = 0
    size = sp.size
    while len(ev.history) < min(budget, size) and draws < 50 * budget and not ev.out_of_time():
        draws += 1
        ev(sp.random(rng))
    return ev.result(N_("random search"), budget, size)


def local_search(
    sp: Space,
    cpu: CPU = EXAMPLE_CPU,
    *,
    budget: int = 200,
    seed: int = 0,
    time_limit: float | None = 30.0,
) -> SearchResult:
    """Hill climbing: from a random start, move to the best neighbour while it is faster;
    when stuck, restart at random; stop after ``budget`` schedules costed or at
    ``time_limit``."""
    budget = _budget(budget)
    rng = random.Random(seed)
    ev = _Evaluator(sp.computation, cpu, time_limit)
    size = sp.size
    restarts = 0
    while len(ev.history) < min(budget, size) and restarts < 50 * budget and not ev.out_of_time():
        restarts += 1
        current = sp.random(rng)
        here = ev(current).seconds
        improved = True
        while improved and len(ev.history) < budget and not ev.out_of_time():
            improved = False
            best_move, best_time = None, here
            for nb in sp.neighbours(current):
                if len(ev.history) >= budget or ev.out_of_time():
                    break
                t = ev(nb).seconds
                if t < best_time:
                    best_move, best_time = nb, t
            if best_move is not None:
                current, here, improved = best_move, best_time, True
    return ev.result(N_("local search"), budget, size)
