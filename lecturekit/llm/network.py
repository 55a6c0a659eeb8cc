"""A collective's traffic as a core graph: messages are operations, links are units.

DESIGN.md's one idea at the core, for the network: a *message* (one transfer of one algorithm
step) is an operation; every link its bytes cross (:mod:`lecturekit.llm.fabric`) is a unit of
capacity 1 that the operation reserves for as long as that link needs to carry them
(``nbytes / bandwidth``, in cycles of ``quantum`` seconds); the message is delivered ``α`` after
its longest link is done, and a message that forwards data it received (a ring step, a tree
going up) has an edge from that message whose latency is the message's whole length. Each
sender issues its messages in order (a *stream*, one per rank and NCCL channel), and
:func:`lecturekit.core.evaluate` places them as early as their data and their links allow.
**Contention is two messages wanting one link in one cycle**: one of them waits, and the
verifier (:func:`lecturekit.core.verify`) proves no link ever carries two at once.

This is the α–β model of :mod:`lecturekit.llm.comm` with the links made explicit. On a ring of
equal links it gives exactly ``2(p−1)(α + m/p·β)``; where a link is shared, the messages that
cross it take turns (with ``α = 0`` two rings sharing a link each get half of it, as two flows
sharing a cable do); where links differ, a ring runs at the pace its slowest hop allows. Nothing
here knows about collectives: :mod:`lecturekit.llm.nccl` builds the messages.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import validate
from ..core import Edge, Graph, Operation, Reservation, Schedule, evaluate, verify
from ..errors import ConfigError
from ..language import _
from .fabric import Fabric

__all__ = ["Message", "NetworkRun", "link_loads", "schedule_messages"]

#: more operations than this is not a lesson any more (and would take the core a while)
MAX_MESSAGES = 40_000


@dataclass(frozen=True)
class Message:
    """``nbytes`` over ``links`` (in order), sent by ``stream`` after the messages ``deps``
    (indices into the same list) have been delivered, then ``alpha`` seconds of latency.
    ``kind`` says what the step is (``"reduce-scatter"``, ``"up"``, ...); ``src``/``dst`` name the
    endpoints, for display."""

    name: str
    links: tuple[str, ...]
    nbytes: float
    stream: str
    deps: tuple[int, ...] = ()
    alpha: float = 0.0
    kind: str = ""
    src: str = ""
    dst: str = ""


@dataclass
class NetworkRun:
    """The core's schedule of a list of messages on a fabric, and what it means in seconds."""

    fabric: Fabric
    messages: list[Message]
    graph: Graph
    schedule: Schedule
    quantum: float  #: seconds per cycle
    info: dict = field(default_factory=dict)

    @property
    def cycles(self) -> int:
        """From the first message's start to the last delivery, in cycles."""
        return self.schedule.makespan

    @property
    def seconds(self) -> float:
        return self.cycles * self.quantum

    def link_bytes(self) -> dict[str, float]:
        """Bytes carried by each link that carried any."""
        out: Counter = Counter()
        for m in self.messages:
            for link in m.links:
                out[link] += m.nbytes
        return dict(out)

    def link_busy(self) -> dict[str, int]:
        """Cycles each link was reserved."""
        out: Counter = Counter()
        for op in self.graph.ops:
            for r in op.reservations:
                out[r.unit] += r.cycles
        return dict(out)

    def busiest(self, n: int = 5, network_only: bool = False) -> list[tuple[str, int]]:
        """The ``n`` links reserved longest, with their cycles (ties by name)."""
        busy = self.link_busy()
        if network_only:
            busy = {k: v for k, v in busy.items() if self.fabric.links[k].network}
        return sorted(busy.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def busy_at(self, t: int) -> dict[str, str]:
        """Link -> the message holding it in cycle ``t``."""
        out = {}
        for i, op in enumerate(self.graph.ops):
            s = self.schedule.start[i]
            for r in op.reservations:
                if s + r.offset <= t < s + r.offset + r.cycles:
                    out[r.unit] = op.name
        return out

    @property
    def first(self) -> int:
        return min(self.schedule.start, default=1)

    def algbw(self, nbytes: float) -> float:
        """nccl-tests' algorithm bandwidth ``S / t`` (bytes/s) for an operation of size ``S``."""
        return nbytes / self.seconds if self.seconds else math.inf


def link_loads(messages: Sequence[Message], fabric: Fabric | None = None) -> dict[str, float]:
    """Seconds of traffic each link must carry (bytes / bandwidth), without scheduling: the
    lower bound the busiest link sets on any schedule. Without a fabric: bytes."""
    out: Counter = Counter()
    for m in messages:
        for link in m.links:
            out[link] += m.nbytes / (fabric.links[link].bandwidth if fabric else 1.0)
    return dict(out)


def _cycles(seconds: float, quantum: float) -> int:
    return max(0, math.ceil(seconds / quantum - 1e-9))


def default_quantum(fabric: Fabric, messages: Sequence[Message], resolution: int = 4) -> float:
    """A cycle length that makes the quickest message, and the smallest latency α, at least
    ``resolution`` cycles long (a message takes as long as its slowest link): messages of that
    size on links of that speed are then whole numbers of cycles exactly, a faster link on the
    way only rounds up its own part, and no α is rounded up by more than a quarter of itself."""
    times = [
        max(m.nbytes / fabric.links[link].bandwidth for link in m.links)
        for m in messages
        if m.nbytes > 0 and m.links
    ]
    times += [m.alpha for m in messages if m.alpha > 0]
    if not times:
        return 1e-6
    return min(times) / resolution


def schedule_messages(
    fabric: Fabric,
    messages: Sequence[Message],
    quantum: float | None = None,
    name: str = "",
) -> NetworkRun:
    """Build the core graph of ``messages`` on ``fabric``, evaluate every stream's order with
    :func:`lecturekit.core.evaluate`, verify, and return the :class:`NetworkRun`.

    ``quantum`` is the cycle length in seconds (default: :func:`default_quantum`); every link
    time and α is rounded up to whole cycles."""
    messages = list(messages)
    if not messages:
        raise ConfigError(_("network: no messages to schedule"))
    if len(messages) > MAX_MESSAGES:
        raise ConfigError(
            _(
                "network: {n_messages:,} messages is more than the {max_messages:,} "
                "the core is asked to place here; use fewer nodes or GPUs (or "
                "link_loads for the bound)"
            ).format(n_messages=len(messages), max_messages=MAX_MESSAGES)
        )
    for i, m in enumerate(messages):
        if not isinstance(m, Message):
            raise ConfigError(
                _("network: item {i} is a {name}, not a Message").format(i=i, name=type(m).__name__)
            )
        for link in m.links:
            if link not in fabric.links:
                raise ConfigError(
                    _("network: message {name} uses link {link!r}, which the fabric lacks").format(
                        name=m.name, link=link
                    )
                )
    q = (
        default_quantum(fabric, messages)
        if quantum is None
        else validate.number(quantum, "quantum", above=0.0)
    )
    ops, edges = [], []
    length = []
    streams: dict[str, list[int]] = {}
    for i, m in enumerate(messages):
        res = []
        for link in m.links:
            d = max(1, _cycles(m.nbytes / fabric.links[link].bandwidth, q))
            res.append(Reservation(link, 0, d))
        if len(set(m.links)) != len(m.links):
            raise ConfigError(
                _("network: message {name} crosses a link twice: {links}").format(
                    name=m.name, links=m.links
                )
            )
        busy = max((r.cycles for r in res), default=1)
        total = busy + _cycles(m.alpha, q)
        length.append(total)
        ops.append(
            Operation(
                name=m.name,
                text=f"{m.src} → {m.dst}: {m.nbytes:,.0f} B ({m.kind})",
                reservations=tuple(res),
                tail=total - 1,
                kind=m.kind,
                stream=m.stream,
            )
        )
        streams.setdefault(m.stream, []).append(i)
        for j in m.deps:
            if not isinstance(j, int) or not 0 <= j < i:
                raise ConfigError(
                    _("network: message {name} depends on {j!r}, not an earlier message").format(
                        name=m.name, j=j
                    )
                )
    for i, m in enumerate(messages):
        for j in m.deps:
            edges.append(Edge(j, i, length[j], "DATA", messages[j].name))
    units = {name_: 1 for name_ in {link for m in messages for link in m.links}}
    graph = Graph(ops, edges, units=units, issue_width=None, earliest=1, name=name)
    schedule = evaluate(graph, streams, algorithm="network")
    verify(graph, schedule)
    return NetworkRun(fabric, messages, graph, schedule, q, {"streams": len(streams)})
