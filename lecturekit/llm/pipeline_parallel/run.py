"""Running an order: :class:`PipelineRun` places per-device orders on the devices with the
scheduling core (:func:`lecturekit.core.evaluate`, checked by :func:`lecturekit.core.verify`)
and holds the figures (makespan, bubble fraction, activations in flight, memory over time);
:func:`parse_order` reads an order a person writes, :func:`weight_versions` PipeDream's weight
versions."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ...core import Schedule, evaluate, verify
from ...errors import ScheduleError
from ...language import _
from .catalog import ALL_SCHEDULES, SYNC, closed_form
from .graph import KINDS, PipelineGraph, PipeOp, device_name
from .limits import collector_paused


@dataclass
class PipelineRun:
    """A schedule of one training step: the order each device ran, the start of every pass
    (from :func:`lecturekit.core.evaluate`, checked by :func:`lecturekit.core.verify`), and
    the figures derived from it."""

    name: str
    pg: PipelineGraph
    order: dict[str, list[int]]
    schedule: Schedule
    note: str = ""

    # -- shape ---------------------------------------------------------------------------------
    p = property(lambda self: self.pg.p)
    #: micro-batches per step (for ``naive`` the one op carries all of them)
    m = property(lambda self: self.pg.m * self.pg.batch)
    v = property(lambda self: self.pg.v)
    timing = property(lambda self: self.pg.timing)

    @property
    def ops(self) -> list[PipeOp]:
        return self.pg.ops

    def start(self, i: int) -> int:
        return self.schedule.start[i]

    @cached_property
    def _finish(self) -> list[int]:
        return list(self.schedule.finish)

    def finish(self, i: int) -> int:
        return self._finish[i]

    def device_ops(self, d: int) -> list[int]:
        """Operation indices run by device ``d``, in the order it ran them."""
        return list(self.order[device_name(d)])

    # -- time ----------------------------------------------------------------------------------
    @cached_property
    def first(self) -> int:
        return min(self.schedule.start)

    @cached_property
    def last(self) -> int:
        return max(self._finish, default=0)

    @cached_property
    def makespan(self) -> int:
        """Time units from the first start to the last finish."""
        return self.last - self.first + 1 if self.schedule.start else 0

    @cached_property
    def _busy(self) -> list[int]:
        return [
            sum(self.ops[i].duration for i in self.order[device_name(d)]) for d in range(self.p)
        ]

    def busy(self, d: int) -> int:
        """Time units device ``d`` computes."""
        return self._busy[d]

    def idle(self, d: int) -> int:
        return self.makespan - self.busy(d)

    @property
    def bubble_time(self) -> Fraction:
        """Idle time per device, averaged over devices."""
        return Fraction(sum(self.idle(d) for d in range(self.p)), self.p)

    @property
    def bubble_fraction(self) -> float:
        """Idle device-time / (p x makespan)."""
        return float(self.bubble_time / self.makespan)

    @property
    def ideal(self) -> int:
        """The step time with no bubble at all: the busiest device's work."""
        return max(self.busy(d) for d in range(self.p))

    @property
    def bubble_over_ideal(self) -> float:
        """Bubble time / ideal time, the measure of the Megatron-LM and zero-bubble papers
        ((p-1)/m for 1F1B)."""
        return float(self.bubble_time / self.ideal)

    def span(self, d: int) -> tuple[int, int]:
        """First start and last finish on device ``d``."""
        ops = self.order[device_name(d)]
        return min(self.start(i) for i in ops), max(self.finish(i) for i in ops)

    @property
    def sync(self) -> str:
        return SYNC.get(self.name, "flush")

    @property
    def steady_period(self) -> int:
        """Time per training step when steps follow each other.

        With a flush the next step starts when this one has finished everywhere: the makespan.
        Without the synchronisation (ZB-H2's post-validation) each device starts its next step
        as soon as it is done, so the step repeats every ``max(device span)``. PipeDream never
        drains: in the steady state each device is busy all the time."""
        if self.sync == "none":
            return self.ideal
        if self.sync == "post-validation":
            return max(b - a + 1 for a, b in (self.span(d) for d in range(self.p)))
        return self.makespan

    @property
    def steady_bubble_fraction(self) -> float:
        return 1 - self.ideal / self.steady_period

    # -- memory --------------------------------------------------------------------------------
    def _alive_changes(self, d: int, until: str) -> dict[int, int]:
        """Where the micro-batches alive on device ``d`` change (index 0 = ``first``), in
        units of ``1/v``: each forward adds its batch at its start and takes it away after its
        backward (``until="B"``) or ``W`` pass ends."""
        return self._changes[d][0 if until == "B" or not self.pg.split else 1]

    @cached_property
    def _spans(self) -> list[list[tuple[int, int, int, int]]]:
        """Per device, each forward's start, its B pass's finish, its W pass's finish (the B
        pass's without a split backward) and its batch; times from :attr:`first`."""
        t0 = self.first
        index, ops, start, finish = self.pg.index, self.ops, self.schedule.start, self._finish
        last = "W" if self.pg.split else "B"
        out = []
        for d in range(self.p):
            spans = []
            for i in self.order[device_name(d)]:
                op = ops[i]
                if op.kind == "F":
                    b_end = finish[index["B", op.micro, op.stage]]
                    w_end = finish[index[last, op.micro, op.stage]]
                    spans.append((start[i] - t0, b_end - t0, w_end - t0, op.batch))
            out.append(spans)
        return out

    @cached_property
    def _changes(self) -> list[tuple[dict[int, int], dict[int, int]]]:
        """Per device, :meth:`_alive_changes` until the B pass and until the W pass."""
        out = []
        for spans in self._spans:
            until_b: dict[int, int] = {}
            until_w: dict[int, int] = {}
            for a, b_end, w_end, batch in spans:
                if a <= b_end:
                    until_b[a] = until_b.get(a, 0) + batch
                    until_b[b_end + 1] = until_b.get(b_end + 1, 0) - batch
                if self.pg.split and a <= w_end:
                    until_w[a] = until_w.get(a, 0) + batch
                    until_w[w_end + 1] = until_w.get(w_end + 1, 0) - batch
            out.append((until_b, until_w))
        return out

    def _alive(self, d: int, until: str) -> list[Fraction]:
        """Per time unit (index 0 = ``first``), the micro-batches alive on device ``d``."""
        return _curve(self._alive_changes(d, until), self.v, self.last - self.first + 1)

    def in_flight(self, d: int) -> list[Fraction]:
        """Micro-batches with activations alive on device ``d`` (forward started, backward not
        finished), per time unit from :attr:`first`; chunks count ``1/v``, a whole batch ``m``."""
        return self._alive(d, "B")

    def held(self, d: int) -> list[Fraction]:
        """As :meth:`in_flight` but until the ``W`` pass (equal when the backward is not split)."""
        return self._alive(d, "W")

    def _peaks(self, until: str) -> list[Fraction]:
        """Per device, the peak of :meth:`_alive`, from its changes alone: O(ops log ops), not
        O(time units), so a long timeline (the naive schedule's) costs no more than a short."""
        length = self.last - self.first + 1
        return [_peak(self._alive_changes(d, until), self.v, length) for d in range(self.p)]

    @cached_property
    def peak_in_flight(self) -> list[Fraction]:
        """Per device, the most micro-batches' activations alive at once (F done, B not yet)."""
        return self._peaks("B")

    @cached_property
    def peak_held(self) -> list[Fraction]:
        """Per device, the most micro-batches whose activations are kept until their W pass."""
        return self._peaks("W")

    def memory(self, d: int, m_b=1, m_w=None) -> list[Fraction]:
        """Activation memory on device ``d`` per time unit (index 0 = :attr:`first`), in the
        units of ``m_b`` and ``m_w``.

        The zero-bubble paper's accounting (Qi et al. 2023, section 3): a forward pass takes
        ``M_B`` (what its backward needs), the ``B`` pass frees ``M_B - M_W`` and the ``W`` pass
        the remaining ``M_W`` (the inputs of the linear layers and the gradients of their
        outputs, which the weight gradients are computed from; for a transformer layer
        ``M_W = 32 sbh`` bytes against ``M_B = 34 sbh + 5 a s^2 b``, see
        :func:`lecturekit.llm.activations.weight_pass_bytes`). So a micro-batch holds ``m_b``
        from the start of its F to the end of its B, then ``m_w`` until the end of its W.
        ``m_w`` defaults to ``m_b`` (the upper bound: everything kept until W, as
        :meth:`held`). Without a split backward there is no W and ``m_w`` plays no part."""
        m_b, m_w = _memory_units(m_b, m_w)
        return _curve(*self._memory_changes(d, m_b, m_w), self.last - self.first + 1)

    def _memory_changes(self, d: int, m_b: Fraction, m_w: Fraction) -> tuple[dict[int, int], int]:
        """Where :meth:`memory` changes (index 0 = :attr:`first`), as whole numbers over one
        common denominator (returned second), so the sums are integer sums."""
        scale = m_b.denominator * m_w.denominator  # m_b, m_w times scale are whole
        b_units, w_units = int(m_b * scale), int(m_w * scale)
        split = self.pg.split
        delta: dict[int, int] = {}
        for a, b_end, w_end, batch in self._spans[d]:
            if a <= b_end:
                delta[a] = delta.get(a, 0) + batch * b_units
                delta[b_end + 1] = delta.get(b_end + 1, 0) - batch * b_units
            if split and b_end + 1 <= w_end:
                delta[b_end + 1] = delta.get(b_end + 1, 0) + batch * w_units
                delta[w_end + 1] = delta.get(w_end + 1, 0) - batch * w_units
        return delta, self.v * scale

    def peak_memory(self, m_b=1, m_w=None) -> list[Fraction]:
        """Per device, the peak of :meth:`memory` (``M_B`` from F to B, ``M_W`` from B to W)."""
        m_b, m_w = _memory_units(m_b, m_w)
        length = self.last - self.first + 1
        return [_peak(*self._memory_changes(d, m_b, m_w), length) for d in range(self.p)]

    def activation_bytes(self, per_micro_batch: int, until: str = "W") -> list[int]:
        """Peak activation bytes per device, given the bytes one micro-batch's activations take
        on one device's share of the model (e.g. ``layers/p`` x a layer's activations from
        :mod:`lecturekit.llm.memory`). ``until="W"`` counts a split backward's kept inputs."""
        peaks = self.peak_held if until == "W" else self.peak_in_flight
        return [int(x * per_micro_batch) for x in peaks]

    # -- bounds --------------------------------------------------------------------------------
    @cached_property
    @collector_paused
    def lower_bounds(self) -> dict[str, int]:
        """No schedule of this graph can be shorter: the busiest device's work, the critical
        path (the longest chain of passes and transfers), and the scheduling core's best bound
        (:func:`lecturekit.core.bounds.lower_bound`: each device's work plus the time before it
        can start and after it must stop, the same bound that judges instruction schedules)."""
        from ...core.bounds import bounds

        g = self.pg.graph
        each = bounds(g)  # lower_bound(g) is their maximum; one of them is the critical path
        return {
            "device work": self.ideal,
            "critical path": each["critical_path"] - g.earliest + 1,
            "core": max(each.values()) - g.earliest + 1,
        }

    # -- output --------------------------------------------------------------------------------
    @collector_paused
    def devices(self) -> list[list[dict]]:
        """Per device, its passes in order: label, kind, micro, stage, chunk, start, finish."""
        ops, start, finish = self.ops, self.schedule.start, self._finish
        return [
            [
                {
                    "op": ops[i].label,
                    "kind": ops[i].kind,
                    "micro": ops[i].micro,
                    "stage": ops[i].stage,
                    "chunk": ops[i].chunk,
                    "start": start[i],
                    "finish": finish[i],
                }
                for i in self.order[device_name(d)]
            ]
            for d in range(self.p)
        ]

    @collector_paused
    def summary(self) -> dict:
        """The figures of one row of a comparison table."""
        return {
            "schedule": self.name,
            "p": self.p,
            "m": self.m,
            "v": self.v,
            "makespan": self.makespan,
            "ideal": self.ideal,
            "bubble_fraction": self.bubble_fraction,
            "bubble_over_ideal": self.bubble_over_ideal,
            "peak_in_flight": [_num(x) for x in self.peak_in_flight],
            "peak_held": [_num(x) for x in self.peak_held],
            "steady_period": self.steady_period,
        }

    @collector_paused
    def to_dict(self) -> dict:
        """The JSON contract of ``lecturekit parallel pipeline --json``."""
        d = self.summary()
        d.update(
            {
                "timing": self.timing.as_dict(),
                "split_backward": self.pg.split,
                "time_origin": self.first,
                "bubble_time_per_device": _num(self.bubble_time),
                "sync": self.sync,
                "steady_bubble_fraction": self.steady_bubble_fraction,
                "lower_bounds": self.lower_bounds,
                "closed_form_makespan": (
                    closed_form(
                        self.name, self.p, self.m, self.v, self.timing, calls=bool(self.pg.calls)
                    )
                    if self.name in ALL_SCHEDULES
                    else None  # a hand-written or imported order
                ),
                "note": self.note,
                "devices": [
                    {"device": k, "busy": self.busy(k), "idle": self.idle(k), "ops": ops}
                    for k, ops in enumerate(self.devices())
                ],
            }
        )
        return d


