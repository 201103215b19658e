"""The agent runtime: one request from trusted context to a grounded AgentResponse.

    context ─▶ resolve references ─▶ plan ─▶ policy + bounded tool rounds ─▶ evidence gates
            ─▶ grounded answer ─▶ conversation commit (refs only) ─▶ audit

Every status comes from structured outcomes (tool statuses, the evidence decision, the
draft service), never from model text.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from shifu.actions.model import DismissRequest
from shifu.actions.service import ActionService
from shifu.actions.tickets import is_draft_id
from shifu.answer.compose import Composer, compose_for
from shifu.answer.render import citation_order, render_answer_text
from shifu.audit.recorder import AuditRecorder, RunAudit, scope_hash, sha256_text
from shifu.context.conversation import ConversationService
from shifu.context.cues import is_assent
from shifu.context.refs import RefOutcome, check_fact_ref, find_citation, find_fact_ref
from shifu.context.resolve import REFERENCE_AMBIGUOUS, REFERENCE_UNRESOLVED, Resolution, resolve, turn_frame
from shifu.context.state import PendingItem, PendingKind, Turn
from shifu.context.transitions import state_after_turn
from shifu.contracts.common import (
    ContextRelation,
    Intent,
    PlannerKind,
    ResponseStatus,
    ToolCode,
    ToolStatus,
)
from shifu.contracts.context import ExecutionContext, ResolvedContext
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import ToolResult
from shifu.contracts.messages import ActionDraftCard, AgentRequest, AgentResponse
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.errors import BudgetExceeded, Forbidden, NeedsInput, ShifuError, Unavailable
from shifu.evidence.evaluator import EvidenceEvaluator
from shifu.evidence.status import response_status
from shifu.nlp.entities import extract_entities
from shifu.nlp.homophones import correct_homophones
from shifu.nlp.script import to_simplified, writes_no_chinese
from shifu.runtime import replies
from shifu.runtime.answer_items import FragmentReader, item_records, points_at_items, question_about_items
from shifu.runtime.assemble import (
    citations_for,
    documents_of,
    facts_of,
    live_data,
    resources_of,
    source_summary,
    trace_calls,
    worst_tool_status,
)
from shifu.runtime.follow_up import knowledge_follow_up
from shifu.runtime.item_notes import NamedItem, name_items_in_notes, named_item
from shifu.runtime.rounds import BoundedRun, FollowUp, RunOutcome
from shifu.runtime.scope import (
    about_named_projects,
    asks_about_someone_else,
    own_read_instead,
    scoped_to_named_project,
    team_read_instead,
    unseen_project_caveat,
    without_project_names,
)
from shifu.runtime.subject import SUBJECT_MISSING, lacks_subject
from shifu.runtime.turn import TurnResult
from shifu.tools.executor import ToolExecutor
from shifu.tools.limits import RunBudget, RunLimits
from shifu.tools.ranking import ranking_line
from shifu.tools.render import render_result

log = logging.getLogger(__name__)

LIVE_TOOLS = frozenset(
    {
        ToolCode.MY_CURRENT_TASKS,
        ToolCode.MY_PRACTICE_SUMMARY,
        ToolCode.TEAM_PRACTICE_SUMMARY,
        ToolCode.MY_WORK_RESULTS,
        ToolCode.TEAM_WORK_RESULTS,
        ToolCode.MY_CANDIDATE_PROGRESS,
        ToolCode.CAPABILITY_QUERY,
    }
)
SUPERVISOR_TOOLS = frozenset(
    {
        ToolCode.TEAM_PRACTICE_SUMMARY,
        ToolCode.TEAM_WORK_RESULTS,
        ToolCode.PRACTICE_ASSIGNMENT_DRAFT,
        ToolCode.REVIEW_DRAFT,
    }
)
"""Team reads and drafts: refused to anyone else, they say the role they need, not only "无权"."""
NEEDS_INPUT_REASONS = {
    "CONSENT_REQUIRED": replies.WEB_NEEDS_CONSENT,
    "ATTACHMENT_REQUIRED": replies.MEDIA_NEEDS_ATTACHMENT,
}
"""Policy refusals that ask the user for something instead of refusing outright."""


_ERROR_STATUS: dict[type[ShifuError], tuple[ResponseStatus, str]] = {
    Forbidden: (ResponseStatus.FORBIDDEN, replies.FORBIDDEN_ANSWER),
    Unavailable: (ResponseStatus.UNAVAILABLE, replies.UNAVAILABLE_ANSWER),
    NeedsInput: (ResponseStatus.NEEDS_INPUT, replies.CLARIFY_ANSWER),
}
"""Typed errors that escape a turn, and the status each one ends in."""


class PlanningOutcomeLike(Protocol):
    """What a planner returns (see shifu.planning)."""

    @property
    def plan(self) -> SemanticQueryPlan: ...
    @property
    def planner(self) -> PlannerKind: ...
    @property
    def reason_code(self) -> str: ...
    @property
    def model_calls(self) -> int: ...


class PlannerPort(Protocol):
    """Any planner: model with fallback, or deterministic."""

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcomeLike: ...


@dataclass
class RuntimeParts:
    """Everything the runtime orchestrates, built once per deployment."""

    planner: PlannerPort
    executor: ToolExecutor
    evaluator: EvidenceEvaluator
    composer: Composer
    conversations: ConversationService
    actions: ActionService
    audit: AuditRecorder
    limits: RunLimits
    tz: ZoneInfo
    fragments: FragmentReader | None = None
    """Reads a cited fragment again when a question points at an answer's numbered item."""


