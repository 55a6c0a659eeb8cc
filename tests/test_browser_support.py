"""The browser harness's parts that need no browser (tests/browser_support.py): every page it
serves gets a screenshot of its own, and it serves the course's notebooks only."""

from pathlib import Path

from browser_support import (
    SCREENSHOTS,
    screenshot_path,
    served_files,
    widget_chapters,
)


def test_every_served_page_has_its_own_screenshot():
    """A chapter, its problem set and their Chinese editions have four file names (their tabs
    differ), and their screenshots never overwrite each other: not even by file name alone."""
    names = [name for _source, name in served_files(widget_chapters())]
    four = [
        "notebooks/04_list_scheduling.ipynb",
        "notebooks/zh/04_列表调度.ipynb",
        "exercises/04_list_scheduling_problems.ipynb",
        "exercises/zh/04_列表调度_习题.ipynb",
    ]
    assert set(four) <= set(names)
    shots = [screenshot_path(name) for name in names]
    assert len(set(shots)) == len(shots)
    assert len({shot.name for shot in shots}) == len(shots)
    assert all(shot.is_relative_to(SCREENSHOTS) and shot.suffix == ".png" for shot in shots)
    assert screenshot_path("notebooks/zh/04_列表调度.ipynb") == (
        SCREENSHOTS / "notebooks" / "zh" / "04_列表调度.png"
    )


def test_the_course_is_served_as_the_readme_opens_it():
    names = {name for _source, name in served_files([])}
    assert {"index.ipynb", "glossary.ipynb"} <= names
    folders = {str(Path(name).parent) for name in names}
    assert {"notebooks", "exercises", "notebooks/zh", "exercises/zh"} <= folders
