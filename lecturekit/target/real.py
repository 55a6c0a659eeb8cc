"""Real compilers and real processors: clang, GCC and llvm-mca next to the lecture's model.

* :func:`compile_c` compiles C to RISC-V assembly with clang (``-O2``, scheduler on or off,
  unrolling on or off); :func:`compile_gcc` does the same with GCC's ``-fschedule-insns`` /
  ``-fschedule-insns2``; :func:`function_body` and :func:`loop_body` cut a function or its
  innermost loop out of the assembly, ready for :func:`lecturekit.asm.parse`.
* :func:`run_mca` runs ``llvm-mca`` (one iteration, ``--json``, timeline) on a block and returns
  its cycles and each instruction's dispatch / issue / executed / retired cycles.
* :func:`compare` puts llvm-mca's timeline on a real core next to lecturekit's simulation of the
  same block on the matching preset (``rocket-rv64``, ``sifive-7-rv64``) and names the cause of
  every difference (:data:`MODEL_DIFFERENCES`).

llvm-mca counts cycles from 0; lecturekit from 1. Everything here is shown in lecturekit's
counting: an instruction llvm-mca dispatches in its cycle 0 issues in cycle 1, and llvm-mca's
"Total Cycles" is lecturekit's ``cycles`` (the cycle in which the last result is ready).

When clang or llvm-mca is missing, :class:`ToolMissingError` says exactly what to install.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LectureKitError

INSTALL_HELP = (
    "install LLVM and clang: Debian/Ubuntu `apt-get install clang-14 llvm-14` (or the `clang` and "
    "`llvm` packages), macOS `brew install llvm` (then put $(brew --prefix llvm)/bin on PATH), "
    "conda `conda install -c conda-forge clang llvm-tools`"
)
GCC_HELP = (
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
MODEL_DIFFERENCES = {
    "write-back order": (
        "LLVM's in-order model writes results back in program order: an instruction whose result "
        "would be ready before an older, slower one's waits until it is not (llvm-mca's "
        "InOrderIssueStage, unless a write sets RetireOOO). The lecture's pipeline lets a short "
        "operation finish under a long one (an add under a multiply) and only keeps two writes "
        "of the same register in order."
    ),
    "WAW": (
        "Two writes of the same register: lecturekit makes the second land strictly after the "
        "first (a cycle later); LLVM only keeps write-back in order, so both may land in the same "
        "cycle (the younger one wins)."
    ),
    "latency": (
        "An opcode whose LLVM latency differs from its lecturekit class: the preset has one "
        "latency per class (lw/ld for loads, fadd.d/fmul.d for FP), LLVM one per opcode "
        "(e.g. lbu 3 not 2 on Rocket, fld 2 not 3 on the U74, fadd.s 4 not 6)."
    ),
    "pipes": (
        "On the U74 an ALU op may run on pipe A or pipe B, memory ops need A, multiply, "
        "branches and FP need B, and a divide holds B for 16 cycles. lecturekit only counts two "
        "ALU slots beside one A and one B; llvm-mca picks a pipe for each ALU op when it issues "
        "(it may take the one a later instruction needs) and lets no ALU op use B while a divide "
        "holds it."
    ),
    "memory order": (
        "lecturekit's pipeline completes memory accesses that may touch the same bytes in "
        "program order (a store waits until an older load of those bytes is done, a load until "
        "an older store is); llvm-mca assumes by default that loads and stores do not alias "
        "(-noalias) and orders nothing."
    ),
    "other": "a difference none of the above explains (please report it with the block)",
}


class ToolMissingError(LectureKitError):
    """clang, llvm-mca or a RISC-V GCC is not installed (the message says how to install it)."""


class ToolFailedError(LectureKitError):
    """An external tool (clang, gcc, llvm-mca) rejected its input; its own message is kept."""


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
        raise LectureKitError(f"unknown tool {kind!r}; tools: {', '.join(_TOOL_NAMES)}")
    env = os.environ.get("LECTUREKIT_" + kind.upper().replace("-", "_"))
    if env:
        if shutil.which(env):
            return shutil.which(env)
        raise ToolMissingError(f"{kind}: {env!r} (from the environment) is not an executable")
    for name in _TOOL_NAMES[kind]:
        path = shutil.which(name)
        if path:
            return path
    help_text = GCC_HELP if kind == "gcc-riscv" else INSTALL_HELP
    raise ToolMissingError(
        f"{kind} not found (looked for {', '.join(_TOOL_NAMES[kind])}); {help_text}"
    )


def have(*kinds: str) -> bool:
    """Whether every tool named is installed."""
    try:
        for kind in kinds:
            find_tool(kind)
    except ToolMissingError:
        return False
    return True


def _run(cmd: list[str], what: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise ToolFailedError(f"{what} did not finish within 120 s: {' '.join(cmd)}") from None
    except OSError as exc:
        raise ToolMissingError(f"cannot run {cmd[0]}: {exc.strerror}; {INSTALL_HELP}") from None
    if proc.returncode != 0:
        msg = proc.stderr.strip().splitlines()
        raise ToolFailedError(
            f"{what} failed: " + (" | ".join(msg[:6]) or f"exit {proc.returncode}")
        )
    return proc


# -- compiling ------------------------------------------------------------------------------


@dataclass
class Compiled:
    """Assembly from one compiler run, with the exact command."""

    asm: str
    command: list[str]
    schedule: bool
    unroll: bool

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
            raise LectureKitError(f"C file {str(path)!r} does not exist")
        return str(path)
    if not isinstance(source, str):
        raise LectureKitError(f"expected C source text or a .c path, got {type(source).__name__}")
    path = Path(tmp) / "input.c"
    path.write_text(source, encoding="utf-8")
    return str(path)


def clang_command(
    schedule: bool = True,
    unroll: bool = True,
    cpu: str = "sifive-u74",
    opt: str = "-O2",
    target: str = "riscv64",
) -> list[str]:
    """The clang flags :func:`compile_c` uses (without the input and output)."""
    if target == "riscv64":
        cmd = ["--target=riscv64-unknown-elf", "-march=rv64gc", f"-mcpu={cpu}", opt, "-S"]
    elif target == "x86_64":  # scalar code, so the loop is the lecture's loop, not SIMD
        cmd = ["--target=x86_64-linux-gnu", f"-march={cpu}", opt, "-S", "-fno-vectorize"]
        cmd += ["-fno-slp-vectorize", "-fno-asynchronous-unwind-tables"]
    else:
        raise LectureKitError(f"target must be riscv64 or x86_64, got {target!r}")
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
    """
    if opt not in ("-O0", "-O1", "-O2", "-O3", "-Os"):
        raise LectureKitError(f"opt must be one of -O0 -O1 -O2 -O3 -Os, got {opt!r}")
    clang = find_tool("clang")
    with tempfile.TemporaryDirectory() as tmp:
        src = _source_file(source, tmp)
        flags = clang_command(schedule, unroll, cpu, opt, target)
        proc = _run([clang, *flags, src, "-o", "-"], "clang")
    shown = ["clang", *flags, Path(src).name]
    return Compiled(proc.stdout, shown, schedule, unroll)


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
            f"schedule must be True, False, 'before' or 'after', got {schedule!r}"
        )
    gcc = find_tool("gcc-riscv")
    flags = ["-march=rv64gc", "-mabi=lp64d", "-mtune=sifive-7-series", opt, "-S"]
    flags += list(choices[schedule])
    flags += ["-funroll-loops"] if unroll else []
    flags += ["-fno-asynchronous-unwind-tables", "-fno-ident"]
    with tempfile.TemporaryDirectory() as tmp:
        src = _source_file(source, tmp)
        proc = _run([gcc, *flags, src, "-o", "-"], "gcc")
    return Compiled(proc.stdout, [Path(gcc).name, *flags, Path(src).name], schedule, unroll)


