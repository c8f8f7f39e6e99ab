"""The ``[normalize]`` table of the project file: every problem is a project error naming the key."""

from __future__ import annotations

from typing import Any

import pytest

from collate.errors import ProjectError
from collate.normalize import build_normalizer


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"rules": ["script", "nfkc"]}, "unknown rule 'nfkc'"),
        ({"rules": "script"}, "must be a list"),
        ({"rules": ["script", "script"]}, "listed twice"),
        ({"semantic": "yes"}, "true or false"),
        ({"semantic": False, "rules": ["semantic-variant"]}, "semantic = false"),
        ({"script": "s2t"}, "unknown script conversion"),
        ({"taboo_eras": ["ming"]}, "unknown taboo era 'ming'"),
        ({"variants": {"髙": "高高"}}, "one character to one character"),
        ({"normalise": True}, "unknown key `normalise`"),
    ],
)
def test_bad_configuration_is_a_project_error(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ProjectError, match=message):
        build_normalizer(section, {})


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"never_fold": "己已"}, "must be a list"),
        ({"never_fold": ["己"]}, "two or more different characters"),
        ({"never_fold": ["己己"]}, "two or more different characters"),
        ({"loans": ["罷"]}, "table of loan = original"),
        ({"loans": {"罷": "疲疲"}}, "one character to another"),
        ({"never_fold": ["巳已"], "variants": {"巳": "已"}}, "both a variant"),
    ],
)
def test_bad_lists_are_project_errors(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ProjectError, match=message) as error:
        build_normalizer(section, {}, where="collate.toml")
    assert "collate.toml [normalize]" in str(error.value)
