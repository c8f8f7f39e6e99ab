"""The registries' one lookup: a name → the module that holds it, imported on first use.

Readers, containers and exporters are plain dicts of name → module path, each in one visible
place; the module is imported only when its name is asked for, so ``collate --help`` does not
pay for all of them. An unknown name is a :class:`~collate.errors.ProjectError` that lists the
known ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import Any

from collate.errors import ProjectError


def load(registry: Mapping[str, str], name: str, attribute: str, what: str, known_as: str, extra: str = "") -> Any:
    """``registry[name]``'s module's ``attribute``; an unknown ``name`` lists the known ones."""
    try:
        module = registry[name]
    except KeyError:
        known = ", ".join(sorted(registry))
        raise ProjectError(f"unknown {what} {name!r}", hint=f"known {known_as}: {known}{extra}") from None
    return getattr(import_module(module), attribute)


def best(scored: Iterable[tuple[float, str, str]]) -> tuple[float, str, str]:
    """The highest ``(score, name, reason)``; ties go to the first name in alphabetical order."""
    return min(scored, key=lambda s: (-s[0], s[1]))
