"""GET /api/aihr/agent/resources/{resourceId}: protected originals, re-authorized at download."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from shifu.api.deps import ClientIdDep, PrincipalDep, ServicesDep

router = APIRouter(prefix="/api/aihr/agent/resources")


@router.get("/{resource_id}")
async def get_resource(
    resource_id: str, services: ServicesDep, principal: PrincipalDep, client: ClientIdDep
) -> Response:
    """Serve the file when the link is the caller's, unexpired and still authorized; else zero bytes."""
    return await services.open_resource(principal, client, resource_id)
