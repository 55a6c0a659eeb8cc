"""Stage placement: which device holds which of the ``p v`` stages (a loop, or a V: device ``d``
holds stages ``d`` and ``2p - 1 - d``), and DualPipe's two directions, where the placement
depends on the micro-batch."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import ScheduleError
from ...language import N_, _
from .limits import bounded_int


def check_shape(p, m, v) -> tuple[int, int, int]:
    """``(p, m, v)`` checked: devices, micro-batches and chunks per device within the bounds
    the schedules accept (a :class:`ScheduleError` naming the one that is not)."""
    p = bounded_int(_("p (pipeline stages / devices)"), p, 1, 64)
    m = bounded_int(_("m (micro-batches)"), m, 1, 512)
    v = bounded_int(_("v (model chunks per device)"), v, 1, 16)
    return p, m, v


#: stage placements: how the ``p v`` stages sit on the ``p`` devices
PLACEMENTS = {
    "loop": N_(
        "stage s on device s mod p (v = 1: one stage per device; v > 1: interleaved, looped BFS)"
    ),
    "v": N_(
        "V shape (zig-zag): chunk c of device d is stage c p + d for even c and "
        "c p + p - 1 - d for odd c; v = 2: device d holds stages d and 2p - 1 - d (ZB-V, DualPipeV)"
    ),
    "dualpipe": N_(
        "two directions (DualPipe): the first half of the micro-batches go down the loop "
        "(stage s on device s mod p), the second half up its mirror image (stage s on device "
        "p - 1 - s mod p); v = 1: device d holds stage d of one and stage p - 1 - d of the other"
    ),
}


def placement_devices(p: int, v: int, placement="loop") -> tuple[int, ...]:
    """The device of each of the ``p v`` stages.

    ``placement`` is a name from :data:`PLACEMENTS` (``"interleaved"`` is another name for
    ``"loop"``; ``"zigzag"`` for ``"v"``) or the data itself: a sequence of ``p v`` device
    numbers, stage by stage, in which every device appears ``v`` times."""
    stages = p * v
    if isinstance(placement, str):
        key = placement.strip().lower().replace("_", "-")
        key = {"interleaved": "loop", "looped": "loop", "zigzag": "v", "v-shape": "v"}.get(key, key)
        if key in ("dualpipe", "bidirectional"):
            raise ScheduleError(
                _(
                    "placement: {placement!r} has two directions, one placement each: see "
                    "placement_directions"
                ).format(placement=placement)
            )
        if key == "loop":
            return tuple(s % p for s in range(stages))
        if key == "v":
            return tuple(s % p if (s // p) % 2 == 0 else p - 1 - s % p for s in range(stages))
        raise ScheduleError(
            _(
                "placement: unknown placement {placement!r}; choose one of {join} or "
                "give the device of each stage"
            ).format(placement=placement, join=", ".join(PLACEMENTS))
        )
    try:
        devs = [int(x) for x in placement]
    except (TypeError, ValueError):
        raise ScheduleError(
            _("placement: expected a name or a list of device numbers, got {placement!r}").format(
                placement=placement
            )
        ) from None
    if len(devs) != stages:
        raise ScheduleError(
            _("placement: {n_devs} device number(s) given for p x v = {stages} stages").format(
                n_devs=len(devs), stages=stages
            )
        )
    for s, d in enumerate(devs):
        if not 0 <= d < p:
            raise ScheduleError(
                _("placement: stage {s} is on device {d}, devices are 0..{value}").format(
                    s=s, d=d, value=p - 1
                )
            )
    for d in range(p):
        if devs.count(d) != v:
            raise ScheduleError(
                _("placement: device {d} holds {count} stage(s); each device holds v = {v}").format(
                    d=d, count=devs.count(d), v=v
                )
            )
    return tuple(devs)


def placement_directions(p: int, v: int, placement="loop") -> tuple[tuple[int, ...], ...]:
    """The device of each stage, once per direction the micro-batches travel in.

    One direction for every placement :func:`placement_devices` takes; two for
    ``"dualpipe"`` (DeepSeek's DualPipe: direction 0 goes down the loop, stage ``s`` on device
    ``s mod p``, direction 1 up its mirror image, stage ``s`` on device ``p - 1 - (s mod p)``)
    or for data with one placement per direction: ``[[0, 1, 2, 3], [3, 2, 1, 0]]`` or
    ``{0: [...], 1: [...]}``."""
    if isinstance(placement, str):
        key = placement.strip().lower().replace("_", "-")
        if key in ("dualpipe", "bidirectional"):
            loop = placement_devices(p, v)
            return (loop, tuple(p - 1 - d for d in loop))
        return (placement_devices(p, v, placement),)
    if isinstance(placement, Mapping):
        keys = sorted(placement)
        if keys != list(range(len(keys))):
            raise ScheduleError(
                _("placement: directions must be numbered 0, 1, ..., got {join}").format(
                    join=", ".join(map(str, keys))
                )
            )
        placement = [placement[k] for k in keys]
    try:
        nested = [not isinstance(x, (str, bytes)) and hasattr(x, "__iter__") for x in placement]
    except TypeError:
        nested = []
    if nested and all(nested):
        if len(placement) > 2:
            raise ScheduleError(
                _(
                    "placement: {n_placement} directions given; micro-batches travel in "
                    "one direction or two (DualPipe)"
                ).format(n_placement=len(placement))
            )
        return tuple(placement_devices(p, v, pl) for pl in placement)
    return (placement_devices(p, v, placement),)


def micro_batch_directions(m: int, n: int, directions) -> tuple[int, ...]:
    """Each micro-batch's direction: by default the first ``m / n`` go in direction 0, the
    next in direction 1 (DualPipe: half from each end)."""
    if directions is None:
        if n == 1:
            return ()
        if m % n:
            raise ScheduleError(
                _(
                    "directions: m = {m} micro-batches do not split evenly over {n} "
                    "directions; use an even m or give each micro-batch's direction"
                ).format(m=m, n=n)
            )
        return tuple(k * n // m for k in range(m))
    try:
        dirs = tuple(int(x) for x in directions)
    except (TypeError, ValueError):
        raise ScheduleError(
            _(
                "directions: expected one direction number per micro-batch, got {directions!r}"
            ).format(directions=directions)
        ) from None
    if len(dirs) != m:
        raise ScheduleError(
            _("directions: {n_dirs} given for m = {m} micro-batches").format(n_dirs=len(dirs), m=m)
        )
    bad = [k + 1 for k, x in enumerate(dirs) if not 0 <= x < n]
    if bad:
        raise ScheduleError(
            _(
                "directions: micro-batch {bad} has direction {dirs}; the placement has "
                "direction(s) 0..{value}"
            ).format(bad=bad[0], dirs=dirs[bad[0] - 1], value=n - 1)
        )
    return dirs if n > 1 else ()
