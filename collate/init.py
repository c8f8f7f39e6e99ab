"""From witness files to a project: sigla and labels read off each file's header, and ``collate init``.

``collate run a.txt b.txt`` and ``collate init a.txt b.txt`` name the witnesses alike, from what
each file says of itself (:class:`Header`):

- a Kanripo Mandoku file names its edition (``#+PROPERTY: BASEEDITION WYG``, or the edition of
  its ``<pb:KR1d0053_WYG_062-1a>`` page markers in an edition branch) and its title (``#+TITLE:``);
- a plain e-text of a 四庫 print opens with ``欽定四庫全書`` and its title line; a plain or web text
  often opens with a title line (``=== 20 | 射義 ===``), a readings file has ``[witness] title``.

A known edition gives the siglum (``WYG``) and the label readers see (``四庫本``); two files of one
edition are told apart by the title in the label (``四庫本《禮記註疏》``) and a word of the file name
in the siglum (``WYG-zhushu``). Without an edition the title is the label, and the siglum is the word
of the file name no other file has; a hash (``000_2cc6d19ca27bf473``) is never a siglum.

Only the opening of a file is read for this, through the same container and layout a run uses
(:func:`~collate.readers.read_raw`): a header is at the top, and a whole book is not read twice.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import tomlkit

from collate.errors import InputError, ProjectError
from collate.files import parse_toml, write_atomic
from collate.model import Layer
from collate.model.inert import inert
from collate.project import PROJECT_FILE, Project, WitnessConfig, project_from_mapping

# The opening read for the header: the Mandoku header and the first page markers are in the
# first dozen lines of every Kanripo file, a title line in the first few of a plain text.
_HEAD_LINES = 60
_HEAD_CHARACTERS = 20_000
_TITLE_MAX = 40


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition as a reader names it (the label) and as a bibliography does."""

    label: str
    name: str


# Kanripo's edition codes (its branches, and BASEEDITION), and SK for a plain 四庫 e-text.
EDITIONS: dict[str, Edition] = {
    "WYG": Edition("四庫本", "文淵閣四庫全書本"),
    "SK": Edition("四庫本", "四庫全書本"),
    "SBCK": Edition("四部叢刊本", "四部叢刊本"),
    "SBBY": Edition("四部備要本", "四部備要本"),
    "TLS": Edition("TLS本", "Thesaurus Linguae Sericae"),
}
# What a 四庫 print's first line says; the e-text may be simplified.
_SIKU = ("欽定四庫全書", "钦定四库全书", "四庫全書", "四库全书")
# Headings that can be a file's title (not a section's end, an author line, a tally).
_TITLE_HEADINGS = (None, "title", "juan title", "chapter title", "org heading")
_WIKI_HEADING = re.compile(r"(={2,})\s*(?P<title>.*?)\s*\1")
_NUMBERING = re.compile(r"\d+(?:\.\d+)*\s*[|｜:：.]?\s*")
_WORD = re.compile(r"[A-Za-z0-9]+")
# A hex run of 8 or more with letters and digits both: a content hash, never a name.
_HASH = re.compile(r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}")
# Words of file names that say where a file comes from, not what work it holds.
_NOT_A_WORK = {"kanripo", "kanseki", "wikisource", "ctext", "master", *(code.lower() for code in EDITIONS)}
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Header:
    """What the opening of a witness file says of it; "" where it says nothing.

    ``path`` is the file as given; ``edition`` an edition code (``WYG``, ``SBCK``, ``SK``);
    ``juan`` the juan as printed (``卷六十二``); ``text_id`` the Kanripo text (``KR1d0053``);
    ``description`` a readings file's own; ``entities`` whether the file holds ``&KR…;`` gaiji.
    """

    path: Path
    title: str = ""
    edition: str = ""
    juan: str = ""
    text_id: str = ""
    description: str = ""
    entities: bool = False


def _first(metadata: Sequence[tuple[str, str]], key: str) -> str:
    # The container's values come first (the org header before a layout's title lines).
    return next((value.strip() for k, value in metadata if k == key and value.strip()), "")


def _clean_title(text: str) -> str:
    """A heading as a title: without wiki ``===`` or a section number, and short, or ""."""
    text = _CONTROL.sub("", text).strip(" \t\u3000")
    wiki = _WIKI_HEADING.fullmatch(text)
    if wiki:
        text = wiki.group("title")
    text = _NUMBERING.sub("", text, count=1) if _NUMBERING.match(text) else text
    text = text.strip(" \t\u3000")
    return text if len(text) <= _TITLE_MAX else ""


def _head(text: str) -> str:
    """The opening of a file's text, cut at a line end."""
    head = "".join(text.splitlines(keepends=True)[:_HEAD_LINES])
    if len(head) > _HEAD_CHARACTERS:
        cut = head.rfind("\n", 0, _HEAD_CHARACTERS)
        head = head[: cut + 1 if cut > 0 else _HEAD_CHARACTERS]
    return head


