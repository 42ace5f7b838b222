"""The kinds of ``qrelsmith export KIND``: a build in another tool's layout, one registry.

``EXPORT_KINDS`` is the registry (hf, pyserini, ragas ...): each kind writes into a staging
folder swapped in whole by ``export``. What a build folder itself holds (corpus, golden set,
TREC, BEIR) is written by ``store/formats/``, which no export kind's library weighs on.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DataError
from ..store import layout
from ..store.files import StagedFolder
from . import autorag, deepeval, hf, irds, llamaindex, pyserini, ragas
from .records import ExportKind, ExportSource, KindOption

_HF_EPILOG = """examples:
  qrelsmith export hf out --out out-hf --license cc-by-4.0 --language ja --language en
  qrelsmith export hf out/versions/v1 --out out-hf --license mit --language en --format jsonl

Writes the layout MTEB's retrieval tasks load from the Hugging Face Hub or a folder: configs
corpus, queries and default (the qrels), each with a test split, as Parquet (needs
pip install 'qrelsmith[hf]') or JSON lines, and README.md, the dataset card: YAML header
(title, configs, languages, the licence you state, size category) and how the labels were
made, from report.json, with the review's precision when a review of these labels was
applied. Give a version folder (versions/vN) to export the reviewed labels. OUT is replaced
whole (its other entries, such as .git, kept). Load it with
datasets.load_dataset("out-hf", "corpus", split="test"), or push it with
huggingface-cli upload."""


def _epilog(example: str, load: str) -> str:
    return f"example:\n  {example}\n\n{load} OUT is replaced whole (its other entries kept)."


#: ``qrelsmith export KIND``: name -> kind. The CLI's choices and options come from here.
EXPORT_KINDS: dict[str, ExportKind] = {
    "hf": ExportKind(
        help="Hugging Face dataset for MTEB: corpus, queries, qrels and a dataset card",
        description="Write a build as a Hugging Face dataset in MTEB's retrieval layout.",
        write=hf.write,
        entries=hf.OWN_ENTRIES,
        options=(
            KindOption(
                "--license",
                "the dataset's licence as an SPDX or Hub licence id (cc-by-4.0, mit, other ...; "
                "one word): stated by you, never guessed from the pages",
                required=True,
                metavar="ID",
            ),
            KindOption(
                "--language",
                "a language of the pages (ISO 639-1, e.g. en); repeat for each",
                required=True,
                repeat=True,
                metavar="CODE",
            ),
            KindOption("--format", "default: parquet", choices=hf.FORMATS, default="parquet"),
            KindOption(
                "--name", "the card's title, on one line (default: the build folder's name)"
            ),
        ),
        epilog=_HF_EPILOG,
    ),
    "pyserini": ExportKind(
        help="Pyserini/Anserini: a JsonCollection (id, contents), topics.tsv and qrels.trec",
        description="Write a build as a Pyserini JsonCollection with its topics and qrels.",
        write=pyserini.write,
        entries=pyserini.ENTRIES,
        epilog=_epilog(
            "qrelsmith export pyserini out --out out-pyserini",
            "Index it with python -m pyserini.index.lucene --collection JsonCollection --input "
            "OUT/corpus ...; search with --topics OUT/topics.tsv.",
        ),
    ),
    "ragas": ExportKind(
        help="Ragas: user_input, reference, reference_contexts, reference_context_ids",
        description="Write a build as a Ragas EvaluationDataset (JSON lines).",
        write=ragas.write,
        entries=ragas.ENTRIES,
        epilog=_epilog(
            "qrelsmith export ragas out --out out-ragas",
            'Load it with EvaluationDataset.from_jsonl("OUT/ragas.jsonl").',
        ),
    ),
    "deepeval": ExportKind(
        help="DeepEval goldens: input, expected_output, context, source_file",
        description="Write a build as DeepEval goldens (JSON).",
        write=deepeval.write,
        entries=deepeval.ENTRIES,
        epilog=_epilog(
            "qrelsmith export deepeval out --out out-deepeval",
            'Load it with EvaluationDataset().add_goldens_from_json_file("OUT/goldens.json", ...).',
        ),
    ),
    "llamaindex": ExportKind(
        help="LlamaIndex EmbeddingQAFinetuneDataset JSON: queries, corpus, relevant_docs",
        description="Write a build as a LlamaIndex EmbeddingQAFinetuneDataset.",
        write=llamaindex.write,
        entries=llamaindex.ENTRIES,
        epilog=_epilog(
            "qrelsmith export llamaindex out --out out-llamaindex",
            'Load it with EmbeddingQAFinetuneDataset.from_json("OUT/llamaindex.json").',
        ),
    ),
    "autorag": ExportKind(
        help="AutoRAG: qa.parquet and corpus.parquet (needs the [hf] extra's pyarrow)",
        description="Write a build as AutoRAG's qa.parquet and corpus.parquet.",
        write=autorag.write,
        entries=autorag.ENTRIES,
        epilog=_epilog(
            "qrelsmith export autorag out --out out-autorag",
            "Give OUT/qa.parquet and OUT/corpus.parquet to AutoRAG's Evaluator.",
        ),
    ),
    "ir_datasets": ExportKind(
        help="ir_datasets: docs.tsv, queries.tsv, qrels.trec and dataset.py (create_dataset)",
        description="Write a build for ir_datasets.create_dataset, with a loader.",
        write=irds.write,
        entries=irds.ENTRIES,
        epilog=_epilog(
            "qrelsmith export ir_datasets out --out out-irds",
            "Load it with OUT/dataset.py's load() (ir_datasets.create_dataset).",
        ),
    ),
}


def export(kind: str, out: str | Path, source: ExportSource) -> str:
    """Write ``source`` as ``kind`` into ``out``, staged and swapped in whole (a failed export
    leaves the previous one as it was; entries of ``out`` the kind does not write are kept);
    returns the summary's counts. DataError for a set without queries."""
    if not source.queries:  # a dataset of documents and no question is no test set
        raise DataError(f"{source.folder / layout.GOLDEN}: no queries to export")
    chosen = EXPORT_KINDS[kind]
    with StagedFolder(out, what=f"export {kind}") as staged:
        summary = chosen.write(staged.path, source)
        staged.commit(keep=lambda name: name not in chosen.entries)
    return summary
