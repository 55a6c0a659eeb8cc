"""The library-free interpreter a code question's function is called in.

Started as ``python -I -S callee.py [--watchdog] [--package NAME FOLDER]... [DIR...]`` (no
site-packages, no user site, no environment), inside the grading sandbox (each ``DIR`` holds
only the packages a question allows, such as numpy) or, for ``grader.check``, beside the
student's kernel (:mod:`.local_callee`: each allowed package named with its folder, imported
from there by name only). It imports the standard library, :mod:`.protocol` and
:mod:`.portable`, which sit beside it, and then takes them off the path.
It re-creates the submission's functions from their recipes and serves calls over a pipe: every
call gets fresh copies of its arguments (decoded from plain data), and its result goes back as
plain data. An argument the trusted side marks as a *callback* (a course function a question
hands over, such as ``evaluate(order)``) becomes a function that asks the trusted side, which
runs it on plain data and answers in plain data. Nothing said here is trusted.

A call's time limit is ``SIGALRM`` where there is one; with ``--watchdog`` (the portable way,
always on Windows) a thread interrupts the main thread when the time is up. Either way a
function that does not stop is ended by the trusted side, which kills this process.
"""

from __future__ import annotations

import _thread
import importlib.util
import os
import signal
import sys
import threading
import time

if __package__:
    from .portable import NOT_DEFINED, NotPortable, load
    from .protocol import N_, Unencodable, decode, encode, receive_blocking, send
else:  # a script: import the two modules beside it, then leave nothing of lecturekit on the path
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from portable import NOT_DEFINED, NotPortable, load  # type: ignore[no-redef]
    from protocol import N_, Unencodable, decode, encode, receive_blocking, send  # type: ignore

    del sys.path[0]

NOT_DECODED = N_("the arguments could not be decoded")
RETURNED = N_("{name} returned {error}")
#: every template above, for :mod:`.messages`
MESSAGES = (NOT_DECODED, RETURNED)


class _Timeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Timeout


class _Alarm:
    """A call's time limit by ``SIGALRM`` (POSIX)."""

    def __init__(self):
        signal.signal(signal.SIGALRM, _on_alarm)

    def set(self, seconds: float) -> float:
        """Raise :class:`_Timeout` in the call ``seconds`` from now (0: not at all); returns
        the seconds that were left."""
        return signal.setitimer(signal.ITIMER_REAL, seconds)[0]


class _Watchdog:
    """A call's time limit without ``SIGALRM`` (Windows): a thread that, when the time is up,
    interrupts the main thread (``_thread.interrupt_main`` runs the ``SIGINT`` handler there, as
    a signal would), whose handler raises :class:`_Timeout` in the call. Same interface as
    :class:`_Alarm`."""

    def __init__(self):
        self.cond = threading.Condition()
        self.deadline: float | None = None
        #: the time is up and the interrupt is on its way (a later ``set`` withdraws it)
        self.fired = False
        signal.signal(signal.SIGINT, self._on_interrupt)
        threading.Thread(target=self._watch, daemon=True).start()

    def set(self, seconds: float) -> float:
        with self.cond:
            now = time.monotonic()
            left = 0.0 if self.deadline is None else max(self.deadline - now, 0.0)
            self.deadline = now + seconds if seconds > 0 else None
            self.fired = False
            self.cond.notify()
        return left

    def _watch(self) -> None:
        with self.cond:
            while True:
                left = None if self.deadline is None else self.deadline - time.monotonic()
                if left is None or left > 0:
                    self.cond.wait(left)
                    continue
                self.deadline, self.fired = None, True
                _thread.interrupt_main()

    def _on_interrupt(self, signum, frame):
        if self.fired:  # the time of the call still running is up (not a Ctrl+C)
            self.fired = False
            raise _Timeout


class _Allowed:
    """Imports each allowed package (``--package NAME FOLDER``) from its folder, by name only:
    the folder beside it (site-packages) stays out of reach."""

    def __init__(self, folders: dict[str, str]):
        self.folders = folders

    def find_spec(self, name, path=None, target=None):
        folder = self.folders.get(name)
        if folder is None:
            return None
        init = os.path.join(folder, "__init__.py")
        return importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[folder]
        )


