"""Loop unrolling with register renaming (更多高级的调度: 循环展开).

"一次展开多个循环迭代，使用前面介绍的调度算法更智能地调度指令": put ``k`` iterations in one body and
schedule them together, so that the scheduler finds parallelism *across* iterations.

How the body is unrolled by ``k``
---------------------------------
* **Induction variables** (``addi $s1, $s1, 4``) are updated once, ``addi $s1, $s1, 4k``, at the
  end of the unrolled body; copy ``j`` (0-based) of an access ``o($s1)`` becomes
  ``o + 4j($s1)`` (and ``o + 4(j+1)`` if the access came after the ``addi`` in the original
  body). A non-address use of an induction variable in copy ``j`` reads a fresh register set to
  ``$s1 + 4j`` first.
* **Renaming.** Every register the body writes gets a fresh name in copies ``0 .. k-2``
  (``$t0`` → ``$t0_0``, ``$t0_1``, ...), and the last copy keeps the original names; every read
  refers to the latest copy's name. This removes the false dependences (WAR, WAW) between copies:
  without renaming, copy 1's ``lw $t0`` would have to wait until copy 0 has read ``$t0``, and the
  copies could not overlap. True dependences between copies (a running sum) remain, as they must.
  After the loop the registers hold what the original leaves (the last copy wrote the originals).
* **Remainder.** The trip count ``N`` need not be a multiple of ``k``. It is computed from the
  exit test before the loop (see :class:`~lecturekit.loops.model.TripCount`); ``N mod k``
  iterations first run through the original body (a remainder loop), then the unrolled loop runs
  ``N div k`` times (not at all if ``N < k``). Its branch compares the induction variable with its
  final value (for a ``bne`` test, that is the original bound).

**Induction-variable motion** (``move_induction=True``, the default), as in Hennessy &
Patterson's unrolling example: the update ``addi $s1, $s1, 4k`` may be scheduled *above* loads
and stores that use ``$s1`` only as their base register; each access that ends up after it has
its offset rewritten (``lw $t0, 0($s1)`` after ``addi $s1, $s1, -8`` becomes
``lw $t0, 8($s1)``). GCC does this in its list scheduler (``haifa-sched.cc``: ``schedule_block``
calls ``find_modifiable_mems`` of ``sched-deps.cc``, which marks such a dependence breakable by
changing the address), LLVM in its software pipeliner (``MachinePipeliner.cpp``:
``changeDependences``, ``canUseLastOffsetValue``); GCC's modulo scheduler does not (it keeps a
value alive past the next definition with register moves, ``schedule_reg_moves``).

The body is scheduled once without the dependences between the update and those accesses, the
offsets are rewritten, and the rewritten body is scheduled again with its true dependences (so
latencies from the update to the moved accesses count); the result is kept when its steady state
is faster. :attr:`Unrolled.motion` and the notes say what moved and which offsets changed.

The unrolled body is then scheduled (list scheduling, and exhaustive optimal scheduling when the
body is small) and its cost measured on in-order hardware: ``cycles_per_iteration`` is the
steady-state cycles of one pass through the unrolled body divided by ``k``, from evaluating many
consecutive passes (:func:`steady_state`). Registers (distinct register names in the unrolled
body) and code size show the price.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..asm import ZERO_REGISTERS, parse
from ..core.evaluate import evaluate
from ..core.graph import Graph
from ..core.schedule import Schedule
from ..errors import LectureKitError
from .codegen import Names, isa_lines, program_registers, render, source_lines
from .model import Loop, LoopError, analyze_loop, expand

#: unrolled bodies up to this many instructions are also scheduled exhaustively ("auto")
OPTIMAL_MAX_OPS = 14
#: node limit of the exhaustive search (a node limit, not a time limit: results are deterministic)
OPTIMAL_NODES = 20_000
#: the largest unroll factor and unrolled body (instructions) accepted: beyond, refused up front
MAX_FACTOR = 256
MAX_UNROLLED = 4096


@dataclass
class SteadyState:
    """Timing of a loop body run ``passes`` times back to back on in-order hardware.

    ``issue[r][k]``: issue cycle of instruction ``k`` in pass ``r``. ``period``: cycles between
    consecutive passes once the loop has settled (averaged over the later passes). ``first``:
    cycles of the first pass alone (its schedule length).
    """

    issue: list[list[int]]
    period: float
    first: int


def steady_state(loop: Loop, passes: int = 6) -> SteadyState:
    """Run ``passes`` consecutive iterations of ``loop``'s body, in the order written, on its
    machine (:func:`lecturekit.core.evaluate` on :func:`~lecturekit.loops.model.expand`): the
    hardware interlocks on every dependence, including those between iterations."""
    if passes < 3:
        raise LectureKitError(f"steady_state needs at least 3 passes, got {passes}")
    g = expand(loop, passes, renamed=False)
    n = len(loop)
    s = evaluate(g, list(range(len(g.ops))))
    issue = [s.start[r * n : (r + 1) * n] for r in range(passes)]
    a = passes // 2
    period = (issue[-1][-1] - issue[a - 1][-1]) / (passes - a)
    single = evaluate(expand(loop, 1, renamed=False), list(range(n)))
    return SteadyState(issue, period, single.length)


@dataclass
class Unrolled:
    """A loop unrolled ``k`` times and scheduled.

    ``body``: the unrolled body in program order before scheduling (lines); ``lines``: the loop
    as emitted (label, scheduled body, branch); ``loop``: that loop analysed; ``schedule``: the
    body's schedule (on the graph without loop-carried edges); ``code``: the whole runnable
    program (trip count, remainder loop, unrolled loop); ``cycles_per_iteration``: steady-state
    cycles per *original* iteration; ``origin[i]``: ``(copy, original instruction)`` that line
    ``i`` of the scheduled body comes from; ``registers``: distinct registers in the unrolled body;
    ``code_size``: instructions in ``code`` (excluding what comes before and after the loop).
    """

    original: Loop
    k: int
    body: list[str]
    lines: list[str]
    loop: Loop
    schedule: Schedule
    scheduler: str
    code: str
    steady: SteadyState
    origin: list[tuple[int, int]]
    registers: int
    code_size: int
    notes: list[str] = field(default_factory=list)
    motion: list[Motion] = field(default_factory=list)

    @property
    def cycles_per_pass(self) -> float:
        return self.steady.period

    @property
    def cycles_per_iteration(self) -> float:
        return self.steady.period / self.k

    def to_dict(self) -> dict:
        return {
            "k": self.k,
            "machine": self.original.machine.name,
            "scheduler": self.scheduler,
            "body": list(self.lines),
            "code": self.code,
            "instructions_per_pass": len(self.loop),
            "cycles_per_pass": self.cycles_per_pass,
            "cycles_per_iteration": self.cycles_per_iteration,
            "schedule_length": self.schedule.length,
            "registers": self.registers,
            "code_size": self.code_size,
            "notes": list(self.notes),
            "motion": [m.to_dict() for m in self.motion],
        }


def unroll_body(
    loop: Loop, k: int, names: Names | None = None, *, rename: bool = True
) -> list[str]:
    """The loop body unrolled ``k`` times with renaming, in program order, without the branch
    (see the module docstring). ``rename=False`` keeps the original register names in every
    copy (to show what renaming buys)."""
    return _unroll_body(loop, k, names, rename)[0]


def _unroll_body(loop: Loop, k: int, names: Names | None = None, rename: bool = True):
    """Lines of the unrolled body and, per line, ``(copy, instruction)`` it comes from."""
    names = names or Names(program_registers(loop.program) | {"zero"})
    body = loop.body
    ivs = loop.inductions
    current: dict[str, str] = {}
    lines: list[str] = []
    origins: list[tuple[int, int]] = []
    for j in range(k):
        for p, ins in enumerate(body[:-1]):
            if any(r in ivs and ivs[r].position == p for r in ins.writes()):
                continue  # the induction updates are merged below

            def delta(reg: str, p: int = p, j: int = j) -> int:
                iv = ivs[reg]
                return j * iv.step + (iv.step if p > iv.position else 0)

            srcs = []
            for pos, r in enumerate(ins.srcs):
                is_base = ins.mem is not None and pos == len(ins.srcs) - 1 and r == ins.mem.base
                if r in ivs and not is_base and delta(r):
                    tmp = names.fresh(f"{r}_{j}")
                    lines.append(f"addi  ${tmp}, ${r}, {delta(r)}")
                    origins.append((j, p))
                    srcs.append(tmp)
                elif r in ivs or r in ZERO_REGISTERS:
                    srcs.append(r)
                else:
                    srcs.append(current.get(r, r))
            base = None
            if ins.mem is not None:
                b = ins.mem.base
                if b in ivs:
                    ins = replace(ins, mem=replace(ins.mem, offset=ins.mem.offset + delta(b)))
                    base = b
                else:
                    base = current.get(b, b)
            dests = []
            for r in ins.dests:
                if r in ZERO_REGISTERS:
                    dests.append(r)
                    continue
                defs = loop.defs(r)
                stem = r if p == defs[-1] else f"{r}{chr(ord('a') + defs.index(p) % 26)}"
                new = r if j == k - 1 or not rename else names.fresh(f"{stem}_{j}")
                current[r] = new
                dests.append(new)
            lines.append(render(ins, dests, srcs, base))
            origins.append((j, p))
    for reg, iv in sorted(ivs.items(), key=lambda item: item[1].position):
        lines.append(f"addi  ${reg}, ${reg}, {k * iv.step}")
        origins.append((k - 1, iv.position))
    return lines, origins


@dataclass(frozen=True)
class Motion:
    """Induction-variable motion: the update ``addi $register, $register, step`` of the
    unrolled body was scheduled before the accesses listed in ``rewritten``, each a pair
    ``(line before, line after)`` whose offset dropped by ``step``."""

    register: str
    step: int
    rewritten: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        what = "; ".join(f"{a.strip()} -> {b.strip()}" for a, b in self.rewritten)
        n = len(self.rewritten)
        return (
            f"induction-variable motion: addi ${self.register}, ${self.register}, {self.step} "
            f"moved above {n} access{'es' if n != 1 else ''} through ${self.register}, "
            f"offsets rewritten by {-self.step:+d}: {what}"
        )

    def to_dict(self) -> dict:
        return {
            "register": self.register,
            "step": self.step,
            "rewritten": [list(pair) for pair in self.rewritten],
        }


def _intra(loop: Loop) -> Graph:
    g = loop.graph(renamed=False)
    return Graph(
        g.ops, g.intra_edges(), units=dict(g.units), issue_width=g.issue_width,
        earliest=g.earliest, name=g.name,
    )  # fmt: skip


def _scheduled(label, body, br_line, origins, loop, restrict, scheduler, time_limit) -> dict:
    """Schedule the straight-line ``body`` (program order as given) and measure it."""
    draft = parse("\n".join([f"{label}:"] + body + [br_line]))
    sched, used = _schedule(_intra(analyze_loop(draft, loop.machine, restrict=restrict)),
                            scheduler, time_limit)  # fmt: skip
    order = list(sched.order)
    lines = [f"{label}:"] + [f"    {draft[i].text or draft[i]}" for i in order]
    final = analyze_loop(parse("\n".join(lines)), loop.machine, restrict=restrict)
    return {
        "schedule": sched,
        "used": used,
        "lines": lines,
        "origin": [origins[i] for i in order],
        "final": final,
        "steady": steady_state(final),
    }


def _with_motion(label, body, br_line, origins, loop, k, restrict, scheduler, time_limit):
    """The unrolled body scheduled with its induction updates free to move above the loads
    and stores that use the induction variable only as their base register: schedule once
    without the dependences between the update and those accesses, rewrite the offset of
    every access that landed after the update (``o`` becomes ``o - k*step``), then schedule
    the rewritten body exactly (its dependences now hold both ways round). ``None`` when
    nothing can move."""
    draft = parse("\n".join([f"{label}:"] + body + [br_line]))
    ivs = loop.inductions
    n = len(draft)
    updates = {}  # draft index of the merged update -> (register, k*step)
    for i, ins in enumerate(draft):
        if ins.opcode == "addi" and len(ins.dests) == 1 and ins.dests[0] in ivs:
            r = ins.dests[0]
            if ins.srcs == (r,) and ins.imm == k * ivs[r].step:
                updates[i] = (r, k * ivs[r].step)
    free: dict[int, set[int]] = {u: set() for u in updates}
    for u, (r, _) in updates.items():
        for i, ins in enumerate(draft):
            if i == u or ins.mem is None or ins.mem.base != r:
                continue
            if r in ins.dests or list(ins.srcs).count(r) != 1 or ins.srcs[-1] != r:
                continue  # r is also a value operand: its dependences stay
            free[u].add(i)
    if not any(free.values()):
        return None
    g = _intra(analyze_loop(draft, loop.machine, restrict=restrict))
    pairs = {(u, i) for u, users in free.items() for i in users}
    relaxed = [e for e in g.edges if not (e.kind != "CTRL" and
               ((e.src, e.dst) in pairs or (e.dst, e.src) in pairs))]  # fmt: skip
    g = Graph(g.ops, relaxed, units=g.units, issue_width=g.issue_width, earliest=g.earliest,
              name=g.name)  # fmt: skip
    sched, _ = _schedule(g, scheduler, time_limit)
    order = list(sched.order)
    where = {i: p for p, i in enumerate(order)}
    new_body, new_origins, motion = [], [], []
    changed: dict[int, str] = {}
    for u, (r, step) in sorted(updates.items()):
        rewritten = []
        for i in sorted(free[u]):
            if where[i] > where[u]:
                ins = draft[i]
                ins = replace(ins, mem=replace(ins.mem, offset=ins.mem.offset - step))
                changed[i] = render(ins, ins.dests, ins.srcs, ins.mem.base)
                before = draft[i].text or str(draft[i])
                rewritten.append((" ".join(before.split()), " ".join(changed[i].split())))
        if rewritten:
            motion.append(Motion(r, step, tuple(rewritten)))
    if not motion:
        return None
    for i in order:
        if i == n - 1:
            continue
        new_body.append(changed.get(i, draft[i].text or str(draft[i])))
        new_origins.append(origins[i])
    new_origins.append(origins[n - 1])
    result = _scheduled(
        label, new_body, br_line, new_origins, loop, restrict, scheduler, time_limit
    )
    return result, motion


def _schedule(
    graph: Graph, scheduler: str, time_limit: float | None = 10.0
) -> tuple[Schedule, str]:
    from ..core.list_sched import list_schedule

    best = list_schedule(graph, "height")
    used = "list"
    if scheduler == "optimal" or (scheduler == "auto" and len(graph.ops) <= OPTIMAL_MAX_OPS):
        from ..core.optimal import optimal_schedule

        opt = optimal_schedule(graph, time_limit=time_limit, node_limit=OPTIMAL_NODES)
        if opt.length < best.length or scheduler == "optimal":
            best, used = opt, "optimal" if opt.info.get("proven_optimal") else "search"
    return best, used


def unroll(
    source,
    k: int,
    machine=None,
    *,
    restrict: bool = True,
    scheduler: str = "auto",
    rename: bool = True,
    time_limit: float | None = 10.0,
    move_induction: bool = True,
) -> Unrolled:
    """Unroll the loop in ``source`` ``k`` times, schedule it and measure it.

    ``scheduler``: ``"list"`` (list scheduling by height), ``"optimal"`` (exhaustive search) or
    ``"auto"`` (list, and optimal too when the body has at most ``OPTIMAL_MAX_OPS``
    instructions; the shorter wins). ``k = 1`` schedules the original body. ``rename=False``
    keeps the original register names in every copy: correct, but the copies' false
    dependences (WAR, WAW) then serialise them. ``time_limit`` (seconds) bounds the exhaustive
    search besides its node limit (a hang guard: the node limit keeps results deterministic).
    ``move_induction=True`` lets the scheduler move each induction update above the loads and
    stores that use it as their base, rewriting their offsets (see the module docstring); the
    result is kept only when it is faster. Default ``True`` (issue 17: Hennessy & Patterson's
    unrolled loop; GCC's list scheduler and LLVM's ``MachinePipeliner`` rewrite offsets so);
    ``False`` keeps every update after the accesses, the lecture's slide form.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise LoopError(f"the unroll factor must be a positive integer, got {k!r}")
    if k > MAX_FACTOR:
        raise LoopError(f"the unroll factor must be at most {MAX_FACTOR}, got {k:,}")
    if scheduler not in ("list", "optimal", "auto"):
        raise LoopError(f"unknown scheduler {scheduler!r}; choose list, optimal or auto")
    loop = analyze_loop(source, machine, restrict=restrict)
    if k * len(loop) > MAX_UNROLLED:
        raise LoopError(
            f"unrolling {len(loop)} instructions {k} times gives {k * len(loop):,}; at most "
            f"{MAX_UNROLLED:,} are scheduled (use a smaller factor)"
        )
    trip = loop.trip
    if k > 1 and trip is None:
        raise LoopError(f"cannot unroll: the trip count is unknown: {loop.trip_problem}")
    regs = Names(program_registers(loop.program) | {"zero"})
    labels = Names(loop.program.labels)
    body, origins = _unroll_body(loop, k, regs, rename)
    origins.append((k - 1, len(loop) - 1))
    main_label = labels.fresh(f"{loop.label}_x{k}") if k > 1 else loop.label
    branch = loop.body[-1]
    bound_reg = None
    if k > 1 and trip.test != "ne":
        bound_reg = regs.fresh("kbound")
    if bound_reg is None:
        br_line = render(branch, branch.dests, branch.srcs, None, main_label)
    else:
        br_line = f"bne   ${trip.induction}, ${bound_reg}, {main_label}"
    plain = _scheduled(main_label, body, br_line, origins, loop, restrict, scheduler, time_limit)
    best, motion = plain, []
    if move_induction:
        moved = _with_motion(
            main_label, body, br_line, origins, loop, k, restrict, scheduler, time_limit
        )
        if moved is not None and moved[0]["steady"].period < plain["steady"].period:
            best, motion = moved
    sched, used, lines, origin = best["schedule"], best["used"], best["lines"], best["origin"]
    final, steady = best["final"], best["steady"]
    registers = len(final.registers())

    code = source_lines(loop.pre)
    entry = [f"{name}:" for name in loop.body[0].labels if k > 1 or name != loop.label]
    code += entry
    loop_code: list[str] = []
    if k > 1:
        trip_reg, cond, rest, kiters = (regs.fresh(x) for x in ("trip", "cond", "rest", "kiters"))
        l_rest = labels.fresh(f"{loop.label}_rest")
        l_main = labels.fresh(f"{loop.label}_main")
        l_exit = labels.fresh(f"{loop.label}_exit")
        l_clamp = labels.fresh(f"{loop.label}_count")
        loop_code.append(f"    # unrolled {k}x: N mod {k} iterations first, then N div {k} passes")
        loop_code += [
            f"    {x}" if not x.endswith(":") else x for x in trip.code(trip_reg, cond, l_clamp)
        ]
        loop_code += [
            f"    divi  ${kiters}, ${trip_reg}, {k}",
            f"    muli  ${rest}, ${kiters}, {k}",
            f"    sub   ${rest}, ${trip_reg}, ${rest}    # N mod {k}",
            f"    beqz  ${rest}, {l_main}",
            f"{l_rest}:",
            *source_lines([replace(ins, labels=()) for ins in loop.body[:-1]]),
            f"    addi  ${rest}, ${rest}, -1",
            f"    bnez  ${rest}, {l_rest}",
            f"{l_main}:",
            f"    beqz  ${kiters}, {l_exit}",
        ]
        if bound_reg is not None:
            loop_code += [
                f"    muli  ${bound_reg}, ${kiters}, {k * trip.step}",
                f"    add   ${bound_reg}, ${trip.induction}, ${bound_reg}",
            ]
        loop_code += lines
        loop_code.append(f"{l_exit}:")
    else:
        loop_code += lines
    code += loop_code
    code += source_lines(loop.post)
    code, lines = isa_lines(code, loop), isa_lines(lines, loop)  # RISC-V: no MIPS "$" names
    text_code = "\n".join(code) + "\n"
    size = len(parse(text_code)) - len(loop.pre) - len(loop.post)  # generated code must parse
    notes = list(loop.notes) + [m.describe() for m in motion]
    return Unrolled(
        original=loop,
        k=k,
        body=isa_lines(body + [br_line], loop),
        lines=lines,
        loop=final,
        schedule=sched,
        scheduler=used,
        code=text_code,
        steady=steady,
        origin=origin,
        registers=registers,
        code_size=size,
        notes=notes,
        motion=motion,
    )


def compare_unrolling(source, machine=None, factors=(1, 2, 4, 8), **options) -> list[dict]:
    """One row per unroll factor: instructions per pass, cycles per pass and per original
    iteration, registers, code size (for the chapter's table)."""
    rows = []
    for k in factors:
        u = unroll(source, k, machine, **options)
        rows.append(
            {
                "k": k,
                "instructions": len(u.loop),
                "cycles_per_pass": u.cycles_per_pass,
                "cycles_per_iteration": u.cycles_per_iteration,
                "registers": u.registers,
                "code_size": u.code_size,
                "scheduler": u.scheduler,
            }
        )
    return rows


def program_order_cycles(source, machine=None, *, restrict: bool = True) -> float:
    """Steady-state cycles per iteration of the loop exactly as written (no scheduling)."""
    return steady_state(analyze_loop(source, machine, restrict=restrict)).period


__all__ = [
    "OPTIMAL_MAX_OPS",
    "Motion",
    "SteadyState",
    "Unrolled",
    "compare_unrolling",
    "program_order_cycles",
    "steady_state",
    "unroll",
    "unroll_body",
]
