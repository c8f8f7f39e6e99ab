"""The group: every command listed from one table, each imported only when it runs or shows its help.

What a start-up imports is checked, not how long it takes: the list of modules is the same on a
loaded machine, and a heavy import that creeps back in fails here by name.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import collate.project
from collate.cli import main
from collate.cli.common import COMMANDS, PROJECT_FILE, CollateGroup

# What no help needs: the terminal views, the readers and the stages, the engines and the formats.
HEAVY = (
    "rich",
    "textual",
    "msgspec",
    "lxml",
    "collatex",
    "networkx",
    "dask",
    "numpy",
    "opencc",
    "collate.project",
    "collate.readers",
    "collate.normalize",
    "collate.align",
    "collate.apparatus",
    "collate.pipeline",
    "collate.runs",
    "collate.views",
)
COMMAND_MODULES = sorted({entry.path.partition(":")[0] for entry in COMMANDS.values()})

# `python -m collate.cli ARGS…` as runpy runs it, then the modules it imported (the last line of stderr).
PROBE = """
import json, runpy, sys
sys.argv = ["collate", *json.loads(sys.argv[1])]
try:
    runpy.run_module("collate.cli", run_name="__main__", alter_sys=True)
except SystemExit as done:
    code = done.code
print(json.dumps({"exit": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def started(args: list[str], folder: Path) -> tuple[str, set[str]]:
    """The output of ``python -m collate.cli ARGS…`` in a new interpreter, and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)], cwd=folder, capture_output=True, text=True, check=True
    )
    probe = json.loads(done.stderr.splitlines()[-1])
    assert probe["exit"] in (0, None), done.stderr
    return done.stdout, set(probe["modules"])


def loaded(modules: set[str], names: tuple[str, ...] | list[str]) -> list[str]:
    """Those of ``names`` (packages with their modules) that are among ``modules``."""
    return sorted(m for m in modules for name in names if m == name or m.startswith(f"{name}."))


def test_help_lists_every_command_and_imports_none(tmp_path: Path) -> None:
    output, modules = started(["--help"], tmp_path)
    # Not even the model: the listing is the table's.
    assert loaded(modules, [*HEAVY, "collate.model", "collate.exporters", *COMMAND_MODULES, "collate.cli.names"]) == []
    listed = output.partition("Commands:")[2].splitlines()
    for name, entry in COMMANDS.items():
        # The start of each line of help: the listing shortens it to the terminal's width.
        assert any(line.split()[:2] == [name, entry.help.split()[0]] for line in listed if line.strip()), name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_commands_help_imports_its_module_alone(tmp_path: Path, name: str) -> None:
    output, modules = started([name, "--help"], tmp_path)
    usage = output.splitlines()[0]
    assert usage.startswith("Usage:") and f" {name} " in usage, usage
    own = COMMANDS[name].path.partition(":")[0]
    assert own in modules
    assert loaded(modules, [*HEAVY, *(m for m in COMMAND_MODULES if m != own)]) == []


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_says_what_the_command_says(name: str) -> None:
    entry = COMMANDS[name]
    command = main.commands[name]
    assert entry.load() is command
    assert command.name == name
    # click lists a command by its short help, else by the first paragraph of its help.
    assert command.short_help is None
    assert command.help is not None
    assert entry.help == " ".join(command.help.partition("\n\n")[0].split())


@pytest.mark.parametrize("width", [40, 80, 200])
def test_the_listing_is_laid_out_as_click_lays_it_out(width: int) -> None:
    # A group of its own: none of its commands looked up yet, so its listing is the table's.
    group = CollateGroup("collate", lazy=COMMANDS)
    ctx = click.Context(group, terminal_width=width, max_content_width=width)
    lazy = ctx.make_formatter()
    group.format_commands(ctx, lazy)
    # click's own listing looks each command up and asks it for its line of help.
    own = ctx.make_formatter()
    click.Group.format_commands(group, ctx, own)
    assert lazy.getvalue() == own.getvalue()
    assert all(name in lazy.getvalue() for name in COMMANDS)


def test_the_project_file_is_named_as_the_project_names_it() -> None:
    assert PROJECT_FILE == collate.project.PROJECT_FILE


def test_a_mistyped_command_is_told_the_nearest() -> None:
    result = CliRunner().invoke(main, ["dif"])
    assert result.exit_code == 2
    assert "No such command 'dif'" in result.output
    assert "diff" in result.output


def test_commands_can_still_be_added() -> None:
    group = CollateGroup("collate", lazy=COMMANDS)

    @group.command()
    def hello() -> None:
        """Say hello."""
        click.echo("hello")

    assert sorted(group.commands) == sorted([*COMMANDS, "hello"])
    assert CliRunner().invoke(group, ["hello"]).output == "hello\n"
    assert "Say hello." in CliRunner().invoke(group, ["--help"]).output


def test_a_command_runs_with_the_collector_s_thresholds_and_leaves_them_as_they_were() -> None:
    import gc

    from collate.cli.common import COLLECT_EVERY

    group = CollateGroup("collate", lazy=COMMANDS)
    seen: list[tuple[int, ...]] = []

    @group.command()
    def probe() -> None:
        """Say the collector's thresholds."""
        seen.append(gc.get_threshold())

    before = gc.get_threshold()
    assert CliRunner().invoke(group, ["probe"]).exit_code == 0
    assert seen == [COLLECT_EVERY] and gc.get_threshold() == before
    # Frozen only at exit: a process that goes on after a command collects as before.
    assert gc.get_freeze_count() == 0


# A command run to its end, and then the collector's frozen objects counted by an exit handler
# registered before it: handlers run last registered first, so this one runs after the command's.
FROZEN_AT_EXIT = """
import atexit, gc, sys
from collate.cli import main
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0))
main(["run"])
"""


def test_the_collector_s_objects_are_frozen_when_a_command_s_process_exits(tmp_path: Path) -> None:
    # No project here: the command ends in an error, as far as the collector is concerned a command all the same.
    done = subprocess.run([sys.executable, "-c", FROZEN_AT_EXIT], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "no project file here" in done.stderr
    assert done.stdout.strip() == "frozen at exit: True"


def test_a_run_imports_only_what_its_work_needs(tmp_path: Path) -> None:
    # Two short texts a character apart: no editorial note, no count to write in Chinese numerals,
    # output piped (no progress drawn) and no decision written (nothing to lock).
    (tmp_path / "a.txt").write_text("投壺之禮，主人奉矢，司射奉中，使人執壺。\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("投壺之禮，主人奉矢，司射奉中，使人執壹。\n", encoding="utf-8")
    output, modules = started(["run", "a.txt", "b.txt"], tmp_path)
    assert "collation.jiaokanji.txt" in output
    assert loaded(modules, ["cn2an", "proces", "rich.progress", "filelock"]) == []