def _memory_units(m_b, m_w) -> tuple[Fraction, Fraction]:
    """``m_b`` and ``m_w`` (default ``m_b``) as fractions, checked: ``0 <= m_w <= m_b``."""
    if m_w is None:
        m_w = m_b
    if m_b < 0 or m_w < 0 or m_w > m_b:
        raise ScheduleError(
            _(
                "memory: need 0 <= m_w <= m_b (B frees m_b - m_w), got m_b={m_b!r}, m_w={m_w!r}"
            ).format(m_b=m_b, m_w=m_w)
        )
    return Fraction(m_b), Fraction(m_w)


def _curve(delta: Mapping[int, int], denominator: int, length: int) -> list[Fraction]:
    """The curve of ``length`` time units whose changes are ``delta`` (position -> whole-number
    change, over ``denominator``; a change at ``length`` only closes intervals)."""
    curve: list[Fraction] = []
    values: dict[int, Fraction] = {}  # one Fraction per level reached
    level, at = 0, 0
    for pos in sorted(delta):
        if pos >= length:
            break
        if pos > at:
            value = values.get(level)
            if value is None:
                value = values[level] = Fraction(level, denominator)
            curve += [value] * (pos - at)
            at = pos
        level += delta[pos]
    if length > at:
        value = values[level] if level in values else Fraction(level, denominator)
        curve += [value] * (length - at)
    return curve


