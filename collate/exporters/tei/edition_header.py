"""What the publication form's header says it is: its policy, and where the witnesses' own text is.

The header is the lossless document's (:mod:`.header`), with three statements changed: the
subtitle, the ``<normalization>`` (which differences are no entries, and that each witness's
own characters are in the lossless file, named by a ``<ref>``), and the ``<segmentation>`` (the
witnesses' text that is not collated is in that file too).
"""

from __future__ import annotations

from typing import Any

from collate.exporters.tei.markup import NS, XML_LANG, E

_SCRIPT = (
    "Readings are compared on a normalized form and printed in each witness's own characters. "
    "This is the publication form: an entry (app) stands only where a witness has a variant. "
    "Differences of script (simplified and traditional characters, e.g. 宾/賓) and of punctuation are "
    "no variants and no entries; a witness that differs from the base by script alone is listed with "
    "the lemma."
)
_ORTHOGRAPHIC_KEPT = (
    ' Orthographic variants (variant graphs, taboo forms) are entries, typed rdg type="orthographic" '
    "with @cause and @ana naming the rule that makes them equal."
)
_ORTHOGRAPHIC_REGULARIZED = (
    " By the editor's choice, orthographic variants (variant graphs, taboo forms: 異體字不出校) are no "
    "entries either; a witness that has one is listed with the lemma."
)
_EXTANT = (
    " A witness is cited only where it is extant: where its print has lost pages, after its end, "
    "before its start, outside a sparse witness's readings it is not listed at all (no empty reading, "
    "which would be an omission). Readings of one reading in several spellings are one rdg, in the "
    "first witness's characters. The other witnesses' pages and lines and the text where the base is "
    "not extant are not part of this form. Each witness's own characters, every entry of script or "
    "extent, and every witness's text that is not collated are in the lossless transcription "
)


def declare(root: Any, lossless: str, orthographic: bool) -> None:
    """State in ``root``'s header that it is the publication form, pointing at the ``lossless`` file."""
    for title in root.xpath("//tei:titleStmt/tei:title[@type='sub']", namespaces=NS):
        title.text = "critical apparatus, publication form"
    for normalization in root.xpath("//tei:editorialDecl/tei:normalization", namespaces=NS):
        first = normalization[0]
        policy = _SCRIPT + (_ORTHOGRAPHIC_KEPT if orthographic else _ORTHOGRAPHIC_REGULARIZED) + _EXTANT
        statement = E.p(policy, E.ref(lossless, target=lossless), ".", {XML_LANG: "en"})
        normalization.replace(first, statement)
    for segmentation in root.xpath("//tei:editorialDecl/tei:segmentation/tei:p", namespaces=NS):
        text = segmentation.text or ""
        cut = text.find(" Text a witness has that is not collated")
        if cut >= 0:
            segmentation.text = text[:cut] + " Text a witness has that is not collated is in "
            segmentation.append(E.ref(lossless, target=lossless))
            segmentation[-1].tail = "; the base's stands at its place, with @source."
