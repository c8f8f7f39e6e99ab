"""The apparatus records: loci, readings, layers and collations changed by copy, looked up by id."""

from __future__ import annotations

from dataclasses import replace

from builders import align_rows

from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer, strongest
from collate.model import Layer
from collate.model.annotations import AttachedNote, ClaimKind, NoteClaim


def test_immutable_helpers() -> None:
    alignment, witnesses = align_rows({"SK": "射人奉之", "ZS": "射人案之"})
    result = build_layer(alignment, witnesses)
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    locus = result.loci[0]
    claim = NoteClaim(ClaimKind.READS, "注疏本", ("ZS",), "奉", "案", layer=Layer.ZHU)
    note = AttachedNote("an-1", "QinHuitian", "蕙田案…", None, (claim,))
    updated = collation.with_locus(locus.with_notes((note,)))
    assert locus.notes == () and collation.locus(locus.id) == locus
    assert (found := updated.locus(locus.id)) is not None and found.notes == (note,)
    scribal = locus.with_readings((locus.readings[0].reclassified(ReadingClass.SCRIBAL_ERROR, "haplography"),))
    assert scribal.cls is ReadingClass.SCRIBAL_ERROR and scribal.readings[0].cause == "haplography"
    assert strongest(()) is ReadingClass.NOT_EXTANT
    emptied = collation.with_layer(result.with_loci(()))
    assert emptied.layer(Layer.JING) == replace(result, loci=()) and collation.layer(Layer.JING) == result