def _peak(delta: Mapping[int, int], denominator: int, length: int) -> Fraction:
    """``max(_curve(delta, denominator, length), default=Fraction(0))`` from the changes
    alone."""
    if length <= 0:
        return Fraction(0)
    positions = sorted(delta)
    best = 0 if not positions or positions[0] > 0 else None
    level = 0
    for pos in positions:
        if pos >= length:
            break
        level += delta[pos]
        if best is None or level > best:
            best = level
    return Fraction(best, denominator)


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def critical_path(pg: PipelineGraph) -> int:
    """Length of the longest chain of passes and transfers, first start to last finish."""
    g = pg.graph
    preds = g._adjacency()[0]
    est = [g.earliest] * len(g.ops)
    for j in g.topological_order():
        for e in preds[j]:
            if est[e.src] + e.latency > est[j]:
                est[j] = est[e.src] + e.latency
    return max(est[j] + g.ops[j].tail for j in range(len(g.ops))) - g.earliest + 1


@collector_paused
def run_order(pg: PipelineGraph, order, name: str = "custom", note: str = "") -> PipelineRun:
    """Run a per-device order on the graph with :func:`lecturekit.core.evaluate` and check it
    with :func:`lecturekit.core.verify`.

    ``order`` is ``{device: [(kind, micro, stage), ...]}``, the core's ``{stream: [index]}``, or
    text as :func:`parse_order` reads it. Raises :class:`~lecturekit.errors.DeadlockError`
    (naming the stuck devices and what each waits for) when the devices wait on each other
    forever, and :class:`~lecturekit.errors.ScheduleError` when a pass is missing or repeated.
    """
    streams = _as_streams(pg, order)
    sched = evaluate(pg.graph, streams, algorithm=name)
    verify(pg.graph, sched)
    return PipelineRun(name, pg, streams, sched, note)


