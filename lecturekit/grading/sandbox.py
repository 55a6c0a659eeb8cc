"""Run untrusted Python (a student's notebook) inside bubblewrap, and stop it for good.

``bwrap`` (Debian/Ubuntu package ``bubblewrap``) builds a throw-away mount, PID, network and IPC
namespace for every run, without a daemon, Docker or root-owned setup:

* the system (``/usr``) and the Python installation are bound read-only; of the course only the
  ``lecturekit`` *package* directory is there (read-only, or a generated copy, see
  :func:`package_copy`), bound at the path the editable install resolves it to; no solutions,
  ``build/``, tests, exercises or other submissions;
* the one writable place is the run's own scratch directory (bound at ``/sub``, the working
  directory), plus a private ``tmpfs`` ``/tmp``; ``/proc`` shows only the sandbox's own processes;
* no network, all capabilities dropped, a new session (no terminal injection), and the sandbox
  dies with the process that started it;
* resource limits: address space, CPU seconds, file size, number of processes.

:func:`stop` ends a run's whole process group: ``SIGTERM``, then ``SIGKILL`` after a grace period.
"""

from __future__ import annotations

import ast
import os
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from ..errors import LectureKitError

#: where a run's scratch directory appears inside the sandbox (its working directory)
INSIDE = "/sub"
PACKAGE = Path(__file__).resolve().parent.parent

MEMORY_BYTES = 3 * 2**30
FILE_BYTES = 64 * 2**20
EXTRA_PROCESSES = 64


def bwrap() -> str:
    """The ``bwrap`` executable, checked to work here, or a :class:`LectureKitError` saying
    what to install or enable."""
    exe = shutil.which("bwrap")
    if exe is None:
        raise LectureKitError(
            "grading runs every submission in a bubblewrap sandbox, and `bwrap` is not "
            "installed: install it (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: "
            "`dnf install bubblewrap`) and grade again"
        )
    probe = subprocess.run(
        [*command(exe, Path("/nonexistent"), PACKAGE, bind_scratch=False), "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0:
        raise LectureKitError(
            "bubblewrap is installed but cannot make a sandbox here "
            f"({probe.stderr.strip() or probe.returncode}): enable unprivileged user "
            "namespaces (`sysctl kernel.unprivileged_userns_clone=1`, "
            "`sysctl user.max_user_namespaces=15000`) or grade as root on a machine "
            "that allows namespaces"
        )
    return exe


def _python_dirs() -> list[str]:
    """Directories the interpreter and its installed packages live in (bound read-only)."""
    found = []
    for path in {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        str(Path(sys.executable).resolve().parent.parent),
    }:
        real = os.path.realpath(path)
        if os.path.isdir(real) and not real.startswith("/usr/"):
            found.append(real)
    found.sort(key=len)
    kept: list[str] = []
    for path in found:  # a directory inside one already bound needs no bind of its own
        if not any(path == k or path.startswith(k + "/") for k in kept):
            kept.append(path)
    return kept


def command(exe: str, scratch: Path, package: Path, *, bind_scratch: bool = True) -> list[str]:
    """The ``bwrap`` command line (without the program to run) for one sandboxed run."""
    # /proc, /dev and the private /tmp first: a bind below them (a course or a virtualenv that
    # lives under /tmp) must be mounted on top of the tmpfs, not hidden by it
    cmd = [exe, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib32", "lib64", "sbin"):
        target = Path("/") / name
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    for path in _python_dirs():
        cmd += ["--ro-bind", path, path]
    for name in ("/etc/localtime", "/etc/ssl", "/etc/fonts", "/etc/alternatives"):
        if os.path.exists(name):
            cmd += ["--ro-bind", name, name]
    # the package, at the path the (editable) install resolves ``import lecturekit`` to
    cmd += ["--ro-bind", str(package), str(PACKAGE)]
    if bind_scratch:
        cmd += ["--bind", str(scratch), INSIDE, "--chdir", INSIDE]
    cmd += [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
        "--setenv",
        "HOME",
        "/tmp",
        "--setenv",
        "PATH",
        f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "--setenv",
        "MPLBACKEND",
        "Agg",
        "--setenv",
        "MPLCONFIGDIR",
        "/tmp",
        "--setenv",
        "PYTHONDONTWRITEBYTECODE",
        "1",
        "--setenv",
        "PYTHONHASHSEED",
        "0",
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--",
    ]
    return cmd


def _count_own_processes() -> int:
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += 1
            except OSError:
                pass
    return count


def limiter(cpu_seconds: float):
    """A ``preexec_fn`` setting the run's resource limits (inherited by everything inside)."""
    processes = _count_own_processes() + EXTRA_PROCESSES

    def apply() -> None:
        cpu = max(1, int(cpu_seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def stop(proc: subprocess.Popen, grace: float = 2.0) -> None:
    """End ``proc``'s whole process group: SIGTERM, then SIGKILL after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # anything the group left behind
    except (ProcessLookupError, PermissionError):
        pass
    proc.poll()


# -- a copy of the package where some functions cannot be called ----------------------------
def package_copy(forbidden: dict[str, str], target: Path) -> Path:
    """Copy the ``lecturekit`` package to ``target`` with the body of every function named in
    ``forbidden`` (``"lecturekit.core.bounds.heights"`` or ``"...module.Class.method"`` ->
    message) replaced by ``raise LectureKitError(message)``.

    The copy is what a submission's functions run against: the forbidden code is not in the
    process, on disk or importable under any name, so no alias, fresh import or introspection
    brings it back.
    """
    by_file: dict[Path, dict[tuple[str, ...], str]] = {}
    for name, message in forbidden.items():
        parts = name.split(".")
        if parts[0] != "lecturekit":
            raise LectureKitError(f"forbidden function {name!r}: only lecturekit's can be named")
        for cut in range(len(parts) - 1, 0, -1):
            module = PACKAGE.joinpath(*parts[1:cut])
            for candidate in (module.with_suffix(".py"), module / "__init__.py"):
                if candidate.is_file():
                    by_file.setdefault(candidate, {})[tuple(parts[cut:])] = message
                    break
            else:
                continue
            break
        else:
            raise LectureKitError(f"forbidden function {name!r}: no such module in lecturekit")
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for path, names in by_file.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = _disable(tree.body, (), names)
        missing = set(names) - found
        if missing:
            raise LectureKitError(
                f"forbidden function(s) {', '.join('.'.join(m) for m in sorted(missing))} "
                f"not found in {path}"
            )
        out = target / path.relative_to(PACKAGE)
        out.write_text(ast.unparse(ast.fix_missing_locations(tree)), encoding="utf-8")
    return target


def _disable(body: list, prefix: tuple[str, ...], names: dict) -> set:
    found = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            key = (*prefix, node.name)
            if key in names:
                raise_stmt = ast.parse(
                    "from lecturekit.errors import LectureKitError as _LkE\n"
                    f"raise _LkE({names[key]!r})"
                ).body
                node.body = raise_stmt
                found.add(key)
        elif isinstance(node, ast.ClassDef):
            found |= _disable(node.body, (*prefix, node.name), names)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            key = (*prefix, target.id) if isinstance(target, ast.Name) else None
            if key in names and isinstance(node.value, ast.Lambda):
                node.value.body = ast.parse(
                    "(_ for _ in ()).throw(__import__('lecturekit.errors').errors.LectureKitError("
                    f"{names[key]!r}))",
                    mode="eval",
                ).body
                found.add(key)
    return found
