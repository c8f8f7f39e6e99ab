"""The words of the claim grammar: witness names, verbs, places, and words that open a comment.

The default lexicon holds the names editors' notes use for editions (大戴礼, 今注疏本,
宋本, 唐石经 …) without sigla, since sigla belong to a project. A project maps names to its
sigla in ``collate.toml``::

    [notes.lexicon]
    "大戴礼" = "DD"            # or a list: ["DD", "DDS"]

and may add names the same way. All words are matched on folded text (simplified, see
:mod:`collate.notes.fold`), so 大戴禮 in a traditional-script note is 大戴礼.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from collate.errors import ProjectError
from collate.model.people import speakers
from collate.notes.fold import fold
from collate.notes.records import ClaimKind

# Names of editions and texts that notes report on. A name maps to the name it stands for
# (今本大戴礼 is 大戴礼 as the author knew it), so one siglum mapping covers its aliases.
WITNESS_NAMES: dict[str, str] = {
    "今本大戴礼": "大戴礼",
    "大戴礼": "大戴礼",
    "大戴记": "大戴礼",
    "大戴": "大戴礼",
    "小戴": "小戴",
    "今注疏本": "今注疏本",
    "注疏本": "今注疏本",
    "注疏": "注疏",
    "宋本": "宋本",
    "唐石经": "唐石经",
    "石经": "唐石经",
    "定本": "定本",
    "释文": "释文",
    "今文": "今文",
    "古文": "古文",
    "通解": "朱子仪礼经传通解本",
    "朱子本": "朱子仪礼经传通解本",
    "杨本": "杨本",  # 楊復《儀禮圖》, as the 考證 of 儀禮注疏 cite it
    "敖本": "敖本",  # 敖繼公《儀禮集說》
    "郑本": "郑本",  # 鄭玄's text, as 敖繼公 cites it (鄭本作媵觚)
    "仪礼图": "仪礼图",
    "集说": "集说",
    "疏内举注文": "疏举注文",
    "疏举注文": "疏举注文",
    "礼记文": "礼记",
    "监本": "监本",
    "毛本": "毛本",
    "闽本": "闽本",
}

# Names written with a variable part: (regex on folded text, name it stands for; "{0}" is
# the first group). 朱子仪礼经传通解本 often has 传 unencoded (经?通解).
WITNESS_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"朱子仪礼经.?通解本?", "朱子仪礼经传通解本"),
    (r"(\w{2}注)引此文", "{0}"),
)

# Verb → claim kind, matched longest first right after a witness name (and its adverbs).
VERBS: dict[str, ClaimKind] = {
    "讹作": ClaimKind.READS,
    "误作": ClaimKind.READS,
    "作": ClaimKind.READS,
    "云": ClaimKind.READS,
    "有云": ClaimKind.ADDS,
    "有曰": ClaimKind.ADDS,
    "又曰": ClaimKind.ADDS,
    "多": ClaimKind.ADDS,
    "有": ClaimKind.ADDS,
    "增": ClaimKind.ADDS,
    # 不叠賓字 / 叠大夫二字: the witness has the word once / twice where the base has it twice / once.
    "不叠": ClaimKind.READS,
    "叠": ClaimKind.READS,
    "无": ClaimKind.LACKS,
    "脱": ClaimKind.LACKS,
    "衍": ClaimKind.SUPERFLUOUS,
}

# Words between a witness name and its verb that do not change the claim (今本大戴礼乃作峭).
ADVERBS = ("乃", "亦", "又", "并", "皆", "俱", "均", "各", "则")

# Places, in the order they are tried. "X以下"/"X下"/"X上" take the phrase X before them.
PLACE_WORDS: dict[str, str] = {
    "此节之首": "section-start",
    "此节之下": "section-end",
    "此节之末": "section-end",
    "此二句之下": "section-end",
    "此句之下": "section-end",
    "此下": "after",
    "此上": "before",
    "篇末": "chapter-end",
    "上文": "before",  # 上文有其牲狗也四字: before the passage quoted
    "末": "chapter-end",
}

# Words that open the note's own comment and so end a quoted reading (大戴礼作…盖谓…).
COMMENT_OPENERS = (
    "今案",
    # 考證: 監本譌作賓今改正, …今依石經…改, …今考春官…改正: the editors' own action follows.
    "今改",
    "今依",
    "今考",
    "今从",
    "今以",
    # 鄭本作媵觚注云今文…: what the commentary says follows the reading.
    "注云",
    "疏云",
    "案",
    "按",
    "盖",
    "谬",
    "误",
    "一句",
    "此一段",
    "此则",
    "文义",
    "亦较",
    "疑",
    "似",
    "当是",
    "据",
    "古字",
    "于疏",
    "惟",
    "其曰",
)

EMEND_VERBS = ("当为", "当作")
# 据宋本改正: the corrected reading is the named edition's, i.e. it agrees with the base.
SOURCE_VERBS = ("改正", "订正", "改", "补", "删", "正")
# 据宋本改正, 今依石經及朱子本敖本改正: the words that introduce the editions a correction follows.
SOURCE_WORDS = ("据", "依")
# Words that name a layer of the text, in a 考證 note's heading (請致者疏非實也) or a note's words
# (疏内却兼言天子). 注/疏 name 鄭注 and the 正義; 音义 陸德明's glosses.
LAYER_WORDS: dict[str, str] = {"注": "zhu", "疏": "shu", "正义": "shu", "音义": "shiwen"}
GLOSS_VERBS = ("音", "读为", "读曰", "读若")

# Who speaks in a note, by its attribution (蕙田案 → 秦蕙田); a project may add its own.
AUTHORS: dict[str, str] = speakers()


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The claim grammar's words, with the project's sigla for witness names."""

    names: Mapping[str, str] = field(default_factory=lambda: dict(WITNESS_NAMES))
    patterns: tuple[tuple[str, str], ...] = WITNESS_PATTERNS
    sigla: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    authors: Mapping[str, str] = field(default_factory=lambda: dict(AUTHORS))

    def canonical(self, name: str) -> str:
        """The name a witness name stands for (今本大戴礼 → 大戴礼)."""
        return self.names.get(name, name)

    def sigla_of(self, name: str) -> tuple[str, ...]:
        """The project's sigla for a witness name (its own mapping first, then its canonical name's)."""
        return self.sigla.get(name) or self.sigla.get(self.canonical(name)) or ()

    def author(self, label: str | None) -> str:
        """Who speaks in a note with this attribution (蕙田案 → 秦蕙田)."""
        if not label:
            return ""
        return self.authors.get(label, self.authors.get(fold(label), label))

    def witness_regex(self) -> re.Pattern[str]:
        """One regex for every witness name, longest alternatives first."""
        return _witness_regex(tuple(self.names), self.patterns)


