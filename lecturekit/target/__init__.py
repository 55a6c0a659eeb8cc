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

It reads code through :mod:`lecturekit.asm` and builds graphs for :mod:`lecturekit.core`;
nothing here draws or imports a widget.
"""
