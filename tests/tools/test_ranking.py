"""谁的分数最低 / 谁练得最好: the ranking line names members from the team read's own averages."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from shifu.contracts.common import Intent, ToolCode
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import VerifiedFact
from shifu.contracts.plan import ToolCall
from shifu.tools import RunBudget, ToolExecutor
from shifu.tools.ranking import ranking_line

Ctx = Callable[..., ExecutionContext]


def _team_fact(executor: ToolExecutor, ctx_of: Ctx) -> VerifiedFact:
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={})
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    (fact,) = result.facts
    return fact


@pytest.mark.parametrize(("question", "pick"), [("谁的分数最低", min), ("组里谁练得最好", max)])
def test_the_lowest_or_highest_average_is_named_from_the_fact(
    executor: ToolExecutor, ctx_of: Ctx, question: str, pick: Callable[..., float]
) -> None:
    fact = _team_fact(executor, ctx_of)
    members = fact.value["members"]
    assert isinstance(members, list)
    scores = {str(m["userName"]): float(str(m["averageScore"])) for m in members if isinstance(m, dict)}
    assert len(scores) >= 2
    chosen = pick(scores, key=scores.__getitem__)
    line = ranking_line(question, [fact])
    assert line is not None and chosen in line
    corpus = json.dumps(fact.value, ensure_ascii=False)
    assert all(number in corpus for number in re.findall(r"\d+", line))


@pytest.mark.parametrize("question", ["团队训练情况怎么样", "分数最低是多少", "谁最高谁最低"])
def test_no_ranking_is_added_when_none_or_both_are_asked_or_no_one_is_asked_for(
    executor: ToolExecutor, ctx_of: Ctx, question: str
) -> None:
    assert ranking_line(question, [_team_fact(executor, ctx_of)]) is None


def test_tied_members_are_all_named(executor: ToolExecutor, ctx_of: Ctx) -> None:
    fact = _team_fact(executor, ctx_of)
    members = [
        {"userName": "甲", "recordCount": 2, "averageScore": 70, "pendingReviewCount": 0},
        {"userName": "乙", "recordCount": 1, "averageScore": 70, "pendingReviewCount": 1},
        {"userName": "丙", "recordCount": 3, "averageScore": 90, "pendingReviewCount": 0},
    ]
    tied = fact.model_copy(update={"value": {**fact.value, "members": members}})
    assert ranking_line("谁分数最低", [tied]) == "按平均分，最低的是甲、乙（平均 70 分，练习 2 次、1 次）。"


@pytest.mark.parametrize("question", ["我的待办里哪个最急", "今天先做哪个"])
def test_the_most_urgent_to_do_is_the_first_open_one_of_the_listing(
    executor: ToolExecutor, ctx_of: Ctx, question: str
) -> None:
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={})
    result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, call, budget=RunBudget())
    tasks = [fact for fact in result.facts if fact.fact_type == "TASK"]
    dues = [str(fact.value["dueDate"]) for fact in tasks]
    assert dues == sorted(dues), "the task read lists the earliest due first"
    line = ranking_line(question, result.facts)
    assert line is not None and f"「{tasks[0].value['title']}」" in line
    assert ranking_line("我有哪些待办", result.facts) is None
