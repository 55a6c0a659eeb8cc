"""The real tools beside lecturekit's: TVM and Halide run the same schedules, PyTorch captures
the same functions.

- :func:`tvm_loops` / :func:`tvm_run`: the computation as ``te.compute``, the schedule applied
  with TVM's TensorIR schedule (``tvm.s_tir.Schedule``: ``split``, ``reorder``, ``fuse``,
  ``vectorize``, ``unroll``, ``parallel``), its loops read from the scheduled TIR, and the
  function compiled by LLVM and run (``pip install apache-tvm``).
- :func:`halide_loops` / :func:`halide_run`: the computation as a Halide ``Func`` with an update
  definition over an ``RDom``, the schedule applied to the update stage, its loops read from
  ``print_loop_nest``, the pipeline JIT-compiled and run (``pip install halide``).
- :func:`torch_capture`: ``torch.fx.symbolic_trace``, ``torch.jit.trace`` and TorchDynamo's
  ``explain`` on a function with a branch (``pip install torch``).

Each returns plain data. :func:`saved_or_live` runs a tool when it is installed and otherwise
reads the result saved in ``lecturekit/data/tensor/chapter14.json`` (with
``LECTUREKIT_SAVE_TENSOR=1`` a live result is saved), so chapter 14 reads the same without them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

from ..errors import LectureKitError
from ..language import _
from .loopnest import (
    Computation,
    Fuse,
    Parallel,
    Reorder,
    Split,
    Unroll,
    Vectorize,
    apply,
    primitive_steps,
)

SAVED = Path(__file__).resolve().parent.parent / "data" / "tensor" / "chapter14.json"

#: module -> what to install
INSTALL = {
    "tvm": "pip install apache-tvm",  # i18n: as is
    "halide": "pip install halide",  # i18n: as is
    "torch": "pip install torch",  # i18n: as is
}


class ToolMissingError(LectureKitError):
    """A tool (TVM, Halide, PyTorch) is not installed; the message says how to install it."""


#: programs (not Python packages) some outputs need
PROGRAMS = {"gcc": "apt-get install gcc", "llc": "apt-get install llvm-14 (llc-14)"}  # i18n: as is


def _program(name: str) -> str | None:
    candidates = [name] + ([f"{name}-{v}" for v in (14, 15, 16, 17, 18)] if name == "llc" else [])
    for c in candidates:
        found = shutil.which(c)
        if found:
            return found
    return None


def have(module: str) -> bool:
    """Is the Python package (or, for gcc and llc, the program) ``module`` installed?"""
    if module in PROGRAMS:
        return _program(module) is not None
    return importlib.util.find_spec(module) is not None


def require(module: str) -> None:
    if not have(module):
        how = INSTALL.get(module) or PROGRAMS.get(module) or f"pip install {module}"  # i18n: as is
        raise ToolMissingError(_("{module} is not installed: {how}").format(module=module, how=how))


def saved(key: str):
    """The output saved under ``key`` (made by ``tools/save_chapter14.py``)."""
    data = json.loads(SAVED.read_text(encoding="utf-8")) if SAVED.exists() else {}
    if key not in data:
        raise ToolMissingError(
            _("no saved output {key!r} in {name}; run python tools/save_chapter14.py").format(
                key=key, name=SAVED.name
            )
        )
    return data[key]


def saved_or_live(key: str, make, module: str):
    """``make()`` (plain JSON data) when ``module`` is installed, else the result saved under
    ``key``. With ``LECTUREKIT_SAVE_TENSOR=1`` a live result is saved too."""
    saved = json.loads(SAVED.read_text(encoding="utf-8")) if SAVED.exists() else {}
    if have(module):
        value = json.loads(json.dumps(make()))
        if os.environ.get("LECTUREKIT_SAVE_TENSOR"):
            saved[key] = value
            SAVED.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(saved, indent=1, sort_keys=True, ensure_ascii=False)
            SAVED.write_text(text + "\n", encoding="utf-8")
        return value
    if key not in saved:
        require(module)
    return saved[key]


# -- TVM ---------------------------------------------------------------------------------------

_TVM_KINDS = {0: "serial", 1: "parallel", 2: "vectorized", 3: "unrolled"}


def _tvm_function(comp: Computation):
    import tvm  # noqa: F401
    from tvm import te

    shapes = comp.shapes
    tensors = {
        t: te.placeholder(shapes[t], name=t, dtype="float32")
        for t in dict.fromkeys(a.tensor for a in comp.inputs)
    }
    reduce_axes = [te.reduce_axis((0, a.extent), name=a.name) for a in comp.axes if a.reduce]
    out_order = [terms[0][0] for terms, _unused in comp.output.index]
    spatial = [comp.axes[[a.name for a in comp.axes].index(n)] for n in out_order]

    def body(*spatial_vars):
        env = dict(zip(out_order, spatial_vars, strict=True))
        env.update({r.var.name: r for r in reduce_axes})
        prod = None
        for acc in comp.inputs:
            idx = [sum((c * env[a] for a, c in terms), const) for terms, const in acc.index]
            term = tensors[acc.tensor][tuple(idx)]
            prod = term if prod is None else prod * term
        return te.sum(prod, axis=reduce_axes) if reduce_axes else prod

    # te.compute names the spatial loops after fcompute's parameters: give them the axes' names
    names_ = ", ".join(a.name for a in spatial)
    fcompute = eval(f"lambda {names_}: body({names_})", {"body": body})  # noqa: S307  # i18n: not shown
    out = te.compute(shapes[comp.output.tensor], fcompute, name=comp.output.tensor)
    return te.create_prim_func([*tensors.values(), out]), list(tensors)


def _tvm_schedule(comp: Computation, steps):
    from tvm import s_tir

    func, names = _tvm_function(comp)
    sch = s_tir.Schedule(func)
    block = sch.get_sblock(comp.output.tensor)
    loops = dict(zip([a.name for a in comp.axes], sch.get_loops(block), strict=True))
    for step in primitive_steps(comp, steps):
        if isinstance(step, Split):
            outer, inner = sch.split(loops.pop(step.loop), factors=[None, step.factor])
            loops[f"{step.loop}_o"], loops[f"{step.loop}_i"] = outer, inner
        elif isinstance(step, Reorder):
            sch.reorder(*[loops[n] for n in step.order])
        elif isinstance(step, Fuse):
            loops[f"{step.outer}_{step.inner}"] = sch.fuse(
                loops.pop(step.outer), loops.pop(step.inner)
            )
        elif isinstance(step, Vectorize):
            sch.vectorize(loops[step.loop])
        elif isinstance(step, Unroll):
            sch.unroll(loops[step.loop])
        elif isinstance(step, Parallel):
            sch.parallel(loops[step.loop])
    return sch, names


def _tvm_walk(node, out):
    from tvm import tirx

    if isinstance(node, tirx.For):
        out.append([str(node.loop_var), int(node.extent), _TVM_KINDS.get(int(node.kind), "?")])
        _tvm_walk(node.body, out)
    elif hasattr(node, "seq"):
        for s in node.seq:
            _tvm_walk(s, out)
    elif hasattr(node, "block"):
        _tvm_walk(node.block, out)
    elif hasattr(node, "body"):
        _tvm_walk(node.body, out)
    return out


def tvm_loops(comp: Computation, steps) -> dict:
    """TVM's loops after the schedule, outermost first: ``[name, extent, kind]`` each, and the
    scheduled TIR as TVMScript text."""
    require("tvm")
    import tvm

    sch, _ = _tvm_schedule(comp, steps)
    return {
        "version": tvm.__version__,
        "loops": _tvm_walk(sch.mod["main"].body, []),
        "script": sch.mod.script(),
        "trace": str(sch.trace),
    }


def tvm_run(comp: Computation, steps, inputs) -> np.ndarray:
    """Compile the scheduled TIR with LLVM and run it on ``inputs`` (float32)."""
    require("tvm")
    import tvm

    sch, names = _tvm_schedule(comp, steps)
    f = tvm.compile(sch.mod, target="llvm")
    dev = tvm.cpu()
    arrays = comp.check_inputs(inputs)
    out_shape = comp.shapes[comp.output.tensor]
    args = [tvm.runtime.tensor(arrays[n].astype("float32"), dev) for n in names]
    out = tvm.runtime.tensor(np.zeros(out_shape, dtype="float32"), dev)
    f(*args, out)
    return out.numpy().astype(float)


# -- Halide -------------------------------------------------------------------------------------


def _halide_pipeline(comp: Computation, steps):
    import halide as hl

    shapes = comp.shapes
    params = {
        t: hl.ImageParam(hl.Float(32), len(shapes[t]), t)
        for t in dict.fromkeys(a.tensor for a in comp.inputs)
    }
    spatial = {a.name: hl.Var(a.name) for a in comp.axes if not a.reduce}
    reduce = [a for a in comp.axes if a.reduce]
    rdom = hl.RDom([(0, a.extent) for a in reduce], "r") if reduce else None
    rvars = {}
    for k, a in enumerate(reduce):
        rvars[a.name] = [rdom.x, rdom.y, rdom.z, rdom.w][k]
    originals = dict(rvars)
    env = {**spatial, **rvars}
    out = hl.Func(comp.output.tensor)
    # Halide's first dimension is the fastest-varying one: numpy's last
    out_vars = [spatial[terms[0][0]] for terms, _ in reversed(comp.output.index)]
    out[out_vars] = hl.f32(0)
    prod = None
    for acc in comp.inputs:
        idx = [
            sum((c * env[a] for a, c in terms), hl.Expr(const))
            for terms, const in reversed(acc.index)
        ]
        term = params[acc.tensor][idx]
        prod = term if prod is None else prod * term
    out[out_vars] = out[out_vars] + prod
    stage = out.update()
    V = hl.VarOrRVar
    names = {}
    for a in comp.axes:
        if a.reduce:  # r.x, r.y are printed as r: rename them after their axes
            named = hl.RVar(a.name)
            stage.rename(V(originals[a.name]), V(named))
            names[a.name] = V(named)
        else:
            names[a.name] = V(spatial[a.name])
    for step in primitive_steps(comp, steps):
        if isinstance(step, Split):
            make = hl.RVar if _is_reduce(comp, steps, step.loop) else hl.Var
            o, i = make(f"{step.loop}_o"), make(f"{step.loop}_i")
            stage.split(names[step.loop], V(o), V(i), step.factor)
            names[f"{step.loop}_o"], names[f"{step.loop}_i"] = V(o), V(i)
        elif isinstance(step, Reorder):
            stage.reorder(*[names[n] for n in reversed(step.order)])  # Halide: innermost first
        elif isinstance(step, Fuse):
            make = hl.RVar if _is_reduce(comp, steps, step.outer) else hl.Var
            fused = make(f"{step.outer}_{step.inner}")
            stage.fuse(names[step.inner], names[step.outer], V(fused))
            names[f"{step.outer}_{step.inner}"] = V(fused)
        elif isinstance(step, Vectorize):
            stage.vectorize(names[step.loop])
        elif isinstance(step, Unroll):
            stage.unroll(names[step.loop])
        elif isinstance(step, Parallel):
            stage.parallel(names[step.loop])
    for terms, _unused in comp.output.index:
        a = terms[0][0]
        out.bound(spatial[a], 0, comp.extents[a])
    return out, params


def _is_reduce(comp: Computation, steps, loop: str) -> bool:
    for lp in apply(comp, []).loops:
        if lp.name == loop:
            return lp.reduce
    # a loop made by a split or a fuse: look it up in the nest before the step that uses it
    prims = primitive_steps(comp, steps)
    for k in range(len(prims) + 1):
        nest = apply(comp, prims[:k])
        for lp in nest.loops:
            if lp.name == loop:
                return lp.reduce
    return False


def _capture_stderr(fn) -> str:
    sys.stderr.flush()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            fn()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def halide_loops(comp: Computation, steps) -> dict:
    """Halide's loops of the update stage after the schedule (``[name, extent, kind]``,
    outermost first, names without Halide's ``i.`` prefixes) and its ``print_loop_nest``."""
    require("halide")
    import halide as hl

    out, _ = _halide_pipeline(comp, steps)
    text = _capture_stderr(out.print_loop_nest)
    blocks: list[list] = []  # one per stage: a top-level loop (indented two spaces) starts one
    for line in text.splitlines():
        words = line.strip().rstrip(":").split()
        if not words or words[0] not in ("for", "parallel", "vectorized", "unrolled"):
            continue
        if len(line) - len(line.lstrip()) == 2:
            blocks.append([])
        lo, hi = line[line.index("[") + 1 : line.index("]")].split(",")
        kind = "serial" if words[0] == "for" else words[0]
        blocks[-1].append([words[1].split(".")[-1], int(hi) - int(lo) + 1, kind])
    loops = blocks[-1] if blocks else []
    from importlib.metadata import version

    del hl
    return {"version": version("halide"), "loops": loops, "loop_nest": text}


