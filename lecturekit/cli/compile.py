"""``lecturekit compile FILE.c``: clang's RISC-V assembly for a C function (or its innermost
loop), its dependence graph and its pipeline simulation on a real-core preset."""

from __future__ import annotations

from ..asm import parse
from ..errors import LectureKitError
from ..language import _
from ..target.deps import analyze, instruction_label
from ..target.machine import get_machine
from ..target.pipeline import simulate
from .common import format_table, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "compile",
        help=_("compile C for RISC-V with clang; assembly, dependence graph and simulation"),
        description=_(
            "Compile FILE.c for RV64GC with clang (-O2), cut out a function or its "
            "innermost loop, and show the assembly, its dependences and its pipeline simulation. "
            "clang targets riscv64-linux-gnu when a RISC-V C library is installed (so <math.h> "
            "works) and bare-metal riscv64-unknown-elf otherwise; the output says which. "
            "Needs clang (Debian/Ubuntu: apt-get install clang-14 llvm-14; macOS: brew install "
            "llvm; conda: conda install -c conda-forge clang llvm-tools)."
        ),
    )
    p.add_argument("file", metavar="FILE.c", help=_("a C source file"))
    p.add_argument(
        "--function", "-f", metavar="NAME", help=_("the function to show (default: the first one)")
    )
    p.add_argument(
        "--block",
        choices=["function", "loop"],
        default="function",
        help=_("the whole function, or only its innermost loop (default: function)"),
    )
    p.add_argument(
        "--cpu",
        default="sifive-u74",
        metavar="NAME",
        help=_("core clang tunes and schedules for, -mcpu (default: sifive-u74)"),
    )
    p.add_argument(
        "--no-schedule",
        action="store_true",
        help=_("turn clang's machine schedulers off (default: on)"),
    )
    p.add_argument(
        "--no-unroll", action="store_true", help=_("pass -fno-unroll-loops (default: unroll)")
    )
    p.add_argument(
        "--opt",
        choices=["-O0", "-O1", "-O2", "-O3", "-Os"],
        default="-O2",
        help=_("optimisation level (default: -O2)"),
    )
    p.add_argument(
        "--machine",
        "-M",
        metavar="NAME|PATH",
        help=_(
            "lecturekit machine for the graph and simulation (default: the preset for --cpu, "
            "e.g. sifive-7-rv64 for sifive-u74)"
        ),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..target import real

    if not args.file.endswith(".c"):
        raise LectureKitError(
            _("expected a C file ending in .c, got {file!r}").format(file=args.file)
        )
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
        raise LectureKitError(_("the function has no instructions"))
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
    print(_("dependences on {name} (transitive reduction):").format(name=machine.name))
    rows = [
        [
            instruction_label(e.src),
            instruction_label(e.dst),
            e.kind,
            _(e.on) if e.on else "",
            e.latency,
        ]
        for e in dg.reduction()
        if e.kind != "CTRL"
    ]
    head = [_("from"), _("to"), _("kind"), _("on"), _("latency")]
    print(format_table(head, rows) if rows else _("  none"))
    print()
    rows = [[instruction_label(k), program[k].text, sim.issue[k], sim.finish[k]] for k in sim.order]
    print(format_table([_("instr"), _("text"), _("issue"), _("finish")], rows))
    path, length = dg.critical_path()
    print()
    print(
        _(
            "{cycles} cycles on {name}, {n_stalls} stall cycle(s); critical path "
            "{join} ({length} cycles)"
        ).format(
            cycles=sim.cycles,
            name=machine.name,
            n_stalls=len(sim.stalls),
            join=" → ".join(instruction_label(k) for k in path),
            length=length,
        )
    )
    return 0
