"""Run untrusted Python (a student's notebook, a student's function) inside bubblewrap, and stop
it for good.

``bwrap`` (Debian/Ubuntu package ``bubblewrap``) builds a throw-away mount, PID, network and IPC
namespace for every run, without a daemon, Docker or root-owned setup. Two kinds of sandbox:

* :func:`command` runs the submission's *cells*: the system (``/usr``) and the Python installation
  are bound read-only, and of the course only the ``lecturekit`` *package* (for exploring, as in
  the student's own notebook), at the path the editable install resolves it to; no solutions,
  ``build/``, tests, exercises or other submissions;
* :func:`call_command` runs a code question's *functions* (:mod:`.callee`) with the standard
  library only: the base interpreter, its site-packages folders hidden under empty read-only
  mounts, no virtualenv, no course, and of the site-packages only those the question allows
  (numpy), bound one by one into ``/lk/site``.

In both, the only writable places are size-capped tmpfs mounts (the scratch directory ``/sub``,
the working directory with the submission's notebook bound read-only into it, ``/tmp`` and
``/dev/shm``; ``/`` and ``/dev`` are read-only), so nothing reaches the host's disk; no network,
all capabilities dropped, a new session (no terminal injection), and the sandbox dies with the
process that started it. :func:`limiter` sets the rlimits and moves the sandbox into the
submission's control group (:mod:`.limits`: processes and memory of all its processes
together). :func:`stop` ends a run's whole process group: ``SIGTERM``, then ``SIGKILL`` after a
grace period.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from ..errors import LectureKitError
from ..language import _
from . import limits
from .local_callee import base_python, package_folders

#: where a run's scratch directory appears inside the sandbox (its working directory)
INSIDE = "/sub"
PACKAGE = Path(__file__).resolve().parent.parent

# the names these limits had here before they moved to :mod:`.limits`
MEMORY_BYTES = limits.PROCESS_ADDRESS_SPACE
FILE_BYTES = limits.FILE_BYTES
EXTRA_PROCESSES = limits.PROCESSES

#: where the callee's three modules appear in a call sandbox, and the allowed packages
CALL_DIR = "/lk/call"
SITE_DIR = "/lk/site"
CALLEE_FILES = ("callee.py", "portable.py", "protocol.py")
#: whether this bubblewrap caps a tmpfs's size (set by :func:`bwrap`; without it a tmpfs is
#: uncapped and ``lecturekit grade`` refuses unless ``--unsafe``)
SIZED: list[bool] = [True]


def _sized(size: int) -> list[str]:
    return ["--size", str(size)] if SIZED[0] else []


def bwrap() -> str:
    """The ``bwrap`` executable, checked to work here, or a :class:`LectureKitError` saying
    what to install or enable."""
    if not sys.platform.startswith("linux"):
        import platform

        raise LectureKitError(
            _(
                "grading runs every submission in a bubblewrap sandbox, which needs Linux, not "
                "{system}: grade on a Linux machine (students' grader.check works on Linux, "
                "macOS and Windows)"
            ).format(system=platform.system())
        )
    exe = shutil.which("bwrap")
    if exe is None:
        raise LectureKitError(
            _(
                "grading runs every submission in a bubblewrap sandbox, and `bwrap` is not "
                "installed: install it (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: "
                "`dnf install bubblewrap`) and grade again"
            )
        )
    SIZED[:] = [limits.bwrap_sizes(exe)]
    probe = subprocess.run(
        [*command(exe, PACKAGE), "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0:
        raise LectureKitError(
            _(
                "bubblewrap is installed but cannot make a sandbox here ({reason}): "
                "enable unprivileged user namespaces (`sysctl "
                "kernel.unprivileged_userns_clone=1`, `sysctl "
                "user.max_user_namespaces=15000`) or grade as root on a machine that "
                "allows namespaces"
            ).format(reason=probe.stderr.strip() or probe.returncode)
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


def _system(exe: str) -> list[str]:
    """/proc, a read-only /dev with a capped /dev/shm, a capped /tmp, and /usr (read-only)."""
    # /proc, /dev and the private /tmp first: a bind below them (a course or a virtualenv that
    # lives under /tmp) must be mounted on top of the tmpfs, not hidden by it
    cmd = [exe, "--proc", "/proc", "--dev", "/dev"]
    cmd += [*_sized(limits.SHM_BYTES), "--tmpfs", "/dev/shm"]
    cmd += [*_sized(limits.TMP_BYTES), "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib32", "lib64", "sbin"):
        target = Path("/") / name
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    return cmd


def _isolation(env: dict[str, str]) -> list[str]:
    """Read-only / and /dev, the namespaces, no capabilities, and a clean environment."""
    cmd = ["--remount-ro", "/dev", "--remount-ro", "/"]
    cmd += ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    cmd += ["--clearenv"]
    base = {
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        # one thread per numeric library: a submission's tasks are capped (limits.PROCESSES)
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    for key, value in {**base, **env}.items():
        cmd += ["--setenv", key, value]
    return [*cmd, "--"]


def _scratch(notebooks: list[tuple[Path, str]]) -> list[str]:
    """The working directory /sub: a capped tmpfs with the notebook bound read-only into it."""
    cmd = [*_sized(limits.SCRATCH_BYTES), "--tmpfs", INSIDE]
    for path, name in notebooks:
        cmd += ["--ro-bind", str(path), f"{INSIDE}/{name}"]
    return [*cmd, "--chdir", INSIDE]


def command(exe: str, package: Path, notebooks: list[tuple[Path, str]] | None = None) -> list[str]:
    """The ``bwrap`` command line (without the program) for running a submission's cells;
    ``notebooks`` are (file, name) pairs bound read-only into the working directory."""
    cmd = _system(exe)
    for path in _python_dirs():
        cmd += ["--ro-bind", path, path]
    for name in ("/etc/localtime", "/etc/ssl", "/etc/fonts", "/etc/alternatives"):
        if os.path.exists(name):
            cmd += ["--ro-bind", name, name]
    # the package, at the path the (editable) install resolves ``import lecturekit`` to
    cmd += ["--ro-bind", str(package), str(PACKAGE)]
    cmd += _scratch(notebooks or [])
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    return cmd + _isolation({"PATH": path, "MPLBACKEND": "Agg", "MPLCONFIGDIR": "/tmp"})


def site_folders() -> list[str]:
    """Every folder third-party packages may be installed in for this interpreter or the
    system's Pythons; a call sandbox hides them all (a student's ``sys.path.append`` finds an
    empty folder)."""
    import site

    found = set(site.getsitepackages([sys.base_prefix, sys.base_exec_prefix]))
    for pattern in (
        "/usr/lib/python3*/dist-packages",
        "/usr/lib/python3*/site-packages",
        "/usr/local/lib/python3*/dist-packages",
        "/usr/local/lib/python3*/site-packages",
        "/usr/lib/python3/dist-packages",
    ):
        found.update(glob.glob(pattern))
    return sorted(os.path.realpath(p) for p in found if os.path.isdir(p))


def call_sandbox(exe: str, packages: list[str]) -> list[str]:
    """The ``bwrap`` command line (without the program) of a call sandbox: the base
    interpreter's standard library, every site-packages folder hidden, the callee's three
    modules in ``/lk/call``, and of the site-packages only ``packages``, in ``/lk/site``."""
    cmd = _system(exe)
    prefix = os.path.realpath(sys.base_prefix)
    if not prefix.startswith("/usr/") and prefix != "/usr":
        cmd += ["--ro-bind", prefix, prefix]
    for folder in site_folders():
        cmd += [*_sized(4096), "--tmpfs", folder, "--remount-ro", folder]
    here = Path(__file__).resolve().parent
    for name in CALLEE_FILES:
        cmd += ["--ro-bind", str(here / name), f"{CALL_DIR}/{name}"]
    allowed = package_folders(packages)
    for folder, name in allowed:
        cmd += ["--ro-bind", folder, f"{SITE_DIR}/{name}"]
    cmd += _scratch([])
    return cmd + _isolation({"PATH": "/usr/bin:/bin"})


def call_command(exe: str, packages: list[str]) -> list[str]:
    """The ``bwrap`` command line (with the program) for a library-free callee (:mod:`.callee`)."""
    site = [SITE_DIR] if packages else []
    program = [base_python(), "-I", "-S", f"{CALL_DIR}/callee.py", *site]
    return [*call_sandbox(exe, packages), *program]


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


def limiter(cpu_seconds: float, group=None):
    """A ``preexec_fn``: joins the submission's control group ``group`` (:class:`limits.JobGroup`:
    processes and memory of all its sandboxes together), and sets the rlimits (inherited by
    everything inside): CPU seconds, each process's address space and file size, no core dumps,
    and, for a non-root user, processes (per user; root is exempt, the group is what holds)."""
    import resource  # POSIX only: imported here, so that Windows reaches bwrap()'s message

    processes = _count_own_processes() + limits.PROCESSES

    def apply() -> None:
        if group is not None:
            group.join()
        cpu = max(1, int(cpu_seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        space = limits.PROCESS_ADDRESS_SPACE
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.FILE_BYTES, limits.FILE_BYTES))
        if os.geteuid() != 0:
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
