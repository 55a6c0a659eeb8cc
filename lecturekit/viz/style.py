"""Colours and marks shared by every drawing, so an instruction looks the same everywhere.

Instruction ``k`` (0-based program index) always has :func:`instruction_color` ``(k)``: in the
stage table, in the timeline and in the dependence graph. The first four are the slides' colours
(red, green, blue, purple), so the lecture's four-``add`` example looks as it does on the slides,
and a reordered block keeps each instruction's colour.

No matplotlib import here: colours are plain hex strings.
"""

from __future__ import annotations

#: Colours of instructions I1, I2, ... in program order (the slides use red, green, blue, purple).
INSTRUCTION_COLORS = (
    "#e15759",  # red
    "#59a14f",  # green
    "#4e79a7",  # blue
    "#b07aa1",  # purple
    "#f28e2b",  # orange
    "#76b7b2",  # teal
    "#edc948",  # yellow
    "#ff9da7",  # pink
    "#9c755f",  # brown
    "#8cd17d",  # light green
    "#a0cbe8",  # light blue
    "#d4a6c8",  # mauve
)

#: Edge colour and line style per dependence kind.
EDGE_STYLES = {
    "RAW": ("#222222", "solid"),
    "WAR": ("#1f77b4", "dashed"),
    "WAW": ("#2ca02c", "dotted"),
    "CTRL": ("#7f7f7f", "dashdot"),
}
DEFAULT_EDGE_STYLE = ("#555555", "solid")
#: A dependence listed but ordered through a store between (not an edge of the scheduler's graph).
IMPLIED_EDGE_STYLE = ("#a0a0a0", (0, (1, 2)))

#: The critical path (nodes' border and edges).
CRITICAL_COLOR = "#d62728"

#: Node fill per list-scheduling state.
STATE_COLORS = {
    "scheduled": "#c7c7c7",  # grey: placed already
    "ready": "#98df8a",  # green: all predecessors placed, may be picked now
    "waiting": "#ffffff",  # white: some predecessor not placed yet
}

#: Hatch of a cell where an instruction is held (the same stage as in the cycle before).
HELD_HATCH = "////"
#: Colour of a table's empty cell, and of rows not reached yet while stepping.
EMPTY_COLOR = "#ffffff"
FUTURE_COLOR = "#f4f4f4"
GRID_COLOR = "#9a9a9a"
#: Annotation text (stall causes, node annotations).
NOTE_COLOR = "#1f3f8f"
STALL_NOTE_COLOR = "#b00000"


def instruction_color(k: int) -> str:
    """The colour of instruction ``k`` (0-based program index); cycles through the palette."""
    return INSTRUCTION_COLORS[k % len(INSTRUCTION_COLORS)]


def _rgb(color: str) -> tuple[float, float, float]:
    color = color.lstrip("#")
    return tuple(int(color[i : i + 2], 16) / 255 for i in (0, 2, 4))


def lighten(color: str, amount: float = 0.6) -> str:
    """``color`` mixed with white (``amount`` 0 = unchanged, 1 = white)."""
    r, g, b = (c + (1 - c) * amount for c in _rgb(color))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def text_color_on(color: str) -> str:
    """Black or white, whichever reads better on ``color``."""
    r, g, b = _rgb(color)
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return "#000000" if luminance > 0.55 else "#ffffff"


__all__ = [
    "CRITICAL_COLOR",
    "DEFAULT_EDGE_STYLE",
    "EDGE_STYLES",
    "IMPLIED_EDGE_STYLE",
    "EMPTY_COLOR",
    "FUTURE_COLOR",
    "GRID_COLOR",
    "HELD_HATCH",
    "INSTRUCTION_COLORS",
    "NOTE_COLOR",
    "STALL_NOTE_COLOR",
    "STATE_COLORS",
    "instruction_color",
    "lighten",
    "text_color_on",
]