# -- cutting blocks out of assembly ----------------------------------------------------------

_LABEL_LINE = re.compile(r"^([A-Za-z_.$][A-Za-z0-9_.$]*):")


def functions(asm: str) -> dict[str, str]:
    """Each function in clang/GCC output (``.type name,@function``) -> its text, labels and
    instructions, directives dropped."""
    names = re.findall(r"\.type\s+([A-Za-z_.$][A-Za-z0-9_.$]*)\s*,\s*@function", asm)
    out: dict[str, str] = {}
    lines = asm.splitlines()
    for name in names:
        start = next((i for i, ln in enumerate(lines) if ln.startswith(name + ":")), None)
        if start is None:
            continue
        body = [lines[start]]
        for ln in lines[start + 1 :]:
            s = ln.strip()
            if s.startswith((".Lfunc_end", ".size")) or (
                _LABEL_LINE.match(ln) and not ln.startswith(".")
            ):
                break
            if s.startswith(".") and not _LABEL_LINE.match(s):
                continue  # a directive
            if s:
                body.append(ln)
        out[name] = "\n".join(body) + "\n"
    return out


def function_body(asm: str, name: str | None = None) -> str:
    """The text of function ``name`` (default: the first one)."""
    funcs = functions(asm)
    if not funcs:
        raise LectureKitError("no function found in the assembly (no '.type NAME,@function')")
    if name is None:
        return next(iter(funcs.values()))
    if name not in funcs:
        raise LectureKitError(
            f"no function {name!r} in the assembly; functions: {', '.join(funcs)}"
        )
    return funcs[name]


