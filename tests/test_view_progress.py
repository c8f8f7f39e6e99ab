"""Stage progress: each stage a line with its time on a terminal, nothing when piped."""

from __future__ import annotations

import io

from rich.console import Console

from collate.views.progress import StageProgress


def _draw(terminal: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=80, color_system=None)
    with StageProgress(console) as progress:
        progress("reading SK")
        progress("jing: aligning ZS with SK")
        progress("writing touhu.html")
    return out.getvalue()


def test_each_stage_is_a_line_marked_done_with_its_time_on_a_terminal() -> None:
    drawn = _draw(terminal=True)
    final = drawn.rsplit("\x1b[2K", 1)[-1]  # the last frame drawn: every stage, each done
    lines = [line.rstrip() for line in final.splitlines() if line.strip()][:3]
    assert lines == ["✓ 0:00:00 reading SK", "✓ 0:00:00 jing: aligning ZS with SK", "✓ 0:00:00 writing touhu.html"]


def test_nothing_is_drawn_when_piped() -> None:
    assert _draw(terminal=False) == ""


def test_a_transient_progress_leaves_no_line_behind() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system=None)
    with StageProgress(console, transient=True) as progress:
        progress("reading SK")
    drawn = out.getvalue()
    assert "reading SK" in drawn  # drawn while it ran
    assert "reading SK" not in drawn.rsplit("\x1b[2K", 1)[-1]  # and erased at the end


def test_a_stage_that_fails_is_not_ticked() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system=None)
    try:
        with StageProgress(console) as progress:
            progress("reading SK")
            progress("compiling the schema tei_all.rng")
            raise ValueError("no schema")
    except ValueError:
        pass
    final = out.getvalue().rsplit("\x1b[2K", 1)[-1]
    assert "✓ 0:00:00 reading SK" in final
    assert "compiling the schema tei_all.rng: failed" in final and "✓ 0:00:00 compiling" not in final
