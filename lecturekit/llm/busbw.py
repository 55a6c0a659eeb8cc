"""Algorithm bandwidth and bus bandwidth, as nccl-tests define them (and NCCL converts them).

nccl-tests (``doc/PERFORMANCE.md``; ``src/*.cu``, ``*GetBw``) report two figures for a
collective that took ``t`` seconds:

- **algorithm bandwidth** ``algbw = S / t``, where ``S`` is the size of the operation: the
  buffer being reduced (all-reduce, reduce, broadcast), the *whole* gathered or scattered array
  (all-gather, reduce-scatter: ``count × n`` elements), one rank's whole send buffer
  (all-to-all);
- **bus bandwidth** ``busbw = algbw × factor(n)``, with the factor chosen so that the figure is
  what each rank's link carried, comparable with the hardware's link speed whatever the number
  of ranks ``n``: ``2(n−1)/n`` for all-reduce (every element needs ``n−1`` additions and ``n``
  assignments: ``2(n−1)`` transfers over ``n`` links), ``(n−1)/n`` for reduce-scatter,
  all-gather and all-to-all, 1 for broadcast, reduce and send/receive.

PERFORMANCE.md states the assumption: the all-reduce factor is "independent of the algorithm used
(ring, tree, or other) as long as they use point-to-point operations". A reduction inside the
switches (SHARP, NVLink SHARP) breaks it: each GPU then sends and receives only ``S``, and the
bus bandwidth so computed can exceed the link speed (chapter 15).

NCCL's own tuning model (``src/graph/tuning.cc``) goes the other way, from a bus bandwidth to
the algorithm bandwidth it expects: times ``n / nsteps`` for rings (``nsteps = 2(n−1)`` for an
all-reduce) and NVLS, times ``1/2`` for trees and CollNet (:func:`nccl_alg_over_bus`).
"""

from __future__ import annotations

from .. import validate
from ..errors import ConfigError
from ..language import _

__all__ = ["BUS_FACTORS", "algbw", "bus_factor", "busbw", "nccl_alg_over_bus", "operation_bytes"]

#: collective -> how nccl-tests' bus bandwidth factor depends on the number of ranks n
BUS_FACTORS = {
    "all-reduce": "2(n-1)/n",
    "reduce-scatter": "(n-1)/n",
    "all-gather": "(n-1)/n",
    "all-to-all": "(n-1)/n",
    "broadcast": "1",
    "reduce": "1",
    "send-recv": "1",
}


def _check(collective: str) -> str:
    if collective not in BUS_FACTORS:
        raise ConfigError(
            _("bus bandwidth: unknown collective {collective!r}; choose one of {join}").format(
                collective=collective, join=", ".join(BUS_FACTORS)
            )
        )
    return collective


def bus_factor(collective: str, n: int) -> float:
    """nccl-tests' factor from algorithm to bus bandwidth for ``n`` ranks."""
    _check(collective)
    n = validate.integer(n, _("n (ranks)"), 1)
    if collective == "all-reduce":
        return 2 * (n - 1) / n
    if collective in ("reduce-scatter", "all-gather", "all-to-all"):
        return (n - 1) / n
    return 1.0


def operation_bytes(collective: str, count: int, typesize: int, n: int) -> int:
    """``S`` as nccl-tests compute it from the per-rank ``count`` it passes to NCCL: ``count ×
    typesize`` for all-reduce, reduce, broadcast, send/receive; ``× n`` for all-gather,
    reduce-scatter (``recvcount``/``sendcount`` are per rank) and all-to-all (``count`` per
    peer)."""
    _check(collective)
    count = validate.integer(count, "count", 0)
    typesize = validate.integer(typesize, "typesize", 1)
    n = validate.integer(n, _("n (ranks)"), 1)
    if collective in ("all-gather", "reduce-scatter", "all-to-all"):
        return count * typesize * n
    return count * typesize


def algbw(nbytes: float, seconds: float) -> float:
    """``S / t`` in bytes/s (nccl-tests print it in GB/s = 10⁹ B/s)."""
    nbytes = validate.number(nbytes, _("S (bytes)"), 0)
    seconds = validate.number(seconds, _("t (seconds)"), above=0.0)
    return nbytes / seconds


def busbw(collective: str, algbw_bytes_per_s: float, n: int) -> float:
    """``algbw × factor(n)`` (:func:`bus_factor`)."""
    value = validate.number(algbw_bytes_per_s, "algbw", 0)
    return value * bus_factor(collective, n)


def nccl_alg_over_bus(algorithm: str, n: int, collective: str = "all-reduce") -> float:
    """NCCL's ratio of algorithm to bus bandwidth in its tuning model (``tuning.cc``: "Convert
    bus BW to algorithm BW"): ``n / nsteps`` for ``ring``, ``nvls`` and ``nvls-tree``, ``1/2``
    for ``tree`` and ``collnet``. For a ring all-reduce that is ``n / (2(n−1))``, the inverse of
    nccl-tests' factor; for the tree NCCL assumes every rank sends ``2S``."""
    n = validate.integer(n, _("n (ranks)"), 2)
    if algorithm in ("ring", "nvls", "nvls-tree"):
        steps = {"all-reduce": 2 * (n - 1), "reduce-scatter": n - 1, "all-gather": n - 1}.get(
            collective, n
        )
        return n / steps
    if algorithm in ("tree", "collnet"):
        return 0.5
    raise ConfigError(
        _(
            "nccl_alg_over_bus: unknown algorithm {algorithm!r}; choose ring, "
            "tree, collnet, nvls, nvls-tree"
        ).format(algorithm=algorithm)
    )
