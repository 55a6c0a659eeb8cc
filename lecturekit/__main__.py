"""``python -m lecturekit``: the same as the ``lecturekit`` command."""

import sys

from .cli import main

sys.exit(main())