def _as_streams(pg: PipelineGraph, order) -> dict[str, list[int]]:
    if not isinstance(order, Mapping):
        return parse_order(pg, order)
    values = list(order.values())
    textual = [isinstance(v, str) or all(isinstance(t, str) for t in v) for v in values]
    if values and all(textual):  # "F1 F2 B1 B2" or ["F1", "F2", "B1", "B2"] per device
        return parse_order(pg, order)
    if all(isinstance(k, str) and k.startswith("device ") for k in order):
        if all(all(isinstance(i, int) for i in v) for v in values):
            missing = [device_name(d) for d in range(pg.p) if device_name(d) not in order]
            if missing:
                raise ScheduleError(
                    _("the order gives no op list for {join}").format(join=", ".join(missing))
                )
            return {k: list(v) for k, v in order.items()}
    out = {}
    for d, keys in order.items():
        dev = _device_index(pg, d)
        out[device_name(dev)] = [pg.op(*k) if isinstance(k, tuple) else k for k in keys]
    return out


def _device_index(pg: PipelineGraph, d) -> int:
    if isinstance(d, str) and d.startswith("device "):
        d = d[len("device ") :]
    try:
        k = int(d)
    except (TypeError, ValueError):
        raise ScheduleError(
            _("{d!r} is not a device (devices are 0..{value})").format(d=d, value=pg.p - 1)
        ) from None
    if not 0 <= k < pg.p:
        raise ScheduleError(
            _("device {k} does not exist: devices are 0..{value}").format(k=k, value=pg.p - 1)
        )
    return k


