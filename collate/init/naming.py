"""Sigla, labels and descriptions for witness files, from what their headers say and their names.

A known edition gives the siglum (``WYG``) and the label readers see (``四庫本``); of several
files of one edition the base keeps that name and the others are named by their commentary's
form, as editors cite them (``集說本``, :data:`WORK_FORMS`), else by the title (``四庫本《五禮通考》``),
and by a word of the file name in the siglum (``WYG-jishuo``). A file from a site is named by it
(``維基本``). Without an edition the title is the label, and the siglum is the word of the file
name no other file has; a hash (``000_2cc6d19ca27bf473``) is never a siglum.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from collate.errors import CollateError
from collate.init.headers import EDITIONS, Header, edition_of, read_header
from collate.model.inert import inert
from collate.project import Project, WitnessConfig

_WORD = re.compile(r"[A-Za-z0-9]+")
# A hex run of 8 or more with letters and digits both: a content hash, never a name.
_HASH = re.compile(r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}")
# Words of file names that say where a file comes from, not what work it holds.
_NOT_A_WORK = {"kanripo", "kanseki", "wikisource", "ctext", "master", *(code.lower() for code in EDITIONS)}


def _words(path: Path) -> list[str]:
    """The readable ASCII words of a file name: hashes left out."""
    return [w for w in _WORD.findall(path.stem) if not _HASH.fullmatch(w)]


def _own_word(words: Sequence[list[str]], i: int, among: Sequence[int], exclude: str = "") -> str:
    """The first word of file ``i``'s name that no other file ``among`` has in its name; else the first
    two words no other file has both of (``liji-zhushu`` beside ``liji-jishuo`` and ``zhouli-zhushu``)."""
    others = {w.lower() for j in among if j != i for w in words[j]}
    mine = [w for w in words[i] if w.lower() != exclude.lower()]
    single = next((w for w in mine if w.lower() not in others), "")
    if single:
        return single
    sets = [{w.lower() for w in words[j]} for j in among if j != i]
    # Two words of the work, never one saying where the file comes from (kanripo).
    named = [w for w in mine if w.lower() not in _NOT_A_WORK]
    pairs = ((a, b) for k, a in enumerate(named) for b in named[k + 1 :])
    return next((f"{a}-{b}" for a, b in pairs if not any({a.lower(), b.lower()} <= o for o in sets)), "")


def _sigla(headers: Sequence[Header]) -> list[str]:
    words = [_words(h.path) for h in headers]
    everyone = range(len(headers))
    by_code: dict[str, list[int]] = {}
    for i, h in enumerate(headers):
        if h.edition:
            by_code.setdefault(h.edition, []).append(i)
    sigla = [""] * len(headers)
    for code, members in by_code.items():
        for i in members:
            own = _own_word(words, i, members, exclude=code) if len(members) > 1 else ""
            sigla[i] = f"{code}-{own}" if own else code
    for i in everyone:
        if sigla[i]:
            continue
        # A name no other file has tells the witness apart best; else its first readable word.
        word = _own_word(words, i, everyone) or (words[i][0] if words[i] else "")
        sigla[i] = (word if word[0].isalpha() else f"W{word}") if word else f"W{i + 1}"
    # Two files with one siglum are numbered, past any siglum another file has as its own.
    taken: set[str] = set()
    unique = []
    for siglum in sigla:
        candidate, n = siglum, 2
        while candidate in taken or (candidate != siglum and candidate in sigla):
            candidate, n = f"{siglum}{n}", n + 1
        taken.add(candidate)
        unique.append(candidate)
    return unique


# What an edition of a classic is called by the form of its commentary, as editors cite it:
# the words of its title (纂圖互註禮記 → 纂圖本). The longest that a title holds names it.
WORK_FORMS: dict[str, str] = {
    "纂圖互註": "纂圖本",
    "纂圖互注": "纂圖本",
    "纂图互注": "纂圖本",
    "註疏": "注疏本",
    "注疏": "注疏本",
    "正義": "正義本",
    "正义": "正義本",
    "集說": "集說本",
    "集说": "集說本",
    "集解": "集解本",
    "集註": "集注本",
    "集注": "集注本",
    "章句": "章句本",
    "訓纂": "訓纂本",
}
# Words of an edition's title that name its commentary or its print, not the work: taken out of
# a title to find the work (禮記註疏, 纂圖互註禮記, 附釋音禮記注疏 → 禮記). The commentary forms above,
# and the prefix of the 十三經注疏 prints (附釋音: with 陸德明's 音義 added).
EDITION_WORDS: tuple[str, ...] = (*WORK_FORMS, "附釋音")
# Where a file comes from, said by a word of its name, where it names no printed edition.
SOURCE_LABELS: dict[str, str] = {"wikisource": "維基本", "ctext": "中國哲學書電子化計劃本"}


def _work_form(title: str) -> str:
    """The label of the commentary form a title names (``陳氏禮記集說`` → ``集說本``), or ''."""
    found = [word for word in WORK_FORMS if word in title]
    return WORK_FORMS[max(found, key=len)] if found else ""


def _source_label(h: Header) -> str:
    """The label of the site a file comes from, where its name says it (``…-wikisource-…`` → 維基本)."""
    return next((SOURCE_LABELS[w.lower()] for w in _words(h.path) if w.lower() in SOURCE_LABELS), "")


def _labels(headers: Sequence[Header]) -> list[str]:
    labels = []
    for h in headers:
        edition = edition_of(h.edition)
        # A file name may hold control characters (a newline): the label shows them as escapes.
        labels.append(edition.label if edition else _source_label(h) or h.title or inert(h.path.name, keep=""))
    # One edition of several works (注疏 and 集說, both 四庫本): the base keeps the edition's
    # name; the others are named by their commentary's form (集說本, 纂圖本), as editors cite
    # them, else by the edition and the title (四庫本《五禮通考》).
    counts = Counter(labels)
    labels = [
        label
        if counts[label] == 1 or not h.edition or i == 0
        else _work_form(h.title) or (f"{label}《{h.title}》" if h.title else label)
        for i, (label, h) in enumerate(zip(labels, headers, strict=True))
    ]
    counts = Counter(labels)
    labels = [
        f"{label}《{h.title}》" if counts[label] > 1 and h.edition and h.title and not _titled(label, h) else label
        for label, h in zip(labels, headers, strict=True)
    ]
    # Still alike (two transcriptions of one print): the file name does, else the path as given.
    counts = Counter(labels)
    names = Counter(h.path.name for h in headers)
    return [
        f"{label}（{inert(h.path.name if names[h.path.name] == 1 else str(h.path), keep='')}）"
        if counts[label] > 1
        else label
        for label, h in zip(labels, headers, strict=True)
    ]


def _titled(label: str, h: Header) -> bool:
    """Whether ``label`` names the file's title already (四部叢刊本《周禮》: two files of one print)."""
    return label.endswith(f"《{h.title}》")


