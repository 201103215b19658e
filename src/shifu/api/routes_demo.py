"""The H5 page and, in demo mode only, the actor picker's tokens."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from shifu.api.deps import ServicesDep
from shifu.api.errors import error_response

STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    """The chat page (all assets local)."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html")


@router.get("/api/demo/actors", include_in_schema=False)
def demo_actors(services: ServicesDep) -> JSONResponse:
    """Demo actors with tokens — refused outside demo mode."""
    if not services.settings.is_demo:
        return error_response(404, "NOT_FOUND", "没有找到对应的内容。")
    return JSONResponse(content=services.demo_actors())
