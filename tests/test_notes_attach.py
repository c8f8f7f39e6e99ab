"""Attaching notes to loci (collate/notes/attach.py)."""

from __future__ import annotations

from builders import collate, layered
from scan_support import counted, long_collation

from collate.model import Layer, SourceLocation
from collate.notes import NotesResult
from collate.notes.attach import attach
from collate.notes.records import Anchor, AnchorMethod, Note


def test_attaching_reads_the_layer_a_few_times_not_once_per_locus() -> None:
    collation, _ = long_collation()
    collation, (columns,) = counted(collation)
    attach(collation, NotesResult((), (), (), (), (), ()))
    # One index of the base per layer; rebuilding the base column per locus reads 80 × the layer.
    assert columns.visited <= 3 * len(columns)


# A 考證 note that quotes its passage and speaks of one character of it (鍾), beside a variant on another (脯/肉).
PASSAGE = "賓所執脯以賜鍾人於門内霤"


def _quoting(words: str, quote: str = PASSAGE) -> list[str]:
    """The loci a claim-less note quoting PASSAGE (as ``quote``), then saying ``words``, is attached to."""
    base = layered("ZS", [(Layer.JING, PASSAGE)])
    other = layered("JS", [(Layer.JING, PASSAGE.replace("脯", "肉"))])
    collation, _ = collate([base, other], layers=(Layer.JING,))
    where = SourceLocation("ZS.txt", 1, 1)
    text = quote + words
    note = Note("ZS-n1", "ZS", 9, 100, 100 + len(text), "臣紱", "臣紱", text, ((100, 100 + len(text)),), where)
    anchor = Anchor(note, Layer.JING, 0, len(PASSAGE), PASSAGE, quote, AnchorMethod.QUOTE, 100.0, where)
    attached = attach(collation, NotesResult((note,), (anchor,), (), (), (), ()))
    return [locus.lemma.text for locus in attached.loci() if locus.notes]


def test_a_quoting_note_on_another_character_of_the_passage_is_no_note_on_its_variant() -> None:
    assert _quoting("按鍾鼓之鍾古皆作鍾三禮無鐘字俗本或作鐘皆後人所改也") == []


def test_a_quoting_note_that_names_the_variant_s_character_is_on_it() -> None:
    assert _quoting("按脯監本作肉") == ["脯"]


def test_a_quoting_note_that_names_nothing_of_the_passage_is_on_its_variants() -> None:
    assert _quoting("此禮之正也") == ["脯"]


def test_punctuation_and_line_ends_name_nothing() -> None:
    # The quotation and the note's words both end with 。 and hold a line end: no character named.
    assert _quoting("此禮之\n正也。", quote="賓所執脯以賜\n鍾人於門内霤。") == ["脯"]


def test_a_note_quoting_in_pieces_has_each_piece_left_out() -> None:
    # Two quoted phrases (joined by …): the words after them name 鍾, none of the 脯/肉 variant.
    assert _quoting("按鍾鼓之鍾古皆作鍾", quote="賓所執脯…以賜鍾人") == []
