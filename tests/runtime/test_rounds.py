"""The bounded run: ≤ 1 follow-up with a new target, a third round that never calls a tool."""

from __future__ import annotations

from collections.abc import Sequence

from shifu.contracts.common import DecisionStatus, EvidenceNeed, ToolCode, ToolStatus
from shifu.contracts.decision import DecisionResult, SlotCoverage
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.runtime.rounds import BoundedRun, FollowUp, Phase, call_hash


def _search(query: str) -> ToolCall:
    return ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": query})


class Recorder:
    """Executes nothing real; records which calls ran in which round."""

    def __init__(self) -> None:
        self.rounds: list[tuple[int, list[str]]] = []

    def __call__(self, calls: Sequence[ToolCall], number: int) -> list[ToolResult]:
        self.rounds.append((number, [str(c.arguments["query"]) for c in calls]))
        return [ToolResult(call=c, status=ToolStatus.OK) for c in calls]


def _decision(status: DecisionStatus) -> DecisionResult:
    return DecisionResult(
        status=status, slots=[SlotCoverage(need=EvidenceNeed.REQUIRED_MATERIALS, covered=False)]
    )


def test_settled_decision_stops_after_the_initial_round() -> None:
    recorder = Recorder()
    run = BoundedRun(
        execute=recorder,
        evaluate=lambda _: _decision(DecisionStatus.ANSWERED),
        propose_follow_up=lambda *_: FollowUp("X", (_search("b"),)),
        time_budget_s=5,
    )
    outcome = run.run([_search("a")])
    assert recorder.rounds == [(1, ["a"])]
    assert outcome.final_phase is Phase.DONE


def test_one_follow_up_with_a_new_target_then_clarify_or_end_without_tools() -> None:
    recorder = Recorder()
    run = BoundedRun(
        execute=recorder,
        evaluate=lambda _: _decision(DecisionStatus.PARTIAL),
        propose_follow_up=lambda *_: FollowUp("REQUIRED_MATERIALS", (_search("材料"),)),
        time_budget_s=5,
    )
    outcome = run.run([_search("a")])
    assert recorder.rounds == [(1, ["a"]), (2, ["材料"])]
    assert [r.phase for r in outcome.rounds] == [Phase.INITIAL, Phase.FOLLOW_UP, Phase.CLARIFY_OR_END]
    assert outcome.rounds[2].results == []
    assert "THIRD_ROUND_CLARIFY_OR_END" in outcome.reason_codes


def test_no_new_target_stops() -> None:
    recorder = Recorder()
    run = BoundedRun(
        execute=recorder,
        evaluate=lambda _: _decision(DecisionStatus.PARTIAL),
        propose_follow_up=lambda *_: None,
        time_budget_s=5,
    )
    outcome = run.run([_search("a")])
    assert len(recorder.rounds) == 1
    assert outcome.reason_codes == ["NO_NEW_EVIDENCE_TARGET"]


def test_a_follow_up_repeating_a_call_hash_is_a_duplicate_stop() -> None:
    recorder = Recorder()
    run = BoundedRun(
        execute=recorder,
        evaluate=lambda _: _decision(DecisionStatus.NO_EVIDENCE),
        propose_follow_up=lambda *_: FollowUp("SAME", (_search("a"),)),
        time_budget_s=5,
    )
    outcome = run.run([_search("a")])
    assert len(recorder.rounds) == 1
    assert outcome.reason_codes == ["DUPLICATE_CALL_STOP"]


def test_time_budget_spent_is_a_controlled_timeout_state() -> None:
    ticks = iter([0.0, 10.0])
    recorder = Recorder()
    run = BoundedRun(
        execute=recorder,
        evaluate=lambda _: _decision(DecisionStatus.PARTIAL),
        propose_follow_up=lambda *_: FollowUp("X", (_search("b"),)),
        time_budget_s=1,
        clock=lambda: next(ticks),
    )
    outcome = run.run([_search("a")])
    assert outcome.final_phase is Phase.TIMEOUT
    assert len(recorder.rounds) == 1


def test_call_hash_ignores_argument_order() -> None:
    a = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "TODAY", "status": "OPEN"})
    b = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"status": "OPEN", "dateRange": "TODAY"})
    assert call_hash(a) == call_hash(b)
