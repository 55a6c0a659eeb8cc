"""lecturekit: instruction scheduling and the parallel training of large models, computed.

The notebooks import from here. Importing the package is cheap: it loads the error classes, and
:func:`parse` and the instruction classes from :mod:`lecturekit.isa` on first use; drawing
(:mod:`lecturekit.viz`) and widget (:mod:`lecturekit.widgets`) modules load matplotlib and
ipywidgets only when used.
"""

from importlib import import_module

from .errors import (
    ConfigError,
    DeadlockError,
    LectureKitError,
    MachineError,
    ParseError,
    ScheduleError,
)

__version__ = "0.1.0"

#: names loaded from :mod:`lecturekit.isa` on first use, so ``import lecturekit`` stays cheap
_FROM_ISA = ("Instruction", "MemRef", "Program", "parse")


def __getattr__(name: str):
    if name in _FROM_ISA or name == "isa":
        isa = import_module(".isa", __name__)
        value = isa if name == "isa" else getattr(isa, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FROM_ISA))


__all__ = [
    "ConfigError",
    "DeadlockError",
    "Instruction",
    "LectureKitError",
    "MachineError",
    "MemRef",
    "ParseError",
    "Program",
    "ScheduleError",
    "parse",
]
