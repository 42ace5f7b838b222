"""Label Studio: the sample as tasks (our label as a prediction) and its JSON export read back.

Import ``label-studio.json`` into a project whose labeling config is ``label-studio.xml``. Each
task shows the query, the answer, the reference and the labelled sections' text; the reviewer
picks a verdict, ticks the right sections (pre-ticked with our label) and may write a note.
Export the project as JSON and give that file to ``qrelsmith audit apply``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError, UsageError
from ..store.buildfolder import Build
from ..store.files import decode_utf8, json_error, write_json, write_text
from ..store.layout import LABEL_STUDIO_CONFIG, LABEL_STUDIO_TASKS
from .sheet import REVIEWER_COLUMNS, VERDICTS, RawVerdict, heading_line

MODEL_VERSION = "qrelsmith-label"

#: Control names shared by the config, the predictions and the reader.
VERDICT_CONTROL, SECTIONS_CONTROL, NOTE_CONTROL, TEXT_OBJECT = "verdict", "sections", "note", "text"

LABELING_CONFIG = f"""<View>
  <Header value="$query"/>
  <Text name="answer" value="$answer"/>
  <Text name="reference" value="$reference"/>
  <Header value="Labelled section(s)" size="5"/>
  <Text name="{TEXT_OBJECT}" value="$section_text"/>
  <Choices name="{VERDICT_CONTROL}" toName="{TEXT_OBJECT}" choice="single-radio" required="true">
{chr(10).join(f'    <Choice value="{v}"/>' for v in VERDICTS)}
  </Choices>
  <Header value="Right section(s), for wrong / partly" size="5"/>
  <Choices name="{SECTIONS_CONTROL}" toName="{TEXT_OBJECT}" choice="multiple" value="$sections"/>
  <TextArea name="{NOTE_CONTROL}" toName="{TEXT_OBJECT}" rows="2"/>
</View>
"""


def _choices(name: str, values: Sequence[str]) -> dict[str, Any]:
    return {
        "from_name": name,
        "to_name": TEXT_OBJECT,
        "type": "choices",
        "value": {"choices": list(values)},
    }


def tasks(build: Build, rows: Sequence[dict[str, str]]) -> list[dict[str, Any]]:
    """One task per sheet row; the choices of sections are ``#n heading`` lines."""
    result = []
    for row in rows:
        qid = row["qid"]
        query = build.by_qid[qid]
        options = [heading_line(record) for record in build.sections_of(qid)]
        labelled = [
            heading_line(build.sections[sid]) for sid in query.relevant if sid in build.sections
        ]
        data: dict[str, Any] = {
            column: row[column] for column in row if column not in REVIEWER_COLUMNS
        }
        data["sections"] = [{"value": option} for option in options]
        result.append(
            {
                "data": data,
                "predictions": [
                    {
                        "model_version": MODEL_VERSION,
                        "result": [_choices(SECTIONS_CONTROL, labelled)],
                    }
                ],
            }
        )
    return result


def write_tasks(folder: Path, build: Build, rows: Sequence[dict[str, str]]) -> list[Path]:
    """Write ``label-studio.json`` (tasks) and ``label-studio.xml`` (labeling config); returns
    the files written."""
    write_json(folder / LABEL_STUDIO_TASKS, tasks(build, rows))
    write_text(folder / LABEL_STUDIO_CONFIG, LABELING_CONFIG)
    return [folder / LABEL_STUDIO_TASKS, folder / LABEL_STUDIO_CONFIG]


def _annotator(annotation: dict[str, Any]) -> str:
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    return str(who) if who is not None else "?"


def read_export(path: Path) -> list[RawVerdict]:
    """Verdicts from Label Studio's JSON export: one reviewer per annotator."""
    try:
        exported = json.loads(decode_utf8(path.read_bytes(), path))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise DataError(
            f"{path.name}: line {exc.lineno}: not valid JSON: {json_error(exc)}"
        ) from exc
    if not isinstance(exported, list):
        raise DataError(f"{path.name}: not a Label Studio JSON export (expected a list of tasks)")
    rows = []
    for number, task in enumerate(exported, 1):
        where = f"{path.name}: task {task.get('id', number) if isinstance(task, dict) else number}"
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            raise DataError(f"{where}: not a Label Studio task")
        qid = str(task["data"].get("qid", ""))
        for annotation in task.get("annotations") or []:
            if annotation.get("was_cancelled"):
                continue
            values: dict[str, Any] = {}
            for item in annotation.get("result") or []:
                value = item.get("value") or {}
                values[item.get("from_name")] = value.get("choices", value.get("text"))
            verdicts = values.get(VERDICT_CONTROL) or [""]
            note = values.get(NOTE_CONTROL) or []
            rows.append(
                RawVerdict(
                    where=f"{where} ({qid})",
                    reviewer=f"{path}:{_annotator(annotation)}",
                    qid=qid,
                    verdict=str(verdicts[0]),
                    sections=[str(s) for s in values.get(SECTIONS_CONTROL) or []],
                    note="\n".join(str(n) for n in note),
                )
            )
    return rows
