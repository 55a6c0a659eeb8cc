"""Loop nests and schedules as data: every scheduled nest computes what numpy does; the cache
model against the LRU simulation; the compute ceiling; the search; bad schedules."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.lib.stride_tricks import sliding_window_view

from lecturekit.errors import ConfigError, LectureKitError, ParseError, ScheduleError
from lecturekit.llm import roofline
from lecturekit.tensor.cost import (
    EXAMPLE_CPU,
    compulsory,
    compute_ceiling,
    cost,
    line_trace,
    lru,
    simulate_cache,
    traffic,
)
from lecturekit.tensor.loopnest import (
    Fuse,
    Parallel,
    Reorder,
    Split,
    Tile,
    Unroll,
    Vectorize,
    apply,
    computation,
    conv2d,
    divisors,
    matmul,
    parse_schedule,
    primitive_steps,
    schedule_text,
    steps_of,
)
from lecturekit.tensor.search import exhaustive, local_search, random_search, space

# -- random legal schedules ---------------------------------------------------------------------


@st.composite
def scheduled(draw, max_points=4096):
    """A computation (a matmul or a convolution of random small sizes) and a random legal
    schedule of it, built step by step from the loops as they are after each step."""
    if draw(st.booleans()):
        m, n, k = (draw(st.sampled_from([1, 2, 3, 4, 6, 8, 12])) for _ in range(3))
        comp = matmul(m, n, k)
    else:
        h, w = (draw(st.sampled_from([2, 4, 6, 8])) for _ in range(2))
        r, s = (draw(st.sampled_from([1, 2, 3])) for _ in range(2))
        comp = conv2d(h, w, r, s)
    steps: list = []
    for _ in range(draw(st.integers(0, 6))):
        nest = apply(comp, steps)
        loops = nest.loops
        serial = [lp for lp in loops if lp.kind == "serial"]
        kind = draw(
            st.sampled_from(["split", "reorder", "fuse", "vectorize", "unroll", "parallel"])
        )
        if kind == "split" and serial:
            lp = draw(st.sampled_from(serial))
            step = Split(lp.name, draw(st.sampled_from(divisors(lp.extent))))
        elif kind == "reorder":
            names = [lp.name for lp in loops]
            fixed_first = loops[0].kind == "parallel"
            fixed_last = loops[-1].kind == "vectorized"
            middle = names[int(fixed_first) : len(names) - int(fixed_last)]
            perm = draw(st.permutations(middle))
            step = Reorder(*(names[:1] if fixed_first else []), *perm,
                           *(names[-1:] if fixed_last else []))  # fmt: skip
        elif kind == "fuse":
            pairs = [
                (a, b)
                for a, b in itertools.pairwise(loops)
                if a.kind == "serial" and b.kind == "serial"
            ]
            if not pairs:
                continue
            a, b = draw(st.sampled_from(pairs))
            step = Fuse(a.name, b.name)
        elif kind == "vectorize" and loops[-1].kind == "serial" and not loops[-1].reduce:
            if loops[-1].extent > 64:
                continue
            step = Vectorize(loops[-1].name)
        elif kind == "unroll" and serial:
            lp = draw(st.sampled_from(serial))
            if lp.extent > 64:
                continue
            step = Unroll(lp.name)
        elif kind == "parallel" and loops[0].kind == "serial" and not loops[0].reduce:
            step = Parallel(loops[0].name)
        else:
            continue
        steps.append(step)
    return comp, steps


@given(scheduled(), st.integers(0, 1000))
@settings(max_examples=150, deadline=None)
def test_every_scheduled_nest_equals_numpy(case, seed):
    comp, steps = case
    nest = apply(comp, steps)
    inputs = comp.random_inputs(seed)
    ref = comp.reference(inputs)
    if comp.name == "matmul":
        assert np.array_equal(ref, inputs["A"] @ inputs["B"])
    else:
        windows = sliding_window_view(inputs["I"], inputs["W"].shape)
        assert np.array_equal(ref, np.einsum("yxrs,rs->yx", windows, inputs["W"]))
    assert np.array_equal(nest.run(inputs), ref)  # integer-valued: exact in any order
    assert np.array_equal(nest.run_python(inputs), ref)  # the generated code, run
    # the loops cover the iteration space exactly once
    assert math.prod(lp.extent for lp in nest.loops) == comp.points


@given(scheduled())
@settings(max_examples=60, deadline=None)
def test_schedule_text_round_trips(case):
    comp, steps = case
    assert parse_schedule(schedule_text(steps)) == steps
    assert apply(comp, schedule_text(steps)).loops == apply(comp, steps).loops


def test_float_inputs_differ_only_by_rounding():
    comp = matmul(16, 8, 32)
    inputs = comp.random_inputs(0, integers=False)
    nest = apply(comp, "split k 8\nreorder k_i i j k_o")
    assert np.allclose(nest.run(inputs), inputs["A"] @ inputs["B"], rtol=1e-12, atol=1e-12)


def test_the_nest_text_and_the_tile_step():
    comp = matmul(64, 64, 64)
    steps = [
        Tile("i", "j", 8, 16),
        Split("k", 4),
        Reorder("i_o", "j_o", "k_o", "i_i", "k_i", "j_i"),
    ]
    nest = apply(comp, [*steps, Vectorize("j_i")])
    assert nest.names == ["i_o", "j_o", "k_o", "i_i", "k_i", "j_i"]
    assert [lp.extent for lp in nest.loops] == [8, 4, 16, 8, 4, 16]
    assert nest.loops[-1].kind == "vectorized"
    assert [lp.reduce for lp in nest.loops] == [False, False, True, False, True, False]
    text = nest.text()
    assert "i = i_o * 8 + i_i" in text and "j = j_o * 16 + j_i" in text
    assert primitive_steps(comp, [Tile("i", "j", 8, 16)]) == [
        Split("i", 8),
        Split("j", 16),
        Reorder("i_o", "j_o", "i_i", "j_i", "k"),
    ]


def test_fuse_binds_by_division_and_remainder():
    comp = matmul(6, 4, 2)
    nest = apply(comp, "fuse i j")
    assert nest.names == ["i_j", "k"] and nest.loops[0].extent == 24
    assert "i = i_j // 4" in nest.text() and "j = i_j % 4" in nest.text()


@pytest.mark.parametrize(
    "schedule, message",
    [
        ("split q 4", "there is no loop 'q'"),
        ("split k 5", "k has extent 64 and 5 does not divide it"),
        ("split k 0", "factor must be a whole number >= 1"),
        ("reorder i j", r"permutation\): missing k"),
        ("reorder i j k k", "twice k"),
        ("reorder i j z", "unknown z"),
        ("fuse i k", "needs i directly around k"),
        ("vectorize i", "only the innermost loop"),
        ("vectorize k", "k is a reduction"),
        ("parallel j", "only the outermost loop"),
        ("reorder k i j\nparallel k", "k is a reduction"),
        ("split i 8\nsplit i 2", "there is no loop 'i'"),
        ("reorder i k j\nsplit j 32\nvectorize j_i\nsplit j_i 2", "already vectorized"),
        ("split j 32\nsplit k 2\nreorder i j_o k_o k_i j_i\nvectorize j_i\n"
         "reorder j_i i j_o k_o k_i", "must stay innermost"),
        ("unroll i", None),
        ("split i 2\nfuse i_o j", "needs i_o directly around j"),
    ],
)  # fmt: skip
def test_illegal_schedules_say_which_step_and_why(schedule, message):
    comp = matmul(64, 64, 64)
    if message is None:
        apply(comp, schedule)  # legal
        return
    with pytest.raises(ScheduleError, match=message) as e:
        apply(comp, schedule)
    assert "step " in str(e.value)


def test_unrolling_and_vectorizing_too_much_is_refused():
    comp = matmul(128, 128, 8)
    with pytest.raises(ScheduleError, match="unrolling 128 copies"):
        apply(comp, "unroll i")
    with pytest.raises(ScheduleError, match="too wide"):
        apply(comp, "reorder i k j\nvectorize j")


@pytest.mark.parametrize(
    "text, message",
    [
        ("bogus i", "unknown step 'bogus'"),
        ("split i", "usage: split LOOP FACTOR"),
        ("split i x", "factor must be a whole number"),
        ("tile i j 4", "usage: tile"),
        ("fuse i", "usage: fuse"),
        ("reorder", "usage: reorder"),
        ("split i 4\nvectorize", "usage: vectorize"),
    ],
)
def test_schedule_text_errors_have_a_line_and_column(text, message):
    with pytest.raises(ParseError, match=message) as e:
        parse_schedule(text)
    assert e.value.line == len(text.splitlines())


def test_computation_parsing():
    comp = computation("Y[b, i, j] += X[b, i, k] * W[k, j]", b=2, i=3, j=4, k=5)
    assert [a.name for a in comp.axes] == ["b", "i", "j", "k"]
    assert [a.reduce for a in comp.axes] == [False, False, False, True]
    assert comp.shapes == {"Y": (2, 3, 4), "X": (2, 3, 5), "W": (5, 4)}
    inputs = comp.random_inputs(1)
    assert np.array_equal(apply(comp, "reorder k b j i").run(inputs), inputs["X"] @ inputs["W"])
    strided = computation("O[y] += I[2*y + r] * W[r]", y=5, r=3)
    assert strided.shapes["I"] == (11,)
    ins = strided.random_inputs(0)
    expect = np.array([sum(ins["I"][2 * y + r] * ins["W"][r] for r in range(3)) for y in range(5)])
    assert np.array_equal(apply(strided, "split y 5\nreorder r y_o y_i").run(ins), expect)


@pytest.mark.parametrize(
    "text, extents, exc, message",
    [
        ("C[i, j] = A[i, k]", {"i": 2, "j": 2, "k": 2}, ParseError, r"\+="),
        ("C[i, j] += A[i, k] * B[k, j]", {"i": 2, "j": 2}, ScheduleError, "no extent .* axis k"),
        ("C[i, j] += A[i, k]", {"i": 2, "j": 2, "k": 2, "q": 3}, ScheduleError, "never uses"),
        ("C[i + 1, j] += A[i, j]", {"i": 2, "j": 2}, ParseError, "plain axis names"),
        ("C[i, i] += A[i, j]", {"i": 2, "j": 2}, ParseError, "twice"),
        ("C[i] += A[i - 1]", {"i": 2}, ParseError, "index"),
        ("C[i] += C[i]", {"i": 2}, ParseError, "both the output and an input"),
        ("C[i] += A[i]", {"i": 0}, ScheduleError, ">= 1"),
        ("C[i] +=", {"i": 2}, ParseError, "not a Python statement"),
    ],
)  # fmt: skip
def test_bad_computations(text, extents, exc, message):
    with pytest.raises(exc, match=message):
        computation(text, **extents)


def test_steps_of_shows_each_step():
    views = steps_of(matmul(8, 8, 8), "split i 4\nreorder i_o j k i_i")
    assert [v.k for v in views] == [0, 1, 2]
    assert views[1].changed == ("i_o", "i_i")
    assert views[-1].nest.names == ["i_o", "j", "k", "i_i"]


# -- the cache: model and simulation ------------------------------------------------------------


def test_hand_derived_traffic_of_the_naive_matmul():
    """16×16×16, 16-byte lines (4 floats), 32 lines of cache. Loops i, j, k: the k loop reads
    a row of A (4 lines), a column of B (16 lines), one element of C (1 line): 21 lines fit.
    The j loop does not index A: A's row stays, 4 lines per i, 64 in all. The j loop indexes
    B, but consecutive j share B's lines: 16 lines per 4 values of j, 64 per i, 1024 in all.
    C: one row of 4 lines per i, 64 in all, each written back once."""
    nest = apply(matmul(16, 16, 16), [])
    for t in (traffic(nest, 32 * 16, 16), simulate_cache(nest, 32 * 16, 16)):
        assert t.loads == {"A": 64, "B": 1024, "C": 64}
        assert t.writebacks == 64
    assert traffic(nest, 32 * 16, 16).level == 2  # the k loop's data fits, not the j loop's


@given(scheduled(), st.sampled_from([64, 256, 1024, 1 << 20]), st.sampled_from([8, 16, 32]))
@settings(max_examples=60, deadline=None)
def test_cache_figures_are_between_the_bounds(case, cache_bytes, line_bytes):
    comp, steps = case
    nest = apply(comp, steps)
    sim = simulate_cache(nest, cache_bytes, line_bytes)
    model = traffic(nest, cache_bytes, line_bytes)
    low = compulsory(nest, line_bytes)
    accesses = comp.points * (len(comp.inputs) + 1)
    for t in (sim, model):
        for tensor in comp.shapes:
            assert t.loads[tensor] >= low.loads[tensor]
        assert low.lines <= t.lines <= 2 * accesses
    if sum(low.loads.values()) <= cache_bytes // line_bytes:  # everything fits
        assert sim.loads == low.loads == model.loads
        assert sim.writebacks == low.writebacks == model.writebacks


def test_model_and_simulation_agree_on_the_chapters_schedules():
    """64³ on an 8 KiB cache (the chapter's check, scaled down from 128³ on 32 KiB)."""
    comp = matmul(64, 64, 64)
    agree = {
        "": 17152,
        "reorder i k j": 17152,
        "tile i j 16 16\nsplit k 16\nreorder i_o j_o k_o i_i k_i j_i": 2560,
        "tile i j 32 32\nsplit k 32\nreorder i_o j_o k_o i_i k_i j_i": 2048,
    }
    for schedule, lines in agree.items():
        nest = apply(comp, schedule)
        assert traffic(nest, 8192, 64).lines == lines
        assert simulate_cache(nest, 8192, 64).lines == lines


def test_the_simulation_counts_writebacks_of_evicted_lines():
    comp = matmul(4, 64, 1)  # C = A · B with k = 1: every C line written once
    nest = apply(comp, "reorder j i k")  # column by column: C's lines are evicted dirty
    sim = simulate_cache(nest, 4 * 16, 16)  # 4 lines
    assert sim.writebacks >= compulsory(nest, 16).writebacks
    assert sim.loads["C"] == sim.writebacks  # every line loaded is written back once


def test_lru_on_a_plain_trace_by_hand():
    """Two lines of cache: A0 and B0 loaded, C0 written (loaded, dirty) evicts A0; A0 again
    evicts B0; B0 again evicts C0 (dirty: one write-back); at the end nothing left is dirty."""
    trace = [("A", 0, False), ("B", 0, False), ("C", 0, True), ("A", 0, False), ("B", 0, False)]
    assert lru(trace, 2) == ({"A": 2, "B": 2, "C": 1}, 1)
    assert lru(trace, 3) == ({"A": 1, "B": 1, "C": 1}, 1)  # everything fits: C0 at the end
    assert lru([("C", 0, True), ("C", 0, True), ("C", 1, False)], 1) == ({"C": 2}, 1)
    # a hit moves a line to the front: A0 is used again before B0, so B0 is evicted, not A0
    assert lru([("A", 0, False), ("B", 0, False), ("A", 0, False), ("C", 0, False)], 2)[0] == {
        "A": 1,
        "B": 1,
        "C": 1,
    }
    assert lru([("B", 3, False), ("A", 1, False)], 4) == ({"B": 1, "A": 1}, 0)  # first use order
    assert lru([], 4) == ({}, 0)


@given(scheduled(), st.sampled_from([1, 2, 4, 16, 64]), st.sampled_from([8, 16, 32]))
@settings(max_examples=40, deadline=None)
def test_lru_of_the_line_trace_is_the_simulation(case, cache_lines, line_bytes):
    comp, steps = case
    cache_bytes = cache_lines * line_bytes
    nest = apply(comp, steps)
    trace = line_trace(nest, line_bytes)
    assert len(trace) == comp.points * (len(comp.inputs) + 1)
    assert sum(write for _, _, write in trace) == comp.points  # the output, once a point
    sim = simulate_cache(nest, cache_bytes, line_bytes)
    loads, writebacks = lru(trace, cache_bytes // line_bytes)
    assert loads == {t: n for t, n in sim.loads.items() if n} and writebacks == sim.writebacks


def test_lru_input_is_checked():
    with pytest.raises(ConfigError, match="lines"):
        lru([("A", 0, False)], 0)
    with pytest.raises(ConfigError, match=r"trace\[1\]"):
        lru([("A", 0, False), ("A", 0)], 2)


def test_cache_inputs_are_checked():
    nest = apply(matmul(4, 4, 4), [])
    with pytest.raises(ConfigError):
        simulate_cache(nest, 100, 64)
    with pytest.raises(ConfigError):
        traffic(nest, 0, 64)
    with pytest.raises(ConfigError):
        simulate_cache(nest, 64, 6)  # a line of 6 bytes holds no whole float
    big = apply(matmul(256, 256, 256), [])
    with pytest.raises(ScheduleError, match="use the model"):
        simulate_cache(big, 32768, 64)


# -- compute ceiling and roofline ---------------------------------------------------------------


def test_compute_ceiling_by_hand():
    cpu = EXAMPLE_CPU  # 4 cores, 8 lanes, 2 FMA units of latency 4, 3 GHz
    comp = matmul(128, 128, 128)
    # naive: k innermost is one chain of dependent FMAs: one FMA per 4 cycles, scalar
    ceiling, lanes, cores, chains = compute_ceiling(apply(comp, []), cpu)
    assert (lanes, cores, chains) == (1, 1, 1)
    assert ceiling == pytest.approx(2 * 3e9 / 4)
    # i k j: the j loop's 128 iterations are independent (capped at 16 registers)
    ceiling, *_ = compute_ceiling(apply(comp, "reorder i k j"), cpu)
    assert ceiling == pytest.approx(2 * 2 * 3e9)  # two scalar FMA pipes, full
    # + vectorize j by 8 lanes, 4 row blocks as independent chains: 8 needed, 4 given
    s = "reorder i k j\nsplit j 8\nsplit i 4\nreorder i_o k i_i j_o j_i\nvectorize j_i"
    ceiling, lanes, cores, chains = compute_ceiling(apply(comp, s), cpu)
    assert (lanes, chains) == (8, 64 if False else 16)
    assert ceiling == pytest.approx(2 * 8 * 2 * 3e9)
    s = "split j 8\nreorder i k j_o j_i\nvectorize j_i"  # one vector chain per j_o ... 16
    assert compute_ceiling(apply(comp, s), cpu)[3] == 16
    s = "split j 8\nreorder i j_o k j_i\nvectorize j_i"  # k inside j_o: one chain
    ceiling, lanes, cores, chains = compute_ceiling(apply(comp, s), cpu)
    assert chains == 1 and ceiling == pytest.approx(8 * 2 * 3e9 / 4)
    s = "split i 32\nparallel i_o\nreorder i_o i_i k j\nsplit j 8\nvectorize j_i"
    ceiling, lanes, cores, chains = compute_ceiling(apply(comp, s), cpu)
    assert cores == 4 and ceiling == pytest.approx(cpu.peak_flops)


def test_cost_uses_chapter_11s_roofline():
    nest = apply(matmul(128, 128, 128), "reorder i k j\nsplit j 8\nvectorize j_i")
    c = cost(nest)
    by_hand = max(c.flops / c.ceiling, c.bytes / EXAMPLE_CPU.bandwidth)
    assert c.seconds == pytest.approx(by_hand)
    assert c.seconds == pytest.approx(roofline.op_time(c.op, c.ceiling, EXAMPLE_CPU.bandwidth))
    assert c.op.bytes_moved == c.bytes and c.op.flops == 2 * 128**3
    assert c.intensity == pytest.approx(c.op.intensity)
    assert c.attainable == pytest.approx(c.flops / c.seconds)
    assert EXAMPLE_CPU.roof().ridge == pytest.approx(384e9 / 40e9)


def test_cpu_is_checked():
    with pytest.raises(ConfigError, match="lanes"):
        EXAMPLE_CPU.with_(lanes=0)
    with pytest.raises(ConfigError, match="multiple of line_bytes"):
        EXAMPLE_CPU.with_(cache_bytes=1000)


# -- search -------------------------------------------------------------------------------------


def test_exhaustive_search_finds_the_best_of_the_space():
    comp = matmul(32, 32, 32)
    sp = space(comp, [2, 8, 32], vectorize=True, parallel=True)
    result = exhaustive(sp, time_limit=None)
    assert result.evaluated == sp.size and not result.timed_out
    times = [cost(apply(comp, c.steps(comp))).seconds for c in sp]
    assert result.best_cost.seconds == pytest.approx(min(times))
    nest = apply(comp, result.steps())
    inputs = comp.random_inputs(5)
    assert np.array_equal(nest.run(inputs), inputs["A"] @ inputs["B"])


@pytest.mark.parametrize("method", [random_search, local_search])
def test_searches_are_deterministic_and_legal(method):
    comp = matmul(64, 32, 16)
    sp = space(comp)
    a = method(sp, budget=60, seed=3, time_limit=None)
    b = method(sp, budget=60, seed=3, time_limit=None)
    assert a.history == b.history and a.best == b.best
    assert a.evaluated == 60
    assert a.best_so_far == sorted(a.best_so_far, reverse=True)
    nest = apply(comp, a.steps())
    inputs = comp.random_inputs(1)
    assert np.array_equal(nest.run(inputs), inputs["A"] @ inputs["B"])
    assert a.best_cost.seconds == min(a.history)


@pytest.mark.parametrize("method", [exhaustive, random_search, local_search])
def test_the_time_limit_holds(method):
    """A limit far below what the budget needs: the search stops early, says so, and still
    returns a legal schedule (the first evaluation always happens)."""
    comp = matmul(128, 128, 128)
    sp = space(comp)
    kw = {} if method is exhaustive else {"budget": 100_000}
    result = method(sp, time_limit=1e-9, **kw)
    assert result.timed_out
    assert result.evaluated < 10
    if result.best is not None:
        apply(comp, result.steps())


def test_local_search_does_not_loop_on_a_small_space():
    comp = matmul(2, 2, 2)
    sp = space(comp, [1, 2], orders=False, vectorize=False, parallel=False)
    result = local_search(sp, budget=1000, time_limit=None)
    assert result.evaluated == sp.size == 8


def test_search_bad_input():
    comp = matmul(8, 8, 8)
    with pytest.raises(ConfigError, match="budget"):
        random_search(space(comp), budget=0)
    with pytest.raises(ConfigError, match="time_limit"):
        local_search(space(comp), time_limit=-1)
    with pytest.raises(ConfigError, match="no factor"):
        space(comp, [3, 5])
    with pytest.raises(ConfigError, match="factors"):
        space(comp, [0])


def test_errors_are_lecturekit_errors():
    for exc in (ScheduleError, ParseError, ConfigError):
        assert issubclass(exc, LectureKitError)
