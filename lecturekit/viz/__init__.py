"""Drawings with matplotlib (imported lazily inside each function).

Each module draws from the plain data or traces the algorithms return; none re-implements an
algorithm.
"""
