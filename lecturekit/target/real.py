"""Real compilers and real processors: clang, GCC and llvm-mca next to the lecture's model.

* :func:`compile_c` compiles C to RISC-V assembly with clang (``-O2``, scheduler on or off,
  unrolling on or off) for a target with a C library when one is installed
  (:func:`riscv_target`: ``riscv64-linux-gnu`` with Debian's cross sysroot, so ``<math.h>``
  works); :func:`compile_gcc` does the same with GCC's ``-fschedule-insns`` /
  ``-fschedule-insns2``; :func:`function_body`, :func:`loop_body` and :func:`loops` (from
  :mod:`lecturekit.target.assembly`) cut a function or its loops out of the assembly, ready for
  :func:`lecturekit.asm.parse`.
* :func:`run_mca` runs ``llvm-mca`` (``--json``, timeline) on a block and returns its cycles and
  each instruction's dispatch / issue / executed / retired cycles, and for several iterations
  where each iteration starts and ends.
* :func:`compare` puts llvm-mca's timeline on a real core next to lecturekit's simulation of the
  same block on the matching preset (``rocket-rv64``, ``sifive-7-rv64``), under the lecture's
  issue rules or llvm-mca's (``rules=``), and names the cause of every difference
  (:data:`MODEL_DIFFERENCES`); :func:`compare_iterations` does it for many iterations and says
  whether either tool overlaps them.

llvm-mca counts cycles from 0; lecturekit from 1. Everything here is shown in lecturekit's
counting: an instruction llvm-mca dispatches in its cycle 0 issues in cycle 1, and llvm-mca's
"Total Cycles" is lecturekit's ``cycles`` (the cycle in which the last result is ready).

When clang or llvm-mca is missing, :class:`ToolMissingError` says exactly what to install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LectureKitError
from ..language import N_, _, ljust
from .assembly import function_body, functions, instructions_only, loop_body, loops

INSTALL_HELP = N_(
    "install LLVM and clang: Debian/Ubuntu `apt-get install clang-14 llvm-14` (or the `clang` and "
    "`llvm` packages), macOS `brew install llvm` (then put $(brew --prefix llvm)/bin on PATH), "
    "conda `conda install -c conda-forge clang llvm-tools`"
)
GCC_HELP = N_(
    "install a RISC-V GCC: Debian/Ubuntu `apt-get install gcc-riscv64-linux-gnu`, macOS "
    "`brew install riscv64-elf-gcc`, conda `conda install -c conda-forge gcc_linux-64` has no "
    "RISC-V target (use the Debian package or a riscv-gnu-toolchain build)"
)

#: which lecturekit preset times the same core as an llvm-mca -mcpu name
CPU_PRESETS = {
    "rocket-rv64": "rocket-rv64",
    "rocket": "rocket-rv64",
    "sifive-u54": "rocket-rv64",  # LLVM 14 schedules the U54 with the Rocket model
    "sifive-s51": "rocket-rv64",
    "sifive-7-rv64": "sifive-7-rv64",
    "sifive-u74": "sifive-7-rv64",
    "sifive-s76": "sifive-7-rv64",
    "sifive-e76": "sifive-7-rv64",
}
#: -mattr for llvm-mca on rv64gc code (without +m llvm-mca refuses mul, without +d fld ...)
RV64GC_ATTR = "+m,+a,+f,+d,+c"

#: the kinds of difference between lecturekit's model and LLVM's, with why they differ
MODEL_DIFFERENCES = {  # the kinds are marked for the catalog too: shown as _(kind)
    N_("write-back order"): (
        N_(
            "LLVM's in-order model writes results back in program order: an instruction whose "
            "result would be ready before an older, slower one's waits until it is not "
            "(llvm-mca's InOrderIssueStage, unless a write sets RetireOOO). The lecture's "
            "pipeline lets a short operation finish under a long one (an add under a multiply) "
            "and only keeps two writes of the same register in order. lecturekit has the rule "
            'too: issue_rules = "llvm-mca".'
        )
    ),
    "WAW": (  # i18n: as is
        N_(
            "Two writes of the same register: lecturekit makes the second land strictly after "
            "the first (a cycle later); LLVM only keeps write-back in order, so both may land in "
            "the same cycle (the younger one wins)."
        )
    ),
    N_("latency"): (
        N_(
            "An opcode whose latency in lecturekit differs from llvm-mca's. The presets take "
            "every opcode's latency from LLVM 14 (tools/llvm_presets.py), so only what they "
            "leave out differs: an opcode llvm-mca cannot time, or a machine file of one's own."
        )
    ),
    N_("pipes"): (
        N_(
            "On the U74 an ALU op may run on pipe A or pipe B, memory ops need A, multiply, "
            "branches and FP need B, and a divide holds B for as long as the divider. lecturekit "
            "counts the pipes: ops share a cycle when some choice of pipes lets them. llvm-mca "
            "chooses a pipe for each ALU op as it issues it (B first when both are free), so an "
            "op that needs B may find it taken by the ALU op just before it."
        )
    ),
    N_("memory order"): (
        N_(
            "lecturekit's pipeline completes memory accesses that may touch the same bytes in "
            "program order (a store waits until an older load of those bytes is done, a load "
            "until an older store is); llvm-mca assumes by default that loads and stores do not "
            "alias (-noalias) and orders nothing."
        )
    ),
    N_("other"): N_("a difference none of the above explains (please report it with the block)"),
}


class ToolMissingError(LectureKitError):
    """clang, llvm-mca or a RISC-V GCC is not installed (the message says how to install it)."""


class ToolFailedError(LectureKitError):
    """An external tool (clang, gcc, llvm-mca) rejected its input; its own message is kept
    (in the message, and as it printed it in ``stderr``)."""

    def __init__(self, message: str, stderr: str = ""):
        super().__init__(message)
        self.stderr = stderr


_TOOL_NAMES = {
    "clang": ("clang-14", "clang", "clang-15", "clang-16", "clang-17", "clang-18"),
    "llvm-mca": ("llvm-mca-14", "llvm-mca", "llvm-mca-15", "llvm-mca-16", "llvm-mca-17"),
    "gcc-riscv": ("riscv64-linux-gnu-gcc", "riscv64-unknown-elf-gcc", "riscv64-elf-gcc"),
}


def find_tool(kind: str) -> str:
    """Path of ``clang``, ``llvm-mca`` or ``gcc-riscv`` (a RISC-V GCC); ToolMissingError if none.

    ``LECTUREKIT_CLANG`` / ``LECTUREKIT_LLVM_MCA`` / ``LECTUREKIT_GCC_RISCV`` override the search.
    """
    if kind not in _TOOL_NAMES:
        raise LectureKitError(
            _("unknown tool {kind!r}; tools: {join}").format(kind=kind, join=", ".join(_TOOL_NAMES))
        )
    env = os.environ.get("LECTUREKIT_" + kind.upper().replace("-", "_"))
    if env:
        if shutil.which(env):
            return shutil.which(env)
        raise ToolMissingError(
            _("{kind}: {env!r} (from the environment) is not an executable").format(
                kind=kind, env=env
            )
        )
    for name in _TOOL_NAMES[kind]:
        path = shutil.which(name)
        if path:
            return path
    help_text = GCC_HELP if kind == "gcc-riscv" else INSTALL_HELP
    raise ToolMissingError(
        _("{kind} not found (looked for {names}); {help_text}").format(
            kind=kind, names=", ".join(_TOOL_NAMES[kind]), help_text=_(help_text)
        )
    )


def have(*kinds: str) -> bool:
    """Whether every tool named is installed."""
    try:
        for kind in kinds:
            find_tool(kind)
    except ToolMissingError:
        return False
    return True


#: the tools' text is UTF-8 (a C comment in Chinese), whatever the system's code page (Windows)
_UTF8 = {"encoding": "utf-8", "errors": "replace"}


def _run(cmd: list[str], what: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, input=stdin, capture_output=True, timeout=120, **_UTF8)
    except subprocess.TimeoutExpired:
        raise ToolFailedError(
            _("{what} did not finish within 120 s: {command}").format(
                what=what, command=" ".join(cmd)
            )
        ) from None
    except OSError as exc:
        raise ToolMissingError(
            _("cannot run {cmd}: {reason}; {install_help}").format(
                cmd=cmd[0], reason=exc.strerror, install_help=_(INSTALL_HELP)
            )
        ) from None
    if proc.returncode != 0:
        msg = proc.stderr.strip().splitlines()
        raise ToolFailedError(
            _("{what} failed: {details}").format(
                what=what, details=" | ".join(msg[:6]) or f"exit {proc.returncode}"
            ),
            proc.stderr,
        )
    return proc


# -- compiling ------------------------------------------------------------------------------


@dataclass
class Compiled:
    """Assembly from one compiler run, with the exact command and the target it used (and
    whether that target has C library headers)."""

    asm: str
    command: list[str]
    schedule: bool
    unroll: bool
    target: str = ""

    def function(self, name: str | None = None) -> str:
        return function_body(self.asm, name)

    def loop(self, function: str | None = None) -> str:
        return loop_body(self.asm, function)


def _source_file(source: str | Path, tmp: str) -> str:
    if isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and source.endswith(".c")
    ):
        path = Path(source)
        if not path.is_file():
            raise LectureKitError(_("C file {path!r} does not exist").format(path=str(path)))
        return str(path)
    if not isinstance(source, str):
        raise LectureKitError(
            _("expected C source text or a .c path, got {name}").format(name=type(source).__name__)
        )
    path = Path(tmp) / "input.c"
    path.write_text(source, encoding="utf-8")
    return str(path)


#: RISC-V targets clang can compile for, best first: one with a C library (headers such as
#: <math.h>), as Debian's gcc-riscv64-linux-gnu installs it, then the bare-metal one
RISCV_TRIPLES = ("riscv64-linux-gnu", "riscv64-unknown-linux-gnu", "riscv64-unknown-elf")
_TARGETS: dict[str, tuple[str, str]] = {}


def riscv_target(clang: str | None = None) -> tuple[str, str]:
    """The triple :func:`compile_c` uses for RISC-V and a sentence saying why: the first of
    :data:`RISCV_TRIPLES` for which clang finds ``<math.h>`` (a C library with a sysroot is
    installed), else ``riscv64-unknown-elf`` (bare metal: only freestanding headers)."""
    clang = clang or find_tool("clang")
    if clang not in _TARGETS:
        probe = "#include <math.h>\ndouble f(double x) { return sqrt(x); }\n"  # i18n: not shown
        found = None
        for triple in RISCV_TRIPLES[:-1]:
            cmd = [clang, f"--target={triple}", "-march=rv64gc", "-fsyntax-only", "-x", "c", "-"]
            try:
                ok = subprocess.run(cmd, input=probe, capture_output=True, timeout=60, **_UTF8)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if ok.returncode == 0:
                found = triple
                break
        if found:
            why = _(
                "target {found}: a RISC-V C library is installed, so <math.h> and libc work"
            ).format(found=found)
        else:
            found = RISCV_TRIPLES[-1]
            why = _(
                "target {found} (bare metal): no RISC-V C library found, so <math.h>, "
                "<stdio.h>, ... are missing; install one with `apt-get install "
                "gcc-riscv64-linux-gnu` (Debian/Ubuntu)"
            ).format(found=found)
        _TARGETS[clang] = (found, why)
    return _TARGETS[clang]


def clang_command(
    schedule: bool = True,
    unroll: bool = True,
    cpu: str = "sifive-u74",
    opt: str = "-O2",
    target: str = "riscv64",
    triple: str = "riscv64-unknown-elf",
) -> list[str]:
    """The clang flags :func:`compile_c` uses (without the input and output); ``triple`` is the
    RISC-V target (:func:`riscv_target` picks it)."""
    if target == "riscv64":
        cmd = [f"--target={triple}", "-march=rv64gc", f"-mcpu={cpu}", opt, "-S"]
    elif target == "x86_64":  # scalar code, so the loop is the lecture's loop, not SIMD
        cmd = ["--target=x86_64-linux-gnu", f"-march={cpu}", opt, "-S", "-fno-vectorize"]
        cmd += ["-fno-slp-vectorize", "-fno-asynchronous-unwind-tables"]
    else:
        raise LectureKitError(
            _("target must be riscv64 or x86_64, got {target!r}").format(target=target)
        )
    cmd.append("-funroll-loops" if unroll else "-fno-unroll-loops")
    if not schedule:  # both machine schedulers off: before and after register allocation
        cmd += ["-mllvm", "-enable-misched=false", "-mllvm", "-enable-post-misched=false"]
    return cmd


def compile_c(
    source: str | Path,
    schedule: bool = True,
    unroll: bool = True,
    cpu: str = "sifive-u74",
    opt: str = "-O2",
    target: str = "riscv64",
) -> Compiled:
    """Compile C (text, or a path ending in .c) for RV64GC with clang and return the assembly.

    ``cpu`` is the core clang tunes and schedules for (``sifive-u74``: LLVM's SiFive7 model;
    ``rocket-rv64``; ``generic-rv64`` has no scheduling model). ``schedule=False`` turns off
    both machine schedulers, ``unroll=False`` passes ``-fno-unroll-loops``. ``target="x86_64"``
    (with e.g. ``cpu="skylake"``) compiles scalar x86-64 code for llvm-mca's out-of-order models.
    The RISC-V target is the one :func:`riscv_target` finds (with a C library when one is
    installed); ``Compiled.target`` says which.
    """
    if opt not in ("-O0", "-O1", "-O2", "-O3", "-Os"):
        raise LectureKitError(
            _("opt must be one of -O0 -O1 -O2 -O3 -Os, got {opt!r}").format(opt=opt)
        )
    clang = find_tool("clang")
    triple, why = (
        riscv_target(clang)
        if target == "riscv64"
        else ("", _("target {target}").format(target=target))
    )
    with tempfile.TemporaryDirectory() as tmp:
        src = _source_file(source, tmp)
        flags = clang_command(schedule, unroll, cpu, opt, target, triple or "riscv64-unknown-elf")
        proc = _run([clang, *flags, src, "-o", "-"], "clang")
    shown = ["clang", *flags, Path(src).name]
    return Compiled(proc.stdout, shown, schedule, unroll, why)


def compile_gcc(
    source: str | Path, schedule: bool | str = True, unroll: bool = False, opt: str = "-O2"
) -> Compiled:
    """Compile C for RV64GC with GCC. ``schedule``: ``True`` both schedulers
    (``-fschedule-insns``, before register allocation, and ``-fschedule-insns2``, after),
    ``False`` neither, ``"before"`` or ``"after"`` only that one. ``-mtune=sifive-7-series``
    gives GCC the U74's pipeline description."""
    choices = {
        True: ("-fschedule-insns", "-fschedule-insns2"),
        False: ("-fno-schedule-insns", "-fno-schedule-insns2"),
        "before": ("-fschedule-insns", "-fno-schedule-insns2"),
        "after": ("-fno-schedule-insns", "-fschedule-insns2"),
    }
    if schedule not in choices or (isinstance(schedule, int) and not isinstance(schedule, bool)):
        raise LectureKitError(
            _("schedule must be True, False, 'before' or 'after', got {schedule!r}").format(
                schedule=schedule
            )
        )
    gcc = find_tool("gcc-riscv")
    flags = ["-march=rv64gc", "-mabi=lp64d", "-mtune=sifive-7-series", opt, "-S"]
    flags += list(choices[schedule])
    flags += ["-funroll-loops"] if unroll else []
    flags += ["-fno-asynchronous-unwind-tables", "-fno-ident"]
    with tempfile.TemporaryDirectory() as tmp:
        src = _source_file(source, tmp)
        proc = _run([gcc, *flags, src, "-o", "-"], "gcc")
    shown = [Path(gcc).name, *flags, Path(src).name]
    return Compiled(
        proc.stdout,
        shown,
        schedule,
        unroll,
        _("{name} (its own sysroot)").format(name=Path(gcc).name),
    )


