"""Who may draft and confirm what (seed 001 §4.1), checked when drafting and again at confirmation.

The role, projects and supervised projects come from the ExecutionContext built for *this*
request, so a user demoted or moved since the draft was made is refused at confirmation.
"""

from __future__ import annotations

from typing import Any

from shifu.actions.ports import TeamDirectory
from shifu.contracts.common import Role, ToolCode
from shifu.contracts.context import ExecutionContext
from shifu.errors import Forbidden

DRAFT_TOOL_ROLES: dict[ToolCode, frozenset[Role]] = {
    ToolCode.CAPTURE_MEMORY_DRAFT: frozenset({Role.EMPLOYEE, Role.SUPERVISOR}),
    ToolCode.WORK_REPORT_DRAFT: frozenset({Role.EMPLOYEE, Role.SUPERVISOR}),
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: frozenset({Role.SUPERVISOR}),
    ToolCode.REVIEW_DRAFT: frozenset({Role.SUPERVISOR}),
}
"""Roles allowed to draft and confirm each draft tool; everything else is FORBIDDEN."""


def ensure_may_draft(ctx: ExecutionContext, tool: ToolCode) -> None:
    """Refuse operator preview and any role the tool is not for."""
    if ctx.is_operator_preview or ctx.role not in DRAFT_TOOL_ROLES.get(tool, frozenset()):
        raise Forbidden("当前账号不能发起或确认这类操作。", code="DRAFT_TOOL_FORBIDDEN")


def ensure_owner(ctx: ExecutionContext, tenant_id: str, user_id: str) -> None:
    """Only the user who drafted a ticket may see, confirm or dismiss it."""
    if ctx.tenant_id != tenant_id or ctx.user_id != user_id:
        raise Forbidden("这份草稿不属于当前账号，不能操作。", code="DRAFT_NOT_OWNED")


def ensure_payload_in_scope(
    ctx: ExecutionContext, tool: ToolCode, fields: dict[str, Any], directory: TeamDirectory
) -> None:
    """The draft's project (and assignee) must still be within the user's scope."""
    ensure_may_draft(ctx, tool)
    project_id = fields.get("projectId")
    if tool in (ToolCode.PRACTICE_ASSIGNMENT_DRAFT, ToolCode.REVIEW_DRAFT):
        if project_id not in ctx.supervised_project_ids:
            raise Forbidden("你已不再负责该项目，不能确认这份草稿。", code="PROJECT_NOT_SUPERVISED")
        assignee = fields.get("assigneeId")
        if tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT and (
            not assignee or not directory.is_member(ctx.tenant_id, str(project_id), str(assignee))
        ):
            raise Forbidden("指派对象已不在你负责的项目内。", code="ASSIGNEE_OUT_OF_SCOPE")
        return
    if project_id is not None and project_id not in ctx.project_ids:
        raise Forbidden("你已不在该项目内，不能确认这份草稿。", code="PROJECT_NOT_ALLOWED")
