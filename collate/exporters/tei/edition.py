"""The publication form: the same document, with an entry only where the edition reports a variant.

The lossless file keeps every witness's own characters, so it has an entry wherever a witness
differs from the base at all: by script alone (宾/賓), where a milestone must sit in a reading,
where a stretch is not every witness's. A publication tool prints every ``<app>`` as an entry of
its apparatus (the TEI Stylesheets print ``lemma] witnesses; reading (witnesses)`` for each), so
this form is made from the same document (:func:`~collate.exporters.tei.document.document`) by
taking out what the project's normalization declares no variant:

* an entry of a script difference, or one that only says where a witness is extant, gives way to
  the base's text; a witness that differs from the base by script alone joins the lemma;
* with the policy :data:`REGULARIZED`, orthographic readings (異體字, 避諱) too;
* a witness that is not extant at an entry (a lacuna, a passage it does not contain, beyond its
  end) is not cited there: an empty reading would print as an omission. Milestones go with them;
* readings of one reading in several spellings are one ``<rdg>``; groups of readings are taken
  apart, each reading with the group's class (the TEI Stylesheets print only an entry's ``<rdg>``s);
* text where the base is not extant, each witness's own-text division and the other witnesses'
  page and line breaks are left out: they are the witnesses', in the lossless file, which the
  header names;
* commentary is a ``<note place="inline">`` again, labelled by its layer (``@n``: 注, 疏);
  a note in an entry (蕙田案, the editor's comment on a decision) goes into the reading it judges,
  as ``type="critical"``;
* an addition's entry takes the base's character before it into its lemma and readings
  (``俎] 四庫本; 俎以 (注疏本)``), or the one after it where nothing of the base stands before it
  in its line: a lemma is never empty;
* with :data:`REGULARIZED`, the base's variant graphs are given with their regular form
  (``<choice><orig>爲</orig><reg>為</reg></choice>``), in the text (a lemma cites the base as printed);
* a note judging several entries is quoted in the first; the others say 見前「…」條, with
  their own verdicts;
* each entry is numbered (``@n``), a locus cut at a block's edge keeping one number.

The header's ``<normalization>`` states the policy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from collate.exporters.tei.document import document, tei_bytes
from collate.exporters.tei.edition_header import declare
from collate.exporters.tei.markup import EXTENT, LAYOUT, MILESTONES, NS, SCRIPT, TEI_NS, XML_ID, detach, splice
from collate.files import write_atomic
from collate.normalize.tokenize import is_token_char

if TYPE_CHECKING:
    from collate.results import ExportInput


@dataclass(frozen=True, slots=True)
class Policy:
    """What the publication form does not report: script always; orthographic readings if not ``orthographic``."""

    orthographic: bool
    name: str


EDITION = Policy(orthographic=True, name="edition")
REGULARIZED = Policy(orthographic=False, name="edition-regularized")

_T = f"{{{TEI_NS}}}"
_MARKS = tuple(f"{_T}{m}" for m in MILESTONES)
_BREAKS = (f"{_T}pb", f"{_T}lb", f"{_T}milestone")
# Types of entries that are no variant: they exist so that the lossless file is lossless.
_NOT_VARIANTS = frozenset({SCRIPT, EXTENT, LAYOUT})
_POINTERS = ("target", "corresp", "exclude")
# The suffix of the second and later parts of a locus cut at a block's edge (``app.jing-00003.p2``).
_PART = re.compile(r"\.p\d+$")


def build_edition(data: ExportInput, policy: Policy = EDITION) -> Any:
    """The collation's publication form (an lxml ``ElementTree``); see the module."""
    tree, _ = document(data, regularize=not policy.orthographic)
    publication_form(tree.getroot(), data.collation.base, policy, f"{data.collation.name}.tei.xml")
    return tree


def publication_form(root: Any, base: str, policy: Policy, lossless: str) -> None:
    """Make ``root``, a document as :func:`.document.document` writes it, the publication form, in place.

    ``base`` is the base's siglum (its pages and lines are kept), ``lossless`` the name of the
    lossless file the header points at for the witnesses' own text.
    """
    _Edition(root, base, policy).run()
    declare(root, lossless, policy.orthographic)


