"""What a scheduled loop nest costs: memory traffic through a cache, and chapter 11's roofline.

Every schedule of a computation does the same FLOPs; what changes is how often data crosses
between DRAM and the cache, and how much of the processor's arithmetic the innermost loops can
use. Two ways to the traffic:

- :func:`simulate_cache` runs the nest's address trace through a fully associative LRU cache
  of lines (write-back: a dirty line of the output costs a write when it is evicted or at the
  end). Exact for that cache, and slow (one Python step per access): for small nests. The
  cache itself is :func:`lru`, on a plain trace of ``(tensor, line, write)`` accesses
  (:func:`line_trace` gives a nest's).
- :func:`traffic` is the model a search can afford, the reuse analysis of the tiling
  literature (Wolf & Lam 1991): from the innermost loop outward, find the outermost level
  ``d`` whose loops' data (its *footprint*, counted in cache lines) fits in the cache. Inside
  that level every tensor is loaded once per execution; across the loops just outside it that
  do not index a tensor, the tensor stays in the cache; every other loop outside multiplies its
  loads. It ignores conflicts and partial reuse, and is held against the simulation in tests
  and in chapter 14.

:func:`cost` puts a nest on the roofline (:mod:`lecturekit.llm.roofline`): FLOPs over the
modelled bytes is its arithmetic intensity; its *compute ceiling* (Williams et al.'s
"ceilings") is the processor's peak scaled by what the schedule uses: vector lanes (a
vectorized innermost loop whose accesses are contiguous), cores (a parallel outer loop) and
independent accumulators: a reduction loop innermost is a recurrence through the accumulator,
one multiply-add per FMA latency (chapter 07's RecMII), unless loops inside the reduction give
independent chains.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

import numpy as np

from ..errors import ConfigError, ScheduleError
from ..language import N_, _
from ..llm import roofline
from .loopnest import Access, LoopNest, _eval, _flat

#: the most accesses :func:`simulate_cache` simulates
MAX_ACCESSES = 4_000_000


@dataclass(frozen=True)
class CPU:
    """A processor for the loop-nest cost model: cores, SIMD, one cache level, DRAM."""

    name: str
    cores: int
    lanes: int  #: float32 lanes of one vector register
    fma_units: int  #: vector FMA instructions per cycle per core
    fma_latency: int  #: cycles from an FMA to the next that needs its result
    clock_hz: float
    cache_bytes: int  #: the cache modelled (per core)
    line_bytes: int
    bandwidth: float  #: DRAM bytes/s (shared by the cores)
    registers: int = 16  #: vector registers (accumulators beyond them spill)

    def __post_init__(self):
        for f in ("cores", "lanes", "fma_units", "fma_latency", "cache_bytes", "line_bytes"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(
                    _("CPU {name!r}: {f} must be a whole number >= 1, got {v!r}").format(
                        name=self.name, f=f, v=v
                    )
                )
        for f in ("clock_hz", "bandwidth"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
                raise ConfigError(
                    _("CPU {name!r}: {f} must be a number > 0, got {v!r}").format(
                        name=self.name, f=f, v=v
                    )
                )
        if self.cache_bytes % self.line_bytes:
            raise ConfigError(
                _("CPU {name!r}: cache_bytes must be a multiple of line_bytes").format(
                    name=self.name
                )
            )

    @property
    def peak_flops(self) -> float:
        return self.cores * self.fma_units * self.lanes * 2 * self.clock_hz

    @property
    def cache_lines(self) -> int:
        return self.cache_bytes // self.line_bytes

    def roof(self) -> roofline.Roof:
        return roofline.Roof(self.name, self.peak_flops, self.bandwidth)

    def with_(self, **changes) -> CPU:
        from dataclasses import replace

        return replace(self, **changes)


#: round numbers of a current 4-core desktop CPU with AVX2 (8 float lanes, two FMA pipes of
#: latency 4, 3 GHz), its 32 KiB L1 data cache, 64-byte lines and ~40 GB/s of DRAM: an
#: illustration, not a measurement of this machine
EXAMPLE_CPU = CPU(
    N_("example CPU (4 cores, AVX2)"),
    cores=4,
    lanes=8,
    fma_units=2,
    fma_latency=4,
    clock_hz=3e9,
    cache_bytes=32 * 1024,
    line_bytes=64,
    bandwidth=40e9,
)


# -- addresses ----------------------------------------------------------------------------------


def _tensor_order(nest: LoopNest) -> list[str]:
    comp = nest.computation
    return list(dict.fromkeys([a.tensor for a in comp.inputs] + [comp.output.tensor]))


def _line_ids(nest: LoopNest, acc: Access, values, line_elems: int) -> np.ndarray:
    shape = nest.computation.shapes[acc.tensor]
    return _flat(acc, values, shape) // line_elems


def _elems_per_line(nest: LoopNest, line_bytes: int) -> int:
    eb = nest.computation.element_bytes
    if line_bytes % eb:
        raise ConfigError(
            _("a line of {line_bytes} bytes does not hold whole {eb}-byte elements").format(
                line_bytes=line_bytes, eb=eb
            )
        )
    return line_bytes // eb


# -- simulation ---------------------------------------------------------------------------------


@dataclass
class Traffic:
    """Lines loaded per tensor, lines written back (the output), bytes in all."""

    loads: dict[str, int]
    writebacks: int
    line_bytes: int
    method: str
    level: int | None = None  #: the model's fitting level (loops[level:] fit), None: simulated
    notes: list[str] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return sum(self.loads.values()) + self.writebacks

    @property
    def bytes(self) -> int:
        return self.lines * self.line_bytes

    def by_tensor_bytes(self, output: str) -> tuple[dict, dict]:
        """(reads, writes) in bytes by tensor, as :class:`lecturekit.llm.roofline.Op` wants."""
        reads = {t: n * self.line_bytes for t, n in self.loads.items()}
        return reads, {output: self.writebacks * self.line_bytes}


class _LRU:
    """A fully associative LRU write-back, write-allocate cache of ``capacity`` lines: a miss
    loads the line (a write too: the rest of the line must be there), a write makes its line
    dirty, and a dirty line costs a write-back when it is evicted or when the run ends."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.cache: OrderedDict = OrderedDict()  # line key -> dirty
        self.loads: Counter = Counter()
        self.writebacks = 0

    def run(self, keys, writes, tensor_of) -> None:
        """Access ``keys`` in order (``writes[k]``: whether access ``k`` writes); a miss counts
        a load of ``tensor_of(key)``."""
        cache, capacity, loads = self.cache, self.capacity, self.loads
        writebacks = 0
        for key, write in zip(keys, writes, strict=True):
            if key in cache:
                cache.move_to_end(key)
                if write:
                    cache[key] = True
                continue
            loads[tensor_of(key)] += 1
            cache[key] = write
            if len(cache) > capacity:
                _, dirty = cache.popitem(last=False)
                writebacks += dirty
        self.writebacks += writebacks

    def finish(self) -> int:
        """Write back every dirty line still cached; the write-backs in all."""
        self.writebacks += sum(1 for dirty in self.cache.values() if dirty)
        self.cache.clear()
        return self.writebacks


