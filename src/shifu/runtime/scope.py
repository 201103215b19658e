"""Questions about someone else's own data: refused, never answered with the asker's data.

A self-scoped tool (MY_*) reads only the principal's data. When the question is about a
colleague ("赵六今天有哪些待办") or about others in general ("其他候选人的面试进度"),
running it would answer a different question than was asked, so the turn is refused with
a reason code instead. Team tools keep their own, supervised-project scope.
"""

from __future__ import annotations

import re
from datetime import date

from shifu.contracts.common import Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import Observation, ToolResult
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.planning.tool_calls import build_tool_calls
from shifu.policy.rules import ROLE_TOOLS

SELF_SCOPED_TOOLS = frozenset(
    {
        ToolCode.MY_CURRENT_TASKS,
        ToolCode.MY_PRACTICE_SUMMARY,
        ToolCode.MY_WORK_RESULTS,
        ToolCode.MY_CANDIDATE_PROGRESS,
    }
)

OTHERS_RE = re.compile(
    r"其他(?:人|候选人|同事|员工|应聘者)|别(?:人|的人|的同事|的候选人|的应聘者)|他人|同事的"
)
"""Wording that asks about people other than the asker."""


def _others(plan: SemanticQueryPlan, ctx: ExecutionContext) -> list[str]:
    """People the question names other than the asker."""
    return [p.name for p in plan.entities.persons if p.name != ctx.display_name]


def asks_about_someone_else(plan: SemanticQueryPlan, ctx: ExecutionContext) -> bool:
    """True when a self-scoped read is planned for a question about another person."""
    if not any(call.tool in SELF_SCOPED_TOOLS for call in plan.tool_calls):
        return False
    others = _others(plan, ctx)
    return bool(others) or bool(OTHERS_RE.search(plan.question))


def team_read_instead(plan: SemanticQueryPlan, ctx: ExecutionContext) -> SemanticQueryPlan | None:
    """For a supervisor, "张三这周练了几次" is a team read about 张三, not a refused self read.

    Only a plan whose every call is the self practice read, about exactly one named person, by
    someone who supervises projects. The team read then runs through the policy gate like any
    other call, inside the supervised projects only; a name outside the team finds nothing.
    """
    if not ctx.supervised_project_ids or OTHERS_RE.search(plan.question):
        return None
    if not plan.tool_calls or any(call.tool is not ToolCode.MY_PRACTICE_SUMMARY for call in plan.tool_calls):
        return None
    others = _others(plan, ctx)
    if len(others) != 1:
        return None
    calls = [
        ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={**call.arguments, "memberName": others[0]})
        for call in plan.tool_calls
    ]
    return plan.model_copy(update={"intent": Intent.LIVE_TEAM_WORK, "tool_calls": calls})


OWN_RECORDS: tuple[tuple[ToolCode, re.Pattern[str]], ...] = (
    (ToolCode.MY_PRACTICE_SUMMARY, re.compile(r"复盘|练习|训练|陪练|对练|演练")),
    (ToolCode.MY_CURRENT_TASKS, re.compile(r"任务|待办|工单")),
    (ToolCode.MY_WORK_RESULTS, re.compile(r"业绩|绩效|成绩|考核")),
)
"""Staff records a question can name, each with the self read that holds them."""


def own_read_instead(plan: SemanticQueryPlan, ctx: ExecutionContext, today: date) -> SemanticQueryPlan | None:
    """A staff member's "我的复盘什么时候" is about their practice, not a candidate's application.

    The planner never sees the role, and 复盘/进度 wording also fits the candidate progress
    read. Staff have no application to read, so when the only call is MY_CANDIDATE_PROGRESS
    and the asker's role lacks it, the question's own words pick the staff self read they name
    (练习/复盘 → practice, 任务/待办 → tasks, 业绩/考核 → results), if the role has it. A
    question naming none of them (我的面试进度) keeps its plan and is refused by the policy gate.
    """
    if [call.tool for call in plan.tool_calls] != [ToolCode.MY_CANDIDATE_PROGRESS]:
        return None
    allowed = ROLE_TOOLS.get(ctx.role, frozenset())
    if ToolCode.MY_CANDIDATE_PROGRESS in allowed:
        return None
    tool = next((t for t, words in OWN_RECORDS if words.search(plan.question) and t in allowed), None)
    if tool is None:
        return None
    calls = build_tool_calls(
        frozenset({tool}),
        query=plan.normalized_question,
        question=plan.normalized_question,
        domain=plan.domain,
        entities=plan.entities,
        dates=plan.entities.dates,
        today=today,
        citation_id=None,
    )
    return plan.model_copy(update={"intent": Intent.LIVE_MY_WORK, "tool_calls": calls})


PROJECT_BOUND_TOOLS = SELF_SCOPED_TOOLS | frozenset(
    {
        ToolCode.TEAM_PRACTICE_SUMMARY,
        ToolCode.TEAM_WORK_RESULTS,
        ToolCode.REVIEW_DRAFT,
        ToolCode.PRACTICE_ASSIGNMENT_DRAFT,
    }
)
"""Reads of live work data and drafts acting on a team, each bound to the principal's projects by the
policy gate."""


