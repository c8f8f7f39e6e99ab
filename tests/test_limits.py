"""Witnesses too large for a run are refused at once, with the limit and how to raise it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SEED_000
from growth import assert_linear

from collate.errors import InputError, ProjectError
from collate.init import project_from_files
from collate.limits import RATIO_FLOOR, Limits, check_sizes, limits_of, text_characters
from collate.model import Layer
from collate.pipeline import collate_project
from collate.readers import read_witness
from collate.runs.outputs import write_outputs

LAYERS = (Layer.JING, Layer.ZHU, Layer.SHU)


def test_the_text_characters_are_the_collated_layers_text_only() -> None:
    base = read_witness(SEED_000, siglum="SK", layout="siku-wltk")
    jing = text_characters(base, (Layer.JING,))
    assert 0 < jing < text_characters(base, LAYERS) < len(base.text)


def test_a_witness_over_the_character_limit_is_refused_with_its_path_and_the_key_to_raise() -> None:
    base = read_witness(SEED_000, siglum="SK", layout="siku-wltk")
    size = text_characters(base, LAYERS)
    check_sizes([base], "SK", LAYERS, Limits(characters=size))
    with pytest.raises(InputError) as caught:
        check_sizes([base], "SK", LAYERS, Limits(characters=size - 1))
    assert caught.value.where == base.path
    assert f"{size:,} characters" in str(caught.value) and "[limits] characters" in str(caught.value)


def test_a_witness_many_times_the_base_is_refused_but_small_ones_never(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("大射之禮" * 10, encoding="utf-8")
    big = tmp_path / "big.txt"
    big.write_text("大射之禮" * (RATIO_FLOOR // 4 + 10), encoding="utf-8")
    base = read_witness(small, siglum="A", layout="plain")
    wide = read_witness(big, siglum="B", layout="plain")
    with pytest.raises(InputError, match="times the base"):
        check_sizes([base, wide], "A", (Layer.JING,), Limits())
    check_sizes([base, wide], "A", (Layer.JING,), Limits(ratio=1e9))
    check_sizes([wide, base], "B", (Layer.JING,), Limits())  # a small witness of a large base is fine


@pytest.mark.parametrize(
    ("section", "error"),
    [({"characters": 0}, "positive whole number"), ({"ratio": "x"}, "positive number"), ({"size": 1}, "unknown key")],
)
def test_bad_limits_are_project_errors(section: dict[str, object], error: str) -> None:
    with pytest.raises(ProjectError, match=error):
        limits_of(section, "collate.toml")


def test_limits_are_read_from_the_project_table() -> None:
    assert limits_of({"characters": 5_000_000, "ratio": 50}, "x") == Limits(5_000_000, 50.0)
    assert limits_of(None, "x") == Limits()


def test_collate_run_refuses_a_witness_over_the_limit_before_writing_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from builders import copy_default_project
    from click.testing import CliRunner

    from collate.cli import main

    config = copy_default_project(tmp_path)
    root = config.parent
    config.write_text(config.read_text(encoding="utf-8") + "\n[limits]\ncharacters = 1000\n", encoding="utf-8")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["run"])
    assert result.exit_code == 1
    assert "000_2cc6d19ca27bf473.txt" in result.output and "[limits] characters = " in result.output
    assert "Traceback" not in result.output
    assert not (root / "output").exists()


def _whole_run(tmp_path: Path, base_text: str) -> Callable[[], object]:
    """A run as `collate run base.txt witness.txt` makes it, every output written."""
    folder = tmp_path / f"run-{len(base_text)}"
    folder.mkdir()
    (folder / "base.txt").write_text(base_text, encoding="utf-8")
    (folder / "witness.txt").write_text("天子之射也以爲諸侯之禮樂也\n", encoding="utf-8")
    project = project_from_files([folder / "base.txt", folder / "witness.txt"])
    return lambda: write_outputs(collate_project(project), folder / "output")


def test_a_long_base_of_one_line_against_a_small_witness_takes_linear_work(tmp_path: Path) -> None:
    # One block of the base as long as the file: the TEI and HTML exporters once joined its
    # characters one by one (quadratic: 1.7 M characters never finished).
    assert_linear(lambda n: _whole_run(tmp_path, "天子之射也以爲諸侯之禮" * (n // 11) + "\n"), 4_000)


def test_a_base_of_many_short_lines_against_a_small_witness_takes_linear_work(tmp_path: Path) -> None:
    assert_linear(lambda n: _whole_run(tmp_path, "射者仁之道也\n" * (n // 6)), 4_000)