def lru(trace, lines: int) -> tuple[dict[str, int], int]:
    """A trace of line accesses through a fully associative LRU write-back cache of ``lines``
    lines (the cache :func:`simulate_cache` simulates, on plain data).

    ``trace`` is a sequence of ``(tensor, line, write)``: the tensor's name, the number of the
    line within it, and whether the access writes (a write to a line not cached loads it first,
    write-allocate). Returns ``(loads, writebacks)``: lines loaded per tensor (every tensor of
    the trace, in order of first access) and dirty lines written back, at eviction or at the
    end. Problem set 14 asks for this function."""
    if isinstance(lines, bool) or not isinstance(lines, int) or lines < 1:
        raise ConfigError(
            _("lines: the cache must hold a whole number >= 1 of lines, got {lines!r}").format(
                lines=lines
            )
        )
    keys, writes = [], []
    for k, access in enumerate(trace):
        try:
            tensor, line, write = access
        except (TypeError, ValueError):
            raise ConfigError(
                _("trace[{k}]: expected (tensor, line, write), got {access!r}").format(
                    k=k, access=access
                )
            ) from None
        keys.append((tensor, line))
        writes.append(bool(write))
    sim = _LRU(lines)
    sim.run(keys, writes, lambda key: key[0])
    writebacks = sim.finish()
    first = dict.fromkeys(key[0] for key in keys)
    return {t: sim.loads[t] for t in first}, writebacks


