"""``lecturekit deps FILE``: every dependence of a block, with kind, register and latency."""

from __future__ import annotations

from itertools import islice

from ..language import _, ngettext
from ..target.deps import analyze, instruction_label
from .common import add_block_arguments, format_table, load_block, print_json

#: implied edges are marked (a transitive reduction) for blocks up to this length
MAX_REDUCTION = 2000
#: a longer block's list is printed by destination and stops after this many rows
MAX_LISTED = 50_000


def register(sub) -> None:
    p = sub.add_parser(
        "deps",
        help=_("dependence graph of a block (RAW/WAR/WAW with latencies)"),
        description=(
            _(
                "List every dependence of a block with its latency on the machine: "
                "registers and memory (may or must alias), the ones a longer path "
                "implies marked. On a block of more than {max_reduction:,} "
                "instructions the list is printed by destination, at most "
                "{max_listed:,} rows (--json lists them all)."
            ).format(max_reduction=MAX_REDUCTION, max_listed=MAX_LISTED)
        ),
    )
    add_block_arguments(p)
    p.set_defaults(func=run)


def _note(e, reduced) -> str:
    if e.via is not None:  # not an edge of the scheduler's graph
        return _("implied via {op}").format(op=instruction_label(e.via))
    if reduced is None or (e.src, e.dst) in reduced:
        return ""
    return _("implied")


def run(args) -> int:
    program, machine = load_block(args)
    dg = analyze(program, machine)
    if args.json:
        print_json(dg.to_dict())
        return 0
    print(
        _("machine: {name} ({description})").format(
            name=machine.name, description=_(machine.description)
        )
    )
    rows = [
        [instruction_label(k), ins.text, machine.timing(ins.op_class).unit]
        for k, ins in enumerate(program)
    ]
    print(format_table([_("instr"), _("text"), _("unit")], rows))
    print()
    # the transitive reduction costs O(instructions x edges): only for blocks a reader reads
    small = len(program) <= MAX_REDUCTION
    reduced = {(e.src, e.dst) for e in dg.reduction()} if small else None
    listed = dg.edges if small else list(islice(dg.iter_edges(), MAX_LISTED + 1))
    alias = {"may": _("may"), "must": _("must")}
    rows = [
        [
            instruction_label(e.src),
            instruction_label(e.dst),
            e.kind,
            _(e.on) if e.on else "",
            alias.get(e.alias, e.alias),
            e.latency,
            _note(e, reduced),
        ]
        for e in listed[:MAX_LISTED]
    ]
    head = [_("from"), _("to"), _("kind"), _("on"), _("alias"), _("latency"), _("note")]
    print(format_table(head, rows))
    if not small:
        print(
            _(
                "(more than {max_reduction:,} instructions: listed by destination; edges implied\n"
                " by a longer path through registers are not marked)"
            ).format(max_reduction=MAX_REDUCTION)
        )
    if len(listed) > MAX_LISTED:
        print(
            _("(the list stops after {max_listed:,} dependences; --json lists them all)").format(
                max_listed=MAX_LISTED
            )
        )
    path, length = dg.critical_path()
    print()
    shown = " -> ".join(map(instruction_label, path))
    if len(listed) > MAX_LISTED:
        print(
            _(
                "dependences; critical path {path}: no schedule is shorter than {length} cycles"
            ).format(path=shown, length=length)
        )
        return 0
    implied = sum(e.via is not None for e in listed)
    through = (
        _(" ({implied} ordered through a store between, so not in the scheduler's graph)").format(
            implied=implied
        )
        if implied
        else ""
    )
    n = len(dg.edges)
    print(
        ngettext(
            "{n} dependence{through}; critical path {path}: no schedule is shorter than "
            "{length} cycles",
            "{n} dependences{through}; critical path {path}: no schedule is shorter than "
            "{length} cycles",
            n,
        ).format(n=n, through=through, path=shown, length=length)
    )
    return 0
