"""A trained model of how staff phrase requests: intent, domain, evidence needs and tool set.

The ADR rejects keyword and regex routing; instead this module learns from the labeled
utterance set kept in the repository (`data/utterances.jsonl`: paraphrases, colloquial
and dialect forms, typos, mixed intents). Features are character 1–3-grams (robust to
typos and to Chinese without word boundaries) plus one marker character per entity kind
the deterministic extractor found (a date, an amount, a person …), so an unseen name or
date still looks like one. Intent probabilities are calibrated (sigmoid, cross-validated)
because the planner turns a low probability into CLARIFY rather than guessing.

Fitting takes about a second; the fitted model is cached per data-file hash in-process.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

from shifu.contracts.common import EvidenceNeed, Intent, ToolCode
from shifu.contracts.entities import ExtractedEntities
from shifu.nlp.entities import extract_entities, normalize_text

logger = logging.getLogger(__name__)

DATA_FILE = Path(__file__).parent / "data" / "utterances.jsonl"
"""The labeled utterance set the deterministic planner learns from."""

NO_LABEL = "NONE"
_TRAINING_NOW = datetime(2026, 1, 15, 2, 0, tzinfo=UTC)
_TRAINING_TZ = ZoneInfo("Asia/Shanghai")
ToolSet = frozenset[ToolCode]

_MARKERS = {
    "dates": "\ue000",
    "amounts": "\ue001",
    "persons": "\ue002",
    "ordinals": "\ue003",
    "document_refs": "\ue004",
    "locations": "\ue005",
    "comparators": "\ue006",
    "durations": "\ue007",
    "negations": "\ue008",
}


@dataclass(frozen=True)
class Utterance:
    """One labeled example."""

    text: str
    intent: Intent
    domain: str | None
    needs: tuple[EvidenceNeed, ...]
    tools: ToolSet


@dataclass(frozen=True)
class Prediction:
    """What the model believes about one question."""

    intents: tuple[tuple[Intent, float], ...]
    """Calibrated intent probabilities, best first."""
    domain: str | None
    """Most likely business domain, None when the question has none."""
    needs: tuple[EvidenceNeed, ...]
    """Evidence needs predicted present."""
    tool_sets: tuple[tuple[ToolSet, float], ...]
    """Tool sets with their scores, best first."""


def load_utterances(path: Path = DATA_FILE) -> list[Utterance]:
    """Read the JSONL utterance set; unknown intents/needs/tools are rejected loudly."""
    rows: list[Utterance] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        rows.append(
            Utterance(
                text=raw["text"],
                intent=Intent(raw["intent"]),
                domain=raw.get("domain") or None,
                needs=tuple(EvidenceNeed(n) for n in raw.get("needs", [])),
                tools=frozenset(ToolCode(t) for t in raw.get("tools", [])),
            )
        )
    return rows


_LENGTH_MARKERS = ((2, "\ue010"), (4, "\ue011"), (7, "\ue012"))
"""(max content characters, marker): how short a message is, so the model can learn that a bare
topic word ("押金") is not yet a question while a short request with a verb ("我的待办") is."""
_CONTENT_CHAR = re.compile(r"[\w\u4e00-\u9fff]")


def length_marker(text: str) -> str:
    """The length-bucket marker of a message ('' when it is long enough to be a sentence)."""
    size = len(_CONTENT_CHAR.findall(text))
    return next((marker for limit, marker in _LENGTH_MARKERS if size <= limit), "")


def featurize(text: str, entities: ExtractedEntities | None) -> str:
    """The text the vectorizer sees: normalized question plus length and entity-kind markers."""
    base = normalize_text(text).lower()
    markers = length_marker(base)
    if entities is not None:
        markers += "".join(marker for field, marker in _MARKERS.items() if getattr(entities, field))
    return f"{base} {markers}" if markers else base


def tool_set_label(tools: ToolSet) -> str:
    """A stable class label for a tool set."""
    return "+".join(sorted(tools)) if tools else NO_LABEL


def _label_tool_set(label: str) -> ToolSet:
    return frozenset() if label == NO_LABEL else frozenset(ToolCode(t) for t in label.split("+"))


def _linear(X: Any, labels: Sequence[str]) -> tuple[list[str], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Fit a one-vs-rest linear SVM; return classes, weights (features × classes) and biases.

    A single class (tiny fixtures) scores constantly; two classes become two opposite columns.
    """
    classes = sorted(set(labels))
    if len(classes) == 1:
        return classes, np.zeros((X.shape[1], 1)), np.ones(1)
    model = LinearSVC(C=0.5)
    model.fit(X, list(labels))
    coef, bias = np.asarray(model.coef_), np.asarray(model.intercept_)
    if len(classes) == 2:
        coef, bias = np.vstack([-coef, coef]), np.concatenate([-bias, bias])
    return [str(c) for c in model.classes_], coef.T, bias


@dataclass(frozen=True)
class _Head:
    """Columns of the stacked weight matrix that belong to one model."""

    classes: list[str]
    start: int
    stop: int


