"""The interpreter a code question's function is called in beside the student's kernel
(``grader.check``): started and ended alike on Linux, macOS and Windows.

Grading a class runs the callee (:mod:`.callee`) in a bubblewrap sandbox (:mod:`.sandbox`, Linux
only). A student checks on their own machine, which may be a Mac or a Windows PC, so this path
asks only for what all three have:

* the interpreter, ``python -I -S`` (no site-packages, no user site, no environment variables):
  on POSIX the base interpreter, as the sandbox runs it; on Windows ``sys.executable`` (a virtual
  environment's ``python.exe`` starts its base interpreter, whose real path may be a Microsoft
  Store package that cannot be started directly);
* the packages a question allows (numpy): each named to the callee with its folder, and imported
  from there by name only (no links on disk: Windows makes them only for an administrator or in
  developer mode);
* where POSIX is there, the callee's time limit is ``SIGALRM``, the trusted side waits with
  ``select`` and ends the callee's process group; the *portable* way, which Windows takes (it
  has no ``SIGALRM``, no ``select`` on pipes, no process groups to kill), is a watchdog thread
  in the callee that interrupts the call (``_thread.interrupt_main``), a thread here that reads
  the pipe (:class:`.calls.Channel`), and ``proc.kill()``, after ``taskkill /T`` on Windows for
  what the call started. A call that does not stop is killed either way: the time limit holds.

``LECTUREKIT_PORTABLE_CALLS=1`` makes Linux and macOS take the portable way too, so that tests
run it where no Windows machine is at hand. Nothing here imports :mod:`.sandbox` or ``resource``.
This process is not a sandbox: it teaches the restriction grading enforces.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

from ..errors import LectureKitError
from ..language import _

#: set (to anything but ``0``) to take the portable way where POSIX is there (for the tests)
PORTABLE_ENV = "LECTUREKIT_PORTABLE_CALLS"
CALLEE = Path(__file__).resolve().parent / "callee.py"


def portable() -> bool:
    """Whether ``grader.check`` does without POSIX facilities: always on Windows, and on Linux or
    macOS when ``LECTUREKIT_PORTABLE_CALLS`` says so."""
    if os.environ.get(PORTABLE_ENV, "0") not in ("", "0"):
        return True
    return not (os.name == "posix" and hasattr(signal, "SIGALRM") and hasattr(os, "killpg"))


def base_python() -> str:
    """The interpreter itself (not a virtualenv's link to it): a call sandbox binds no venv."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def package_folders(packages: list[str]) -> list[tuple[str, str]]:
    """(folder, name) of each allowed package (numpy) and of the vendored libraries beside it
    (``numpy.libs`` in a manylinux wheel); a :class:`LectureKitError` for one not installed."""
    found = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise LectureKitError(
                _("a code question allows the package {name!r}: not installed").format(name=name)
            )
        folder = os.path.realpath(list(spec.submodule_search_locations)[0])
        found.append((folder, name))
        libs = folder + ".libs"
        if os.path.isdir(libs):
            found.append((libs, name + ".libs"))
    return found


def command(packages: list[str]) -> list[str]:
    """The command line of a callee beside the kernel, allowed ``packages`` (by name and
    folder: ``--package numpy FOLDER``; their ``.libs`` are found from their real place)."""
    way = ["--watchdog"] if portable() else []
    python = (sys.executable or base_python()) if portable() else base_python()
    allowed = []
    for folder, name in package_folders(packages):
        if name in packages:
            allowed += ["--package", name, folder]
    return [python, "-I", "-S", str(CALLEE), *way, *allowed]


def start(cmd: list[str], folder: str | Path) -> subprocess.Popen:
    """The callee, its pipes binary, its working directory ``folder``, out of the kernel's
    reach for a terminal's Ctrl+C (a session of its own; on Windows a process group of its own,
    and no console window)."""
    if os.name == "nt":
        flags = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        options: dict = {"creationflags": flags}
    else:
        options = {"start_new_session": True}
    return subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=str(folder),
        **options,
    )


def end(proc: subprocess.Popen, grace: float = 0.2) -> None:
    """End a callee without process groups. Its input closed (by the caller), an idle callee
    ends by itself; one still running after ``grace`` seconds is killed, on Windows with what it
    started (``taskkill /F /T``: the process tree)."""
    try:
        proc.wait(grace)
        return
    except subprocess.TimeoutExpired:
        pass
    if os.name == "nt":
        try:
            subprocess.run(
                ["taskkill", "/F", "/T", "/PID", str(proc.pid)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=30,
                creationflags=subprocess.CREATE_NO_WINDOW,
            )
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        proc.kill()
        proc.wait(10)
    except (OSError, subprocess.TimeoutExpired):
        pass