def loop_body(asm: str, function: str | None = None) -> str:
    """The innermost loop of a function: from a label to the last branch back to it (the
    shortest such stretch), as text. LectureKitError if the function has no loop."""
    text = function_body(asm, function) if ".type" in asm else asm
    lines = [ln for ln in text.splitlines() if ln.strip()]
    best: tuple[int, int] | None = None
    for i, ln in enumerate(lines):
        m = _LABEL_LINE.match(ln.strip())
        if not m:
            continue
        label = m.group(1)
        for j in range(i + 1, len(lines)):
            ops = lines[j].split("#")[0].replace(",", " ").split()
            if ops and ops[0][0] in "bj" and ops[-1] == label:
                if best is None or j - i < best[1] - best[0]:
                    best = (i, j)
    if best is None:
        raise LectureKitError("no loop found (no branch back to a label above it)")
    return "\n".join(lines[best[0] : best[1] + 1]) + "\n"


def instructions_only(block: str) -> str:
    """The block without labels, comments or directives: one instruction a line (what llvm-mca
    and lecturekit compare)."""
    out = []
    for ln in block.splitlines():
        s = ln.split("#")[0]
        s = re.sub(r"^\s*[A-Za-z_.$][A-Za-z0-9_.$]*:", "", s).strip()
        if s and not s.startswith("."):
            out.append(s)
    return "\n".join(out) + "\n"


# -- llvm-mca --------------------------------------------------------------------------------


@dataclass
class McaResult:
    """What llvm-mca said about one iteration of a block (its 0-based cycles)."""

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

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, data: dict) -> McaResult:
        return cls(**data)


def mca_command(cpu: str, triple: str = "riscv64", iterations: int = 1) -> list[str]:
    cmd = [f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={iterations}", "-timeline"]
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
        raise ToolFailedError(f"cannot read llvm-mca's JSON output: {exc}") from None
    n = len(names)
    if len(timeline) < n:
        raise ToolFailedError("expected llvm-mca output with a timeline (-timeline)")
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
    )


