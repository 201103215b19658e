"""The action service: draft, revise, dismiss and confirm — each write exactly once per key.

Crash safety (kill -9 anywhere, then a retry with the same key: nothing lost, nothing
doubled, no ticket left CONFIRMED):

* SQL tickets + a writer that joins the store transaction (the embedded default): the
  idempotency record, the domain row and the draft's move commit in ONE transaction.
* Otherwise (HTTP domain and/or Redis tickets), two phases: (1) record the key IN_FLIGHT
  with a lease and claim the draft (CONFIRMED, claim_key = key); (2) call the domain with
  the key (it de-duplicates); (3) save the response and move the draft to EXECUTED/FAILED.
  A retry after the lease lapsed resumes the recorded command; a record whose draft was
  never claimed is dropped, so a draft never executes under two keys.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import JsonValue
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions import wording
from shifu.actions.builders import PayloadBuilder
from shifu.actions.cards import render_card
from shifu.actions.editing import edited_fields
from shifu.actions.execution import run_command
from shifu.actions.idempotency import IdempotencyLedger, IdempotencyRecord, RecordState
from shifu.actions.model import (
    TICKET_TTL_S,
    ActionDraft,
    ConfirmRequest,
    ConfirmResult,
    DismissRequest,
    DraftOutcome,
    ExecutionReceipt,
    ReviseRequest,
)
from shifu.actions.payloads import (
    PAYLOAD_MODELS,
    Visibility,
    load_payload,
    payload_fields,
    sha256_hex,
)
from shifu.actions.payloads import payload_hash as hash_payload
from shifu.actions.policy import ensure_owner, ensure_payload_in_scope
from shifu.actions.ports import DomainWritePorts, PendingReviewSource, TeamDirectory
from shifu.actions.states import DraftStatus, IllegalTransition, ensure_transition
from shifu.actions.tickets import TicketStore, new_draft_id
from shifu.contracts.common import ResponseStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.messages import ActionDraftCard
from shifu.contracts.plan import ToolCall
from shifu.errors import (
    BadRequest,
    Expired,
    Failure,
    Forbidden,
    IdempotencyMismatch,
    NeedsInput,
    NotFound,
    Unavailable,
    VersionConflict,
)
from shifu.store.engine import transaction

logger = logging.getLogger(__name__)

_STALE = "内容已被更新，请刷新草稿后重试。"
_IN_FLIGHT = "这次确认正在处理中，请稍后用同一请求查看结果。"


class _DraftMoved(Exception):
    """The draft's version changed under us (internal)."""


