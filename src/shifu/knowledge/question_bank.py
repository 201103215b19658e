"""The question bank (已标注问法库): curated questions and the fragment each one was answered from.

A deployment accumulates (question → cited document + locator) pairs from answered questions
that operators reviewed. Search uses them as learned priors: the bank questions nearest to a
new query (by meaning, and by the words they share with it) vote for the fragments they cite and
for the documents those fragments belong to.
The bank never grants access: its citations are resolved inside the index under the caller's
authorization filter, so an entry citing a retired, draft or unauthorized fragment votes for
nothing the caller can see.

Format: JSONL, one `{"question": str, "document_key": str, "locator": str}` per line; blank
lines are skipped; any other malformed line is an error naming `file:line`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shifu.errors import ConfigurationError
from shifu.knowledge.embedding import Embedder, Vectors
from shifu.knowledge.index.base import Citation
from shifu.knowledge.question_words import QuestionWords


class BankEntry(BaseModel):
    """One curated pair: a question and the (document_key, locator) that answers it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    question: str = Field(min_length=1)
    document_key: str = Field(min_length=1)
    locator: str = Field(min_length=1)

    @property
    def citation(self) -> Citation:
        """The fragment this entry cites, as the index resolves it."""
        return (self.document_key, self.locator)


BANK_INVALID = "QUESTION_BANK_INVALID"
"""Code of the ConfigurationError raised for an unreadable bank file or an invalid line."""


def read_entries(path: Path) -> list[BankEntry]:
    """Every entry of a JSONL bank; the first invalid line raises with `file:line` and the reason."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"{path}: cannot read question bank: {exc}", code=BANK_INVALID) from exc
    entries: list[BankEntry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entries.append(BankEntry.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError) as exc:
            reason = str(exc).splitlines()[0] if isinstance(exc, json.JSONDecodeError) else _reason(exc)
            message = f"{path}:{number}: invalid question bank entry: {reason}"
            raise ConfigurationError(message, code=BANK_INVALID) from exc
    return entries


def _reason(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors())


@dataclass(frozen=True)
class Neighbour:
    """A bank question near the query, with its cosine similarity."""

    entry: BankEntry
    similarity: float


class QuestionBank:
    """Bank entries with their question vectors (unit length) and a BM25 index of their questions, kept
    in memory for nearest lookups by meaning and by shared words."""

    def __init__(
        self,
        entries: Sequence[BankEntry],
        vectors: Vectors,
        skip: str | None = None,
        words: QuestionWords | None = None,
    ) -> None:
        if len(entries) != len(vectors):
            raise ValueError("one vector per bank entry expected")
        self.entries = tuple(entries)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True) if len(vectors) else np.ones((0, 1))
        self._vectors: NDArray[np.float32] = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
        self._skip = skip
        self._words = words if words is not None else QuestionWords([e.question for e in self.entries])
        self._by_question: dict[str, list[BankEntry]] = {}
        for entry in self.entries:
            self._by_question.setdefault(entry.question, []).append(entry)

    def __len__(self) -> int:
        return len(self.entries)

    def excluding(self, question: str) -> QuestionBank:
        """The same bank without the entries of `question` (leave-one-out evaluation)."""
        return QuestionBank(self.entries, self._vectors, skip=question, words=self._words)

    def nearest(self, vector: Vectors, n: int) -> list[Neighbour]:
        """The `n` most similar bank questions to a query vector, best first."""
        if not self.entries or n <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        similarity = self._vectors @ (query / max(float(np.linalg.norm(query)), 1e-12))
        order = np.argsort(-similarity, kind="stable")
        found: list[Neighbour] = []
        seen: set[str] = set()
        for i in order:
            entry = self.entries[int(i)]
            if entry.question == self._skip:
                continue
            if entry.question not in seen:
                if len(seen) == n:
                    break
                seen.add(entry.question)
            found.append(Neighbour(entry, float(similarity[int(i)])))
        return found

    def lexical_nearest(self, tokens: Sequence[str], n: int) -> list[Neighbour]:
        """The entries of the `n` bank questions sharing the most BM25 weight with the query `tokens`,
        best first; a neighbour's similarity is its question's score ÷ the best score (1 for the first)."""
        return [
            Neighbour(entry, match.relative)
            for match in self._words.nearest(tokens, n, skip=self._skip)
            for entry in self._by_question[match.question]
        ]


def embed_bank(entries: Sequence[BankEntry], embed_questions: Callable[[list[str]], Vectors]) -> QuestionBank:
    """Embed each distinct question once (as a query) and build the in-memory bank."""
    questions = list(dict.fromkeys(e.question for e in entries))
    if not questions:
        return QuestionBank([], np.zeros((0, 1), dtype=np.float32))
    vectors = np.asarray(embed_questions(questions), dtype=np.float32)
    row = {q: i for i, q in enumerate(questions)}
    return QuestionBank(entries, vectors[[row[e.question] for e in entries]])


class QueryTexts:
    """An Embedder whose `passages` embeds texts as queries, so the passage cache can keep bank vectors.

    Its model id differs from the wrapped one, so cached query vectors never mix with passage vectors.
    """

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner

    @property
    def model_id(self) -> str:
        """The wrapped model's id, marked as query embeddings."""
        return f"{self._inner.model_id}#query"

    @property
    def dim(self) -> int:
        """The wrapped model's vector size."""
        return self._inner.dim

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Query embeddings of `texts`, one row each."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([np.asarray(self._inner.query(t), dtype=np.float32).reshape(-1) for t in texts])

    def query(self, text: str) -> Vectors:
        """The wrapped query embedding."""
        return self._inner.query(text)