def parse_order(pg: PipelineGraph, spec) -> dict[str, list[int]]:
    """Read a hand-written order: one line (or list entry) per device, e.g.
    ``["F1 F2 B1 B2", "F1 B1 F2 B2"]`` or ``{0: "F1 F2 B1 B2", 1: "F1 B1 F2 B2"}``.

    A token is kind + micro-batch (``F3``, ``B3``, ``W3``); the stage is the device's own, or
    ``F3.1`` for its chunk 1, or ``F3@5`` for stage 5 explicitly.
    """
    if isinstance(spec, str):
        lines = [ln for ln in spec.strip().splitlines() if ln.strip()]
        spec = dict(enumerate(lines))
    elif not isinstance(spec, Mapping):
        spec = dict(enumerate(spec))
    if len(spec) != pg.p:
        raise ScheduleError(
            _("the order has {n_spec} device line(s) but p = {p}").format(n_spec=len(spec), p=pg.p)
        )
    out = {}
    for d, line in spec.items():
        dev = _device_index(pg, d)
        tokens = line.split() if isinstance(line, str) else list(line)
        idx = []
        for col, tok in enumerate(tokens, 1):
            idx.append(_parse_token(pg, dev, str(tok), col))
        out[device_name(dev)] = idx
    return out


def _parse_token(pg: PipelineGraph, dev: int, tok: str, col: int) -> int:
    where = _("device {dev}, token {col} {tok!r}").format(dev=dev, col=col, tok=tok)
    kind = tok[:1].upper()
    rest = tok[1:]
    if kind not in KINDS:
        raise ScheduleError(_("{where}: a pass starts with F, B or W").format(where=where))
    stage = chunk = None
    if "@" in rest:
        rest, st = rest.split("@", 1)
        if not st.isdigit():
            raise ScheduleError(
                _("{where}: the stage after @ must be a number").format(where=where)
            )
        stage = int(st)
        if stage >= pg.stages:
            raise ScheduleError(
                _("{where}: there is no stage {stage} (stages 0..{value})").format(
                    where=where, stage=stage, value=pg.stages - 1
                )
            )
    elif "." in rest:
        rest, ch = rest.split(".", 1)
        n = len(pg.chunks_of(dev))
        if not ch.isdigit() or int(ch) >= n:
            raise ScheduleError(
                _("{where}: chunk must be 0..{value}").format(where=where, value=n - 1)
            )
        chunk = int(ch)
    if not rest.isdigit():
        raise ScheduleError(
            _("{where}: expected a micro-batch number after {kind}").format(where=where, kind=kind)
        )
    micro = int(rest)
    if not 1 <= micro <= pg.m:
        raise ScheduleError(
            _("{where}: micro-batch {micro} is not in 1..{m}").format(
                where=where, micro=micro, m=pg.m
            )
        )
    direction = pg.direction_of(micro)
    mine = [s for k, s in pg.chunks_of(dev) if k == direction]  # micro's stages on dev
    if chunk is not None:
        k, stage = pg.chunks_of(dev)[chunk]
        if k != direction:
            raise ScheduleError(
                _(
                    "{where}: chunk {chunk} of device {dev} is in direction {k}, "
                    "micro-batch {micro} travels in direction {direction}"
                ).format(where=where, chunk=chunk, dev=dev, k=k, micro=micro, direction=direction)
            )
    elif stage is None:
        stage = mine[0]
    elif pg.device_of(stage, micro) != dev:
        raise ScheduleError(
            _("{where}: stage {stage} runs on device {device_of}, not {dev}").format(
                where=where, stage=stage, device_of=pg.device_of(stage, micro), dev=dev
            )
        )
    if kind == "W" and not pg.split:
        raise ScheduleError(
            _("{where}: this graph does not split the backward, so it has no W").format(where=where)
        )
    return pg.op(kind, micro, stage)


