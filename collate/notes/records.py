"""The records of the notes stage: a note, where it is anchored, what it claims, how that checks out.

Every record points back into a witness's raw text by offsets, so a claim can always be
shown at its place (file:line:col and printed page) and an anchor can be attached to the
apparatus loci it overlaps; :class:`~collate.model.annotations.AttachedNote` is what a locus then
carries, a claim's fields as a :class:`~collate.model.annotations.NoteClaim` (:meth:`Claim.record`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from collate.model import Layer, SourceLocation
from collate.model.annotations import ClaimKind as ClaimKind  # re-exported: the stage's modules name it from here
from collate.model.annotations import NoteClaim, Verdict
from collate.model.annotations import Place as Place  # re-exported, as ClaimKind
from collate.model.claim_words import english


@dataclass(frozen=True, slots=True)
class Note:
    """One editorial note of a witness: a 蕙田案 block or a 【案…】.

    ``start``/``end`` bound the note's words in the witness's raw text (the attribution
    蕙田案/案 excluded); ``text`` is those words with layout (indentation, line ends) left
    out, and ``pieces`` the raw ``(start, end)`` stretches it is made of, in order.
    ``label`` is the attribution as printed; ``resp`` who speaks (秦蕙田, 四庫館臣).
    ``heading`` is how many characters of ``text`` are the note's heading: the passage a 考證
    note quotes before its ``○`` (``請致者疏非實也○實監本譌作賓``), 0 for a note without one.
    ``variant`` marks a witness's own report of another text's reading at the words it follows
    (a web edition's ``采蘩一作「繁」``: ``text`` is the reading, ``label`` the words 一作, ``resp``
    the witness itself); its reader says so (a text span of passage ``variant``).
    """

    id: str
    witness: str
    unit: int
    start: int
    end: int
    label: str
    resp: str
    text: str
    pieces: tuple[tuple[int, int], ...]
    location: SourceLocation
    heading: int = 0
    variant: bool = False

    def raw_offset(self, index: int) -> int:
        """The raw-text offset of character ``index`` of ``text`` (``len(text)`` maps to ``end``)."""
        for start, end in self.pieces:
            if index < end - start:
                return start + index
            index -= end - start
        return self.end


class AnchorMethod(str, Enum):
    """How a note was attached to the base text."""

    QUOTE = "quote"  # the note quotes the passage it judges
    PRECEDING = "preceding"  # no quotation: the passage just before the note
    CHAPTER = "chapter"  # nothing precedes: the chapter as a whole


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a note is attached: ``base[start:end]`` in the base witness's raw text.

    ``text`` is the base's words there (layout and small print left out), ``quote`` the
    phrase of the note that was found (empty unless ``method`` is QUOTE), ``score`` how
    well it matched (0–100; 100 for a passage taken because it precedes the note).
    """

    note: Note
    layer: Layer
    start: int
    end: int
    text: str
    quote: str
    method: AnchorMethod
    score: float
    location: SourceLocation


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement of a note about one witness's text, parsed by the claim grammar.

    ``witness`` is the name as the note writes it (大戴礼, 今注疏本 …), ``sigla`` the
    project's sigla for it (the lexicon may map a name to a full text and a readings file)
    and ``siglum`` the first of them, or None. ``base`` is the base's text the claim
    concerns (empty for an addition), ``reading`` what the witness has (empty for a lack).
    ``phrase`` is the base phrase that locates ``place``. ``base_start``/``base_end`` are
    the offsets in the base witness's raw text the claim concerns (equal for an insertion
    point); None when the place could not be found. ``resp`` is who makes the claim (the
    note's author, or the authority it cites: 朱子 for 通解云…当作), ``via`` the source the
    note relays (疏 in 疏云定本无此一句). ``count`` is a stated length (十三字), ``clause``
    the words of the note the claim was read from. ``layer`` is the layer of the base text the
    claim concerns: the one its place lies in, as the note stands in it (a 【案】 in 注) or names it
    (``疏…`` in a 考證 note's heading, ``疏内…``); it is checked in the same layer of other witnesses.
    """

    note: Note
    witness: str
    siglum: str | None
    kind: ClaimKind
    base: str
    reading: str
    place: Place
    phrase: str
    base_start: int | None
    base_end: int | None
    resp: str
    clause: str
    via: str | None = None
    count: int | None = None
    sigla: tuple[str, ...] = ()
    layer: Layer = Layer.JING

    def record(self) -> NoteClaim:
        """The claim as a locus carries it: its fields, without the note and the offsets."""
        return NoteClaim(
            self.kind, self.witness, self.sigla, self.base, self.reading, self.place, self.phrase, self.layer, self.resp
        )

    def summary(self) -> str:
        """A one-line summary, e.g. ``大戴礼 (DD) reads 峭 for 哨`` (:func:`collate.model.claim_words.english`)."""
        return english(self.record())


@dataclass(frozen=True, slots=True)
class Check:
    """A claim checked: the verdict, why, and what the witness actually reads there.

    ``witness`` is the siglum of the full text checked against (None when there is none);
    ``actual`` the witness's own characters at the place, ``location`` where they are.
    ``score`` is the similarity (0–100) of the claimed and the actual reading.
    """

    claim: Claim
    verdict: Verdict
    evidence: str
    witness: str | None = None
    actual: str = ""
    location: SourceLocation | None = None
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class ReadingDifference:
    """Where the readings a note reports differ from a hand-written readings file.

    ``claim`` is the claim whose reading the file gives otherwise or not at all (None for
    a file entry no claim gives); ``entry_at``/``entry_reading`` the file entry concerned.
    """

    siglum: str
    message: str
    claim: Claim | None
    entry_at: str = ""
    entry_reading: str = ""
