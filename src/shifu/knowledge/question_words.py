"""BM25 over the question bank's own questions: bank questions near a query by the words they share.

The dense neighbours of a query are the bank questions that mean much the same. A paraphrase that
keeps the decisive words (a law's name, a term of art, a figure) can still drift away in vector
space; ranking the bank's questions lexically finds it. Kept in memory: a bank holds thousands of
short questions, not a corpus, so an inverted index over them costs little and needs no engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from shifu.knowledge.text import Bm25Encoder, term_id, tokenize


@dataclass(frozen=True)
class WordMatch:
    """A bank question sharing words with the query; `relative` is its BM25 score ÷ the best one's."""

    question: str
    relative: float


class QuestionWords:
    """An inverted BM25 index over distinct questions: tokens and saturated term weights as the
    engine's sparse vectors have them (`tokenize`, `Bm25Encoder.document`), IDF computed here."""

    def __init__(self, questions: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.questions = tuple(dict.fromkeys(questions))
        token_lists = [tokenize(question) for question in self.questions]
        average = sum(map(len, token_lists)) / len(token_lists) if token_lists else 1.0
        encoder = Bm25Encoder(k1=k1, b=b, avg_len=max(average, 1e-9))
        self._postings: dict[int, list[tuple[int, float]]] = {}
        for position, tokens in enumerate(token_lists):
            terms = encoder.document(tokens)
            for term, saturated in zip(terms.indices, terms.values, strict=True):
                self._postings.setdefault(term, []).append((position, saturated))
        total = len(self.questions)
        self._idf = {
            term: math.log(1 + (total - len(hits) + 0.5) / (len(hits) + 0.5))
            for term, hits in self._postings.items()
        }

    def __len__(self) -> int:
        return len(self.questions)

    def nearest(self, tokens: Sequence[str], n: int, skip: str | None = None) -> list[WordMatch]:
        """The `n` questions with the highest BM25 score for the query `tokens`, best first.

        Questions sharing no term are never returned; `skip` leaves one question out (leave-one-out
        evaluation). Ties are broken by question text, so the order is reproducible.
        """
        if n <= 0:
            return []
        scores: dict[int, float] = {}
        for term in {term_id(token) for token in tokens}:
            weight = self._idf.get(term)
            if weight is None:
                continue
            for position, saturated in self._postings[term]:
                scores[position] = scores.get(position, 0.0) + weight * saturated
        ranked = sorted(
            ((self.questions[p], score) for p, score in scores.items() if self.questions[p] != skip),
            key=lambda item: (-item[1], item[0]),
        )[:n]
        if not ranked or ranked[0][1] <= 0:
            return []
        top = ranked[0][1]
        return [WordMatch(question, score / top) for question, score in ranked]
