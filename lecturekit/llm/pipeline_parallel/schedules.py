"""The schedules themselves: :func:`pipeline_schedule` builds the graph for a named schedule,
takes its per-device order from :mod:`.generators` (or from list scheduling, :func:`eager_order`)
and runs it; :func:`compare_schedules` runs several side by side; :data:`DAPPLE_SLIDE` is the
2023 slide's figure, which ``1f1b-eager`` reproduces."""

from __future__ import annotations

from ...errors import ScheduleError
from ...language import _
from . import generators
from .catalog import SCHEDULES, resolve_schedule
from .graph import PipelineGraph, Timing, build_pipeline_graph
from .limits import bounded_int, collector_paused
from .placement import check_shape
from .run import PipelineRun, run_order


def eager_order(pg: PipelineGraph, cap: int | None = None) -> dict[int, list]:
    """List scheduling of the passes (chapter 4's algorithm, with a memory limit): whenever a
    device is free it runs a backward if one has arrived, else a forward if one has arrived and
    fewer than ``cap`` (default ``p``) micro-batches are in flight on it, else waits. Returns
    the per-device order it produced (unsplit backward, ``v = 1``)."""
    if pg.split or pg.v != 1:
        raise ScheduleError(
            _("the eager list schedule is defined for v = 1 and an unsplit backward")
        )
    p, m = pg.p, pg.m
    cap = p if cap is None else bounded_int(_("cap (micro-batches in flight)"), cap, 1)
    g = pg.graph
    # no schedule needs longer than doing everything one after another
    horizon = g.earliest + sum(op.duration for op in pg.ops) + sum(e.latency for e in g.edges)
    preds = {i: g.preds(i) for i in range(len(g.ops))}
    start: dict[int, int] = {}
    nxt = {(kind, s): 1 for kind in ("F", "B") for s in range(p)}
    free = [g.earliest] * p
    order: dict[int, list] = {s: [] for s in range(p)}

    def ready_at(i: int) -> int | None:
        t = g.earliest
        for e in preds[i]:
            if e.src not in start:
                return None
            t = max(t, start[e.src] + e.latency)
        return t

    t = g.earliest
    while len(start) < len(g.ops):
        if t > horizon:  # pragma: no cover - a guard, not a path
            raise ScheduleError(_("the eager list schedule made no progress"))
        for s in range(p):
            if free[s] > t:
                continue
            pick = None
            for kind in ("B", "F"):
                k = nxt[(kind, s)]
                if k > m:
                    continue
                if kind == "F" and nxt[("F", s)] - nxt[("B", s)] >= cap:
                    continue
                i = pg.op(kind, k, s)
                r = ready_at(i)
                if r is not None and r <= t:
                    pick = (kind, k, i)
                    break
            if pick:
                kind, k, i = pick
                start[i] = t
                free[s] = t + pg.ops[i].duration
                nxt[(kind, s)] += 1
                order[s].append((kind, k, s))
        t += 1
    return order