def juan_not_in_title(h: Header) -> str:
    """The juan, where the title does not already say it (``五禮通考卷一百六十三``)."""
    return h.juan if h.title and "卷" not in h.title and "巻" not in h.title else ""


def _bibl(h: Header) -> str:
    title = f"《{h.title}》{juan_not_in_title(h)}" if h.title else ""
    edition = edition_of(h.edition)
    parts = [p for p in (title, edition.name if edition else "") if p]
    bibl = "，".join(parts)
    return f"{bibl}（Kanseki Repository {h.text_id}）" if bibl and h.text_id.startswith("KR") else bibl


def name_witnesses(headers: Sequence[Header]) -> tuple[WitnessConfig, ...]:
    """The witnesses of these files, in their order, each with a readable siglum, label and description."""
    return tuple(
        WitnessConfig(siglum=siglum, label=label, path=h.path, bibl=_bibl(h), notes=h.description)
        for h, siglum, label in zip(headers, _sigla(headers), _labels(headers), strict=True)
    )


def named_as_found(project: Project, first: int) -> Project:
    """The project with its witnesses from ``first`` on (edition files a shelf added, named by their
    file names) named as ``collate init`` names witnesses: by their edition and the form of their
    commentary (纂圖本, 集說本, 四庫本《周禮注疏》), told apart from the project's own witnesses.

    A file whose header cannot be read keeps its name; a siglum or a label the project has already
    is told apart (a number; the file's name).
    """
    added = project.witnesses[first:]
    if not added:
        return project
    own = [h for w in project.witnesses[:first] if (h := _header(project, w)) is not None]
    found = {i: h for i, w in enumerate(added) if (h := _header(project, w)) is not None}
    named = dict(zip(found, name_witnesses([*own, *found.values()])[len(own) :], strict=True))
    sigla = {w.siglum for w in project.witnesses[:first]}
    labels = {w.label for w in project.witnesses[:first]}
    renamed = []
    for i, w in enumerate(added):
        name = named.get(i)
        if name is None:
            sigla.add(w.siglum)
            renamed.append(w)
            continue
        siglum, n = name.siglum, 2
        while siglum in sigla:
            siglum, n = f"{name.siglum}{n}", n + 1
        sigla.add(siglum)
        label = name.label if name.label not in labels else f"{name.label}（{inert(Path(w.path).name, keep='')}）"
        labels.add(label)
        renamed.append(replace(w, siglum=siglum, label=label, bibl=w.bibl or name.bibl))
    return replace(project, witnesses=(*project.witnesses[:first], *renamed))


def _header(project: Project, witness: WitnessConfig) -> Header | None:
    """What the witness's file says of itself; None if it cannot be read as a witness file."""
    try:
        return read_header(project.resolve(witness.path), str(witness.path))
    except CollateError:
        return None


def project_name(headers: Sequence[Header]) -> str:
    """The stem of the outputs: the words every file name shares (``liji-sheyi``), else ``collation``.

    Words that name where the files come from (``kanripo``) or an edition (``WYG``) name no work.
    """
    words = [[w for w in _words(h.path) if w.lower() not in _NOT_A_WORK] for h in headers]
    common = [w for w in words[0] if all(w.lower() in {x.lower() for x in other} for other in words[1:])]
    return "-".join(dict.fromkeys(common)) if any(c[0].isalpha() for c in common) else "collation"