class _Edition:
    def __init__(self, root: Any, base: str, policy: Policy) -> None:
        self.root = root
        self.base = base
        self.policy = policy
        self.order: list[str] = root.xpath("//tei:listWit//tei:witness/@xml:id", namespaces=NS)
        # Ids of readings and entries taken out, and what a pointer at them points at now (None: nothing).
        self.moved: dict[str, str | None] = {}

    def run(self) -> None:
        body = self.root.find(f"{_T}text/{_T}body")
        for div in body.xpath("tei:div[@type='witness' or @type='unplaced']", namespaces=NS):
            body.remove(div)
        for app in body.xpath(".//tei:app[@type='not-extant']", namespaces=NS):
            self._drop(app)
        # Innermost first: a script form nested in a lemma is gone before its entry is looked at.
        for app in reversed(list(body.iter(f"{_T}app"))):
            if app.get("type") in _NOT_VARIANTS:
                self._unwrap(app)
            else:
                self._entry(app)
        for mark in list(body.iter(*_MARKS)):
            splice(mark, [])
        for mark in list(body.iter(*_BREAKS)):
            if mark.get("edRef") != f"#{self.base}":
                splice(mark, [])
        for seg in body.xpath(".//tei:seg[@type='commentary']", namespaces=NS):
            _as_note(seg)
        for app in body.iter(f"{_T}app"):
            anchor(app)
        for choice in body.xpath(".//tei:lem//tei:choice", namespaces=NS):
            # A lemma cites the base as printed: the apparatus prints a lemma's whole text.
            orig = choice.find(f"{_T}orig")
            splice(choice, detach(orig) if orig is not None else [])
        _quote_once(body)
        self._number(body)
        self._repoint()

    # -- entries

    def _entry(self, app: Any) -> None:
        lem = app.find(f"{_T}lem")
        for group in app.findall(f"{_T}rdgGrp"):
            self._ungroup(group)
        joining: list[str] = []
        for rdg in app.findall(f"{_T}rdg"):
            kind = rdg.get("type")
            if _not_extant(rdg):
                self._forget(rdg, app)
            elif kind in (SCRIPT, LAYOUT) or (kind == "orthographic" and not self.policy.orthographic):
                joining.extend(_wits(rdg))
                self._forget(rdg, app)
        if lem is not None and joining:
            lem.set("wit", self._wits([*_wits(lem), *joining]))
        rdgs = app.findall(f"{_T}rdg")
        if not rdgs:
            self._unwrap(app)
            return
        # The TEI Stylesheets print of an entry its lemma's string and its readings' content, and
        # nothing else: a note goes into the reading it judges (@target), else the first, as a
        # critical note (the word the Versioning Machine knows); a lemma holds only the base's text.
        if lem is not None:
            for item in lem.xpath("tei:note | tei:witDetail", namespaces=NS):
                rdgs[0].append(_taken(item))
        for comment in app.xpath("tei:note", namespaces=NS):
            comment.set("type", "critical")
            judged = [r for r in rdgs if f"#{r.get(XML_ID)}" in (comment.get("target") or "").split()]
            (judged or rdgs)[0].append(_taken(comment))

    def _ungroup(self, group: Any) -> None:
        """Readings of a group stand in the entry, each with the group's class; spellings of one
        reading (a group not of orthographic forms) are one reading."""
        rdgs = group.findall(f"{_T}rdg")
        for rdg in rdgs:
            for attr in ("type", "cause", "ana"):
                if group.get(attr) is not None and rdg.get(attr) is None:
                    rdg.set(attr, group.get(attr))
        if group.get("type") != "orthographic" and len(rdgs) > 1:
            first = rdgs[0]
            first.set("wit", self._wits([w for r in rdgs for w in _wits(r)]))
            for other in rdgs[1:]:
                self._forget(other, first)
            rdgs = [first]
        splice(group, rdgs)

    def _forget(self, element: Any, instead: Any) -> None:
        """Take ``element`` out; pointers at it point at ``instead`` (its entry, or the reading kept)."""
        gone = element.get(XML_ID)
        if gone:
            self.moved[gone] = instead.get(XML_ID)
        for inner in element.iter():
            if inner is not element and inner.get(XML_ID):
                self.moved[inner.get(XML_ID)] = instead.get(XML_ID)
        splice(element, [])

    def _unwrap(self, app: Any) -> None:
        """The entry gives way to its lemma's text (the base's); pointers at it or its readings go.

        A note it held goes with it: a 蕙田案 still stands at its own place in the text.
        """
        for inner in app.iter():
            if inner.get(XML_ID):
                self.moved[inner.get(XML_ID)] = None
        lem = app.find(f"{_T}lem")
        splice(app, detach(lem) if lem is not None else [])

    def _drop(self, app: Any) -> None:
        for inner in app.iter():
            if inner.get(XML_ID):
                self.moved[inner.get(XML_ID)] = None
        splice(app, [])

    def _wits(self, sigla: list[str]) -> str:
        rank = {s: i for i, s in enumerate(self.order)}
        return " ".join(f"#{s}" for s in sorted(set(sigla), key=lambda s: (rank.get(s, len(rank)), s)))

    # -- numbers and pointers

    def _number(self, body: Any) -> None:
        """Each entry's number (``@n``, which the TEI Stylesheets print): the parts of a cut locus share one."""
        numbers: dict[str, int] = {}
        for app in body.iter(f"{_T}app"):
            key = _PART.sub("", app.get(XML_ID) or "") or str(id(app))
            numbers.setdefault(key, len(numbers) + 1)
            app.set("n", str(numbers[key]))

    def _repoint(self) -> None:
        """Pointers at what was taken out point at what stands for it now, or are dropped."""
        ids = set(self.root.xpath("//@xml:id"))
        for element in self.root.iter():
            if not isinstance(element.tag, str):
                continue
            for attr in _POINTERS:
                value = element.get(attr)
                if not value:
                    continue
                kept = []
                for token in value.split():
                    target = token[1:] if token.startswith("#") else None
                    while target is not None and target not in ids and target in self.moved:
                        target = self.moved[target]
                    if not token.startswith("#"):
                        kept.append(token)
                    elif target is not None and target in ids and f"#{target}" not in kept:
                        kept.append(f"#{target}")
                if kept:
                    element.set(attr, " ".join(kept))
                else:
                    del element.attrib[attr]


