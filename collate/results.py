"""The records a run hands on: the witnesses as read, the whole run, and what the exporters write.

They sit below every consumer (the exporters, the views, the review, the saved run) and above
every stage whose records they carry, so that each consumer names them without importing the
pipeline that makes them. Their field types are imported for real, not for type checking only:
the saved run (:mod:`collate.runs.saved`) decodes a run back into these records by their types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from collate.apparatus import Collation
from collate.apparatus.habits import HabitVerdict
from collate.compilation import Disagreement, WorkCoverage
from collate.decisions.apply import ApplyReport
from collate.model import Layer, Token, Witness
from collate.notes import NotesResult
from collate.project import Project
from collate.shelf import ShelfReport


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Every witness of a project, read."""

    project: Project
    witnesses: tuple[Witness, ...]

    @property
    def base(self) -> Witness:
        """The base witness."""
        return next(w for w in self.witnesses if w.siglum == self.project.base)

    def by_siglum(self) -> dict[str, Witness]:
        """The witnesses keyed by siglum."""
        return {w.siglum: w for w in self.witnesses}


@dataclass(frozen=True, slots=True)
class RunResult:
    """A whole run: the witnesses as read, their tokens per layer, and the collation."""

    read: ReadResult
    # Per witness and layer; empty in a run loaded from its saved file (collate.runs.saved): the
    # alignments and loci hold every token a command after the run shows.
    tokens: Mapping[str, Mapping[Layer, tuple[Token, ...]]]
    collation: Collation
    rule_counts: Mapping[str, Mapping[str, int]]
    notes: NotesResult | None = None
    decisions: ApplyReport | None = None
    # A compilation base: per quoted work, the witnesses it was collated against (and how much).
    coverage: tuple[WorkCoverage, ...] = ()
    # The shelf the run looked in, if any: the files read, those that joined, what could not be read.
    shelf: ShelfReport | None = None
    # Passages whose run-in title names one work and whose text is another's (the text decides).
    disagreements: tuple[Disagreement, ...] = ()
    # The editor's verdicts on print habits the collation was built with (they change its classes).
    habits: tuple[HabitVerdict, ...] = ()
    # The collation before the editor's decisions, when they were applied: what the run saves, and
    # what the review places decisions on as the editor makes them.
    undecided: Collation | None = None
    # Per witness, the number of tokens of each layer tokenized whole (none of it left out as
    # another work's): with the alignment, it tells the exporters whether a layer has text the
    # collation does not carry, without tokenizing the layer again.
    layer_sizes: Mapping[str, Mapping[Layer, int]] = field(default_factory=dict)

    def without_decisions(self) -> RunResult:
        """The run as it stood before the editor's decisions were applied (itself if none were)."""
        if self.undecided is None:
            return self
        return replace(self, collation=self.undecided, decisions=None, undecided=None)


@dataclass(frozen=True, slots=True)
class WitnessBibl:
    """What the project file says of a witness for its description: a citation, a note, and where
    the pictures of its pages are (a URL pattern, :mod:`collate.model.facsimile`)."""

    bibl: str = ""
    notes: str = ""
    facs: str = ""


@dataclass(frozen=True, slots=True)
class ExportInput:
    """What the exporters write: the collation, the witnesses as read, the project's metadata, the notes.

    The collation carries the project's title, name and base; ``witnesses`` are the files as
    read, by siglum (the TEI and the HTML lay out the base's own text and pages, the JSON gives
    each witness's line starts); ``bibl`` what the project file says of each witness, by siglum
    (a witness it does not declare has none); ``notes`` the notes stage's result, if it ran.
    """

    collation: Collation
    witnesses: Mapping[str, Witness]
    bibl: Mapping[str, WitnessBibl] = field(default_factory=dict)
    notes: NotesResult | None = None
    # Per witness, the number of tokens of each layer the run tokenized whole (RunResult.layer_sizes).
    layer_sizes: Mapping[str, Mapping[Layer, int]] = field(default_factory=dict)

    @property
    def base(self) -> Witness:
        """The base witness as read."""
        return self.witnesses[self.collation.base]

    @classmethod
    def of(cls, run: RunResult) -> ExportInput:
        """The input of every exporter, from a whole run."""
        project = run.read.project
        return cls(
            collation=run.collation,
            witnesses=run.read.by_siglum(),
            bibl={w.siglum: WitnessBibl(w.bibl, w.notes, w.facs) for w in project.witnesses},
            notes=run.notes,
            layer_sizes=run.layer_sizes,
        )


__all__ = ["ExportInput", "ReadResult", "RunResult", "WitnessBibl"]
