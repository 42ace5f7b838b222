"""Every command and option is documented: in its --help (with an example) and in README.md."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from qrelsmith.cli import EXIT_CODES, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
#: README.md and the pages of docs/, where an option may be documented.
README = "\n".join(
    page.read_text(encoding="utf-8")
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
)


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


ROOT = Path(__file__).resolve().parents[1]


def transcript(command: str) -> tuple[list[str], str]:
    """The arguments of the README's console line ``$ qrelsmith <command>...`` and the output
    printed under it (up to the next command or the end of the block)."""
    lines = README.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"$ qrelsmith {command}"))
    argv = lines[start].split("#", 1)[0].split()[2:]
    output = []
    for line in lines[start + 1 :]:
        if line.startswith(("$ ", "```")):
            break
        output.append(line)
    return argv, "\n".join(output) + "\n"


def run_as_in_readme(
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> tuple[int, str, str]:
    """Run the README's command in ``tmp_path`` holding links to samples/ and tests/: (exit,
    printed, README's)."""
    monkeypatch.chdir(tmp_path)
    for name in ("samples", "tests"):
        if not (tmp_path / name).exists():
            (tmp_path / name).symlink_to(ROOT / name)
    argv, expected = transcript(command)
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err, expected


def test_the_readmes_first_build_succeeds_and_prints_what_the_readme_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, printed, expected = run_as_in_readme(
        "build samples/site --out out", capsys, monkeypatch, tmp_path
    )
    assert code == 0
    assert printed == expected


def test_the_readmes_review_demo_runs_with_the_shipped_verdict_files(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert run_as_in_readme("build samples/site --out out", capsys, monkeypatch, tmp_path)[0] == 0
    code, printed, expected = run_as_in_readme(
        "audit apply out samples/bad.csv", capsys, monkeypatch, tmp_path
    )
    assert (code, printed) == (1, expected)
    code, printed, expected = run_as_in_readme(
        "audit apply out samples/verdicts.csv", capsys, monkeypatch, tmp_path
    )
    assert (code, printed) == (0, expected)


def test_the_readmes_markdown_build_prints_what_the_readme_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    command = "build tests/fixtures/markdown_docs --out docs-out"
    code, printed, expected = run_as_in_readme(command, capsys, monkeypatch, tmp_path)
    assert (code, printed) == (0, expected)


def test_the_readmes_diff_and_the_sample_after_it_print_what_the_readme_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from test_diff import changed_site

    assert run_as_in_readme("build samples/site --out out", capsys, monkeypatch, tmp_path)[0] == 0
    assert (
        run_as_in_readme("audit apply out samples/verdicts.csv", capsys, monkeypatch, tmp_path)[0]
        == 0
    )
    changed_site(tmp_path).rename(tmp_path / "site-june")
    assert main(["build", "site-june", "--out", "out-june", "-q"]) == 0
    code, printed, expected = run_as_in_readme("diff out out-june", capsys, monkeypatch, tmp_path)
    assert (code, printed) == (1, expected)
    code, printed, expected = run_as_in_readme(
        "audit sample out-june", capsys, monkeypatch, tmp_path
    )
    assert (code, printed) == (0, expected)


def _readme_exit_codes() -> dict[str, str]:
    section = README.split("### Exit codes of `build`", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1:3] for line in section.splitlines()[2:]]
    return {code.strip(): meaning.strip() for code, meaning in rows}


def test_build_help_and_readme_agree_on_exit_codes() -> None:
    codes = _readme_exit_codes()
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


def test_docs_review_transcripts_print_what_they_show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """docs/review.md's console lines, run in order: each prints what the page shows under it
    (a line shown without output only has to succeed)."""
    text = (ROOT / "docs" / "review.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in ("samples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    lines = text.splitlines()
    commands = [i for i, line in enumerate(lines) if line.startswith("$ qrelsmith ")]
    assert len(commands) >= 3
    for start in commands:
        argv = lines[start].split("#", 1)[0].split()[2:]
        shown = []
        for line in lines[start + 1 :]:
            if line.startswith(("$ ", "```")):
                break
            shown.append(line)
        capsys.readouterr()
        assert main(argv) == 0, lines[start]
        captured = capsys.readouterr()
        if shown:
            assert captured.out + captured.err == "\n".join(shown) + "\n", lines[start]
