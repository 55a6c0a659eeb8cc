"""``lecturekit simulate FILE``: the pipeline table of a block run in order, with every stall."""

from __future__ import annotations

from .. import validate
from ..errors import LectureKitError
from ..language import _
from ..target.deps import analyze, instruction_label
from ..target.pipeline import simulate
from .common import add_block_arguments, format_table, load_block, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "simulate",
        help=_("cycle-by-cycle pipeline table of a block, stalls and their causes"),
        description=_("Run a block through an in-order pipeline, cycle by cycle."),
    )
    add_block_arguments(p)
    p.add_argument(
        "--order",
        metavar="I,J,...",
        help=_(
            "issue the instructions in this order (1-based numbers, e.g. 1,3,2,4; "
            "default: program order)"
        ),
    )
    p.add_argument(
        "--forwarding",
        choices=["on", "off"],
        help=_("override the machine's forwarding (default: as the machine has it)"),
    )
    p.add_argument(
        "--rules",
        choices=["lecture", "llvm-mca"],
        help=_(
            "override the machine's issue rules: the lecture's pipeline, or llvm-mca's "
            "in-order model (write-back in issue order, no memory ordering) (default: as the "
            "machine has them)"
        ),
    )
    p.add_argument(
        "--view",
        choices=["stages", "timeline", "both"],
        default="both",
        help=_(
            "cycles × stages (as on the slides), an instructions × cycles timeline, or both "
            "(default both)"
        ),
    )
    p.add_argument(
        "--time-limit",
        "-t",
        type=validate.cli_float(0, 3600),
        default=60.0,
        metavar="S",
        help=_("seconds the simulation may take before it stops with an error (default 60)"),
    )
    p.set_defaults(func=run)


def parse_order(text: str | None, n: int) -> list[int] | None:
    if text is None:
        return None
    try:
        order = [int(part) - 1 for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise LectureKitError(
            _("--order takes comma-separated instruction numbers, got {text!r}").format(text=text)
        ) from None
    if sorted(order) != list(range(n)):
        raise LectureKitError(
            _("--order must list each of the instructions 1..{n} exactly once").format(n=n)
        )
    return order


#: the instructions x cycles timeline is printed for blocks up to this length
MAX_TIMELINE = 500


def run(args) -> int:
    program, machine = load_block(args)
    if args.forwarding:
        machine = machine.with_options(forwarding=args.forwarding == "on")
    if args.rules:
        machine = machine.with_options(issue_rules=args.rules)
    order = parse_order(args.order, len(program))
    sim = simulate(program, machine, order, time_limit=args.time_limit)
    if args.json:
        data = analyze(program, machine).to_dict()
        data["schedule"] = sim.to_dict()
        print_json(data)
        return 0
    from ..viz.text import stage_table_text, timeline_text

    print(
        _("machine: {name} ({description}); {issue_rules} issue rules").format(
            name=machine.name, description=_(machine.description), issue_rules=machine.issue_rules
        )
    )
    if args.view in ("stages", "both"):
        print()
        print(stage_table_text(sim))
    if args.view in ("timeline", "both"):
        print()
        if len(program) <= MAX_TIMELINE:
            print(timeline_text(sim))
        else:  # instructions x cycles grows with the square of the block
            print(
                _(
                    "(timeline not drawn: {n:,} instructions; it is drawn for "
                    "blocks of at most {max_timeline:,})"
                ).format(n=len(program), max_timeline=MAX_TIMELINE)
            )
    print()
    rows = [[instruction_label(k), program[k].text, sim.issue[k], sim.finish[k]] for k in sim.order]
    print(format_table([_("instr"), _("text"), _("issue"), _("finish")], rows))
    print()
    counts = ", ".join(f"{n} {_(cause)}" for cause, n in sim.stall_counts().items())
    stalls = (
        _("{n} stall cycle(s) ({counts})").format(n=len(sim.stalls), counts=counts)
        if sim.stalls
        else _("no stalls")
    )
    print(_("{cycles} cycles, {stalls}").format(cycles=sim.cycles, stalls=stalls))
    return 0
