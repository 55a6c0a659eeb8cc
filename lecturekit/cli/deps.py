"""``lecturekit deps FILE``: every dependence of a block, with kind, register and latency."""

from __future__ import annotations

from ..target.deps import analyze, instruction_label
from .common import add_block_arguments, format_table, load_block, print_json

#: implied edges are marked (a transitive reduction) for blocks up to this length
MAX_REDUCTION = 2000


def register(sub) -> None:
    p = sub.add_parser(
        "deps",
        help="dependence graph of a block (RAW/WAR/WAW with latencies)",
        description="List every dependence of a block with its latency on the machine.",
    )
    add_block_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    program, machine = load_block(args)
    dg = analyze(program, machine)
    if args.json:
        print_json(dg.to_dict())
        return 0
    print(f"machine: {machine.name} ({machine.description})")
    rows = [
        [instruction_label(k), ins.text, machine.timing(ins.op_class).unit]
        for k, ins in enumerate(program)
    ]
    print(format_table(["instr", "text", "unit"], rows))
    print()
    # the transitive reduction costs O(instructions x edges): only for blocks a reader reads
    small = len(program) <= MAX_REDUCTION
    reduced = {(e.src, e.dst) for e in dg.reduction()} if small else None
    rows = [
        [
            instruction_label(e.src),
            instruction_label(e.dst),
            e.kind,
            e.on,
            e.latency,
            "" if reduced is None or (e.src, e.dst) in reduced else "implied",
        ]
        for e in dg.edges
    ]
    print(format_table(["from", "to", "kind", "on", "latency", "note"], rows))
    if not small:
        print(f"(implied edges not marked: more than {MAX_REDUCTION:,} instructions)")
    path, length = dg.critical_path()
    print()
    print(
        f"{len(dg.edges)} dependence{'' if len(dg.edges) == 1 else 's'}; "
        f"critical path {' -> '.join(map(instruction_label, path))}: "
        f"no schedule is shorter than {length} cycles"
    )
    return 0
