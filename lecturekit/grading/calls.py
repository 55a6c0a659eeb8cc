"""The trusted side of a code question: the student's functions, called in a library-free
interpreter (:mod:`.callee`) on fresh plain-data copies of the trusted inputs.

:class:`Functions` owns that interpreter (started by a function the caller gives: a bubblewrap
sandbox when grading, a plain ``python -I -S`` beside the kernel for ``grader.check``), loads the
recipes (:mod:`.portable`) into it, and restarts it after a crash or a timeout. A
:class:`Remote` stands in for one student function in the tests' namespace:

* every call encodes its arguments anew (:func:`lecturekit.grading.protocol.encode`: exact
  built-in types, Fractions, numpy arrays), so the callee gets fresh copies and the trusted
  objects are never touched: an expected value computed after the call comes from pristine
  inputs, whatever the function did to its copies;
* a test about mutation asks for the callee's copies after the call
  (:func:`lecturekit.grading.plain.inputs_after_call`, which uses
  ``value, after = f.call_keeping_inputs(x, a)``) and compares them with its own copy;
* an argument that is a trusted function (a course function a question hands the student, such
  as ``evaluate``) becomes a callback: the callee asks, this side runs it on the decoded plain
  arguments and answers in plain data;
* the result comes back as plain data, decoded with exact types; a result that cannot be
  decoded fails that test only.

Each question's calls share one time budget (:meth:`Functions.start_question`); a call that
overruns it ends the callee (killed with its process group) and scores nothing more in that
question.

The same code serves grading (Linux: the callee in a bubblewrap sandbox) and ``grader.check`` on
a student's Linux, macOS or Windows machine. Where POSIX is there, a :class:`Channel` waits for
the callee with ``select`` and ends its process group; the *portable* way
(:mod:`.local_callee`: always on Windows, which has neither ``select`` on pipes nor process
groups) reads the pipe in a thread and kills the process itself.
"""

from __future__ import annotations

import json
import os
import queue
import select
import struct
import subprocess
import threading
import time
from collections.abc import Callable

from ..language import _
from .messages import shown
from .protocol import FRAME_LIMIT, Unencodable, decode, encode, send

GRACE = 2.0  # seconds between the callee's own alarm and the kill
MAX_STARTS = 20  # callee processes one submission may use up (crashes, timeouts)


class CalleeGone(Exception):
    """The callee did not answer in time, or ended."""


class FunctionFailed(AssertionError):
    """The student's function, called as graded, gave no value: ``error`` says why (the
    exception it raised, as ``"NameError: name 'x' is not defined"``, or why it cannot run)."""

    def __init__(self, text: str, name: str = "", error: str = ""):
        super().__init__(text)
        self.name, self.error = name, error


