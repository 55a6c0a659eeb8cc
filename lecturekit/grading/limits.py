"""Per-submission limits that hold for root and non-root alike: processes, memory of all the
submission's processes together (its tmpfs writes included), and disk.

* **Disk**: a submission writes only size-capped tmpfs mounts inside its sandbox (its scratch
  directory ``/sub``, ``/tmp``, ``/dev/shm``; ``/`` and ``/dev`` are read-only), made by
  bubblewrap's ``--size`` (bubblewrap 0.5 or later). Nothing is written to the host's disk, so
  one submission filling its space takes nothing from its neighbours.
* **Processes and memory**: a control group per submission (the job's group), which every
  sandbox of the submission joins before it starts: ``pids.max`` caps the tasks (processes and
  threads) of all of them together and ``memory.max`` / ``memory.limit_in_bytes`` their memory,
  tmpfs pages included (the kernel charges a tmpfs page to the group that wrote it). cgroup v2
  is used where this process may create child groups with the ``pids`` and ``memory``
  controllers (root, or a delegated subtree such as a ``systemd-run --user -p Delegate=yes``
  scope); cgroup v1's ``pids`` and ``memory`` hierarchies where they are writable (root on a v1
  or hybrid machine). The group is emptied (SIGKILL) and removed when the submission is done.
* Without either, ``RLIMIT_NPROC`` still caps processes for a non-root user (counted per user,
  so it is only approximate) and ``RLIMIT_AS`` each process's memory; root is exempt from
  ``RLIMIT_NPROC``, and no rlimit caps processes' memory together. :func:`unenforced` names what
  cannot be enforced here, and ``lecturekit grade`` refuses to run unless told ``--unsafe``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..language import _

#: tasks (processes and threads) of one submission, all its sandboxes together
PROCESSES = 64
#: memory of one submission's processes together, tmpfs writes included
MEMORY_BYTES = 1024 * 2**20
#: each writable tmpfs inside a sandbox
SCRATCH_BYTES = 64 * 2**20  # /sub, the working directory (with the notebook, read-only)
TMP_BYTES = 64 * 2**20  # /tmp
SHM_BYTES = 16 * 2**20  # /dev/shm
#: one process's address space (a guard under the group's limit), and one file's size
PROCESS_ADDRESS_SPACE = 3 * 2**30
FILE_BYTES = 64 * 2**20

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_cgroups() -> dict[str, str]:
    """Controller (``pids``, ``memory``; ``""`` for cgroup v2) -> this process's group path."""
    found = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for controller in parts[1].split(",") if parts[1] else [""]:
            found[controller] = parts[2]
    return found


def _writable_dir(path: Path) -> bool:
    return path.is_dir() and os.access(path, os.W_OK)


@dataclass(frozen=True)
class Mechanism:
    """Where job groups are made: ``kind`` ``"cgroup2"`` or ``"cgroup1"``; ``parents`` maps each
    controller to the folder a job's group is made in (one folder for v2)."""

    kind: str
    parents: dict

    def new_job(self, name: str) -> JobGroup:
        return JobGroup(self, name)


def _v2() -> Mechanism | None:
    own = _own_cgroups().get("")
    if own is None or not (CGROUP_ROOT / "cgroup.controllers").is_file():
        return None
    base = CGROUP_ROOT / own.lstrip("/")
    try:
        available = (base / "cgroup.controllers").read_text().split()
    except OSError:
        return None
    if not {"pids", "memory"} <= set(available) or not _writable_dir(base):
        return None
    control = base / "cgroup.subtree_control"
    try:
        if not {"pids", "memory"} <= set(control.read_text().split()):
            try:
                control.write_text("+pids +memory")  # i18n: not shown
            except OSError:
                # busy: this process sits in the group itself (cgroup v2's no-internal-process
                # rule, e.g. a `systemd-run --scope -p Delegate=yes` scope): move it to a leaf
                # of its own, then enable the controllers for the job groups beside that leaf
                leaf = base / f"lecturekit-main-{os.getpid()}"
                leaf.mkdir(exist_ok=True)
                (leaf / "cgroup.procs").write_text(str(os.getpid()))
                control.write_text("+pids +memory")  # i18n: not shown
    except OSError:  # other processes stay in the group: not ours to move
        return None
    return Mechanism("cgroup2", {"": base})


