"""The command line: parse options, call one library function, render. One error path.

``common`` holds the group (:func:`main`, whose every library error ends as one line and exit
code 1), the table of its commands, and what the commands share; ``collating`` the commands that
write (``init``, ``run``, ``sources``, ``export``, ``validate``, ``batch``), ``showing`` those that
show a collation (``inspect``, ``notes``, ``habits``, ``diff``, ``review``, ``stats``), ``names``
the closed sets they take by name. A command's module is imported when the command runs or shows
its help: ``collate --help`` imports none.
"""

from __future__ import annotations

from collate.cli.common import main, the_run

__all__ = ["main", "the_run"]
