"""The schedules by name: what each one is (:data:`SCHEDULES`, :data:`MORE_SCHEDULES`), the
other names people use (:data:`ALIASES`), how its optimizer step is synchronised
(:data:`SYNC`), and its textbook makespan where one is known (:func:`closed_form`; DualPipe's
bubble with its forward-backward overlap: :func:`deepseek_bubble`)."""

from __future__ import annotations

from fractions import Fraction

from ...errors import ScheduleError
from ...language import N_, _
from .graph import Timing

#: name -> one-line description, in the order the lecture tells the story
SCHEDULES: dict[str, str] = {
    "naive": N_("model parallel: the whole batch as one micro-batch, one device busy at a time"),
    "gpipe": N_("GPipe (2019): all forwards, then all backwards; flush"),
    "pipedream": N_("PipeDream (2019): 1F1B without flush, weights updated per micro-batch"),
    "1f1b": N_(
        "1F1B = DAPPLE (2021) = PipeDream-Flush: warm-up, one forward one backward, cool-down"
    ),
    "1f1b-eager": N_(
        "the 2023 slide's DAPPLE figure: backward first, forwards as they arrive, <= p"
    ),
    "interleaved": N_("interleaved 1F1B (Megatron-LM 2021): v model chunks per device"),
    "zb-h1": N_(
        "zero bubble ZB-H1 (2023): backward split into B and W, W postponed; 1F1B peak memory"
    ),
    "zb-h2": N_("zero bubble ZB-H2 (2023): more warm-up forwards, parallelogram; ~2x memory"),
}

#: the second edition's schedules (more than one chunk per device; the V placement)
MORE_SCHEDULES: dict[str, str] = {
    "looped-bfs": N_(
        "looped BFS (2022): loop placement, each chunk GPipe-style in turn; m in flight"
    ),
    "interleaved-zb": N_(
        "interleaved zero bubble (PyTorch's ScheduleInterleavedZeroBubble): "
        "interleaved 1F1B with split backward, W passes fill the bubbles"
    ),
    "zb-v": N_("ZB-V (2024): V placement (stages d and 2p-1-d), split backward; 1F1B memory"),
    "v-half": N_(
        "V-Half (2024): V placement, about half of 1F1B's activation memory, small bubble"
    ),
    "v-min": N_("V-Min (2024): V placement, about a third of 1F1B's activation memory"),
    "dualpipev": N_("DualPipeV (DeepSeek 2025): V placement, forward and backward chunks paired"),
    "dualpipe": N_(
        "DualPipe (DeepSeek-V3 2024): two directions, half the micro-batches from each "
        "end; 2x parameters"
    ),
}

#: every schedule :func:`pipeline_schedule` runs
ALL_SCHEDULES: dict[str, str] = SCHEDULES | MORE_SCHEDULES

#: other names people use
ALIASES = {
    "dapple": "1f1b",
    "pipedream-flush": "1f1b",
    "1f1b-interleaved": "interleaved",
    "interleaved-1f1b": "interleaved",
    "megatron": "interleaved",
    "zbh1": "zb-h1",
    "zb1p": "zb-h1",
    "zbh2": "zb-h2",
    "zb2p": "zb-h2",
    "model-parallel": "naive",
    "dapple-slide": "1f1b-eager",
    "bfs": "looped-bfs",
    "loopedbfs": "looped-bfs",
    "zbv": "zb-v",
    "interleaved-zero-bubble": "interleaved-zb",
    "interleavedzerobubble": "interleaved-zb",
    "zb-interleaved": "interleaved-zb",
    "zbvzerobubble": "zb-v",
    "dualpipe-v": "dualpipev",
    "dual-pipe": "dualpipe",
    "vhalf": "v-half",
    "vmin": "v-min",
    "bidirectional": "dualpipe",
}

#: how the optimizer step is synchronised: "flush" (wait for every device), "none" (PipeDream:
#: every micro-batch updates its stage's weights), "post-validation" (ZB-H2's assumption)
SYNC = {name: "flush" for name in ALL_SCHEDULES} | {"pipedream": "none", "zb-h2": "post-validation"}


def resolve_schedule(name: str) -> str:
    """The canonical schedule name (case-insensitive, aliases allowed)."""
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in ALL_SCHEDULES:
        raise ScheduleError(
            _("schedule: unknown pipeline schedule {name!r}; choose one of {join}").format(
                name=name, join=", ".join(ALL_SCHEDULES)
            )
        )
    return key


