"""The target machine (面向目标机器): what a block of code costs on a processor.

* :mod:`~lecturekit.target.machine` -- machine models: stages, issue width, functional units,
  latencies, forwarding, the presets (``lecture``, ``classic5``, ``dual``, real cores) and
  machines loaded from a file.
* :mod:`~lecturekit.target.deps` -- dependence analysis: a block on a machine becomes the
  dependence graph the scheduling core works on (RAW, WAR, WAW through registers and memory,
  each with the machine's latency); filling a branch delay slot.
* :mod:`~lecturekit.target.pipeline` -- the cycle-by-cycle in-order pipeline with the cause of
  every stall: an independent way to the figures :func:`lecturekit.core.evaluate` gives.
* :mod:`~lecturekit.target.real` -- real compilers (clang, GCC) and llvm-mca beside the model,
  on the RISC-V cores the presets describe.
* :mod:`~lecturekit.target.ooo` -- an out-of-order core (reservation stations, renaming, a
  reorder buffer, in-order commit) on any machine, as the core's list scheduler with an
  instruction window; :mod:`~lecturekit.target.aarch64` writes the lecture's blocks in AArch64
  to hold it against llvm-mca's Cortex-A57.
* :mod:`~lecturekit.target.regalloc` -- register allocation of a block with spill code, and
  prepass, postpass and register-aware scheduling.

It reads code through :mod:`lecturekit.asm` and builds graphs for :mod:`lecturekit.core`;
nothing here draws or imports a widget.
"""
