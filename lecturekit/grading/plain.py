"""Course objects as the plain data a code question's function receives.

A code question's function is called with plain data only (lists, tuples, dicts, ints,
Fractions, strings; numpy arrays where the question is about arrays) in an interpreter without
lecturekit (see :mod:`.calls`). The master notebook's setup imports these converters, so its tests
(trusted) and the student's notebook (for exploring and the public tests) make the same data:

* :func:`plain_graph` -- a dependence graph (``lecturekit.core.Graph``);
* :func:`plain_program` -- a parsed block (``lecturekit.asm.parse``); :func:`plain_timed_program`
  adds each instruction's timing on a machine;
* :func:`plain_loop` -- a single-block loop (``lecturekit.loops.analyze_loop``), and
  :func:`loop_text`, the way back: a plain loop (a function's answer) as assembly text;
* :func:`plain_op` -- an operator of the roofline model (``lecturekit.llm.roofline.Op``);
* :func:`plain_axes`, :func:`plain_schedule`, :func:`plain_nest` -- a loop-nest computation's
  axes, a schedule's steps and a scheduled nest's loops and bindings
  (``lecturekit.tensor.loopnest``);
* :func:`plain_tensor_graph` -- a graph of tensor operations (``lecturekit.tensor.graph``);
* :func:`plain_fabric` -- where a fat tree plugs in each NIC (``lecturekit.llm.fabric``);
* :func:`inputs_after_call` -- for a test about mutation: the function's own copies of its
  arguments after a call.

The shapes are part of each question's prompt; keep them stable. Duck-typed (attributes only),
so grading imports nothing of the scheduling core.
"""

from __future__ import annotations

import copy


def plain_graph(graph) -> dict:
    """A dependence graph as a dict of plain data:

    * ``n``: the number of instructions, numbered ``0 .. n-1`` in program order;
    * ``text``: each instruction's text; ``tail``: the cycles from its issue to its finish;
    * ``reservations``: per instruction, ``(unit, offset, cycles)`` triples: it holds ``unit``
      from ``offset`` cycles after its issue for ``cycles`` cycles;
    * ``edges``: ``(src, dst, latency, distance)`` tuples (``distance`` 0 inside a block; in a
      loop, how many iterations later ``dst`` runs); two instructions may be joined by several;
    * ``succs`` / ``preds``: per instruction, the edges leaving / entering it (same tuples);
    * ``earliest``: the first issue cycle; ``issue_width``: instructions per cycle (``None``:
      unlimited); ``units``: the copies of each unit (a dict).
    """
    ops = list(graph.ops)
    edges = [(int(e.src), int(e.dst), int(e.latency), int(e.distance)) for e in graph.edges]
    succs: list[list[tuple]] = [[] for _ in ops]
    preds: list[list[tuple]] = [[] for _ in ops]
    for edge in edges:
        succs[edge[0]].append(edge)
        preds[edge[1]].append(edge)
    width = graph.issue_width
    return {
        "n": len(ops),
        "text": [str(op.text) for op in ops],
        "tail": [int(op.tail) for op in ops],
        "reservations": [
            [(str(r.unit), int(r.offset), int(r.cycles)) for r in op.reservations] for op in ops
        ],
        "edges": edges,
        "succs": succs,
        "preds": preds,
        "earliest": int(graph.earliest),
        "issue_width": None if width is None else int(width),
        "units": {str(u): int(c) for u, c in dict(graph.units).items()},
    }


def plain_program(program, machine=None) -> list[dict]:
    """A parsed block as a list of instructions, each a dict: ``text``, the registers it
    ``reads`` and ``writes`` (lists of names, in the order the instruction names them), and
    ``memory``: ``None``, or for a load or store the access as a dict: ``base`` (the register
    the address is computed from), ``offset`` (bytes added to it), ``size`` (bytes accessed:
    RISC-V's ``lb`` 1 ... ``ld`` 8; the lecture's ``lw``/``sw`` a 4-byte word) and ``store``
    (``True`` for a store, ``False`` for a load). Given a ``machine``
    (``lecturekit.target.machine.preset("lecture")``), each also has ``cycles``: the cycles it
    spends in that machine's execute stage (``add`` 1, ``mul`` 3 ... on the lecture's)."""
    found = []
    for ins in program:
        mem = getattr(ins, "mem", None)
        plain = {
            "text": str(ins),
            "reads": [str(r) for r in ins.reads()],
            "writes": [str(r) for r in ins.writes()],
            "memory": None
            if mem is None
            else {
                "base": str(mem.base),
                "offset": int(mem.offset),
                "size": int(mem.size) if mem.size is not None else WORD,
                "store": bool(ins.is_store),
            },
        }
        if machine is not None:
            plain["cycles"] = int(machine.ops[ins.op_class].execute_cycles)
        found.append(plain)
    return found


#: bytes of the word the lecture's ``lw``/``sw`` access (its notation gives no size)
WORD = 4


