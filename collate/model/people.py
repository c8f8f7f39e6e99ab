"""Who speaks: the people whose words a witness carries, each once, with every name they go by.

A note's attribution names its speaker as the print does (``蕙田案``, the Siku editors' ``案`` or
``【案…】``); the notes stage gives each note the speaker's name (秦蕙田, 四庫館臣: :func:`speakers`);
the TEI declares each speaker once in its ``standOff`` (an id, the name in Chinese and in English,
a person or a body of editors) and points at them; the 校勘記 opens a note as the print does
(``蕙田案：…``). All ask :func:`named` here, by whichever name they hold.

A collation note also relays what a commentator says (``疏云…``, ``郑注云…``, ``陆德明曰…``): the
notes stage finds those by :func:`cited_names`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Person:
    """A person (or a body of editors) who speaks in a witness.

    ``id`` is the TEI ``xml:id``; ``name`` the name in Chinese as the TEI declares it and the notes
    stage gives it; ``english`` the name in English; ``group``: a body of editors (a TEI ``org``),
    not one person; ``label`` the attribution their notes open with in print; ``aliases`` the other
    names readers and notes give them (a shorter name, the simplified form of a simplified e-text);
    ``cited`` the names a collation note relays them by as its authority (疏 in ``疏云``), as the notes
    stage reads a note: folded to the simplified script.
    """

    id: str
    name: str
    english: str
    group: bool
    label: str
    aliases: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every name that names them: the name, the aliases, the label, the id."""
        return (self.name, *self.aliases, self.label, self.id)


QIN_HUITIAN = Person("QinHuitian", "秦蕙田", "Qin Huitian", False, "蕙田案", ("蕙田",))
SIKU_EDITORS = Person("SikuEditors", "四庫館臣", "the Siku editors", True, "案", ("四库馆臣",))
# The speakers of the editorial notes (Layer.NOTE) the base texts carry.
EDITORS = (QIN_HUITIAN, SIKU_EDITORS)

# 陸德明, whose 釋文 (音義) a 注疏 print opens with 陸曰.
LU_DEMING = Person("LuDeming", "陸德明", "Lu Deming", False, "陸曰", cited=("陆德明",))

# The commentators a collation note relays: 鄭玄 (his 注), the 疏 of 孔穎達 (禮記) or 賈公彥 (儀禮),
# 王肅, 陸德明. A note says 疏 for whichever 疏 its classic has.
ZHENG_XUAN = Person("ZhengXuan", "鄭玄", "Zheng Xuan", False, "注", ("鄭注",), cited=("郑注", "郑", "注"))
KONG_YINGDA = Person("KongYingda", "孔穎達", "Kong Yingda", False, "疏", ("孔疏",), cited=("孔疏", "疏"))
JIA_GONGYAN = Person("JiaGongyan", "賈公彥", "Jia Gongyan", False, "疏", ("賈疏",), cited=("贾疏", "疏"))
WANG_SU = Person("WangSu", "王肅", "Wang Su", False, "王肅曰", cited=("王肃",))
AUTHORITIES = (ZHENG_XUAN, KONG_YINGDA, JIA_GONGYAN, WANG_SU, LU_DEMING)

_NAMED = {name: p for p in EDITORS for name in p.names}


def named(name: str) -> Person | None:
    """The note speaker ``name`` names, by any of their names (秦蕙田, 蕙田, 蕙田案, QinHuitian), if any."""
    return _NAMED.get(name)


def cited_names() -> tuple[str, ...]:
    """Every name a collation note relays an authority by (郑注, 郑, 注, 孔疏, 疏 …), each once."""
    return tuple(dict.fromkeys(name for p in AUTHORITIES for name in p.cited))


def speakers() -> dict[str, str]:
    """Each note speaker's name by the attribution their notes open with: 蕙田案 → 秦蕙田, 案 → 四庫館臣."""
    return {p.label: p.name for p in EDITORS}


__all__ = [
    "AUTHORITIES",
    "EDITORS",
    "JIA_GONGYAN",
    "KONG_YINGDA",
    "LU_DEMING",
    "QIN_HUITIAN",
    "SIKU_EDITORS",
    "WANG_SU",
    "ZHENG_XUAN",
    "Person",
    "cited_names",
    "named",
    "speakers",
]