def read_header(path: Path, shown: str | None = None) -> Header:
    """Read what the opening of the witness file at ``path`` says of it (``shown``: as given).

    A file that is missing or cannot be read is an :class:`~collate.errors.InputError` naming it.
    """
    from collate.decode import read_text
    from collate.readers import read_raw

    shown = shown or str(path)
    if not path.exists() and not path.is_symlink():
        # A link to nothing, or a loop of links, is said so where it is read.
        raise InputError("no such file", where=shown, hint="check the name of the witness file given")
    text = read_text(path, shown).text
    # A readings file is TOML, read whole (its opening alone would not parse); it is small.
    reading = read_raw(text if path.suffix == ".toml" else _head(text), path=shown)
    metadata = reading.parsed.metadata
    title = _first(metadata, "title")
    if not title:
        title = next(
            (
                _clean_title(text[s.start : s.end])
                for s in reading.parsed.spans
                if s.layer is Layer.HEADING and s.heading in _TITLE_HEADINGS and _clean_title(text[s.start : s.end])
            ),
            "",
        )
    edition = (_first(metadata, "baseedition") or _first(metadata, "edition")).upper()
    if not edition and _first(metadata, "collection") in _SIKU:
        edition = "SK"
    juan = _first(metadata, "juan")
    return Header(
        path=Path(shown),
        title=_clean_title(title),
        edition=edition if _CODE.fullmatch(edition) else "",
        juan=juan if juan.startswith(("卷", "巻")) else "",
        text_id=_first(metadata, "id") or _first(metadata, "text"),
        description=_first(metadata, "description"),
        entities=bool(re.search(r"&KR\d+;", text)),
    )


def edition_of(code: str) -> Edition | None:
    """The edition a code names: a known one, else one named by its code (``ZTDZ本``)."""
    if not code:
        return None
    return EDITIONS.get(code) or Edition(f"{code}本", code)


# --- Naming: sigla and labels --------------------------------------------------------------


def _words(path: Path) -> list[str]:
    """The readable ASCII words of a file name: hashes left out."""
    return [w for w in _WORD.findall(path.stem) if not _HASH.fullmatch(w)]


def _own_word(words: Sequence[list[str]], i: int, among: Sequence[int], exclude: str = "") -> str:
    """The first word of file ``i``'s name that no other file ``among`` has in its name."""
    others = {w.lower() for j in among if j != i for w in words[j]}
    return next((w for w in words[i] if w.lower() not in others and w.lower() != exclude.lower()), "")


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


