"""The small tensor programs of chapter 14 (a module, so their source can be read and converted).

Each runs eagerly on numpy arrays; :func:`branchy` also on PyTorch tensors (it uses only Python's
operators and ``.sum()``), which is how chapter 14 compares the capture tools.
"""

from __future__ import annotations

from . import ops as T


def branchy(x, y):
    """The talk's tracing problem: which arm runs depends on the data."""
    z = x * y
    if z.sum() > 0:
        return z + x
    else:
        return z - y


def baydin(x1, x2):
    """f(x1, x2) = ln(x1) + x1·x2 − sin(x2), the worked example of Baydin et al. (2018)."""
    return T.log(x1) + x1 * x2 - T.sin(x2)


def mlp_loss(x, w1, w2):
    """A two-layer perceptron's squared output, summed: a loss to differentiate."""
    h = T.tanh(x @ w1)
    y = h @ w2
    return (y * y).sum()


def logistic4(x):
    """Four steps of the logistic map l ← 4·l·(1 − l), Baydin et al.'s expression-swell example."""
    for _ in range(4):
        x = 4 * x * (1 - x)
    return x


def layer(x, w, b):
    """A GEMM with its epilogue: bias, ReLU, a scale."""
    h = x @ w + b
    return T.relu(h) * 2.0


def one_feeds_two(x):
    """The AI-systems notes' second fusion pattern: a's output feeds b and c."""
    a = T.exp(x)
    b = a * 2.0
    c = a + 1.0
    return b, c


def repeat(x, n):
    """A loop whose trip count is a run-time value."""
    for _ in range(n):
        x = x * 2
    return x


def helper_call(x, scale):
    """A call to an object whose type is known only at run time."""
    return x * scale.factor(x)
