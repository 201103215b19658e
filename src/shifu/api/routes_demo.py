"""The H5 page and, in demo mode only, the actor picker's tokens."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from shifu.api.errors import error_response

STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    """The chat page (all assets local)."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html")


@router.get("/api/demo/actors", include_in_schema=False)
def demo_actors(request: Request) -> JSONResponse:
    """Demo actors with tokens — only in demo mode, when the deployment provides them."""
    provider = request.app.state.demo_actors
    if provider is None:
        return error_response(404, "NOT_FOUND", "没有找到对应的内容。")
    return JSONResponse(content=provider())