def plain_instruction(ins) -> dict:
    """One MIPS-notation instruction as a dict: ``op`` (the opcode), ``dst`` (the registers it
    writes, a list), ``src`` (the registers it reads, in operand order, without a memory
    operand's base; ``zero`` if written ``$zero``), ``mem`` (``None``, or ``[base, offset]`` of a
    load or store: the address is register ``base`` plus ``offset``), ``imm`` (an immediate or
    ``None``) and ``target`` (a branch's label or ``None``). Registers without ``$``."""
    srcs = [str(r) for r in ins.srcs]
    mem = None
    if ins.mem is not None:
        mem = [str(ins.mem.base), int(ins.mem.offset)]
        srcs = srcs[:-1]  # the base is the last register read
    return {
        "op": str(ins.opcode),
        "dst": [str(r) for r in ins.dests],
        "src": srcs,
        "mem": mem,
        "imm": None if ins.imm is None else int(ins.imm),
        "target": None if ins.target is None else str(ins.target),
    }


def plain_loop(loop) -> dict:
    """A single-block loop (``lecturekit.loops.analyze_loop``) as a dict of plain data:

    * ``label``: the loop's label, the branch's target;
    * ``body``: its instructions in program order, the backward branch last, each as
      :func:`plain_instruction` gives it (``op``, ``dst``, ``src``, ``mem``, ``imm``, ``target``);
    * ``inductions``: ``{register: step}`` for each induction variable, a register the body
      changes only by one ``addi register, register, step``.
    """
    return {
        "label": str(loop.label),
        "body": [plain_instruction(ins) for ins in loop.body],
        "inductions": {str(r): int(iv.step) for r, iv in loop.inductions.items()},
    }


def loop_text(loop: dict) -> str:
    """Assembly text (MIPS notation) of a plain loop ``{"label", "body"}`` as :func:`plain_loop`
    makes it, e.g. a function's answer, so that the tests can parse and run it: each operand
    list is ``dst``, ``src``, then ``offset($base)``, the immediate and the target."""
    lines = []
    for k, ins in enumerate(loop["body"]):
        operands = [f"${r}" for r in (*ins.get("dst", ()), *ins.get("src", ()))]
        if ins.get("mem") is not None:
            base, offset = ins["mem"]
            operands.append(f"{offset}(${base})")
        if ins.get("imm") is not None:
            operands.append(str(ins["imm"]))
        if ins.get("target") is not None:
            operands.append(str(ins["target"]))
        label = f"{loop['label']}: " if k == 0 else ""
        lines.append(f"{label}{ins['op']} {', '.join(operands)}")
    return "\n".join(lines) + "\n"


def plain_timed_program(program, machine) -> list[dict]:
    """:func:`plain_program` with each instruction's timing on ``machine`` (a
    ``lecturekit.target.machine.Machine``, per opcode on the real-core presets): ``latency``, the
    cycles from its issue until its result is ready, and ``holds``, the ``(unit, cycles)`` pairs of
    the functional units it occupies from its issue."""
    out = plain_program(program)
    for entry, ins in zip(out, program, strict=True):
        timing = machine.timing(machine.timing_key(ins))
        entry["latency"] = int(timing.execute_cycles)
        entry["holds"] = [(str(unit), int(cycles)) for unit, cycles in timing.holds()]
    return out


def plain_op(op) -> dict:
    """An operator of the roofline model (``lecturekit.llm.roofline.Op``) as a dict: its
    ``name``, its ``flops`` (a float) and the tensors it ``reads`` and ``writes`` (dicts: tensor
    name -> bytes moved to or from memory, ints where whole)."""

    def nbytes(value):
        value = float(value)
        return int(value) if value.is_integer() else value

    return {
        "name": str(op.name),
        "flops": float(op.flops),
        "reads": {str(t): nbytes(b) for t, b in dict(op.reads).items()},
        "writes": {str(t): nbytes(b) for t, b in dict(op.writes).items()},
    }


def plain_axes(computation) -> list[dict]:
    """A loop-nest computation's axes (``lecturekit.tensor.loopnest.Computation``), in the order
    its loops start (spatial, then reduction, as written): dicts ``name``, ``extent`` (an int)
    and ``reduce`` (``True`` for an axis summed over)."""
    return [
        {"name": str(a.name), "extent": int(a.extent), "reduce": bool(a.reduce)}
        for a in computation.axes
    ]


#: a schedule step's words after its name, by step: what each word is
_STEP_FIELDS = {
    "split": ("loop", "factor"),
    "tile": ("outer", "inner", "outer_factor", "inner_factor"),
    "fuse": ("outer", "inner"),
    "vectorize": ("loop",),
    "unroll": ("loop",),
    "parallel": ("loop",),
}


