"""How long generated loop code really takes on an in-order machine.

:func:`measure` runs the code in the interpreter to find which instructions execute, in which
order (the branches taken), then feeds that dynamic instruction stream to the cycle-by-cycle
pipeline simulator (:func:`lecturekit.target.pipeline.simulate`): the hardware's own interlocks
decide the timing, independently of the schedule that produced the code. This is how the chapters
check that a software-pipelined kernel really starts an iteration every II cycles, and what the
prologue, epilogue and the code around the loop cost.

Branches are kept in the stream (they use an issue slot and read registers) but all point to one
label at its end; as everywhere in the simulator, a taken branch costs no extra cycles (perfect
prediction, no branch penalty).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..asm import Program, format_instruction, parse
from ..language import _
from ..target.pipeline import simulate
from .interp import MAX_STEPS, run

#: dynamic streams longer than this are refused (the simulator is quadratic)
MAX_STREAM = 4000


@dataclass
class Timing:
    """``instructions`` executed and the ``cycles`` the machine takes for them (the cycle the
    last one leaves the pipeline); ``stream`` the executed instruction indices."""

    instructions: int
    cycles: int
    stream: list[int]


def measure(
    code: Program | str, regs, mem, machine="lecture", *, max_steps: int = MAX_STEPS
) -> Timing:
    """Run ``code`` from ``regs``/``mem`` and time the instructions it executes on ``machine``."""
    from ..errors import LectureKitError

    program = parse(code) if isinstance(code, str) else code
    result = run(program, regs, mem, max_steps=max_steps, record=True)
    stream = result.executed
    if len(stream) > MAX_STREAM:
        raise LectureKitError(
            _("the run executes {n_stream} instructions; timing is limited to {max_stream}").format(
                n_stream=len(stream), max_stream=MAX_STREAM
            )
        )
    lines = []
    for k in stream:
        ins = program[k]
        if ins.target is not None:
            ins = replace(ins, target="end")
        lines.append(format_instruction(replace(ins, labels=(), text="")))
    sim = simulate("\n".join(lines) + "\nend:\n", machine)
    return Timing(len(stream), sim.cycles, stream)


__all__ = ["MAX_STREAM", "Timing", "measure"]
