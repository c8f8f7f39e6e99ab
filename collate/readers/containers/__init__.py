"""Containers: how a witness file is wrapped, one module a container, registered here.

A container takes out of the raw file what is its own (header lines, page markers, line-end
signs, blank page breaks, entities) and hands the rest to the print layout as a
:class:`~collate.readers.body.Body`. It knows nothing of layers; a layout knows nothing of
containers. ``detect_container`` picks the best fit and says why.
"""

from __future__ import annotations

from typing import Protocol

from collate.readers.base import ReadOptions
from collate.readers.body import Body
from collate.registry import best, load

# name -> module holding a ``CONTAINER``; imported on first use.
CONTAINERS: dict[str, str] = {
    "mandoku": "collate.readers.containers.mandoku",
    "paged": "collate.readers.containers.paged",
    "plain": "collate.readers.containers.plain",
    "web": "collate.readers.containers.web",
}


class Container(Protocol):
    """How one kind of file wraps the print it holds."""

    name: str
    description: str

    def detect(self, raw: str) -> tuple[float, str]:
        """How well ``raw`` fits this container (0..1) and why, in a short phrase."""
        ...

    def read(self, raw: str, options: ReadOptions) -> Body:
        """The body text for the layout, with the container's own spans and marks."""
        ...


def get_container(name: str) -> Container:
    """The container registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    container: Container = load(CONTAINERS, name, "CONTAINER", "container", "containers", ", or auto")
    return container


def detect_container(raw: str) -> tuple[str, str]:
    """The best-fitting container for ``raw``: its name and the reason it won."""
    score, name, reason = best((s, n, r) for n in CONTAINERS if n != "plain" for s, r in [get_container(n).detect(raw)])
    if score <= 0:
        return "plain", "no page markers, org header or blank-line pages: the file's lines as they are"
    return name, reason


__all__ = ["CONTAINERS", "Container", "detect_container", "get_container"]
