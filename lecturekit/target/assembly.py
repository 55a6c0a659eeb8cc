"""Cutting compiler output into the blocks lecturekit and llvm-mca time.

:func:`functions` splits ``clang -S`` / ``gcc -S`` output into functions (directives dropped);
:func:`loops` finds a function's innermost loops as natural loops of its control-flow graph (a
back edge goes to a block that dominates it); :func:`loop_body` is the older, simpler cut (the
shortest stretch from a label to the last branch back to it); :func:`instructions_only` keeps
one instruction a line, as llvm-mca and lecturekit read a block.
"""

from __future__ import annotations

import re

from ..errors import LectureKitError
from ..language import _

_LABEL_LINE = re.compile(r"^([A-Za-z_.$][A-Za-z0-9_.$]*):")


def functions(asm: str) -> dict[str, str]:
    """Each function in clang/GCC output (``.type name,@function``) -> its text, labels and
    instructions, directives dropped."""
    names = re.findall(r"\.type\s+([A-Za-z_.$][A-Za-z0-9_.$]*)\s*,\s*@function", asm)
    out: dict[str, str] = {}
    lines = asm.splitlines()
    for name in names:
        start = next((i for i, ln in enumerate(lines) if ln.startswith(name + ":")), None)
        if start is None:
            continue
        body = [lines[start]]
        for ln in lines[start + 1 :]:
            s = ln.strip()
            if s.startswith((".Lfunc_end", ".size")) or (
                _LABEL_LINE.match(ln) and not ln.startswith(".")
            ):
                break
            if s.startswith(".") and not _LABEL_LINE.match(s):
                continue  # a directive
            if s:
                body.append(ln)
        out[name] = "\n".join(body) + "\n"
    return out


def function_body(asm: str, name: str | None = None) -> str:
    """The text of function ``name`` (default: the first one)."""
    funcs = functions(asm)
    if not funcs:
        raise LectureKitError(_("no function found in the assembly (no '.type NAME,@function')"))
    if name is None:
        return next(iter(funcs.values()))
    if name not in funcs:
        raise LectureKitError(
            _("no function {name!r} in the assembly; functions: {join}").format(
                name=name, join=", ".join(funcs)
            )
        )
    return funcs[name]


def _loop_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line of every loop: a label and the last branch back to it below."""
    spans = []
    for i, ln in enumerate(lines):
        m = _LABEL_LINE.match(ln.strip())
        if not m:
            continue
        label = m.group(1)
        last = None
        for j in range(i + 1, len(lines)):
            ops = lines[j].split("#")[0].replace(",", " ").split()
            if ops and ops[0][0] in "bj" and ops[-1] == label:
                last = j
        if last is not None:
            spans.append((i, last))
    return spans


def loops(asm: str, function: str | None = None) -> list[str]:
    """Every innermost loop of a function, in order, as text: the natural loops of its control
    flow graph (a back edge goes to a block that dominates it) that hold no other loop, each
    written from its first to its last line in the layout (an unrolled loop and its remainder
    loop are two). Unlike :func:`loop_body`, this finds a loop whose back edge falls through to
    its header, or whose body branches back and forth inside."""
    text = function_body(asm, function) if ".type" in asm else asm
    lines = [ln for ln in text.splitlines() if ln.strip()]
    blocks = _basic_blocks(lines)
    if not blocks:
        return []
    succ = _successors(blocks, lines)
    dom = _dominators(succ)
    bodies: dict[int, set[int]] = {}
    for b in range(len(blocks)):
        for h in succ[b]:
            if h in dom[b]:  # a back edge b -> h: the natural loop of h
                body = bodies.setdefault(h, {h})
                todo = [b]
                while todo:
                    x = todo.pop()
                    if x not in body:
                        body.add(x)
                        todo.extend(p for p in range(len(blocks)) if x in succ[p])
    inner = [h for h, body in bodies.items() if not any(o != h and o in body for o in bodies)]
    out = []
    for h in sorted(inner, key=lambda h: min(blocks[x][0] for x in bodies[h])):
        first = min(blocks[x][0] for x in bodies[h])
        last = max(blocks[x][1] for x in bodies[h])
        out.append("\n".join(lines[first : last + 1]) + "\n")
    return out


_JUMPS = ("j", "jr", "ret", "tail")


def _words(line: str) -> list[str]:
    body = re.sub(r"^\s*([A-Za-z_.$][A-Za-z0-9_.$]*:\s*)+", "", line.split("#")[0])
    return body.replace(",", " ").split()


def _basic_blocks(lines: list[str]) -> list[tuple[int, int, list[str]]]:
    """(first line, last line, labels) of each basic block, in layout order."""
    out: list[tuple[int, int, list[str]]] = []
    start, labels = None, []
    for i, ln in enumerate(lines):
        m = re.match(r"\s*([A-Za-z_.$][A-Za-z0-9_.$]*):", ln)
        if m and start is not None and (labels or i > start):
            out.append((start, i - 1, labels))
            start, labels = None, []
        if start is None:
            start = i
        if m:
            labels.append(m.group(1))
        w = _words(ln)
        if w and (w[0][0] in "bj" or w[0] in _JUMPS):
            out.append((start, i, labels))
            start, labels = None, []
    if start is not None:
        out.append((start, len(lines) - 1, labels))
    return out


def _successors(blocks, lines: list[str]) -> list[set[int]]:
    """Each block's successors: the block after it (unless it ends in a jump) and the block
    its branch goes to (when the label is in the function)."""
    where = {name: j for j, (_a, _b, names) in enumerate(blocks) for name in names}
    out = []
    for k, (_first, last, _names) in enumerate(blocks):
        w = _words(lines[last])
        nxt: set[int] = set()
        jump = bool(w) and (w[0] in _JUMPS or w[0] == "j")
        if not jump and k + 1 < len(blocks):
            nxt.add(k + 1)
        if w and (w[0][0] in "bj") and w[-1] in where:
            nxt.add(where[w[-1]])
        out.append(nxt)
    return out


def _dominators(succ: list[set[int]]) -> list[set[int]]:
    """Each block's dominators (block 0 is the entry); unreachable blocks dominate nothing."""
    n = len(succ)
    preds = [[p for p in range(n) if k in succ[p]] for k in range(n)]
    dom = [set(range(n)) for _ in range(n)]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for k in range(1, n):
            new = set.intersection(*(dom[p] for p in preds[k])) if preds[k] else set()
            new = new | {k}
            if new != dom[k]:
                dom[k], changed = new, True
    return dom


def loop_body(asm: str, function: str | None = None) -> str:
    """The innermost loop of a function: from a label to the last branch back to it (the
    shortest such stretch), as text. LectureKitError if the function has no loop."""
    text = function_body(asm, function) if ".type" in asm else asm
    lines = [ln for ln in text.splitlines() if ln.strip()]
    spans = _loop_spans(lines)
    if not spans:
        raise LectureKitError(_("no loop found (no branch back to a label above it)"))
    i, j = min(spans, key=lambda s: (s[1] - s[0], s[0]))
    return "\n".join(lines[i : j + 1]) + "\n"


def instructions_only(block: str) -> str:
    """The block without labels, comments or directives: one instruction a line (what llvm-mca
    and lecturekit compare)."""
    out = []
    for ln in block.splitlines():
        s = ln.split("#")[0]
        s = re.sub(r"^\s*[A-Za-z_.$][A-Za-z0-9_.$]*:", "", s).strip()
        if s and not s.startswith("."):
            out.append(s)
    return "\n".join(out) + "\n"


__all__ = ["function_body", "functions", "instructions_only", "loop_body", "loops"]
