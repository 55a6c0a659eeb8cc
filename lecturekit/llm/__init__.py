"""Large-model training, computed: memory, parallelism, communication, hardware (chapters 08-11).

Modules (import the one you need; nothing heavy is imported here):

- the model and its memory: :mod:`~lecturekit.llm.config` (:class:`ModelConfig` presets:
  GPT-3, GPT-2 XL, Llama, Mixtral, ...; :class:`ParallelConfig`, :class:`Precision`),
  :mod:`~lecturekit.llm.params` (parameter counts), :mod:`~lecturekit.llm.activations` (the
  tensors the forward pass saves), :mod:`~lecturekit.llm.memory` (parameters, gradients,
  optimizer states, activations per device), :mod:`~lecturekit.llm.costs` (what each
  memory-saving technique costs), :mod:`~lecturekit.llm.measure` (the bytes a small PyTorch
  GPT really saves);
- parallelism: :mod:`~lecturekit.llm.pipeline_parallel` (pipeline schedules on the scheduling
  core), :mod:`~lecturekit.llm.tensor_parallel`, :mod:`~lecturekit.llm.context_parallel`,
  :mod:`~lecturekit.llm.moe` (expert parallelism), :mod:`~lecturekit.llm.zero3`,
  :mod:`~lecturekit.llm.planner` (which DP x TP x PP layouts fit, and how fast);
- communication: :mod:`~lecturekit.llm.collectives` (what every rank holds),
  :mod:`~lecturekit.llm.comm` (the alpha-beta cost model),
  :mod:`~lecturekit.llm.priority_comm` (gradient chunks scheduled on a link, on the core);
- the training network (chapter 15): :mod:`~lecturekit.llm.fabric` (the node and the
  rail-optimized fat tree, every link a unit of the core), :mod:`~lecturekit.llm.routing`
  (ECMP, planned source ports, adaptive routing), :mod:`~lecturekit.llm.network` (messages
  on links as a core graph), :mod:`~lecturekit.llm.nccl` (NCCL's ring and double tree, SHARP,
  PXN's all-to-all on the fabric), :mod:`~lecturekit.llm.busbw` (nccl-tests' bandwidths);
- hardware: :mod:`~lecturekit.llm.hardware` (the lecture's GPU table),
  :mod:`~lecturekit.llm.roofline`, :mod:`~lecturekit.llm.formats` (floating-point formats).

Training operations are graphs for :mod:`lecturekit.core`, as instructions are; nothing here
knows about instructions or machines (:mod:`lecturekit.target`).
"""
