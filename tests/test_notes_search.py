"""Searching near a place: the index gives what a scan of the whole text gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from collate.notes import search
from collate.notes.search import Fuzzy, Grams, nearest_fuzzy

# A small alphabet, so that stretches repeat and near misses are common.
TEXTS = st.text(alphabet="之而不以其也者禮", min_size=0, max_size=400)
QUERIES = st.text(alphabet="之而不以其也者禮", min_size=1, max_size=9)


def scan_fuzzy(text: str, query: str, lo: int, hi: int, *, forward: bool, minimum: float) -> Fuzzy | None:
    """The search as a scan of every start sharing a stretch with the query (the definition)."""
    starts = set()
    for k in range(len(query) - 1):
        gram = query[k : k + 2]
        at = text.find(gram, lo, hi)
        while at >= 0:
            if at - k >= lo:
                starts.add(at - k)
            at = text.find(gram, at + 1, hi)
    best: Fuzzy | None = None
    size = len(query)
    for start in sorted(starts):
        for width in (size - 1, size, size + 1):
            end = start + width
            if end > hi:
                continue
            score = fuzz.ratio(query, text[start:end])
            if score < minimum:
                continue
            better = best is None or (start > best.start if not forward else start < best.start)
            same_place = best is not None and abs(start - best.start) <= 1
            if (same_place and best is not None and score > best.score) or (not same_place and better):
                best = Fuzzy(start, end, score)
    return best


@settings(max_examples=300, deadline=None)
@given(TEXTS, QUERIES, st.integers(0, 400))
def test_exact_search_is_str_find(text: str, query: str, place: int) -> None:
    grams = Grams.of(text)
    place = min(place, len(text))
    assert grams.rfind(query, place) == text.rfind(query, 0, place)
    assert grams.find(query, place) == text.find(query, place)


@settings(max_examples=400, deadline=None)
@given(
    TEXTS,
    st.text(alphabet="之而不以其也者禮", min_size=4, max_size=12),
    st.integers(0, 400),
    st.booleans(),
    st.sampled_from([8, 32, 4096]),
)
def test_fuzzy_search_is_the_scan(text: str, query: str, place: int, forward: bool, window: int) -> None:
    """Whatever the first window, growing windows give the scan's answer."""
    grams = Grams.of(text)
    place = min(place, len(text))
    lo, hi = (place, len(text)) if forward else (0, place)
    expected = scan_fuzzy(text, query, lo, hi, forward=forward, minimum=80.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "FIRST_WINDOW", window)
        assert nearest_fuzzy(grams, query, lo, hi, forward=forward, minimum=80.0) == expected


def test_a_match_far_away_is_found_through_several_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "FIRST_WINDOW", 16)
    text = "君子之射也禮" + "之而不以" * 100 + "其爭也君子"
    found = nearest_fuzzy(Grams.of(text), "君子之射禮", 0, len(text), forward=False, minimum=80.0)
    assert found == scan_fuzzy(text, "君子之射禮", 0, len(text), forward=False, minimum=80.0)
    assert found is not None and found.start == 0


def test_a_window_that_cannot_reach_the_threshold_is_never_scored() -> None:
    """The bound on shared stretches is a real filter for long queries, and never drops a match."""
    need, before, after = search._bounds(20, 80.0)
    assert need >= 5 and before >= 0 and after >= 0
    assert search._bounds(4, 80.0)[0] <= 1  # short queries: every candidate is scored