# -- cutting blocks out of assembly: lecturekit.target.assembly --------------------------------

# -- llvm-mca --------------------------------------------------------------------------------


@dataclass
class McaResult:
    """What llvm-mca said about a block (its 0-based cycles): the first iteration's timeline,
    and for several iterations where each of the first ones starts and ends (``spans``: [first
    dispatch, last executed] per iteration, up to :data:`TIMELINE_ITERATIONS`)."""

    cpu: str
    cycles: int
    instructions: list[str]
    latency: list[int]
    dispatch: list[int]
    issue: list[int]
    executed: list[int]
    retired: list[int]
    dispatch_width: int
    command: list[str] = field(default_factory=list)
    iterations: int = 1
    spans: list[list[int]] = field(default_factory=list)
    #: llvm-mca's "Block RThroughput": the fewest cycles per iteration the resources allow
    rthroughput: float = 0.0
    #: cycles per iteration each resource is busy (its "Resource pressure per iteration")
    pressure: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, data: dict) -> McaResult:
        return cls(**data)


#: how many iterations' timelines llvm-mca is asked for (enough to see whether they overlap)
TIMELINE_ITERATIONS = 10


def mca_command(cpu: str, triple: str = "riscv64", iterations: int = 1) -> list[str]:
    shown = min(iterations, TIMELINE_ITERATIONS)
    cmd = [f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={iterations}", "-timeline"]
    cmd += ["-timeline-max-cycles=0", f"-timeline-max-iterations={shown}"]
    if triple.startswith("riscv"):
        cmd.append(f"-mattr={RV64GC_ATTR}")
    return cmd + ["--json"]


def parse_mca_json(text: str, cpu: str = "?") -> McaResult:
    """Read llvm-mca's ``--json`` output (LLVM 14 layout: CodeRegions[0] with SummaryView,
    InstructionInfoView, TimelineView)."""
    try:
        data = json.loads(text)
        region = data["CodeRegions"][0]
        summary = region["SummaryView"]
        info = region["InstructionInfoView"]["InstructionList"]
        timeline = region["TimelineView"]["TimelineInfo"]
        names = region["Instructions"]
    except (json.JSONDecodeError, KeyError, IndexError, TypeError) as exc:
        raise ToolFailedError(
            _("cannot read llvm-mca's JSON output: {exc}").format(exc=exc)
        ) from None
    n = len(names)
    if len(timeline) < n or n == 0:
        raise ToolFailedError(_("expected llvm-mca output with a timeline (-timeline)"))
    resources = data.get("TargetInfo", {}).get("Resources", [])
    pressure = {
        resources[x["ResourceIndex"]]: round(float(x["ResourceUsage"]), 2)
        for x in region.get("ResourcePressureView", {}).get("ResourcePressureInfo", [])
        if x.get("InstructionIndex") == n and x.get("ResourceIndex", -1) < len(resources)
    }
    spans = [
        [
            min(int(t["CycleDispatched"]) for t in timeline[k : k + n]),
            max(int(t["CycleExecuted"]) for t in timeline[k : k + n]),
        ]
        for k in range(0, len(timeline) - n + 1, n)
    ]
    return McaResult(
        cpu=cpu,
        cycles=int(summary["TotalCycles"]),
        instructions=[" ".join(s.replace(",", ", ").split()).replace(" ,", ",") for s in names],
        latency=[int(x["Latency"]) for x in info],
        dispatch=[int(t["CycleDispatched"]) for t in timeline[:n]],
        issue=[int(t["CycleIssued"]) for t in timeline[:n]],
        executed=[int(t["CycleExecuted"]) for t in timeline[:n]],
        retired=[int(t["CycleRetired"]) for t in timeline[:n]],
        dispatch_width=int(summary["DispatchWidth"]),
        iterations=int(summary.get("Iterations", 1)),
        spans=spans,
        rthroughput=float(summary.get("BlockRThroughput", 0.0)),
        pressure=pressure,
    )


def run_mca(
    block: str, cpu: str = "rocket-rv64", triple: str = "riscv64", iterations: int = 1
) -> McaResult:
    """Run llvm-mca on ``block`` (labels, comments and directives are dropped) and return its
    timeline (the first iteration's, and where the first iterations start and end) and total
    cycles. ``triple="x86_64"`` with e.g. ``cpu="skylake"`` times x86 code on an out-of-order
    core."""
    if isinstance(iterations, bool) or not isinstance(iterations, int):
        raise LectureKitError(
            _("iterations must be an integer 1..10000, got {iterations!r}").format(
                iterations=iterations
            )
        )
    if not 1 <= iterations <= 10_000:
        raise LectureKitError(
            _("iterations must be an integer 1..10000, got {iterations!r}").format(
                iterations=iterations
            )
        )
    mca = find_tool("llvm-mca")
    body = instructions_only(block)
    if not body.strip():
        raise LectureKitError(_("the block has no instructions for llvm-mca"))
    cmd = [mca, *mca_command(cpu, triple, iterations)]
    try:
        proc = _run(cmd + ["-"], "llvm-mca", stdin=body)
    except ToolFailedError as exc:
        if "unsupported instruction" in exc.stderr:  # llvm-mca's own words
            raise ToolFailedError(
                _(
                    "{exc} (llvm-mca cannot time calls, tail calls and fences: cut the "
                    "block to a loop without them, e.g. --block loop)"
                ).format(exc=exc),
                exc.stderr,
            ) from None
        raise
    errors = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
    if errors:  # llvm-mca drops instructions it cannot read and carries on: refuse that
        raise ToolFailedError(
            _("llvm-mca rejected the block: {errors}").format(errors=" | ".join(errors[:4])),
            proc.stderr,
        )
    result = parse_mca_json(proc.stdout, cpu)
    result.command = ["llvm-mca", *mca_command(cpu, triple, iterations)]
    return result


# -- side by side ----------------------------------------------------------------------------


@dataclass
class Difference:
    index: int
    kind: str
    detail: str


@dataclass
class Comparison:
    """lecturekit's simulation and llvm-mca's timeline of the same block on the same core.
    ``sim`` follows ``rules`` (the lecture's or llvm-mca's issue rules); ``other`` is the
    simulation under the other rules, which names the rule behind a difference."""

    program: object
    preset: str
    sim: object
    mca: McaResult
    rules: str = "lecture"
    other: object = None

    @property
    def cycles(self) -> tuple[int, int]:
        """(lecturekit, llvm-mca) cycles for the block."""
        return self.sim.cycles, self.mca.cycles

    @property
    def agree(self) -> bool:
        return self.sim.cycles == self.mca.cycles

    @property
    def llvm_sim(self):
        """lecturekit's simulation under llvm-mca's issue rules."""
        return self.sim if self.rules == "llvm-mca" else self.other

    @property
    def lecture_sim(self):
        """lecturekit's simulation under the lecture's issue rules."""
        return self.sim if self.rules == "lecture" else self.other

    def rows(self) -> list[dict]:
        """One row per instruction, both in lecturekit's 1-based cycles."""
        out = []
        m = self.sim.machine
        for k, ins in enumerate(self.program):
            out.append(
                {
                    "index": k,
                    "text": ins.text,
                    "class": ins.op_class,
                    "lk_issue": self.sim.issue[k],
                    "lk_done": self.sim.finish[k],
                    "mca_issue": self.mca.dispatch[k] + 1,
                    "mca_done": self.mca.executed[k] + 1,
                    "mca_latency": self.mca.latency[k],
                    "lk_latency": m.timing(m.timing_key(ins)).execute_cycles,
                }
            )
        return out

    def differences(self) -> list[Difference]:
        """Every instruction where the two issue cycles first part, with the model difference
        that explains it (see MODEL_DIFFERENCES)."""
        return explain(self)

    def table(self) -> str:
        """A plain-text side-by-side table."""
        rows = self.rows()
        w = max((len(r["text"]) for r in rows), default=10)
        word = _("instruction")
        head = f"{'':>3}  {ljust(word, w)}  " + _("lat lk/llvm  issue lk/llvm  done lk/llvm")
        lines = [
            _(
                "{preset} ({rules} rules): lecturekit {lk} cycles, llvm-mca "
                "{mca} cycles (-mcpu={cpu})"
            ).format(
                preset=self.preset,
                rules=self.rules,
                lk=self.sim.cycles,
                mca=self.mca.cycles,
                cpu=self.mca.cpu,
            ),
            head,
        ]
        for r in rows:
            mark = "" if r["lk_issue"] == r["mca_issue"] else "  *"
            lat = f"{r['lk_latency']:>6}/{r['mca_latency']:<4}"
            issue = f"{r['lk_issue']:>6}/{r['mca_issue']:<6}"
            done = f"{r['lk_done']:>5}/{r['mca_done']:<4}"
            lines.append(f"I{r['index'] + 1:<2}  {r['text']:<{w}}  {lat}{issue}  {done}{mark}")
        for d in self.differences():
            lines.append(f"I{d.index + 1}: {_(d.kind)}: {d.detail}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "preset": self.preset,
            "cpu": self.mca.cpu,
            "rules": self.rules,
            "cycles": {"lecturekit": self.sim.cycles, "llvm_mca": self.mca.cycles},
            "agree": self.agree,
            "rows": self.rows(),
            "differences": [d.__dict__ for d in self.differences()],
            "mca_command": self.mca.command,
        }


def preset_for(cpu: str) -> str:
    try:
        return CPU_PRESETS[cpu]
    except KeyError:
        raise LectureKitError(
            _("no lecturekit preset for -mcpu={cpu}; known: {join}").format(
                cpu=cpu, join=", ".join(CPU_PRESETS)
            )
        ) from None


def _rules_machine(preset: str, rules: str):
    from .machine import ISSUE_RULES, get_machine

    if rules not in ISSUE_RULES:
        raise LectureKitError(
            _("rules must be one of {join}, got {rules!r}").format(
                join=", ".join(ISSUE_RULES), rules=rules
            )
        )
    return get_machine(preset).with_options(issue_rules=rules)


def compare(
    block: str,
    cpu: str = "rocket-rv64",
    mca: McaResult | dict | None = None,
    rules: str = "lecture",
) -> Comparison:
    """Simulate ``block`` (RISC-V text) on the preset for ``cpu`` under ``rules`` (``"lecture"``
    or ``"llvm-mca"``) and run llvm-mca on it (or use a saved ``mca`` result, e.g. from a
    notebook's data file)."""
    from ..asm import parse
    from .pipeline import simulate

    preset = preset_for(cpu)
    machine = _rules_machine(preset, rules)
    body = instructions_only(block)
    program = parse(body, notation="riscv")
    if len(program) == 0:
        raise LectureKitError(_("the block has no instructions"))
    if mca is None:
        mca = run_mca(body, cpu)
    elif isinstance(mca, dict):
        mca = McaResult.from_dict(mca)
    if len(mca.dispatch) != len(program):
        raise LectureKitError(
            _("llvm-mca saw {n_dispatch} instructions, lecturekit {n_program}").format(
                n_dispatch=len(mca.dispatch), n_program=len(program)
            )
        )
    sim = simulate(program, machine)
    other_rules = "lecture" if rules == "llvm-mca" else "llvm-mca"
    other = simulate(program, machine.with_options(issue_rules=other_rules))
    return Comparison(program, preset, sim, mca, rules, other)


def _last_stall(sim, k: int):
    """The stall that held instruction k in the cycle before it issued (None: it did not
    wait, or waited behind an older instruction)."""
    return next((s for s in sim.stalls if s.index == k and s.cycle == sim.issue[k] - 1), None)


def explain(c: Comparison) -> list[Difference]:
    """Name the model difference behind each place where the two schedules part ways.

    Walking in program order, ``shift`` is llvm-mca's issue cycle minus lecturekit's. Where it
    changes, the instruction is timed by a rule one model has and the other lacks, found by
    simulating the block under both rule sets: a ``write-back`` stall under llvm-mca's rules
    (write-back order), a ``WAW`` or ``memory`` stall under the lecture's (rules llvm-mca does
    not have). Where lecturekit under llvm-mca's rules still parts from llvm-mca, the cause is a
    latency that differs, or on the dual-issue core the pipe llvm-mca picked for an ALU op.
    A change that comes from neither is the earlier difference absorbed (both wait for the same
    operand, or in order behind the same instruction) and is not reported again.
    """
    out: list[Difference] = []
    rows = c.rows()
    llvm, lecture = c.llvm_sim, c.lecture_sim
    before = 0
    seen: set[str] = set()  # a latency difference is named once per opcode
    for r in rows:
        k = r["index"]
        shift = r["mca_issue"] - r["lk_issue"]
        cause = None
        if shift != before:
            cause = _rule_cause(c, k, rows, llvm, lecture)
        if cause is not None and not (cause[0] == "latency" and cause[1] in seen):
            out.append(Difference(k, *cause))
            seen.add(cause[1])
        before = shift
    if not out and c.sim.cycles != c.mca.cycles:
        out.append(Difference(len(rows) - 1, "other", _("same issue cycles, different end")))
    return out


def _rule_cause(c: Comparison, k: int, rows, llvm, lecture) -> tuple[str, str] | None:
    r = rows[k]
    if c.rules == "lecture" and lecture.issue[k] != llvm.issue[k]:
        mine = _last_stall(lecture, k)
        theirs = _last_stall(llvm, k)
        if mine is not None and mine.cause == "WAW":
            return "WAW", _("{op} writes {on} again: lecturekit waits a cycle, LLVM not").format(
                op=r["text"], on=mine.on
            )
        if mine is not None and mine.cause == "memory":
            return (
                "memory order",  # i18n: not shown (a key of MODEL_DIFFERENCES)
                _("{op} waits for {on} in lecturekit; llvm-mca assumes no aliasing").format(
                    op=r["text"], on=mine.on
                ),
            )
        if theirs is not None and theirs.cause == "write-back":
            who = rows[theirs.waits_for]
            return (
                "write-back order",  # i18n: not shown (a key of MODEL_DIFFERENCES)
                _(
                    "{op} (latency {latency}) waits in llvm-mca so that it completes no earlier "
                    "than I{k} {other} (latency {other_latency}): write-back in program order"
                ).format(
                    op=r["text"],
                    latency=r["lk_latency"],
                    k=who["index"] + 1,
                    other=who["text"],
                    other_latency=who["lk_latency"],
                ),
            )
        if theirs is not None and theirs.cause == "structural" and llvm.machine.groups:
            return (
                "pipes",
                _(
                    "{op} ({cls}) waits in llvm-mca for a pipe ({on}): llvm-mca gave an ALU "
                    "op the pipe this one needed; lecturekit counts the pipes"
                ).format(op=r["text"], cls=r["class"], on=theirs.on),
            )
    if llvm.issue[k] == r["mca_issue"]:
        return None  # lecturekit under llvm-mca's rules agrees here: absorbed
    for x in rows[: k + 1]:
        if x["mca_latency"] != x["lk_latency"]:
            return _latency_text(x["text"].split()[0], x)
    if c.sim.machine.issue_width > 1:
        return (
            "pipes",
            _(
                "{op} ({cls}): llvm-mca issues it in cycle {mca}, lecturekit under "
                "llvm-mca's rules in {lk}: llvm-mca gave an ALU op the pipe (A or "
                "B) this one needed"
            ).format(op=r["text"], cls=r["class"], mca=r["mca_issue"], lk=llvm.issue[k]),
        )
    return (
        "other",
        _(
            "{op}: llvm-mca issues it in cycle {mca}, lecturekit under llvm-mca's rules in {lk}"
        ).format(op=r["text"], mca=r["mca_issue"], lk=llvm.issue[k]),
    )


def _latency_text(opcode: str, r) -> tuple[str, str]:
    return (
        "latency",
        _("{opcode}: LLVM latency {mca}, lecturekit's {lk}").format(
            opcode=opcode, mca=r["mca_latency"], lk=r["lk_latency"]
        ),
    )


#: the most instructions :func:`compare_iterations` simulates (iterations x block length)
MAX_SIMULATED = 100_000


@dataclass
class IterationComparison:
    """lecturekit and llvm-mca on ``iterations`` back-to-back passes of a block: total cycles,
    and whether each tool overlaps iterations (an instruction of one pass issues before the
    previous pass has finished)."""

    preset: str
    rules: str
    iterations: int
    lk_cycles: int
    mca_cycles: int
    one_pass: tuple[int, int]
    lk_overlap: bool
    mca_overlap: bool

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    def text(self) -> str:
        lk1, mca1 = self.one_pass

        def overlap(flag: bool) -> str:
            if flag:
                return _("overlaps iterations (a pass starts before the previous one finished)")
            return _("does not overlap iterations")

        n = self.iterations
        return "\n".join(
            [
                _(
                    "{n} iterations on {preset} ({rules} rules): lecturekit {lk} cycles, "
                    "llvm-mca {mca} (one pass: {lk1} / {mca1}; {n} x (one pass - 1) + 1 = "
                    "{lk_n} / {mca_n})"
                ).format(
                    n=n,
                    preset=self.preset,
                    rules=self.rules,
                    lk=self.lk_cycles,
                    mca=self.mca_cycles,
                    lk1=lk1,
                    mca1=mca1,
                    lk_n=n * (lk1 - 1) + 1,
                    mca_n=n * (mca1 - 1) + 1,
                ),
                _("lecturekit {lk}; llvm-mca {mca}").format(
                    lk=overlap(self.lk_overlap), mca=overlap(self.mca_overlap)
                ),
            ]
        )


def compare_iterations(
    block: str,
    cpu: str = "rocket-rv64",
    iterations: int = 100,
    rules: str = "lecture",
    mca: McaResult | dict | None = None,
    one_pass: McaResult | dict | None = None,
) -> IterationComparison:
    """``iterations`` passes of ``block`` in lecturekit (the block repeated, simulated as one)
    and in llvm-mca (``-iterations``; or saved results ``mca`` and ``one_pass``)."""
    from ..asm import parse
    from .pipeline import simulate

    if isinstance(iterations, bool) or not isinstance(iterations, int):
        raise LectureKitError(
            _("iterations must be an integer 1..1000, got {iterations!r}").format(
                iterations=iterations
            )
        )
    if not 1 <= iterations <= 1000:
        raise LectureKitError(
            _("iterations must be an integer 1..1000, got {iterations!r}").format(
                iterations=iterations
            )
        )
    preset = preset_for(cpu)
    machine = _rules_machine(preset, rules)
    body = instructions_only(block)
    n = len(parse(body, notation="riscv"))
    if n == 0:
        raise LectureKitError(_("the block has no instructions"))
    if n * iterations > MAX_SIMULATED:
        raise LectureKitError(
            _(
                "{iterations} iterations of {n} instructions is {total:,} "
                "instructions; lecturekit simulates at most {max_simulated:,}: ask for "
                "at most {most} iterations"
            ).format(
                iterations=iterations,
                n=n,
                total=n * iterations,
                max_simulated=MAX_SIMULATED,
                most=max(1, MAX_SIMULATED // n),
            )
        )
    mca = run_mca(body, cpu, iterations=iterations) if mca is None else mca
    mca = McaResult.from_dict(mca) if isinstance(mca, dict) else mca
    one = run_mca(body, cpu) if one_pass is None else one_pass
    one = McaResult.from_dict(one) if isinstance(one, dict) else one
    sim = simulate(parse(body * iterations, notation="riscv"), machine, time_limit=120)
    lk_one = simulate(parse(body, notation="riscv"), machine).cycles
    passes = [range(k * n, (k + 1) * n) for k in range(iterations)]
    lk_overlap = any(
        min(sim.issue[i] for i in b) < max(sim.finish[i] for i in a)
        for a, b in zip(passes, passes[1:], strict=False)
    )
    # llvm-mca counts from 0 and its "executed" is lecturekit's finish - 1: compare alike
    mca_overlap = any(b[0] < a[1] for a, b in zip(mca.spans, mca.spans[1:], strict=False))
    return IterationComparison(
        preset, rules, iterations, sim.cycles, mca.cycles, (lk_one, one.cycles), lk_overlap,
        mca_overlap,
    )  # fmt: skip


def llvm_inorder_issue(program, machine="rocket-rv64") -> list[int]:
    """Issue cycles (from 1) of ``program`` on ``machine`` under llvm-mca's in-order rules
    (``issue_rules = "llvm-mca"``: in order, at most ``issue_width`` a cycle, a reader waits
    the writer's latency, **results are written back in program order**, no WAW or memory
    rule): lecturekit's simulation with those rules (:mod:`lecturekit.target.pipeline`)."""
    from ..asm import parse
    from .machine import get_machine
    from .pipeline import simulate

    if isinstance(program, str):
        program = parse(program, notation="riscv")
    m = get_machine(machine).with_options(issue_rules="llvm-mca")
    sim = simulate(program, m)
    return [sim.issue[k] for k in range(len(program))]


# -- saved outputs, so a chapter reads the same without LLVM ---------------------------------

SAVED_DIR = Path(__file__).resolve().parent.parent / "data" / "real"


def saved_or_live(name: str, compute, tools=("clang", "llvm-mca"), store: str = "chapter12"):
    """``compute()`` when ``tools`` are installed, else the result saved under ``name`` in
    ``lecturekit/data/real/STORE.json`` (so a chapter reads the same without LLVM). With
    ``LECTUREKIT_SAVE_REAL=1`` in the environment a live result is saved. Results are plain
    JSON data (text, numbers, McaResult.to_dict())."""
    path = SAVED_DIR / f"{store}.json"
    saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if have(*tools):
        value = json.loads(json.dumps(compute()))
        if os.environ.get("LECTUREKIT_SAVE_REAL"):
            saved[name] = value
            text = json.dumps(saved, indent=1, sort_keys=True, ensure_ascii=False)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text + "\n", encoding="utf-8")
        return value
    if name not in saved:
        find_tool(next(t for t in tools if not have(t)))  # raises, saying what to install
    return saved[name]


def __getattr__(name: str):
    # draw_comparison moved to lecturekit.viz.real (a drawing, with the figures' fonts); the
    # name stays here for notebooks and students' code that call real.draw_comparison
    if name == "draw_comparison":
        from ..viz.real import draw_comparison

        return draw_comparison
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")  # i18n: not shown


# -- random blocks and the class where the models coincide ---------------------------------

_RAND_REGS = ("a0", "a1", "a2", "a3", "a4", "a5", "t0", "t1", "t2")
_RAND_OPS = (
    ("alu", 50, ("add", "sub", "xor", "and", "or", "addw", "sll")),
    ("alui", 20, ("addi", "slli", "andi", "xori", "addiw", "srai")),
    ("load", 14, ("ld", "lw")),
    ("store", 10, ("sd", "sw")),
    ("mul", 8, ("mul", "mulw")),
    ("div", 2, ("div", "remu")),
)


_RAND_FP_REGS = ("fa0", "fa1", "fa2", "ft0", "ft1", "ft2", "ft3")
_RAND_FP_OPS = (
    ("fload", 10, ("fld", "flw")),
    ("fstore", 6, ("fsd", "fsw")),
    ("frrr", 14, ("fadd.d", "fmul.d", "fsub.s", "fmul.s", "fmin.s", "fmax.d", "fdiv.d")),
    ("frrrr", 8, ("fmadd.d", "fmadd.s", "fnmsub.d")),
    ("fcvt", 6, ("fcvt.d.w", "fcvt.w.d", "fcvt.s.l", "fmv.x.d", "feq.d")),
    ("bytes", 6, ("lbu", "lb", "lhu", "sb")),
)


def random_block(seed: int, length: int | None = None, fp: bool = False) -> str:
    """A random straight-line RV64 integer block (5 to 40 instructions unless ``length``):
    ALU ops, loads, stores, multiplies and a few divides over 9 registers, deterministic in
    ``seed``. ``fp=True`` mixes in floating point (loads, stores, add/multiply/divide in
    single and double precision, fused multiply-add, conversions) and byte loads and stores."""
    import random

    rng = random.Random(seed)
    n = length if length is not None else rng.randint(5, 40)
    table = _RAND_OPS + (_RAND_FP_OPS if fp else ())
    kinds = [k for k, w, _ in table for _ in range(w)]
    names = {k: ops for k, _, ops in table}
    out = []
    for _unused in range(n):
        kind = rng.choice(kinds)
        op = rng.choice(names[kind])
        r = [rng.choice(_RAND_REGS) for _ in range(3)]
        f = [rng.choice(_RAND_FP_REGS) for _ in range(4)]
        if kind in ("alu", "mul", "div"):
            out.append(f"{op} {r[0]}, {r[1]}, {r[2]}")
        elif kind == "alui":
            imm = rng.randint(1, 31) if op in ("slli", "srai") else rng.randint(-64, 64)
            out.append(f"{op} {r[0]}, {r[1]}, {imm}")
        elif kind in ("fload", "fstore"):
            size = 8 if op.endswith("d") else 4
            out.append(f"{op} {f[0]}, {size * rng.randint(0, 7)}({r[1]})")
        elif kind == "frrr":
            dest = r[0] if op.startswith("feq") else f[0]
            out.append(f"{op} {dest}, {f[1]}, {f[2]}")
        elif kind == "frrrr":
            out.append(f"{op} {f[0]}, {f[1]}, {f[2]}, {f[3]}")
        elif kind == "fcvt":
            to_int = op in ("fcvt.w.d", "fmv.x.d")
            if op == "feq.d":
                out.append(f"{op} {r[0]}, {f[1]}, {f[2]}")
            else:
                out.append(f"{op} {r[0] if to_int else f[0]}, {f[1] if to_int else r[1]}")
        else:  # loads, stores, bytes
            size = {"ld": 8, "sd": 8, "lw": 4, "sw": 4, "lhu": 2}.get(op, 1)
            out.append(f"{op} {r[0]}, {size * rng.randint(0, 7)}({r[1]})")
    return "\n".join(out) + "\n"


def coinciding(c: Comparison) -> bool:
    """Whether a block lies in the class where the lecture's rules and llvm-mca's coincide.

    Both are in-order and issue each instruction as early as their rules allow, with the same
    per-opcode latencies and units; they can only part where one has a rule the other lacks.
    So the class is: lecturekit's simulation gives the same issue cycles under the lecture's
    rules as under llvm-mca's (no write-back-order, WAW or memory-order rule binds), and no
    opcode's latency differs from llvm-mca's (a call). On such a block lecturekit must equal
    llvm-mca, except where llvm-mca's choice of pipe for an ALU op on the dual-issue core
    matters (named "pipes").
    """
    rows = c.rows()
    if any(r["mca_latency"] != r["lk_latency"] for r in rows):
        return False
    lecture, llvm = c.lecture_sim, c.llvm_sim
    return all(lecture.issue[k] == llvm.issue[k] for k in range(len(rows)))


__all__ = [
    "CPU_PRESETS",
    "Comparison",
    "Compiled",
    "IterationComparison",
    "RISCV_TRIPLES",
    "compare_iterations",
    "loops",
    "riscv_target",
    "INSTALL_HELP",
    "MODEL_DIFFERENCES",
    "McaResult",
    "ToolFailedError",
    "ToolMissingError",
    "compare",
    "compile_c",
    "coinciding",
    "compile_gcc",
    "explain",
    "find_tool",
    "function_body",
    "functions",
    "have",
    "instructions_only",
    "llvm_inorder_issue",
    "loop_body",
    "parse_mca_json",
    "random_block",
    "saved_or_live",
    "run_mca",
]
