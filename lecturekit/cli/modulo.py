"""``lecturekit modulo FILE``: software-pipeline a loop by iterative modulo scheduling.

Human output: ResMII (each resource), RecMII (the binding recurrences), MII and the II found,
the schedule (cycle, stage, row per instruction), the modulo reservation table, and the
prologue, kernel and epilogue; ``--code`` prints the whole runnable program instead of the three
parts, ``--trace`` the scheduler's steps.

``--json`` (a contract: fields are added, never renamed): ``machine`` (``name``,
``issue_width``, ``units``), ``instructions`` (``index``, ``text``, ``unit``), ``edges``
(``src``, ``dst``, ``kind``, ``on``, ``latency``, ``distance``: the dependences the schedule
respects), ``res_mii``, ``rec_mii``, ``mii``, ``ii``, ``stage_count``, ``ops`` (``index``,
``cycle``, ``stage``, ``row``), ``unroll``, ``registers``, ``code_size``, ``prologue``,
``kernel``, ``epilogue`` (lists of lines of code), ``code`` (the whole program, or null),
``notes``, ``motion`` (per access moved past a pointer update: ``index``, ``register``,
``updates_later``, ``offset_change``), ``table`` (rows of the reservation table, one string
per column).
"""

from __future__ import annotations

import argparse

from .. import validate
from ..loops.modulo import modulo_schedule
from .common import format_table, print_json
from .unroll import add_loop_arguments, load_loop


def register(sub) -> None:
    p = sub.add_parser(
        "modulo",
        help="software pipelining: ResMII, RecMII, modulo schedule, prologue/kernel/epilogue",
        description="Software-pipeline a loop (a label and a backward branch to it) by "
        "iterative modulo scheduling.",
    )
    add_loop_arguments(p)
    p.add_argument(
        "--code", action="store_true", help="print the whole runnable program (default: off)"
    )
    p.add_argument(
        "--trace", action="store_true", help="print every step of the scheduler (default: off)"
    )
    p.add_argument(
        "--time-limit",
        "-t",
        type=validate.cli_float(0, 3600),
        default=10.0,
        metavar="S",
        help="seconds the scheduler may search before using one iteration's list schedule "
        "(default 10)",
    )
    p.add_argument(
        "--move-induction",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="loads and stores read the newest pointer value already computed, offsets "
        "rewritten (induction-variable motion: no modulo variable expansion for the pointer) "
        "(default: on; --no-move-induction gives the lecture's slide form, every access reading "
        "its own iteration's pointer)",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    loop = load_loop(args)
    r = modulo_schedule(
        loop,
        loop.machine,
        restrict=loop.restrict,
        time_limit=args.time_limit,
        move_induction=args.move_induction,
    )
    if args.json:
        data = r.to_dict()
        data["table"] = {
            "columns": [c for c, _ in r.table.columns],
            "rows": r.table.rows(),
        }
        print_json(data)
        return 0
    m = loop.machine
    print(f"machine: {m.name} ({m.description})")
    print()
    print("resources (ResMII):")
    for b in r.resources:
        print(f"  {b.describe()}")
    print(f"recurrences (RecMII = {r.rec_mii}):")
    for rec in r.recurrences[:5] or []:
        print(f"  {rec.describe(r.graph)}")
    if not r.recurrences:
        print("  none")
    elif len(r.recurrences) > 5:
        print(f"  ... and {len(r.recurrences) - 5} more")
    print(
        f"ResMII = {r.res_mii}, RecMII = {r.rec_mii}, MII = {r.mii}; II found = {r.ii}, "
        f"{r.stage_count} stage(s), kernel unrolled {r.unroll}x (modulo variable expansion)"
    )
    if r.schedule.info.get("timed_out"):
        print(
            f"time limit ({args.time_limit:g} s) reached: II {r.ii} is the best found, not proven "
            "the smallest (one iteration's schedule, no overlap)"
        )
    print()
    rows = [
        [f"I{k + 1}", ins.text, t, s, row]
        for k, (ins, t, s, row) in enumerate(
            zip(loop.body, r.schedule.start, r.stages, r.rows, strict=True)
        )
    ]
    print(format_table(["instr", "text", "cycle", "stage", "row"], rows))
    print()
    print(f"modulo reservation table (II = {r.ii}; I3/s1 = I3 in stage 1):")
    print(r.table.text())
    if args.trace:
        print()
        print("scheduler steps:")
        for step in r.trace:
            print(f"  {step.message}")
    print()
    if args.code:
        if r.code is None:
            print("no runnable code: " + "; ".join(r.notes))
        else:
            print(r.code.rstrip())
    else:
        for title, lines in (("prologue", r.prologue), ("kernel", r.kernel),
                             ("epilogue", r.epilogue)):  # fmt: skip
            print(f"{title}:")
            print("\n".join(lines) if lines else "    (empty)")
    for note in r.notes:
        print(f"note: {note}")
    return 0
