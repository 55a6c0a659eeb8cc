"""Pipeline-parallel training schedules, placed and checked by the shared scheduling core.

**The bridge to the first half of the lecture.** A training step split over ``p`` GPUs is a
graph of operations: the forward pass ``F`` of micro-batch ``k`` on stage ``s``, its backward
pass ``B`` (and, for the zero-bubble schedules, the weight-gradient pass ``W`` split off the
backward). Each pass holds its GPU for its duration, exactly like an instruction holds a
functional unit; "micro-batch 3's activations must reach GPU 2" is a dependence with a latency,
exactly like a register written in one cycle and read in a later one. A schedule (GPipe, 1F1B,
...) is one fixed list of passes per GPU, and running it is what in-order hardware does with an
instruction order. So this package builds a :class:`lecturekit.core.Graph` and hands the per-GPU
lists to :func:`lecturekit.core.evaluate`; :func:`lecturekit.core.verify` checks the result.
A bubble is an idle slot of a GPU, as a stall is an idle slot of the pipeline.

**Model** (integers throughout; a *time unit* is whatever the durations are counted in):

- ``p`` devices (GPUs), the model cut into ``p`` stages of equal cost (``p * v`` with ``v``
  chunks per device for the interleaved schedule); ``m`` micro-batches per training step.
- :class:`Timing`: ``forward`` = T_F, ``backward`` = T_B, ``weight`` = T_W, ``comm`` = c, all
  integers: the time of one micro-batch through one device's share of the model. Schedules that
  do not split the backward run one backward op of ``T_B + T_W`` ("B includes W"); the
  zero-bubble schedules run ``B`` (T_B) and ``W`` (T_W) separately. With ``v`` chunks a chunk
  takes ``T/v``, so the interleaved schedule needs durations divisible by ``v``.
- A pass of duration ``d`` started at ``t`` holds its device in time units ``t .. t+d-1``
  (``Reservation(device, 0, d)``, ``tail = d - 1``). Time starts at 1, as in the lecture.
- Edges: ``F(s,k) -> F(s+1,k)`` and ``B(s+1,k) -> B(s,k)`` with latency ``d + c`` (the
  activation or its gradient travels to the next device, ``c`` = 0 between two chunks on the
  same device); ``F(last,k) -> B(last,k)`` and ``B(s,k) -> W(s,k)`` with latency ``d``.
- The optimizer step waits for every device (a *flush*), except in PipeDream (no flush: weights
  are updated after every micro-batch) and ZB-H2 (the paper replaces the synchronisation before
  the optimizer step by a post-update validation). :attr:`PipelineRun.steady_period` says what
  that means for the time per step when steps follow each other.

**Figures** (:class:`PipelineRun`): ``makespan`` (first start to last finish), ``bubble_fraction``
= idle device-time / (``p`` x makespan), ``peak_in_flight`` per device = the most micro-batches
whose activations are alive at once (forward started, backward not finished), in units of one
micro-batch's activations for one device's share of the model; ``peak_held`` the same until the
``W`` pass (a split backward keeps the inputs of each linear layer until ``W``).

**Schedules** (:data:`SCHEDULES`; orders in :mod:`lecturekit.llm.pipeline_parallel.generators`):
``naive`` (model parallel, the whole batch as one micro-batch: durations and communication ``m``
times longer), ``gpipe``, ``pipedream``, ``1f1b``, ``1f1b-eager`` (the 2023 slide's DAPPLE figure:
list scheduling with backward first and at most ``p`` micro-batches in flight), ``interleaved``,
``zb-h1``, ``zb-h2``; and in :data:`MORE_SCHEDULES`, with more than one stage per device placed
by :func:`placement_devices` (a loop, or a V: device ``d`` holds stages ``d`` and ``2p - 1 - d``):
``looped-bfs``, ``interleaved-zb``, ``zb-v``, ``v-half``, ``v-min``, ``dualpipev``; and
``dualpipe``, whose
micro-batches travel in two directions, half from each end, so the placement depends on the
micro-batch
(:func:`placement_directions`: device ``d`` holds stage ``d`` of the down direction and stage
``p - 1 - d`` of the up direction). :mod:`lecturekit.llm.pipeline_parallel.torch_interchange` reads
and writes orders in the action notation of PyTorch's ``torch.distributed.pipelining``.

The package, bottom to top (each module imports only those above it in this list):

* :mod:`.limits` -- size limits and argument checks;
* :mod:`.placement` -- which device holds which stage;
* :mod:`.graph` -- the training step as a core graph (:class:`Timing`, :class:`PipelineGraph`);
* :mod:`.catalog` -- the schedules by name, their aliases and closed forms;
* :mod:`.run` -- running an order and its figures (:class:`PipelineRun`);
* :mod:`.generators` -- each schedule's per-device order (plain lists, no graph);
* :mod:`.schedules` -- :func:`pipeline_schedule`: a named schedule, built, ordered and run;
* :mod:`.torch_interchange` -- orders read from and written to PyTorch's notation.
"""

from .catalog import (
    ALIASES,
    ALL_SCHEDULES,
    MORE_SCHEDULES,
    SCHEDULES,
    SYNC,
    closed_form,
    deepseek_bubble,
    resolve_schedule,
)
from .graph import KINDS, PipelineGraph, PipeOp, Timing, build_pipeline_graph, device_name
from .limits import MAX_DURATION, MAX_OPS
from .placement import PLACEMENTS, placement_devices, placement_directions
from .run import PipelineRun, critical_path, parse_order, run_order, weight_versions
from .schedules import (
    DAPPLE_SLIDE,
    DAPPLE_SLIDE_EXTRACTION,
    compare_schedules,
    eager_order,
    pipeline_schedule,
)

__all__ = [
    "KINDS",
    "MAX_DURATION",
    "SYNC",
    "ALIASES",
    "ALL_SCHEDULES",
    "DAPPLE_SLIDE",
    "DAPPLE_SLIDE_EXTRACTION",
    "MAX_OPS",
    "MORE_SCHEDULES",
    "PLACEMENTS",
    "SCHEDULES",
    "PipeOp",
    "PipelineGraph",
    "PipelineRun",
    "Timing",
    "build_pipeline_graph",
    "closed_form",
    "compare_schedules",
    "critical_path",
    "deepseek_bubble",
    "device_name",
    "eager_order",
    "parse_order",
    "pipeline_schedule",
    "placement_devices",
    "placement_directions",
    "resolve_schedule",
    "run_order",
    "weight_versions",
]