def halide_run(comp: Computation, steps, inputs) -> np.ndarray:
    """JIT-compile the scheduled pipeline and run it on ``inputs`` (float32)."""
    require("halide")
    import halide as hl

    out, params = _halide_pipeline(comp, steps)
    arrays = comp.check_inputs(inputs)
    # hl.Buffer wraps the numpy memory without owning it: keep the arrays alive until realize
    kept = {t: np.ascontiguousarray(arrays[t], dtype=np.float32) for t in params}
    for t, p in params.items():
        p.set(hl.Buffer(kept[t]))
    shape = comp.shapes[comp.output.tensor]
    result = out.realize(list(reversed(shape)))
    values = np.array(result, dtype=float)
    del kept
    return values


# -- PyTorch ------------------------------------------------------------------------------------


def torch_capture(fn, example, other) -> dict:
    """What PyTorch's three capture tools make of ``fn`` (tensors as numpy arrays):
    ``torch.fx.symbolic_trace``'s error, ``torch.jit.trace``'s warnings, graph and result on
    ``other`` against eager, TorchDynamo's graphs and graph-break reasons."""
    require("torch")
    import torch

    ex = [torch.tensor(np.asarray(a, dtype=np.float32)) for a in example]
    ot = [torch.tensor(np.asarray(a, dtype=np.float32)) for a in other]
    report: dict = {"version": torch.__version__}
    try:
        gm = torch.fx.symbolic_trace(fn)
        report["fx"] = {"graph": gm.code}
    except Exception as exc:  # noqa: BLE001 - the error is the result
        report["fx"] = {"error": f"{type(exc).__name__}: {exc}"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        traced = torch.jit.trace(fn, tuple(ex))
    report["jit"] = {
        "warnings": sorted({str(w.message) for w in caught if "deprecated" not in str(w.message)}),
        # without the source positions (# file:line:column), which name a temporary file
        "graph": re.sub(r" # \S+:\d+:\d+", "", str(traced.graph)),
        "traced_on_other": traced(*ot).tolist(),
        "eager_on_other": fn(*ot).tolist(),
    }
    import torch._dynamo as dynamo

    dynamo.reset()
    explained = dynamo.explain(fn)(*ex)
    report["dynamo"] = {
        "graph_count": explained.graph_count,
        "graph_break_count": explained.graph_break_count,
        "break_reasons": [str(b.reason) for b in explained.break_reasons],
        "graphs": [g.code.strip() for g in explained.graphs],
    }
    dynamo.reset()
    return report


def torch_inductor_chain() -> dict:
    """``torch.compile`` (TorchInductor, C++ on the CPU) on ``(relu(x * w + 1) ** 2).sum()``:
    the kernels it generates (their names, and the first kernel's source). Slow: about a
    minute to compile on a small machine."""
    require("torch")
    import torch
    from torch._inductor.utils import run_and_get_code

    def chain(x, w):
        h = torch.relu(x * w + 1.0)
        return (h * h).sum()

    torch._dynamo.reset()
    x, w = torch.linspace(-1, 1, 1000), torch.linspace(1, 2, 1000)
    result, codes = run_and_get_code(torch.compile(chain), x, w)
    code = "\n".join(codes)
    names = sorted(set(re.findall(r"^(cpp_fused_\w+) = ", code, flags=re.M)))
    start = code.find('extern "C"')
    end = code.find("\n''')", start)
    torch._dynamo.reset()
    return {
        "version": torch.__version__,
        "kernels": names,
        "kernel_source": code[start:end].strip() if start >= 0 else "",
        "equal_to_eager": bool(torch.allclose(result, chain(x, w))),
    }


_C_SOURCE = "int axpy(int a, int x, int y) { return a * x + y; }\n"  # i18n: not shown


def gcc_dumps() -> dict:
    """GCC's intermediate representations of a one-line C function: the GIMPLE dump
    (``-fdump-tree-gimple``) and the first RTL dump (``-fdump-rtl-expand``)."""
    require("gcc")
    gcc = _program("gcc")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "axpy.c"
        src.write_text(_C_SOURCE, encoding="utf-8")
        subprocess.run(
            [gcc, "-O1", "-c", "-fdump-tree-gimple", "-fdump-rtl-expand", str(src), "-o",
             str(Path(tmp) / "axpy.o")],
            check=True, capture_output=True, cwd=tmp, timeout=60,
        )  # fmt: skip
        gimple = next(Path(tmp).glob("*.gimple")).read_text(encoding="utf-8", errors="replace")
        rtl = next(Path(tmp).glob("*.expand")).read_text(encoding="utf-8", errors="replace")
        version = subprocess.run([gcc, "-dumpfullversion"], capture_output=True, text=True)
    insns = [ln.strip() for ln in rtl.splitlines() if ln.lstrip().startswith("(insn")]
    return {
        "version": version.stdout.strip(),
        "source": _C_SOURCE,
        "gimple": gimple.strip(),
        "rtl_insns": len(insns),
        "rtl_first": insns[:3],
    }


def llvm_targets() -> dict:
    """The targets LLVM's ``llc --version`` lists: NVPTX among them (LLVM emits PTX, the
    assembly of NVIDIA GPUs)."""
    require("llc")
    out = subprocess.run([_program("llc"), "--version"], capture_output=True, text=True, timeout=60)
    targets = []
    seen = False
    for line in out.stdout.splitlines():
        if "Registered Targets" in line:
            seen = True
            continue
        if seen and " - " in line:
            targets.append(line.split(" - ")[0].strip())
    version = re.search(r"LLVM version (\S+)", out.stdout)
    return {"version": version.group(1) if version else "", "targets": targets}


def normalize_tvm_name(name: str) -> str:
    """TVM's loop names in lecturekit's: ``i_0``/``i_1`` are ``i_o``/``i_i``, ``a_b_fused`` is
    ``a_b``."""
    name = name.replace("_fused", "")
    return re.sub(r"_0(?=_|$)", "_o", re.sub(r"_1(?=_|$)", "_i", name))


#: the schedules chapter 14 runs in TVM and Halide: (computation, its arguments, schedule)
COMPARED = (
    ("matmul", (64, 64, 64), ""),
    (
        "matmul",
        (64, 64, 64),
        "tile i j 8 8\nsplit k 4\nreorder i_o j_o k_o k_i i_i j_i\nvectorize j_i\nparallel i_o",
    ),
    ("matmul", (64, 64, 64), "fuse i j\nsplit i_j 16\nunroll i_j_i"),
    ("conv2d", (32, 32, 3, 3), "split y 8\nreorder y_o x r s y_i\nvectorize y_i"),
)


def compared_key(tool: str, kind: str, args, schedule: str) -> str:
    return f"{tool} {kind}{tuple(args)}: {schedule.replace(chr(10), '; ') or '(as written)'}"


def compare_schedule(tool: str, comp: Computation, schedule: str, seed: int = 0) -> dict:
    """``tool``'s (``"tvm"`` or ``"halide"``) loops for the schedule, and whether its compiled
    code computes what numpy does on integer-valued inputs."""
    inputs = comp.random_inputs(seed)
    loops = tvm_loops(comp, schedule) if tool == "tvm" else halide_loops(comp, schedule)
    run = tvm_run if tool == "tvm" else halide_run
    loops["equal_to_numpy"] = bool(
        np.array_equal(run(comp, schedule, inputs), comp.reference(inputs))
    )
    return loops


def torch_inductor_layer() -> dict:
    """``torch.compile`` on chapter 14's GEMM with its epilogue, ``relu(x @ w + b) * 2``: which
    library calls (``extern_kernels``) and which generated kernels the compiled code has."""
    require("torch")
    import torch
    from torch._inductor.utils import run_and_get_code

    def layer(x, w, b):
        return torch.relu(x @ w + b) * 2.0

    torch._dynamo.reset()
    g = torch.Generator().manual_seed(0)
    x, w, b = (torch.randn(s, generator=g) for s in ((64, 128), (128, 256), (256,)))
    result, codes = run_and_get_code(torch.compile(layer), x, w, b)
    code = "\n".join(codes)
    torch._dynamo.reset()
    return {
        "version": torch.__version__,
        "library_calls": sorted(set(re.findall(r"extern_kernels\.(\w+)", code))),
        "kernels": sorted(set(re.findall(r"^(cpp_fused_\w+) = ", code, flags=re.M))),
        "equal_to_eager": bool(torch.allclose(result, layer(x, w, b), atol=1e-5)),
    }