def run_mca(
    block: str, cpu: str = "rocket-rv64", triple: str = "riscv64", iterations: int = 1
) -> McaResult:
    """Run llvm-mca on ``block`` (labels, comments and directives are dropped) and return its
    timeline (the first iteration's) and total cycles. ``triple="x86_64"`` with e.g.
    ``cpu="skylake"`` times x86 code on an out-of-order core."""
    if not isinstance(iterations, int) or not 1 <= iterations <= 10_000:
        raise LectureKitError(f"iterations must be an integer 1..10000, got {iterations!r}")
    mca = find_tool("llvm-mca")
    body = instructions_only(block)
    if not body.strip():
        raise LectureKitError("the block has no instructions for llvm-mca")
    cmd = [mca, *mca_command(cpu, triple, iterations)]
    proc = _run(cmd + ["-"], "llvm-mca", stdin=body)
    errors = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
    if errors:  # llvm-mca drops instructions it cannot read and carries on: refuse that
        raise ToolFailedError("llvm-mca rejected the block: " + " | ".join(errors[:4]))
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
    """lecturekit's simulation and llvm-mca's timeline of the same block on the same core."""

    program: object
    preset: str
    sim: object
    mca: McaResult

    @property
    def cycles(self) -> tuple[int, int]:
        """(lecturekit, llvm-mca) cycles for the block."""
        return self.sim.cycles, self.mca.cycles

    @property
    def agree(self) -> bool:
        return self.sim.cycles == self.mca.cycles

    def rows(self) -> list[dict]:
        """One row per instruction, both in lecturekit's 1-based cycles."""
        out = []
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
                    "lk_latency": self.sim.machine.timing(ins.op_class).execute_cycles,
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
        head = f"{'':>3}  {'instruction':<{w}}  lat lk/llvm  issue lk/llvm  done lk/llvm"
        lines = [
            f"{self.preset}: lecturekit {self.sim.cycles} cycles, llvm-mca "
            f"{self.mca.cycles} cycles (-mcpu={self.mca.cpu})",
            head,
        ]
        for r in rows:
            mark = "" if r["lk_issue"] == r["mca_issue"] else "  *"
            lat = f"{r['lk_latency']:>6}/{r['mca_latency']:<4}"
            issue = f"{r['lk_issue']:>6}/{r['mca_issue']:<6}"
            done = f"{r['lk_done']:>5}/{r['mca_done']:<4}"
            lines.append(f"I{r['index'] + 1:<2}  {r['text']:<{w}}  {lat}{issue}  {done}{mark}")
        for d in self.differences():
            lines.append(f"I{d.index + 1}: {d.kind}: {d.detail}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "preset": self.preset,
            "cpu": self.mca.cpu,
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
            f"no lecturekit preset for -mcpu={cpu}; known: {', '.join(CPU_PRESETS)}"
        ) from None


def compare(
    block: str, cpu: str = "rocket-rv64", mca: McaResult | dict | None = None
) -> Comparison:
    """Simulate ``block`` (RISC-V text) on the preset for ``cpu`` and run llvm-mca on it (or use
    a saved ``mca`` result, e.g. from a notebook's data file)."""
    from ..asm import parse
    from .pipeline import simulate

    preset = preset_for(cpu)
    body = instructions_only(block)
    program = parse(body, notation="riscv")
    if len(program) == 0:
        raise LectureKitError("the block has no instructions")
    if mca is None:
        mca = run_mca(body, cpu)
    elif isinstance(mca, dict):
        mca = McaResult.from_dict(mca)
    if len(mca.dispatch) != len(program):
        raise LectureKitError(
            f"llvm-mca saw {len(mca.dispatch)} instructions, lecturekit {len(program)}"
        )
    sim = simulate(program, preset)
    return Comparison(program, preset, sim, mca)


def explain(c: Comparison) -> list[Difference]:
    """Name the model difference behind each place where the two schedules part ways.

    Walking in program order, ``shift`` is llvm-mca's issue cycle minus lecturekit's. Where it
    changes, the instruction is timed by a rule one model has and the other lacks (reported),
    or the earlier difference is absorbed: both wait for the same operand (RAW) or behind the
    same older instruction (in order), which is not reported again.
    """
    out: list[Difference] = []
    rows = c.rows()
    stalls: dict[int, object] = {}
    for s in c.sim.stalls:
        stalls.setdefault(s.index, s)
    before = 0
    seen: set[str] = set()  # a latency difference is named once per opcode
    for r in rows:
        k = r["index"]
        shift = r["mca_issue"] - r["lk_issue"]
        cause = None
        if shift > before:
            cause = _mca_later(c, k, rows)
        elif shift < before:
            cause = _lk_later(c, k, rows, stalls)
        elif r["mca_latency"] != r["lk_latency"] and r["lk_done"] - r["mca_done"] != 0:
            cause = _latency_text(c.program[k].opcode, r)
        if cause is not None and not (cause[0] == "latency" and cause[1] in seen):
            out.append(Difference(k, *cause))
            seen.add(cause[1])
        before = shift
    if not out and c.sim.cycles != c.mca.cycles:
        out.append(Difference(len(rows) - 1, "other", "same issue cycles, different end"))
    return out


def _raw_ready(c: Comparison, k: int, rows, which: str) -> int:
    """The earliest issue allowed by true register dependences alone, in one model's schedule."""
    ins = c.program[k]
    best = 0
    for i in range(k - 1, -1, -1):
        if set(c.program[i].writes()) & set(ins.reads()):
            lat = rows[i]["mca_latency" if which == "mca" else "lk_latency"]
            best = max(best, rows[i][f"{which}_issue"] + lat)
    return best


