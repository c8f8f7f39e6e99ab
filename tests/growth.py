"""Catching a quadratic stage without the clock deciding: two sizes' work compared in one process.

A test never asserts on seconds (a loaded machine is slow, not wrong). Where it must catch work
that grows faster than the input, it runs the same work at two sizes, ``factor`` apart, in this
process, and compares the CPU time each took: a linear stage takes about ``factor`` times as
long, a quadratic one ``factor`` squared. The bound between them is generous (``factor`` times
:data:`SLACK`), the best of three runs is taken for each size, and the load of other processes
does not count (this process's CPU time only).
"""

from __future__ import annotations

import time
from collections.abc import Callable

SLACK = 2.5
RUNS = 3


def _cpu(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        before = time.process_time()
        work()
        best = min(best, time.process_time() - before)
    return max(best, 1e-6)


def growth(make: Callable[[int], Callable[[], object]], size: int, factor: int = 8) -> float:
    """How many times more CPU the work of ``make(size * factor)`` takes than that of ``make(size)``."""
    small, large = make(size), make(size * factor)
    small()  # caches, compiled patterns, imports: paid once, before anything is compared
    return _cpu(large) / _cpu(small)


def assert_linear(make: Callable[[int], Callable[[], object]], size: int, factor: int = 8) -> None:
    """Fail if the work of ``make`` grows clearly faster than its size (see the module's docstring)."""
    ratio = growth(make, size, factor)
    assert ratio < factor * SLACK, f"{factor}× the input took {ratio:.1f}× the work: more than linear"