# ----------------------------------------------------------------------------------------------
# PipeDream's weight versions
# ----------------------------------------------------------------------------------------------


def weight_versions(run: PipelineRun) -> dict:
    """Which weight version each pass uses when every micro-batch updates its stage's weights
    right after its backward (PipeDream: no flush).

    Version ``n`` of stage ``s`` = the weights after ``n`` updates there. Returns
    ``forward[k][s]`` (the version micro-batch ``k+1``'s forward uses on stage ``s``),
    ``latest_at_backward[k][s]`` (the version current when its backward runs: what a backward
    without weight stashing would use, wrongly), ``stored[s]`` (the most versions stage ``s``
    must keep at once with weight stashing: one per micro-batch in flight plus the current one,
    counted as distinct versions) and ``stale[k]`` (whether micro-batch ``k+1``'s forward used
    different versions on different stages: the inconsistency PipeDream's vertical sync fixes).
    """
    pg = run.pg
    if pg.v != 1 or pg.batch != 1:
        raise ScheduleError(_("weight versions are computed for v = 1 and one micro-batch per op"))
    last = "W" if pg.split else "B"
    updates = {
        s: sorted(run.finish(pg.op(last, k, s)) for k in range(1, pg.m + 1)) for s in range(pg.p)
    }

    def version(s: int, t: int) -> int:  # updates finished before time t on stage s
        return bisect_left(updates[s], t)

    fwd = [
        [version(s, run.start(pg.op("F", k, s))) for s in range(pg.p)] for k in range(1, pg.m + 1)
    ]
    bwd = [
        [version(s, run.start(pg.op("B", k, s))) for s in range(pg.p)] for k in range(1, pg.m + 1)
    ]
    stored = []
    for s in range(pg.p):
        # the versions kept at time t: those of the micro-batches between their forward's start
        # and their last pass's finish, and the current one. They change only when a micro-batch
        # starts or ends or an update lands, so look at those times (sorted), not at every one
        changes: list[tuple[int, int, int]] = []  # (time, +1 / -1, version)
        for k in range(1, pg.m + 1):
            a, b = run.start(pg.op("F", k, s)), run.finish(pg.op(last, k, s))
            if a <= b:
                changes += [(a, 1, fwd[k - 1][s]), (b + 1, -1, fwd[k - 1][s])]
        changes.sort()
        times = {run.first} | {t for t, _unused, _unused in changes} | {u + 1 for u in updates[s]}
        held: dict[int, int] = {}  # version -> micro-batches keeping it
        best, c = 0, 0
        for t in sorted(x for x in times if run.first <= x <= run.last):
            while c < len(changes) and changes[c][0] <= t:
                _unused, step, ver = changes[c]
                held[ver] = held.get(ver, 0) + step
                if not held[ver]:
                    del held[ver]
                c += 1
            best = max(best, len(held) + (version(s, t) not in held))
        stored.append(best)
    stale = [len(set(row)) > 1 for row in fwd]
    return {"forward": fwd, "latest_at_backward": bwd, "stored": stored, "stale": stale}
