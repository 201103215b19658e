"""A knowledge question that names no subject is asked back, unless it points at a cited document."""

from __future__ import annotations

import pytest

from shifu.contracts.common import ContextRelation, Intent, ToolCode
from shifu.contracts.context import ResolvedContext, ResolvedReference
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.runtime.subject import lacks_subject


def _plan(question: str, intent: Intent = Intent.KNOWLEDGE_QA) -> SemanticQueryPlan:
    return SemanticQueryPlan(
        question=question,
        normalized_question=question,
        intent=intent,
        confidence=0.9,
        tool_calls=[ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": question})],
    )


@pytest.mark.parametrize(
    "question",
    ["超过30天还能报吗", "要谁批", "多久能到账", "最多能休几天", "丢了怎么办", "要多久完成", "要多久处理"],
)
def test_a_knowledge_question_without_a_subject_lacks_one(question: str) -> None:
    assert lacks_subject(_plan(question), ResolvedContext())


@pytest.mark.parametrize(
    "question",
    ["报销超过30天还能报吗", "年假最多能休几天", "电梯困人怎么处理", "发票丢了怎么办", "复盘要多久完成"],
)
def test_a_question_naming_its_subject_does_not(question: str) -> None:
    assert not lacks_subject(_plan(question), ResolvedContext())


def test_a_question_about_a_cited_document_has_its_subject() -> None:
    cited = ResolvedContext(
        relation=ContextRelation.REFERENCE,
        references=[ResolvedReference(kind="DOCUMENT", citation_id="c" * 64, text="刚才那份")],
    )
    assert not lacks_subject(_plan("刚才那份里怎么说"), cited)


def test_only_knowledge_questions_are_asked_back() -> None:
    assert not lacks_subject(_plan("多久能到账", Intent.LIVE_MY_WORK), ResolvedContext())
