"""Every command and option is documented: in its --help (with an example) and in README.md or
docs/*.md (not counting docs/cli.md, which is generated from the help); docs/cli.md is what
``python -m qrelsmith.cli.reference`` prints."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from qrelsmith.cli import EXIT_CODES, build_parser, main
from qrelsmith.cli.reference import REGENERATE, commands, reference

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REFERENCE = ROOT / "docs" / "cli.md"
#: What a user reads about the commands, written by hand: README.md and docs/*.md but the
#: generated reference (which holds every option whether or not anyone documented it).
DOCS = "\n".join(
    path.read_text(encoding="utf-8")
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if path != REFERENCE
)


def _is_group(parser: argparse.ArgumentParser) -> bool:
    return any(isinstance(action, argparse._SubParsersAction) for action in parser._actions)


#: Every command a user runs ("build", "audit sample" ...), not the groups ("audit").
COMMANDS = [
    (name.removeprefix("qrelsmith").strip(), parser)
    for name, parser in commands(build_parser())
    if not _is_group(parser)
]


def test_every_stage_has_a_command() -> None:
    names = {name for name, _ in COMMANDS}
    assert {
        "build",
        "audit sample",
        "audit apply",
        "baseline",
        "eval",
        "check",
        "validate",
        "align",
    } <= names


@pytest.mark.parametrize(("name", "parser"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_and_options_are_in_the_docs(name: str, parser: argparse.ArgumentParser) -> None:
    assert f"qrelsmith {name}" in DOCS, f"'qrelsmith {name}' is not in README.md or docs/"
    assert parser.epilog and "qrelsmith " + name.split()[0] in parser.epilog, "no example in --help"
    for action in parser._actions:
        long_options = [o for o in action.option_strings if o.startswith("--") and o != "--help"]
        for option in long_options:
            assert re.search(rf"{re.escape(option)}(?![\w-])", DOCS), (
                f"{name} {option} is not documented in README.md or docs/ (docs/cli.md aside)"
            )


def test_the_command_reference_is_the_help_of_every_command() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == reference(), (
        f"docs/cli.md differs from the commands' --help: run `{REGENERATE}`"
    )


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["build"])
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def _docs_exit_codes() -> dict[str, str]:
    section = DOCS.split("## Exit codes of `build`", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1:3] for line in section.splitlines()[2:]]
    return {code.strip(): meaning.strip() for code, meaning in rows}


def test_build_help_and_the_docs_agree_on_exit_codes() -> None:
    codes = _docs_exit_codes()
    assert set(codes) == {"0", "1", "2", "3", "4"}
    parsers = dict(COMMANDS)
    epilog = " ".join((parsers["build"].epilog or "").split())
    listed = epilog.split("exit codes:", 1)[1]
    for code in codes:
        assert f"{code} " in listed, f"build --help does not explain exit code {code}"
    assert "3 outputs written, some pages skipped" in epilog
    assert "4 outputs written, pages lost to a bug" in epilog
    main_epilog = " ".join((build_parser().epilog or "").split())
    assert "skipped by build" not in main_epilog  # once said skipped pages exit 1
    assert "build also 3" in main_epilog and "4 (written, some pages lost" in main_epilog


@pytest.mark.parametrize(("name", "parser"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_option_help_points_at_docs_not_source_files(
    name: str, parser: argparse.ArgumentParser
) -> None:
    for action in parser._actions:
        assert ".py" not in (action.help or ""), f"{name} {action.option_strings}: {action.help}"


def _codes(text: str) -> set[int]:
    """The exit codes a sentence lists: every number standing alone in it."""
    return {int(number) for number in re.findall(r"(?<![\w.-])(\d+)(?![\w.])", text)}


def test_top_level_help_and_readme_list_the_same_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    in_help = help_text.split("exit codes:", 1)[1].split("See ", 1)[0]
    readme = " ".join(README.split())
    in_readme = readme.split("Exit codes:", 1)[1].split(". ", 1)[0]
    assert _codes(in_help) == _codes(in_readme) == set(EXIT_CODES)


def test_an_interrupt_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import qrelsmith.cli.evaluate as evaluate

    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate, "run_validate", interrupted)
    assert main(["validate", "."]) == 130
    assert capsys.readouterr().err == "error: interrupted\n"


def test_each_command_is_parsed_by_its_modules_parser_alone() -> None:
    """main builds the parser of the called command's module only (COMMAND_MODULES): the
    table names every command with the module that registers it, and that module's parser
    gives the command the help of the full parser's."""
    from qrelsmith.cli import COMMAND_MODULES

    full = dict(commands(build_parser()))
    top = {name.split()[1] for name in full if len(name.split()) == 2}
    assert set(COMMAND_MODULES) == top
    for command, module in COMMAND_MODULES.items():
        alone = dict(commands(build_parser(module)))
        assert (
            alone[f"qrelsmith {command}"].format_help()
            == full[f"qrelsmith {command}"].format_help()
        )
        assert {name.split()[1] for name in alone if len(name.split()) >= 2} == {
            c for c, m in COMMAND_MODULES.items() if m == module
        }
