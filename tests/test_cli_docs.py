"""Every command and option is documented: in its --help (with an example) and in README.md."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from qrelsmith.cli import build_parser, main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands() -> list[tuple[str, argparse.ArgumentParser]]:
    found = []

    def walk(prefix: str, parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(f"{prefix} {name}".strip(), sub)
                return
        found.append((prefix, parser))

    walk("", build_parser())
    return found


COMMANDS = _commands()


def test_every_stage_has_a_command() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"build", "audit sample", "audit apply", "baseline", "eval", "check", "validate", "align"} <= names


@pytest.mark.parametrize(("name", "parser"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_and_options_are_in_readme(name: str, parser: argparse.ArgumentParser) -> None:
    assert f"qrelsmith {name}" in README, f"'qrelsmith {name}' is not in README.md"
    assert parser.epilog and "qrelsmith " + name.split()[0] in parser.epilog, "no example in --help"
    for action in parser._actions:
        long_options = [o for o in action.option_strings if o.startswith("--") and o != "--help"]
        for option in long_options:
            assert option in README, f"{name} {option} is not documented in README.md"


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["build"])
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err