def anchor(app: Any) -> None:
    """Give an addition's entry the base's character before it (or after it) as its lemma, in place.

    An empty lemma prints as ``] 四庫本; 以 (注疏本)``, which says nothing of where the words
    stand; a 校勘記 says 「俎」下有「以」. The character before is taken only from the text
    right before the entry in its block, never across a line or page break (it would move to the
    wrong line); failing that, the character after it.
    """
    lem = app.find(f"{_T}lem")
    if lem is None or "".join(lem.itertext()) or len(lem):
        return
    rdgs = app.findall(f"{_T}rdg")
    previous = app.getprevious()
    before = (previous.tail if previous is not None else app.getparent().text) or ""
    cut = max((i for i, ch in enumerate(before) if is_token_char(ch)), default=None)
    if cut is not None:
        word = before[cut:]
        if previous is not None:
            previous.tail = before[:cut] or None
        else:
            app.getparent().text = before[:cut] or None
        lem.text = word
        for rdg in rdgs:
            rdg.text = word + (rdg.text or "")
        return
    after = app.tail or ""
    end = next((i + 1 for i, ch in enumerate(after) if is_token_char(ch)), None)
    if end is None:
        return
    word, app.tail = after[:end], after[end:] or None
    lem.text = word
    for rdg in rdgs:
        # After the reading's own characters, before the notes it holds.
        own = [c for c in rdg if c.tag not in (f"{_T}note", f"{_T}witDetail")]
        if own:
            own[-1].tail = (own[-1].tail or "") + word
        else:
            rdg.text = (rdg.text or "") + word


def _quote_once(body: Any) -> None:
    """A note judging several entries is quoted in the first; the others point back at it (見前「…」條)."""
    first: dict[str, str] = {}
    for app in body.iter(f"{_T}app"):
        for note in app.xpath(".//tei:note[@subtype='an']", namespaces=NS):
            key = note.get("corresp") or "".join(t for t in note.xpath("text()"))
            if key not in first:
                first[key] = _entry_words(app)
                continue
            for child in list(note):
                if child.tag != f"{_T}witDetail":
                    splice(child, [])
            note.text = f"見前「{first[key]}」條"


def _entry_words(app: Any) -> str:
    """What an entry is known by: its lemma (an addition's holds its anchor), else its first reading."""
    lem = app.find(f"{_T}lem")
    rdg = app.find(f"{_T}rdg")
    return ("".join(lem.itertext()) if lem is not None else "") or (rdg.text or "" if rdg is not None else "")


def _wits(element: Any) -> list[str]:
    return [w[1:] for w in (element.get("wit") or "").split() if w.startswith("#")]


def _not_extant(rdg: Any) -> bool:
    """A reading that only says the witness is not extant here (a lacuna, a passage it lacks)."""
    children = [c for c in rdg if isinstance(c.tag, str)]
    return bool(children) and all(c.tag in _MARKS for c in children) and not "".join(rdg.itertext()).strip()


def _taken(element: Any) -> Any:
    """``element`` taken out of its parent, its tail left where it was."""
    splice(element, [])
    return element


def _as_note(seg: Any) -> None:
    """A commentary ``<seg>`` as the publication tools print commentary: an inline note with its label."""
    seg.tag = f"{_T}note"
    target = seg.attrib.pop("corresp", None)
    attrs = dict(seg.attrib)
    seg.attrib.clear()
    seg.set("place", "inline")
    for key, value in attrs.items():
        seg.set(key, value)
    if target:
        seg.set("target", target)


class EditionExporter:
    """The registry's handle on one publication form: written only when asked for (``--tei edition``)."""

    def __init__(self, name: str, suffix: str, policy: Policy, description: str) -> None:
        self.name = name
        self.suffix = suffix
        self.policy = policy
        self.description = description

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the publication form to ``path`` atomically."""
        write_atomic(path, tei_bytes(build_edition(data, self.policy)))


EXPORTER = EditionExporter(
    "tei-edition",
    ".edition.tei.xml",
    EDITION,
    "TEI P5 publication form: an entry for each variant (script differences are none)",
)
REGULARIZED_EXPORTER = EditionExporter(
    "tei-edition-regularized",
    ".regularized.tei.xml",
    REGULARIZED,
    "TEI P5 publication form: an entry for each variant (script and orthographic differences are none)",
)
