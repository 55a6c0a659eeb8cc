"""The README's two set-up commands, read from README.md as a reader copies them.

Usage: python3 tools/readme_commands.py open|test [bash|powershell]

prints the README's command that opens the course (``open``) or runs every test (``test``), for
Linux and macOS (``bash``, the default) or Windows (``powershell``), exactly as written. ``.ci/run``
runs the Linux ones this way, so CI tests the words a new user pastes into a fresh terminal
(tests/test_readme.py checks their form). Standard library only: CI runs it with the system's
``python3`` before any environment exists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

#: what tells the two commands apart
MARKS = {"open": "jupyter lab", "test": "pytest"}
#: how every command of a platform starts: it makes (or reuses) the virtual environment .venv
STARTS = {"bash": "python3 -m venv .venv", "powershell": "py -m venv .venv"}


def commands(text: str, shell: str = "bash") -> dict[str, str]:
    """{"open": ..., "test": ...}: the set-up commands in ``shell`` code blocks of ``text``;
    ValueError unless each is there exactly once."""
    lines = [
        line.strip()
        for block in re.findall(rf"```{shell}\n(.*?)```", text, re.S)
        for line in block.splitlines()
        if line.strip().startswith(STARTS[shell])
    ]
    found = {}
    for kind, mark in MARKS.items():
        matching = [line for line in lines if mark in line]
        if len(matching) != 1:
            raise ValueError(
                f"README.md: expected one {shell} command that starts with {STARTS[shell]!r} "
                f"and runs {mark!r}, found {len(matching)}: {matching}"
            )
        found[kind] = matching[0]
    return found


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in MARKS or len(argv) > 2 or (argv[1:] and argv[1] not in STARTS):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        print(commands(README.read_text(encoding="utf-8"), *argv[1:])[argv[0]])
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
