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
    """A chapter, its problem set and their Chinese editions share a file name
    (04_list_scheduling.ipynb): their screenshots must not overwrite each other."""
    names = [name for _source, name in served_files(widget_chapters())]
    assert "notebooks/zh/04_list_scheduling.ipynb" in names
    assert "exercises/zh/04_list_scheduling.ipynb" in names
    shots = [screenshot_path(name) for name in names]
    assert len(set(shots)) == len(shots)
    assert all(shot.is_relative_to(SCREENSHOTS) and shot.suffix == ".png" for shot in shots)
    assert screenshot_path("notebooks/zh/04_list_scheduling.ipynb") == (
        SCREENSHOTS / "notebooks" / "zh" / "04_list_scheduling.png"
    )


def test_the_course_is_served_as_the_readme_opens_it():
    names = {name for _source, name in served_files([])}
    assert {"index.ipynb", "glossary.ipynb"} <= names
    folders = {str(Path(name).parent) for name in names}
    assert {"notebooks", "exercises", "notebooks/zh", "exercises/zh"} <= folders
