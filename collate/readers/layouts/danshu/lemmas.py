"""Where a 單疏本's 標起止 begins: back from the gap before its formula, by the lemma's shape.

Where the gap before the lemma is a line end the lemma may run over it, so its start is found
from the lemma's shape (``LEMMA_MAX``): a line that opens with a ``注`` head (the words before it
are 疏, also where the print has lost pages between), else the gap, else a ``注`` head, else a
line start that gives a lemma ``A至B`` of a few words each; a lemma of no such shape gets a
diagnostic. A gap right before or after the lemma's ``至`` is a glyph the worn print lost
inside the lemma (``注數朝至　之``), not its start.
"""

from __future__ import annotations

from collate.model import Diagnostic
from collate.readers.layouts.danshu.marks import (
    GAP,
    INCIPIT,
    LEMMA_JOIN,
    LEMMA_MAX,
    LEMMA_SOURCES,
    LINE_ENDS,
    SENTENCE_ENDS,
    SPACE,
)


def lemma_start(text: str, lo: int, end: int) -> tuple[int, Diagnostic | None]:
    """Where the lemma ending at ``end`` begins (not before ``lo``), and a diagnostic where it has
    no 標起止 shape: see the module docstring."""
    gap = text.rfind(GAP, lo, end)
    after_gap = lo if gap < 0 else gap + 1
    line_starts = [i + 1 for i in range(end - 1, after_gap - 1, -1) if text[i] == "\n"]
    # A line that opens with 注 opens the lemma: the words before it on the last line are
    # the 疏 (the print gives the lemma no gap at a line start, nor where pages are lost).
    for start in line_starts:
        head = start
        while head < end and text[head] in SPACE:
            head += 1
        if head < end and text[head] in LEMMA_SOURCES and well_formed(text, head, end):
            return head, None
    lost = _lost_glyph_in_lemma(text, lo, gap, end)
    if lost is not None:
        return lost, None
    if well_formed(text, after_gap, end):
        return after_gap, None
    heads = [i for i in range(end - 1, after_gap - 1, -1) if text[i] in LEMMA_SOURCES]
    for candidate in heads:
        if well_formed(text, candidate, end):
            return candidate, None
    for candidate in line_starts:
        if well_formed(text, candidate, end):
            return _sentence_before(text, candidate, end), None
    return _unshaped(text, line_starts, after_gap, end)


def bare_lemmas(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lemmas ``[lemma, stop)`` in ``text[start:end]`` that the print sets with no formula, before
    the 疏's incipit (``INCIPIT``): the words back to the gap before them, of a 標起止's shape with
    its 至 (``儒有忠信至此者``, over a line end too); ``stop`` is where the incipit begins."""
    found = []
    for m in INCIPIT.finditer(text, start, end):
        stop = m.start()
        words_end = stop
        while words_end > start and text[words_end - 1] in SPACE:
            words_end -= 1
        lemma, unshaped = lemma_start(text, start, words_end)
        if unshaped is None and LEMMA_JOIN in text[lemma:words_end] and text[lemma] not in LEMMA_SOURCES:
            found.append((lemma, stop))
    return found


def _sentence_before(text: str, start: int, end: int) -> int:
    """Where a lemma that a line opens begins, after the end of a sentence run into it.

    At a line start the print gives the lemma no gap, and the 疏 before may end on the same
    line with no gap either (邪失禮也賔酬至遺矣): a lemma's head (before 至) ends no sentence,
    so a sentence end inside it is the 疏's, and the lemma begins after it.
    """
    join = text.find(LEMMA_JOIN, start, end)
    if join < 0:
        return start
    for i in range(join - 2, start - 1, -1):
        # 者 is no end here: a head may hold it (古者至序也).
        if text[i] in SENTENCE_ENDS and text[i] != "者":
            return i + 1
    return start


def _unshaped(text: str, line_starts: list[int], after_gap: int, end: int) -> tuple[int, Diagnostic]:
    """The start of a lemma of no 標起止 shape, and the diagnostic that says so: its line's, or the gap's.

    Where the words before ``至`` are too many for a head and those after it are a tail, the print
    gave the lemma no gap after the 疏 before it (…引小行人職者⏎證大客來主人有擯迎之法君使至敬也): the
    head is taken as long as the tail, as a 標起止's two ends mostly are (古者至序也, 君使至敬也), and
    the words before it stay the 疏's.
    """
    start = line_starts[0] if line_starts else after_gap
    while start < end and text[start] in SPACE:
        start += 1
    run = text[start:end]
    join = run.rfind(LEMMA_JOIN)
    head, tail = squeeze(run[:join]), squeeze(run[join + 1 :])
    head_max, tail_max, _ = LEMMA_MAX
    if join > 0 and len(head) > head_max and 0 < len(tail) <= tail_max and "\n" not in run[:join]:
        start += join - len(tail)
        message = f"{text[start:end]!r}: a 標起止 the print sets off by no gap; its head is taken as long as its tail"
        return start, Diagnostic("lemma", message, start, end)
    message = f"{run!r} is not a 標起止 of the form A至B: the print may have lost its first words here"
    return start, Diagnostic("lemma", message, start, end)


def _lost_glyph_in_lemma(text: str, lo: int, gap: int, end: int) -> int | None:
    """Where a lemma starts that the gap at ``gap`` cuts next to its 至 (``注數朝至　之``).

    A worn print shows a lost glyph as a gap (see the package docstring); inside a lemma it
    stands where the words before it end with 至, or those after it begin with it, and the words
    after it alone hold no 至. None if the gap is the one before the lemma.
    """
    if gap < 0:
        return None
    after = squeeze(text[gap + 1 : end])
    before_gap = text.rfind(GAP, lo, gap)
    start = lo if before_gap < 0 else before_gap + 1
    before = squeeze(text[start:gap])
    if not before or "\n" in text[start:end] or LEMMA_JOIN in after[1:]:
        return None
    if not (before.endswith(LEMMA_JOIN) or after.startswith(LEMMA_JOIN)):
        return None
    if not lemma_shape(before + after):
        return None
    return start  # the gap is reported with the lemma's words, as any gap that ends no sentence


def squeeze(text: str) -> str:
    """``text`` without gaps and line ends: the words of a lemma split across a line end."""
    return "".join(c for c in text if c not in SPACE)


def well_formed(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` has a lemma's shape: ``(注)A至B`` or a short ``(注)X``, no gap inside."""
    words = text[start:end]
    if GAP in words.strip(" \t\u00a0" + GAP + LINE_ENDS):
        return False
    return lemma_shape(squeeze(words))


def lemma_shape(lemma: str) -> bool:
    """``lemma`` (its words only) is ``(注)A至B`` or a short ``(注)X``."""
    if lemma[:1] in LEMMA_SOURCES:
        lemma = lemma[1:]
    head_max, tail_max, whole_max = LEMMA_MAX
    if LEMMA_JOIN in lemma:
        head, _, tail = lemma.partition(LEMMA_JOIN)
        return 0 < len(head) <= head_max and 0 < len(tail) <= tail_max
    return 0 < len(lemma) <= whole_max
