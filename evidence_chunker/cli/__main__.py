"""``python -m evidence_chunker.cli``: the ``sjt`` command."""

import sys

from . import main

sys.exit(main())
