"""Write a seeded, generated build folder (corpus.jsonl, queries.tsv, qrels.trec) for `baseline`,
`check` and `eval`
at scale: Japanese-like text with no spaces, so every character 2- and 3-gram is a term.

Text is a stream of "words" (1-4 characters of kana, 2,000 kanji and a few Latin letters and
digits, characters and words both Zipf-distributed, a particle after most words) of which a
third come from the article's own topic words, so that a query drawn from a section's words
finds its article. Sections are 13 per article (the seed's 3,193 / 247) and log-normal in
length around a median of 260 characters: the issue's 105k-section set took 3.6 GB with the
old scikit-learn index, which at its ~90 bytes per document-term entry is ~40M entries, ~400
distinct n-grams per section, what 260-character sections give (the seed's own median, 1,021,
gives ~2,000: `--median 1021`). Queries are 2-4 of a section's words, the rarer ones more
often (content words, as in "RDPのポート番号"), joined by particles, at most 25 characters.

    PYTHONPATH=src /work/venv/bin/python benchmarks/make_scale_set.py --out /tmp/scale/set \\
        --sections 100000 --queries 100000 [--seed 0]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

SECTIONS_PER_ARTICLE = 13
MEDIAN_CHARS = 260  # see the docstring
WORD_TYPES = 30_000
TOPIC_WORDS = 24
TOPIC_SHARE = 1 / 3
PARTICLES = list("のにはをがでとも") + ["から", "まで", "する", "です", "ます"]


def _zipf(count: int, exponent: float) -> np.ndarray:
    weights = 1.0 / np.arange(1, count + 1) ** exponent
    return weights / weights.sum()


def alphabet() -> list[str]:
    kana = [chr(c) for c in range(0x3041, 0x3094)] + [chr(c) for c in range(0x30A1, 0x30F7)]
    kanji = [chr(0x4E00 + 7 * i) for i in range(2000)]
    latin = list("abcdefghijklmnopqrstuvwxyz0123456789")
    return kanji + kana + latin


def words(rng: np.random.Generator) -> np.ndarray:
    chars = alphabet()
    char_p = _zipf(len(chars), 0.9)
    lengths = rng.choice([1, 2, 2, 3, 3, 4], WORD_TYPES)
    drawn = rng.choice(len(chars), int(lengths.sum()), p=char_p)
    out, at = [], 0
    for length in lengths:
        out.append("".join(chars[c] for c in drawn[at : at + length]))
        at += length
    return np.array(out, dtype=object)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--sections", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--median", type=int, default=MEDIAN_CHARS, help="median section chars")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    vocabulary = words(rng)
    word_p = _zipf(WORD_TYPES, 1.05)
    particles = np.array(PARTICLES, dtype=object)
    articles = -(-args.sections // SECTIONS_PER_ARTICLE)
    topics = rng.choice(WORD_TYPES, (articles, TOPIC_WORDS))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    section_words: list[np.ndarray] = []

    def text_of(article: int, chars: int) -> tuple[str, np.ndarray]:
        count = max(2, chars // 3)  # a word and its particle average ~3 characters
        drawn = rng.choice(WORD_TYPES, count, p=word_p)
        topical = rng.random(count) < TOPIC_SHARE
        drawn[topical] = topics[article, rng.integers(0, TOPIC_WORDS, int(topical.sum()))]
        glue = np.where(
            rng.random(count) < 0.7, particles[rng.integers(0, len(particles), count)], ""
        )
        pieces = np.empty(2 * count, dtype=object)
        pieces[0::2] = vocabulary[drawn]
        pieces[1::2] = glue
        return "".join(pieces), drawn

    lengths = np.maximum(40, rng.lognormal(np.log(args.median), 0.6, args.sections)).astype(int)
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as handle:
        for number in range(args.sections):
            article, section = divmod(number, SECTIONS_PER_ARTICLE)
            name = f"a{article:05d}.html"
            heading, _ = text_of(article, int(rng.integers(10, 30)))
            text, drawn = text_of(article, int(lengths[number]))
            section_words.append(drawn)
            record = {
                "id": f"{name}#{section}",
                "article_id": name,
                "path": name,
                "url": None,
                "title": f"article {article}",
                "heading": heading,
                "text": text,
            }
            handle.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    per_article: dict[int, int] = {}
    qrels = open(out / "qrels.trec", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    with open(out / "queries.tsv", "w", encoding="utf-8") as handle:
        targets = rng.integers(0, args.sections, args.queries)
        for target in targets:
            article = int(target) // SECTIONS_PER_ARTICLE
            index = per_article.get(article, 0)
            per_article[article] = index + 1
            present = np.unique(section_words[int(target)])
            rarity = 1.0 / word_p[present]
            count = min(len(present), int(rng.integers(2, 5)))
            chosen = rng.choice(present, count, replace=False, p=rarity / rarity.sum())
            glue = particles[rng.integers(0, len(particles), count)]
            query = "".join(f"{vocabulary[w]}{g}" for w, g in zip(chosen, glue, strict=True))
            qid = f"a{article:05d}.html#q{index}"
            handle.write(f"{qid}\t{query[:25]}\n")
            # the query's own section is grade 2, the rest of its article 1 (as a build writes)
            first = article * SECTIONS_PER_ARTICLE
            for number in range(first, min(first + SECTIONS_PER_ARTICLE, args.sections)):
                grade = 2 if number == target else 1
                qrels.write(f"{qid} 0 a{article:05d}.html#{number - first} {grade}\n")
    qrels.close()
    print(f"{args.sections} sections in {articles} articles, {args.queries} queries -> {out}")


if __name__ == "__main__":
    main()