class UtteranceClassifier:
    """Fitted intent, domain, evidence-need and tool-set models over one feature space.

    All heads are linear, so their weights are stacked into one matrix and a question is
    scored with a single sparse row × dense matrix product (well under a millisecond);
    sklearn is used to fit, not to predict.
    """

    def __init__(self, utterances: Sequence[Utterance], entities: Sequence[ExtractedEntities | None]) -> None:
        if not utterances:
            raise ValueError("no utterances to learn from")
        docs = [featurize(u.text, e) for u, e in zip(utterances, entities, strict=True)]
        vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3), sublinear_tf=True)
        X = vectorizer.fit_transform(docs)
        self._analyzer = vectorizer.build_analyzer()
        self._vocabulary: dict[str, int] = {str(k): int(v) for k, v in vectorizer.vocabulary_.items()}
        self._idf = np.asarray(vectorizer.idf_)
        weights: list[np.ndarray[Any, Any]] = []
        biases: list[np.ndarray[Any, Any]] = []

        def add(classes: list[str], coef: np.ndarray[Any, Any], bias: np.ndarray[Any, Any]) -> _Head:
            start = sum(w.shape[1] for w in weights)
            weights.append(coef)
            biases.append(bias)
            return _Head(classes, start, start + coef.shape[1])

        self._intent, self._calibration = self._fit_intents(X, [u.intent.value for u in utterances], add)
        self._domain = add(*_linear(X, [u.domain or NO_LABEL for u in utterances]))
        self._tool_sets = add(*_linear(X, [tool_set_label(u.tools) for u in utterances]))
        self._needs: dict[EvidenceNeed, _Head] = {}
        for need in EvidenceNeed:
            flags = ["1" if need in u.needs else "0" for u in utterances]
            if "1" in flags and "0" in flags:
                self._needs[need] = add(*_linear(X, flags))
        self._weights = np.hstack(weights)
        self._bias = np.concatenate(biases)

    @staticmethod
    def _fit_intents(
        X: Any, intents: list[str], add: Any
    ) -> tuple[_Head, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None]:
        """Intent head; sigmoid-calibrated on held-out folds when every class has enough examples."""
        smallest = min(intents.count(i) for i in set(intents))
        if len(set(intents)) < 3 or smallest < 2:
            return add(*_linear(X, intents)), None
        model = CalibratedClassifierCV(
            LinearSVC(C=0.5), method="sigmoid", cv=min(3, smallest), ensemble=False
        )
        model.fit(X, intents)
        fitted = model.calibrated_classifiers_[0]
        svc = fitted.estimator
        head = add([str(c) for c in svc.classes_], np.asarray(svc.coef_).T, np.asarray(svc.intercept_))
        a = np.array([c.a_ for c in fitted.calibrators], dtype=float)
        b = np.array([c.b_ for c in fitted.calibrators], dtype=float)
        return head, (a, b)

    def _features(self, doc: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Sublinear, idf-weighted, L2-normalized char n-gram features as (indices, values)."""
        counts: dict[int, int] = {}
        for gram in self._analyzer(doc):
            index = self._vocabulary.get(gram)
            if index is not None:
                counts[index] = counts.get(index, 0) + 1
        if not counts:
            return np.zeros(0, dtype=int), np.zeros(0)
        indices = np.fromiter(counts.keys(), dtype=int, count=len(counts))
        values = (1.0 + np.log(np.fromiter(counts.values(), dtype=float, count=len(counts)))) * self._idf[
            indices
        ]
        return indices, values / np.linalg.norm(values)

    def scores(self, text: str, entities: ExtractedEntities | None) -> np.ndarray[Any, Any]:
        """Raw scores of every head for one question (tests compare them with sklearn)."""
        indices, values = self._features(featurize(text, entities))
        return self._bias + (values @ self._weights[indices] if len(indices) else 0.0)

    def predict(self, text: str, entities: ExtractedEntities | None) -> Prediction:
        """Score one question."""
        z = self.scores(text, entities)
        raw = z[self._intent.start : self._intent.stop]
        if self._calibration is not None:
            a, b = self._calibration
            probs = 1.0 / (1.0 + np.exp(a * raw + b))
            total = probs.sum()
            probs = probs / total if total > 0 else np.full_like(probs, 1.0 / len(probs))
        else:
            exp = np.exp(raw - raw.max())
            probs = exp / exp.sum()
        intents = sorted(
            ((Intent(c), float(p)) for c, p in zip(self._intent.classes, probs, strict=True)),
            key=lambda pair: -pair[1],
        )
        domain = self._domain.classes[int(np.argmax(z[self._domain.start : self._domain.stop]))]
        tool_sets = sorted(
            (
                (_label_tool_set(c), float(s))
                for c, s in zip(
                    self._tool_sets.classes, z[self._tool_sets.start : self._tool_sets.stop], strict=True
                )
            ),
            key=lambda pair: -pair[1],
        )
        needs = tuple(need for need, head in self._needs.items() if z[head.stop - 1] > 0)
        return Prediction(
            intents=tuple(intents),
            domain=None if domain == NO_LABEL else domain,
            needs=needs,
            tool_sets=tuple(tool_sets),
        )


_CACHE: dict[str, UtteranceClassifier] = {}
_LOCK = threading.Lock()


def data_fingerprint(path: Path) -> str:
    """SHA-256 of the utterance file; the cache key of a fitted model."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def trained_classifier(path: Path = DATA_FILE) -> UtteranceClassifier:
    """The classifier fitted on `path`, trained once per process and data-file content."""
    key = data_fingerprint(path)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None:
            utterances = load_utterances(path)
            entities = [extract_entities(u.text, now=_TRAINING_NOW, tz=_TRAINING_TZ) for u in utterances]
            cached = UtteranceClassifier(utterances, entities)
            _CACHE[key] = cached
            logger.info("planning classifier trained", extra={"examples": len(utterances), "data": key[:12]})
        return cached
