"""A shelf of editions: the files that hold the passages a compilation quotes, found by their text.

The editor of 五禮通考 names a juan and a folder of edition files (``shelf = ["editions/"]`` in
the project, or ``--shelf DIR``), in any layout collate reads. Each file is read once and kept as
its comparison keys per layer, cached by the file's content (a file changed is read anew); each
quoted article of the base (:mod:`collate.align.holdings`) is looked for on the shelf by its
4-character strings, and the files that hold some article join the project as witnesses. What
cannot be read is said, with its place, and the rest of the shelf is still used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from collate.align.holdings import (
    GRAM,
    Article,
    article_keys,
    articles,
    borrowed_identities,
    grams,
    holdings,
    without_parallels,
)
from collate.errors import CollateError
from collate.model import Layer, Token, Witness
from collate.project import Project, WitnessConfig

if TYPE_CHECKING:
    from collate.normalize import Normalizer

Progress = Callable[[str], None]
# Files a shelf may hold: what the readers take (Mandoku and plain texts, web pages, readings files are no editions).
SUFFIXES = (".txt", ".org", ".md", ".html", ".htm", ".xml")
# How many of an article's first strings are tried for one the file has once only.
ANCHOR_TRIES = 64
# The version of the cached keys: bump when the readers or the keys change what a file yields.
CACHE_VERSION = 3


@dataclass(frozen=True, slots=True)
class ShelfFile:
    """One edition file on the shelf: its place, siglum, and comparison keys per layer."""

    path: Path
    siglum: str
    keys: dict[Layer, str]
    starts: dict[Layer, tuple[int, ...]]  # the raw offset of each key's character
    # The chapters the file's own headings name (鄉射禮第五): collate.readers.titles.identity.
    identity: frozenset[tuple[str, str]] = frozenset()
    # The book it is an edition of (周禮注疏: 周禮): collate.readers.titles.witness_book.
    book: str | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """Where the shelf holds an article of the base: the file, the share of the article's strings
    it has, and the raw offset in the file where the article's words begin there."""

    article: int
    siglum: str
    path: Path
    share: float
    offset: int | None


@dataclass(frozen=True, slots=True)
class ShelfReport:
    """The shelf as a run used it: the files read, those that joined, what could not be read."""

    files: tuple[ShelfFile, ...]
    joined: tuple[str, ...]
    problems: tuple[str, ...]
    sources: tuple[Source, ...] = ()


def shelf_files(folders: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """The edition files in ``folders`` (sorted, recursively), and a message per folder that has none."""
    found: list[Path] = []
    problems: list[str] = []
    for folder in folders:
        if not folder.is_dir():
            problems.append(f"{folder}: the shelf folder does not exist (give a folder of edition files)")
            continue
        mine = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
        if not mine:
            problems.append(f"{folder}: the shelf folder holds no edition file ({', '.join(SUFFIXES)})")
        found += mine
    return found, problems


def _sigla(paths: Sequence[Path], taken: set[str]) -> list[str]:
    """A siglum per file from its name, told apart where two files share a name."""
    out = []
    used = set(taken)
    for p in paths:
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in p.stem) or "shelf"
        siglum, n = stem, 2
        while siglum in used:
            siglum, n = f"{stem}-{n}", n + 1
        used.add(siglum)
        out.append(siglum)
    return out


def _read_keys(
    path: Path, project: Project, normalizer: Normalizer
) -> tuple[dict[Layer, str], dict[Layer, tuple[int, ...]], frozenset[tuple[str, str]], str | None]:
    """A file's comparison keys per layer, the raw offset of each, the chapters it names and its book."""
    from collate.normalize.tokenize import tokenize_witness
    from collate.readers import read_witness
    from collate.readers.titles import witness_book, witness_identity

    gaiji = project.resolve(project.gaiji_table) if project.gaiji_table else None
    witness = read_witness(path, siglum="shelf", gaiji_table=gaiji if gaiji is not None and gaiji.exists() else None)
    keys: dict[Layer, str] = {}
    starts: dict[Layer, tuple[int, ...]] = {}
    for layer, tokens in tokenize_witness(witness, normalizer).items():
        kept = [t for t in tokens if len(t.n) == 1 and not t.is_placeholder]
        if kept:
            keys[layer] = "".join(t.n for t in kept)
            starts[layer] = tuple(t.start for t in kept)
    return keys, starts, witness_identity(witness), witness_book(witness)


