"""The library-free interpreter a code question's function is called in.

Started as ``python -I -S callee.py [DIR...]`` (no site-packages, no user site, no environment;
each ``DIR`` holds only the packages a question allows, such as numpy), inside the grading
sandbox or, for ``grader.check``, beside the student's kernel. It imports the standard library,
:mod:`.protocol` and :mod:`.portable`, which sit beside it, and then takes them off the path.
It re-creates the submission's functions from their recipes and serves calls over a pipe: every
call gets fresh copies of its arguments (decoded from plain data), and its result goes back as
plain data. An argument the trusted side marks as a *callback* (a course function a question
hands over, such as ``evaluate(order)``) becomes a function that asks the trusted side, which
runs it on plain data and answers in plain data. Nothing said here is trusted.
"""

from __future__ import annotations

import os
import signal
import sys

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


def _text(exc: BaseException) -> str:
    try:
        text = f"{type(exc).__name__}: {exc}"
    except BaseException:  # noqa: BLE001 - a message that cannot be printed
        text = type(exc).__name__
    return text[:2000]


def main(argv: list[str]) -> int:
    for folder in argv:  # the packages the question allows, and nothing else
        sys.path.append(folder)
    chan_in, chan_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # what the student's code prints goes nowhere
        os.dup2(null, fd)
    signal.signal(signal.SIGALRM, _on_alarm)
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
            send(chan_out, _call(msg, functions, problems, chan_in, chan_out))
        else:
            return 1


def _callback(index: int, chan_in: int, chan_out: int):
    def ask(*args, **kwargs):
        # the trusted side's time is its own to count: the clock stops while it answers
        left = signal.setitimer(signal.ITIMER_REAL, 0)[0]
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
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
        if "raise" in reply:
            raise RuntimeError(str(reply["raise"]))
        return decode(reply.get("value"))

    return ask


def _call(msg: dict, functions: dict, problems: dict, chan_in: int, chan_out: int) -> dict:
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
            args[index] = _callback(index, chan_in, chan_out)
    except (ValueError, IndexError, TypeError):
        return {"raise": NOT_DECODED}
    timeout = float(msg.get("timeout") or 1)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(timeout, 0.001))
        try:
            value = fn(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
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
        signal.setitimer(signal.ITIMER_REAL, 0)
        return {"raise": _text(exc)}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
