"""RGB zh_refine: loading, the 5-passage sets per noise ratio, and the RGB answer-matching rules.

The data is CC BY-NC-SA (internal evaluation only): it is read in place from the shared data
folder and never copied into the repository. Passage files written for ingestion live in a
temporary directory that is removed after the run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
NOISE_RATIOS: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
PASSAGES_PER_SET = 5
SEED = 20240101


def data_dir() -> Path:
    """`SHIFU_BENCH_DATA` or `<repo>/../shared/data/bench`."""
    value = os.environ.get("SHIFU_BENCH_DATA")
    return Path(value) if value else REPO.parent / "shared" / "data" / "bench"


@dataclass(frozen=True)
class Question:
    """One RGB instance."""

    qid: int
    query: str
    answer: list[Any]
    positive: list[str]
    negative: list[str]


@dataclass(frozen=True)
class Passage:
    """One passage of a set, with the stable file stem it is ingested under."""

    stem: str
    text: str
    positive: bool


@dataclass(frozen=True)
class PassageSet:
    """The 5 passages of one (question, noise ratio) pair, shuffled with the fixed seed."""

    question: Question
    ratio: float
    passages: tuple[Passage, ...]

    @property
    def key(self) -> str:
        """Identifies the set (also the knowledge space it is ingested into)."""
        return f"rgb-q{self.question.qid:03d}-r{int(self.ratio * 10):02d}"


def load_questions(path: Path | None = None) -> list[Question]:
    """Every instance of zh_refine.json (JSON Lines)."""
    source = path or data_dir() / "rgb" / "zh_refine.json"
    questions: list[Question] = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            questions.append(
                Question(int(row["id"]), row["query"], row["answer"], row["positive"], row["negative"])
            )
    return questions


def passage_stem(text: str) -> str:
    """A neutral, content-derived file stem: the same passage always gets the same title."""
    return "资料" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def build_set(question: Question, ratio: float, rng: random.Random) -> PassageSet:
    """RGB's recipe: ceil(5r) negatives and the rest positives, each taken in order, then shuffled."""
    n_negative = math.ceil(PASSAGES_PER_SET * ratio - 1e-9)
    chosen = [Passage(passage_stem(t), t, False) for t in question.negative[:n_negative]]
    chosen += [Passage(passage_stem(t), t, True) for t in question.positive[: PASSAGES_PER_SET - n_negative]]
    unique = list({p.stem: p for p in chosen}.values())
    rng.shuffle(unique)
    return PassageSet(question, ratio, tuple(unique))


def build_sets(questions: list[Question], ratios: tuple[float, ...] = NOISE_RATIOS) -> list[PassageSet]:
    """All sets, in a fixed order with a fixed seed."""
    rng = random.Random(SEED)
    return [build_set(q, r, rng) for q in questions for r in ratios]


def _norm(text: str) -> str:
    return "".join(text.split()).lower()


def answer_elements(answer: list[Any]) -> list[list[str]]:
    """Every required element as its list of acceptable alternatives."""
    return [[str(a) for a in item] if isinstance(item, list) else [str(item)] for item in answer]


def contains_answer(text: str, answer: list[Any]) -> bool:
    """RGB's rule: every required element appears (any alternative), case-insensitive, spaces removed."""
    haystack = _norm(text)
    return all(any(_norm(alt) in haystack for alt in alts) for alts in answer_elements(answer))
