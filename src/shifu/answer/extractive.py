"""The default composer: deterministic, extractive, bound to this round's gated evidence.

It selects, orders and structures verbatim spans of the fragments that cover a slot,
and describes live facts from their fields. Uncovered slots contribute only a
缺失信息 line — never content. Nothing in evidence text is ever interpreted.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from shifu.answer.spans import numbered_steps, select_spans, sentences
from shifu.answer.wording import (
    LIVE_SUMMARY,
    PARTIAL_PREFIX,
    clarifying_questions,
    missing_information,
)
from shifu.contracts.answer import GroundedAnswer, Statement, Step
from shifu.contracts.common import LAW_AUTHORITIES, DecisionStatus, EvidenceNeed
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact
from shifu.contracts.plan import SemanticQueryPlan
from shifu.nlp.lists import ITEM_MARK, LEAD_IN_END

EXTRACTIVE = "EXTRACTIVE"
MAX_STEPS = 12

_FACT_FIELDS: tuple[tuple[str, str], ...] = (
    ("dueDate", "截止"),
    ("due_date", "截止"),
    ("date", "日期"),
    ("statusLabel", "状态"),
    ("status", "状态"),
    ("count", "数量"),
    ("score", "得分"),
    ("recordCount", "练习次数"),
    ("averageScore", "平均分"),
    ("pendingReviewCount", "待复盘"),
)
_TITLE_FIELDS = ("title", "name", "summary", "label")


def _scalar(value: JsonValue) -> str | None:
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        return None
    return str(value)


def describe_fact(fact: VerifiedFact) -> str:
    """One line for a live fact: its label, its title and a few well-known fields, copied as-is."""
    title = next((text for key in _TITLE_FIELDS if (text := _scalar(fact.value.get(key))) is not None), None)
    shown: dict[str, str] = {}
    for key, word in _FACT_FIELDS:
        text = _scalar(fact.value.get(key))
        if text is not None and word not in shown:
            # The reader's label (statusLabel 未完成) wins over the system's code (status OPEN).
            shown[word] = text
    extras = [f"{word} {text}" for word, text in shown.items()]
    head = f"{fact.label}：{title}" if title else fact.label
    return f"{head}（{'，'.join(extras)}）" if extras else head


def _source_phrase(docs: Sequence[DocumentEvidence]) -> str:
    names = list(dict.fromkeys(f"《{doc.title}》（{doc.version}）" for doc in docs))
    return "、".join(names[:3])


class ExtractiveComposer:
    """Builds a GroundedAnswer from covered slots only; the fallback for every other composer."""

    def compose(
        self,
        plan: SemanticQueryPlan,
        decision: DecisionResult,
        documents: Sequence[DocumentEvidence],
        facts: Sequence[VerifiedFact],
    ) -> GroundedAnswer:
        """Select, order and structure the qualified spans of covered slots; list the rest as missing."""
        gated_ids = set(decision.qualified_citation_ids)
        gated_refs = set(decision.qualified_fact_refs)
        docs_by_id = {doc.citation_id: doc for doc in documents if doc.citation_id in gated_ids}
        facts_by_ref = {fact.fact_ref: fact for fact in facts if fact.fact_ref in gated_refs}
        statements: list[Statement] = []
        steps: list[Step] = []
        used: list[DocumentEvidence] = []
        for slot in decision.slots:
            if not slot.covered:
                continue
            for ref in slot.fact_refs:
                if ref in facts_by_ref:
                    statements.append(
                        Statement(text=describe_fact(facts_by_ref[ref]), need=slot.need, fact_refs=(ref,))
                    )
            for citation_id in slot.citation_ids:
                doc = docs_by_id.get(citation_id)
                if doc is None:
                    continue
                used.append(doc)
                numbered = numbered_steps(doc.text)
                if slot.need is EvidenceNeed.PROCESS_STEPS and doc.authority in LAW_AUTHORITIES:
                    # A law prescribes the handling of a situation; its sentences are not steps, nor
                    # are its numbered items, which list situations (（一）无故拖欠劳动者工资的).
                    for span in select_spans(EvidenceNeed.GENERAL_RULE, doc.text, plan.question):
                        statements.append(Statement(text=span, need=slot.need, citation_ids=(citation_id,)))
                    continue
                if slot.need is EvidenceNeed.PROCESS_STEPS:
                    lines = numbered or sentences(doc.text)
                    for line in lines:
                        if len(steps) < MAX_STEPS:
                            steps.append(Step(order=len(steps) + 1, text=line, citation_ids=(citation_id,)))
                    continue
                for span in select_spans(slot.need, doc.text, plan.question):
                    statements.append(Statement(text=span, need=slot.need, citation_ids=(citation_id,)))
        statements = [statement for statement in statements if not _listed_as_steps(statement, steps)]
        return GroundedAnswer(
            summary=self._summary(decision, used, statements),
            statements=_merge_duplicates(statements),
            steps=steps,
            missing_information=missing_information(decision, plan.domain),
            clarifying_questions=clarifying_questions(decision.conflicts),
            composer=EXTRACTIVE,
        )

    @staticmethod
    def _summary(
        decision: DecisionResult, used: Sequence[DocumentEvidence], statements: Sequence[Statement]
    ) -> str:
        parts: list[str] = []
        if decision.status is DecisionStatus.PARTIAL:
            parts.append(PARTIAL_PREFIX)
        if used:
            parts.append(f"根据{_source_phrase(used)}，整理如下。")
        elif any(statement.fact_refs for statement in statements):
            parts.append(LIVE_SUMMARY)
        return "".join(parts)


def _listed_as_steps(statement: Statement, steps: Sequence[Step]) -> bool:
    """True when the answer's steps already show the statement: a step quoted again as a rule, or the
    lead-in (费用报销按以下步骤办理：) of the very fragment the steps come from."""
    ours = [step for step in steps if set(statement.citation_ids) <= set(step.citation_ids)]
    if not ours:
        return False
    text = ITEM_MARK.sub("", statement.text).strip()
    return text.endswith(LEAD_IN_END) or any(ITEM_MARK.sub("", step.text).strip() == text for step in ours)


def _merge_duplicates(statements: Sequence[Statement]) -> list[Statement]:
    """One statement per verbatim text, keeping every citation that supports it; a piece of another
    statement on the same support is dropped.

    The same list quoted for two slots (谁审批 and the amount it depends on) is shown once, under
    the first slot that quoted it.
    """
    merged: dict[str, Statement] = {}
    for statement in statements:
        key = statement.text
        if key in merged:
            prior = merged[key]
            merged[key] = prior.model_copy(
                update={
                    "citation_ids": tuple(dict.fromkeys(prior.citation_ids + statement.citation_ids)),
                    "fact_refs": tuple(dict.fromkeys(prior.fact_refs + statement.fact_refs)),
                }
            )
        else:
            merged[key] = statement
    kept = list(merged.values())
    kept = [statement for statement in kept if not any(_restates(statement, other) for other in kept)]
    return [statement for index, statement in enumerate(kept) if not _introduces_nothing(index, kept)]


def _introduces_nothing(index: int, statements: Sequence[Statement]) -> bool:
    """True for a lead-in (候选人需提交以下资料：) with nothing of its source after it: its item was shown
    already, merged under another source quoting the same line, so alone it would dangle."""
    lead = statements[index]
    if not lead.text.strip().endswith(LEAD_IN_END) or not lead.citation_ids:
        return False
    return not any(set(lead.citation_ids) & set(later.citation_ids) for later in statements[index + 1 :])


def _restates(part: Statement, whole: Statement) -> bool:
    """True when `part` is a piece of `whole` on the same support: 1. 病假：…病历； beside the whole item
    1. 病假：…病历；请病假1日的可先提交就诊记录。 says nothing the item does not."""
    piece = part.text.strip().rstrip(_CLAUSE_MARKS)
    return (
        part is not whole
        and len(piece) < len(whole.text)
        and piece in whole.text
        and set(part.citation_ids) <= set(whole.citation_ids)
        and set(part.fact_refs) <= set(whole.fact_refs)
    )


_CLAUSE_MARKS = "。；;，,！!？? "
