"""Compilers for tensor programs (chapter 14): graphs, autodiff, loop nests, schedules, search.

Two levels, as in a deep-learning compiler:

- the **graph** level: :mod:`~lecturekit.tensor.graph` (a small graph IR of tensor operations,
  run with numpy), :mod:`~lecturekit.tensor.ops` (the operations a captured function may call),
  :mod:`~lecturekit.tensor.capture` (graph capture by tracing, by symbolic tracing, from the
  Python AST, and with graph breaks and guards in TorchDynamo's manner),
  :mod:`~lecturekit.tensor.autodiff` (reverse mode: the backward pass built as a graph, and
  forward mode to check it), :mod:`~lecturekit.tensor.fusion` (what fusing operators saves in
  memory traffic, and kernels on a device placed by the scheduling core);
- the **loop-nest** level: :mod:`~lecturekit.tensor.loopnest` (one computation such as a
  matmul or a convolution, schedules as data: split, tile, reorder, fuse, vectorize, unroll,
  parallel; an interpreter that runs the scheduled nest), :mod:`~lecturekit.tensor.cost` (its
  memory traffic on a cache, by a model and by simulation, and its point on chapter 11's
  roofline), :mod:`~lecturekit.tensor.search` (a search over the schedule space with a budget
  and a time limit), :mod:`~lecturekit.tensor.tools` (the same schedules in TVM and Halide,
  graph capture in PyTorch, when installed; saved outputs otherwise).

It uses the foundation, the scheduling core (kernels on a device) and :mod:`lecturekit.llm`
(the roofline and the operator byte counts of chapter 11); nothing here knows about
instructions or machines.
"""
