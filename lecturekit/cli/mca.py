"""``lecturekit mca FILE.s --cpu NAME``: llvm-mca's timeline of a RISC-V block on a real core
next to lecturekit's simulation on the matching preset, with every difference named."""

from __future__ import annotations

from ..errors import LectureKitError
from .common import print_json, read_source


def register(sub) -> None:
    from ..target.real import CPU_PRESETS

    p = sub.add_parser(
        "mca",
        help="llvm-mca on a real core vs lecturekit's model of it, side by side",
        description="Run llvm-mca (one iteration) on a RISC-V block and compare it with "
        "lecturekit's simulation on the matching preset. Needs llvm-mca (Debian/Ubuntu: "
        "apt-get install llvm-14; macOS: brew install llvm; conda: conda install -c "
        "conda-forge llvm-tools).",
    )
    p.add_argument(
        "file", metavar="FILE.s", help="RISC-V assembly (clang -S output or a bare block)"
    )
    p.add_argument(
        "--cpu",
        default="rocket-rv64",
        choices=sorted(CPU_PRESETS),
        metavar="NAME",
        help=f"llvm-mca -mcpu ({', '.join(sorted(CPU_PRESETS))}; default: rocket-rv64)",
    )
    p.add_argument(
        "--function",
        "-f",
        metavar="NAME",
        help="in clang output, the function to take (default: the first one)",
    )
    p.add_argument(
        "--block",
        choices=["all", "function", "loop"],
        default="all",
        help="every instruction in the file, one function, or its innermost loop (default: all)",
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON, a stable contract (default: text)"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..target import real

    text = read_source(args.file)
    if args.block == "function" or (args.function and args.block == "all"):
        text = real.function_body(text, args.function)
    elif args.block == "loop":
        text = real.loop_body(text, args.function)
    if not real.instructions_only(text).strip():
        raise LectureKitError(f"{args.file} has no instructions")
    c = real.compare(text, args.cpu)
    if args.json:
        print_json(c.to_dict())
        return 0
    print(c.table())
    from ..asm import parse

    for note in parse(text, notation="riscv").notes:  # directives skipped, exits of the block
        print(f"note: {note}")
    print()
    print("lk = lecturekit, llvm = llvm-mca (its cycles + 1, counted from 1 as lecturekit does)")
    return 0
