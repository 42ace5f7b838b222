"""Every command transcript in README.md and docs/*.md runs and prints what it shows.

The convention (README.md's "Writing docs" note states it for writers): a fenced block with
the info string ``console`` holds commands and their output. A line starting ``$ `` is a
command (a trailing ``\\`` continues it on the next line); the lines after it, up to the next
command or the closing fence, are its exact output, stdout and stderr merged
(``PYTHONUNBUFFERED=1`` keeps their order); a line that is exactly ``...`` stands for zero or
more lines; a non-zero exit is shown as a last line ``[exit N]``. The commands of one file run
in order, with bash, in one fresh temporary folder holding a copy of the repository's
``samples/``, with ``qrelsmith`` on PATH (this tree's code). Each block is a test case.

Builds are shared: a file whose first commands are the same as an earlier file's (the usual
``qrelsmith build samples/site --out out``) starts from a copy of the folder those commands
left, with their output, instead of building again (a build is deterministic, so the copy is
what the commands would have made).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from qrelsmith.version import __version__

ROOT = Path(__file__).resolve().parents[1]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

ELISION = "..."
PROMPT = "$ "
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
#: Seconds one command may take; the slowest documented ones (a build of the sample, an eval
#: with its resamples) take a few seconds, so this only stops a hung command.
COMMAND_TIMEOUT = 600
#: The terminal width argparse wraps --help to (it reads COLUMNS): fixed, so that help text in
#: the docs is the same on every machine; docs/cli.md is generated at this width too.
COLUMNS = "100"


@dataclass(frozen=True)
class Command:
    """One ``$`` command of a transcript and the output shown under it."""

    text: str
    expected: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Block:
    """One ``console`` block: where it starts and its commands in order."""

    path: Path
    line: int
    commands: tuple[Command, ...]

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def console_blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        body_start = index + 1
        end = body_start
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if opening["info"] == "console":
            body = [line[indent:] for line in lines[body_start:end]]
            blocks.append(Block(path, index + 1, _commands(body, path, body_start + 1)))
        index = end + 1
    return blocks


def _commands(body: list[str], path: Path, first_line: int) -> tuple[Command, ...]:
    """A block's lines cut into commands (continuations joined) and their shown output."""
    if not body or not body[0].startswith(PROMPT):
        raise ValueError(f"{path.name}:{first_line}: a console block starts with '$ '")
    commands: list[Command] = []
    index = 0
    while index < len(body):
        start = index
        text = [body[index][len(PROMPT) :]]
        while text[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            text.append(body[index])
        index += 1
        output_start = index
        while index < len(body) and not body[index].startswith(PROMPT):
            index += 1
        commands.append(
            Command("\n".join(text), tuple(body[output_start:index]), first_line + start)
        )
    return tuple(commands)


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether the lines shown equal the lines printed, each ``...`` line standing for zero or
    more printed lines."""
    # reachable[j]: the expected lines so far can account for the first j printed lines
    reachable = [True] + [False] * len(actual)
    for line in expected:
        if line == ELISION:
            for j in range(1, len(actual) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [reachable[j] and actual[j] == line for j in range(len(actual))]
    return reachable[-1]


@dataclass
class Result:
    printed: list[str]


@dataclass
class Session:
    """One docs file's folder and the results of its commands so far."""

    folder: Path
    env: dict[str, str]
    done: list[Result] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)


#: Folders left by the first commands of a file, keyed by those commands' texts, with their
#: results: a later file starting with the same commands starts from a copy.
_PREFIXES: dict[tuple[str, ...], tuple[Path, list[Result]]] = {}
_SESSIONS: dict[Path, Session] = {}


def _environment(tools: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(tools), str(Path(sys.executable).parent), env["PATH"]])
    env["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if part
    )
    env.update(PYTHONUNBUFFERED="1", COLUMNS=COLUMNS, LC_ALL="C.UTF-8", TZ="UTC")
    env.pop("PYTHONSTARTUP", None)
    return env


