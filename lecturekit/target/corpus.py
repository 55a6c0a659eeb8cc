"""A corpus of C kernels as real compilers print them for RISC-V, with the outputs saved.

``lecturekit/data/corpus/*.c`` holds small kernels of the kinds compiled code is made of: dot
products, stencils, Horner's rule, hashes, prefix sums, matrix-vector products, minimum and
maximum, mixed integer and floating point, and what else C compiles to (atomics, a jump table,
calls into libm). Each is compiled three ways (:data:`BUILDS`): clang 14 ``-O2``, clang 14
``-O3 -funroll-loops`` tuned for the U74, and GCC 12 ``-O2``, all for ``rv64gc``; the outputs
are saved in ``lecturekit/data/corpus/asm/`` (with the commands and compiler versions in
``builds.json``), so everything that reads them works without the compilers, and
:func:`rebuild` makes them again where the compilers are installed.

:func:`blocks` cuts the saved outputs into the blocks lecturekit and llvm-mca time: every
innermost loop of every function, and the whole body of a function without a loop.
``lecturekit/data/corpus/mca.json`` keeps llvm-mca 14's timeline of every block on both real
cores (:func:`saved_mca`), for the tests and chapter 12 where llvm-mca is missing.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import LectureKitError
from ..language import _
from . import real

CORPUS_DIR = Path(__file__).resolve().parent.parent / "data" / "corpus"
ASM_DIR = CORPUS_DIR / "asm"

#: build name -> (tool, flags before the source file)
BUILDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "clang-O2": ("clang", ("--target=riscv64-linux-gnu", "-march=rv64gc", "-O2", "-S")),
    "clang-O3-unroll": (
        "clang",
        (
            "--target=riscv64-linux-gnu",
            "-march=rv64gc",
            "-mcpu=sifive-u74",
            "-O3",
            "-funroll-loops",
            "-S",
        ),
    ),
    "gcc-O2": (
        "gcc-riscv",
        (
            "-march=rv64gc",
            "-mabi=lp64d",
            "-O2",
            "-S",
            "-fno-asynchronous-unwind-tables",
            "-fno-ident",
        ),
    ),
}
#: the cores every block is timed on (llvm-mca -mcpu names, which are also preset names)
CORES = ("rocket-rv64", "sifive-7-rv64")
#: instructions llvm-mca does not time: a block with one is left out of the comparison
UNTIMED = frozenset({"call", "tail", "fence", "fence.i", "fence.tso", "ebreak", "unimp"})


def sources() -> dict[str, Path]:
    """The kernels' C files by name (``dot``, ``hash``, ...)."""
    return {p.stem: p for p in sorted(CORPUS_DIR.glob("*.c"))}


def saved_asm(source: str, build: str) -> str:
    """The saved compiler output of one kernel file for one build."""
    path = ASM_DIR / f"{source}.{build}.s"
    if not path.is_file():
        raise LectureKitError(
            _("no saved output {name} (sources: {join})").format(
                name=path.name, join=", ".join(sources())
            )
        )
    return path.read_text(encoding="utf-8")


def command(source: str, build: str) -> list[str]:
    """The command that compiles ``source`` for ``build`` (with the installed tool)."""
    if build not in BUILDS:
        raise LectureKitError(
            _("unknown build {build!r}; builds: {join}").format(build=build, join=", ".join(BUILDS))
        )
    tool, flags = BUILDS[build]
    return [real.find_tool(tool), *flags, str(sources()[source]), "-o", "-"]


def compile_source(source: str, build: str) -> str:
    """Compile one kernel file now (needs clang or the RISC-V GCC)."""
    proc = subprocess.run(
        command(source, build), capture_output=True, timeout=300, encoding="utf-8", errors="replace"
    )
    if proc.returncode != 0:
        raise real.ToolFailedError(
            _("{build} on {source}.c failed: {strip}").format(
                build=build, source=source, strip=proc.stderr.strip()[:400]
            )
        )
    return proc.stdout


def tool_version(tool: str) -> str:
    """The first line of ``TOOL --version``."""
    out = subprocess.run([real.find_tool(tool), "--version"], capture_output=True, text=True)
    return out.stdout.strip().splitlines()[0]


def builds_info() -> dict:
    """The commands and compiler versions the saved outputs were made with."""
    return json.loads((CORPUS_DIR / "builds.json").read_text(encoding="utf-8"))


