"""Does a fragment state an answer of the kind the question asks for, about its subject?

A rule-shaped or on-topic passage is not an answer: for 开幕式总导演是谁 the fragment must
name a person or role, in a sentence that (with the sentence before it) is about the
question's subject and names what the span is asked of (导演, 加冕: `nlp.attribute`),
states the question's ordinals and model numbers (第28届 is not 第27届; a sentence naming
神舟十七号 is not about 神舟十六号) and is not dated to another year than the one asked.
This is part of condition 3 of seed 000: the body independently supports the claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shifu.evidence.relevance import relevance, term_coverage
from shifu.nlp.answer_kind import AnswerKind, answer_kind, states_an_answer
from shifu.nlp.attribute import asked_attributes, wordings
from shifu.nlp.instances import (
    names_identifiers,
    names_other_identifier,
    names_other_year,
    question_identifiers,
    question_years,
)
from shifu.nlp.lists import ITEM_LINE, LEAD_IN_END
from shifu.nlp.names import names_other_qualified, qualified_names
from shifu.nlp.terms import QuestionTerms

SENTENCE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;]?")
"""One sentence, a list item or a clause ending in ；, with its closing mark."""

CONTEXT_SCORE = 0.7
"""Weighted share of the question's terms the answering sentence and its predecessor must cover."""
SENTENCE_SCORE = 0.5
"""Weighted share the answering sentence must cover on its own (the answer sits beside its subject)."""


@dataclass(frozen=True, slots=True)
class AnswerAsk:
    """The kind of answer a question asks for and the identifiers that pin it down."""

    kind: AnswerKind
    question: str
    identifiers: tuple[str, ...]
    years: frozenset[int]
    qualified: tuple[tuple[str, str], ...] = ()
    attributes: tuple[str, ...] = ()

    @classmethod
    def of(cls, question: str, terms: QuestionTerms) -> AnswerAsk | None:
        """None when the question asks for no particular kind of answer (`terms` are its salient terms)."""
        kind = answer_kind(question)
        if kind is None:
            return None
        return cls(
            kind,
            question,
            question_identifiers(question),
            question_years(question),
            tuple(qualified_names(question, remember=False)),
            asked_attributes(question, terms),
        )


def items_after(sentences: list[str], index: int) -> list[str]:
    """The numbered items that follow the lead-in at `index` ((一)…, 1. …), up to the first non-item."""
    items: list[str] = []
    for sentence in sentences[index + 1 :]:
        if not ITEM_LINE.match(sentence):
            break
        items.append(sentence)
    return items


def speaks_of_attribute(attributes: tuple[str, ...], text: str) -> bool:
    """True when `text` names one of the question's asked attributes, in any of its wordings."""
    if not attributes:
        return True
    return any(
        term_coverage(wording, text) >= 1.0 for attribute in attributes for wording in wordings(attribute)
    )


def answering_sentences(ask: AnswerAsk, terms: QuestionTerms, body: str, heading: str = "") -> list[str]:
    """The sentences of `body` that state an answer of the asked kind about the question's subject.

    `heading` (the fragment's title, heading path and locator) names the subject of every
    sentence under it: 四、电梯困人 … "维保人员在60分钟内到场" is about 电梯困人; so does the
    fragment's lead sentence for the most specific terms (an untitled passage names its subject
    first), though not for the share of terms the context must cover. A fragment
    dated to other years only (a report on 2001 to 2008) answers nothing about the year asked,
    not even in its undated sentences ("此后报考人数一路飙升").
    """
    if names_other_year(heading + body, ask.years):
        return []
    sentences = [part.strip() for part in SENTENCE.findall(body) if part.strip()]
    found: list[str] = []
    for index, sentence in enumerate(sentences):
        # A lead-in (有下列行为之一的，处五千元以上罚款：) speaks of the items it introduces.
        listed = "".join(items_after(sentences, index)) if sentence.endswith(LEAD_IN_END) else ""
        context = heading + "".join(sentences[max(0, index - 1) : index + 1]) + listed
        if not names_identifiers(context, ask.identifiers):
            continue
        if names_other_identifier(sentence, ask.identifiers) or names_other_year(sentence, ask.years):
            continue
        fit = relevance(terms, context)
        if fit.score < CONTEXT_SCORE or not (
            fit.required_covered or relevance(terms, sentences[0] + context).required_covered
        ):
            continue
        if relevance(terms, heading + sentence + listed).score < SENTENCE_SCORE:
            continue
        if names_other_qualified(sentence, ask.qualified):
            continue
        if not speaks_of_attribute(ask.attributes, context):
            continue
        # Last, being the costliest: does the sentence state a span of the asked kind?
        if states_an_answer(ask.kind, sentence, ask.question):
            found.append(sentence)
    return found
