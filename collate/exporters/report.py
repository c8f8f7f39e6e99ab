"""A witness's reading as data: what ``collate inspect --json`` prints, for scripts and tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from collate.model import MarkKind, Role, Witness
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize


def reading_report(w: Witness, normalizer: Normalizer | None = None) -> dict[str, Any]:
    """Container, layout and their reasons; per layer characters, units and tokens; pages; diagnostics.

    ``chars`` counts a text layer's words (attributions and markers aside) and every character
    of the other layers; ``tokens`` is what the tokenizer makes of a text layer.
    """
    normalizer = normalizer or Normalizer()
    layers: dict[str, dict[str, int]] = {}
    for layer in w.layers():
        spans = [s for s in w.spans if s.layer is layer]
        chars = sum(s.end - s.start for s in spans if s.role is Role.TEXT or not layer.is_text)
        entry = {"chars": chars, "units": len({s.unit for s in spans})}
        if layer.is_text:
            entry["tokens"] = len(tokenize(w, layer, normalizer))
        layers[layer.value] = entry
    pages = [m.label for m in w.marks if m.kind is MarkKind.PAGE]
    lacunae = [{"at": str(w.locate(m.offset)), "extent": m.label} for m in w.marks if m.kind is MarkKind.LACUNA]
    codes = Counter(d.code for d in w.diagnostics)
    return {
        "path": w.path,
        "encoding": w.encoding,
        "container": {"name": w.container, "reason": w.container_reason},
        "layout": {"name": w.layout, "reason": w.layout_reason},
        "metadata": dict(w.metadata),
        "layers": layers,
        "pages": {"count": len(pages), "first": pages[0] if pages else None, "last": pages[-1] if pages else None},
        "lacunae": lacunae,
        "diagnostics": {
            "counts": dict(sorted(codes.items())),
            "items": [
                {
                    "code": d.code,
                    "severity": d.severity.value,
                    "message": d.message,
                    "at": str(w.locate(d.start)),
                }
                for d in w.diagnostics
            ],
        },
    }


__all__ = ["reading_report"]
