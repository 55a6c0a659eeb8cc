"""The operations a tensor program calls: eager on numpy arrays, recorded on traced values.

A function written with these (``T.relu(x @ w)``, ``x.sum() > 0``) runs three ways, as in a
deep-learning framework: eagerly on numpy arrays (define by run, 动态图), traced into a graph
(:func:`lecturekit.tensor.capture.trace`), or converted from its source
(:func:`lecturekit.tensor.capture.from_ast`, which knows these names). Python's operators
``+ - * / @ ** > <`` and the methods ``.sum()`` and ``.T`` work on both kinds of value.
"""

from __future__ import annotations

import numpy as np

from .graph import OPS

#: the functions of this module that :func:`~lecturekit.tensor.capture.from_ast` converts
FUNCTIONS = ("exp", "log", "tanh", "relu", "sin", "cos", "matmul", "transpose", "where", "sum")


def _apply(op: str, *args):
    for a in args:
        tracer = getattr(a, "tracer", None)  # a value being traced (capture.Traced)
        if tracer is not None:
            return tracer.record(op, args)
    with np.errstate(all="ignore"):
        return OPS[op].compute(*(np.asarray(a, dtype=float) for a in args))


def exp(x):
    return _apply("exp", x)


def log(x):
    return _apply("log", x)


def tanh(x):
    return _apply("tanh", x)


def relu(x):
    return _apply("relu", x)


def sin(x):
    return _apply("sin", x)


def cos(x):
    return _apply("cos", x)


def matmul(a, b):
    return _apply("matmul", a, b)


def transpose(x):
    return _apply("transpose", x)


def where(condition, a, b):
    """``a`` where ``condition`` is non-zero (true), else ``b``; element-wise, broadcasting."""
    return _apply("where", condition, a, b)


def sum(x):  # noqa: A001 - the tensor operation's own name, as in numpy and torch
    """The sum of every element (a scalar)."""
    return _apply("sum", x)
