"""The command line: parse options, call one library function, render. One error path.

``common`` holds the group (:func:`main`, whose every library error ends as one line and exit
code 1) and what the commands share; ``collating`` the commands that write (``init``, ``run``,
``sources``, ``export``, ``validate``, ``batch``), ``showing`` those that show a collation
(``inspect``, ``notes``, ``habits``, ``diff``, ``review``, ``stats``). Importing this package
registers them all.
"""

from __future__ import annotations

from collate.cli import collating, showing
from collate.cli.common import main, the_run

__all__ = ["collating", "main", "showing", "the_run"]