class AgentRuntime:
    """Handles one message for a trusted ExecutionContext."""

    def __init__(self, parts: RuntimeParts, *, clock: Callable[[], float] = time.perf_counter) -> None:
        self._p = parts
        self._clock = clock

    def handle(self, ctx: ExecutionContext, request: AgentRequest) -> AgentResponse:
        """Answer `request`; a stale contextVersion raises VersionConflict and writes nothing.

        The question is read in simplified characters (電梯 → 电梯), with homophone typos of the
        company's topic words corrected (报消 → 报销), from here on.
        """
        started = self._clock()
        request = request.model_copy(update={"text": correct_homophones(to_simplified(request.text))})
        audit = RunAudit(
            run_id=ctx.run_id,
            tenant_id=ctx.tenant_id,
            app_id=ctx.app_id,
            user_id=ctx.user_id,
            scope_sha256=scope_hash(ctx.tenant_id, ctx.app_id, ctx.user_id, ctx.project_ids),
            question_sha256=sha256_text(request.text),
        )
        view = self._p.conversations.open(
            tenant_id=ctx.tenant_id,
            app_id=ctx.app_id,
            user_id=ctx.user_id,
            project_id=ctx.selected_project_id,
            conversation_id=request.conversation_id,
            expected_version=request.context_version,
            now=ctx.now,
            current_projects=ctx.project_ids,
        )
        ctx = ctx.model_copy(update={"conversation_id": view.conversation_id})
        entities = extract_entities(request.text, now=ctx.now, tz=self._p.tz)
        resolution = resolve(request.text, view.state, entities=entities)
        turn = self._safe_turn(ctx, resolution)
        pending = None
        if turn.awaiting_draft_input:
            item_id = turn.pending_draft_id or ctx.run_id
            pending = PendingItem(kind=PendingKind.DRAFT_INPUT, item_id=item_id, created_at=ctx.now)
        elif turn.pending_draft_id:
            pending = PendingItem(kind=PendingKind.DRAFT, item_id=turn.pending_draft_id, created_at=ctx.now)
        elif turn.pending_clarification:
            pending = PendingItem(kind=PendingKind.CLARIFICATION, item_id=ctx.run_id, created_at=ctx.now)
        state = state_after_turn(
            resolution.state,
            frame=None
            if turn.keeps_frame
            else turn_frame(resolution, intent=turn.intent, entities=turn.entities),
            results=turn.results,
            ctx=ctx,
            now=ctx.now,
            cited_ids=[c.citation_id for c in turn.citations],
            pending=pending,
            answer_items=item_records(turn.grounded),
            keeps_listing=turn.keeps_listing,
            item_question=resolution.effective_question
            if turn.keeps_listing and turn.draft is None
            else None,
        )
        version = self._p.conversations.commit(
            view,
            turn=Turn.of(
                request.text,
                answer_summary=turn.answer,
                at=ctx.now,
                intent=turn.intent,
                relation=resolution.context.relation,
            ),
            state=state,
            now=ctx.now,
        )
        response = turn.response(
            run_id=ctx.run_id, conversation_id=view.conversation_id, context_version=version
        )
        self._record(audit, turn, response, started)
        return response

    # -- the turn ------------------------------------------------------------------------

    def _safe_turn(self, ctx: ExecutionContext, res: Resolution) -> TurnResult:
        """The turn, with any error mapped to a typed status instead of a made-up answer."""
        try:
            return self._turn(ctx, res)
        except ShifuError as exc:
            status, answer = ResponseStatus.FAILED, replies.FAILED_ANSWER
            for error_type, mapped in _ERROR_STATUS.items():
                if isinstance(exc, error_type):
                    status, answer = mapped
                    break
            return TurnResult(intent=Intent.CLARIFY, status=status, answer=answer, reason_codes=[exc.code])
        except Exception as exc:  # the user gets FAILED, never a stack trace or invented text
            log.error("turn_failed", extra={"run_id": ctx.run_id, "error": type(exc).__name__})
            return TurnResult(
                intent=Intent.CLARIFY,
                status=ResponseStatus.FAILED,
                answer=replies.FAILED_ANSWER,
                reason_codes=["INTERNAL_ERROR"],
            )

    def _turn(self, ctx: ExecutionContext, res: Resolution) -> TurnResult:
        if res.context.relation is ContextRelation.CANCEL:
            return self._cancel(ctx, res)
        pending = res.state.pending
        if pending is not None and is_assent(res.effective_question):
            if pending.kind is PendingKind.DRAFT:
                return self._confirm_on_the_card(ctx, res, pending)
            if pending.kind is PendingKind.DRAFT_INPUT:
                return TurnResult(
                    intent=res.context.previous_intent or Intent.DRAFT_ACTION,
                    status=ResponseStatus.NEEDS_INPUT,
                    answer=replies.DRAFT_STILL_MISSING,
                    reason_codes=["DRAFT_STILL_MISSING"],
                    awaiting_draft_input=True,
                    keeps_frame=True,
                    pending_draft_id=pending.item_id if is_draft_id(pending.item_id) else None,
                )
        if res.cancelled is not None:
            self._dismiss(ctx, res.cancelled)
        question = res.effective_question
        if writes_no_chinese(question):
            return TurnResult(
                intent=Intent.CLARIFY,
                status=ResponseStatus.NEEDS_INPUT,
                answer=replies.CHINESE_ONLY,
                reason_codes=[replies.NOT_CHINESE],
            )
        if points_at_items(res.context.references):
            named = question_about_items(question, res.context.references, res.state, ctx, self._p.fragments)
            if named is None:
                gaps = [*res.context.gaps, REFERENCE_UNRESOLVED]
                res = replace(res, context=res.context.model_copy(update={"gaps": gaps}))
            question = named or question
        entities = extract_entities(question, now=ctx.now, tz=self._p.tz)
        resolved = res.context.model_copy(update={"entities": entities})
        outcome = self._p.planner.plan(question, resolved, now=ctx.now, tz=self._p.tz)
        today = ctx.now.astimezone(self._p.tz).date()
        plan = (
            team_read_instead(outcome.plan, ctx) or own_read_instead(outcome.plan, ctx, today) or outcome.plan
        )
        base = TurnResult(
            intent=plan.intent,
            status=ResponseStatus.COMPLETED,
            answer="",
            planner=outcome.planner,
            planner_reason=outcome.reason_code,
            confidence=plan.confidence,
            entities=entities,
            model_calls=outcome.model_calls,
        )
        if res.context.gaps:
            return self._needs_input_for_gap(base, res.context.gaps)
        if plan.intent is Intent.SOCIAL:
            base.answer = replies.social_reply(plan.question)
            return base
        if plan.intent is Intent.CLARIFY or not plan.tool_calls:
            base.intent = Intent.CLARIFY if not plan.tool_calls else plan.intent
            base.status = ResponseStatus.NEEDS_INPUT
            base.answer = replies.CLARIFY_ANSWER
            base.clarification = replies.clarification_for(plan.clarification_options)
            base.pending_clarification = True
            return base
        if lacks_subject(plan, res.context):
            base.status = ResponseStatus.NEEDS_INPUT
            base.answer = replies.SUBJECT_MISSING
            base.reason_codes.append(SUBJECT_MISSING)
            return base
        if asks_about_someone_else(plan, ctx):
            base.status = ResponseStatus.FORBIDDEN
            base.answer = replies.OTHER_PERSON_ANSWER
            base.reason_codes.append("OTHER_PERSON_SCOPE")
            return base
        return self._execute(scoped_to_named_project(plan, ctx), res, plan, base)

    def _execute(
        self, ctx: ExecutionContext, res: Resolution, plan: SemanticQueryPlan, base: TurnResult
    ) -> TurnResult:
        budget = RunBudget(self._p.limits)
        pre_results: list[ToolResult] = []
        items: list[NamedItem] = []
        calls = list(plan.tool_calls)
        for reference in res.context.references:
            if reference.kind == "FACT_ITEM" and reference.fact_ref:
                read_before = len(pre_results)
                refused = self._reread_fact(ctx, res, reference.fact_ref, plan, budget, pre_results)
                if refused is not None:
                    return self._refusal(base, refused)
                if len(pre_results) > read_before and (item := named_item(reference.text, pre_results[-1])):
                    items.append(item)
            if reference.kind == "DOCUMENT" and reference.citation_id:
                calls = self._bind_document(res, reference.citation_id, calls, plan)
        reread_tools = {r.call.tool for r in pre_results}
        calls = self._enrich_with_items([c for c in calls if c.tool not in reread_tools], pre_results)
        calls = name_items_in_notes(calls, items)
        plan = plan.model_copy(update={"tool_calls": [*(r.call for r in pre_results), *calls]})

        def execute(batch: Sequence[ToolCall], number: int) -> list[ToolResult]:
            results = list(pre_results) if number == 1 else []
            for call in batch:
                try:
                    result = about_named_projects(
                        self._p.executor.execute(ctx, plan.intent, call, budget=budget), plan.question, ctx
                    )
                except BudgetExceeded as exc:
                    results.append(ToolResult(call=call, status=ToolStatus.FAILED, reason_code=exc.code))
                    break
                results.append(result)
                if result.status is ToolStatus.FORBIDDEN:
                    break
            return results

        def evaluate(results: Sequence[ToolResult]) -> DecisionResult | None:
            if not any(c.tool is ToolCode.KNOWLEDGE_SEARCH or c.tool in LIVE_TOOLS for c in plan.tool_calls):
                return None
            return self._p.evaluator.evaluate(
                without_project_names(plan, ctx),
                results,
                on_date=ctx.now.astimezone(self._p.tz).date(),
                now=ctx.now,
                role=ctx.role,
            )

        def no_follow_up(_: DecisionResult | None, __: Sequence[ToolResult]) -> FollowUp | None:
            return None

        searches = any(c.tool is ToolCode.KNOWLEDGE_SEARCH for c in calls)
        run = BoundedRun(
            execute=execute,
            evaluate=evaluate,
            propose_follow_up=knowledge_follow_up(plan) if searches else no_follow_up,  # type: ignore[arg-type]
            time_budget_s=self._p.limits.max_wall_time_s,
        )
        outcome = run.run(calls)
        base.keeps_listing = bool(pre_results)
        return self._outcome(ctx, plan, base, outcome)

    # -- references ----------------------------------------------------------------------

    def _reread_fact(
        self,
        ctx: ExecutionContext,
        res: Resolution,
        ref_id: str,
        plan: SemanticQueryPlan,
        budget: RunBudget,
        sink: list[ToolResult],
    ) -> ToolResult | None:
        """Read a referenced fact again under the current scope; a refusal ends the turn."""
        record = find_fact_ref(res.state, ref_id)
        if record is None:
            return None
        check = check_fact_ref(record, ctx, ctx.now)
        if check.outcome is RefOutcome.FORBIDDEN:
            return ToolResult(
                call=record.tool_call(), status=ToolStatus.FORBIDDEN, reason_code=str(check.reason)
            )
        result = self._p.executor.execute(
            ctx, self._reread_intent(record.tool, plan.intent), record.tool_call(), budget=budget
        )
        if result.status is not ToolStatus.OK:
            return result
        item = [f for f in result.facts if f.item_key == record.item_key]
        sink.append(result.model_copy(update={"facts": [*item]}) if item else result)
        if not item:
            return ToolResult(
                call=record.tool_call(), status=ToolStatus.NO_RESULT, reason_code="REFERENCED_ITEM_GONE"
            )
        return None

    def _reread_intent(self, tool: ToolCode, intent: Intent) -> Intent:
        """The intent a referenced fact is re-read under: its own read intent, whatever this turn does.

        "帮我记一下第一项" is a CAPTURE_FACT turn, but the item is still read as live work.
        """
        allowed = self._p.executor.registry.get(tool).allowed_intents
        if intent in allowed:
            return intent
        for candidate in (Intent.LIVE_MY_WORK, Intent.LIVE_TEAM_WORK, Intent.PRACTICE_COACHING):
            if candidate in allowed:
                return candidate
        return intent

    @staticmethod
    def _bind_document(
        res: Resolution, citation_id: str, calls: list[ToolCall], plan: SemanticQueryPlan
    ) -> list[ToolCall]:
        """Point resource delivery at the referenced citation (resolved server-side)."""
        record = find_citation(res.state, citation_id)
        if record is None:
            return calls
        bound = ToolCall(tool=ToolCode.KNOWLEDGE_RESOURCE, arguments={"citationId": record.fragment_id})
        others = [c for c in calls if c.tool is not ToolCode.KNOWLEDGE_RESOURCE]
        if plan.intent is Intent.RESOURCE_DELIVERY or len(others) < len(calls):
            return [bound, *[c for c in others if c.tool is not ToolCode.KNOWLEDGE_SEARCH]]
        return calls

    @staticmethod
    def _enrich_with_items(calls: list[ToolCall], pre_results: list[ToolResult]) -> list[ToolCall]:
        """Search knowledge about the referenced item: its title joins the query."""
        titles = [str(f.value.get("title")) for r in pre_results for f in r.facts if f.value.get("title")]
        if not titles:
            return calls
        enriched: list[ToolCall] = []
        for call in calls:
            if call.tool is ToolCode.KNOWLEDGE_SEARCH:
                query = f"{titles[0]} {call.arguments.get('query', '')}".strip()[:500]
                call = ToolCall(tool=call.tool, arguments={**call.arguments, "query": query})
            enriched.append(call)
        return enriched

    # -- outcomes ------------------------------------------------------------------------

    def _outcome(
        self, ctx: ExecutionContext, plan: SemanticQueryPlan, turn: TurnResult, run: RunOutcome
    ) -> TurnResult:
        results = run.results
        decision = run.decision
        turn.tool_calls = trace_calls(run)
        turn.rounds = len(run.rounds)
        turn.reason_codes += run.reason_codes
        failure = worst_tool_status(results)
        if failure is not None:
            return self._failure(turn, results, failure)
        drafts = [r for r in results if r.draft is not None]
        if drafts:
            return self._draft(turn, drafts[0])
        documents = documents_of(results)
        facts = facts_of(results)
        live_results = [r for r in results if r.call.tool in LIVE_TOOLS and r.status is ToolStatus.OK]
        parts: list[str] = [render_result(r) for r in live_results]
        ranked = ranking_line(plan.question, facts_of(live_results))
        if ranked is not None:
            parts.insert(0, ranked)
        if decision is not None:
            turn.decision = decision.status
            turn.reason_codes += list(decision.reason_codes)
        if any(r.call.tool is ToolCode.KNOWLEDGE_SEARCH for r in results) and decision is not None:
            grounded = compose_for(self._p.composer, plan, decision, documents, facts)
            caveat = unseen_project_caveat(plan.question, ctx)
            if caveat is not None and (grounded.statements or grounded.steps):
                grounded = grounded.model_copy(
                    update={"missing_information": [*grounded.missing_information, caveat]}
                )
            turn.grounded = grounded
            if grounded.composer == "MODEL":
                turn.model_calls += 1
            parts.append(render_answer_text(grounded, decision, documents))
            turn.citations = citations_for(citation_order(grounded), documents)
            turn.status = response_status(decision.status)
        elif decision is not None and not live_results:
            turn.status = response_status(decision.status)
        resources = resources_of(results)
        if any(r.call.tool is ToolCode.KNOWLEDGE_RESOURCE for r in results):
            turn.resources = resources
            if resources:
                parts.append(replies.RESOURCE_READY + "、".join(r.title for r in resources))
            else:
                videos = any(
                    r.call.tool is ToolCode.KNOWLEDGE_RESOURCE and r.call.arguments.get("kind") == "VIDEO"
                    for r in results
                )
                parts.append(replies.VIDEO_NONE if videos else replies.RESOURCE_NONE)
                turn.status = ResponseStatus.NO_EVIDENCE
        turn.answer = "\n\n".join(p for p in parts if p) or replies.FAILED_ANSWER
        turn.sources = source_summary(results, decision, turn.citations)
        turn.data = live_data(live_results, decision)
        turn.results = list(results)
        if turn.data.get("state") == "NO_TASKS":
            turn.next_actions = ["查看学习中心", "联系主管确认安排"]
        return turn

    def _failure(self, turn: TurnResult, results: Sequence[ToolResult], failure: ToolStatus) -> TurnResult:
        refused = [r for r in results if r.status is failure]
        reason = refused[0].reason_code if refused else None
        turn.reason_codes += [r.reason_code for r in refused if r.reason_code]
        if failure is ToolStatus.FORBIDDEN and reason in NEEDS_INPUT_REASONS:
            turn.status = ResponseStatus.NEEDS_INPUT
            turn.answer = NEEDS_INPUT_REASONS[reason]
            return turn
        turn.status, turn.answer = {
            ToolStatus.FORBIDDEN: (ResponseStatus.FORBIDDEN, replies.FORBIDDEN_ANSWER),
            ToolStatus.TIMEOUT: (ResponseStatus.UNAVAILABLE, replies.UNAVAILABLE_ANSWER),
            ToolStatus.UNAVAILABLE: (ResponseStatus.UNAVAILABLE, replies.UNAVAILABLE_ANSWER),
        }.get(failure, (ResponseStatus.FAILED, replies.FAILED_ANSWER))
        if reason in {"CALL_BUDGET_EXCEEDED", "TIME_BUDGET_EXCEEDED", "CANDIDATE_BUDGET_EXCEEDED"}:
            turn.answer = replies.BUDGET_ANSWER
        if reason == "ROLE_NOT_ALLOWED" and refused and refused[0].call.tool in SUPERVISOR_TOOLS:
            turn.answer = replies.SUPERVISOR_ONLY_ANSWER
        return turn

    def _refusal(self, turn: TurnResult, result: ToolResult) -> TurnResult:
        turn.tool_calls = trace_calls(RunOutcome(), [(result, 1)])
        turn.rounds = 1
        if result.status is ToolStatus.NO_RESULT:
            turn.status = ResponseStatus.NEEDS_INPUT
            turn.answer = replies.REFERENCE_UNRESOLVED
            turn.reason_codes.append(result.reason_code or "REFERENCE_UNRESOLVED")
            return turn
        return self._failure(turn, [result], result.status)

    @staticmethod
    def _draft(turn: TurnResult, result: ToolResult) -> TurnResult:
        draft = result.draft or {}
        turn.status = ResponseStatus(str(draft.get("status", ResponseStatus.FAILED.value)))
        turn.answer = str(draft.get("answer") or replies.FAILED_ANSWER)
        card = draft.get("card")
        if isinstance(card, dict):
            turn.draft = ActionDraftCard.model_validate(card)
            turn.pending_draft_id = turn.draft.draft_id
        if draft.get("reasonCode"):
            turn.reason_codes.append(str(draft["reasonCode"]))
        missing = bool(draft.get("missingFields"))
        turn.awaiting_draft_input = turn.status is ResponseStatus.NEEDS_INPUT and missing
        turn.sources = source_summary([result], None, [])
        return turn

    @staticmethod
    def _needs_input_for_gap(turn: TurnResult, gaps: Sequence[str]) -> TurnResult:
        turn.status = ResponseStatus.NEEDS_INPUT
        if "CORRECTION_VALUE_MISSING" in gaps:
            turn.answer = replies.CORRECTION_VALUE_MISSING
        elif REFERENCE_AMBIGUOUS in gaps:
            turn.answer = replies.REFERENCE_AMBIGUOUS
        else:
            turn.answer = replies.REFERENCE_UNRESOLVED
        turn.reason_codes += list(gaps)
        return turn

    def _cancel(self, ctx: ExecutionContext, res: Resolution) -> TurnResult:
        cancelled = res.cancelled
        if cancelled is not None:
            self._dismiss(ctx, cancelled)
        return TurnResult(
            intent=res.context.previous_intent or Intent.SOCIAL,
            status=ResponseStatus.COMPLETED,
            answer=replies.CANCELLED if cancelled is not None else replies.NOTHING_TO_CANCEL,
            reason_codes=["CANCELLED" if cancelled is not None else "NOTHING_TO_CANCEL"],
        )

    def _confirm_on_the_card(self, ctx: ExecutionContext, res: Resolution, item: PendingItem) -> TurnResult:
        """ "确认" typed while a draft is open: a write runs only through the card's confirm action (with
        its version and, for a record, the chosen visibility), so the card is shown again, still open."""
        turn = TurnResult(
            intent=res.context.previous_intent or Intent.DRAFT_ACTION,
            status=ResponseStatus.NEEDS_CONFIRMATION,
            answer=replies.CONFIRM_ON_THE_CARD,
            reason_codes=["CONFIRM_ON_THE_CARD"],
            keeps_frame=True,
        )
        try:
            turn.draft = self._p.actions.card(ctx, item.item_id, now=ctx.now)
        except ShifuError as exc:
            log.info("draft_card_unavailable", extra={"code": exc.code})
            turn.status = ResponseStatus.NEEDS_INPUT
            turn.answer = replies.NOTHING_TO_CONFIRM
            turn.reason_codes = [exc.code]
            return turn
        turn.pending_draft_id = item.item_id
        return turn

    def _dismiss(self, ctx: ExecutionContext, item: PendingItem) -> None:
        if item.kind not in (PendingKind.DRAFT, PendingKind.DRAFT_INPUT) or not is_draft_id(item.item_id):
            return
        try:
            card = self._p.actions.card(ctx, item.item_id, now=ctx.now)
            self._p.actions.dismiss(
                ctx, item.item_id, DismissRequest(expected_version=card.version), now=ctx.now
            )
        except ShifuError as exc:
            log.info("draft_dismiss_skipped", extra={"code": exc.code})

    # -- audit ---------------------------------------------------------------------------

    def _record(self, audit: RunAudit, turn: TurnResult, response: AgentResponse, started: float) -> None:
        audit.conversation_id = response.conversation_id
        audit.context_version = response.context_version
        audit.intent = response.intent.value
        audit.planner = turn.planner.value
        audit.tools = [c.tool for c in turn.tool_calls]
        audit.status = response.status.value
        audit.decision = response.decision.value if response.decision else None
        audit.source_types = sorted({s.type.value for s in response.source_summary})
        audit.reason_codes = list(response.trace.reason_codes)
        audit.counts = {
            "citations": len(response.citations),
            "facts": sum(len(r.facts) for r in turn.results),
            "toolCalls": len(turn.tool_calls),
            "rounds": turn.rounds,
            "modelCalls": turn.model_calls,
        }
        audit.timings_ms = {"total": (self._clock() - started) * 1000}
        self._p.audit.record(audit)