def _latency_text(opcode: str, r) -> tuple[str, str]:
    return (
        "latency",
        f"{opcode}: LLVM latency {r['mca_latency']}, lecturekit's {r['class']} class "
        f"{r['lk_latency']}",
    )


def _latency_cause(rows, k, program=None):
    for x in rows[: k + 1]:
        if x["mca_latency"] != x["lk_latency"]:
            return _latency_text(x["text"].split()[0], x)
    return None


def _mca_later(c: Comparison, k: int, rows) -> tuple[str, str] | None:
    r = rows[k]
    d = r["mca_issue"]
    if k > 0:
        who = max(rows[:k], key=lambda x: x["mca_issue"] + x["mca_latency"])
        if who["mca_issue"] + who["mca_latency"] == d + r["mca_latency"] and (
            _raw_ready(c, k, rows, "mca") < d and rows[k - 1]["mca_issue"] < d
        ):
            return (
                "write-back order",
                f"{r['text']} (latency {r['mca_latency']}) waits in llvm-mca so that it "
                f"completes no earlier than I{who['index'] + 1} {who['text']} (latency "
                f"{who['mca_latency']}): write-back in program order",
            )
    width = c.mca.dispatch_width
    prev = rows[k - 1]["mca_issue"] if k else 0
    full = k and sum(x["mca_issue"] == prev for x in rows[:k]) >= width
    if _raw_ready(c, k, rows, "mca") == d or prev == d or (full and d == prev + 1):
        # both wait for the same operand, or in order behind the same instruction / a full
        # issue cycle: absorbed unless a latency differs
        return _latency_cause(rows, k)
    if width > 1:
        return (
            "pipes",
            f"{r['text']} ({r['class']}) waits in llvm-mca for its pipe: an ALU op took pipe A "
            "or B in the cycle before, or a divide holds pipe B",
        )
    return _latency_cause(rows, k) or (
        "other",
        f"{r['text']}: llvm-mca issues it in cycle {d}, lecturekit in {r['lk_issue']}",
    )


def _lk_later(c: Comparison, k: int, rows, stalls) -> tuple[str, str] | None:
    r = rows[k]
    s = stalls.get(k)
    stalled_now = [x for x in c.sim.stalls if x.index == k and x.cycle == r["lk_issue"] - 1]
    s = stalled_now[0] if stalled_now else None
    if s is not None and s.cause == "WAW":
        return "WAW", f"{r['text']} writes {s.on} again: lecturekit waits a cycle, LLVM does not"
    if s is not None and s.cause == "memory":
        return (
            "memory order",
            f"{r['text']} waits for {s.on} in lecturekit; llvm-mca assumes no aliasing",
        )
    return _latency_cause(rows, k)  # RAW, a unit, or in order: absorbed


def llvm_inorder_issue(program, machine="rocket-rv64") -> list[int]:
    """Issue cycles (from 1) under the rules of llvm-mca's in-order model (InOrderIssueStage),
    with the preset's latencies: in order, at most ``issue_width`` a cycle, a reader waits the
    writer's latency (RAW), **results are written back in program order** (an instruction
    issues no earlier than ``max(older issue + latency) - its latency``), a non-pipelined unit is
    busy for its latency; no WAW or memory rule. On a single-issue core this reproduces
    llvm-mca's dispatch cycles where latencies match (tests/test_real.py checks it)."""
    from ..asm import parse
    from .machine import get_machine

    if isinstance(program, str):
        program = parse(program, notation="riscv")
    m = get_machine(machine)
    issue: list[int] = []
    ready: dict[str, int] = {}
    busy: dict[str, list[tuple[int, int]]] = {}
    last_wb = 0
    for ins in program:
        t = m.timing(ins.op_class)
        lat = t.execute_cycles
        c = max([issue[-1] if issue else 1] + [ready.get(r, 1) for r in ins.reads()])
        c = max(c, last_wb - lat)
        while True:
            same = sum(x == c for x in issue)
            uses = [(a, b) for a, b in busy.get(t.unit, []) if a <= c < b]
            if same < m.issue_width and len(uses) < m.units[t.unit]:
                break
            c += 1
        issue.append(c)
        busy.setdefault(t.unit, []).append((c, c + (1 if t.pipelined else lat)))
        for r in ins.writes():
            ready[r] = c + lat
        last_wb = max(last_wb, c + lat)
    return issue


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