def _tools(base: Path) -> Path:
    """A folder holding a ``qrelsmith`` that runs this tree's code with this interpreter."""
    tools = base / "bin"
    if not tools.exists():
        tools.mkdir()
        script = tools / "qrelsmith"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m qrelsmith "$@"\n')
        script.chmod(0o755)
    return tools


def _session(path: Path, base: Path) -> Session:
    if path not in _SESSIONS:
        tools = _tools(base)
        folder = base / path.relative_to(ROOT).as_posix().replace("/", "_")
        folder.mkdir()
        shutil.copytree(ROOT / "samples", folder / "samples")
        _SESSIONS[path] = Session(folder, _environment(tools))
    return _SESSIONS[path]


def run(command: Command, session: Session) -> Result:
    """Run one command in the session's folder: its merged output and ``[exit N]``."""
    completed = subprocess.run(
        ["bash", "-c", command.text],
        cwd=session.folder,
        env=session.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=COMMAND_TIMEOUT,
    )
    printed = completed.stdout.decode("utf-8", errors="backslashreplace").splitlines()
    if completed.returncode:
        printed.append(f"[exit {completed.returncode}]")
    return Result(printed)


def run_through(block: Block, base: Path) -> list[Result]:
    """Run the file's commands up to the end of ``block`` (those not run yet) and return the
    block's results."""
    session = _session(block.path, base)
    wanted: list[Command] = []
    for earlier in console_blocks(block.path):
        wanted.extend(earlier.commands)
        if earlier.line == block.line:
            break
    while len(session.done) < len(wanted):
        command = wanted[len(session.done)]
        texts = tuple(c.text for c in wanted[: len(session.done) + 1])
        if texts in _PREFIXES and len(session.done) == len(texts) - 1:
            snapshot, results = _PREFIXES[texts]
            shutil.rmtree(session.folder)
            shutil.copytree(snapshot, session.folder, symlinks=True)
            session.done = list(results)
            continue
        session.done.append(run(command, session))
        if command.text.startswith("qrelsmith build") and len(session.done) == len(texts):
            snapshot = base / f"prefix-{len(_PREFIXES)}"
            shutil.copytree(session.folder, snapshot, symlinks=True)
            _PREFIXES[texts] = (snapshot, list(session.done))
    first = len(wanted) - len(block.commands)
    return session.done[first:]


BLOCKS = [block for path in DOC_FILES for block in console_blocks(path)]


@pytest.fixture(scope="session")
def docs_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("docs")


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_transcript_prints_what_the_docs_show(block: Block, docs_folder: Path) -> None:
    results = run_through(block, docs_folder)
    for command, result in zip(block.commands, results, strict=True):
        if not matches(command.expected, result.printed):
            diff = "\n".join(
                difflib.unified_diff(
                    list(command.expected),
                    result.printed,
                    "shown in the docs",
                    "printed",
                    lineterm="",
                )
            )
            pytest.fail(
                f"{block.path.relative_to(ROOT)}:{command.line}: $ {command.text}\n{diff}",
                pytrace=False,
            )


# The harness itself, on made-up transcripts.


def test_an_elision_stands_for_zero_or_more_lines() -> None:
    assert matches(("a", ELISION, "d"), ["a", "b", "c", "d"])
    assert matches(("a", ELISION, "d"), ["a", "d"])
    assert matches((ELISION,), [])
    assert not matches(("a", ELISION, "d"), ["a", "b", "c"])
    assert not matches(("a", "d"), ["a", "b", "d"])
    assert not matches(("a",), ["a", "b"])
    assert matches(("x", ELISION, "x", ELISION), ["x", "y", "x", "x"])


def test_blocks_are_cut_into_commands_with_continuations(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text.\n\n```console\n$ echo one \\\n  two\none two\n$ true\n```\n\n"
        "```sh\n$ not run\n```\n\n  ```console\n  $ false\n  [exit 1]\n  ```\n",
        encoding="utf-8",
    )
    blocks = console_blocks(page)
    assert [block.line for block in blocks] == [3, 14]
    first, second = blocks
    assert [(c.text, c.expected, c.line) for c in first.commands] == [
        ("echo one \\\n  two", ("one two",), 4),
        ("true", (), 7),
    ]
    assert [(c.text, c.expected) for c in second.commands] == [("false", ("[exit 1]",))]


