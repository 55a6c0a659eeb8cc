"""Plain-text views: the slides' stage table, an llvm-mca-like timeline, schedules and edges.

Everything here is derived from what the algorithms return (a
:class:`~lecturekit.target.pipeline.SimResult`, a :class:`~lecturekit.core.Schedule`, a
:class:`~lecturekit.target.deps.DependenceGraph`); nothing is recomputed. No matplotlib needed, so
the CLI and the tests can use it too.

The stage table (:func:`stage_table_text`) has a row per cycle and a column per stage, like the
lecture's tables; a cell names the instruction(s) in that stage. A cell marked ``*`` is an
instruction *held* in that stage because of a hazard (a stall, cause listed under the table);
``+`` marks one held because an older instruction ahead of it is held (in-order issue) or the
next stage is full.

The timeline (:func:`timeline_text`) has a row per instruction (in issue order) and a column per
cycle, one character per cell; see :data:`TIMELINE_LEGEND`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..language import N_, _, display_width, ljust, ngettext, rjust

#: Characters of :func:`timeline_text`, in the order they are printed in the legend (the
#: meanings in English; ``_()`` gives them in the language spoken).
TIMELINE_CHARS = {
    "D": N_("in a stage before the read stage (not issued yet): ID on lecture, IF on classic5"),
    "=": N_("held there: a stall (hazard), or waiting behind a stalled instruction"),
    "R": N_("in the read stage: issues and reads its operands (RR on lecture, ID on classic5)"),
    "e": N_("executing, more execute cycles to come (e.g. a multiply)"),
    "E": N_("last cycle in the execute stage"),
    "-": N_("in another stage after issue (e.g. MEM between EX and WB)"),
    "W": N_("in the write stage: the result is written to the register file"),
    ".": N_("not in the pipeline (not entered yet, or done)"),
}

#: The one-line legend, machine-independent (:func:`timeline_legend` names the machine's stages;
#: :data:`TIMELINE_CHARS` says it in full).
TIMELINE_LEGEND = N_(
    "legend: D in a stage before the read stage, not issued · = held (stall) · "
    "R read operands (issue) · e executing · E last execute cycle · - other stage (e.g. MEM) · "
    "W write back · . not in the pipeline"
)


def timeline_legend(machine) -> str:
    """The legend printed under a timeline on ``machine``, naming its stages: ``D`` is a cycle in
    a stage before the read stage (``ID`` on ``lecture``, ``IF`` on ``classic5``, where an
    instruction waiting to issue is held), ``R`` the read stage, ``W`` the write stage."""
    before = machine.stages[: machine.stages.index(machine.read_stage)]
    where = "/".join(before) if before else _("a stage before the read stage")
    return _(
        "legend: D in {where}, not issued yet · = held (stall) · "
        "R in {read}: reads operands (issue) · e executing · "
        "E last execute cycle · - other stage (e.g. MEM) · W in {write}: "
        "writes back · . not in the pipeline"
    ).format(where=where, read=machine.read_stage, write=machine.write_stage)


# -- names -------------------------------------------------------------------------------------
def stall_cycles(n: int) -> str:
    """``1 stall cycle``, ``4 stall cycles``."""
    return ngettext("{n} stall cycle", "{n} stall cycles", n).format(n=n)


def label(k: int) -> str:
    """Instruction ``k`` (0-based) is called I(k+1), as a lecturer numbers lines."""
    return f"I{k + 1}"


def register_name(program, k: int, reg: str) -> str:
    """``reg`` as instruction ``k`` writes it: ``$t2`` in MIPS notation, ``t2`` in three-address."""
    if reg.startswith("mem") or reg.startswith("unit") or reg.startswith("$"):
        return reg
    notation = getattr(program[k], "notation", "mips") if 0 <= k < len(program) else "mips"
    return f"${reg}" if notation == "mips" else reg


def _last_cycle_in(sim, k: int, stage: str) -> int | None:
    cycles = [c for c, s in sim.where.get(k, {}).items() if s == stage]
    return max(cycles) if cycles else None


# -- held cells and stall sentences ------------------------------------------------------------
def held_cells(sim) -> dict[tuple[int, int], object]:
    """Cells ``(cycle, index)`` where an instruction is in the same stage as in the cycle before
    (not counting planned extra cycles in the execute stage), mapped to the
    :class:`~lecturekit.target.pipeline.Stall` that held it, or ``None`` when it was held behind an
    older instruction (in-order issue, issue width) or by a full next stage."""
    stall_at = {(s.cycle, s.index): s for s in sim.stalls}
    execute = sim.machine.execute_stage
    held: dict[tuple[int, int], object] = {}
    for k, row in sim.where.items():
        for c, stage in row.items():
            if stage != execute and row.get(c - 1) == stage:
                held[(c, k)] = stall_at.get((c, k))
    for (c, k), s in stall_at.items():  # a stall before entering the pipe at all (rare)
        if sim.where.get(k, {}).get(c) is not None:
            held.setdefault((c, k), s)
    return held


def stall_reason(sim, stall, *, short: bool = False) -> str:
    """Why ``stall`` happened, e.g. ``RAW on $t2, written by I1 in cycle 4``.

    ``short`` gives a compact form for notes beside a drawn table, e.g.
    ``RAW on $t2 (I1 writes in cycle 4)``.
    """
    m = sim.machine
    prog = sim.program
    who = stall.waits_for
    other = label(who) if who is not None else _("an older instruction")
    if stall.cause == "RAW":
        reg = register_name(prog, stall.index, stall.on)
        if who is None:
            return _("RAW on {reg}").format(reg=reg)
        pair = (prog[who].op_class, prog[stall.index].op_class)
        if pair in m.latency_pairs:  # a textbook table, not the stage positions, sets the wait
            n, at = m.latency_pairs[pair], sim.issue[who]
            if short:
                return _(
                    "RAW on {reg} ({producer} -> {consumer}: {n} after {other} issues)"
                ).format(reg=reg, producer=pair[0], consumer=pair[1], n=n, other=other)
            return _(
                "RAW on {reg}: the machine's table puts {producer} -> {consumer} {n} cycles "
                "apart, and {other} issued in cycle {at}"
            ).format(reg=reg, producer=pair[0], consumer=pair[1], n=n, other=other, at=at)
        if m.forwarding:
            timing = m.timing(prog[who].op_class)
            stage = timing.result_stage or m.execute_stage
            at = _last_cycle_in(sim, who, stage)
            if short:
                return _("RAW on {reg} ({other} has it after {stage}, cycle {at})").format(
                    reg=reg, other=other, stage=stage, at=at
                )
            return _(
                "RAW on {reg}, produced by {other} at the end of {stage} in cycle {at} (forwarded)"
            ).format(reg=reg, other=other, stage=stage, at=at)
        at = _last_cycle_in(sim, who, m.write_stage)
        if short:
            return _("RAW on {reg} ({other} writes in cycle {at})").format(
                reg=reg, other=other, at=at
            )
        return _("RAW on {reg}, written by {other} in cycle {at}").format(
            reg=reg, other=other, at=at
        )
    if stall.cause == "WAW":
        reg = register_name(prog, stall.index, stall.on)
        at = _last_cycle_in(sim, who, m.write_stage) if who is not None else None
        if at is not None:
            if short:
                return _("WAW on {reg} (after {other}'s write in cycle {at})").format(
                    reg=reg, other=other, at=at
                )
            return _("WAW on {reg}: its write must land after {other}'s in cycle {at}").format(
                reg=reg, other=other, at=at
            )
        if short:
            return _("WAW on {reg} (after {other}'s write)").format(reg=reg, other=other)
        return _("WAW on {reg}: its write must land after {other}'s").format(reg=reg, other=other)
    if stall.cause == "memory":
        stage = m.memory_stage or m.execute_stage
        at = _last_cycle_in(sim, who, stage) if who is not None else None
        if at is not None:
            if short:
                return _("memory order (after {other} (in {stage} in cycle {at}))").format(
                    other=other, stage=stage, at=at
                )
            return _(
                "memory order: {access} may alias {other}'s access (in {stage} in cycle {at})"
            ).format(access=stall.on, other=other, stage=stage, at=at)
        if short:
            return _("memory order (after {other})").format(other=other)
        return _("memory order: {access} may alias {other}'s access").format(
            access=stall.on, other=other
        )
    if stall.cause == "write-back":  # llvm-mca's rule: results written back in issue order
        at = sim.finish.get(who) if who is not None else None
        if at is not None:
            if short:
                return _("write-back in order (after {other} (cycle {at}))").format(
                    other=other, at=at
                )
            return _(
                "write-back in issue order: its result may not be ready before {other}'s "
                "(cycle {at})"
            ).format(other=other, at=at)
        if short:
            return _("write-back in order (after {other})").format(other=other)
        return _("write-back in issue order: its result may not be ready before {other}'s").format(
            other=other
        )
    if stall.cause == "structural":
        unit = stall.on.removeprefix("unit ").strip()
        at = _last_cycle_in(sim, who, m.execute_stage) if who is not None else None
        if at is not None:
            if short:
                return _("unit {unit} busy ({other} until cycle {at})").format(
                    unit=unit, other=other, at=at
                )
            return _("structural: unit {unit} is busy with {other} until cycle {at}").format(
                unit=unit, other=other, at=at
            )
        if short:
            return _("unit {unit} busy ({other})").format(unit=unit, other=other)
        return _("structural: unit {unit} is busy with {other}").format(unit=unit, other=other)
    if who is not None:
        return _("{cause} on {on} ({other})").format(cause=stall.cause, on=stall.on, other=other)
    return _("{cause} on {on}").format(cause=stall.cause, on=stall.on)


def describe_stall(sim, stall) -> str:
    """One sentence, e.g. ``cycle 3: I2 waits in ID: RAW on $t2, written by I1 in cycle 4``."""
    stage = sim.where.get(stall.index, {}).get(stall.cycle)
    values = {
        "cycle": stall.cycle,
        "label": label(stall.index),
        "stage": stage,
        "reason": stall_reason(sim, stall),
    }
    if stage:
        return _("cycle {cycle}: {label} waits in {stage}: {reason}").format(**values)
    return _("cycle {cycle}: {label} waits (not in the pipeline yet): {reason}").format(**values)


def _blocked_reason(sim, k: int, c: int) -> str:
    pos = sim.order.index(k)
    if pos > 0:
        ahead = sim.order[pos - 1]
        if sim.issue.get(ahead, 0) >= c:
            return _("behind {label} (instructions issue in order)").format(label=label(ahead))
    return _("the issue width ({width}) is used up this cycle").format(
        width=sim.machine.issue_width
    )


def describe_cycle(sim, cycle: int, *, kinds: bool = False) -> list:
    """What happens in ``cycle``: instructions entering the pipeline, issues, stalls (with
    causes), waits behind others, writes. With ``kinds``, ``(kind, sentence)`` pairs, kind one
    of ``enters``, ``issues``, ``stall``, ``waits``, ``executes``, ``writes`` (a widget colours
    by it, whatever the language of the sentence)."""
    snap = next((s for s in sim.snapshots if s.cycle == cycle), None)
    if snap is None:
        return []
    m = sim.machine
    events: list[tuple[str, str]] = []
    for k in sim.order:
        row = sim.where.get(k, {})
        if cycle in row and (cycle - 1) not in row and row[cycle] != m.read_stage:
            text = _("cycle {cycle}: {label} enters {stage}")
            events.append(("enters", text.format(cycle=cycle, label=label(k), stage=row[cycle])))
    for k in snap.issued:
        text = _("cycle {cycle}: {label} issues: reads its operands in {stage}")
        events.append(("issues", text.format(cycle=cycle, label=label(k), stage=m.read_stage)))
    for s in snap.stalls:
        events.append(("stall", describe_stall(sim, s)))
    for k in snap.blocked:
        stage = sim.where.get(k, {}).get(cycle)
        if stage:  # (not yet in the pipeline at all: nothing to say)
            text = _("cycle {cycle}: {label} waits in {stage} {reason}").format(
                cycle=cycle, label=label(k), stage=stage, reason=_blocked_reason(sim, k, cycle)
            )
            events.append(("waits", text))
    for k in snap.stages.get(m.execute_stage, []):
        if m.execute_stage != m.read_stage:
            text = _("cycle {cycle}: {label} executes in {stage}")
            events.append(
                ("executes", text.format(cycle=cycle, label=label(k), stage=m.execute_stage))
            )
    for k in snap.stages.get(m.write_stage, []):
        regs = ", ".join(register_name(sim.program, k, r) for r in sim.program[k].writes())
        if regs:
            text = _("cycle {cycle}: {label} writes {regs} in {stage}").format(
                cycle=cycle, label=label(k), regs=regs, stage=m.write_stage
            )
            events.append(("writes", text))
    return events if kinds else [text for _kind, text in events]


def stall_summary(sim) -> list[str]:
    """One line per run of stall cycles, from ``sim.stalls``, e.g.
    ``I2: 2 stall cycles (3-4) in ID: RAW on $t2, written by I1 in cycle 4``."""
    runs: list[list] = []
    for s in sorted(sim.stalls, key=lambda s: (s.index, s.cycle)):
        key = (s.index, s.cause, s.on, s.waits_for)
        if runs and runs[-1][0] == key and runs[-1][2] == s.cycle - 1:
            runs[-1][2] = s.cycle
        else:
            runs.append([key, s, s.cycle])
    runs.sort(key=lambda r: r[1].cycle)
    lines = []
    for (k, *_rest), first, last in runs:
        n = last - first.cycle + 1
        span = f"{first.cycle}" if n == 1 else f"{first.cycle}-{last}"
        stage = sim.where.get(k, {}).get(first.cycle, "")
        values = {
            "label": label(k),
            "stalls": stall_cycles(n),
            "span": span,
            "stage": stage,
            "reason": stall_reason(sim, first),
        }
        if stage:
            lines.append(_("{label}: {stalls} ({span}) in {stage}: {reason}").format(**values))
        else:
            lines.append(_("{label}: {stalls} ({span}): {reason}").format(**values))
    return lines


# -- the stage table ---------------------------------------------------------------------------
def stage_rows_text(
    rows: Sequence[Mapping[str, Sequence[int]]],
    stages: Sequence[str],
    *,
    held: Mapping[tuple[int, int], object] | None = None,
    names: Mapping[int, str] | None = None,
    notes: Mapping[int, str] | None = None,
) -> str:
    """A cycles × stages table from plain rows (row ``c-1`` maps stage -> instruction indices).

    ``held`` marks cells ``(cycle, index)`` (``*`` when the value is a stall, ``+`` when
    ``None``); ``names`` overrides the I1, I2 labels; ``notes`` adds text after a cycle's row.
    Used for simulated tables and for tables typed in by hand (e.g. as a slide shows them).
    Columns are measured in display columns (a Chinese character takes two).
    """
    held = held or {}
    names = names or {}

    def cell(c: int, ks: Sequence[int]) -> str:
        parts = []
        for k in ks:
            mark = ""
            if (c, k) in held:
                mark = "*" if held[(c, k)] is not None else "+"
            parts.append(names.get(k, label(k)) + mark)
        return ",".join(parts)

    body = [[str(c)] + [cell(c, row.get(s, [])) for s in stages] for c, row in enumerate(rows, 1)]
    head = [_("cycle"), *stages]
    widths = [max(display_width(r[i]) for r in [head, *body]) for i in range(len(head))]
    widths = [max(w, 4) for w in widths]

    def fmt(r: list[str]) -> str:
        return (
            rjust(r[0], widths[0])
            + " | "
            + " | ".join(ljust(x, w) for x, w in zip(r[1:], widths[1:], strict=True))
        ).rstrip()

    lines = [fmt(head), "-" * display_width(fmt(head).rstrip())]
    for c, r in enumerate(body, 1):
        line = fmt(r)
        if notes and notes.get(c):
            line = ljust(line, display_width(lines[0])) + "   " + notes[c]
        lines.append(line)
    return "\n".join(lines)


def stage_table_text(sim, upto_cycle: int | None = None, *, listing: bool = True) -> str:
    """The slides' table for a simulation: a row per cycle, a column per stage.

    ``*`` marks an instruction held by a stall (causes listed under the table), ``+`` one held
    behind it. ``listing`` prints the instructions (I1 = ...) above the table.
    ``upto_cycle`` stops after that cycle (to show the table growing).
    """
    last = sim.cycles if upto_cycle is None else max(0, min(upto_cycle, sim.cycles))
    rows = sim.stage_table()[:last]
    held = {ck: s for ck, s in held_cells(sim).items() if ck[0] <= last}
    lines = []
    if listing:
        lines += [f"{label(k)}  {ins.text or ins}" for k, ins in enumerate(sim.program)]
        lines.append("")
    lines.append(stage_rows_text(rows, sim.machine.stages, held=held))
    stalls = [s for s in sim.stalls if s.cycle <= last]
    if upto_cycle is None or last >= sim.cycles:
        lines.append(
            _("{cycles} cycles on {machine}, {stalls}").format(
                cycles=sim.cycles, machine=sim.machine.name, stalls=stall_cycles(len(sim.stalls))
            )
        )
    marks = []
    if any(v is not None for v in held.values()):
        marks.append(_("* held by a stall"))
    if any(v is None for v in held.values()):
        marks.append(_("+ held behind an older instruction (in order) or a full stage"))
    if marks:
        lines.append("   ".join(marks))
    for s in stalls:
        lines.append("  " + describe_stall(sim, s))
    return "\n".join(lines)


# -- the timeline ------------------------------------------------------------------------------
def timeline_chars(sim) -> dict[int, str]:
    """Instruction index -> its row of timeline characters, one per cycle 1..cycles."""
    m = sim.machine
    r = m.index(m.read_stage)
    held = held_cells(sim)
    rows = {}
    for k in sim.order:
        row = sim.where.get(k, {})
        chars = []
        for c in range(1, sim.cycles + 1):
            stage = row.get(c)
            if stage is None:
                ch = "."
            elif m.index(stage) < r:
                ch = "=" if (c, k) in held else "D"
            elif stage == m.read_stage and stage != m.execute_stage:
                ch = "R"
            elif stage == m.execute_stage:
                ch = "E" if row.get(c + 1) != stage else "e"
            elif stage == m.write_stage:
                ch = "W"
            else:
                ch = "-"
            chars.append(ch)
        rows[k] = "".join(chars)
    return rows


def timeline_text(sim, *, legend: bool = True, stalls: bool = True) -> str:
    """An llvm-mca-like timeline: a row per instruction (issue order), a column per cycle.

    The characters are :data:`TIMELINE_CHARS`, derived from ``sim.where`` (which stage each
    instruction is in, per cycle) and ``sim.stalls``; under the table come the legend and the
    stall summary (:func:`stall_summary`).
    """
    n = sim.cycles
    rows = timeline_chars(sim)
    cycle = _("cycle")
    width = max([len(label(k)) for k in sim.order] + [display_width(cycle)])
    pad = " " * (width + 2)
    tens = "".join(str(c // 10 % 10) if c % 10 == 0 else " " for c in range(1, n + 1))
    ones = "".join(str(c % 10) for c in range(1, n + 1))
    m = sim.machine
    lines = [
        _("timeline on {machine} ({stages}): {cycles} cycles, {stalls}").format(
            machine=m.name,
            stages=" ".join(m.stages),
            cycles=n,
            stalls=stall_cycles(len(sim.stalls)),
        ),
    ]
    if tens.strip():
        lines.append(pad + tens)
    lines.append(ljust(cycle, width + 2) + ones)
    for k in sim.order:
        ins = sim.program[k]
        lines.append(f"{label(k).ljust(width)}  {rows[k]}   {ins.text or ins}")
    if legend:
        lines.append(timeline_legend(m))
    if stalls:
        summary = stall_summary(sim)
        lines.extend([_("stalls:")] + ["  " + s for s in summary] if summary else [_("no stalls")])
    return "\n".join(lines)


# -- tables ----------------------------------------------------------------------------------
def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: Sequence[int] = ()
) -> str:
    """A plain aligned table: a header line, then a row per line, columns two spaces apart;
    the columns numbered in ``right`` are right-aligned (numbers). Widths are display columns,
    so a row with Chinese cells (``通义千问``) lines up with the others."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(display_width(r[j]) for r in cells) for j in range(len(headers))]

    def fmt(r: list[str]) -> str:
        return "  ".join(
            rjust(x, w) if j in right else ljust(x, w)
            for j, (x, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()

    return "\n".join(fmt(r) for r in cells)


# -- schedules and dependences -----------------------------------------------------------------
def schedule_table_text(schedule, *, reasons: bool = True) -> str:
    """A core :class:`~lecturekit.core.Schedule` as a table, one row per operation in issue
    order: name, issue (start) cycle, finish cycle, text, and (if known) what set its start."""
    g = schedule.graph
    order = list(schedule.order) or sorted(
        range(len(schedule.start)), key=schedule.start.__getitem__
    )
    finish = schedule.finish
    why = schedule.reasons if reasons and len(schedule.reasons) == len(schedule.start) else None
    head = [_("op"), _("issue"), _("finish"), _("operation")] + ([_("why")] if why else [])
    body = []
    for i in order:
        op = g.ops[i]
        row = [op.name, str(schedule.start[i]), str(finish[i]), op.text or op.kind]
        if why:
            row.append(why[i])
        body.append(row)
    widths = [max(display_width(r[j]) for r in [head, *body]) for j in range(len(head))]
    right = {1, 2}

    def fmt(r: list[str]) -> str:
        cells = [
            rjust(x, w) if j in right else ljust(x, w)
            for j, (x, w) in enumerate(zip(r, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    title = _(schedule.algorithm) if schedule.algorithm else _("schedule")
    if schedule.ii is not None:
        first = _("{title}: {cycles} cycles, II = {ii}").format(
            title=title, cycles=schedule.length, ii=schedule.ii
        )
    else:
        first = _("{title}: {cycles} cycles").format(title=title, cycles=schedule.length)
    lines = [first, fmt(head)]
    lines += [fmt(r) for r in body]
    return "\n".join(lines)


def dependences_text(dg, *, reduce: bool = False) -> str:
    """Every dependence edge of a :class:`~lecturekit.target.deps.DependenceGraph` (or only those of
    its transitive reduction): source, target, kind, what it is on, latency; through memory also
    whether the two accesses must or may alias, and for a pair the scheduler's graph orders
    through a store between (not by an edge of its own) which store that is."""
    edges = dg.reduction() if reduce else dg.edges
    prog = dg.program
    memory = any(getattr(e, "alias", "") for e in edges)
    implied = any(getattr(e, "via", None) is not None for e in edges)
    head = [_("edge"), _("kind"), _("on"), _("latency")]
    head += [_("alias")] * memory + [_("note")] * implied
    body = []
    for e in edges:
        on = register_name(prog, e.dst, e.on) if e.kind in ("RAW", "WAR", "WAW") else _(e.on)
        row = [f"{label(e.src)} -> {label(e.dst)}", e.kind, on, str(e.latency)]
        if memory:
            alias = getattr(e, "alias", "")
            row.append({"may": _("may"), "must": _("must")}.get(alias, alias))
        if implied:
            via = getattr(e, "via", None)
            row.append("" if via is None else _("implied via {op}").format(op=label(via)))
        body.append(row)
    if not body:
        return _("no dependences")
    widths = [max(display_width(r[j]) for r in [head, *body]) for j in range(len(head))]
    lines = [
        "  ".join(ljust(x, w) for x, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, *body]
    ]
    return "\n".join(lines)


__all__ = [
    "TIMELINE_CHARS",
    "text_table",
    "TIMELINE_LEGEND",
    "timeline_legend",
    "dependences_text",
    "describe_cycle",
    "describe_stall",
    "held_cells",
    "label",
    "register_name",
    "schedule_table_text",
    "stage_rows_text",
    "stage_table_text",
    "stall_cycles",
    "stall_reason",
    "stall_summary",
    "timeline_chars",
    "timeline_text",
]