def _labels(headers: Sequence[Header]) -> list[str]:
    labels = []
    for h in headers:
        edition = edition_of(h.edition)
        # A file name may hold control characters (a newline): the label shows them as escapes.
        labels.append(edition.label if edition else h.title or inert(h.path.name, keep=""))
    # One edition of several works (注疏 and 集說, both 四庫本): the title tells them apart.
    counts = Counter(labels)
    labels = [
        f"{label}《{h.title}》" if counts[label] > 1 and h.edition and h.title else label
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


def _juan(h: Header) -> str:
    """The juan, where the title does not already say it (``五禮通考卷一百六十三``)."""
    return h.juan if h.title and "卷" not in h.title and "巻" not in h.title else ""


def _bibl(h: Header) -> str:
    title = f"《{h.title}》{_juan(h)}" if h.title else ""
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


def project_name(headers: Sequence[Header]) -> str:
    """The stem of the outputs: the words every file name shares (``liji-sheyi``), else ``collation``.

    Words that name where the files come from (``kanripo``) or an edition (``WYG``) name no work.
    """
    words = [[w for w in _words(h.path) if w.lower() not in _NOT_A_WORK] for h in headers]
    common = [w for w in words[0] if all(w.lower() in {x.lower() for x in other} for other in words[1:])]
    return "-".join(dict.fromkeys(common)) if any(c[0].isalpha() for c in common) else "collation"


# --- The project ---------------------------------------------------------------------------


def _headers(files: Sequence[Path], root: Path, alone: bool = False) -> tuple[Header, ...]:
    # Every file is read before the number of them is judged: a bad file is named first.
    headers = tuple(read_header(root / f, str(f)) for f in files)
    if not headers:
        raise ProjectError("no witness files named", hint="name two or more witness files, the base first")
    if len(headers) < 2 and not alone:
        raise ProjectError(
            "one witness only: a collation needs two or more",
            where=str(files[0]),
            hint="name another witness file: a second text, or a readings file of its variants",
        )
    return headers


def _with_base(witnesses: tuple[WitnessConfig, ...], base: str | None, root: Path) -> tuple[WitnessConfig, ...]:
    """The witnesses with the base first: the first one, or the one ``base`` names (a siglum or a file)."""
    chosen = witnesses[0]
    if base is not None:
        same_file = [w for w in witnesses if os.path.abspath(root / w.path) == os.path.abspath(root / base)]
        named = [w for w in witnesses if w.siglum == base] or same_file
        if not named:
            raise ProjectError(
                f"the base {base!r} is none of the witnesses",
                hint="name its siglum (" + ", ".join(w.siglum for w in witnesses) + ") or one of the files given",
            )
        chosen = named[0]
    if chosen.path.suffix == ".toml":
        # A readings file is silent outside its entries: there is no text to collate against.
        raise ProjectError(
            "the base is a readings file, not a full text",
            where=str(chosen.path),
            hint="name a full-text witness first, or choose the base with --base",
        )
    return (chosen, *(w for w in witnesses if w is not chosen))


def _described(
    files: Sequence[Path], root: Path, base: str | None, alone: bool = False
) -> tuple[Project, tuple[Header, ...]]:
    headers = _headers(files, root, alone)
    named = name_witnesses(headers)
    witnesses = _with_base(named, base, root)
    first = headers[named.index(witnesses[0])]
    title = first.title + _juan(first)
    project = Project(
        title=title or "collation",
        name=project_name(headers),
        base=witnesses[0].siglum,
        witnesses=witnesses,
        root=root,
    )
    return project, headers


def project_from_files(
    files: Sequence[Path], *, root: Path | None = None, base: str | None = None, alone: bool = False
) -> Project:
    """The project of witness files named without a project file, named as ``collate init`` names them.

    ``files`` are as given, relative to ``root`` (default: the working folder); the first is the
    base unless ``base`` names another (by siglum or file). A run of files and the project file
    ``collate init`` writes for them agree. ``alone``: one file will do (its other witnesses
    come from a shelf).
    """
    return _described(files, root or Path.cwd(), base, alone)[0]


# --- Writing collate.toml ------------------------------------------------------------------


def _relative(path: Path, root: Path, folder: Path) -> str:
    """``path`` (relative to ``root``) as the project file in ``folder`` names it: relative to it."""
    target = os.path.abspath(root / path)
    try:
        return Path(os.path.relpath(target, os.path.abspath(folder))).as_posix()
    except ValueError:  # another drive (Windows): there is no relative path
        return Path(target).as_posix()


def project_text(project: Project, folder: Path, *, entities: bool = False) -> str:
    """The project file of ``project``, to be written in ``folder``: its paths relative to it.

    ``entities``: the witnesses hold Kanripo gaiji entities, and the file says how to resolve them.
    """
    doc = tomlkit.document()
    doc.add(tomlkit.comment("A collation project, written by `collate init` from the witness files named."))
    doc.add(tomlkit.comment('Edit it freely: README.md ("The project file") describes every key.'))
    doc.add("title", project.title)
    doc.add("name", project.name)
    doc.add("base", project.base)
    if entities:
        doc.add(tomlkit.comment("The files hold Kanripo gaiji entities (&KR…;): name the table that resolves them."))
        doc.add(tomlkit.comment('gaiji_table = "path/to/kanripo-KR-Gaiji-charlist.org.txt"'))
    witnesses = tomlkit.aot()
    for w in project.witnesses:
        table = tomlkit.table()
        table.add("siglum", w.siglum)
        table.add("label", w.label)
        table.add("path", _relative(w.path, project.root, folder))
        for key, value in (("bibl", w.bibl), ("notes", w.notes)):
            if value:
                table.add(key, value)
        witnesses.append(table)
    doc.add(tomlkit.nl())
    doc.add("witness", witnesses)
    return tomlkit.dumps(doc)


def init_project(
    files: Sequence[Path], folder: Path | None = None, *, base: str | None = None, force: bool = False
) -> tuple[Path, Project]:
    """Write ``collate.toml`` in ``folder`` (default: the working folder) for ``files``; its path and project.

    The witnesses are named as :func:`project_from_files` names them, the base first. A project file
    already there is an error unless ``force``: it may hold an editor's work.
    """
    folder = folder or Path()
    path = folder / PROJECT_FILE
    if path.exists() and not force:
        raise ProjectError(
            "a project file is here already",
            where=str(path),
            hint="edit it, or pass --force to replace it with a new one",
        )
    project, headers = _described(files, Path.cwd(), base)
    text = project_text(project, folder, entities=any(h.entities for h in headers))
    # What is written is what a run reads: checked as a project file before it is written.
    written = project_from_mapping(parse_toml(text, str(path)), root=folder, source=path, raw_text=text)
    if force:
        write_atomic(path, text)
    else:
        try:
            # Exclusive creation: a project file made meanwhile is not overwritten either.
            with path.open("x", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except FileExistsError:
            raise ProjectError(
                "a project file is here already", where=str(path), hint="edit it, or pass --force to replace it"
            ) from None
        except OSError as exc:
            raise ProjectError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    return path, replace(written, source=path)


__all__ = [
    "EDITIONS",
    "Edition",
    "Header",
    "edition_of",
    "init_project",
    "name_witnesses",
    "project_from_files",
    "project_name",
    "project_text",
    "read_header",
]
