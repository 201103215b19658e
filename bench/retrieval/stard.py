"""STARD data (reconstructed corpus, qrels, splits) and the paper's metrics."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bench.retrieval.data import stard_dir


@dataclass(frozen=True)
class Stard:
    """Queries, gold article ids and the corpus (ids, names, contents) of the reconstructed STARD."""

    queries: dict[int, str]
    gold: dict[int, set[str]]
    dev: list[int]
    train: list[int]
    corpus_ids: list[str]
    names: list[str]
    contents: list[str]
    in_kb: list[int]
    in_kb_gold_names: dict[int, set[str]]


def _split_ids(name: str) -> list[int]:
    path = stard_dir() / "split" / name
    return [
        int(line.split("\t", 1)[0]) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def load_stard() -> Stard:
    """Read every STARD file the benchmark uses (never the provenance file)."""
    root = stard_dir()
    queries = {
        int(q["query_id"]): str(q["问题"]) for q in json.loads((root / "queries.json").read_text("utf-8"))
    }
    gold: dict[int, set[str]] = defaultdict(set)
    for row in csv.reader((root / "qrels_reconstructed.tsv").open(encoding="utf-8"), delimiter="\t"):
        gold[int(row[0])].add(row[1])
    ids, names, contents = [], [], []
    for line in (root / "corpus_reconstructed.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        ids.append(record["id"])
        names.append(record["name"])
        contents.append(record["content"])
    in_kb: list[int] = []
    in_kb_names: dict[int, set[str]] = {}
    with (root / "demo_kb_coverage.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["status"] == "all_gold_in_kb":
                qid = int(row["query_id"])
                in_kb.append(qid)
                in_kb_names[qid] = {n for n in row["gold_in_demo_kb"].split("|") if n}
    return Stard(
        queries=queries,
        gold=dict(gold),
        dev=_split_ids("dev.query.txt"),
        train=_split_ids("train.query.txt"),
        corpus_ids=ids,
        names=names,
        contents=contents,
        in_kb=in_kb,
        in_kb_gold_names=in_kb_names,
    )


def stopwords() -> set[str]:
    """STARD's own stop-word list (used by the plain BM25 baseline only)."""
    return set((stard_dir() / "split" / "cn_stopwords.txt").read_text(encoding="utf-8").split())


def metrics(
    ranked: dict[int, Sequence[str]], gold: dict[int, set[str]], qids: Sequence[int]
) -> dict[str, float]:
    """Recall@5/10/100 (|gold ∩ top-k| / |gold|, averaged) and MRR@10, as in the STARD paper."""
    out: dict[str, float] = {}
    for k in (5, 10, 100):
        out[f"R@{k}"] = sum(len(set(ranked[q][:k]) & gold[q]) / len(gold[q]) for q in qids) / len(qids)
    mrr = 0.0
    for q in qids:
        for rank, doc in enumerate(ranked[q][:10], 1):
            if doc in gold[q]:
                mrr += 1 / rank
                break
    out["MRR@10"] = mrr / len(qids)
    return {key: round(value, 4) for key, value in out.items()}