def closed_form(
    name: str, p: int, m: int, v: int = 1, timing: Timing | None = None, calls: bool = False
) -> int | None:
    """The textbook makespan, where one is known (``None`` otherwise).

    With ``c`` = comm, ``Bt = T_B + T_W``:

    - naive: ``p m (T_F + Bt) + 2 (p-1) m c``
    - gpipe: ``(m + p - 1)(T_F + Bt) + 2 (p-1) c``
    - 1f1b, pipedream (``c = 0``): ``(m + p - 1)(T_F + Bt)``; 1f1b-eager too when
      ``Bt`` is ``T_F`` or ``2 T_F`` (with other ratios the greedy list schedule can lose: p=3,
      m=4, T_F=2, T_B=1, T_W=0 gives 19, not 18)
    - interleaved (``c = 0``, ``m`` a multiple of ``p``, ``m = p`` too):
      ``m (T_F + Bt) + (p-1)(T_F + Bt)/v``
    - zb-h1 (``c = 0``, ``T_F = T_B = T_W``, ``m >= p``): ``m (T_F+T_B+T_W) + (p-1)(T_F+T_B-T_W)``
    - zb-h2 (``c = 0``, ``T_F = T_B = T_W``, ``m >= 2p - 1``): ``m (T_F+T_B+T_W) + (p-1) T_F``
    - looped-bfs (``c = 0``, ``m >= p``): ``m (T_F + Bt) + (p-1)(T_F + Bt)/v``, the same as
      interleaved (Lamy-Poirier 2022: bubble / ideal ``(p-1)/(v m)``), with ``m`` micro-batches
      in flight on every device (GPipe's memory)
    - zb-v (``c = 0``, ``T_F = T_B = T_W``, ``m >= 2p - 1``) and dualpipev (the same, ``m >= 2p``):
      ``m (T_F+T_B+T_W) + (p-1) T_F / 2``: every device busy without a gap after a warm-up of
      ``p - 1`` half-size (chunk) forwards, ZB-H2's time at half ZB-H2's warm-up
    - dualpipe (``c = 0``, ``T_F = T_B = T_W``, ``p`` even, ``m >= 2p`` even):
      ``m (T_F+T_B+T_W) + (p/2 - 1) T_F``: DualPipeV's on ``p/2`` devices, each device doing
      a whole stage (not a half) for every micro-batch
    - with ``calls=True`` (dualpipe, dualpipev: the reference's calls run as units) the bubble
      doubles: ``m (T_F+T_B+T_W) + (P/2 - 1) 2 F`` with ``P`` stages (``p`` for dualpipe, ``2p``
      for dualpipev) and ``F`` a stage's forward; this is DeepSeek's bubble
      ``(P/2 - 1)(F&B + B - 3W)`` with ``F&B = F + B`` (a paired forward and full backward
      ``B`` run one after the other) and ``F = W``, ``B = 2W``. With an overlapped pair
      (``timing.paired``) the devices do different amounts of work and no makespan formula is
      given: the most idle device's bubble is :func:`deepseek_bubble`
    - interleaved-zb: none (PyTorch gives none; the tests compare its orders and makespans)
    - v-half, v-min: none (Qi et al. 2024 give their bubble only approximately, ``~p/2m`` and
      ``~2p/3m``; their peak memory is exact, see
      :mod:`lecturekit.llm.pipeline_parallel.generators`)
    """
    name = resolve_schedule(name)
    t = timing or Timing()
    if t.paired is not None:
        return None  # see deepseek_bubble
    f, bt, c = t.forward, t.full_backward, t.comm
    equal = t.forward == t.backward == t.weight
    if name == "naive":
        return p * m * (f + bt) + 2 * (p - 1) * m * c
    if name == "gpipe":
        return (m + p - 1) * (f + bt) + 2 * (p - 1) * c
    if c:
        return None
    if name == "1f1b-eager" and bt not in (f, 2 * f):
        return None  # list scheduling is a heuristic: e.g. p=3, m=4, T_F=2, T_B=1 gives 19 > 18
    if name in ("1f1b", "pipedream", "1f1b-eager"):
        return (m + p - 1) * (f + bt)
    if name in ("interleaved", "looped-bfs"):
        if m % p or (p - 1) * (f + bt) % v:
            return None
        return m * (f + bt) + (p - 1) * (f + bt) // v
    if calls and name not in ("dualpipe", "dualpipev"):
        return None
    if name in ("zb-v", "dualpipev") and equal and m >= 2 * p - (name == "zb-v"):
        if (p - 1) * t.forward % 2:
            return None
        return m * t.per_micro_batch() + (p - 1) * t.forward // 2 * (2 if calls else 1)
    if name == "dualpipe" and equal and p % 2 == 0 and m % 2 == 0 and m >= 2 * p:
        return m * t.per_micro_batch() + (p // 2 - 1) * t.forward * (2 if calls else 1)
    if name == "zb-h1" and equal and m >= p:
        return m * t.per_micro_batch() + (p - 1) * (t.forward + t.backward - t.weight)
    if name == "zb-h2" and equal and m >= 2 * p - 1:
        return m * t.per_micro_batch() + (p - 1) * t.forward
    return None


def deepseek_bubble(name: str, p: int, timing: Timing) -> Fraction | None:
    """DeepSeek-V3's bubble of DualPipe (technical report, section 3.2.1, Table 2):
    ``(PP/2 - 1)(F&B + B - 3W)`` with ``PP`` the pipeline stages, ``F``, ``B``, ``W`` a stage's
    forward, *full* backward and weight-gradient chunk and ``F&B`` "the execution time of two
    mutually overlapped forward and backward chunks" (``timing.paired``, default ``F + B``: no
    overlap). For ``dualpipe`` (``PP = p``) and ``dualpipev`` (``PP = 2p`` chunks of half a
    stage) run as the reference's calls, with ``T_F = T_B = T_W`` (so ``F = W``, ``B = 2W``),
    it is the idle time of the most idle device, whatever ``F&B`` (the tests check this on the
    evaluator); ``None`` for other schedules or durations."""
    name = resolve_schedule(name)
    if name not in ("dualpipe", "dualpipev") or not (
        timing.forward == timing.backward == timing.weight
    ):
        return None
    v, stages = (1, p) if name == "dualpipe" else (2, 2 * p)
    f, b, w = (Fraction(x, v) for x in (timing.forward, timing.full_backward, timing.weight))
    pair = f + b if timing.paired is None else Fraction(timing.paired, v)
    return (Fraction(stages, 2) - 1) * (pair + b - 3 * w)
