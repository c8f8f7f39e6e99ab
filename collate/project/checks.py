"""The project's settings checked beyond their types: what msgspec cannot say.

Each check takes the typed records (:mod:`collate.project.tables`) and names the line of what
it refuses; only the NUL check reads the parsed data, before any record is made of it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from collate.decode import check_regular_file
from collate.errors import ProjectError
from collate.project.positions import FileLines, KeyPath
from collate.project.records import STEM_RULE, WitnessConfig, is_file_stem
from collate.project.tables import NotesTable, ReviewTable
from collate.readers import is_sparse


def _strings(value: object, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    """Every string in a parsed TOML value (keys included), in the file's order, with the path it is at."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield (*path, str(k)), str(k)
            yield from _strings(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*path, i))


def _shown(path: KeyPath) -> str:
    """A path as messages write it: ``witness[1].path`` (elements counted from 1)."""
    return "".join(f"[{s + 1}]" if isinstance(s, int) else f".{s}" for s in path).lstrip(".")


def check_no_nul(data: Mapping[str, Any], lines: FileLines) -> None:
    """No string of the project holds NUL: no path can (the OS refuses it), and no TEI text either."""
    for path, value in _strings(dict(data), ()):
        if "\0" in value:
            raise ProjectError(
                f"`{_shown(path)}` holds a NUL character (\\u0000)",
                where=lines.at(*path),
                hint="no file name or text can hold one: remove the escape",
            )


def check_base(base: str | None, witnesses: tuple[WitnessConfig, ...], lines: FileLines) -> str:
    """The base: a witness (the first if none is named) with a full text to collate against."""
    chosen = next((w for w in witnesses if w.siglum == base), None) if base is not None else witnesses[0]
    if chosen is None:
        sigla = [w.siglum for w in witnesses]
        # Sigla are short: one letter wrong of two is a near miss, and so is the case (zs for ZS).
        folded = {s.casefold(): s for s in sigla}
        close = [folded[c] for c in difflib.get_close_matches(str(base).casefold(), folded, n=1, cutoff=0.5)]
        raise ProjectError(
            f"base {base!r} is not one of the witnesses",
            where=lines.at("base"),
            hint=(f"did you mean {close[0]!r}? " if close else "")
            + "set `base` to one of the sigla: "
            + ", ".join(sigla),
        )
    if is_sparse(chosen.layout, str(chosen.path)):
        # A readings file is silent outside its entries: there is no text to collate against.
        raise ProjectError(
            f"base {chosen.siglum!r} is a readings file, not a full text",
            where=lines.at("base"),
            hint="set `base` to the siglum of a full-text witness",
        )
    return chosen.siglum


def check_gaiji(gaiji: str, root: Path, lines: FileLines) -> None:
    """A gaiji table named must be a file: a missing one would leave every entity unresolved without a word."""
    path = Path(gaiji) if Path(gaiji).is_absolute() else root / gaiji
    where = lines.at("gaiji_table")
    hint = "give the path of the Kanripo gaiji table (charlist.org.txt), relative to the project file, or leave it out"
    try:
        check_regular_file(path, f"{where}: the gaiji table {gaiji!r}", ProjectError, hint=hint)
    except FileNotFoundError:
        raise ProjectError(f"the gaiji table {gaiji!r} does not exist", where=where, hint=hint) from None


def _within(path: Path, folder: Path) -> bool:
    """True if ``path`` lies in ``folder`` once both are resolved (``..`` and links followed)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def check_review(review: ReviewTable | None, root: Path, lines: FileLines) -> None:
    """``[review]``: the editor a name on one line, the decisions file a path in the project's folder.

    The decisions file is written at every decision: a path outside the project (``/some/dir``,
    ``../x``) would have a review write where no one looks for the project's files, so it is
    refused unless the project says it means it (``decisions_outside = true``).
    """
    if review is None:
        return
    editor = review.editor
    if editor is not None and (not editor.strip() or any(c < " " or c == "\x7f" for c in editor)):
        raise ProjectError(
            f"[review] editor must be a name on one line, not {editor!r}",
            where=lines.at("review", "editor"),
            hint='e.g. editor = "王"',
        )
    decisions = review.decisions
    if decisions is None:
        return
    where = lines.at("review", "decisions")
    if not decisions.strip():
        raise ProjectError(
            f"[review] decisions must be the path of a file, not {decisions!r}",
            where=where,
            hint='e.g. decisions = "decisions.toml"',
        )
    path = Path(decisions) if Path(decisions).is_absolute() else root / decisions
    if not review.decisions_outside and not _within(path, root):
        raise ProjectError(
            f"[review] decisions {decisions!r} is outside the project's folder",
            where=where,
            hint='keep the decisions beside the project file (e.g. decisions = "decisions.toml"), or say '
            "decisions_outside = true in [review] if they are meant to be elsewhere",
        )


def check_lexicon_sigla(notes: NotesTable | None, sigla: Iterable[str], lines: FileLines) -> None:
    """Every siglum ``[notes.lexicon]`` names is a witness of the project.

    A name mapped to a missing siglum would check the notes' claims against nothing, and say so
    nowhere. (Its other values are the notes stage's to check.)
    """
    known = sorted(sigla)
    for name, value in (notes.lexicon or {}).items() if notes else ():
        for siglum in (value,) if isinstance(value, str) else value:
            if siglum and siglum not in known:
                close = difflib.get_close_matches(siglum, known, n=1)
                raise ProjectError(
                    f"[notes.lexicon] {name!r} names the siglum {siglum!r}, which is no witness of the project",
                    where=lines.at("notes", "lexicon", name),
                    hint=(f"did you mean {close[0]!r}? " if close else "")
                    + "the sigla are "
                    + ", ".join(known)
                    + '; a name known without a witness maps to ""',
                )


def check_work(work: str | tuple[str, ...], lines: FileLines) -> str | tuple[str, ...] | None:
    """The work(s) of a compilation base to collate: a name, or a list of names; None for every work."""
    if isinstance(work, tuple) and (not work or not all(work)):
        raise ProjectError(
            "`work` must be a work's name or a list of them",
            where=lines.at("work"),
            hint='e.g. work = "禮記射義", or work = ["禮記射義", "周禮夏官"]',
        )
    return work or None


def check_name(name: str, lines: FileLines) -> str:
    """The project's name, which names its outputs: one plain file name."""
    if not is_file_stem(name):
        raise ProjectError(
            f"`name` {name!r} is not a plain file name: the outputs are named after it",
            where=lines.at("name"),
            hint=f'use {STEM_RULE}, e.g. name = "touhu"',
        )
    return name


def check_shelf(shelf: str | tuple[str, ...], lines: FileLines) -> tuple[Path, ...]:
    """The shelf's folders: one path or a list of them, none empty."""
    folders = (shelf,) if isinstance(shelf, str) else shelf
    if not all(folders):
        raise ProjectError(
            "`shelf` must be a list of folder paths", where=lines.at("shelf"), hint='e.g. shelf = ["editions/"]'
        )
    return tuple(Path(x) for x in folders)


__all__ = [
    "check_base",
    "check_gaiji",
    "check_lexicon_sigla",
    "check_name",
    "check_no_nul",
    "check_review",
    "check_shelf",
    "check_work",
]
