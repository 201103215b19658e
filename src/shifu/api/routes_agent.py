"""POST /api/aihr/agent/messages: the one entry of the agent."""

from __future__ import annotations

from fastapi import APIRouter, Request

from shifu.api.body import read_json_model
from shifu.api.deps import ClientIdDep, PrincipalDep, ServicesDep
from shifu.contracts.messages import AgentRequest, AgentResponse

router = APIRouter(prefix="/api/aihr/agent")


@router.post("/messages", response_model=AgentResponse, response_model_by_alias=True)
async def post_message(
    request: Request, services: ServicesDep, principal: PrincipalDep, client: ClientIdDep
) -> AgentResponse:
    """Answer one message; identity and scope come from the token, never from the body."""
    body = await read_json_model(request, AgentRequest, max_bytes=services.settings.max_body_bytes)
    return await services.run_message(principal, client, body)