@collector_paused
def pipeline_schedule(
    name: str = "1f1b",
    p: int = 4,
    m: int = 8,
    v: int | None = None,
    tf: int = 1,
    tb: int = 1,
    tw: int = 1,
    comm: int = 0,
    *,
    timing: Timing | None = None,
    gpipe_backward: str = "newest",
    all_forwards_first: bool = False,
    calls: bool = False,
    paired: int | None = None,
) -> PipelineRun:
    """Build, run and verify a named schedule (see :data:`ALL_SCHEDULES`).

    ``tf``, ``tb``, ``tw``, ``comm`` (or ``timing``) are integer time units; schedules that do not
    split the backward run one backward of ``tb + tw``. ``v`` (model chunks per device) applies
    to ``interleaved``, ``interleaved-zb`` and ``looped-bfs`` (default 2 there); ``zb-v`` and
    ``dualpipev`` always place two chunks per device in a V; ``dualpipe`` one stage per device
    and direction.
    ``gpipe_backward``: GPipe's backwards ``"newest"`` first (the GPipe figure, default) or
    ``"oldest"`` first (as PyTorch's ``ScheduleGPipe``).
    ``all_forwards_first``: interleaved with ``m = p`` as Megatron-LM ran it before late 2024
    (every forward first) instead of interleaving from the start (default).
    ``calls`` (``dualpipe``, ``dualpipev``): run the reference implementation's calls as units
    (see ``calls`` in :func:`build_pipeline_graph`): a full backward sends its input gradient
    after computing the weight gradient too, and a forward paired with a backward waits for
    both inputs and sends both outputs when the pair is done; default off (each pass sends
    its output when it ends, as PyTorch's ``ScheduleDualPipeV`` runs unpaired actions).
    ``paired`` (with ``calls``): DeepSeek-V3's ``F&B``, the time a forward paired with a full
    backward takes when their computation and communication overlap (see :class:`Timing`);
    default ``T_F + T_B + T_W``, no overlap.
    """
    name = resolve_schedule(name)
    timing = timing or Timing(tf, tb, tw, comm)
    if paired is not None:
        t = timing
        timing = Timing(t.forward, t.backward, t.weight, t.comm, paired)
    if gpipe_backward not in ("newest", "oldest"):
        raise ScheduleError(
            _(
                "gpipe_backward: 'newest' (GPipe's figure) or 'oldest' (PyTorch), got "
                "{gpipe_backward!r}"
            ).format(gpipe_backward=gpipe_backward)
        )
    if name in ("interleaved", "looped-bfs", "interleaved-zb"):
        v = 2 if v is None else v
    elif name == "dualpipe":
        if v not in (None, 1):
            raise ScheduleError(
                _(
                    "v (model chunks per device): dualpipe places one stage of each "
                    "direction per device (v = 1), got v = {v}"
                ).format(v=v)
            )
    elif name in ("zb-v", "dualpipev", "v-half", "v-min"):
        if v not in (None, 2):
            raise ScheduleError(
                _(
                    "v (model chunks per device): {name} places exactly 2 chunks per "
                    "device (a V), got v = {v}"
                ).format(name=name, v=v)
            )
        v = 2
    elif v not in (None, 1):
        raise ScheduleError(
            _(
                "v (model chunks per device) only applies to the interleaved, "
                "interleaved-zb and looped-bfs schedules (zb-v, dualpipev, v-half and "
                "v-min use 2), not {name}"
            ).format(name=name)
        )
    p, m, v = check_shape(p, m, v or 1)
    if calls and name not in ("dualpipe", "dualpipev"):
        raise ScheduleError(
            _("calls: only dualpipe and dualpipev have calls, not {name}").format(name=name)
        )
    note = ""
    if name == "naive":
        pg = build_pipeline_graph(p, 1, 1, timing, split=False, batch=m)
        keys = generators.naive(p)
        note = _(
            "the whole batch ({m} micro-batches) is one op per device; comm x {m} as well"
        ).format(m=m)
    elif name == "gpipe":
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = generators.gpipe(p, m, gpipe_backward)
    elif name in ("1f1b", "pipedream"):
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = generators.one_f_one_b(p, m)
        if name == "pipedream":
            note = _("same op lists as 1F1B, no flush: see weight_versions() and steady_period")
    elif name == "1f1b-eager":
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = eager_order(pg)
    elif name == "interleaved":
        if m % p:
            raise ScheduleError(
                _(
                    "interleaved: m = {m} micro-batches is not a multiple of p = {p}; "
                    "Megatron-LM's interleaved schedule sends micro-batches through the "
                    "chunks in groups of p. Try m = {max} or {value}"
                ).format(m=m, p=p, max=max(p, m - m % p), value=m + p - m % p)
            )
        pg = build_pipeline_graph(p, m, v, timing)
        keys = generators.interleaved(p, m, v, all_forwards_first=all_forwards_first)
    elif name == "looped-bfs":
        pg = build_pipeline_graph(p, m, v, timing)
        keys = generators.looped_bfs(p, m, v)
    elif name == "interleaved-zb":
        rounds = max(1, m // p)
        if m % rounds:
            raise ScheduleError(
                _(
                    "interleaved-zb: m = {m} micro-batches is not a multiple of the "
                    "{rounds} rounds (m // p) PyTorch's ScheduleInterleavedZeroBubble "
                    "sends them in; try m = {value} or {value2}"
                ).format(m=m, rounds=rounds, value=m - m % rounds, value2=m + rounds - m % rounds)
            )
        pg = build_pipeline_graph(p, m, v, timing, split=True)
        keys = generators.interleaved_zero_bubble(p, m, v)
    elif name == "zb-v":
        pg = build_pipeline_graph(p, m, 2, timing, split=True, placement="v")
        keys = generators.zb_v(p, m)
        if m < 2 * p - 1:
            note = _(
                "m = {m} < 2p - 1 = {value}: too few micro-batches to fill ZB-V's warm-up"
            ).format(m=m, value=2 * p - 1)
    elif name in ("v-half", "v-min"):
        pg = build_pipeline_graph(p, m, 2, timing, split=True, placement="v")
        keys = (generators.v_half if name == "v-half" else generators.v_min)(p, m)
    elif name == "dualpipev":
        if m < 2 * p:
            raise ScheduleError(
                _(
                    "dualpipev: needs at least 2p = {value} micro-batches (as many as "
                    "stages), got m = {m}"
                ).format(value=2 * p, m=m)
            )
        groups = [c for d in range(p) for c in generators._dualpipe_v_calls(p, m, d)]
        pg = build_pipeline_graph(
            p, m, 2, timing, split=True, placement="v", calls=groups if calls else None
        )
        keys = generators.dualpipe_v(p, m)
        note = _pair_note(timing, calls)
    elif name == "dualpipe":
        if p % 2 or m % 2 or m < 2 * p:
            raise ScheduleError(
                _(
                    "dualpipe: needs an even number of devices p and an even number of "
                    "micro-batches m >= 2p (half enter at each end), got p = {p}, m = {m}"
                ).format(p=p, m=m)
            )
        by_device = generators.dualpipe_calls(p, m)
        groups = [c for cs in by_device.values() for c in cs]
        pg = build_pipeline_graph(
            p, m, 1, timing, split=True, placement="dualpipe", calls=groups if calls else None
        )
        keys = {d: [k for c in cs for k in c] for d, cs in by_device.items()}
        note = _(
            "micro-batches 1-{value} go down from device 0, {value2}-{m} up from "
            "device {value3}; {pair_note}"
        ).format(
            value=m // 2, value2=m // 2 + 1, m=m, value3=p - 1, pair_note=_pair_note(timing, calls)
        )
    elif name == "zb-h1":
        pg = build_pipeline_graph(p, m, 1, timing, split=True)
        keys = generators.zb_h1(p, m)
    else:  # zb-h2
        pg = build_pipeline_graph(p, m, 1, timing, split=True)
        keys = generators.zb_h2(p, m)
        if m < 2 * p - 1:
            note = _(
                "m = {m} < 2p - 1 = {value}: too few micro-batches to fill ZB-H2's "
                "warm-up; ZB-H1 is as good or better here"
            ).format(m=m, value=2 * p - 1)
    return run_order(pg, pg.order_from_keys(keys), name, note)


def _pair_note(timing: Timing, calls: bool) -> str:
    """What a paired forward and full backward costs in this run (DualPipe's overlap)."""
    if timing.paired is not None:
        return _(
            "a paired forward and full backward runs as one call of F&B = {paired} "
            "(overlapped; F + B + W = {per_micro_batch})"
        ).format(paired=timing.paired, per_micro_batch=timing.per_micro_batch())
    if calls:
        return _("a paired forward and full backward runs as one call of F + B + W (no overlap)")
    return _("a paired forward and backward runs one after the other (no overlap modelled)")


def compare_schedules(
    p: int = 4,
    m: int = 8,
    v: int = 2,
    tf: int = 1,
    tb: int = 1,
    tw: int = 1,
    comm: int = 0,
    names=None,
) -> list[PipelineRun]:
    """One run per schedule with the same model and durations (interleaved with ``v`` chunks)."""
    names = names or list(SCHEDULES)
    return [
        pipeline_schedule(
            n,
            p,
            m,
            v if resolve_schedule(n) in ("interleaved", "looped-bfs", "interleaved-zb") else None,
            tf,
            tb,
            tw,
            comm,
        )
        for n in names
    ]


# ----------------------------------------------------------------------------------------------
# the 2023 slide's DAPPLE figure
# ----------------------------------------------------------------------------------------------

#: The DAPPLE grid of the 2023 slides (001_*.txt) as the text extraction gives it: one line per
#: device, tab-separated cells, one cell per time unit (a forward takes one, a backward two).
DAPPLE_SLIDE_EXTRACTION = (
    "1\t2\t3\t4\t\t\t\t\t\t\t1\tı\t5\t2\t\t5\t3\t7\t4\t4\t8\tį\t5\t\t6\t,\t\t7\t7\t8\n"
    "\t1\t2\t3\t4\t\t\t\t1\t\t\t2\t2\t5\t3\t•\t6\t4\t7\tĘ\t5\t8\t6\t5\t\t7\t7\t\t8\t\n"
    "\t\t1\t2\t3\t4\t1\t\t\t2\t2\t\t3\t3\t5\t4\t6\t5 (5\t7\t6\t5\t8\t7\t7\t\t8\t3\t\t\n"
    "\t\t\t1\t1\t1\t2\t2\t2\t3\t3\t3\t4\t4\t!\t5\t5\t6\t(5\t7\t-\t7\t8\t8\t3\t\t\t\t\n"
)

#: Our reading of that grid (4 devices, 8 micro-batches, T_F = 1, backward = 2): ``F3`` a
#: forward, ``B3`` one of the two units of a backward, ``.`` idle. Devices 1 and 2 run their
#: first four forwards as soon as they arrive (more than 1F1B's p - s - 1 warm-up): it is the
#: ``1f1b-eager`` schedule, and :func:`pipeline_schedule` reproduces it cell for cell.
DAPPLE_SLIDE = (
    "F1 F2 F3 F4 . . . . . . B1 B1 F5 B2 B2 F6 B3 B3 F7 B4 B4 F8 B5 B5 . B6 B6 . B7 B7 . B8 B8",
    ". F1 F2 F3 F4 . . . B1 B1 . B2 B2 F5 B3 B3 F6 B4 B4 F7 B5 B5 F8 B6 B6 . B7 B7 . B8 B8 . .",
    ". . F1 F2 F3 F4 B1 B1 . B2 B2 . B3 B3 F5 B4 B4 F6 B5 B5 F7 B6 B6 F8 B7 B7 . B8 B8 . . . .",
    ". . . F1 B1 B1 F2 B2 B2 F3 B3 B3 F4 B4 B4 F5 B5 B5 F6 B6 B6 F7 B7 B7 F8 B8 B8 . . . . . .",
)
