"""What ranks first in a live read: who on the team scores lowest or highest (谁的分数最低 / 谁练得
最好), and which of the user's to-dos is most urgent (哪个最急).

The answer is picked from the facts' own fields: the members' averages in the TEAM_PRACTICE_SUMMARY
fact, or the first open task of the listing (the task read lists the earliest due first, overdue
work before it is due). Names, titles, figures and dates are copied from the fact; nothing is
computed that the domain system did not return. Ties name every tied member. A question that asks
no ranking, or both directions at once, gets no ranking line: the listing alone answers it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import JsonValue

from shifu.contracts.evidence import VerifiedFact
from shifu.tools.render import month_day

_ASKS_WHO = re.compile(r"谁|哪个|哪位|哪一个")
_LOWEST = re.compile(r"最(?:低|差|少分|不好)|垫底|倒数第一|分(?:数)?最少")
_HIGHEST = re.compile(r"最(?:高|好|棒|强)|第一名|排第一|分(?:数)?最多")
_MOST_URGENT = re.compile(
    r"最(?:急|紧急|要紧|赶)|先(?:做|干|弄|处理)(?:哪个|哪一个|哪项|什么|啥)|优先(?:做|处理)"
)


def _members(fact: VerifiedFact) -> list[dict[str, JsonValue]]:
    members = fact.value.get("members")
    if not isinstance(members, list):
        return []
    return [
        member
        for member in members
        if isinstance(member, dict) and isinstance(member.get("averageScore"), int | float)
    ]


def ranking_line(question: str, facts: Sequence[VerifiedFact]) -> str | None:
    """The line answering a ranking question from the live facts, or None when none is asked."""
    return _score_ranking(question, facts) or _most_urgent(question, facts)


def _most_urgent(question: str, facts: Sequence[VerifiedFact]) -> str | None:
    """The first open task of the listing (earliest due; overdue work comes first)."""
    if not _MOST_URGENT.search(question):
        return None
    task = next((f for f in facts if f.fact_type == "TASK" and f.value.get("status") != "DONE"), None)
    if task is None:
        return None
    due = task.value.get("dueDate")
    when = f"截止{month_day(due)}，" if due else ""
    return f"最急的是「{task.value.get('title')}」（{when}{task.value.get('statusLabel')}）。"


def _score_ranking(question: str, facts: Sequence[VerifiedFact]) -> str | None:
    """The line naming the lowest (or highest) average on the team read, when the question asks who."""
    if not _ASKS_WHO.search(question):
        return None
    lowest, highest = bool(_LOWEST.search(question)), bool(_HIGHEST.search(question))
    if lowest == highest:
        return None
    for fact in facts:
        if fact.fact_type != "TEAM_PRACTICE_SUMMARY" or fact.value.get("memberName"):
            continue
        members = _members(fact)
        if len(members) < 2:
            return None
        scores = [float(str(member["averageScore"])) for member in members]
        best = min(scores) if lowest else max(scores)
        tied = [member for member, score in zip(members, scores, strict=True) if score == best]
        names = "、".join(str(member["userName"]) for member in tied)
        shown = tied[0]["averageScore"]
        counts = "、".join(f"{member['recordCount']} 次" for member in tied)
        word = "最低" if lowest else "最高"
        return f"按平均分，{word}的是{names}（平均 {shown} 分，练习 {counts}）。"
    return None