def line_trace(nest: LoopNest, line_bytes: int = 64) -> list[tuple[str, int, bool]]:
    """The nest's accesses in execution order as :func:`lru` reads them, ``(tensor, line,
    write)``: per iteration point the inputs are read in order, then the output is read and
    written (one access that writes). Lines are numbered within each tensor (row-major)."""
    comp = nest.computation
    if comp.points * (len(comp.inputs) + 1) > MAX_ACCESSES:
        raise ScheduleError(_("{name}: too many accesses for a trace").format(name=comp.name))
    per_line = _elems_per_line(nest, line_bytes)
    accs = [*comp.inputs, comp.output]
    out: list[tuple[str, int, bool]] = []
    for values in nest.chunks():
        cols = [_line_ids(nest, a, values, per_line).tolist() for a in accs]
        for row in zip(*cols, strict=True):
            out.extend((a.tensor, int(x), a is comp.output) for a, x in zip(accs, row, strict=True))
    return out


def simulate_cache(nest: LoopNest, cache_bytes: int, line_bytes: int = 64) -> Traffic:
    """Run the nest's accesses, in order, through a fully associative LRU write-back cache of
    ``cache_bytes``: per iteration point the inputs are read in order, then the output is read
    and written (:func:`line_trace`, :func:`lru`). Counts the lines loaded per tensor and the
    dirty lines written back (at eviction, and all the rest at the end)."""
    if isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int) or cache_bytes < 1:
        raise ConfigError(
            _("cache_bytes must be a whole number >= 1, got {cache_bytes!r}").format(
                cache_bytes=cache_bytes
            )
        )
    if cache_bytes % line_bytes:
        raise ConfigError(_("cache_bytes must be a multiple of line_bytes"))
    comp = nest.computation
    accesses = comp.points * (len(comp.inputs) + 1)
    if accesses > MAX_ACCESSES:
        raise ScheduleError(
            _(
                "{name}: {accesses:,} accesses; the cache simulation runs at most "
                "{max_accesses:,} (use the model, cost.traffic, for larger nests)"
            ).format(name=comp.name, accesses=accesses, max_accesses=MAX_ACCESSES)
        )
    per_line = _elems_per_line(nest, line_bytes)
    tensors = _tensor_order(nest)
    tid = {t: k for k, t in enumerate(tensors)}
    accs = [*comp.inputs, comp.output]
    n_acc, n_t = len(accs), len(tensors)
    sim = _LRU(cache_bytes // line_bytes)
    for values in nest.chunks():
        # one integer a line: line number * tensors + tensor (faster than a tuple key)
        cols = [_line_ids(nest, a, values, per_line) * n_t + tid[a.tensor] for a in accs]
        keys = np.stack(cols, axis=1).reshape(-1).tolist()
        writes = [False] * (n_acc - 1) + [True]
        sim.run(keys, writes * (len(keys) // n_acc), lambda key: tensors[key % n_t])
    writebacks = sim.finish()
    loads = {t: sim.loads[t] for t in tensors}
    return Traffic(loads, writebacks, line_bytes, N_("LRU simulation"))


# -- the model ----------------------------------------------------------------------------------


def _footprint(nest: LoopNest, acc: Access, level: int, per_line: int, memo: dict) -> int:
    """Distinct cache lines ``acc`` touches while loops[level:] run once (outer loops at 0)."""
    mine = nest.loops_of(acc)
    inner = [lp for lp in nest.loops[level:] if lp.name in mine]
    key = (acc, tuple((lp.name, lp.extent) for lp in inner), nest.bindings)
    if key in memo:
        return memo[key]
    extents = [lp.extent for lp in inner]
    env = {lp.name: 0 for lp in nest.loops}
    if extents:
        grids = np.indices(extents).reshape(len(extents), -1)
        for k, lp in enumerate(inner):
            env[lp.name] = grids[k]
    b = nest.binding
    values = {a.name: np.asarray(_eval(b[a.name], env)) for a in nest.computation.axes}
    lines = _line_ids(nest, acc, values, per_line)
    result = int(np.unique(lines).size)
    memo[key] = result
    return result


#: the most points whose footprint the model enumerates for one tensor at one level
MAX_FOOTPRINT_POINTS = 1 << 22


def traffic(nest: LoopNest, cache_bytes: int, line_bytes: int = 64, memo: dict | None = None):
    """The reuse model's lines loaded per tensor and written back (see the module docstring).

    ``memo`` (a dict) may be shared between calls on nests of the same computation (a search):
    footprints are remembered by the loops they depend on."""
    if isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int) or cache_bytes < 1:
        raise ConfigError(
            _("cache_bytes must be a whole number >= 1, got {cache_bytes!r}").format(
                cache_bytes=cache_bytes
            )
        )
    comp = nest.computation
    per_line = _elems_per_line(nest, line_bytes)
    capacity = cache_bytes // line_bytes
    memo = {} if memo is None else memo
    # one access per tensor (an input read twice, as A in A[i,k]*A[k,j], counts its first use
    # for the indexing and both for the footprint)
    accs = [*comp.inputs, comp.output]
    loops = nest.loops
    n = len(loops)
    for acc in accs:
        mine = nest.loops_of(acc)
        if math.prod(lp.extent for lp in loops if lp.name in mine) > MAX_FOOTPRINT_POINTS:
            raise ScheduleError(
                _("{name}: too large for the footprint model").format(name=comp.name)
            )
    by_tensor: dict[str, list[Access]] = {}
    for acc in accs:
        by_tensor.setdefault(acc.tensor, []).append(acc)

    def tensor_lines(t: str, level: int) -> int:
        found = by_tensor[t]
        if len(found) == 1:
            return _footprint(nest, found[0], level, per_line, memo)
        return sum(_footprint(nest, a, level, per_line, memo) for a in found)  # an upper bound

    def working_set(level: int) -> int:
        return sum(tensor_lines(t, level) for t in by_tensor)

    # the outermost level whose loops' data fits; a parallel outer loop gives no reuse across
    # its iterations (they run on different cores, each with its own cache)
    lowest = 1 if loops and loops[0].kind == "parallel" else 0
    level = n
    while level > lowest and working_set(level - 1) <= capacity:
        level -= 1
    loads: dict[str, int] = {}
    notes = []
    for t, found in by_tensor.items():
        indexes = set().union(*(nest.loops_of(a) for a in found))
        if level == 0:
            count = tensor_lines(t, 0)
            notes.append(
                _("{t}: everything fits: each line once ({count})").format(t=t, count=count)
            )
            loads[t] = count
            continue
        # loops just outside the fitting level that do not index t keep t in the cache
        e = level
        while e > lowest and loops[e - 1].name not in indexes:
            e -= 1
        if e < level:
            count = tensor_lines(t, level) * math.prod(lp.extent for lp in loops[:e])
            inside = (
                _("loops from {name}").format(name=loops[level].name)
                if level < n
                else _("the body")
            )
            kept = ", ".join(lp.name for lp in loops[e:level])
            why = _("{lines} lines per run of {inside}, kept across {kept}").format(
                lines=tensor_lines(t, level), inside=inside, kept=kept
            )
        else:
            # loop level-1 indexes t: consecutive iterations reuse shared lines (spatial reuse)
            count = tensor_lines(t, level - 1) * math.prod(lp.extent for lp in loops[: level - 1])
            why = _("{lines} lines per run of loop {name}").format(
                lines=tensor_lines(t, level - 1), name=loops[level - 1].name
            )
        outer = [lp.name for lp in loops[: (e if e < level else level - 1)]]
        notes.append(
            _("{tensor}: {why}, reloaded for every {loops}").format(
                tensor=t, why=why, loops=", ".join(outer)
            )
            if outer
            else f"{t}: {why}"
        )
        loads[t] = count
    writebacks = loads[comp.output.tensor]
    return Traffic(loads, writebacks, line_bytes, N_("reuse model"), level, notes)


def compulsory(nest: LoopNest, line_bytes: int = 64) -> Traffic:
    """The least traffic of any schedule: every line of every tensor loaded once, the output's
    written back once (an infinite cache)."""
    comp = nest.computation
    per_line = _elems_per_line(nest, line_bytes)
    loads = {}
    for t, shape in comp.shapes.items():
        loads[t] = math.ceil(math.prod(shape) / per_line)
    order = _tensor_order(nest)
    return Traffic(
        {t: loads[t] for t in order}, loads[comp.output.tensor], line_bytes, N_("compulsory")
    )


# -- the compute ceiling and the roofline -------------------------------------------------------


@dataclass
class Cost:
    """A nest on the roofline of a CPU."""

    nest: LoopNest
    cpu: CPU
    flops: int
    traffic: Traffic
    lanes_used: float  #: float lanes per FMA instruction the innermost loop fills
    cores_used: float
    chains: int  #: independent accumulations in flight (capped at the registers)
    ceiling: float  #: FLOP/s the arithmetic can reach with this schedule
    seconds: float  #: roofline time: max(flops / ceiling, bytes / bandwidth)
    op: roofline.Op

    @property
    def bytes(self) -> int:
        return self.traffic.bytes

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes

    @property
    def attainable(self) -> float:
        return roofline.attainable_flops(self.intensity, self.ceiling, self.cpu.bandwidth)

    @property
    def bound(self) -> str:
        compute, memory = self.flops / self.ceiling, self.bytes / self.cpu.bandwidth
        return N_("compute") if compute >= memory else N_("memory")

    @property
    def gflops(self) -> float:
        return self.flops / self.seconds / 1e9

    def summary(self) -> str:
        text = (
            _(
                "{kib:,.1f} KiB of DRAM traffic, {intensity:.2f} FLOP/B; ceiling "
                "{ceiling:,.1f} GFLOP/s (lanes {lanes_used:g}, cores {cores_used:g}, "
                "chains {chains}); compute-bound, {us:,.2f} µs = {gflops:,.1f} GFLOP/s"
            )
            if self.bound == "compute"
            else _(
                "{kib:,.1f} KiB of DRAM traffic, {intensity:.2f} FLOP/B; ceiling "
                "{ceiling:,.1f} GFLOP/s (lanes {lanes_used:g}, cores {cores_used:g}, "
                "chains {chains}); memory-bound, {us:,.2f} µs = {gflops:,.1f} GFLOP/s"
            )
        )
        return text.format(
            kib=self.bytes / 1024,
            intensity=self.intensity,
            ceiling=self.ceiling / 1e9,
            lanes_used=self.lanes_used,
            cores_used=self.cores_used,
            chains=self.chains,
            us=self.seconds * 1e6,
            gflops=self.gflops,
        )


def _contiguous(nest: LoopNest, acc: Access, loop: str) -> bool:
    """Does stepping ``loop`` by one move ``acc`` by at most one element (unit stride or not at
    all)? Checked by evaluating the index at loop = 0 and 1."""
    env0 = {lp.name: 0 for lp in nest.loops}
    env1 = dict(env0, **{loop: 1})
    b = nest.binding
    shape = nest.computation.shapes[acc.tensor]
    v0 = {a.name: np.asarray(_eval(b[a.name], env0)) for a in nest.computation.axes}
    v1 = {a.name: np.asarray(_eval(b[a.name], env1)) for a in nest.computation.axes}
    step = int(_flat(acc, v1, shape)) - int(_flat(acc, v0, shape))
    return step in (0, 1)


def compute_ceiling(nest: LoopNest, cpu: CPU) -> tuple[float, float, float, int]:
    """(FLOP/s ceiling, lanes used, cores used, independent chains) of the schedule."""
    loops = nest.loops
    comp = nest.computation
    lanes = 1.0
    if loops and loops[-1].kind == "vectorized":
        inner = loops[-1]
        if all(_contiguous(nest, a, inner.name) for a in (*comp.inputs, comp.output)):
            lanes = inner.extent / math.ceil(inner.extent / cpu.lanes)
            lanes = min(lanes, cpu.lanes)
    cores = 1.0
    if loops and loops[0].kind == "parallel":
        ext = loops[0].extent
        cores = ext / math.ceil(ext / cpu.cores)
    # independent accumulator chains: iterations of the loops inside the innermost reduction
    # loop (vector iterations for the vectorized one); no reduction loop: unbounded
    reductions = [k for k, lp in enumerate(loops) if lp.reduce]
    if not reductions:
        chains = cpu.registers
    else:
        chains = 1
        for lp in loops[reductions[-1] + 1 :]:
            chains *= math.ceil(lp.extent / cpu.lanes) if lp.kind == "vectorized" else lp.extent
        chains = min(chains, cpu.registers)
    needed = cpu.fma_latency * cpu.fma_units
    per_core = cpu.fma_units * lanes * 2 * cpu.clock_hz * min(1.0, chains / needed)
    return per_core * cores, lanes, cores, chains


def cost(nest: LoopNest, cpu: CPU = EXAMPLE_CPU, memo: dict | None = None) -> Cost:
    """The nest's modelled traffic, compute ceiling and roofline time on ``cpu``."""
    comp = nest.computation
    t = traffic(nest, cpu.cache_bytes, cpu.line_bytes, memo)
    ceiling, lanes, cores, chains = compute_ceiling(nest, cpu)
    reads, writes = t.by_tensor_bytes(comp.output.tensor)
    op = roofline.Op(_("{name} scheduled").format(name=comp.name), float(comp.flops), reads, writes)
    seconds = roofline.op_time(op, ceiling, cpu.bandwidth)
    return Cost(nest, cpu, comp.flops, t, lanes, cores, chains, ceiling, seconds, op)
