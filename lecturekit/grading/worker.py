"""The worker: runs inside the sandbox (:mod:`.sandbox`), executes a submission's code cells one
by one in an in-process IPython shell, and answers the driver's requests: the values of names
(plain data, :mod:`.protocol`) and the recipes of the submission's functions (:mod:`.portable`),
which the driver re-creates in a library-free sandbox to call them. Started as
``python -m lecturekit.grading.worker`` by the driver (:mod:`.run`); nothing it says is trusted.
"""

from __future__ import annotations

import os
import signal
import sys

from .portable import CANNOT_BE_GRADED, recipe
from .protocol import Unencodable, encode, receive_blocking, send


# -- the worker: runs inside the sandbox -------------------------------------------------------
class _Interrupt(KeyboardInterrupt):
    pass


def _alarm(seconds: float) -> None:
    def handler(signum, frame):
        raise _Interrupt(f"timed out after {seconds:g}s")  # i18n: not shown (the cell's own)

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01))


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)


class _QuietGrader:
    """Stands in for the notebook's ``grader`` in the sandbox: its checks show nothing (the
    trusted run does the checking), and otter is not imported (seconds per sandbox)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: None


def worker_main() -> int:
    """Serve the driver's requests; student output goes to a file in the scratch directory."""
    chan_in, chan_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    log = os.open("output.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance(colors="NoColor")
    ns = shell.user_ns
    ns["grader"] = _QuietGrader()
    send(chan_out, {"ready": True})
    while True:
        try:
            msg = receive_blocking(chan_in)
        except EOFError:
            return 0
        op = msg.get("op")
        if op == "cell":
            timed_out = False
            try:
                _alarm(msg["timeout"])
                result = shell.run_cell(msg["source"], store_history=True)
                _disarm()
                error = result.error_before_exec or result.error_in_exec
                timed_out = isinstance(error, KeyboardInterrupt)
                ok = error is None
            except BaseException:  # noqa: BLE001 - an interrupt outside the cell's own code
                _disarm()
                ok, timed_out = False, True
            send(chan_out, {"ok": ok, "timeout": timed_out})
        elif op == "values":
            out = {}
            for name in msg["names"]:
                if name not in ns:
                    out[name] = {"missing": True}
                    continue
                try:
                    out[name] = {"value": encode(ns[name])}
                except Unencodable as exc:
                    out[name] = {"bad": str(exc)}
                except BaseException as exc:  # noqa: BLE001
                    out[name] = {"bad": f"{type(exc).__name__}"}
            send(chan_out, {"values": out})
        elif op == "recipes":
            out = {}
            for name in msg["names"]:
                try:
                    out[name] = recipe(ns, name)
                except BaseException as exc:  # noqa: BLE001 - a function that cannot be read
                    error = CANNOT_BE_GRADED.format(name=name, error=type(exc).__name__)
                    out[name] = {"error": error}
            send(chan_out, {"recipes": out})
        else:
            return 1


if __name__ == "__main__":
    sys.exit(worker_main())
