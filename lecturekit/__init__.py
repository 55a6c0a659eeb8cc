"""lecturekit: instruction scheduling and the parallel training of large models, computed.

The notebooks import from here. Importing the package is cheap: it loads the error classes, and
:func:`parse` and the instruction classes from :mod:`lecturekit.asm` on first use; drawing
(:mod:`lecturekit.viz`) and widget (:mod:`lecturekit.widgets`) modules load matplotlib and
ipywidgets only when used. :func:`set_language` chooses English or Chinese for everything the
library shows (:mod:`lecturekit.language`), and ``_``, ``ngettext`` and ``pgettext`` put a
chapter's own text through the same catalog (``from lecturekit import _``, then
``print(_("{n} cycles").format(n=n))``). Modules that moved keep their old names
(:data:`MOVED`); the map of the folders is in docs/DESIGN.md ("Layout").
"""

import sys
from importlib import import_module
from importlib.machinery import ModuleSpec

from .errors import (
    ConfigError,
    DeadlockError,
    LectureKitError,
    MachineError,
    ParseError,
    ScheduleError,
)
from .language import _, get_language, keep_underscore, ngettext, pgettext, set_language

__version__ = "0.1.0"

#: Modules that moved when the package was grouped into folders (November 2026): old name ->
#: where it is now. Notebooks saved before the move, a student's own code and submissions still
#: being graded import ``lecturekit.isa``, ``lecturekit.deps``, ``lecturekit.check``, ...; each
#: old name imports the module at its new place (the same module object, so a function patched
#: or disabled there is patched or disabled under the old name too). New code uses the new
#: names; ``tests/test_layout.py`` checks that nothing in the course still uses an old one.
MOVED = {
    "lecturekit.isa": "lecturekit.asm",
    "lecturekit.riscv": "lecturekit.asm.riscv",
    "lecturekit.randomblocks": "lecturekit.asm.random_blocks",
    "lecturekit.machine": "lecturekit.target.machine",
    "lecturekit.deps": "lecturekit.target.deps",
    "lecturekit.pipeline": "lecturekit.target.pipeline",
    "lecturekit.real": "lecturekit.target.real",
    "lecturekit.grading_run": "lecturekit.grading.run",
    "lecturekit.sandbox": "lecturekit.grading.sandbox",
    "lecturekit.check": "lecturekit.grading.check",
    "lecturekit.llm.pp_schedules": "lecturekit.llm.pipeline_parallel.generators",
    "lecturekit.llm.torch_pipelining": "lecturekit.llm.pipeline_parallel.torch_interchange",
}


class _OldNames:
    """An import-system finder and loader: an old name in :data:`MOVED` gives the module at its
    new place."""

    def __init__(self) -> None:
        self._specs: dict[str, ModuleSpec] = {}

    def find_spec(self, fullname, path=None, target=None):
        return ModuleSpec(fullname, self) if fullname in MOVED else None

    def create_module(self, spec):
        module = import_module(MOVED[spec.name])
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module) -> None:
        # the import system gave the module the old name's spec; it keeps its own
        module.__spec__ = self._specs.pop(module.__name__, module.__spec__)


if not any(isinstance(f, _OldNames) for f in sys.meta_path):
    sys.meta_path.insert(0, _OldNames())

keep_underscore()  # in a notebook: a student's `for _ in ...` does not break a chapter's text

#: names loaded from :mod:`lecturekit.asm` on first use, so ``import lecturekit`` stays cheap
_FROM_ASM = ("Instruction", "MemRef", "Program", "parse")


def __getattr__(name: str):
    if name in _FROM_ASM or name == "asm":
        asm = import_module(".asm", __name__)
        value = asm if name == "asm" else getattr(asm, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")  # i18n: not shown


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FROM_ASM))


__all__ = [
    "_",
    "ConfigError",
    "DeadlockError",
    "Instruction",
    "LectureKitError",
    "MachineError",
    "MemRef",
    "ParseError",
    "Program",
    "ScheduleError",
    "get_language",
    "ngettext",
    "parse",
    "pgettext",
    "set_language",
]
