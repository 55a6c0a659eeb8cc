"""lecturekit: instruction scheduling and the parallel training of large models, computed.

The notebooks import from here. Importing the package is cheap: drawing (:mod:`lecturekit.viz`)
and widget (:mod:`lecturekit.widgets`) modules load matplotlib and ipywidgets only when used.
"""

from .errors import (
    ConfigError,
    DeadlockError,
    LectureKitError,
    MachineError,
    ParseError,
    ScheduleError,
)
from .isa import Instruction, MemRef, Program, parse

__version__ = "0.1.0"

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