def plain_schedule(steps) -> list[dict]:
    """A schedule (a list of ``lecturekit.tensor.loopnest`` steps, or its text, one step a line)
    as a list of dicts, one a step, read from each step's text: ``{"step": "split", "loop": "i",
    "factor": 4}``, ``{"step": "reorder", "order": ["i", "k", "j"]}`` (outermost first),
    ``{"step": "fuse", "outer": "i", "inner": "j"}``, ``{"step": "vectorize", "loop": "j"}``
    (likewise ``"unroll"`` and ``"parallel"``), ``{"step": "tile", "outer", "inner",
    "outer_factor", "inner_factor"}``. Factors are ints."""
    if isinstance(steps, str):
        texts = [
            piece.strip()
            for line in steps.splitlines()
            for piece in line.split("#", 1)[0].split(";")
            if piece.strip()
        ]
    else:
        texts = [str(step.text()) for step in steps]
    out = []
    for text in texts:
        words = text.split()
        kind, args = words[0].lower(), words[1:]
        if kind == "reorder":
            out.append({"step": "reorder", "order": list(args)})
            continue
        fields = _STEP_FIELDS.get(kind, ())
        entry: dict = {"step": kind}
        for name, word in zip(fields, args, strict=False):
            entry[name] = int(word) if "factor" in name else word
        out.append(entry)
    return out


def _plain_expr(expr):
    if isinstance(expr, (tuple, list)):
        return tuple(_plain_expr(x) for x in expr)
    return expr if isinstance(expr, (str, int)) else int(expr)


def plain_nest(nest) -> dict:
    """A scheduled loop nest (``lecturekit.tensor.loopnest.LoopNest``) as a dict:

    * ``loops``: outermost first, ``(name, extent, reduce, kind)`` tuples; ``kind`` is
      ``"serial"``, ``"vectorized"``, ``"unrolled"`` or ``"parallel"``;
    * ``bindings``: each axis of the computation (by name) as an expression of the loop
      variables, nested tuples: ``("v", loop)``, ``("c", int)``, ``("+", a, b)``, and
      ``("*", a, int)``, ``("//", a, int)``, ``("%", a, int)``.
    """
    return {
        "loops": [
            (str(lp.name), int(lp.extent), bool(lp.reduce), str(lp.kind)) for lp in nest.loops
        ],
        "bindings": {str(axis): _plain_expr(e) for axis, e in dict(nest.bindings).items()},
    }


def plain_tensor_graph(graph) -> dict:
    """A graph of tensor operations (``lecturekit.tensor.graph.TensorGraph``) as a dict:
    ``inputs`` and ``outputs`` (node names) and ``nodes`` in topological order (every node after
    the nodes it reads), each a dict ``name``, ``op`` (``"placeholder"`` for an input,
    ``"const"``, ``"add"``, ``"mul"``, ``"exp"``, ...) and ``inputs`` (the names it reads, in
    order); a constant also has its ``value`` (a float, or nested lists of floats), a power
    ``x ** p`` its exponent ``p`` (a float)."""
    nodes = []
    for n in graph.nodes:
        entry = {"name": str(n.name), "op": str(n.op), "inputs": [str(a) for a in n.inputs]}
        if n.op == "const":
            value = n.attrs["value"]
            value = value.tolist() if hasattr(value, "tolist") else value
            entry["value"] = _floats(value)
        if n.op == "pow":
            entry["p"] = float(n.attrs["p"])
        nodes.append(entry)
    return {
        "inputs": [str(x) for x in graph.inputs],
        "outputs": [str(x) for x in graph.outputs],
        "nodes": nodes,
    }


def _floats(value):
    if isinstance(value, (list, tuple)):
        return [_floats(x) for x in value]
    return float(value)


def plain_fabric(fabric) -> dict:
    """Where a fat tree of ``radix``-port switches (``lecturekit.llm.fabric.Fabric``) plugs in
    each NIC: a dict ``nodes``, ``gpus_per_node`` (one NIC each), ``radix`` and ``tor``:
    ``(node, nic) -> t``, the ToR switch the NIC is cabled to. ToR ``t`` is in pod
    ``t // (radix // 2)``; the rest of the tree follows from the radix (chapter 15)."""
    return {
        "nodes": int(fabric.nodes),
        "gpus_per_node": int(fabric.gpus_per_node),
        "radix": int(fabric.radix),
        "tor": {(int(n), int(c)): int(t) for (n, c), (t, _port) in fabric.attach.items()},
    }


def inputs_after_call(fn, *args, **kwargs):
    """``(value, copies)``: ``fn(*args, **kwargs)`` and the function's own copies of the
    positional arguments after the call, for a test that a function leaves its input alone.

    The arguments themselves are never changed: a graded function gets fresh copies on every
    call (:class:`lecturekit.grading.calls.Remote`), and a plain function here gets deep copies.
    """
    keeping = getattr(fn, "call_keeping_inputs", None)
    if keeping is not None:
        return keeping(*args, **kwargs)
    copies = copy.deepcopy(list(args))
    return fn(*copies, **copy.deepcopy(kwargs)), copies
