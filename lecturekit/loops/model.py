"""Loops: a loop body, its induction variables, and dependences that cross iterations.

A loop is written in the lecture's assembly with a label and a conditional branch back to it,
the test at the bottom (a do-while loop: the body runs at least once). The lecture's example
``for (j = 0; j < MAX; j++) C[j] += A * B[j];`` with ``$s0 = A``, ``$s1 = &B[j]``,
``$s2 = &C[j]`` and ``$s3 = &B[MAX]``::

    loop: lw   $t0, 0($s1)       # B[j]
          mul  $t1, $t0, $s0     # A * B[j]
          lw   $t2, 0($s2)       # C[j]
          add  $t2, $t2, $t1
          sw   $t2, 0($s2)       # C[j] += ...
          addi $s1, $s1, 4       # next element of B
          addi $s2, $s2, 4       # next element of C
          bne  $s1, $s3, loop

Instructions before the label run once before the loop, those after the branch once after it;
the body must be one basic block (no other branch inside it).

What the analysis finds
-----------------------
**Induction variables**: registers the body changes only by one ``addi r, r, c`` (``c`` ≠ 0), so
that in iteration ``i`` (counting from 0) they hold ``r0 + i*c`` before the ``addi`` and
``r0 + (i+1)*c`` after it.

**Register dependences with a distance.** Inside one iteration as in a basic block
(:mod:`lecturekit.target.deps`). Across iterations: a register read *before* its first write in the
body (``$s1`` in ``lw $t0, 0($s1)``, or ``$s4`` in a running sum ``add $s4, $s4, $t0``) reads the
value the *previous* iteration wrote last: a RAW dependence of distance 1. Likewise a read after the
last write is overwritten by the next iteration's first write (WAR, distance 1), and the last
write by the next iteration's first write (WAW, distance 1).

**Memory dependences with a distance: the SIV test.** Each load and store gets an address of
the form ``base + stride*i + offset`` when it can: through an induction variable ``r`` with step
``c`` the stride is ``c`` and the offset is the instruction's offset, plus ``c`` if the access
comes *after* the ``addi`` of ``r`` in the body (it sees the already advanced pointer: ``sw $t2,
0($s2)`` placed after ``addi $s2, $s2, 4`` writes ``C[j+1]``'s address ``s2_0 + 4i + 4``). Through
a register the loop never changes the stride is 0. Two accesses ``a`` (offset ``o_a``) and ``b``
(offset ``o_b``) through the same induction variable with stride ``s`` touch the same word when
``a`` runs in iteration ``i`` and ``b`` in iteration ``i + d`` with

    i*s + o_a = (i + d)*s + o_b   =>   d = (o_a - o_b) / s

(the "single index variable" test). If ``d`` is not a whole number they never meet. If ``d > 0``
``a`` comes first (``a`` → ``b``, distance ``d``); if ``d < 0`` ``b``'s earlier iteration comes
first (``b`` → ``a``, distance ``-d``); if ``d = 0`` they meet in the same iteration and the body
order decides. Example: ``a[i] = a[i-1] * x`` stores to ``0($s1)`` and loads ``-4($s1)`` with
``s = 4``: the store (``o_a = 0``) and the load (``o_b = -4``) give ``d = 1``: the value stored
in one iteration is loaded in the next, a recurrence through memory.

Accesses through two *different* base registers: by default (``restrict=True``) each base
register points into its own array, as ``B`` and ``C`` are distinct arrays in the lecture's C code
(C's ``restrict``), so they never overlap. With ``restrict=False``, and always for a pointer the
loop computes in another way (loaded, or not a simple induction variable), nothing is known: the
accesses are assumed to depend on each other in every pair of iterations, which the edges with
distance 0 (in body order) and distance 1 (from the later one back to the earlier one, and a
store to itself) express.

**Control.** The branch stays last in its iteration (a ``CTRL`` edge of latency 0 from every
instruction that has no other edge to it). There is no edge from the branch to the next
iteration: in a software-pipelined loop the next iterations start before this one's branch.

Latencies come from the machine, as in :func:`lecturekit.target.deps.analyze`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..asm import Instruction, Program, parse
from ..core.graph import Edge, Graph
from ..errors import LectureKitError, ParseError
from ..language import N_, _
from ..target.deps import instruction_graph
from ..target.machine import Machine, get_machine

LOOP_SHAPE = N_("expected a loop: a label and a backward branch to it")

#: exit tests: branch opcode -> comparison the loop continues on
_TEST_OF = {"bne": "ne", "blt": "lt", "ble": "le", "bgt": "gt", "bge": "ge", "beq": "eq"}
#: the same test with the operands swapped
_MIRROR = {"ne": "ne", "eq": "eq", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_SYMBOL = {"ne": "!=", "eq": "==", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class LoopError(LectureKitError):
    """A loop that lecturekit cannot transform (the message says what and why)."""


@dataclass(frozen=True)
class Induction:
    """Register ``register`` advances by ``step`` once per iteration, at body index ``position``."""

    register: str
    step: int
    position: int


@dataclass(frozen=True)
class Address:
    """The address of a load or store in iteration ``i``: ``base + stride*i + offset``, where
    ``base`` is the register's value on entry to the loop. ``kind``: ``induction`` (base is an
    induction variable; ``offset`` includes its step if the access follows the ``addi``),
    ``invariant`` (base never changes: stride 0) or ``unknown`` (the loop computes the base some
    other way)."""

    kind: str
    base: str
    stride: int
    offset: int

    def describe(self) -> str:
        if self.kind == "unknown":
            return _("unknown (${base} is computed in the loop)").format(base=self.base)
        off = f" {'+' if self.offset > 0 else '-'} {abs(self.offset)}" if self.offset else ""
        if self.kind == "invariant":
            return _("${base}{off} (the same in every iteration)").format(base=self.base, off=off)
        return f"${self.base}{off} {'+' if self.stride > 0 else '-'} {abs(self.stride)}·i"


@dataclass(frozen=True)
class TripCount:
    """The exit test in a form that gives the number of iterations.

    The loop continues while ``induction <test> bound`` holds after the induction variable's
    update (``test`` is ``ne``, ``lt``, ``le``, ``gt`` or ``ge``); ``bound`` is a register the loop
    does not change (or ``zero``).
    """

    induction: str
    step: int
    bound: str
    test: str

    def describe(self) -> str:
        return _(
            "the loop continues while ${induction} {symbol} ${bound} after "
            "${induction} advances by {step}"
        ).format(
            induction=self.induction, symbol=_SYMBOL[self.test], bound=self.bound, step=self.step
        )

    def count(self, start: int, bound: int) -> int | None:
        """Iterations the loop runs when the induction variable starts at ``start`` and the bound
        register holds ``bound`` (``None``: the loop would never end)."""
        c = self.step
        d = bound - start
        if self.test == "ne":
            if d % c or d // c <= 0:
                return None
            return d // c
        if self.test in ("lt", "le"):
            if c <= 0:
                return None
            n = -((-d) // c) if self.test == "lt" else d // c + 1
        else:
            if c >= 0:
                return None
            n = -(d // -c) if self.test == "gt" else (-d) // (-c) + 1
        return max(1, n)

    def code(self, dest: str, scratch: str, label: str) -> list[str]:
        """Instructions that compute the number of iterations into ``$dest`` (before the loop
        runs), using ``$scratch`` and the label ``label`` for the at-least-once clamp."""
        iv, b, c = f"${self.induction}", f"${self.bound}", self.step
        n = f"${dest}"
        if self.test == "ne":
            lines = [f"sub   {n}, {b}, {iv}"]
            if c != 1:
                lines.append(f"divi  {n}, {n}, {c}")
            return lines
        if self.test in ("lt", "le"):
            lines, s = [f"sub   {n}, {b}, {iv}"], c
        else:
            lines, s = [f"sub   {n}, {iv}, {b}"], -c
        if self.test in ("lt", "gt"):  # ceil(d / s)
            if s != 1:
                lines += [f"addi  {n}, {n}, {s - 1}", f"divi  {n}, {n}, {s}"]
        else:  # floor(d / s) + 1
            if s != 1:
                lines.append(f"divi  {n}, {n}, {s}")
            lines.append(f"addi  {n}, {n}, 1")
        lines += [  # a do-while loop runs at least once
            f"slti  ${scratch}, {n}, 1",
            f"beqz  ${scratch}, {label}",
            f"li    {n}, 1",
            f"{label}:",
        ]
        return lines


@dataclass
class Loop:
    """A single-block loop and its dependences (see the module docstring).

    ``program`` is the whole parsed text; the body is ``program[head : tail + 1]`` (the branch at
    ``tail``). Body instructions are numbered 0..n-1 and named I1..In in graphs and tables.
    ``edges`` holds every dependence with its distance, register WAR/WAW included;
    :meth:`graph` builds the core graph a scheduler uses.
    """

    program: Program
    machine: Machine
    head: int
    tail: int
    label: str
    restrict: bool
    inductions: dict[str, Induction]
    addresses: dict[int, Address]
    reaching: dict[tuple[int, str], tuple[int, int]]
    edges: list[Edge]
    trip: TripCount | None
    trip_problem: str = ""
    notes: list[str] = field(default_factory=list)

    # -- parts of the text -------------------------------------------------------------------
    @property
    def body(self) -> list[Instruction]:
        """The loop body, branch last."""
        return self.program.instructions[self.head : self.tail + 1]

    @property
    def pre(self) -> list[Instruction]:
        """Instructions before the loop (run once)."""
        return self.program.instructions[: self.head]

    @property
    def post(self) -> list[Instruction]:
        """Instructions after the loop (run once)."""
        return self.program.instructions[self.tail + 1 :]

    @property
    def branch(self) -> int:
        """Body index of the backward branch (the last one)."""
        return self.tail - self.head

    def __len__(self) -> int:
        return self.tail - self.head + 1

    def label_of(self, k: int) -> str:
        return f"I{k + 1}"

    # -- registers -------------------------------------------------------------------------
    def defs(self, reg: str) -> list[int]:
        """Body indices that write ``reg``, in order."""
        return [k for k, ins in enumerate(self.body) if reg in ins.writes()]

    def written(self) -> list[str]:
        """Registers the body writes, in order of first write."""
        out: dict[str, None] = {}
        for ins in self.body:
            for r in ins.writes():
                out.setdefault(r, None)
        return list(out)

    def registers(self) -> list[str]:
        """Every register the body reads or writes (``$zero`` excluded)."""
        out: dict[str, None] = {}
        for ins in self.body:
            for r in (*ins.reads(), *ins.writes()):
                out.setdefault(r, None)
        return list(out)

    def invariants(self) -> list[str]:
        """Registers the body reads but never writes."""
        w = set(self.written())
        return [r for r in self.registers() if r not in w]

    # -- graphs ----------------------------------------------------------------------------
    def graph(self, renamed: bool = True, *, keep_war: bool = False) -> Graph:
        """The core graph of the body: one operation per instruction, every dependence an edge
        with its latency and iteration distance.

        ``renamed=True`` (what modulo scheduling uses) leaves out the register WAR and WAW edges:
        software pipelining gives every value its own register (renaming, and modulo variable
        expansion for values that live longer than the initiation interval), so only true
        dependences and memory order constrain it. ``keep_war=True`` keeps the register WAR
        edges *within* an iteration: each read of a register then stays before the instruction
        that redefines it, so values do not outlive their successors (fewer register copies),
        at the price of extra recurrences. ``renamed=False`` keeps every edge: what in-order
        hardware running the code as written has to respect.
        """
        edges = [
            e
            for e in self.edges
            if not (
                renamed
                and not e.on.startswith("mem")
                and (e.kind == "WAW" or (e.kind == "WAR" and (e.distance or not keep_war)))
            )
        ]
        g = instruction_graph(list(self.body), edges, self.machine, label=self.label_of)
        g.source = self
        return g

    def carried(self) -> list[Edge]:
        """The loop-carried dependences (distance ≥ 1)."""
        return [e for e in self.edges if e.distance]

    def to_dict(self) -> dict:
        m = self.machine
        return {
            "machine": {"name": m.name, "issue_width": m.issue_width, "units": dict(m.units)},
            "instructions": [
                {"index": k, "text": ins.text or str(ins), "unit": m.timing(ins.op_class).unit}
                for k, ins in enumerate(self.body)
            ],
            "edges": [edge_dict(e) for e in self.edges],
        }


def edge_dict(e: Edge) -> dict:
    return {
        "src": e.src,
        "dst": e.dst,
        "kind": e.kind,
        "on": e.on,
        "latency": e.latency,
        "distance": e.distance,
    }


# -- finding the loop -------------------------------------------------------------------------
def _error(program: Program, k: int, message: str, column: int = 1) -> ParseError:
    ins = program[k]
    lines = program.source.splitlines()
    text = lines[ins.line - 1] if 0 < ins.line <= len(lines) else ins.text
    return ParseError(message, ins.line or 1, column, text)


def _find_loop(program: Program) -> tuple[int, int, str]:
    if len(program) == 0:
        raise ParseError(
            _("{loop_shape}; found no instructions").format(loop_shape=_(LOOP_SHAPE)), 1, 1
        )
    backward = [
        k
        for k, ins in enumerate(program)
        if ins.is_branch and ins.target is not None and program.labels[ins.target] <= k
    ]
    if not backward:
        raise _error(
            program,
            len(program) - 1,
            _(
                "{loop_shape} (like 'loop: ...' and 'bne $s1, $s3, loop' at the end); "
                "no branch here goes back to an earlier label"
            ).format(loop_shape=_(LOOP_SHAPE)),
        )
    if len(backward) > 1:
        raise _error(
            program,
            backward[1],
            _(
                "only one loop is supported: this is a second backward branch (the "
                "first is on line {line})"
            ).format(line=program[backward[0]].line),
        )
    tail = backward[0]
    br = program[tail]
    head = program.labels[br.target]
    if br.opcode == "j":
        raise _error(
            program,
            tail,
            _(
                "the backward branch must be conditional: write the loop with its test at the "
                "bottom (do-while form), e.g. 'bne $s1, $s3, loop'"
            ),
        )
    for k in range(head, tail):
        if program[k].is_branch:
            raise _error(
                program,
                k,
                _(
                    "the loop body must be one basic block: a branch inside the loop is not "
                    "supported (only the backward branch at its end)"
                ),
            )
    for k, ins in enumerate(program):
        if head <= k <= tail or ins.target is None:
            continue
        if head < program.labels[ins.target] <= tail:
            raise _error(
                program,
                k,
                _("a jump into the middle of the loop ({target}) is not supported").format(
                    target=ins.target
                ),
            )
    return head, tail, br.target


def _inductions(body: list[Instruction]) -> dict[str, Induction]:
    found = {}
    writes: dict[str, list[int]] = {}
    for k, ins in enumerate(body):
        for r in ins.writes():
            writes.setdefault(r, []).append(k)
    for reg, where in writes.items():
        if len(where) != 1:
            continue
        ins = body[where[0]]
        if ins.opcode in ("addi", "subi") and ins.srcs == (reg,) and ins.imm:
            step = ins.imm if ins.opcode == "addi" else -ins.imm
            found[reg] = Induction(reg, step, where[0])
    return found


def _trip(
    body: list[Instruction], inductions: dict[str, Induction]
) -> tuple[TripCount | None, str]:
    br = body[-1]
    written = {r for ins in body for r in ins.writes()}
    if br.opcode == "bnez":
        a, b, test = br.srcs[0], "zero", "ne"
    elif br.opcode in _TEST_OF:
        (a, b), test = br.srcs, _TEST_OF[br.opcode]
    else:
        return None, _("the exit test '{test}' is not a comparison the loop continues on").format(
            test=br.text or br
        )
    if test == "eq":
        return None, _(
            "an exit test that loops while two values are equal ('beq') is not supported"
        )
    if a in inductions and (b not in written):
        iv, bound = a, b
    elif b in inductions and (a not in written):
        iv, bound, test = b, a, _MIRROR[test]
    else:
        return None, (
            _(
                "the exit test '{test}' must compare an induction variable (a "
                "register the loop changes only by one 'addi r, r, c') with a register "
                "the loop does not change"
            ).format(test=br.text or br)
        )
    step = inductions[iv].step
    if (test in ("lt", "le") and step < 0) or (test in ("gt", "ge") and step > 0):
        return None, (
            _(
                "the exit test '{test}' never ends the loop: ${iv} moves by {step} "
                "away from its bound"
            ).format(test=br.text or br, iv=iv, step=step)
        )
    return TripCount(iv, step, "zero" if bound == "0" else bound, test), ""


def _address(body, k: int, inductions) -> Address:
    mem = body[k].mem
    written = {r for ins in body for r in ins.writes()}
    if mem.base in inductions:
        iv = inductions[mem.base]
        after = iv.step if k > iv.position else 0
        return Address("induction", mem.base, iv.step, mem.offset + after)
    if mem.base not in written:
        return Address("invariant", mem.base, 0, mem.offset)
    return Address("unknown", mem.base, 0, mem.offset)


def siv_distance(a: Address, b: Address) -> int | None:
    """Iteration distance ``d`` such that access ``a`` in iteration ``i`` and access ``b`` in
    iteration ``i + d`` touch the same address, for two accesses through the same induction
    variable (``None``: they never do)."""
    diff = a.offset - b.offset
    if diff % a.stride:
        return None
    return diff // a.stride


def _memory_edges(loop_body, addresses, restrict, machine) -> tuple[list[Edge], list[str]]:
    edges: list[Edge] = []
    notes: list[str] = []
    mem_ops = sorted(addresses)

    def add(x: int, y: int, distance: int) -> None:
        sx, sy = loop_body[x].is_store, loop_body[y].is_store
        if not (sx or sy):
            return
        kind = "WAW" if sx and sy else "RAW" if sx else "WAR"
        key_x, key_y = machine.timing_key(loop_body[x]), machine.timing_key(loop_body[y])
        lat = machine.latency(kind, key_x, key_y, memory=True)
        mx, my = loop_body[x].mem, loop_body[y].mem
        on = f"mem {mx}" if mx == my else f"mem {mx}~{my}"
        edges.append(Edge(x, y, lat, kind, on, distance))

    def conservative(x: int, y: int) -> None:
        if x == y:
            add(x, x, 1)
        else:
            add(x, y, 0)
            add(y, x, 1)

    for ix, x in enumerate(mem_ops):
        for y in mem_ops[ix:]:
            if not (loop_body[x].is_store or loop_body[y].is_store):
                continue
            ax, ay = addresses[x], addresses[y]
            if "unknown" in (ax.kind, ay.kind):
                conservative(x, y)
                continue
            if ax.base != ay.base:
                if not restrict:
                    conservative(x, y)
                continue
            if ax.kind == "invariant":
                if ax.offset == ay.offset:
                    conservative(x, y)
                continue
            d = siv_distance(ax, ay)
            if d is None or (x == y):
                continue
            if d > 0:
                add(x, y, d)
            elif d < 0:
                add(y, x, -d)
            else:
                add(x, y, 0)
    if any(a.kind == "unknown" for a in addresses.values()):
        notes.append(
            _(
                "some addresses are computed in the loop (not base + stride*i): those accesses are "
                "assumed to depend on every other access (distance 0 and 1)"
            )
        )
    return edges, notes


def _register_edges(body, machine) -> tuple[list[Edge], dict[tuple[int, str], tuple[int, int]]]:
    edges: list[Edge] = []
    reaching: dict[tuple[int, str], tuple[int, int]] = {}
    defs: dict[str, list[int]] = {}
    for k, ins in enumerate(body):
        for r in dict.fromkeys(ins.writes()):
            defs.setdefault(r, []).append(k)

    def add(src: int, dst: int, kind: str, reg: str, distance: int) -> None:
        lat = machine.latency(kind, machine.timing_key(body[src]), machine.timing_key(body[dst]))
        edges.append(Edge(src, dst, lat, kind, reg, distance))

    for j, ins in enumerate(body):
        for reg in dict.fromkeys(ins.reads()):
            where = defs.get(reg)
            if not where:
                continue  # loop-invariant (or live-in only)
            before = [d for d in where if d < j]
            src = (before[-1], 0) if before else (where[-1], 1)
            reaching[(j, reg)] = src
            add(src[0], j, "RAW", reg, src[1])
            after = [d for d in where if d > j]
            if after:
                add(j, after[0], "WAR", reg, 0)
            elif where[0] != j:
                add(j, where[0], "WAR", reg, 1)
    for reg, where in defs.items():
        for a, b in zip(where, where[1:], strict=False):
            add(a, b, "WAW", reg, 0)
        add(where[-1], where[0], "WAW", reg, 1)
    return edges, reaching


def analyze_loop(
    source: Program | str | Loop,
    machine: Machine | str | None = None,
    *,
    restrict: bool = True,
) -> Loop:
    """The loop in ``source`` (text or parsed), with induction variables, addresses and every
    dependence with its latency on ``machine`` and its iteration distance.

    Raises :class:`~lecturekit.errors.ParseError` (with the line) when the text is not a loop
    lecturekit handles: no backward branch ("expected a loop: a label and a backward branch to
    it"), a branch inside the body, two loops.
    """
    if isinstance(source, Loop):
        if machine is None and restrict == source.restrict:
            return source
        machine = machine if machine is not None else source.machine
        source = source.program
    program = parse(source) if isinstance(source, str) else source
    if not isinstance(program, Program):
        raise LoopError(
            _("expected loop code (text or a parsed program), got {name}").format(
                name=type(source).__name__
            )
        )
    m = get_machine(machine)
    head, tail, label = _find_loop(program)
    body = program.instructions[head : tail + 1]
    inductions = _inductions(body)
    addresses = {k: _address(body, k, inductions) for k, ins in enumerate(body) if ins.mem}
    reg_edges, reaching = _register_edges(body, m)
    mem_edges, notes = _memory_edges(body, addresses, restrict, m)
    edges = reg_edges + mem_edges
    br = len(body) - 1
    linked = {e.src for e in edges if e.dst == br and e.distance == 0}
    edges += [Edge(k, br, 0, "CTRL", N_("branch")) for k in range(br) if k not in linked]
    edges.sort(key=lambda e: (e.distance, e.src, e.dst, e.kind, e.on))
    trip, problem = _trip(body, inductions)
    if m.delay_slot:
        notes = [
            *notes,
            _(
                "{name} has a branch delay slot, which loops do not model: the loop is "
                "analysed, scheduled, run and timed as if its branch had none (list "
                "scheduling fills a block's slot: "
                "lecturekit.target.deps.fill_delay_slot)"
            ).format(name=m.name),
        ]
    return Loop(
        program=program,
        machine=m,
        head=head,
        tail=tail,
        label=label,
        restrict=restrict,
        inductions=inductions,
        addresses=addresses,
        reaching=reaching,
        edges=edges,
        trip=trip,
        trip_problem=problem,
        notes=notes,
    )


def dependence_table(loop: Loop, renamed: bool = False) -> list[dict]:
    """Rows ``from, to, kind, on, latency, distance`` for every edge (for printing)."""
    g = loop.graph(renamed=renamed)
    return [
        {
            "from": loop.label_of(e.src),
            "to": loop.label_of(e.dst),
            "kind": e.kind,
            "on": e.on,
            "latency": e.latency,
            "distance": e.distance,
        }
        for e in g.edges
    ]


def expand(loop: Loop, iterations: int, renamed: bool = False) -> Graph:
    """``iterations`` back-to-back copies of the body as one acyclic graph (operation
    ``r*n + k`` is instruction ``k`` of iteration ``r``): every edge of distance ``d`` joins
    iteration ``r`` to ``r + d``, and each branch precedes the next iteration (latency 0: as in
    :func:`lecturekit.target.pipeline.simulate`, a taken branch costs nothing and the next
    iteration's first instruction may issue in the same cycle on a multi-issue machine). What
    in-order hardware executes. Parallel edges between two operations are merged into the one with
    the longest latency."""
    g = loop.graph(renamed=renamed)
    n = len(g.ops)
    ops = [replace(op, name=f"{op.name}@{r + 1}") for r in range(iterations) for op in g.ops]
    binding: dict[tuple[int, int], Edge] = {}  # one edge per pair: the longest latency

    def add(src: int, dst: int, latency: int, kind: str, on: str) -> None:
        if (src, dst) not in binding or latency > binding[(src, dst)].latency:
            binding[(src, dst)] = Edge(src, dst, latency, kind, on)

    for r in range(iterations):
        for e in g.edges:
            if r + e.distance < iterations:
                add(r * n + e.src, (r + e.distance) * n + e.dst, e.latency, e.kind, e.on)
        if r + 1 < iterations:
            for k in range(n):
                add(r * n + n - 1, (r + 1) * n + k, 0, "CTRL", N_("branch"))
    edges = sorted(binding.values(), key=lambda e: (e.src, e.dst))
    return Graph(
        ops, edges, units=dict(g.units), issue_width=g.issue_width, earliest=g.earliest, name=g.name
    )


__all__ = [
    "LOOP_SHAPE",
    "Address",
    "Induction",
    "Loop",
    "LoopError",
    "TripCount",
    "analyze_loop",
    "dependence_table",
    "edge_dict",
    "expand",
    "siv_distance",
]
