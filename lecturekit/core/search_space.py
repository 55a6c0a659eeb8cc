"""The space a scheduler searches (指令调度的空间): how many legal orders a block has, and
how long each one runs.

"数据依赖图可能有许多有效的拓扑排序": every topological order of the dependence graph is a
legal instruction order, and each runs for some number of cycles on in-order hardware.

* :func:`count_topological_orders` counts them exactly without listing them: dynamic programming
  over the sets of instructions already placed (bitmasks). The number of orders that place
  exactly the set ``S`` first is the sum, over the instructions ``v`` in ``S`` that nothing else
  in ``S`` depends on, of the number for ``S - {v}``. Only *downward closed* sets ever occur, and
  independent parts of the graph are counted separately and combined with a multinomial
  coefficient (``n!`` for ``n`` independent instructions, ``1`` for a chain), so blocks of
  25-30 instructions are quick.
* :func:`all_orders` lists them (lexicographically smallest first), and
  :func:`enumerate_orders` evaluates each with :func:`~lecturekit.core.evaluate`: brute force,
  for tiny blocks. :func:`length_histogram` says how many orders reach each length, and
  :func:`brute_force_optimal` the best of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from math import comb
from typing import TYPE_CHECKING

from ..language import _

if TYPE_CHECKING:  # networkx loads when a search space is counted, not on import
    import networkx as nx

from ..errors import ScheduleError
from .bounds import as_graph
from .evaluate import evaluate


def _digraph(obj) -> nx.DiGraph:
    import networkx as nx

    if isinstance(obj, nx.DiGraph):
        if not nx.is_directed_acyclic_graph(obj):
            raise ScheduleError(_("the graph has a cycle, so it has no topological order"))
        return obj
    g = as_graph(obj)
    g.check_acyclic()
    return g.to_networkx()


def count_topological_orders(graph, *, max_states: int = 5_000_000) -> int:
    """The exact number of topological orders (legal instruction orders) of ``graph``: a core
    Graph, a DependenceGraph or a networkx DiGraph.

    Raises ScheduleError if a connected part has more than ``max_states`` downward-closed sets
    (the dynamic program would take too long; it does not happen for blocks of ~25 instructions
    of real code).
    """
    import networkx as nx

    dg = _digraph(graph)
    total = 1
    placed = 0
    for comp in sorted(nx.weakly_connected_components(dg), key=min):
        size = len(comp)
        total *= comb(placed + size, size) * _count_connected(dg.subgraph(comp), max_states)
        placed += size
    return total


def _count_connected(dg: nx.DiGraph, max_states: int) -> int:
    import networkx as nx

    nodes = list(nx.topological_sort(dg))
    bit = {v: 1 << k for k, v in enumerate(nodes)}
    need = [0] * len(nodes)
    for u, v in dg.edges:
        need[nodes.index(v)] |= bit[u]
    layer = {0: 1}
    states = 1
    for _unused in range(len(nodes)):
        nxt: dict[int, int] = {}
        for mask, ways in layer.items():
            for k in range(len(nodes)):
                b = 1 << k
                if not mask & b and need[k] & ~mask == 0:
                    nxt[mask | b] = nxt.get(mask | b, 0) + ways
        layer = nxt
        states += len(layer)
        if states > max_states:
            raise ScheduleError(
                _(
                    "too many partial orders to count ({states} sets of {n_nodes} "
                    "instructions explored, limit {max_states})"
                ).format(states=states, n_nodes=len(nodes), max_states=max_states)
            )
    return sum(layer.values())


def all_orders(graph) -> Iterator[list[int]]:
    """Every topological order, lexicographically smallest first (program order comes first)."""
    dg = _digraph(graph)
    n = dg.number_of_nodes()
    indeg = {v: dg.in_degree(v) for v in dg.nodes}
    order: list[int] = []

    def rec():
        if len(order) == n:
            yield list(order)
            return
        for v in sorted(v for v, d in indeg.items() if d == 0 and v not in placed):
            placed.add(v)
            order.append(v)
            for w in dg.successors(v):
                indeg[w] -= 1
            yield from rec()
            for w in dg.successors(v):
                indeg[w] += 1
            order.pop()
            placed.discard(v)

    placed: set[int] = set()
    yield from rec()


def enumerate_orders(graph, *, limit: int = 200_000) -> list[tuple[list[int], int]]:
    """``(order, cycles)`` for every legal order of a tiny block, each placed in order by
    :func:`~lecturekit.core.evaluate`. Raises ScheduleError when there are more than ``limit``
    orders (it names how many there are)."""
    g = as_graph(graph)
    count = count_topological_orders(g)
    if count > limit:
        raise ScheduleError(
            _(
                "the block has {count} legal orders, more than the limit of {limit}; "
                "use optimal_schedule() instead of brute force"
            ).format(count=count, limit=limit)
        )
    return [(order, evaluate(g, order).length) for order in all_orders(g)]


def length_histogram(graph, *, limit: int = 200_000) -> dict[int, int]:
    """How many legal orders run in each number of cycles, shortest first."""
    counts = Counter(length for _, length in enumerate_orders(graph, limit=limit))
    return dict(sorted(counts.items()))


def brute_force_optimal(graph, *, limit: int = 200_000) -> tuple[list[int], int]:
    """The best order by trying them all (the first in lexicographic order among the best)."""
    best = min(enumerate_orders(graph, limit=limit), key=lambda item: item[1])
    return best[0], best[1]


__all__ = [
    "all_orders",
    "brute_force_optimal",
    "count_topological_orders",
    "enumerate_orders",
    "length_histogram",
]
