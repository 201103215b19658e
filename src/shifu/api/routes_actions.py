"""Confirmation endpoints for action drafts (seed 001 §10.1)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from shifu.api.body import read_json_model
from shifu.api.deps import ClientIdDep, PrincipalDep, ServicesDep

router = APIRouter(prefix="/api/aihr/agent/actions")


@router.post("/{draft_id}/confirm")
async def confirm(
    draft_id: str, request: Request, services: ServicesDep, principal: PrincipalDep, client: ClientIdDep
) -> JSONResponse:
    """Confirm a draft with expectedVersion + idempotencyKey; executes exactly the shown payload."""
    model = services.confirm_request_model()
    body = await read_json_model(request, model, max_bytes=services.settings.max_body_bytes)
    result = await services.confirm_action(principal, client, draft_id, body)
    return JSONResponse(content=result)


@router.post("/{draft_id}/dismiss")
async def dismiss(
    draft_id: str, request: Request, services: ServicesDep, principal: PrincipalDep, client: ClientIdDep
) -> JSONResponse:
    """Dismiss a draft; nothing is executed."""
    model = services.dismiss_request_model()
    body = await read_json_model(request, model, max_bytes=services.settings.max_body_bytes)
    result = await services.dismiss_action(principal, client, draft_id, body)
    return JSONResponse(content=result)
