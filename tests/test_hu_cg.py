"""When scheduling is easy (lecturekit.core.polynomial): Hu's algorithm is optimal on unit-time
in-forests with any number of processors, Coffman–Graham on unit-time tasks with two processors,
both checked against an independent exact solver; and the examples where each stops being
optimal (a general DAG for Hu, three processors or tasks of two lengths for Coffman–Graham) have
a verified shorter schedule."""

import itertools
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import evaluate, verify
from lecturekit.core.polynomial import (
    coffman_graham_schedule,
    hu_schedule,
    is_in_forest,
    is_out_forest,
    task_graph,
    unit_times,
)
from lecturekit.core.priorities import coffman_graham_labels, hu_levels
from lecturekit.core.search_space import brute_force_optimal
from lecturekit.errors import ScheduleError

#: the examples of chapter 13, section 4 (found by search, checked here)
HU_TWO_PROCESSORS = (6, [(0, 4), (1, 4), (2, 3), (2, 4), (2, 5)])
CG_THREE_PROCESSORS = (9, [(0, 3), (1, 2), (1, 5), (3, 7), (3, 8), (4, 8), (6, 8)])
CG_TWO_LENGTHS = (6, [(0, 3), (0, 4), (0, 5), (1, 4), (2, 3), (2, 4), (4, 5)], [1, 2, 1, 2, 1, 1])


def optimum(n: int, precedences, processors: int) -> int:
    """The fewest time steps for unit tasks: dynamic programming over the sets of finished
    tasks, each step running as many ready tasks as there are processors (an optimal schedule
    never leaves a processor idle while a task is ready: moving that task earlier breaks
    nothing). Independent of lecturekit's list scheduler and search."""
    pred = [0] * n
    for i, j in precedences:
        pred[j] |= 1 << i
    full = (1 << n) - 1

    @lru_cache(None)
    def steps(done: int) -> int:
        if done == full:
            return 0
        ready = [i for i in range(n) if not done >> i & 1 and pred[i] & done == pred[i]]
        k = min(processors, len(ready))
        return 1 + min(
            steps(done | sum(1 << i for i in chosen)) for chosen in itertools.combinations(ready, k)
        )

    return steps(0)


def in_forest(seed: int):
    rng = random.Random(seed)
    n = rng.randrange(1, 12)
    return n, [(i, rng.randrange(i + 1, n)) for i in range(n - 1) if rng.random() < 0.85]


def dag(seed: int, limit: int = 10):
    rng = random.Random(seed)
    n = rng.randrange(1, limit)
    p = rng.choice([0.15, 0.25, 0.4])
    return n, [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_hu_is_optimal_on_in_forests(seed, m):
    n, prec = in_forest(seed)
    g = task_graph(n, prec, m)
    assert is_in_forest(g) and unit_times(g)
    s = hu_schedule(g)
    verify(g, s)
    assert s.length == optimum(n, prec, m)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6))
def test_coffman_graham_is_optimal_on_two_processors(seed):
    n, prec = dag(seed)
    g = task_graph(n, prec, 2)
    s = coffman_graham_schedule(g)
    verify(g, s)
    assert s.length == optimum(n, prec, 2)


def test_the_optimum_agrees_with_the_core_search():
    """The exact solver above against lecturekit's brute force over orders (on a few graphs)."""
    for seed in range(12):
        n, prec = dag(seed, limit=7)
        for m in (1, 2, 3):
            g = task_graph(n, prec, m)
            assert brute_force_optimal(g)[1] == optimum(n, prec, m)


def test_hu_is_not_optimal_on_a_general_dag():
    n, prec = HU_TWO_PROCESSORS
    g = task_graph(n, prec, 2)
    assert not is_in_forest(g)
    with pytest.raises(ScheduleError, match="in-forest"):
        hu_schedule(g)
    assert hu_levels(g) == [2, 2, 2, 1, 1, 1]  # three tasks tie: Hu's rule cannot tell them apart
    assert hu_schedule(g, check=False).length == 4
    assert optimum(n, prec, 2) == 3
    assert coffman_graham_schedule(g).length == 3  # its labels break the tie right


def test_coffman_graham_is_not_optimal_on_three_processors():
    n, prec = CG_THREE_PROCESSORS
    g = task_graph(n, prec, 3)
    with pytest.raises(ScheduleError, match="two processors"):
        coffman_graham_schedule(g)
    assert coffman_graham_schedule(g, check=False).length == 4
    order, length = brute_force_optimal(g)
    better = evaluate(g, order)
    verify(g, better)
    assert length == better.length == 3 == optimum(n, prec, 3)


def test_coffman_graham_is_not_optimal_with_tasks_of_two_lengths():
    n, prec, durations = CG_TWO_LENGTHS
    g = task_graph(n, prec, 2, durations)
    assert not unit_times(g)
    with pytest.raises(ScheduleError, match="unit-time"):
        coffman_graham_schedule(g)
    assert coffman_graham_schedule(g, check=False).length == 5
    order, length = brute_force_optimal(g)
    verify(g, evaluate(g, order))
    assert length == 4


def test_labels_and_levels_on_a_small_graph():
    #   0 -> 2, 1 -> 2, 2 -> 3 : an in-tree
    g = task_graph(4, [(0, 2), (1, 2), (2, 3)], 2)
    assert hu_levels(g) == [3, 3, 2, 1]
    labels = coffman_graham_labels(g)
    assert sorted(labels) == [1, 2, 3, 4] and labels[3] == 1 and labels[2] == 2
    assert is_in_forest(g) and not is_out_forest(g)
    # transitive edges change nothing: the labels are computed on the reduction
    assert coffman_graham_labels(task_graph(4, [(0, 2), (1, 2), (2, 3), (0, 3)], 2)) == labels


@pytest.mark.parametrize(
    "args, words",
    [
        ((3, [(0, 5)], 2), "outside"),
        ((2, [(0, 1)], 0), "processors"),
        ((2, [(0, 1)], 2, [1, 0]), "duration"),
        ((2, [(0, 1), (1, 0)], 2), "cycle"),
        ((2, ["ab"], 2), "precedence"),
    ],
)
def test_bad_task_graphs(args, words):
    with pytest.raises(ScheduleError, match=words):
        task_graph(*args)
