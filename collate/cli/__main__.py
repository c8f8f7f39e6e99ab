"""``python -m collate.cli``: the command line."""

import sys

from collate.cli import main

sys.exit(main())
