"""A project's regularization table (.toml in ``variant_tables``): rules of every witness and layer fold as
the project's variants do, rules of some witnesses or layers only in their tokens; a malformed table is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import layered

from collate.errors import ProjectError
from collate.model import Cause, ChangeClass, Layer, ReadingClass
from collate.normalize import Normalizer, build_normalizer, reading_class
from collate.normalize.regularizations import parse_regularizations
from collate.normalize.tokenize import tokenize

TABLE = """\
# made in review
version = 1

[[regularization]]
id = "a1"
variant = "楫"
standard = "揖"
witnesses = ["ZS"]
layers = ["zhu"]
editor = "王"
when = "2024-05-01T10:00:00+08:00"

[[regularization]]
id = "a2"
variant = "躲"
standard = "射"
"""


def normalizer(tmp_path: Path, table: str = TABLE, section: dict[str, object] | None = None) -> Normalizer:
    """The normalizer of a project whose regularization table is ``table``."""
    (tmp_path / "rules.toml").write_text(table, encoding="utf-8")
    return build_normalizer({"variant_tables": ["rules.toml"], **(section or {})}, {}, root=tmp_path)


def test_a_rule_of_one_witness_and_layer_holds_in_its_tokens_only(tmp_path: Path) -> None:
    n = normalizer(tmp_path)
    key, changes = n.normalize("楫", witness="ZS", layer="zhu")
    assert key == "揖" and reading_class(changes) == (ReadingClass.ORTHOGRAPHIC, Cause.VARIANT)
    assert changes[0].source == "project table rules.toml" and changes[0].cls is ChangeClass.ORTHOGRAPHIC
    for witness, layer in (("ZS", "jing"), ("SK", "zhu"), ("", "")):
        assert n.normalize("楫", witness=witness, layer=layer) == ("楫", ())
    # Asked in the other order: the cache, one for every witness, never answers for the rule.
    assert n.normalize("楫", witness="ZS", layer="zhu")[0] == "揖"
    assert n.fold("楫") == "楫"  # a phrase has no witness: the rule is not its


def test_a_rule_of_every_witness_and_layer_joins_the_classes(tmp_path: Path) -> None:
    n = normalizer(tmp_path)
    assert n.normalize("躲")[0] == n.normalize("射")[0] == "射"
    assert n.fold("躲射") == "射射"


def test_the_tokenizer_says_which_layer_a_token_is_of(tmp_path: Path) -> None:
    witness = layered("ZS", [(Layer.JING, "楫"), (Layer.ZHU, "楫")])
    n = normalizer(tmp_path)
    assert [t.n for t in tokenize(witness, Layer.JING, n)] == ["楫"]
    assert [t.n for t in tokenize(witness, Layer.ZHU, n)] == ["揖"]


def test_a_rule_follows_the_graphic_rule_switch(tmp_path: Path) -> None:
    n = normalizer(tmp_path, section={"rules": ["placeholder", "script"]})
    assert n.normalize("楫", witness="ZS", layer="zhu") == ("楫", ())


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            'version = 1\n[[regularization]]\nvariant = "楫"\nstandard = "揖"\nwitness = ["ZS"]\n',
            "unknown key `witness`",
        ),
        ('version = 1\n[[regularization]]\nvariant = "楫"\nstandard = "揖"\nlayers = ["jin"]\n', "unknown layer 'jin'"),
        ('version = 1\n[[regularization]]\nvariant = "楫楫"\nstandard = "揖"\n', "not one character read as another"),
        ('version = 1\n[[regularization]]\nvariant = "楫"\n', "`standard` is missing"),
        ("version = 2\n", "newer than this collate knows"),
        ('[[regularization]]\nvariant = "楫"\nstandard = "揖"\n', "`version` must be a whole number"),
        ('version = 1\n[[decision]]\nid = "x"\n', "not a regularization table"),
    ],
)
def test_a_malformed_table_is_refused_at_its_line(tmp_path: Path, table: str, message: str) -> None:
    with pytest.raises(ProjectError, match=message) as refused:
        normalizer(tmp_path, table)
    assert "rules.toml" in str(refused.value)


def test_a_rule_on_a_pair_kept_apart_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="both a variant"):
        normalizer(tmp_path, section={"never_fold": ["楫揖"]})


def test_an_error_names_the_line_of_its_rule() -> None:
    text = 'version = 1\n\n[[regularization]]\nvariant = "a"\nstandard = "b"\n\n[[regularization]]\nvariant = "c"\n'
    with pytest.raises(ProjectError) as refused:
        parse_regularizations(text, "rules.toml")
    assert refused.value.where == "rules.toml:7"
    assert parse_regularizations("# nothing yet\n", "rules.toml") == ()
