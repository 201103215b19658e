"""The follow-up policy: one targeted knowledge search per uncovered document slot.

A follow-up is proposed only for a need the first round did not cover and did not already
target; the bounded run then refuses any call it has seen before.
"""

from __future__ import annotations

from collections.abc import Sequence

from shifu.contracts.common import EvidenceNeed, ToolCode
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.runtime.rounds import FollowUp

NEED_QUERY_HINTS: dict[EvidenceNeed, str] = {
    EvidenceNeed.AMOUNT_RULE: "金额 标准",
    EvidenceNeed.PROCESS_STEPS: "流程 步骤",
    EvidenceNeed.REQUIRED_MATERIALS: "所需材料",
    EvidenceNeed.APPROVAL: "审批 批准 签字同意",
    EvidenceNeed.ELIGIBILITY: "条件",
    EvidenceNeed.DEADLINE: "期限 时限",
    EvidenceNeed.PROHIBITION: "禁止 不得",
    EvidenceNeed.DEFINITION: "定义",
    EvidenceNeed.CONTACT: "联系电话",
    EvidenceNeed.OBLIGATION: "应当",
    EvidenceNeed.LIABILITY: "责任 赔偿",
}
"""Words that steer a targeted search toward one slot."""


def knowledge_follow_up(plan: SemanticQueryPlan) -> object:
    """A ProposeFollowUp for `plan`: search again, once, for the first uncovered document slot."""

    def propose(decision: DecisionResult | None, results: Sequence[ToolResult]) -> FollowUp | None:
        if decision is None:
            return None
        searches = [c for c in plan.tool_calls if c.tool is ToolCode.KNOWLEDGE_SEARCH]
        if not searches:
            return None
        base = searches[0]
        for slot in decision.slots:
            hint = NEED_QUERY_HINTS.get(slot.need)
            if slot.covered or hint is None:
                continue
            # Same question, new keyword cues: the dense leg reuses the question's vector.
            arguments = {**base.arguments, "focus": hint}
            return FollowUp(
                target=slot.need.value, calls=(ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments=arguments),)
            )
        return None

    return propose
