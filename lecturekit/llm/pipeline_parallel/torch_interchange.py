"""Orders in the notation of PyTorch's ``torch.distributed.pipelining``, read and written.

PyTorch describes a pipeline schedule as one list of *actions* per rank (``pipeline_order``),
and prints each action compactly as stage index + computation type + micro-batch index:

- ``0F0``: forward of micro-batch 0 on stage 0; ``3B2``: full backward (input and weight
  gradients together) of micro-batch 2 on stage 3; ``2I1``: backward for the input only;
  ``0W2``: backward for the weights only (the zero-bubble split: our ``B`` and ``W``);
- ``(0F4;3B1)OVERLAP_F_B``: a forward and a full backward that DualPipeV overlaps;
- communication and bookkeeping actions ``1SEND_F0``, ``2RECV_B3``, ``0UNSHARD``,
  ``0RESHARD``, ``0REDUCE_GRAD``; and ``None`` (printed as an empty cell) for an idle step.

PyTorch's micro-batches are 0-based, lecturekit's 1-based: ``0F0`` is our ``F1`` on stage 0.
Stages may sit on the ranks in a loop (stage ``s`` on rank ``s mod p``) or in a V (rank ``d``
holds stages ``d`` and ``2p - 1 - d``): the reader takes the placement from the order itself
(which rank runs which stage) and builds the graph with it
(:func:`lecturekit.llm.pipeline_parallel.build_pipeline_graph`).

**Mapping to lecturekit's passes.** Only the order of the compute actions matters to the
evaluator: each device runs its list in order, each pass as soon as its inputs have arrived,
which is what PyTorch's runtime does with its blocking receives. So ``None`` steps (PyTorch's
own timing guess for drawing), ``SEND``/``RECV`` (a transfer is an edge latency here,
:class:`~lecturekit.llm.pipeline_parallel.Timing` ``comm``), ``UNSHARD``/``RESHARD`` (FSDP)
and ``REDUCE_GRAD`` (data parallelism) are dropped. ``F`` is ``F``. Without any ``I`` or
``W`` the backward is not split and ``B`` is ``B``; with them it is split, ``I`` is our ``B``,
``W`` our ``W``, and a full ``B`` becomes ``B`` immediately followed by ``W`` on the same device
(same total time; the one difference from PyTorch is that the input gradient leaves after
``T_B`` instead of after ``T_B + T_W``). ``OVERLAP_F_B`` runs its forward, then its backward:
a device here runs one pass at a time, DualPipe overlaps the two to hide communication.

:func:`to_torch` writes a lecturekit order back in the same notation (a ``B`` followed at once
by its ``W`` can be fused into one full ``B``), :func:`format_torch` as text, one rank a line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...errors import ScheduleError
from ...language import _
from .graph import PipelineGraph, Timing, build_pipeline_graph
from .run import PipelineRun, run_order

__all__ = [
    "COMPUTE",
    "IGNORED",
    "TorchAction",
    "format_torch",
    "import_torch",
    "parse_action",
    "parse_torch_order",
    "read_torch_file",
    "to_torch",
]

#: computation types that are passes on a device
COMPUTE = ("F", "I", "W", "B")
#: computation types that are not passes here (dropped on reading)
IGNORED = ("SEND_F", "RECV_F", "SEND_B", "RECV_B", "UNSHARD", "RESHARD", "REDUCE_GRAD")

_ACTION = re.compile(
    r"^(\d+)(F|I|B|W|UNSHARD|RESHARD|REDUCE_GRAD|SEND_F|RECV_F|SEND_B|RECV_B)(\d*)$"
)
_OVERLAP = re.compile(r"^\((.*)\)OVERLAP_F_B$")
_IDLE = ("", "none", "-", ".", "_")


@dataclass(frozen=True)
class TorchAction:
    """One PyTorch action: ``stage``, ``kind`` (``F``, ``I``, ``W``, ``B`` or a communication
    type) and the 0-based ``micro`` (``None`` for ``UNSHARD`` and the like)."""

    stage: int
    kind: str
    micro: int | None = None

    def __str__(self) -> str:
        return f"{self.stage}{self.kind}{'' if self.micro is None else self.micro}"

    @property
    def is_compute(self) -> bool:
        return self.kind in COMPUTE


def parse_action(text, where: str = "") -> list[TorchAction]:
    """The compute and communication actions in one entry: ``[]`` for an idle step (``None``,
    an empty cell), one action for ``2F0``, two for ``(0F4;3B1)OVERLAP_F_B``. Anything with a
    ``__str__`` in this notation works, e.g. PyTorch's own ``_Action``."""
    if text is None:
        return []
    tok = str(text).strip()
    if tok.lower() in _IDLE:
        return []
    ov = _OVERLAP.match(tok)
    if ov:
        out: list[TorchAction] = []
        for part in ov.group(1).split(";"):
            out += parse_action(part, where)
        return out
    mt = _ACTION.match(tok)
    if not mt:
        raise ScheduleError(
            _(
                "{where}{tok!r} is not an action in PyTorch's notation: stage index, "
                "computation type (F, I, W, B, SEND_F, RECV_F, SEND_B, RECV_B, "
                "UNSHARD, RESHARD, REDUCE_GRAD), micro-batch index, e.g. 0F0, 1I3, 2W1"
            ).format(where=where, tok=tok)
        )
    stage, kind, micro = mt.groups()
    if kind in COMPUTE and micro == "":
        raise ScheduleError(
            _("{where}{tok!r}: a {kind} action needs a micro-batch index").format(
                where=where, tok=tok, kind=kind
            )
        )
    return [TorchAction(int(stage), kind, int(micro) if micro else None)]