def _text(exc: BaseException) -> str:
    try:
        text = f"{type(exc).__name__}: {exc}"
    except BaseException:  # noqa: BLE001 - a message that cannot be printed
        text = type(exc).__name__
    return text[:2000]


def main(argv: list[str]) -> int:
    watchdog = not hasattr(signal, "SIGALRM")
    packages: dict[str, str] = {}
    args = list(argv)
    while args:  # the packages the question allows, and nothing else
        arg = args.pop(0)
        if arg == "--watchdog":
            watchdog = True
        elif arg == "--package" and len(args) >= 2:
            packages[args[0]] = args[1]
            del args[:2]
        else:
            sys.path.append(arg)
    if packages:
        sys.meta_path.append(_Allowed(packages))
    chan_in, chan_out = os.dup(0), os.dup(1)
    if os.name == "nt":  # bytes as sent: no newline translation, no Ctrl+Z as end of file
        import msvcrt

        for fd in (chan_in, chan_out):
            msvcrt.setmode(fd, os.O_BINARY)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # what the student's code prints goes nowhere
        os.dup2(null, fd)
    clock = _Watchdog() if watchdog else _Alarm()
    functions: dict = {}
    problems: dict[str, str] = {}
    send(chan_out, {"ready": True})
    while True:
        try:
            msg = receive_blocking(chan_in)
        except (EOFError, ValueError):
            return 0
        op = msg.get("op") if isinstance(msg, dict) else None
        if op == "load":
            for name, data in dict(msg.get("recipes") or {}).items():
                try:
                    functions[name] = load(data, name)
                    problems.pop(name, None)
                except NotPortable as exc:
                    problems[name] = str(exc)[:500]
            send(chan_out, {"loaded": problems})
        elif op == "call":
            try:
                reply = _call(msg, functions, problems, chan_in, chan_out, clock)
            except _Timeout:  # the time ran out as the function ended
                reply = {"raise": "timed out", "timeout": True}  # i18n: not shown (a token)
            send(chan_out, reply)
        else:
            return 1


def _callback(index: int, chan_in: int, chan_out: int, clock):
    def ask(*args, **kwargs):
        # the trusted side's time is its own to count: the clock stops while it answers
        left = clock.set(0)
        try:
            send(
                chan_out,
                {
                    "callback": index,
                    "args": [encode(a) for a in args],
                    "kwargs": {k: encode(v) for k, v in kwargs.items()},
                },
            )
            reply = receive_blocking(chan_in)
        finally:
            clock.set(max(left, 0.001))
        if "raise" in reply:
            raise RuntimeError(str(reply["raise"]))
        return decode(reply.get("value"))

    return ask


def _call(msg: dict, functions: dict, problems: dict, chan_in: int, chan_out: int, clock) -> dict:
    name = str(msg.get("name"))
    if name in problems:
        return {"raise": problems[name], "unusable": True}
    fn = functions.get(name)
    if fn is None:
        return {"raise": "NameError: " + NOT_DEFINED.format(name=name), "unusable": True}
    try:
        args = [decode(a) for a in msg.get("args") or []]
        kwargs = {str(k): decode(v) for k, v in dict(msg.get("kwargs") or {}).items()}
        for index in msg.get("callbacks") or []:
            args[index] = _callback(index, chan_in, chan_out, clock)
    except (ValueError, IndexError, TypeError):
        return {"raise": NOT_DECODED}
    timeout = float(msg.get("timeout") or 1)
    try:
        clock.set(max(timeout, 0.001))
        try:
            value = fn(*args, **kwargs)
        finally:
            clock.set(0)
        reply = {"value": encode(value)}
        if msg.get("keep"):
            callbacks = set(msg.get("callbacks") or [])
            reply["after"] = [None if i in callbacks else encode(a) for i, a in enumerate(args)]
        return reply
    except _Timeout:
        return {"raise": "timed out", "timeout": True}  # i18n: not shown (a token)
    except Unencodable as exc:
        return {"raise": RETURNED.format(name=name, error=exc)}
    except BaseException as exc:  # noqa: BLE001 - the student's function raised
        clock.set(0)
        return {"raise": _text(exc)}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
