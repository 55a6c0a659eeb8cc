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
from ..language import _, pgettext
from ..loops.modulo import modulo_schedule
from .common import format_table, print_json
from .unroll import add_loop_arguments, load_loop


def register(sub) -> None:
    p = sub.add_parser(
        "modulo",
        help=_("software pipelining: ResMII, RecMII, modulo schedule, prologue/kernel/epilogue"),
        description=_(
            "Software-pipeline a loop (a label and a backward branch to it) by "
            "iterative modulo scheduling."
        ),
    )
    add_loop_arguments(p)
    p.add_argument(
        "--code", action="store_true", help=_("print the whole runnable program (default: off)")
    )
    p.add_argument(
        "--trace", action="store_true", help=_("print every step of the scheduler (default: off)")
    )
    p.add_argument(
        "--time-limit",
        "-t",
        type=validate.cli_float(0, 3600),
        default=10.0,
        metavar="S",
        help=_(
            "seconds the scheduler may search before using one iteration's list schedule "
            "(default 10)"
        ),
    )
    p.add_argument(
        "--move-induction",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_(
            "loads and stores read the newest pointer value already computed, offsets "
            "rewritten (induction-variable motion: no modulo variable expansion for the pointer) "
            "(default: on; --no-move-induction gives the lecture's slide form, every access "
            "reading its own iteration's pointer)"
        ),
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
            "columns": [c for c, _unused in r.table.columns],
            "rows": r.table.rows(),
        }
        print_json(data)
        return 0
    m = loop.machine
    print(_("machine: {name} ({description})").format(name=m.name, description=_(m.description)))
    print()
    print(_("resources (ResMII):"))
    for b in r.resources:
        print(f"  {b.describe()}")
    print(_("recurrences (RecMII = {rec_mii}):").format(rec_mii=r.rec_mii))
    for rec in r.recurrences[:5] or []:
        print(f"  {rec.describe(r.graph)}")
    if not r.recurrences:
        print(_("  none"))
    elif len(r.recurrences) > 5:
        print(_("  ... and {n} more").format(n=len(r.recurrences) - 5))
    print(
        _(
            "ResMII = {res_mii}, RecMII = {rec_mii}, MII = {mii}; II found = {ii}, "
            "{stage_count} stage(s), kernel unrolled {unroll}x (modulo variable "
            "expansion)"
        ).format(
            res_mii=r.res_mii,
            rec_mii=r.rec_mii,
            mii=r.mii,
            ii=r.ii,
            stage_count=r.stage_count,
            unroll=r.unroll,
        )
    )
    if r.schedule.info.get("timed_out"):
        print(
            _(
                "time limit ({time_limit:g} s) reached: II {ii} is the best found, not "
                "proven the smallest (one iteration's schedule, no overlap)"
            ).format(time_limit=args.time_limit, ii=r.ii)
        )
    print()
    rows = [
        [f"I{k + 1}", ins.text, t, s, row]
        for k, (ins, t, s, row) in enumerate(
            zip(loop.body, r.schedule.start, r.stages, r.rows, strict=True)
        )
    ]
    print(format_table([_("instr"), _("text"), _("cycle"), _("stage"), _("row")], rows))
    print()
    print(_("modulo reservation table (II = {ii}; I3/s1 = I3 in stage 1):").format(ii=r.ii))
    print(r.table.text())
    if args.trace:
        print()
        print(_("scheduler steps:"))
        for step in r.trace:
            print(f"  {step.message}")
    print()
    if args.code:
        if r.code is None:
            print(_("no runnable code: {notes}").format(notes="; ".join(r.notes)))
        else:
            print(r.code.rstrip())
    else:
        kernel = pgettext("software pipelining", "kernel")
        for title, lines in ((_("prologue"), r.prologue), (kernel, r.kernel),
                             (_("epilogue"), r.epilogue)):  # fmt: skip
            print(_("{part}:").format(part=title))
            print("\n".join(lines) if lines else _("    (empty)"))
    for note in r.notes:
        print(_("note: {note}").format(note=note))
    return 0
