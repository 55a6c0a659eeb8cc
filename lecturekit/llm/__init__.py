"""Large-model training, computed: model configs, memory accounting, hardware.

Modules (import the one you need; nothing heavy is imported here):

- :mod:`lecturekit.llm.config` -- :class:`ModelConfig` (GPT-3, GPT-2 XL, Llama, Mixtral, ...
  presets), :class:`ParallelConfig`, :class:`Precision`, validation with ``ConfigError``.
- :mod:`lecturekit.llm.params` -- parameter counts (the lecture's closed form and the general one).
- :mod:`lecturekit.llm.memory` -- the four memory consumers (parameters, gradients, optimizer
  states, activations) per device, under mixed precision, ZeRO, TP/SP/PP, recomputation.
- :mod:`lecturekit.llm.hardware` -- the lecture's GPU table with peak FLOP/s and bandwidth.
"""
