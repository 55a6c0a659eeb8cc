"""Submissions built from a committed exercise, shared by the grading tests
(tests/test_grading.py grades them in each set's one run; tests/test_grading_security.py grades
the attacks)."""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def exercise_with(master: Path, answers: dict[str, str], extra: list[tuple[str, str]]) -> object:
    """The committed exercise with some answer cells replaced (``name -> source`` for the cell
    that assigns/defines ``name``) and extra cells inserted after the cell defining a name
    (``("", src)``: right after the first cell)."""
    nb = nbformat.read(str(ROOT / "exercises" / master.name), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for name, source in answers.items():
            if cell.source.startswith((f"{name} =", f"def {name}(")):
                cell.source = source
    for after, source in extra:
        at = 1
        if after:
            at = 1 + next(
                i
                for i, c in enumerate(nb.cells)
                if c.cell_type == "code" and c.source.startswith((f"{after} =", f"def {after}("))
            )
        nb.cells.insert(at, nbformat.v4.new_code_cell(source))
    return nb


def wrapper_for(name: str, forbidden: str) -> str:
    """A function ``name`` that answers by calling the library function ``forbidden``."""
    return (
        f"def {name}(*args, **kwargs):\n"
        "    import importlib, inspect\n"
        f"    parts = {forbidden!r}.split('.')\n"
        "    for cut in range(len(parts) - 1, 0, -1):\n"
        "        try:\n"
        "            obj = importlib.import_module('.'.join(parts[:cut]))\n"
        "        except ImportError:\n"
        "            continue\n"
        "        for attr in parts[cut:]:\n"
        "            get = inspect.getattr_static if isinstance(obj, type) else getattr\n"
        "            obj = get(obj, attr)\n"
        "        break\n"
        "    fn = obj.fget if isinstance(obj, property) else getattr(obj, '__func__', obj)\n"
        "    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)\n"
        "    need = [p for p in inspect.signature(fn).parameters.values()\n"
        "            if p.default is p.empty and p.kind in kinds]\n"
        "    return fn(*args[: len(need)], *[None] * (len(need) - len(args)))"
    )
