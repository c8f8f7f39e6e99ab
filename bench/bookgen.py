"""The benchmark's books: real-like projects of any size, written as ``bench_book.py`` measures them.

The base is seed 000 (五禮通考 卷165, siku-wltk layout: blank-line pages, double-column 注/疏,
蕙田案 notes) with its body repeated to the size asked, each copy with a few random substitutions so
that repeats are not identical; witnesses are edited copies of the base (substitutions, omissions,
additions, a few transpositions) in the same layout, one of them turned into traditional characters
with OpenCC ``s2t``; the 大戴禮 readings file is added with its entries repeated once per copy of the
body. Edits touch only CJK characters that are not layer markers, so every copy keeps the base's
notes and layers.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE_SEED = ROOT / "seeds" / "000_2cc6d19ca27bf473.txt"
READINGS = ROOT / "witnesses" / "dadai-readings.toml"
CJK = re.compile(r"[\u4e00-\u9fff]")
# Characters the siku-wltk layout reads as markers (蕙田案 opens a note, 注/疏 open the commentary
# layers, 右 closes a section): never edited, so that every copy keeps its layers.
PROTECTED = set("蕙田案注疏右")
HEADER_LINES = 4  # 钦定四库全书 / 卷 / 撰者 / 嘉礼三十八: once, at the top
COPY_RATE = 0.003  # substitutions in each copy of the body, so that repeats differ
WITNESS_RATES = (0.01, 0.02, 0.03, 0.02)  # edits of the second, third, … witness


def _seed_parts() -> tuple[str, str, str]:
    """Seed 000 as header, body (the part repeated) and tail (the blank end pages and the 卷末 line)."""
    lines = BASE_SEED.read_text(encoding="utf-8").splitlines(keepends=True)
    end = len(lines)
    while end > 0 and lines[end - 1].strip("\u3000 \n") in {"", "五礼通考卷一百六十五"}:
        end -= 1
    return "".join(lines[:HEADER_LINES]), "".join(lines[HEADER_LINES:end]), "".join(lines[end:])


def _editable(text: str) -> list[int]:
    """Positions of the CJK characters of ``text`` that may be edited (not layer markers)."""
    return [m.start() for m in CJK.finditer(text) if m.group() not in PROTECTED]


def _pool(text: str) -> list[str]:
    """The CJK characters of ``text`` with repeats: random replacements follow the text's own frequencies."""
    return [c for c in CJK.findall(text) if c not in PROTECTED]


def edit(text: str, rate: float, rng: random.Random, *, substitutions_only: bool = False) -> str:
    """``text`` with about ``rate`` of its editable characters edited.

    Substitutions 45%, omissions 25%, additions 25%, transpositions 5% (a run of 3–8 characters
    swapped with the run after it, inside one stretch of CJK characters so that no marker,
    bracket or line break moves).
    """
    pool = _pool(text)
    chars = list(text)
    positions = _editable(text)
    count = round(len(positions) * rate)
    done: set[int] = set()
    for i in sorted(rng.sample(positions, min(count, len(positions))), reverse=True):
        if i in done:
            continue
        kind = 0.0 if substitutions_only else rng.random()
        if kind < 0.45:
            chars[i] = rng.choice(pool)
        elif kind < 0.70:
            chars[i] = ""
        elif kind < 0.95:
            chars[i] = chars[i] + rng.choice(pool)
        else:
            length = rng.randint(3, 8)
            span = range(i, i + 2 * length)
            if span.stop <= len(text) and all(CJK.match(text[j]) and text[j] not in PROTECTED for j in span):
                first, second = chars[i : i + length], chars[i + length : i + 2 * length]
                chars[i : i + 2 * length] = second + first
                done.update(span)
    return "".join(chars)


def base_text(size: int, rng: random.Random) -> tuple[str, int]:
    """The base: header, copies of the body (each lightly edited) to ``size`` characters, tail.

    Returns the text and how many copies of the body it holds (the last one cut at a line end).
    """
    header, body, tail = _seed_parts()
    room = max(size - len(header) - len(tail), 0)
    copies: list[str] = []
    total = 0
    while total < room:
        copy = edit(body, COPY_RATE, rng, substitutions_only=True) if copies else body
        if total + len(copy) > room:
            cut = copy.rfind("\n", 0, room - total)
            copies.append(copy[: cut + 1] if cut > 0 else copy[: room - total] + "\n")
            break
        copies.append(copy)
        total += len(copy)
    return header + "".join(copies) + tail, len(copies)


def s2t(text: str) -> str:
    """``text`` in traditional characters (OpenCC ``s2t``), line breaks and layout kept."""
    import opencc

    return str(opencc.OpenCC("s2t").convert(text))


def readings_file(copies: int) -> str:
    """The 大戴禮 readings file with its entries repeated ``copies`` times (the [witness] table once)."""
    text = READINGS.read_text(encoding="utf-8")
    first = text.index("[[reading]]")
    head, entries = text[:first], text[first:].rstrip("\n") + "\n"
    return head + "\n".join(entries for _ in range(max(copies, 1)))


PROJECT = """title = "benchmark: 投壺 ×{copies}"
name = "book"
base = "A"
work = "投壺"
{witnesses}
[[witness]]
siglum = "DD"
label = "大戴禮"
path = "dadai.toml"
layout = "readings"

[notes.lexicon]
"大戴礼" = "DD"

[normalize]
rules = ["placeholder", "artifact", "taboo", "variant-graph", "script"]
semantic = false
taboo_eras = ["qing"]
"""

WITNESS = """
[[witness]]
siglum = "{siglum}"
label = "{siglum}"
path = "{siglum}.txt"
layout = "siku-wltk"
"""


@dataclass(frozen=True, slots=True)
class Book:
    """A benchmark project written to ``folder``: its witnesses' sizes and how many body copies."""

    folder: Path
    sizes: tuple[int, ...]
    copies: int

    @property
    def config(self) -> Path:
        """The project file."""
        return self.folder / "collate.toml"


def write_book(folder: Path, count: int, size: int, seed: int = 1, *, readings: bool = True) -> Book:
    """Write a project of ``count`` full-text witnesses of about ``size`` characters (and the readings)."""
    rng = random.Random(seed)
    base, copies = base_text(size, rng)
    folder.mkdir(parents=True, exist_ok=True)
    texts = [base]
    for k in range(1, count):
        text = edit(base, WITNESS_RATES[(k - 1) % len(WITNESS_RATES)], rng)
        texts.append(s2t(text) if k == 2 else text)
    sigla = [chr(ord("A") + k) for k in range(count)]
    for siglum, text in zip(sigla, texts, strict=True):
        (folder / f"{siglum}.txt").write_text(text, encoding="utf-8")
    config = PROJECT.format(copies=copies, witnesses="".join(WITNESS.format(siglum=s) for s in sigla))
    if readings:
        (folder / "dadai.toml").write_text(readings_file(copies), encoding="utf-8")
    else:
        # Without the readings witness its lexicon entry would name no witness (an error): both go.
        config = config[: config.index('[[witness]]\nsiglum = "DD"')] + config[config.index("[normalize]") :]
    (folder / "collate.toml").write_text(config, encoding="utf-8")
    return Book(folder, tuple(len(t) for t in texts), copies)
