"""``python -m lecturekit.cli``: the same as the ``lecturekit`` command."""

import sys

from . import main

sys.exit(main())
