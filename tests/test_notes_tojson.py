"""The JSON edge of the notes stage: plain data, every note with its anchor, claims and checks."""

from __future__ import annotations

import json
from pathlib import Path

from collate.exporters.notes import to_json as notes_to_json
from collate.pipeline import project_notes
from collate.project import load_project


def test_notes_to_json_is_plain_data(repo: Path) -> None:
    data = notes_to_json(project_notes(load_project(repo / "collate.toml")))
    text = json.dumps(data, ensure_ascii=False)
    back = json.loads(text)
    assert len(back["notes"]) == 12
    second = back["notes"][1]
    assert second["anchor"]["method"] == "quote" and second["anchor"]["text"] == "枉矢哨"
    assert second["claims"][0]["reading"] == "峭" and second["claims"][0]["base"] == "哨"
    assert second["claims"][0]["checks"][0]["verdict"] == "not checkable"
    assert back["unanchored"] == ["SK-n1"]
    assert any(d["reading"] == "峭" for d in back["derived"]["DD"])
