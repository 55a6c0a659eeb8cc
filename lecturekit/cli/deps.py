"""``lecturekit deps FILE``: every dependence of a block, with kind, register and latency."""

from __future__ import annotations

from itertools import islice

from ..target.deps import analyze, instruction_label
from .common import add_block_arguments, format_table, load_block, print_json

#: implied edges are marked (a transitive reduction) for blocks up to this length
MAX_REDUCTION = 2000
#: a longer block's list is printed by destination and stops after this many rows
MAX_LISTED = 50_000


def register(sub) -> None:
    p = sub.add_parser(
        "deps",
        help="dependence graph of a block (RAW/WAR/WAW with latencies)",
        description=(
            "List every dependence of a block with its latency on the machine: registers and "
            "memory (may or must alias), the ones a longer path implies marked. On a block of "
            f"more than {MAX_REDUCTION:,} instructions the list is printed by destination, at "
            f"most {MAX_LISTED:,} rows (--json lists them all)."
        ),
    )
    add_block_arguments(p)
    p.set_defaults(func=run)


def _note(e, reduced) -> str:
    if e.via is not None:  # not an edge of the scheduler's graph
        return f"implied via {instruction_label(e.via)}"
    if reduced is None or (e.src, e.dst) in reduced:
        return ""
    return "implied"


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
    listed = dg.edges if small else list(islice(dg.iter_edges(), MAX_LISTED + 1))
    rows = [
        [
            instruction_label(e.src),
            instruction_label(e.dst),
            e.kind,
            e.on,
            e.alias,
            e.latency,
            _note(e, reduced),
        ]
        for e in listed[:MAX_LISTED]
    ]
    print(format_table(["from", "to", "kind", "on", "alias", "latency", "note"], rows))
    if not small:
        print(f"(more than {MAX_REDUCTION:,} instructions: listed by destination; edges implied")
        print(" by a longer path through registers are not marked)")
    if len(listed) > MAX_LISTED:
        print(f"(the list stops after {MAX_LISTED:,} dependences; --json lists them all)")
    path, length = dg.critical_path()
    print()
    n = len(dg.edges)
    count = f"{n} dependence{'' if n == 1 else 's'}" if len(listed) <= MAX_LISTED else "dependences"
    implied = sum(e.via is not None for e in listed)
    through = (
        f" ({implied} ordered through a store between, so not in the scheduler's graph)"
        if implied and len(listed) <= MAX_LISTED
        else ""
    )
    print(
        f"{count}{through}; critical path {' -> '.join(map(instruction_label, path))}: "
        f"no schedule is shorter than {length} cycles"
    )
    return 0
