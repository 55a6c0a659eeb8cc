"""Loops: unrolling with renaming, software pipelining by modulo scheduling (chapters 06-07).

* :mod:`~lecturekit.loops.model` -- a loop body, its induction variables, and dependences that
  cross iterations (with an iteration distance): :func:`analyze_loop`.
* :mod:`~lecturekit.loops.unroll` -- unroll ``k`` times with register renaming, schedule, and
  measure cycles per iteration: :func:`unroll`, :func:`compare_unrolling`.
* :mod:`~lecturekit.loops.mii` -- the lower bounds on II: ResMII, RecMII, the recurrences.
* :mod:`~lecturekit.loops.modulo` -- iterative modulo scheduling, the modulo reservation table,
  why a smaller II fails: :func:`modulo_schedule`, :func:`explain_ii`.
* :mod:`~lecturekit.loops.swing` -- swing modulo scheduling (fewer registers in flight).
* :mod:`~lecturekit.loops.codegen` -- prologue, kernel and epilogue with modulo variable
  expansion, as code that runs.
* :mod:`~lecturekit.loops.interp` -- an interpreter for the lecture's assembly: the proof that
  transformed code computes what the original does (:func:`run`, :func:`same_effect`).
* :mod:`~lecturekit.loops.timing` -- time generated code on the pipeline simulator.
* :mod:`~lecturekit.loops.pressure` -- the register pressure of a modulo schedule (MaxLive of
  the kernel, the registers modulo variable expansion uses).
* :mod:`~lecturekit.loops.examples` -- the example loops in ``lecturekit/data/examples``.
* :mod:`~lecturekit.loops.randloop` -- random loops for tests and benchmarks.
"""

from .interp import ExecutionError, run, same_effect
from .mii import rec_mii, res_mii
from .model import Loop, LoopError, analyze_loop
from .modulo import ModuloResult, explain_ii, modulo_schedule
from .unroll import Unrolled, compare_unrolling, steady_state, unroll

__all__ = [
    "ExecutionError",
    "Loop",
    "LoopError",
    "ModuloResult",
    "Unrolled",
    "analyze_loop",
    "compare_unrolling",
    "explain_ii",
    "modulo_schedule",
    "rec_mii",
    "res_mii",
    "run",
    "same_effect",
    "steady_state",
    "unroll",
]