def named_projects(question: str, ctx: ExecutionContext) -> list[str]:
    """The tenant's projects the question names, in id order (江湾项目谁还没复盘 → the 江湾 id)."""
    return sorted(pid for pid, name in ctx.project_names.items() if len(name) >= 2 and name in question)


def scoped_to_named_project(plan: SemanticQueryPlan, ctx: ExecutionContext) -> ExecutionContext:
    """A live read or team draft about a named project acts on that project, or is refused: never on
    another one's data.

    "江湾项目谁还没复盘" from the supervisor of 华府 must not be answered with 华府's team. The named
    project becomes this turn's selected project, so the policy gate decides as for a client's
    selection: outside the principal's projects (or, for a team tool, outside the supervised
    ones) the call is refused; inside, it is narrowed to that project. When several projects are
    named, the first one outside the principal's projects is selected, so the turn is refused
    rather than answered for the others only. Knowledge search keeps the principal's spaces: a
    rule of another project the principal cannot read is not among them, and one they can read is
    dropped by `about_named_projects`.
    """
    if not any(call.tool in PROJECT_BOUND_TOOLS for call in plan.tool_calls):
        return ctx
    named = named_projects(plan.question, ctx)
    outside = [pid for pid in named if pid not in ctx.project_ids]
    if outside:
        return ctx.model_copy(update={"selected_project_id": outside[0]})
    if len(named) == 1 and named[0] != ctx.selected_project_id:
        return ctx.model_copy(update={"selected_project_id": named[0]})
    return ctx


OTHER_PROJECT_DROPPED = "OTHER_PROJECT_DROPPED"


def about_named_projects(result: ToolResult, question: str, ctx: ExecutionContext) -> ToolResult:
    """A rule written for one project does not answer a question about another.

    "江湾项目的门岗几点交接班" from a 华府 employee found 华府's gate SOP (readable to them) and
    quoted its shifts as 江湾's. When the question names projects, a fragment scoped to projects,
    none of which is named, is dropped; company-wide fragments (no project scope) stay.
    """
    if result.call.tool is not ToolCode.KNOWLEDGE_SEARCH or not result.documents:
        return result
    named = set(named_projects(question, ctx))
    if not named:
        return result
    kept = [doc for doc in result.documents if _applies_to(doc.scope.project_ids, named)]
    dropped = len(result.documents) - len(kept)
    if not dropped:
        return result
    return result.model_copy(
        update={
            "documents": kept,
            "status": ToolStatus.OK if kept else ToolStatus.NO_RESULT,
            "reason_code": result.reason_code if kept else "NO_DOCUMENTS",
            "observations": [*result.observations, Observation(code=OTHER_PROJECT_DROPPED, count=dropped)],
        }
    )


def unseen_project_caveat(question: str, ctx: ExecutionContext) -> str | None:
    """A note for a rule question about a project the user does not belong to.

    A 江湾 employee asking 华府装修周末能施工吗 is answered from the company-wide rule; a project's own
    supplement (华府 bans weekend work) is visible to that project's staff only, so the answer says
    that it covers the company rule only. It does not say whether such a supplement exists.
    """
    outside = [pid for pid in named_projects(question, ctx) if pid not in ctx.project_ids]
    if not outside:
        return None
    names = "、".join(ctx.project_names[pid] for pid in outside)
    return f"以上为公司通用规定；{names}项目如有本项目的补充规定，你当前账号无权查看，请向该项目确认。"


def _applies_to(scope: tuple[str, ...], named: set[str]) -> bool:
    """A company-wide fragment applies to every project; a scoped one to its own projects."""
    return not scope or bool(named.intersection(scope))


def without_project_names(plan: SemanticQueryPlan, ctx: ExecutionContext) -> SemanticQueryPlan:
    """The plan as the evidence gate reads it: the projects it names are scope, not subject.

    "江湾项目报销要谁批" is about 报销; the company rule answers it for every project, although it
    never says 江湾 (`about_named_projects` has already dropped the rules of other projects).
    """
    names = [ctx.project_names[pid] for pid in named_projects(plan.question, ctx)]
    if not names:
        return plan
    pattern = re.compile(
        "|".join(f"{re.escape(name)}(?:项目)?的?" for name in sorted(names, key=len, reverse=True))
    )

    def strip(text: str) -> str:
        return pattern.sub("", text).strip() or text

    calls: list[ToolCall] = []
    for call in plan.tool_calls:
        query = call.arguments.get("query")
        if call.tool is ToolCode.KNOWLEDGE_SEARCH and isinstance(query, str):
            call = call.model_copy(update={"arguments": {**call.arguments, "query": strip(query)}})
        calls.append(call)
    return plan.model_copy(
        update={
            "question": strip(plan.question),
            "normalized_question": strip(plan.normalized_question),
            "tool_calls": calls,
        }
    )
