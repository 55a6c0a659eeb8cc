"""ipywidgets explorers built on the algorithms' step traces (ipywidgets imported lazily).

Every widget shows a failing callback's error inside itself and never raises to the kernel.
"""
