"""Layers, reading classes and causes on the command line: English or Chinese, or the start of a name."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from builders import copy_default_project
from click.testing import CliRunner, Result

from collate.cli import main
from collate.cli.names import CAUSE, LAYER, READING_CLASS, Named
from collate.model import Cause, Layer, ReadingClass

# Each name as typed, and what it names: English, Chinese, a start of either, another spelling.
NAMES: list[tuple[Named, str, object]] = [
    (LAYER, "jing", Layer.JING),
    (LAYER, "經", Layer.JING),
    (LAYER, "集說", Layer.COMMENTARY),
    (LAYER, "諸家說", Layer.COMMENTARY),  # the name over the edition's section
    (LAYER, "z", Layer.ZHU),
    (LAYER, "釋", Layer.SHIWEN),
    (LAYER, "Note", Layer.NOTE),
    (READING_CLASS, "substantive", ReadingClass.SUBSTANTIVE),
    (READING_CLASS, "異文", ReadingClass.SUBSTANTIVE),
    (READING_CLASS, "sub", ReadingClass.SUBSTANTIVE),
    (READING_CLASS, "脫", ReadingClass.OMISSION),
    (READING_CLASS, "異體", ReadingClass.ORTHOGRAPHIC),
    (READING_CLASS, "scribal error", ReadingClass.SCRIBAL_ERROR),
    (READING_CLASS, "Scribal-Error", ReadingClass.SCRIBAL_ERROR),
    (READING_CLASS, "not ext", ReadingClass.NOT_EXTANT),  # not_extant and `not extant`: one class
    (CAUSE, "形近", Cause.LOOKALIKE),
    (CAUSE, "look", Cause.LOOKALIKE),
    (CAUSE, "避", Cause.TABOO),
    (CAUSE, "通例", Cause.HABIT),
]


@pytest.mark.parametrize(("kind", "typed", "member"), NAMES, ids=[f"{k.name}-{t}" for k, t, _ in NAMES])
def test_a_name_in_either_language_or_its_start_names_the_member(kind: Named, typed: str, member: object) -> None:
    assert kind.convert(typed, None, None) is member


# A start that begins the names of several: each is offered, in both languages.
AMBIGUOUS: list[tuple[Named, str, list[str]]] = [
    (LAYER, "s", ["shu 疏", "shiwen 釋文"]),
    (READING_CLASS, "異", ["substantive 異文", "orthographic 異體"]),
    (READING_CLASS, "s", ["substantive 異文", "scribal_error 訛誤", "notation 譜"]),
    (CAUSE, "通", ["semantic 通用字", "loan 通假", "habit 通例"]),
]


@pytest.mark.parametrize(("kind", "typed", "candidates"), AMBIGUOUS, ids=[f"{k.name}-{t}" for k, t, _ in AMBIGUOUS])
def test_an_ambiguous_start_lists_the_candidates(kind: Named, typed: str, candidates: list[str]) -> None:
    with pytest.raises(click.BadParameter) as error:
        kind.convert(typed, None, None)
    message = error.value.message
    assert "ambiguous" in message
    for candidate in candidates:
        assert candidate in message


@pytest.mark.parametrize(
    ("kind", "typed", "members"),
    [
        (LAYER, "markup", [x for x in Layer if x.is_text]),  # a layer, but none collated
        (LAYER, "", [x for x in Layer if x.is_text]),
        (READING_CLASS, "bogus", list(ReadingClass)),
        (CAUSE, "haplography", list(Cause)),
    ],
)
def test_an_unknown_name_lists_every_valid_one_in_both_languages(
    kind: Named, typed: str, members: list[Layer | ReadingClass | Cause]
) -> None:
    with pytest.raises(click.BadParameter) as error:
        kind.convert(typed, None, None)
    for member in members:
        assert f"{member.value} {member.chinese}" in error.value.message


def test_every_option_naming_a_layer_class_or_cause_takes_either_language() -> None:
    named = {"--layer": LAYER, "--class": READING_CLASS, "--cause": CAUSE}
    kinds: dict[str, list[Layer] | list[ReadingClass] | list[Cause]] = {
        "--layer": [x for x in Layer if x.is_text],
        "--class": list(ReadingClass),
        "--cause": list(Cause),
    }
    found = 0
    for name, command in main.commands.items():
        for param in command.params:
            for opt in set(param.opts) & named.keys():
                found += 1
                # Every member by its Chinese name and by its English one, whatever else the option takes.
                for member in kinds[opt]:
                    for typed in (member.chinese, member.value):
                        assert param.type.convert(typed, None, None) is member, f"collate {name} {opt} {typed}"
                assert isinstance(param, click.Option) and param.help
                # Its help shows the names in both languages.
                assert named[opt].listing in param.help, f"collate {name} {opt}"
    assert found >= 4  # diff's --class, --layer, --cause; review's --cause


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the default project, run once for the module: its project file."""
    config = copy_default_project(tmp_path_factory.mktemp("names"))
    ran = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert ran.exit_code == 0, ran.output
    return config


def diff(project: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["diff", "--config", str(project), "--list", "--no-pager", *args])


@pytest.mark.parametrize(
    ("english", "other"),
    [
        (("--layer", "jing"), ("--layer", "經")),
        (("--layer", "zhu"), ("--layer", "z")),
        (("--class", "substantive"), ("--class", "異文")),
        (("--class", "substantive"), ("--class", "sub")),
        (("--class", "orthographic"), ("--class", "異體")),
        (("--cause", "look-alike"), ("--cause", "形近")),
    ],
)
def test_diff_shows_the_same_for_either_name(project: Path, english: tuple[str, str], other: tuple[str, str]) -> None:
    expected, got = diff(project, *english), diff(project, *other)
    assert expected.exit_code == 0, expected.output
    assert got.exit_code == 0, got.output
    assert got.output == expected.output
    assert len(got.output.splitlines()) > 1  # the header and some loci: the filter is not empty


def test_diff_refuses_an_ambiguous_start_naming_the_candidates(project: Path) -> None:
    result = diff(project, "--class", "異")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "substantive 異文" in result.output and "orthographic 異體" in result.output


def test_diff_refuses_an_unknown_layer_listing_both_languages(project: Path) -> None:
    result = diff(project, "--layer", "jign")
    assert result.exit_code == 2
    assert "jing 經" in result.output and "commentary 集說" in result.output


def test_help_shows_both_languages() -> None:
    shown = CliRunner().invoke(main, ["diff", "--help"], terminal_width=400).output
    for words in ("jing 經", "substantive 異文", "look-alike 形近"):
        assert words in shown
    assert "look-alike 形近" in CliRunner().invoke(main, ["review", "--help"], terminal_width=400).output