def read_shelf(
    project: Project,
    folders: Sequence[Path],
    normalizer: Normalizer,
    cache: Path | None = None,
    progress: Progress | None = None,
) -> tuple[list[ShelfFile], list[str]]:
    """Every readable edition file of the shelf, as keys per layer; a message per file or folder
    that could not be used (the rest are). ``cache``: a folder keeping each file's keys by its
    content's hash."""
    paths, problems = shelf_files(folders)
    taken = {w.siglum for w in project.witnesses}
    own = {project.resolve(w.path).resolve() for w in project.witnesses}
    paths = [p for p in paths if p.resolve() not in own]
    files: list[ShelfFile] = []
    for path, siglum in zip(paths, _sigla(paths, taken), strict=True):
        if progress:
            progress(f"shelf: reading {path.name}")
        try:
            data = path.read_bytes()
            # The keys depend on the file, the normalizer's rules and this code's version.
            salt = f"\0{CACHE_VERSION}\0{normalizer.config!r}".encode()
            digest = hashlib.sha256(data + salt).hexdigest()
            cached = cache / f"{digest}.json" if cache is not None else None
            if cached is not None and cached.is_file():
                raw = json.loads(cached.read_text(encoding="utf-8"))
                keys = {Layer(k): v for k, v in raw["keys"].items()}
                starts = {Layer(k): tuple(v) for k, v in raw["starts"].items()}
                named = frozenset((book, chapter) for book, chapter in raw["identity"])
                book = raw["book"]
            else:
                keys, starts, named, book = _read_keys(path, project, normalizer)
                if cached is not None:
                    from collate.files import write_atomic

                    cached.parent.mkdir(parents=True, exist_ok=True)
                    body = {
                        "keys": {k.value: v for k, v in keys.items()},
                        "starts": {k.value: list(v) for k, v in starts.items()},
                        "identity": sorted(named),
                        "book": book,
                    }
                    write_atomic(cached, json.dumps(body, ensure_ascii=False))
        except CollateError as e:
            problems.append(f"{path}: {e.message} (left off the shelf)")
            continue
        except (OSError, UnicodeDecodeError, ValueError) as e:
            problems.append(f"{path}: cannot be read ({e}) (left off the shelf)")
            continue
        if keys:
            files.append(ShelfFile(path, siglum, keys, starts, named, book))
        else:
            problems.append(f"{path}: no text in any layer (left off the shelf)")
    return files, problems


def find_sources(
    base: Witness, base_tokens: Mapping[Layer, Sequence[Token]], files: Sequence[ShelfFile]
) -> list[Source]:
    """For each article of the base, the shelf files that hold it (see :mod:`collate.align.holdings`)."""
    found = articles(base)
    if not found:
        return []
    held = holdings(found, base_tokens, {f.siglum: f.keys for f in files})
    identities = borrowed_identities({f.siglum: f.keys for f in files}, {f.siglum: f.identity for f in files})
    held = without_parallels(found, held, identities, {f.siglum: f.book for f in files})
    by_siglum = {f.siglum: f for f in files}
    per_article = article_keys(found, base_tokens)
    out: list[Source] = []
    for siglum, holding in held.items():
        f = by_siglum[siglum]
        theirs = {g for keys in f.keys.values() for g in grams(keys)}
        for k in sorted({k for ks in holding.layers.values() for k in ks}):
            mine = {g for keys in per_article[k].values() for g in grams(keys)}
            share = len(mine & theirs) / len(mine) if mine else 0.0
            out.append(Source(k, siglum, f.path, share, _placed(f, per_article[k])))
    return sorted(out, key=lambda s: (s.article, -s.share, s.siglum))


def _placed(f: ShelfFile, article: Mapping[Layer, str]) -> int | None:
    """Where the file has the article: found layer with layer first (its 經 in the file's 經,
    not in a 疏 or a 考證 note that quotes it), else in any layer."""
    for layer in sorted(article, key=lambda x: list(Layer).index(x)):
        if layer in f.keys:
            mine = ShelfFile(f.path, f.siglum, {layer: f.keys[layer]}, {layer: f.starts[layer]})
            at = _offset(mine, article[layer])
            if at is not None:
                return at
    return _offset(f, "".join(article.values()))


def _offset(f: ShelfFile, text: str) -> int | None:
    """The raw offset in the file where the article's words begin there.

    The first of the article's strings that the file has once only places it (a formula the
    chapter repeats, 主人拜送, would point at its first use); failing that, the first it has.
    """
    first: int | None = None
    # The first ANCHOR_TRIES strings only: each look is a scan of the file.
    for i in range(min(len(text) - GRAM + 1, ANCHOR_TRIES)):
        gram = text[i : i + GRAM]
        hits = [(layer, at) for layer, keys in f.keys.items() if (at := keys.find(gram)) >= 0]
        if not hits:
            continue
        layer, at = hits[0]
        if first is None:
            first = f.starts[layer][at]
        if len(hits) == 1 and f.keys[layer].find(gram, at + 1) < 0:
            return f.starts[layer][at]
    return first


def with_shelf(project: Project, sources: Sequence[Source]) -> Project:
    """The project with the shelf files that hold some article as witnesses (sigla as found)."""
    joined = list(dict.fromkeys((s.siglum, s.path) for s in sources))
    extra = tuple(WitnessConfig(siglum, siglum, path) for siglum, path in joined)
    return replace(project, witnesses=(*project.witnesses, *extra))


__all__ = ["Article", "ShelfFile", "ShelfReport", "Source", "find_sources", "read_shelf", "shelf_files", "with_shelf"]
