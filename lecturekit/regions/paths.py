"""Running a control-flow graph: which path an input takes, what it costs, and whether a
transformed program computes the same on every path.

* :func:`run_path` runs a program on the interpreter (:func:`lecturekit.loops.interp.run`) and
  names the blocks it went through.
* :func:`path_cycles` is the cost of one run on a machine: the instructions it executed, in the
  order they executed, through the in-order pipeline (:func:`lecturekit.target.pipeline.simulate`:
  a taken branch costs what its instruction costs; control hazards are not modelled, as
  everywhere in the course). A hot path and a cold path get their own cycles.
* :func:`same_on_every_path` runs the original and the transformed program on the same inputs
  and compares memory and the registers live at the exit; it also reports which paths of the
  original the inputs took, so a test can require that every path was covered.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..asm import Program, format_instruction, parse
from ..language import _
from ..loops.interp import RunResult, run
from ..loops.timing import measure
from ..target.ooo import simulate_ooo
from .cfg import CFG, cfg_of


@dataclass
class PathRun:
    """One run: the interpreter's result, the blocks in the order they ran, the instructions
    executed (program indices, in order)."""

    result: RunResult
    blocks: list[str]
    executed: list[int]


def _program(code) -> Program:
    if isinstance(code, CFG):
        return code.to_program()
    if isinstance(code, str):
        return parse(code)
    return code


def timing_stream(program: Program, executed: list[int]) -> Program:
    """``executed`` (instruction indices) as a block, branches pointing to a label at its end
    (as :func:`lecturekit.loops.timing.measure` builds it)."""
    from dataclasses import replace

    lines = []
    for k in executed:
        ins = program[k]
        if ins.target is not None:
            ins = replace(ins, target="end")
        lines.append(format_instruction(replace(ins, labels=(), text="")))
    return parse("\n".join(lines) + "\nend:\n")


def block_starts(program: Program) -> dict[int, str]:
    """Instruction index -> the name of the block it starts (as :func:`cfg_of` names them)."""
    cfg = cfg_of(program)
    starts: dict[int, str] = {}
    k = 0
    for b in cfg.blocks:
        if b.instructions:
            starts[k] = b.name
        k += len(b.instructions)
    return starts


def run_path(
    code, regs=None, mem=None, *, strict: bool = True, max_steps: int = 100_000
) -> PathRun:
    """Run ``code`` (text, Program or CFG); the blocks it went through."""
    program = _program(code)
    result = run(program, regs, mem, strict=strict, record=True, max_steps=max_steps)
    starts = block_starts(program)
    blocks = [starts[k] for k in result.executed if k in starts]
    return PathRun(result, blocks, list(result.executed))


def dynamic_stream(code, regs=None, mem=None) -> tuple[Program, list[int | None]]:
    """The instructions one run of ``code`` executes, in order, as a straight-line block (its
    branches kept, pointing to a label at the end): what the pipeline — in order or out of
    order — sees; and the address each one accessed (``None`` if none)."""
    program = _program(code)
    run_ = run_path(program, regs, mem, strict=False)
    return timing_stream(program, run_.executed), list(run_.result.addresses)


def path_cycles(code, regs=None, mem=None, machine=None) -> tuple[int, int]:
    """``(cycles, instructions)`` of one run of ``code`` on the in-order pipeline of
    ``machine``: :func:`lecturekit.loops.timing.measure` (the instructions it executed, in
    order, through the cycle-by-cycle simulator)."""
    t = measure(_program(code), regs, mem, machine or "lecture")
    return t.cycles, t.instructions


def ooo_path_cycles(code, regs=None, mem=None, machine=None, **options) -> tuple[int, int]:
    """``(cycles, instructions)`` of one run of ``code`` on the out-of-order core
    (:func:`lecturekit.target.ooo.simulate_ooo`, ``options`` passed on), which compares the
    addresses the run accessed."""
    stream, addresses = dynamic_stream(code, regs, mem)
    if not len(stream):
        return 0, 0
    options.setdefault("addresses", addresses)
    return simulate_ooo(stream, machine, **options).cycles, len(stream)


def same_on_every_path(
    original, transformed, inputs, results: set[str] | None = None
) -> tuple[list[str], set[tuple[str, ...]]]:
    """Run both programs on every input ``(regs, mem)``; the differences (memory, and the
    registers in ``results``, default: every register the original's run holds), each prefixed
    with the input's number, and the set of paths (block names) the original took."""
    a_prog, b_prog = _program(original), _program(transformed)
    problems: list[str] = []
    paths: set[tuple[str, ...]] = set()
    for k, (regs, mem) in enumerate(inputs):
        a = run_path(a_prog, regs, mem)
        b = run_path(b_prog, regs, mem)
        paths.add(tuple(a.blocks))
        names = sorted(a.result.regs) if results is None else sorted(results)
        for addr in sorted(set(a.result.mem) | set(b.result.mem)):
            if a.result.mem.get(addr) != b.result.mem.get(addr):
                problems.append(
                    _("input {k}: memory[{addr}]: {before} vs {after}").format(
                        k=k,
                        addr=addr,
                        before=a.result.mem.get(addr),
                        after=b.result.mem.get(addr),
                    )
                )
        for reg in names:
            if a.result.regs.get(reg) != b.result.regs.get(reg):
                problems.append(
                    _("input {k}: ${reg}: {before} vs {after}").format(
                        k=k, reg=reg, before=a.result.regs.get(reg), after=b.result.regs.get(reg)
                    )
                )
    return problems, paths


def acyclic_paths(cfg: CFG, limit: int = 10_000) -> list[tuple[str, ...]]:
    """Every path from the entry to the exit of an acyclic CFG (block names)."""
    out: list[tuple[str, ...]] = []

    def walk(name: str, path: tuple[str, ...]) -> None:
        if len(out) >= limit:
            return
        if name in path:
            from .cfg import RegionError

            raise RegionError(
                _("the CFG has a cycle through {name}: no finite set of paths").format(name=name)
            )
        path = path + (name,)
        b = cfg[name]
        if b.exits_program:
            out.append(tuple(p for p in path if cfg[p].instructions))
        for s in b.successors:
            walk(s, path)

    walk(cfg.entry, ())
    return out


def edge_profile(code, inputs) -> Counter:
    """How often each edge ``(block, next block)`` ran over ``inputs`` (``(regs, mem)`` pairs):
    the profile trace selection follows."""
    program = _program(code)
    counts: Counter = Counter()
    for regs, mem in inputs:
        blocks = run_path(program, regs, mem).blocks
        counts.update(zip(blocks, blocks[1:], strict=False))
    return counts


__all__ = [
    "PathRun",
    "acyclic_paths",
    "block_starts",
    "dynamic_stream",
    "edge_profile",
    "ooo_path_cycles",
    "path_cycles",
    "run_path",
    "same_on_every_path",
]
