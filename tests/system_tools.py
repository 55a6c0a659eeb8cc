"""The optional tools some tests need, and one rule for when one is missing.

Installing lecturekit needs only Python and pip; a few tests need more: bubblewrap (every
grading run sandboxes its submissions), Chromium and Playwright (the browser tests), clang,
llvm-mca and a RISC-V GCC (chapter 12's live comparisons), PyTorch (measured against the memory
calculator and its pipelining orders), a font with Chinese characters (Chinese figures). A test
names what it needs with the marker ``@pytest.mark.needs("bwrap")`` (or calls :func:`require`
where it finds out late); when a tool is missing, the test skips with one line saying what to
install, and under CI (``CI`` set to anything but ``false``/``0``), where ``.ci/run`` installs
them all, it fails instead, so a broken CI image cannot pass by skipping.
"""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import subprocess

import pytest

#: tool -> what to install (one line, shown when the tool is missing)
INSTALL = {
    "bwrap": "bubblewrap, the grading sandbox (Debian/Ubuntu: `apt-get install bubblewrap`; "
    "Fedora: `dnf install bubblewrap`; Linux only)",
    "chromium": "Chromium and Playwright for the browser tests (Debian/Ubuntu: "
    "`apt-get install chromium fonts-wqy-microhei`; Playwright comes with "
    "`pip install -e '.[test]'`; LECTUREKIT_CHROMIUM names another Chromium binary)",
    "clang": "clang for chapter 12 (Debian/Ubuntu: `apt-get install clang-14`)",
    "llvm-mca": "llvm-mca for chapter 12 (Debian/Ubuntu: `apt-get install llvm-14`)",
    "gcc-riscv": "a RISC-V GCC for chapter 12 (Debian/Ubuntu: "
    "`apt-get install gcc-riscv64-linux-gnu`)",
    "torch": "PyTorch, optional (`python -m pip install torch`; the CPU build is enough)",
    "cjk-font": "a font with Chinese characters for Chinese figures (Debian/Ubuntu: "
    "`apt-get install fonts-noto-cjk` or `fonts-wqy-microhei`; any system: "
    "`python -m pip install noto-cjk-sans-otc`)",
}


def under_ci() -> bool:
    """Whether this run is CI's (``CI`` set, as CI services and ``.ci/run``'s caller do)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@functools.cache
def missing(tool: str) -> str | None:
    """Why ``tool`` cannot be used here (one line), or None when it can."""
    if tool not in INSTALL:
        raise ValueError(f"unknown tool {tool!r}; tools: {', '.join(INSTALL)}")
    return _CHECKS[tool]()


def require(*tools: str) -> None:
    """Skip the running test (fail it under CI) unless every tool named is usable."""
    reasons = [r for r in map(missing, tools) if r]
    if reasons:
        unavailable("; ".join(reasons))


def unavailable(message: str) -> None:
    """Skip the running test saying ``message`` (what is missing and how to install it); under
    CI fail it instead."""
    if under_ci():
        pytest.fail(f"under CI every tool must be installed: {message}", pytrace=False)
    pytest.skip(message)


# -- one check per tool ------------------------------------------------------------------------


def _bwrap() -> str | None:
    exe = shutil.which("bwrap")
    if exe is None:
        return f"bwrap not found: install {INSTALL['bwrap']}"
    # installed is not enough: a container or a kernel may forbid the namespaces it makes
    probe = subprocess.run(
        [exe, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0:
        why = probe.stderr.strip().splitlines()[-1:] or [f"exit {probe.returncode}"]
        return (
            f"bwrap cannot make a sandbox here ({why[0]}): enable unprivileged user "
            "namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run as root"
        )
    return None


def _chromium() -> str | None:
    try:
        importlib.import_module("playwright.sync_api")
    except ImportError as exc:
        return f"playwright is not importable ({exc}): install {INSTALL['chromium']}"
    from browser_support import find_chromium

    if find_chromium() is None:
        return f"Chromium not found: install {INSTALL['chromium']}"
    return None


def _real(kind: str):
    def check() -> str | None:
        from lecturekit.target import real

        try:
            real.find_tool(kind)
        except real.ToolMissingError:
            return f"{kind} not found: install {INSTALL[kind]}"
        return None

    return check


def _torch() -> str | None:
    try:
        importlib.import_module("torch")
    except ImportError as exc:
        return f"torch is not importable ({exc}): install {INSTALL['torch']}"
    return None


def _cjk_font() -> str | None:
    from lecturekit.viz import fonts

    if fonts.cjk_font() is None:
        return f"no CJK font found: install {INSTALL['cjk-font']}"
    return None


_CHECKS = {
    "bwrap": _bwrap,
    "chromium": _chromium,
    "clang": _real("clang"),
    "llvm-mca": _real("llvm-mca"),
    "gcc-riscv": _real("gcc-riscv"),
    "torch": _torch,
    "cjk-font": _cjk_font,
}