def _v1() -> Mechanism | None:
    own = _own_cgroups()
    parents = {}
    for controller in ("pids", "memory"):
        root = CGROUP_ROOT / controller
        if controller not in own or not (root / "cgroup.procs").is_file():
            return None
        base = root / own[controller].lstrip("/")
        if not _writable_dir(base):
            return None
        parents[controller] = base
    return Mechanism("cgroup1", parents)


_found: list = []


def mechanism() -> Mechanism | None:
    """The control groups this process can make for each submission, or ``None``."""
    if not _found:
        _found.append(_v2() or _v1())
    return _found[0]


def bwrap_sizes(exe: str) -> bool:
    """Whether this bubblewrap caps a tmpfs's size (``--size``, bubblewrap 0.5 or later)."""
    try:
        said = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return "--size" in said.stdout + said.stderr


def unenforced(exe: str) -> list[str]:
    """The per-submission limits this machine cannot enforce (empty: all of them hold)."""
    missing = []
    if mechanism() is None:
        if os.geteuid() == 0:
            missing.append(
                _(
                    "processes ({processes} per submission: root is exempt from RLIMIT_NPROC)"
                ).format(processes=PROCESSES)
            )
        missing.append(
            _("memory of all a submission's processes together ({mib} MiB)").format(
                mib=MEMORY_BYTES >> 20
            )
        )
    if not bwrap_sizes(exe):
        missing.append(_("disk (size-capped tmpfs needs bubblewrap 0.5 or later)"))
    return missing


def how_enforced(exe: str) -> str:
    """One line for the instructor: how the limits hold here."""
    m = mechanism()
    groups = (
        _("control groups ({version})").format(version="v2" if m.kind == "cgroup2" else "v1")
        if m
        else _("rlimits only (not all limits hold)")
    )
    return _(
        "limits per submission: {processes} processes and {memory} MiB of "
        "memory (all processes and tmpfs together) through {groups}; disk: "
        "tmpfs of {scratch} MiB (scratch), {tmp} MiB (/tmp), {shm} MiB "
        "(/dev/shm)"
    ).format(
        processes=PROCESSES,
        memory=MEMORY_BYTES >> 20,
        groups=groups,
        scratch=SCRATCH_BYTES >> 20,
        tmp=TMP_BYTES >> 20,
        shm=SHM_BYTES >> 20,
    )


class JobGroup:
    """One submission's control group(s): made on creation, emptied and removed by :meth:`close`."""

    def __init__(self, mech: Mechanism, name: str):
        self.paths: list[Path] = []
        try:
            for controller, parent in mech.parents.items():
                path = Path(parent) / name
                path.mkdir()
                self.paths.append(path)
                if controller in ("", "pids"):
                    (path / "pids.max").write_text(str(PROCESSES))
                if controller in ("", "memory"):
                    if mech.kind == "cgroup2":
                        (path / "memory.max").write_text(str(MEMORY_BYTES))
                        _try_write(path / "memory.swap.max", "0")
                    else:
                        (path / "memory.limit_in_bytes").write_text(str(MEMORY_BYTES))
                        _try_write(path / "memory.memsw.limit_in_bytes", str(MEMORY_BYTES))
        except BaseException:
            self.close()
            raise

    @classmethod
    def adopt(cls, paths: list[str]) -> JobGroup | None:
        """The group the parent made (its folders), for the driver to put sandboxes in."""
        if not paths:
            return None
        group = cls.__new__(cls)
        group.paths = [Path(p) for p in paths]
        return group

    def join(self) -> None:
        """Move the calling process into the group (a ``preexec_fn``: before exec, so everything
        the sandbox starts is in it)."""
        for path in self.paths:
            with open(path / "cgroup.procs", "w") as fh:
                fh.write("0")

    def close(self) -> None:
        """SIGKILL whatever is left in the group, then remove it."""
        for path in reversed(self.paths):
            for _attempt in range(100):
                try:
                    pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                time.sleep(0.02)
            for _attempt in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self.paths = []


def _try_write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError:
        pass
