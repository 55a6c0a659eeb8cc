"""``lecturekit compile FILE.c``: clang's RISC-V assembly for a C function (or its innermost
loop), its dependence graph and its pipeline simulation on a real-core preset."""

from __future__ import annotations

from ..asm import parse
from ..errors import LectureKitError
from ..target.deps import analyze, instruction_label
from ..target.machine import get_machine
from ..target.pipeline import simulate
from .common import format_table, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "compile",
        help="compile C for RISC-V with clang; assembly, dependence graph and simulation",
        description="Compile FILE.c for RV64GC with clang (-O2), cut out a function or its "
        "innermost loop, and show the assembly, its dependences and its pipeline simulation. "
        "clang targets riscv64-linux-gnu when a RISC-V C library is installed (so <math.h> "
        "works) and bare-metal riscv64-unknown-elf otherwise; the output says which. "
        "Needs clang (Debian/Ubuntu: apt-get install clang-14 llvm-14; macOS: brew install llvm; "
        "conda: conda install -c conda-forge clang llvm-tools).",
    )
    p.add_argument("file", metavar="FILE.c", help="a C source file")
    p.add_argument(
        "--function", "-f", metavar="NAME", help="the function to show (default: the first one)"
    )
    p.add_argument(
        "--block",
        choices=["function", "loop"],
        default="function",
        help="the whole function, or only its innermost loop (default: function)",
    )
    p.add_argument(
        "--cpu",
        default="sifive-u74",
        metavar="NAME",
        help="core clang tunes and schedules for, -mcpu (default: sifive-u74)",
    )
    p.add_argument(
        "--no-schedule",
        action="store_true",
        help="turn clang's machine schedulers off (default: on)",
    )
    p.add_argument(
        "--no-unroll", action="store_true", help="pass -fno-unroll-loops (default: unroll)"
    )
    p.add_argument(
        "--opt",
        choices=["-O0", "-O1", "-O2", "-O3", "-Os"],
        default="-O2",
        help="optimisation level (default: -O2)",
    )
    p.add_argument(
        "--machine",
        "-M",
        metavar="NAME|PATH",
        help="lecturekit machine for the graph and simulation (default: the preset for --cpu, "
        "e.g. sifive-7-rv64 for sifive-u74)",
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON, a stable contract (default: text)"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..target import real

    if not args.file.endswith(".c"):
        raise LectureKitError(f"expected a C file ending in .c, got {args.file!r}")
    compiled = real.compile_c(
        args.file,
        schedule=not args.no_schedule,
        unroll=not args.no_unroll,
        cpu=args.cpu,
        opt=args.opt,
    )
    if args.block == "loop":
        block = compiled.loop(args.function)
    else:
        block = compiled.function(args.function)
    machine = get_machine(args.machine or real.CPU_PRESETS.get(args.cpu, "sifive-7-rv64"))
    program = parse(real.instructions_only(block), notation="riscv")
    if len(program) == 0:
        raise LectureKitError("the function has no instructions")
    dg = analyze(program, machine)
    sim = simulate(program, machine)
    if args.json:
        data = {
            "command": compiled.command,
            "target": compiled.target,
            "assembly": block,
            "deps": dg.to_dict(),
            "schedule": sim.to_dict(),
        }
        print_json(data)
        return 0
    print(f"# {compiled.target}")
    print("$ " + " ".join(compiled.command))
    print(block.rstrip())
    print()
    print(f"dependences on {machine.name} (transitive reduction):")
    rows = [
        [instruction_label(e.src), instruction_label(e.dst), e.kind, e.on, e.latency]
        for e in dg.reduction()
        if e.kind != "CTRL"
    ]
    print(format_table(["from", "to", "kind", "on", "latency"], rows) if rows else "  none")
    print()
    rows = [[instruction_label(k), program[k].text, sim.issue[k], sim.finish[k]] for k in sim.order]
    print(format_table(["instr", "text", "issue", "finish"], rows))
    path, length = dg.critical_path()
    print()
    print(
        f"{sim.cycles} cycles on {machine.name}, {len(sim.stalls)} stall cycle(s); critical "
        f"path {' → '.join(instruction_label(k) for k in path)} ({length} cycles)"
    )
    return 0
