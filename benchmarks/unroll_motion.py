"""Induction-variable motion on Hennessy & Patterson's unrolling example (issue 17's target).

Their loop ``Loop: L.D F0,0(R1); ADD.D F4,F0,F2; S.D F4,0(R1); DADDUI R1,R1,#-8; BNE R1,R2,Loop``
takes 9 cycles per iteration as written on their FP pipeline, 7 scheduled (the ``DADDUI`` moved
up, the store's offset rewritten to ``8(R1)``), and 14 cycles per pass unrolled four times
(H&P, 5th ed., Section 3.2). This prints, per machine and notation, cycles per iteration as
written, ``unroll -k 1`` and ``unroll -k 4`` (cycles per pass), without and with
``move_induction``, and what moved:

* the lecture's integer notation (``lw``/``mul``/``sw``/``addi``: ``mul`` stands for the FP add)
  on the ``lecture``, ``classic5`` and ``dual`` presets;
* the FP notation (``l.d``/``add.d``/``s.d``) on H&P's machine (``hp-fp``: latencies by producer
  and consumer, branch resolved in ID) when this lecturekit has it.

Usage: ``python benchmarks/unroll_motion.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

from lecturekit.errors import LectureKitError
from lecturekit.loops.unroll import program_order_cycles, unroll
from lecturekit.target.machine import get_machine

INTEGER = """loop: lw   $t0, 0($s1)
      mul  $t4, $t0, $s2
      sw   $t4, 0($s1)
      addi $s1, $s1, -8
      bne  $s1, $s3, loop
"""
FP = """loop: l.d   $f0, 0($s1)
      add.d $f4, $f0, $f2
      s.d   $f4, 0($s1)
      addi  $s1, $s1, -8
      bne   $s1, $s3, loop
"""


def row(source: str, machine) -> None:
    written = program_order_cycles(source, machine)
    cells = []
    for move in (False, True):
        one = unroll(source, 1, machine, move_induction=move)
        four = unroll(source, 4, machine, move_induction=move)
        cells.append(f"{one.cycles_per_iteration:g} / {four.cycles_per_pass:g}")
    print(f"{machine.name:>10}  as written {written:g}   k=1 / k=4 per pass: "
          f"kept {cells[0]:>9}   moved {cells[1]:>9}")  # fmt: skip
    for note in unroll(source, 4, machine, move_induction=True).notes:
        print(f"{'':>12}x4 {note}")


def main() -> None:
    print("integer notation (mul stands for ADD.D):")
    for name in ("lecture", "classic5", "dual"):
        row(INTEGER, get_machine(name))
    print()
    print("FP notation on H&P's machine (textbook: 9 as written, 7 scheduled, 14 per 4):")
    try:
        machine = get_machine("hp-fp")
        row(FP, machine)
    except LectureKitError as exc:
        print(f"  not available in this lecturekit: {exc}")


if __name__ == "__main__":
    main()
