"""Save what the real tools make of chapter 14's examples (lecturekit/data/tensor/chapter14.json).

Run where TVM, Halide, PyTorch, gcc and LLVM are installed (``pip install apache-tvm halide
torch``); a tool that is missing keeps its saved entries. The chapter reads these outputs, so
it runs in seconds and reads the same everywhere; ``tests/test_tensor_tools.py`` checks them
against the installed tools.

    python tools/save_chapter14.py            # everything (TorchInductor takes about a minute)
    python tools/save_chapter14.py --no-inductor
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from lecturekit.tensor import examples, loopnest, tools


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-inductor", action="store_true", help="skip torch.compile")
    args = parser.parse_args()
    data = json.loads(tools.SAVED.read_text()) if tools.SAVED.exists() else {}
    if tools.have("torch"):
        data["torch capture branchy"] = tools.torch_capture(
            examples.branchy,
            [np.array([1.0, 2.0, 3.0]), np.ones(3)],
            [np.array([-1.0, -2.0, -3.0]), np.ones(3)],
        )
        if not args.no_inductor:
            data["torch inductor chain"] = tools.torch_inductor_chain()
            data["torch inductor layer"] = tools.torch_inductor_layer()
    for tool in ("tvm", "halide"):
        if not tools.have(tool):
            continue
        for kind, shape, schedule in tools.COMPARED:
            comp = getattr(loopnest, kind)(*shape)
            key = tools.compared_key(tool, kind, shape, schedule)
            data[key] = tools.compare_schedule(tool, comp, schedule)
    if tools.have("gcc"):
        data["gcc dumps"] = tools.gcc_dumps()
    if tools.have("llc"):
        data["llvm targets"] = tools.llvm_targets()
    tools.SAVED.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    tools.SAVED.write_text(text + "\n", encoding="utf-8")
    print(f"saved {len(data)} entries in {tools.SAVED}")


if __name__ == "__main__":
    main()