class ActionService:
    """Drafts and confirmation cards for the four DRAFT tools (seed 001 §8)."""

    def __init__(
        self,
        *,
        session_factory: sessionmaker[Session],
        tickets: TicketStore,
        writers: DomainWritePorts,
        directory: TeamDirectory,
        reviews: PendingReviewSource,
        tz: ZoneInfo | None = None,
        lease: timedelta = timedelta(seconds=30),
        ticket_ttl: timedelta = timedelta(seconds=TICKET_TTL_S),
    ) -> None:
        self._sessions = session_factory
        self._tickets = tickets
        self._writers = writers
        self._directory = directory
        self._tz = tz or ZoneInfo("Asia/Shanghai")
        self._lease = lease
        self._ttl = ticket_ttl
        self._ledger = IdempotencyLedger(session_factory)
        self._builder = PayloadBuilder(directory, reviews, tz=self._tz)
        self._one_transaction = tickets.shares_sql_transaction and writers.joins_store_transaction

    # ------------------------------------------------------------------ drafting

    def build_draft(self, ctx: ExecutionContext, call: ToolCall, *, now: datetime) -> DraftOutcome:
        """Turn a DRAFT tool call into a card (or a reason there is none); writes no domain data."""
        if call.tool not in PAYLOAD_MODELS:
            raise BadRequest("这不是草稿类工具。", code="NOT_A_DRAFT_TOOL")
        try:
            built = self._builder.build(ctx, call, now=now)
        except Forbidden as exc:
            return DraftOutcome(ResponseStatus.FORBIDDEN, exc.message, reason_code=exc.code)
        if built.forbidden:
            return DraftOutcome(
                ResponseStatus.FORBIDDEN, built.message or Forbidden.message, reason_code=built.reason_code
            )
        if built.nothing_to_do:
            return DraftOutcome(ResponseStatus.COMPLETED, built.message or "", reason_code=built.reason_code)
        missing = tuple(built.missing[:3])
        if built.payload is None:
            text = built.message or wording.needs_input_text(list(missing))
            return DraftOutcome(
                ResponseStatus.NEEDS_INPUT, text, missing_fields=missing, reason_code=built.reason_code
            )
        fields = payload_fields(built.payload)
        draft = ActionDraft(
            draft_id=new_draft_id(),
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            tool=call.tool,
            status=DraftStatus.NEEDS_INPUT if missing else DraftStatus.DRAFT,
            version=1,
            payload=fields,
            missing_fields=missing,
            payload_hash=hash_payload(call.tool, built.payload),
            created_at=now,
            updated_at=now,
            expires_at=now + self._ttl,
        )
        self._tickets.create(draft)
        logger.info("draft issued", extra={"tool": call.tool.value, "status": draft.status.value})
        card = self._card(ctx, draft)
        if missing:
            text = built.message or wording.needs_input_text(list(missing))
            return DraftOutcome(ResponseStatus.NEEDS_INPUT, text, card, missing, built.reason_code)
        return DraftOutcome(
            ResponseStatus.NEEDS_CONFIRMATION, wording.card_ready_text(call.tool, fields), card
        )

    def card(self, ctx: ExecutionContext, draft_id: str, *, now: datetime) -> ActionDraftCard:
        """The current card of one of the user's drafts."""
        return self._card(ctx, self._load_owned(ctx, draft_id, now=now))

    def revise(
        self, ctx: ExecutionContext, draft_id: str, request: ReviseRequest, *, now: datetime
    ) -> ActionDraftCard:
        """Edit a DRAFT, fill a NEEDS_INPUT, or revise a FAILED draft back to DRAFT; nothing executes."""
        draft = self._load_owned(ctx, draft_id, now=now)
        self._check_version(draft, request.expected_version)
        if draft.status not in (DraftStatus.DRAFT, DraftStatus.NEEDS_INPUT, DraftStatus.FAILED):
            raise IllegalTransition(current=draft.version)
        fields, missing = self._edited(ctx, draft, request.edited_fields, None, need_visibility=False)
        target = DraftStatus.NEEDS_INPUT if missing else DraftStatus.DRAFT
        if draft.status is DraftStatus.FAILED:
            ensure_transition(DraftStatus.FAILED, DraftStatus.DRAFT, version=draft.version)
            if target is DraftStatus.NEEDS_INPUT:
                ensure_transition(DraftStatus.DRAFT, target, version=draft.version)
        elif draft.status is not target:
            ensure_transition(draft.status, target, version=draft.version)
        revised = replace(
            draft,
            status=target,
            version=draft.version + 1,
            updated_at=now,
            payload=fields,
            payload_hash=hash_payload(draft.tool, load_payload(draft.tool, fields)),
            missing_fields=tuple(missing[:3]),
            claim_key=None,
            error_code=None,
        )
        if not self._tickets.replace(revised, expected_version=draft.version):
            raise self._conflict(draft.draft_id)
        return self._card(ctx, revised)

    def dismiss(
        self, ctx: ExecutionContext, draft_id: str, request: DismissRequest, *, now: datetime
    ) -> ActionDraftCard:
        """Cancel a draft; dismissing a dismissed draft answers its card again."""
        draft = self._load_owned(ctx, draft_id, now=now)
        if draft.status is DraftStatus.DISMISSED:
            return self._card(ctx, draft)
        self._check_version(draft, request.expected_version)
        ensure_transition(draft.status, DraftStatus.DISMISSED, version=draft.version)
        dismissed = draft.moved(DraftStatus.DISMISSED, now=now, claim_key=None)
        if not self._tickets.replace(dismissed, expected_version=draft.version):
            raise self._conflict(draft.draft_id)
        logger.info("draft dismissed", extra={"tool": draft.tool.value})
        return self._card(ctx, dismissed)

    # ------------------------------------------------------------------ confirming

    def confirm(
        self, ctx: ExecutionContext, draft_id: str, request: ConfirmRequest, *, now: datetime
    ) -> ConfirmResult:
        """Execute exactly the shown (possibly edited, re-validated) payload once per idempotency key."""
        body = request.model_dump(mode="json", by_alias=True, exclude={"idempotency_key"})
        request_hash = sha256_hex({"op": "confirm", "draftId": draft_id, "body": body})
        record = self._ledger.get(ctx.tenant_id, ctx.user_id, request.idempotency_key)
        if record is not None:
            return self._replay(ctx, record, request_hash, now=now)
        draft = self._load_owned(ctx, draft_id, now=now)
        self._check_version(draft, request.expected_version)
        if draft.status not in (DraftStatus.DRAFT, DraftStatus.NEEDS_INPUT):
            raise IllegalTransition(current=draft.version)
        fields, missing = self._edited(
            ctx, draft, request.edited_fields, request.visibility, need_visibility=True
        )
        if missing:
            raise NeedsInput(wording.needs_input_text(missing), code="DRAFT_INCOMPLETE")
        ensure_payload_in_scope(ctx, draft.tool, fields, self._directory)
        if draft.status is DraftStatus.NEEDS_INPUT:
            ensure_transition(DraftStatus.NEEDS_INPUT, DraftStatus.DRAFT, version=draft.version)
        ensure_transition(DraftStatus.DRAFT, DraftStatus.CONFIRMED, version=draft.version)
        claimed = self._claimed(draft, fields, request.idempotency_key, now=now)
        record = IdempotencyRecord(
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            key=request.idempotency_key,
            draft_id=draft.draft_id,
            request_hash=request_hash,
            state=RecordState.IN_FLIGHT,
            expected_version=draft.version,
            command={"tool": draft.tool.value, "fields": fields},
            response=None,
            lease_until=now + self._lease,
        )
        if self._one_transaction:
            return self._confirm_in_one_transaction(ctx, draft, claimed, record, now=now)
        return self._confirm_in_phases(ctx, draft, claimed, record, now=now)

    def _confirm_in_one_transaction(
        self,
        ctx: ExecutionContext,
        draft: ActionDraft,
        claimed: ActionDraft,
        record: IdempotencyRecord,
        *,
        now: datetime,
    ) -> ConfirmResult:
        try:
            with transaction(self._sessions) as session:
                self._ledger.insert(record, session, now=now)
                if not self._tickets.replace(claimed, expected_version=draft.version, session=session):
                    raise _DraftMoved
                receipt = self._run(ctx, claimed, record, session)
                final, result = self._executed(ctx, claimed, receipt, now=now)
                self._tickets.replace(final, expected_version=claimed.version, session=session)
                self._ledger.complete(record, result.model_dump(mode="json", by_alias=True), session, now=now)
        except IntegrityError:
            return self._after_race(ctx, record, now=now)
        except _DraftMoved:
            raise self._conflict(draft.draft_id) from None
        except Unavailable:
            raise
        except Failure as exc:
            return self._record_rejection(ctx, draft, claimed, record, exc, now=now)
        logger.info("draft executed", extra={"tool": claimed.tool.value, "path": "one_transaction"})
        return result

    def _record_rejection(
        self,
        ctx: ExecutionContext,
        draft: ActionDraft,
        claimed: ActionDraft,
        record: IdempotencyRecord,
        exc: Failure,
        *,
        now: datetime,
    ) -> ConfirmResult:
        final, result = self._failed(ctx, claimed, exc.code, now=now)
        try:
            with transaction(self._sessions) as session:
                self._ledger.insert(record, session, now=now)
                if not self._tickets.replace(final, expected_version=draft.version, session=session):
                    raise _DraftMoved
                self._ledger.complete(record, result.model_dump(mode="json", by_alias=True), session, now=now)
        except IntegrityError:
            return self._after_race(ctx, record, now=now)
        except _DraftMoved:
            raise self._conflict(draft.draft_id) from None
        return result

    def _confirm_in_phases(
        self,
        ctx: ExecutionContext,
        draft: ActionDraft,
        claimed: ActionDraft,
        record: IdempotencyRecord,
        *,
        now: datetime,
    ) -> ConfirmResult:
        shares = self._tickets.shares_sql_transaction
        try:
            with transaction(self._sessions) as session:
                self._ledger.insert(record, session, now=now)
                if shares and not self._tickets.replace(
                    claimed, expected_version=draft.version, session=session
                ):
                    raise _DraftMoved
        except IntegrityError:
            return self._after_race(ctx, record, now=now)
        except _DraftMoved:
            raise self._conflict(draft.draft_id) from None
        if not shares and not self._tickets.replace(claimed, expected_version=draft.version):
            self._ledger.forget(record)
            raise self._conflict(draft.draft_id)
        return self._execute_claimed(ctx, claimed, record, now=now)

    def _execute_claimed(
        self, ctx: ExecutionContext, claimed: ActionDraft, record: IdempotencyRecord, *, now: datetime
    ) -> ConfirmResult:
        try:
            receipt = self._run(ctx, claimed, record, None)
        except Unavailable:
            self._ledger.release(record, now=now)
            raise
        except Failure as exc:
            final, result = self._failed(ctx, claimed, exc.code, now=now)
        else:
            final, result = self._executed(ctx, claimed, receipt, now=now)
        shares = self._tickets.shares_sql_transaction
        with transaction(self._sessions) as session:
            self._ledger.complete(record, result.model_dump(mode="json", by_alias=True), session, now=now)
            if shares:
                self._tickets.replace(final, expected_version=claimed.version, session=session)
        if not shares:
            self._tickets.replace(final, expected_version=claimed.version)
        logger.info(
            "draft finished",
            extra={"tool": claimed.tool.value, "status": final.status.value, "path": "phases"},
        )
        return result

    def _replay(
        self, ctx: ExecutionContext, record: IdempotencyRecord, request_hash: str, *, now: datetime
    ) -> ConfirmResult:
        if record.request_hash != request_hash:
            raise IdempotencyMismatch()
        if record.state is RecordState.COMPLETED and record.response is not None:
            result = ConfirmResult.model_validate(record.response)
            self._repair(record, result, now=now)
            return result
        if record.lease_until > now:
            raise VersionConflict(_IN_FLIGHT, code="IN_FLIGHT")
        return self._resume(ctx, record, now=now)

    def _after_race(
        self, ctx: ExecutionContext, record: IdempotencyRecord, *, now: datetime
    ) -> ConfirmResult:
        """Another request with the same key committed first: answer as a retry of it."""
        stored = self._ledger.get(record.tenant_id, record.user_id, record.key)
        if stored is None:
            raise VersionConflict(_IN_FLIGHT, code="IN_FLIGHT")
        return self._replay(ctx, stored, record.request_hash, now=now)

    def _resume(self, ctx: ExecutionContext, record: IdempotencyRecord, *, now: datetime) -> ConfirmResult:
        """Finish a confirmation whose worker died (lease lapsed), with the same key."""
        if not self._ledger.take_lease(record, until=now + self._lease, now=now):
            raise VersionConflict(_IN_FLIGHT, code="IN_FLIGHT")
        draft = self._tickets.load(record.draft_id)
        if draft is None:
            self._ledger.forget(record)
            raise Expired("这份草稿已失效，请重新发起。", code="DRAFT_EXPIRED")
        fields = dict(record.command["fields"])
        if draft.claim_key == record.key and draft.status is DraftStatus.CONFIRMED:
            claimed = draft
        elif (
            draft.status in (DraftStatus.DRAFT, DraftStatus.NEEDS_INPUT)
            and draft.version == record.expected_version
        ):
            ensure_payload_in_scope(ctx, draft.tool, fields, self._directory)
            claimed = self._claimed(draft, fields, record.key, now=now)
            if not self._tickets.replace(claimed, expected_version=draft.version):
                self._ledger.forget(record)
                raise self._conflict(draft.draft_id)
        else:
            self._ledger.forget(record)
            raise VersionConflict(_STALE, current=draft.version)
        logger.info("confirmation resumed", extra={"tool": draft.tool.value})
        return self._execute_claimed(ctx, claimed, record, now=now)

    def _repair(self, record: IdempotencyRecord, result: ConfirmResult, *, now: datetime) -> None:
        """Redis mode: move a draft left CONFIRMED by a crash to the saved final state."""
        if self._tickets.shares_sql_transaction:
            return
        draft = self._tickets.load(record.draft_id)
        if draft is None or draft.status is not DraftStatus.CONFIRMED or draft.claim_key != record.key:
            return
        receipt = result.receipt.model_dump(mode="json", by_alias=True) if result.receipt else None
        final = draft.moved(result.status, now=now, receipt=receipt, error_code=result.error_code)
        self._tickets.replace(final, expected_version=draft.version)

    # ------------------------------------------------------------------ helpers

    def _run(
        self, ctx: ExecutionContext, claimed: ActionDraft, record: IdempotencyRecord, session: Session | None
    ) -> ExecutionReceipt:
        domain_key = "ik-" + sha256_hex([record.tenant_id, record.user_id, record.key])[:40]
        return run_command(
            self._writers,
            tenant_id=claimed.tenant_id,
            user_id=claimed.user_id,
            tool=claimed.tool,
            fields=claimed.payload,
            idempotency_key=domain_key,
            session=session,
        )

    def _claimed(self, draft: ActionDraft, fields: dict[str, Any], key: str, *, now: datetime) -> ActionDraft:
        return replace(
            draft,
            status=DraftStatus.CONFIRMED,
            version=draft.version + 1,
            updated_at=now,
            payload=fields,
            payload_hash=hash_payload(draft.tool, load_payload(draft.tool, fields)),
            missing_fields=(),
            claim_key=key,
            error_code=None,
        )

    def _executed(
        self, ctx: ExecutionContext, claimed: ActionDraft, receipt: ExecutionReceipt, *, now: datetime
    ) -> tuple[ActionDraft, ConfirmResult]:
        ensure_transition(claimed.status, DraftStatus.EXECUTED)
        final = claimed.moved(
            DraftStatus.EXECUTED, now=now, receipt=receipt.model_dump(mode="json", by_alias=True)
        )
        message = wording.executed_text(receipt.kind, receipt.record_id, receipt.status, receipt.at, self._tz)
        return final, ConfirmResult(
            status=DraftStatus.EXECUTED, message=message, draft=self._card(ctx, final), receipt=receipt
        )

    def _failed(
        self, ctx: ExecutionContext, claimed: ActionDraft, code: str, *, now: datetime
    ) -> tuple[ActionDraft, ConfirmResult]:
        ensure_transition(claimed.status, DraftStatus.FAILED)
        final = claimed.moved(DraftStatus.FAILED, now=now, error_code=code)
        result = ConfirmResult(
            status=DraftStatus.FAILED,
            message=wording.failed_text(code),
            draft=self._card(ctx, final),
            error_code=code,
        )
        return final, result

    def _edited(
        self,
        ctx: ExecutionContext,
        draft: ActionDraft,
        edits: dict[str, JsonValue] | None,
        visibility: Visibility | None,
        *,
        need_visibility: bool,
    ) -> tuple[dict[str, Any], list[str]]:
        return edited_fields(self._builder, ctx, draft, edits, visibility, need_visibility=need_visibility)

    def _load_owned(self, ctx: ExecutionContext, draft_id: str, *, now: datetime) -> ActionDraft:
        draft = self._tickets.load(draft_id)
        if draft is None:
            raise NotFound("没有找到这份草稿，可能已失效。", code="DRAFT_NOT_FOUND")
        ensure_owner(ctx, draft.tenant_id, draft.user_id)
        if now >= draft.expires_at:
            if draft.status in (DraftStatus.DRAFT, DraftStatus.NEEDS_INPUT):
                lapsed = draft.moved(DraftStatus.DISMISSED, now=now, error_code="EXPIRED")
                self._tickets.replace(lapsed, expected_version=draft.version)
            raise Expired("这份草稿已超过 30 分钟有效期，请重新发起。", code="DRAFT_EXPIRED")
        return draft

    @staticmethod
    def _check_version(draft: ActionDraft, expected: int) -> None:
        if draft.version != expected:
            raise VersionConflict(_STALE, current=draft.version)

    def _conflict(self, draft_id: str) -> VersionConflict:
        current = self._tickets.load(draft_id)
        return VersionConflict(_STALE, current=current.version if current else None)

    def _card(self, ctx: ExecutionContext, draft: ActionDraft) -> ActionDraftCard:
        return render_card(draft, display_name=ctx.display_name, tz=self._tz)
