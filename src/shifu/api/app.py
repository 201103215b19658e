"""The FastAPI application factory; nothing is created at import time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from shifu.api.errors import install_error_handlers
from shifu.api.routes_actions import router as actions_router
from shifu.api.routes_agent import router as agent_router
from shifu.api.routes_demo import STATIC_DIR
from shifu.api.routes_demo import router as demo_router
from shifu.api.routes_health import router as health_router
from shifu.api.routes_resources import router as resources_router
from shifu.config import Settings
from shifu.runtime.wiring import Services, build_services

DemoActors = Callable[[], list[dict[str, str]]]


def create_app(
    settings: Settings, services: Services | None = None, *, demo_actors: DemoActors | None = None
) -> FastAPI:
    """A ready app for `settings`; tests may pass prebuilt `services`.

    `demo_actors` feeds the H5 actor picker and is only served in demo mode.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = services is None
        app.state.services = services or build_services(settings)
        try:
            yield
        finally:
            if owned:
                app.state.services.close()

    app = FastAPI(
        title="Shifu 数字师傅",
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.demo_actors = demo_actors if settings.is_demo else None
    install_error_handlers(app)
    app.include_router(health_router)
    app.include_router(agent_router)
    app.include_router(actions_router)
    app.include_router(resources_router)
    app.include_router(demo_router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
