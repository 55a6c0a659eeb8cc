"""``lecturekit mca FILE.s --cpu NAME``: llvm-mca's timeline of a RISC-V block on a real core
next to lecturekit's simulation on the matching preset, with every difference named."""

from __future__ import annotations

from .. import validate
from ..errors import LectureKitError
from ..language import _
from .common import print_json, read_source


def register(sub) -> None:
    from ..target.real import CPU_PRESETS

    p = sub.add_parser(
        "mca",
        help=_("llvm-mca on a real core vs lecturekit's model of it, side by side"),
        description=_(
            "Run llvm-mca on a RISC-V block and compare it with lecturekit's "
            "simulation on the matching preset, under the lecture's issue rules or llvm-mca's; "
            "with --iterations, also many passes of the block and whether either tool overlaps "
            "them. Needs llvm-mca (Debian/Ubuntu: apt-get install llvm-14; macOS: brew install "
            "llvm; conda: conda install -c conda-forge llvm-tools)."
        ),
    )
    p.add_argument(
        "file", metavar="FILE.s", help=_("RISC-V assembly (clang -S output or a bare block)")
    )
    p.add_argument(
        "--cpu",
        default="rocket-rv64",
        choices=sorted(CPU_PRESETS),
        metavar="NAME",
        help=_("llvm-mca -mcpu ({cpus}; default: rocket-rv64)").format(
            cpus=", ".join(sorted(CPU_PRESETS))
        ),
    )
    p.add_argument(
        "--function",
        "-f",
        metavar="NAME",
        help=_("in clang output, the function to take (default: the first one)"),
    )
    p.add_argument(
        "--block",
        choices=["all", "function", "loop"],
        default="all",
        help=_("every instruction in the file, one function, or its innermost loop (default: all)"),
    )
    p.add_argument(
        "--rules",
        choices=["lecture", "llvm-mca"],
        default="lecture",
        help=_(
            "lecturekit's issue rules: the lecture's pipeline, or llvm-mca's in-order model "
            "(write-back in issue order, no memory ordering, llvm-mca's choice of pipe) "
            "(default: lecture)"
        ),
    )
    p.add_argument(
        "--iterations",
        type=validate.cli_int(1, 1000),
        default=1,
        metavar="N",
        help=_(
            "also compare N back-to-back passes of the block (llvm-mca -iterations=N) and say "
            "whether either tool overlaps them (default: 1, one pass only)"
        ),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
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
        raise LectureKitError(_("{file} has no instructions").format(file=args.file))
    c = real.compare(text, args.cpu, rules=args.rules)
    many = None
    if args.iterations > 1:
        many = real.compare_iterations(text, args.cpu, args.iterations, args.rules)
    if args.json:
        data = c.to_dict()
        if many is not None:
            data["iterations"] = many.to_dict()
        print_json(data)
        return 0
    print(c.table())
    if many is not None:
        print()
        print(many.text())
    from ..asm import parse

    for note in parse(text, notation="riscv").notes:  # directives skipped, exits of the block
        print(_("note: {note}").format(note=note))
    print()
    print(_("lk = lecturekit, llvm = llvm-mca (its cycles + 1, counted from 1 as lecturekit does)"))
    return 0
