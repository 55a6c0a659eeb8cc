"""Regions larger than a basic block: global scheduling on a control-flow graph (chapter 13).

* :mod:`~lecturekit.regions.cfg` -- a small control-flow graph of the lecture's assembly:
  basic blocks, their successors, liveness, laying it out as code again.
* :mod:`~lecturekit.regions.paths` -- running a CFG on the interpreter: the path an input
  takes, its cycles on a machine (the instructions it executes, through the pipeline), profiles,
  and the check that transformed code gives the same results on every path.
* :mod:`~lecturekit.regions.trace` -- traces (the likely path), trace scheduling with
  compensation code, tail duplication and superblocks.
* :mod:`~lecturekit.regions.ifconvert` -- if-conversion: a branchy region (a diamond, a loop
  body with an ``if``) becomes one block of straight-line code with selects.

Above :mod:`lecturekit.target` (blocks are scheduled there) and :mod:`lecturekit.loops` (its
interpreter proves the transformations right); nothing here draws.
"""

from .cfg import CFG, Block, RegionError, cfg_of
from .ifconvert import if_convert
from .paths import path_cycles, run_path, same_on_every_path
from .trace import (
    GlobalSchedule,
    schedule_trace,
    select_trace,
    superblock,
    tail_duplicate,
)

__all__ = [
    "CFG",
    "Block",
    "GlobalSchedule",
    "RegionError",
    "cfg_of",
    "if_convert",
    "path_cycles",
    "run_path",
    "same_on_every_path",
    "schedule_trace",
    "select_trace",
    "superblock",
    "tail_duplicate",
]