_CACHE: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], re.Pattern[str]] = {}


def _witness_regex(names: tuple[str, ...], patterns: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    key = (names, patterns)
    if key not in _CACHE:
        alternatives = [f"(?P<p{i}>{rx})" for i, (rx, _) in enumerate(patterns)]
        alternatives += [re.escape(n) for n in sorted(names, key=len, reverse=True)]
        _CACHE[key] = re.compile("|".join(alternatives))
    return _CACHE[key]


DEFAULT_LEXICON = Lexicon()


def lexicon_from_section(section: Mapping[str, Any] | None, where: str = "collate.toml") -> Lexicon:
    """The lexicon for a project's ``[notes]`` table: the default, plus its names and sigla.

    ``[notes.lexicon]`` maps a name to a siglum, a list of sigla, or ``""`` (a name to know
    without a siglum). ``[notes.authors]`` maps an attribution to who speaks.
    """
    if not section:
        return DEFAULT_LEXICON
    table = section.get("lexicon", {})
    if not isinstance(table, Mapping):
        raise ProjectError("[notes.lexicon] must be a table of name = siglum", where=where)
    names = dict(DEFAULT_LEXICON.names)
    sigla: dict[str, tuple[str, ...]] = {}
    for raw_name, value in table.items():
        name = fold(str(raw_name))
        if isinstance(value, str):
            values = (value,) if value else ()
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            values = tuple(value)
        else:
            raise ProjectError(
                f"[notes.lexicon] {raw_name!r} must be a siglum or a list of sigla",
                where=where,
                hint='e.g. "大戴礼" = "DD"',
            )
        names.setdefault(name, name)
        sigla[name] = values
    authors = dict(DEFAULT_LEXICON.authors)
    extra = section.get("authors", {})
    if not isinstance(extra, Mapping) or not all(isinstance(v, str) for v in extra.values()):
        raise ProjectError("[notes.authors] must map an attribution to a name", where=where)
    authors.update({str(k): str(v) for k, v in extra.items()})
    return replace(DEFAULT_LEXICON, names=names, sigla=sigla, authors=authors)
