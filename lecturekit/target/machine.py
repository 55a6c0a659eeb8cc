"""Machine models: the pipeline an instruction flows through, and what each opcode costs.

A machine is a list of stages. Three of them matter to timing:

* the **read stage**, where an instruction reads its register operands. Entering it is
  called *issuing*; an issue cycle is what a schedule assigns. An instruction that cannot issue
  waits in the stage before it (the lecture's table shows it repeated in ``ID``);
* the **execute stage**, where an operation may spend several cycles (a multiply);
* the **write stage**, where results are written to the register file.

Without forwarding, a reader issues at the earliest in the cycle *after* the writer's write stage
(or in the same cycle when ``same_cycle_read``: the register file is written in the first half of
a cycle and read in the second). With forwarding, a result can be used by an instruction entering
the execute stage in the cycle after the producer leaves its *result stage* (the execute stage for
ALU operations, the memory stage for loads).

From these positions every dependence latency follows (see :meth:`Machine.latency`); the presets'
figures are listed in :func:`describe`.

Presets
-------
``lecture``
    The slides' machine: ``ID RR ALU RW``, single issue, in order, no forwarding. RAW 3, WAR 0,
    WAW 1 for one-cycle operations. A multiply spends 3 cycles in ALU, a divide 6; the single ALU
    is not pipelined, so a following instruction waits for it (a structural stall).
``classic5``
    The textbook five-stage pipeline ``IF ID EX MEM WB`` with forwarding: an ALU result is
    forwarded to the next instruction (RAW 1), a load's result only from MEM (RAW 2: the load-use
    stall). The register file is written before it is read in the same cycle.
``dual``
    A two-issue in-order superscalar with ``IF ID EX MEM WB``, forwarding, and separate ALU,
    memory and multiply units (one each); a multiply takes 3 pipelined cycles in EX.
``hp-fp``
    Hennessy & Patterson's MIPS pipeline with FP add, multiply and divide units and the FP
    latencies of their Figure 3.2 (file ``data/machines/hp-fp.toml``, which cites the source).

Two fields express a textbook's table where stage positions do not: ``latency_pairs`` gives
the RAW issue distance on a register for a (producer class, consumer class) pair outright
(other pairs keep the latency the stages give), and ``branch_resolves_in`` names the stage
where a branch needs its operands (``"ID"``: an ALU result reaches a branch one cycle later
than an ALU op).
``delay_slot = true`` gives branches a delay slot (MIPS): the instruction after a branch always
executes, whether or not it is taken.

A custom machine loads from a small TOML or JSON file with :func:`load_machine`; see
``lecturekit/data/machines/example.toml``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import MachineError

OP_CLASSES = ("alu", "mul", "div", "load", "store", "branch", "nop", "fadd", "fmul", "fdiv")


@dataclass(frozen=True)
class OpTiming:
    """How one operation class uses the machine.

    ``unit``: the functional unit it needs in the execute stage. ``execute_cycles``: cycles spent
    in the execute stage. ``pipelined``: whether the unit accepts a new operation every cycle
    (otherwise it is busy for all ``execute_cycles``). ``result_stage``: the stage at whose end the
    result can be forwarded (``None`` = the execute stage).
    """

    unit: str
    execute_cycles: int = 1
    pipelined: bool = True
    result_stage: str | None = None


@dataclass(frozen=True)
class Machine:
    """An in-order pipelined machine (see the module docstring for the timing model)."""

    name: str
    stages: tuple[str, ...]
    read_stage: str
    execute_stage: str
    write_stage: str
    ops: dict[str, OpTiming]
    units: dict[str, int]
    issue_width: int = 1
    forwarding: bool = False
    same_cycle_read: bool = False
    memory_stage: str | None = None
    description: str = ""
    #: RAW issue distance on a register by (producer class, consumer class), overriding what
    #: the stage positions give (a textbook table such as H&P's "FP ALU op -> store double")
    latency_pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    #: the stage in which a branch reads its operands and resolves (``None``: like any other
    #: instruction, in the execute stage); ``"ID"`` on a five-stage pipeline is H&P's
    branch_resolves_in: str | None = None
    #: a branch delay slot: the instruction written right after a branch always executes, so it
    #: stays right after its branch (see :func:`lecturekit.target.deps.analyze`)
    delay_slot: bool = False

    # -- positions -------------------------------------------------------------------------
    def index(self, stage: str) -> int:
        return self.stages.index(stage)

    @property
    def first_issue(self) -> int:
        """The first cycle an instruction can be in the read stage (cycles count from 1)."""
        return self.index(self.read_stage) + 1

    def timing(self, op_class: str) -> OpTiming:
        try:
            return self.ops[op_class]
        except KeyError:
            raise MachineError(
                f"machine {self.name!r} has no timing for operation class {op_class!r}"
            ) from None

    def stage_cycles(self, op_class: str) -> list[tuple[str, int]]:
        """Stages from the read stage on, with the cycles spent in each, for one operation."""
        e = self.timing(op_class).execute_cycles
        r = self.index(self.read_stage)
        return [(s, e if s == self.execute_stage else 1) for s in self.stages[r:]]

    def offset_done(self, op_class: str, stage: str) -> int:
        """Cycles after issue of the *last* cycle the operation spends in ``stage``."""
        total = -1
        for s, n in self.stage_cycles(op_class):
            total += n
            if s == stage:
                return total
        raise MachineError(f"stage {stage!r} is not at or after the read stage of {self.name!r}")

    def tail(self, op_class: str) -> int:
        """Cycles from issue to the cycle it leaves the last stage (finish = issue + tail)."""
        return self.offset_done(op_class, self.stages[-1])

    def write_offset(self, op_class: str) -> int:
        return self.offset_done(op_class, self.write_stage)

    def result_offset(self, op_class: str) -> int:
        stage = self.timing(op_class).result_stage or self.execute_stage
        return self.offset_done(op_class, stage)

    def memory_offset(self, op_class: str) -> int:
        return self.offset_done(op_class, self.memory_stage or self.execute_stage)

    @property
    def execute_delay(self) -> int:
        """Cycles from issue to entering the execute stage."""
        return self.index(self.execute_stage) - self.index(self.read_stage)

    def operand_delay(self, op_class: str) -> int:
        """Cycles from issue to the stage where ``op_class`` needs forwarded operands: the
        execute stage, or for a branch the stage it resolves in (``branch_resolves_in``)."""
        if op_class == "branch" and self.branch_resolves_in is not None:
            return self.index(self.branch_resolves_in) - self.index(self.read_stage)
        return self.execute_delay

    def reservation(self, op_class: str) -> tuple[str, int, int]:
        """(unit, first cycle after issue it is used, cycles it is busy)."""
        t = self.timing(op_class)
        return t.unit, self.execute_delay, (1 if t.pipelined else t.execute_cycles)

    # -- latencies -------------------------------------------------------------------------
    def latency(self, kind: str, producer: str, consumer: str, memory: bool = False) -> int:
        """Minimum issue distance for a dependence of ``kind`` between two operation classes.

        RAW on a register: the consumer reads after the producer writes (or uses the forwarded
        result). WAR: 0 (the reader has read its operand when it issues; in order, the writer
        cannot overtake). WAW: the second write lands after the first. On memory, accesses
        happen in the memory stage in issue order: RAW and WAW 1, WAR 0.
        """
        if kind == "WAR":
            return 0
        if memory:  # RAW or WAW through memory: the second access lands after the first
            return max(0, self.memory_offset(producer) - self.memory_offset(consumer) + 1)
        if kind == "RAW":
            pair = self.latency_pairs.get((producer, consumer))
            if pair is not None:
                return pair
            plain = self.write_offset(producer) + (0 if self.same_cycle_read else 1)
            if self.forwarding:
                forwarded = self.result_offset(producer) + 1 - self.operand_delay(consumer)
                return max(1, min(plain, forwarded))
            return max(1, plain)
        if kind == "WAW":  # 0 when the later write is slower anyway (it may issue alongside)
            return max(0, self.write_offset(producer) - self.write_offset(consumer) + 1)
        raise MachineError(f"unknown dependence kind {kind!r}")

    def with_options(self, **changes) -> Machine:
        """A copy with some fields changed, e.g. ``m.with_options(forwarding=False)``."""
        m = replace(self, **changes)
        validate(m)
        return m


def describe(machine: Machine) -> str:
    """A short text: stages, width, units, and the latency table for the common classes."""
    lines = [
        f"machine {machine.name}: {' '.join(machine.stages)}; issue width {machine.issue_width}; "
        f"forwarding {'on' if machine.forwarding else 'off'}",
        "units: " + ", ".join(f"{u}×{n}" for u, n in machine.units.items()),
    ]
    for cls in ("alu", "mul", "div", "load"):
        t = machine.ops.get(cls)
        if t is None:
            continue
        lines.append(
            f"  {cls:<5} unit {t.unit:<4} execute {t.execute_cycles} cycle(s)"
            f"{'' if t.pipelined or t.execute_cycles == 1 else ' (not pipelined)'}; "
            f"RAW to alu {machine.latency('RAW', cls, 'alu')}, WAW after alu "
            f"{machine.latency('WAW', cls, 'alu')}"
        )
    if machine.latency_pairs:
        lines.append(
            "RAW by producer -> consumer: "
            + ", ".join(f"{p} -> {c} {n}" for (p, c), n in machine.latency_pairs.items())
        )
    if machine.branch_resolves_in or machine.delay_slot:
        lines.append(
            f"branches resolve in {machine.branch_resolves_in or machine.execute_stage}"
            + ("; one delay slot" if machine.delay_slot else "")
        )
    return "\n".join(lines)


def _all_ops(unit_of: dict[str, str], cycles: dict[str, int], **extra) -> dict[str, OpTiming]:
    ops = {}
    for cls in OP_CLASSES:
        ops[cls] = OpTiming(
            unit=unit_of.get(cls, unit_of["alu"]), execute_cycles=cycles.get(cls, 1)
        )
    for cls, kw in extra.items():
        ops[cls] = replace(ops[cls], **kw)
    return ops


def _lecture() -> Machine:
    ops = _all_ops({"alu": "alu"}, {"mul": 3, "div": 6})
    ops = {k: replace(v, pipelined=False) for k, v in ops.items()}
    return Machine(
        name="lecture",
        stages=("ID", "RR", "ALU", "RW"),
        read_stage="RR",
        execute_stage="ALU",
        write_stage="RW",
        ops=ops,
        units={"alu": 1},
        issue_width=1,
        forwarding=False,
        description="the slides' machine: ID RR ALU RW, single issue, in order, no forwarding",
    )


def _classic5() -> Machine:
    ops = _all_ops({"alu": "alu"}, {"mul": 3, "div": 8})
    ops = {k: replace(v, pipelined=False) for k, v in ops.items()}
    ops["load"] = replace(ops["load"], result_stage="MEM")
    return Machine(
        name="classic5",
        stages=("IF", "ID", "EX", "MEM", "WB"),
        read_stage="ID",
        execute_stage="EX",
        write_stage="WB",
        memory_stage="MEM",
        ops=ops,
        units={"alu": 1},
        issue_width=1,
        forwarding=True,
        same_cycle_read=True,
        description="five-stage IF ID EX MEM WB with forwarding and a load-use stall",
    )


def _dual() -> Machine:
    ops = _all_ops(
        {"alu": "alu", "mul": "mul", "div": "mul", "load": "mem", "store": "mem"},
        {"mul": 3, "div": 8},
    )
    ops["div"] = replace(ops["div"], pipelined=False)
    ops["load"] = replace(ops["load"], result_stage="MEM")
    return Machine(
        name="dual",
        stages=("IF", "ID", "EX", "MEM", "WB"),
        read_stage="ID",
        execute_stage="EX",
        write_stage="WB",
        memory_stage="MEM",
        ops=ops,
        units={"alu": 1, "mem": 1, "mul": 1},
        issue_width=2,
        forwarding=True,
        same_cycle_read=True,
        description="two-issue in-order superscalar: ALU, memory and multiply units, "
        "3-cycle pipelined multiply",
    )


def _data_preset(name: str):
    """A preset kept as a file in lecturekit/data/machines (the real cores cite their sources
    there: rocket-rv64, sifive-7-rv64 from LLVM's scheduling models)."""

    def make() -> Machine:
        return load_machine(
            Path(__file__).resolve().parent.parent / "data" / "machines" / f"{name}.toml"
        )

    return make


PRESETS = {
    "lecture": _lecture,
    "classic5": _classic5,
    "dual": _dual,
    "rocket-rv64": _data_preset("rocket-rv64"),
    "sifive-7-rv64": _data_preset("sifive-7-rv64"),
    "hp-fp": _data_preset("hp-fp"),
}


def preset(name: str) -> Machine:
    """A preset machine by name (``lecture``, ``classic5``, ``dual``; the real cores
    ``rocket-rv64`` and ``sifive-7-rv64`` from LLVM's scheduling models; ``hp-fp``,
    Hennessy & Patterson's pipeline with FP units and their latency table)."""
    try:
        return PRESETS[name]()
    except KeyError:
        raise MachineError(
            f"unknown machine {name!r}; presets are {', '.join(PRESETS)} "
            "(or give a .toml/.json file)"
        ) from None


def get_machine(spec: str | Machine | None) -> Machine:
    """A machine from a preset name, a file path, or a Machine (``None`` = ``lecture``)."""
    if spec is None:
        return preset("lecture")
    if isinstance(spec, Machine):
        return spec
    if not isinstance(spec, str):
        raise MachineError(f"expected a machine name or file path, got {type(spec).__name__}")
    if spec in PRESETS:
        return preset(spec)
    if "\x00" in spec or len(spec) > 4096:
        raise MachineError(f"not a machine name or file path: {spec[:60]!r}")
    if spec.endswith((".toml", ".json")) or "/" in spec or Path(spec).exists():
        return load_machine(spec)
    return preset(spec)


_TOP_KEYS = {
    "name": str,
    "description": str,
    "stages": list,
    "read_stage": str,
    "execute_stage": str,
    "write_stage": str,
    "memory_stage": str,
    "forwarding": bool,
    "same_cycle_read": bool,
    "issue_width": int,
    "units": dict,
    "ops": dict,
    "base": str,
    "latency_pairs": list,
    "branch_resolves_in": str,
    "delay_slot": bool,
}
_PAIR_KEYS = {"producer": str, "consumer": str, "latency": int}
_OP_KEYS = {"unit": str, "execute_cycles": int, "pipelined": bool, "result_stage": str}


#: sane maxima for a machine description: beyond these, tools would run for minutes
MAX_FILE_BYTES = 1 * 2**20
MAX_NESTING = 32
MAX_STAGES = 64
MAX_ISSUE_WIDTH = 64
MAX_UNITS = 64  # of one kind
MAX_EXECUTE_CYCLES = 1000
MAX_LATENCY = 1000  # a latency_pairs entry


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise ValueError(f"integer too long ({len(text)} digits)")
    return int(text)


def _nesting(text: str) -> int:
    """An upper bound on bracket nesting (strings included; enough to refuse deep files)."""
    depth = deepest = 0
    for c in text:
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def load_machine(path: str | Path) -> Machine:
    """Load a machine from a TOML or JSON file; every problem names the file and the field."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise MachineError(f"cannot read machine file {str(path)!r}: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise MachineError(f"{path}: machine file too large (more than {MAX_FILE_BYTES:,} bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MachineError(
            f"{path}: not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start})"
        ) from None
    if _nesting(text) > MAX_NESTING:
        raise MachineError(f"{path}: nested more than {MAX_NESTING} levels deep")
    if path.suffix == ".json":
        try:
            data = json.loads(text, parse_int=_bounded_int)
        except json.JSONDecodeError as exc:
            raise MachineError(
                f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        except (ValueError, RecursionError) as exc:
            raise MachineError(f"{path}: invalid JSON: {exc}") from None
    else:
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise MachineError(f"{path}: invalid TOML: {exc}") from None
        except (ValueError, RecursionError) as exc:
            raise MachineError(f"{path}: invalid TOML: {exc}") from None
    return machine_from_dict(data, source=str(path))


def machine_from_dict(data: dict, source: str = "machine") -> Machine:
    """Build and validate a machine from plain data (the parsed file).

    A ``base`` key starts from a preset and overrides only what the file gives.
    """
    if not isinstance(data, dict):
        raise MachineError(f"{source}: expected a table of machine fields")
    for key, value in data.items():
        if key not in _TOP_KEYS:
            raise MachineError(
                f"{source}: unknown field {key!r}; known fields: {', '.join(sorted(_TOP_KEYS))}"
            )
        want = _TOP_KEYS[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise MachineError(f"{source}: field {key!r} must be a {want.__name__}")
    base = None
    if "base" in data:
        if data["base"] not in PRESETS:
            raise MachineError(
                f"{source}: field 'base': {data['base'][:60]!r} is not a preset; base names one "
                f"of {', '.join(PRESETS)} (not a file)"
            )
        base = preset(data["base"])
    fields: dict = {} if base is None else dict(base.__dict__)
    fields.update(
        {
            k: v
            for k, v in data.items()
            if k not in ("base", "ops", "units", "stages", "latency_pairs")
        }
    )
    if "latency_pairs" in data:
        fields["latency_pairs"] = {
            **fields.get("latency_pairs", {}),
            **_latency_pairs(data["latency_pairs"], source),
        }
    if "stages" in data:
        if not all(isinstance(s, str) and s for s in data["stages"]):
            raise MachineError(f"{source}: 'stages' must be a list of stage names")
        fields["stages"] = tuple(data["stages"])
    if "units" in data:
        fields["units"] = dict(data["units"])
    ops = dict(fields.get("ops", {}))
    for cls, spec in data.get("ops", {}).items():
        where = f"{source}: ops.{cls}"
        if cls not in OP_CLASSES:
            raise MachineError(
                f"{where}: unknown operation class; classes: {', '.join(OP_CLASSES)}"
            )
        if not isinstance(spec, dict):
            raise MachineError(f"{where}: expected a table with unit, execute_cycles, ...")
        for k, v in spec.items():
            if k not in _OP_KEYS:
                raise MachineError(f"{where}: unknown field {k!r}; known: {', '.join(_OP_KEYS)}")
            want = _OP_KEYS[k]
            if not isinstance(v, want) or (want is int and isinstance(v, bool)):
                raise MachineError(f"{where}.{k}: must be a {want.__name__}")
        if cls in ops:
            ops[cls] = replace(ops[cls], **spec)
        else:
            if "unit" not in spec:
                raise MachineError(f"{where}: 'unit' is required")
            ops[cls] = OpTiming(**spec)
    if "alu" in ops:  # classes not given behave like alu
        for cls in OP_CLASSES:
            ops.setdefault(cls, ops["alu"])
    fields["ops"] = ops
    missing = [
        k
        for k in ("name", "stages", "read_stage", "execute_stage", "write_stage")
        if k not in fields
    ]
    if missing:
        raise MachineError(f"{source}: missing field(s) {', '.join(missing)}")
    if "ops" not in data and base is None:
        raise MachineError(f"{source}: missing table 'ops' (at least ops.alu with a unit)")
    fields.setdefault("units", {})
    m = Machine(**fields)
    validate(m, source)
    return m


def _latency_pairs(entries: list, source: str) -> dict[tuple[str, str], int]:
    """``latency_pairs = [{producer = "fadd", consumer = "store", latency = 3}, ...]``."""
    pairs: dict[tuple[str, str], int] = {}
    if len(entries) > len(OP_CLASSES) ** 2:
        raise MachineError(
            f"{source}: latency_pairs: at most {len(OP_CLASSES) ** 2} entries (one per pair "
            f"of operation classes), got {len(entries)}"
        )
    for i, entry in enumerate(entries):
        where = f"{source}: latency_pairs[{i}]"
        if not isinstance(entry, dict):
            raise MachineError(f"{where}: expected a table with producer, consumer, latency")
        for k, v in entry.items():
            if k not in _PAIR_KEYS:
                raise MachineError(f"{where}: unknown field {k!r}; known: {', '.join(_PAIR_KEYS)}")
            want = _PAIR_KEYS[k]
            if not isinstance(v, want) or (want is int and isinstance(v, bool)):
                raise MachineError(f"{where}.{k}: must be a {want.__name__}")
        missing = [k for k in _PAIR_KEYS if k not in entry]
        if missing:
            raise MachineError(f"{where}: missing field(s) {', '.join(missing)}")
        for k in ("producer", "consumer"):
            if entry[k] not in OP_CLASSES:
                raise MachineError(
                    f"{where}.{k}: unknown operation class {entry[k][:40]!r}; classes: "
                    f"{', '.join(OP_CLASSES)}"
                )
        key = (entry["producer"], entry["consumer"])
        if key in pairs:
            raise MachineError(f"{where}: the pair {key[0]} -> {key[1]} is given twice")
        pairs[key] = entry["latency"]
    return pairs


def validate(m: Machine, source: str | None = None) -> None:
    """Check a machine's consistency; raise MachineError naming the field."""
    where = source or f"machine {m.name!r}"
    if len(set(m.stages)) != len(m.stages) or not m.stages:
        raise MachineError(f"{where}: 'stages' must be a non-empty list of distinct names")
    for key in ("read_stage", "execute_stage", "write_stage", "memory_stage"):
        stage = getattr(m, key)
        if stage is not None and stage not in m.stages:
            raise MachineError(
                f"{where}: {key} {stage!r} is not one of the stages {list(m.stages)}"
            )
    r, x, w = m.index(m.read_stage), m.index(m.execute_stage), m.index(m.write_stage)
    if not r <= x <= w:
        raise MachineError(
            f"{where}: stages must come in the order read ({m.read_stage}) <= execute "
            f"({m.execute_stage}) <= write ({m.write_stage})"
        )
    if m.memory_stage is not None and m.index(m.memory_stage) < x:
        raise MachineError(f"{where}: memory_stage must not come before the execute stage")
    if len(m.stages) > MAX_STAGES:
        raise MachineError(f"{where}: at most {MAX_STAGES} stages, got {len(m.stages)}")
    if not isinstance(m.issue_width, int) or isinstance(m.issue_width, bool):
        raise MachineError(f"{where}: issue_width must be an integer, got {m.issue_width!r}")
    if m.issue_width < 1:
        raise MachineError(f"{where}: issue_width must be at least 1, got {m.issue_width}")
    if m.issue_width > MAX_ISSUE_WIDTH:
        raise MachineError(
            f"{where}: issue_width must be at most {MAX_ISSUE_WIDTH}, got {m.issue_width}"
        )
    for unit, count in m.units.items():
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_UNITS:
            raise MachineError(
                f"{where}: units.{unit} must be an integer between 1 and {MAX_UNITS}, got {count!r}"
            )
    if "alu" not in m.ops:
        raise MachineError(f"{where}: ops.alu is required")
    if not isinstance(m.latency_pairs, dict) or not all(
        isinstance(k, tuple) and len(k) == 2 for k in m.latency_pairs
    ):
        raise MachineError(
            f"{where}: latency_pairs must map (producer, consumer) class pairs to latencies"
        )
    for (prod, cons), lat in m.latency_pairs.items():
        if prod not in OP_CLASSES or cons not in OP_CLASSES:
            raise MachineError(f"{where}: latency_pairs: unknown class in {prod!r} -> {cons!r}")
        if not isinstance(lat, int) or isinstance(lat, bool) or not 1 <= lat <= MAX_LATENCY:
            raise MachineError(
                f"{where}: latency_pairs {prod} -> {cons}: latency must be a whole number of "
                f"cycles from 1 to {MAX_LATENCY} (the issue distance), got {lat!r}"
            )
    if not isinstance(m.delay_slot, bool):
        raise MachineError(f"{where}: delay_slot must be true or false, got {m.delay_slot!r}")
    if m.branch_resolves_in is not None:
        if m.branch_resolves_in not in m.stages:
            raise MachineError(
                f"{where}: branch_resolves_in {m.branch_resolves_in!r} is not one of the "
                f"stages {list(m.stages)}"
            )
        if not r <= m.index(m.branch_resolves_in) <= x:
            raise MachineError(
                f"{where}: branch_resolves_in must lie between the read stage "
                f"({m.read_stage}) and the execute stage ({m.execute_stage})"
            )
    for cls, t in m.ops.items():
        if t.unit not in m.units:
            raise MachineError(
                f"{where}: ops.{cls} uses unit {t.unit!r}, which is not in units {list(m.units)}"
            )
        if (
            not isinstance(t.execute_cycles, int)
            or isinstance(t.execute_cycles, bool)
            or not 1 <= t.execute_cycles <= MAX_EXECUTE_CYCLES
        ):
            raise MachineError(
                f"{where}: ops.{cls}.execute_cycles must be at least 1 and at most "
                f"{MAX_EXECUTE_CYCLES} (a whole number), got {t.execute_cycles!r}"
            )
        if t.result_stage is not None:
            if t.result_stage not in m.stages:
                raise MachineError(
                    f"{where}: ops.{cls}.result_stage {t.result_stage!r} is no stage"
                )
            if not x <= m.index(t.result_stage) <= w:
                raise MachineError(
                    f"{where}: ops.{cls}.result_stage must lie between execute and write stages"
                )


__all__ = [
    "Machine",
    "OpTiming",
    "PRESETS",
    "describe",
    "get_machine",
    "load_machine",
    "machine_from_dict",
    "preset",
    "validate",
]