def _rows(order) -> dict[int, list]:
    """Ranks and their entries from a mapping, a list of rows, or text."""
    if isinstance(order, str):
        return _rows_from_text(order)
    if isinstance(order, Mapping):
        rows = {}
        for r, entries in order.items():
            try:
                rank = int(str(r).replace("rank", "").replace("Rank", "").strip())
            except ValueError:
                raise ScheduleError(_("{r!r} is not a rank number").format(r=r)) from None
            rows[rank] = list(entries) if not isinstance(entries, str) else entries.split()
        return rows
    return {r: (e.split() if isinstance(e, str) else list(e)) for r, e in enumerate(order)}


_RANK_LINE = re.compile(r"^\s*(?:rank\s*)?(\d+)\s*:\s*(.*)$", re.IGNORECASE)


def _rows_from_text(text: str) -> dict[int, list]:
    """One rank a line (``0F0 0F1 ...`` or ``rank 0: 0F0, 0F1, ...``; commas or blanks; a
    CSV as PyTorch's ``_dump_csv`` writes it), or PyTorch's printed grid
    (``_format_pipeline_order``: a ``Rank 0 Rank 1 ...`` header, then ``Step 00: ...`` rows)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if lines and re.match(r"^\s*Rank\s+0\b", lines[0]):
        return _rows_from_grid(lines)
    rows: dict[int, list] = {}
    for n, line in enumerate(lines):
        mt = _RANK_LINE.match(line)
        rank, body = (int(mt.group(1)), mt.group(2)) if mt else (n, line)
        if rank in rows:
            raise ScheduleError(
                _("line {value}: rank {rank} is given twice").format(value=n + 1, rank=rank)
            )
        rows[rank] = [t for t in re.split(r"[,\s]+", body.strip()) if t != ""]
    return rows


def _rows_from_grid(lines: list[str]) -> dict[int, list]:
    header = lines[0]
    starts = [mt.start() for mt in re.finditer(r"Rank\s+\d+", header)]
    rows: dict[int, list] = {r: [] for r in range(len(starts))}
    for n, line in enumerate(lines[1:], 2):
        if not re.match(r"^\s*Step\s+\d+:", line):
            raise ScheduleError(
                _("line {n}: expected 'Step NN: ...' in PyTorch's grid").format(n=n)
            )
        line = line.replace(" <-- ERROR HERE", "")
        for r, a in enumerate(starts):
            b = starts[r + 1] if r + 1 < len(starts) else None
            cell = line[a:b].strip() if len(line) > a else ""
            rows[r].append(cell)
    return rows


def parse_torch_order(order) -> dict[int, list[TorchAction]]:
    """Per rank, its compute actions in order (idle steps and communication dropped)."""
    rows = _rows(order)
    if not rows:
        raise ScheduleError(_("the order is empty: no rank has any action"))
    ranks = sorted(rows)
    if ranks != list(range(len(ranks))):
        raise ScheduleError(
            _("ranks must be 0..{value}, got {ranks}").format(value=len(ranks) - 1, ranks=ranks)
        )
    out = {}
    for r in ranks:
        acts: list[TorchAction] = []
        for col, entry in enumerate(rows[r], 1):
            acts += [
                a
                for a in parse_action(entry, _("rank {r}, entry {col}: ").format(r=r, col=col))
                if a.is_compute
            ]
        out[r] = acts
    return out


def _shape(actions: dict[int, list[TorchAction]]) -> tuple[int, int, int, list[int], bool]:
    p = len(actions)
    owner: dict[int, int] = {}
    micro = -1
    split = False
    for r, acts in actions.items():
        for a in acts:
            if owner.setdefault(a.stage, r) != r:
                raise ScheduleError(
                    _(
                        "stage {stage} appears on rank {owner} and on rank {r}: a stage lives "
                        "on one rank"
                    ).format(stage=a.stage, owner=owner[a.stage], r=r)
                )
            micro = max(micro, a.micro)
            split = split or a.kind in ("I", "W")
    if micro < 0:
        raise ScheduleError(_("the order has no compute action (F, I, W or B)"))
    stages = max(owner) + 1
    missing = [s for s in range(stages) if s not in owner]
    if missing:
        raise ScheduleError(
            _("no rank runs stage(s) {missing} (stages 0..{value})").format(
                missing=missing, value=stages - 1
            )
        )
    if stages % p:
        raise ScheduleError(
            _("{stages} stages on {p} ranks: each rank must hold as many stages").format(
                stages=stages, p=p
            )
        )
    return p, micro + 1, stages // p, [owner[s] for s in range(stages)], split


def import_torch(
    order, timing: Timing | None = None, name: str = "torch", comm: int | None = None
) -> PipelineRun:
    """Evaluate a schedule given in PyTorch's notation on lecturekit's core.

    ``order``: ``{rank: [actions]}`` (strings like ``"0F0"``, ``None``, or PyTorch ``_Action``
    objects, e.g. a schedule's ``pipeline_order``), a list of such rows, or text
    (see :func:`read_torch_file`). ``p``, ``m``, the stages per rank, their placement and
    whether the backward is split come from the order. ``timing`` gives the durations of one
    micro-batch through one rank's share of the model (default ``T_F = T_B = T_W`` = the
    number of stages per rank, so that a chunk's pass is one time unit); ``comm`` overrides
    its communication latency. Raises :class:`~lecturekit.errors.DeadlockError` if the ranks
    would wait on each other forever, :class:`~lecturekit.errors.ScheduleError` for a pass
    missing, repeated or on the wrong rank."""
    actions = parse_torch_order(order)
    p, m, v, placement, split = _shape(actions)
    if timing is None:
        timing = Timing(v, v, v, comm or 0)
    elif comm is not None:
        timing = Timing(timing.forward, timing.backward, timing.weight, comm)
    pg = build_pipeline_graph(p, m, v, timing, split=split, placement=placement)
    keys: dict[int, list] = {}
    for r, acts in actions.items():
        ks = []
        for a in acts:
            k = a.micro + 1
            if a.kind == "F":
                ks.append(("F", k, a.stage))
            elif a.kind == "I":
                ks.append(("B", k, a.stage))
            elif a.kind == "W":
                ks.append(("W", k, a.stage))
            elif split:  # a full backward in a split graph
                ks += [("B", k, a.stage), ("W", k, a.stage)]
            else:
                ks.append(("B", k, a.stage))
        keys[r] = ks
    return run_order(pg, pg.order_from_keys(keys), name)


def to_torch(order, pg: PipelineGraph | None = None, fuse: bool = False) -> dict[int, list[str]]:
    """A lecturekit order in PyTorch's notation: ``{rank: ["0F0", "0F1", ...]}``.

    ``order`` is a :class:`PipelineRun` or ``{device: [(kind, micro, stage), ...]}`` (as
    :mod:`lecturekit.llm.pipeline_parallel.generators` returns; give ``pg`` to tell split from
    unsplit, else a ``W`` anywhere means split). A split graph's ``B`` is written ``I``; with
    ``fuse`` a ``B`` followed at once by the ``W`` of the same pass is written as one full backward
    ``B``."""
    if isinstance(order, PipelineRun):
        pg = order.pg
        keys = {
            d: [(pg.ops[i].kind, pg.ops[i].micro, pg.ops[i].stage) for i in order.device_ops(d)]
            for d in range(pg.p)
        }
        if pg.batch != 1:
            raise ScheduleError(_("naive model parallelism (one op per batch) has no PyTorch form"))
    else:
        keys = {}
        for d, ks in order.items():
            if isinstance(d, str) and d.startswith("device "):
                d = d[len("device ") :]
            keys[int(d)] = [tuple(k) for k in ks]
    if pg is not None and len(pg.placements) > 1:
        raise ScheduleError(
            _(
                "an order with two directions (DualPipe) has no PyTorch form: its notation names a "
                "stage, and here each stage sits on two devices, one per direction"
            )
        )
    split = pg.split if pg is not None else any(k[0] == "W" for ks in keys.values() for k in ks)
    out = {}
    for d in sorted(keys):
        ks = keys[d]
        row = []
        i = 0
        while i < len(ks):
            kind, micro, stage = ks[i]
            if kind not in ("F", "B", "W"):
                raise ScheduleError(
                    _("device {d}: {kind!r} is not a pass (F, B or W)").format(d=d, kind=kind)
                )
            if kind == "B" and split:
                if fuse and i + 1 < len(ks) and tuple(ks[i + 1]) == ("W", micro, stage):
                    row.append(f"{stage}B{micro - 1}")
                    i += 2
                    continue
                kind = "I"
            row.append(f"{stage}{kind}{micro - 1}")
            i += 1
        out[d] = row
    return out


def format_torch(order, pg: PipelineGraph | None = None, fuse: bool = False) -> str:
    """:func:`to_torch` as text, one rank a line: ``rank 0: 0F0 0F1 ...``."""
    return "\n".join(f"rank {d}: {' '.join(row)}" for d, row in to_torch(order, pg, fuse).items())


def read_torch_file(path) -> dict[int, list[TorchAction]]:
    """Read a file of PyTorch actions per rank (see :func:`parse_torch_order` for the forms:
    one rank a line, PyTorch's CSV, or its printed grid)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScheduleError(
            _("{path}: cannot read the order file ({strerror})").format(
                path=path, strerror=e.strerror
            )
        ) from None
    except UnicodeDecodeError:
        raise ScheduleError(_("{path}: not a UTF-8 text file").format(path=path)) from None
    try:
        return parse_torch_order(text)
    except ScheduleError as e:
        raise ScheduleError(f"{path}: {e}") from None