class Channel:
    """Length-prefixed JSON messages with a subprocess over its stdin/stdout (binary pipes),
    with deadlines. ``portable``: wait without ``select`` (a thread reads the pipe) and end the
    process without process groups (:func:`.local_callee.end`), as on Windows."""

    def __init__(self, proc: subprocess.Popen, portable: bool = False):
        self.proc = proc
        self.buffer = b""
        self.ended = False
        self.chunks: queue.Queue | None = None
        self.reader: threading.Thread | None = None
        if portable:
            self.chunks = queue.Queue()
            self.reader = threading.Thread(
                target=_read_into, args=(proc.stdout.fileno(), self.chunks), daemon=True
            )
            self.reader.start()

    def send(self, message: dict) -> None:
        try:
            send(self.proc.stdin.fileno(), message)
        except (OSError, ValueError) as exc:
            raise CalleeGone("ended") from exc

    def receive(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            if len(self.buffer) >= 4:
                (n,) = struct.unpack(">I", self.buffer[:4])
                if n > FRAME_LIMIT:
                    raise CalleeGone("sent an oversized message")  # i18n: not shown
                if len(self.buffer) >= 4 + n:
                    frame, self.buffer = self.buffer[4 : 4 + n], self.buffer[4 + n :]
                    try:
                        reply = json.loads(frame)
                    except ValueError as exc:
                        raise CalleeGone("sent a malformed message") from exc  # i18n: not shown
                    if not isinstance(reply, dict):
                        raise CalleeGone("sent a malformed message")  # i18n: not shown
                    return reply
            if self.ended:
                raise CalleeGone("ended")
            left = deadline - time.monotonic()
            if left <= 0:
                raise CalleeGone("timed out")  # i18n: not shown
            chunk = self._chunk(left)
            if chunk == b"":
                self.ended = True
            elif chunk is not None:
                self.buffer += chunk

    def _chunk(self, left: float) -> bytes | None:
        """What the callee sent within ``left`` seconds (``b""``: it ended), or None."""
        if self.chunks is None:
            fd = self.proc.stdout.fileno()
            if not select.select([fd], [], [], left)[0]:
                return None
            return os.read(fd, 1 << 20)
        try:  # in slices: on Windows a wait on a lock does not see the kernel's interrupt
            return self.chunks.get(timeout=min(left, 0.25))
        except queue.Empty:
            return None

    def close(self) -> None:
        if self.reader is None:
            from .sandbox import stop

            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except (OSError, AttributeError):
                    pass
            stop(self.proc, grace=0.2)
            return
        from .local_callee import end

        try:
            self.proc.stdin.close()  # an idle callee ends when its input does
        except (OSError, AttributeError):
            pass
        end(self.proc)
        # the reader's read returns at the end of the process; only then may its pipe close
        # (on Windows, closing a pipe another thread reads waits for that read)
        self.reader.join(timeout=2.0)
        if not self.reader.is_alive():
            try:
                self.proc.stdout.close()
            except (OSError, AttributeError):
                pass


def _read_into(fd: int, chunks: queue.Queue) -> None:
    """The portable channel's reader thread: every chunk read from ``fd``, then ``b""``."""
    while True:
        try:
            chunk = os.read(fd, 1 << 20)
        except (OSError, ValueError):
            chunk = b""
        chunks.put(chunk)
        if not chunk:
            return


class Functions:
    """The student's functions in a library-free process; see the module docstring."""

    def __init__(
        self,
        start: Callable[[], subprocess.Popen],
        recipes: dict,
        budget: float,
        portable: bool = False,
    ):
        self.start_process, self.recipes, self.budget = start, recipes, budget
        #: the callee's channel the portable way (:class:`Channel`), as on Windows
        self.portable = portable
        self.channel: Channel | None = None
        self.starts = 0
        self.left = budget
        self.timed_out = False
        self.question = ""
        #: per question, why a function could not be used (the one-line reason)
        self.unusable: dict[str, str] = {}

    def start_question(self, question: str) -> None:
        self.question, self.left, self.timed_out = question, self.budget, False

    def _channel(self) -> Channel:
        if self.channel is not None:
            return self.channel
        if self.starts >= MAX_STARTS:
            raise CalleeGone("too many restarts")  # i18n: not shown
        self.starts += 1
        proc = self.start_process()
        channel = Channel(proc, self.portable)
        try:
            channel.receive(60)  # "ready"
            channel.send({"op": "load", "recipes": self.recipes})
            channel.receive(60)
        except BaseException:
            channel.close()
            raise
        self.channel = channel
        return channel

    def drop(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def call(self, name: str, args: tuple, kwargs: dict, keep: bool = False):
        """``(value, inputs after the call or None)``; raises ``AssertionError`` for what the
        function did wrong (so the test case fails), ``TimeoutError`` past the budget."""
        if self.left <= 0:
            raise TimeoutError(self._out_of_time())
        args = list(args)
        callbacks = [i for i, a in enumerate(args) if _is_callback(a)]
        try:
            packed = [["none"] if i in callbacks else encode(a) for i, a in enumerate(args)]
            packed_kw = {str(k): encode(v) for k, v in kwargs.items()}
        except Unencodable as exc:
            raise TypeError(
                _(
                    "{name} takes plain data (lecturekit.grading.plain converts course "
                    "objects): {error}"
                ).format(name=name, error=shown(str(exc)))
            ) from None
        began = time.monotonic()
        try:
            channel = self._channel()
            channel.send(
                {
                    "op": "call",
                    "name": name,
                    "args": packed,
                    "kwargs": packed_kw,
                    "callbacks": callbacks,
                    "timeout": self.left,
                    "keep": keep,
                }
            )
            while True:
                left = self.left - (time.monotonic() - began)
                reply = channel.receive(max(left, 0) + GRACE)
                if "callback" not in reply:
                    break
                channel.send(_answer_callback(reply, args, callbacks))
        except CalleeGone as exc:
            self.drop()
            if str(exc) in ("timed out", "too many restarts"):
                self.left, self.timed_out = 0, True
                raise TimeoutError(self._out_of_time()) from None
            text = _("{name} ended the process it ran in").format(name=name)
            raise FunctionFailed(text, name, text) from None
        self.left -= time.monotonic() - began
        if "raise" in reply:
            message = str(reply["raise"])[:2000]
            if reply.get("timeout"):
                self.left, self.timed_out = 0, True
                self.drop()
                raise TimeoutError(self._out_of_time())
            if reply.get("unusable"):
                self.unusable.setdefault(self.question, message)
                raise FunctionFailed(shown(message), name, message)
            text = _("{name} raised {error}").format(name=name, error=shown(message))
            raise FunctionFailed(text, name, message)
        try:
            value = decode(reply.get("value"))
            after = None
            if keep:
                raw = reply.get("after")
                if not isinstance(raw, list) or len(raw) != len(args):
                    raise ValueError("no inputs came back")  # i18n: not shown
                after = [args[i] if i in callbacks else decode(d) for i, d in enumerate(raw)]
        except ValueError:
            text = _("{name} returned something that is not plain data").format(name=name)
            raise FunctionFailed(text, name, text) from None
        return value, after

    def _out_of_time(self) -> str:
        return _("{question} ran out of its {seconds} seconds").format(
            question=self.question, seconds=f"{self.budget:g}"
        )


def _is_callback(value) -> bool:
    return callable(value) and not isinstance(value, type)


def _answer_callback(request: dict, args: list, callbacks: list[int]) -> dict:
    """Run the trusted function the callee asks for, on decoded plain data."""
    index = request.get("callback")
    if index not in callbacks:
        return {"raise": _("no such callback")}
    try:
        cargs = [decode(a) for a in request.get("args") or []]
        ckw = {str(k): decode(v) for k, v in dict(request.get("kwargs") or {}).items()}
        return {"value": encode(args[index](*cargs, **ckw))}
    except Exception as exc:  # noqa: BLE001 - told to the student's function as an exception
        return {"raise": f"{type(exc).__name__}: {str(exc)[:300]}"}


class Remote:
    """A trusted stand-in for one of the student's functions (see the module docstring)."""

    def __init__(self, functions: Functions, name: str):
        self._functions = functions
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        return self._functions.call(self.__name__, args, kwargs)[0]

    def call_keeping_inputs(self, *args, **kwargs):
        """``(value, [the callee's copies of the positional arguments after the call])``."""
        return self._functions.call(self.__name__, args, kwargs, keep=True)

    def __repr__(self) -> str:
        return _("<the student's function {name}>").format(name=self.__name__)
