"""The Chinese answer text: summary, bound statements, numbered steps, [n] markers, 缺失信息."""

from __future__ import annotations

from collections.abc import Sequence

from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import DecisionStatus
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence


def citation_order(grounded: GroundedAnswer) -> list[str]:
    """Citation ids in the order their [n] markers appear; the client's citation list uses this order."""
    ids: list[str] = []
    for statement in grounded.statements:
        ids.extend(statement.citation_ids)
    for step in grounded.steps:
        ids.extend(step.citation_ids)
    return list(dict.fromkeys(ids))


def _markers(citation_ids: tuple[str, ...], numbers: dict[str, int]) -> str:
    return "".join(f"[{numbers[cid]}]" for cid in citation_ids if cid in numbers)


def render_answer_text(
    grounded: GroundedAnswer, decision: DecisionResult, documents: Sequence[DocumentEvidence] = ()
) -> str:
    """Render the grounded answer as the plain Chinese text shown in the chat bubble.

    With `documents`, the 依据 block names each cited source (《title》（version） locator).
    """
    numbers = {cid: index for index, cid in enumerate(citation_order(grounded), start=1)}
    blocks: list[str] = []
    if grounded.summary:
        blocks.append(grounded.summary)
    if grounded.statements:
        lines = []
        for statement in grounded.statements:
            marker = _markers(statement.citation_ids, numbers)
            suffix = f" {marker}" if marker else ""
            lines.append(f"- {statement.text}{suffix}")
        blocks.append("\n".join(lines))
    if grounded.steps:
        lines = ["办理步骤："]
        for step in grounded.steps:
            marker = _markers(step.citation_ids, numbers)
            lines.append(f"{step.order}. {step.text}" + (f" {marker}" if marker else ""))
        blocks.append("\n".join(lines))
    if numbers:
        by_id = {doc.citation_id: doc for doc in documents}
        lines = ["依据："]
        for cid, n in numbers.items():
            doc = by_id.get(cid)
            lines.append(f"[{n}] 《{doc.title}》（{doc.version}） {doc.locator}" if doc else f"[{n}]")
        blocks.append("\n".join(lines))
    if grounded.missing_information:
        heading = "缺失信息：" if decision.status is not DecisionStatus.NO_EVIDENCE else "未找到："
        blocks.append("\n".join([heading] + [f"- {line}" for line in grounded.missing_information]))
    if grounded.clarifying_questions:
        blocks.append("\n".join(["需要你确认："] + [f"- {line}" for line in grounded.clarifying_questions]))
    return "\n\n".join(blocks)