def draw_comparison(c: Comparison, ax=None, title: str | None = None):
    """Each instruction's issue-to-result bar in lecturekit (top) and llvm-mca (below it)."""
    import matplotlib.pyplot as plt

    rows = c.rows()
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.2))
    for r in rows:
        y = r["index"]
        ax.barh(y - 0.18, r["lk_done"] - r["lk_issue"], left=r["lk_issue"], height=0.34,
                color="#4c72b0", label="lecturekit" if y == 0 else None)  # fmt: skip
        ax.barh(y + 0.18, r["mca_done"] - r["mca_issue"], left=r["mca_issue"], height=0.34,
                color="#dd8452", label="llvm-mca" if y == 0 else None)  # fmt: skip
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"I{r['index'] + 1} {r['text']}" for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("cycle (issue → result ready)")
    lk, mca = c.cycles
    ax.set_title(title or f"{c.preset}: lecturekit {lk} cycles, llvm-mca {mca}", fontsize=9)
    ax.legend(loc="upper right", fontsize=8)
    return ax


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


def random_block(seed: int, length: int | None = None) -> str:
    """A random straight-line RV64 integer block (5 to 40 instructions unless ``length``):
    ALU ops, loads, stores, multiplies and a few divides over 9 registers, deterministic in
    ``seed``."""
    import random

    rng = random.Random(seed)
    n = length if length is not None else rng.randint(5, 40)
    kinds = [k for k, w, _ in _RAND_OPS for _ in range(w)]
    names = {k: ops for k, _, ops in _RAND_OPS}
    out = []
    for _ in range(n):
        kind = rng.choice(kinds)
        op = rng.choice(names[kind])
        r = [rng.choice(_RAND_REGS) for _ in range(3)]
        if kind in ("alu", "mul", "div"):
            out.append(f"{op} {r[0]}, {r[1]}, {r[2]}")
        elif kind == "alui":
            imm = rng.randint(1, 31) if op in ("slli", "srai") else rng.randint(-64, 64)
            out.append(f"{op} {r[0]}, {r[1]}, {imm}")
        else:
            size = 8 if op in ("ld", "sd") else 4
            out.append(f"{op} {r[0]}, {size * rng.randint(0, 7)}({r[1]})")
    return "\n".join(out) + "\n"


def coinciding(c: Comparison) -> bool:
    """Whether a block lies in the class where lecturekit's preset and LLVM's model must agree.

    Both are in-order and issue each instruction as early as their rules allow, with the same
    latencies, widths and units; they can only part where one has a rule the other lacks. So
    the class is: (1) every opcode's LLVM latency is its lecturekit class latency; (2)
    lecturekit's own schedule already writes results back in program order (each instruction
    finishes no earlier than the one before it), so LLVM's write-back-order rule never binds;
    (3) lecturekit never stalls for WAW or memory order (rules LLVM does not have); (4) on the
    dual-issue core, no divide (it holds pipe B) and no instruction needing pipe A or B issues
    in the same cycle as an ALU op ahead of it (llvm-mca may have given that pipe to the ALU op).
    """
    rows = c.rows()
    if any(r["mca_latency"] != r["lk_latency"] for r in rows):
        return False
    finish = [r["lk_done"] for r in rows]
    if any(b < a for a, b in zip(finish, finish[1:], strict=False)):
        return False
    if any(s.cause in ("WAW", "memory") for s in c.sim.stalls):
        return False
    if c.sim.machine.issue_width > 1:
        if any(r["class"] in ("div", "fdiv") for r in rows):
            return False
        for a, b in zip(rows, rows[1:], strict=False):
            if a["lk_issue"] == b["lk_issue"] and a["class"] == "alu" and b["class"] != "alu":
                return False
    return True


__all__ = [
    "CPU_PRESETS",
    "Comparison",
    "Compiled",
    "INSTALL_HELP",
    "MODEL_DIFFERENCES",
    "McaResult",
    "ToolFailedError",
    "ToolMissingError",
    "compare",
    "compile_c",
    "coinciding",
    "compile_gcc",
    "draw_comparison",
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
