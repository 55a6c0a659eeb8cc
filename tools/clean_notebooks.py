"""Drop volatile metadata from executed notebooks so diffs stay small and reviews stay readable.

Usage: python tools/clean_notebooks.py notebooks/*.ipynb solutions/*.ipynb

Keeps outputs (they are part of the product) but removes execution timestamps, widget state
and per-cell execution metadata.
"""

from __future__ import annotations

import sys

import nbformat


def clean(path: str) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("widgets", None)
    nb.metadata.pop("toc", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("ExecuteTime", None)
        cell.metadata.pop("collapsed", None)
        if cell.cell_type == "code":
            for out in cell.get("outputs", []):
                out.get("metadata", {}).pop("execution", None)
    nbformat.write(nb, path)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        clean(p)