def test_a_command_prints_merged_output_and_its_exit(tmp_path: Path) -> None:
    session = Session(tmp_path, _environment(tmp_path))
    result = run(Command("echo out; echo err >&2; echo out2; exit 3", (), 1), session)
    assert result.printed == ["out", "err", "out2", "[exit 3]"]


def test_commands_run_this_trees_code(tmp_path: Path) -> None:
    with_tools = Session(tmp_path, _environment(_tools(tmp_path)))
    assert run(Command("qrelsmith --version", (), 1), with_tools).printed == [
        f"qrelsmith {__version__}"
    ]
    where = run(
        Command('python -c "import qrelsmith; print(qrelsmith.__file__)"', (), 1), with_tools
    )
    assert where.printed == [str(ROOT / "src" / "qrelsmith" / "__init__.py")]


API = ROOT / "docs" / "api.md"


def test_the_api_examples_run(tmp_path: Path) -> None:
    """docs/api.md's ``python`` blocks, run in order as one script in a folder holding a copy
    of samples/ (their asserts state what each call gives)."""
    code = "\n".join(re.findall(r"^```python\n(.*?)^```", API.read_text("utf-8"), re.M | re.S))
    assert "qrelsmith.parse_article" in code
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    completed = subprocess.run(
        [sys.executable, "-"],
        input=code.encode("utf-8"),
        cwd=tmp_path,
        env=_environment(tmp_path),
        capture_output=True,
        timeout=COMMAND_TIMEOUT,
    )
    assert completed.returncode == 0, completed.stderr.decode("utf-8", "backslashreplace")


CONFIGURATION = ROOT / "docs" / "configuration.md"
ELIDED_ITEMS = ", …]"


def documented_defaults() -> dict[tuple[str, str], str]:
    """docs/configuration.md's ``toml`` block: each ``key = value`` by (table, key), the value
    as written (a commented-out key too; lists may go on over lines and end in ``…``)."""
    block = CONFIGURATION.read_text("utf-8").split("```toml\n", 1)[1].split("```", 1)[0]
    values: dict[tuple[str, str], str] = {}
    table, key, pending = "", "", ""
    for line in block.splitlines():
        if pending:
            pending += " " + line.split("  #", 1)[0].strip()
        elif header := re.match(r"\[(\w+)\]", line):
            table = header.group(1)
            continue
        elif assignment := re.match(r"#? ?(\w+) = (.*)", line):
            key, pending = assignment.group(1), assignment.group(2).split("  #", 1)[0].strip()
        else:
            continue
        if pending.count("[") == pending.count("]") and pending.count("{") == pending.count("}"):
            values[table, key] = pending
            pending = ""
    return values


def test_the_documented_defaults_are_the_defaults() -> None:
    """Every option of the config is in docs/configuration.md with its default (a list shown
    in part holds only items of the default, in its order)."""
    from qrelsmith.config import Config

    defaults = Config().model_dump(mode="json")
    documented = documented_defaults()
    expected = {(table, key) for table, options in defaults.items() for key in options}
    missing = sorted(expected - set(documented))
    assert not missing, "add to docs/configuration.md's toml block, with a comment: " + "; ".join(
        f"[{table}] {key} = {json.dumps(defaults[table][key], ensure_ascii=False)}"
        for table, key in missing
    )
    assert sorted(set(documented) - expected) == [], "docs/configuration.md names no such option"
    for (table, key), written in documented.items():
        if key == "encoding":
            continue  # shown commented out, as an example: its default is None
        partial = written.endswith(ELIDED_ITEMS)
        value = tomllib.loads(f"v = {written.replace(ELIDED_ITEMS, ']')}")["v"]
        default = defaults[table][key]
        if partial:
            assert [item for item in default if item in value] == value, (table, key)
        else:
            assert value == default, (table, key, value, default)
