"""The only place ShifuErrors become HTTP statuses; every error body is `ErrorBody` JSON."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from shifu.contracts.messages import ErrorBody
from shifu.errors import (
    BadRequest,
    ClientMismatch,
    Expired,
    Forbidden,
    IdempotencyMismatch,
    InvalidInput,
    Misuse,
    NeedsInput,
    NotFound,
    PayloadTooLarge,
    ShifuError,
    Unauthenticated,
    Unavailable,
    UnsupportedMediaType,
    VersionConflict,
)

log = logging.getLogger(__name__)

_STATUS_BY_TYPE: tuple[tuple[type[ShifuError], int], ...] = (
    (Unauthenticated, 401),
    (ClientMismatch, 403),
    (Forbidden, 403),
    (NotFound, 404),
    (VersionConflict, 409),
    (Expired, 410),
    (IdempotencyMismatch, 422),
    (InvalidInput, 422),
    (NeedsInput, 422),
    (PayloadTooLarge, 413),
    (UnsupportedMediaType, 415),
    (BadRequest, 400),
    (Misuse, 400),
    (Unavailable, 503),
)

_HTTP_MESSAGES = {
    404: ("NOT_FOUND", "没有找到对应的内容。"),
    405: ("METHOD_NOT_ALLOWED", "不支持该请求方法。"),
}


def http_status_for(error: ShifuError) -> int:
    """The HTTP status of an error; anything unlisted is a 500."""
    for error_type, status in _STATUS_BY_TYPE:
        if isinstance(error, error_type):
            return status
    return 500


def error_response(
    status: int, code: str, message: str, *, current_version: int | None = None
) -> JSONResponse:
    """A JSON error response with a stable code and a Chinese message."""
    body = ErrorBody(code=code, message=message, current_version=current_version)
    return JSONResponse(status_code=status, content=body.model_dump(by_alias=True, exclude_none=True))


def response_for(error: ShifuError) -> JSONResponse:
    """The response for a deliberate error."""
    current = error.current if isinstance(error, VersionConflict) else None
    return error_response(http_status_for(error), error.code, error.message, current_version=current)


def install_error_handlers(app: FastAPI) -> None:
    """Map every error — deliberate, validation, HTTP or unexpected — to an ErrorBody."""

    @app.exception_handler(ShifuError)
    async def _shifu(_: Request, exc: ShifuError) -> JSONResponse:
        return response_for(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "VALIDATION_ERROR", "请求参数不符合要求。")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code, message = _HTTP_MESSAGES.get(exc.status_code, ("HTTP_ERROR", "请求无法处理。"))
        return error_response(exc.status_code, code, message)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled_error", extra={"error": type(exc).__name__})
        return error_response(500, "INTERNAL_ERROR", "服务内部错误，请稍后再试。")