def rebuild() -> None:
    """Compile every kernel for every build and save the outputs and ``builds.json``."""
    ASM_DIR.mkdir(exist_ok=True)
    info = {"builds": {}, "versions": {}}
    for build, (tool, flags) in BUILDS.items():
        info["builds"][build] = [tool, *flags]
        info["versions"][tool] = tool_version(tool)
        for name in sources():
            (ASM_DIR / f"{name}.{build}.s").write_text(
                compile_source(name, build), encoding="utf-8"
            )
    text = json.dumps(info, indent=1, sort_keys=True) + "\n"
    (CORPUS_DIR / "builds.json").write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class Block:
    """One block cut from a saved output: ``kind`` is ``loop`` (an innermost loop; ``number``
    counts the function's loops from 1) or ``function`` (a function without a loop)."""

    source: str
    build: str
    function: str
    kind: str
    number: int
    text: str

    @property
    def name(self) -> str:
        where = f"loop{self.number}" if self.kind == "loop" else "body"
        return f"{self.source}.{self.build}:{self.function}:{where}"

    @property
    def body(self) -> str:
        """The instructions alone (what llvm-mca and lecturekit time)."""
        return real.instructions_only(self.text)

    @property
    def timed(self) -> bool:
        """Whether llvm-mca can time it (no call, tail call, fence, ...)."""
        from ..asm import parse

        return not any(i.opcode in UNTIMED for i in parse(self.body, notation="riscv"))

    @property
    def floating_point(self) -> bool:
        from ..asm import parse

        fp = ("fadd", "fmul", "fdiv")
        return any(
            i.op_class in fp or i.opcode in ("fld", "flw", "fsd", "fsw")
            for i in parse(self.body, notation="riscv")
        )


def blocks(timed_only: bool = True) -> list[Block]:
    """Every block of the corpus, in a fixed order (``timed_only``: those llvm-mca can time)."""
    out = []
    for source in sources():
        for build in BUILDS:
            asm = saved_asm(source, build)
            for function in real.functions(asm):
                found = real.loops(asm, function)
                if found:
                    for k, text in enumerate(found, start=1):
                        out.append(Block(source, build, function, "loop", k, text))
                else:
                    text = real.function_body(asm, function)
                    out.append(Block(source, build, function, "function", 0, text))
    return [b for b in out if b.timed] if timed_only else out


def saved_mca(block: Block, cpu: str) -> real.McaResult:
    """llvm-mca 14's saved timeline of ``block`` on ``cpu`` (one iteration)."""
    from ..asm import parse

    data = _mca_store()
    try:
        d = data["blocks"][block.name][cpu]
    except KeyError:
        raise LectureKitError(
            _("no saved llvm-mca result for {name} on {cpu}").format(name=block.name, cpu=cpu)
        ) from None
    return real.McaResult(
        cpu=cpu,
        cycles=d["cycles"],
        instructions=[i.text for i in parse(block.body, notation="riscv")],
        latency=d["latency"],
        dispatch=d["dispatch"],
        issue=d["dispatch"],
        executed=d["executed"],
        retired=d["executed"],
        dispatch_width=d["width"],
        command=data["command"] + [f"-mcpu={cpu}"],
    )


_STORE: dict = {}


def _mca_store() -> dict:
    if not _STORE:
        path = CORPUS_DIR / "mca.json"
        _STORE.update(json.loads(path.read_text(encoding="utf-8")))
    return _STORE


def save_mca() -> None:
    """Run llvm-mca on every timed block on both cores and save the timelines (``mca.json``)."""
    out: dict = {
        "llvm": tool_version("llvm-mca"),
        "command": ["llvm-mca", *real.mca_command("CPU")],
        "blocks": {},
    }
    out["command"] = [c for c in out["command"] if not c.startswith("-mcpu")]
    for block in blocks():
        entry = {}
        for cpu in CORES:
            r = real.run_mca(block.body, cpu)
            entry[cpu] = {
                "cycles": r.cycles,
                "width": r.dispatch_width,
                "latency": r.latency,
                "dispatch": r.dispatch,
                "executed": r.executed,
            }
        out["blocks"][block.name] = entry
    text = json.dumps(out, separators=(",", ":"), sort_keys=True)
    (CORPUS_DIR / "mca.json").write_text(text + "\n", encoding="utf-8")
    _STORE.clear()


__all__ = [
    "BUILDS",
    "Block",
    "CORES",
    "blocks",
    "builds_info",
    "compile_source",
    "rebuild",
    "saved_asm",
    "saved_mca",
    "save_mca",
    "sources",
]
