"""Rebuild the table of simplification's mergers: ``python -m collate.normalize.build_mergers [PATH]``.

Simplification merged distinct traditional characters into one simplified form: 後 and 后 are
both 后, 脩 and 修 both 修, 髮 and 發 both 发. OpenCC knows it: its simplified-to-traditional
dictionary (``STCharacters``) lists, for such a character, every traditional character it may
stand for (``后	後 后``). This module writes, into ``collate/data/script_mergers.tsv`` (or
``--out DIR``), every entry of that dictionary with two candidates or more, as OpenCC gives it.
:class:`collate.normalize.script.ScriptRule` reads it to keep the candidates apart (see
``docs/normalization.md``).

PATH is the dictionary as text (``STCharacters.txt`` of an OpenCC checkout). Without it, the
dictionary of the installed OpenCC package is read: its compiled ``STCharacters.ocd2``, turned
into text by the ``opencc_dict`` tool the package ships. The table's header records the OpenCC
version and the SHA-256 of the text read, so a rebuild from the same OpenCC is byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from collate.normalize.script import opencc_version
from collate.normalize.tables import SCRIPT_MERGERS, data_path

DICTIONARY = "STCharacters"


def installed_dictionary() -> tuple[Path, Path]:
    """The installed OpenCC's compiled ``STCharacters.ocd2`` and its ``opencc_dict`` tool."""
    import opencc

    root = Path(opencc.__file__).parent / "clib"
    return root / "share" / "opencc" / f"{DICTIONARY}.ocd2", root / "bin" / "opencc_dict"


def dictionary_text(path: Path | None = None) -> str:
    """The s2t character dictionary as text: ``path``, or the installed OpenCC's, converted."""
    if path is not None:
        return path.read_text(encoding="utf-8")
    compiled, tool = installed_dictionary()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / f"{DICTIONARY}.txt"
        subprocess.run(
            [str(tool), "-i", str(compiled), "-o", str(out), "-f", "ocd2", "-t", "text"],
            check=True,
            capture_output=True,
        )
        return out.read_text(encoding="utf-8")


def mergers(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """``(simplified, candidates)`` for every entry with two traditional candidates or more, sorted."""
    rows = []
    for line in text.splitlines():
        simplified, _, candidates = line.partition("\t")
        values = tuple(dict.fromkeys(candidates.split()))
        if len(simplified) == 1 and len(values) >= 2:
            rows.append((simplified, values))
    return sorted(rows)


def build(out: Path, path: Path | None = None) -> int:
    """Write the table into ``out``; returns how many entries it holds."""
    text = dictionary_text(path)
    rows = mergers(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines = [
        "# Simplified characters that stand for several traditional ones: simplification merged them.",
        f"# {len(rows)} entries: OpenCC's simplified-to-traditional dictionary ({DICTIONARY}), every entry with",
        "# two candidates or more, in OpenCC's order. The script rule keeps distinct candidates apart",
        "# (後 is not 后 between two traditional witnesses); see docs/normalization.md.",
        f"# Derived by `python -m collate.normalize.build_mergers` from OpenCC {opencc_version()}",
        f"# ({DICTIONARY}: sha256 {digest}); do not edit by hand.",
        "# OpenCC (github.com/BYVoid/OpenCC) is distributed under the Apache License 2.0,",
        "# Copyright (c) the OpenCC contributors.",
        "# Format: simplified<TAB>traditional candidates (space-separated)",
        "",
    ]
    lines += [f"{simplified}\t{' '.join(candidates)}" for simplified, candidates in rows]
    out.mkdir(parents=True, exist_ok=True)
    (out / SCRIPT_MERGERS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: rebuild the table, exit 0 (2 if the dictionary cannot be read)."""
    parser = argparse.ArgumentParser(prog="python -m collate.normalize.build_mergers", description=__doc__)
    parser.add_argument("dictionary", type=Path, nargs="?", help=f"{DICTIONARY}.txt (default: the installed OpenCC's)")
    parser.add_argument("--out", type=Path, default=data_path(SCRIPT_MERGERS).parent, help="folder for the table")
    args = parser.parse_args(argv)
    if args.dictionary is not None and not args.dictionary.is_file():
        parser.error(f"{args.dictionary}: no such file")
    if args.dictionary is None and not all(p.is_file() for p in installed_dictionary()):
        parser.error("the installed OpenCC ships no STCharacters.ocd2 and opencc_dict: give STCharacters.txt")
    build(args.out, args.dictionary)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
