"""Strict JSON body parsing with stable, Chinese error codes for every kind of bad input."""

from __future__ import annotations

import json
from typing import TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from shifu.errors import BadRequest, InvalidInput, PayloadTooLarge, UnsupportedMediaType

ModelT = TypeVar("ModelT", bound=BaseModel)


_FIELD_ERRORS = {
    ("text", "string_too_long"): ("TEXT_TOO_LONG", "问题过长，请控制在 2000 字以内。"),
    ("text", "value_error"): ("TEXT_EMPTY", "请输入问题内容。"),
    ("text", "missing"): ("TEXT_EMPTY", "请输入问题内容。"),
}


async def read_json_model(request: Request, model: type[ModelT], *, max_bytes: int) -> ModelT:
    """Read, size-check, decode and validate a JSON body; raise a typed error otherwise."""
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaType()
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise PayloadTooLarge()
    raw = bytearray()
    async for chunk in request.stream():
        raw.extend(chunk)
        if len(raw) > max_bytes:
            raise PayloadTooLarge()
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest("请求不是合法的 JSON。", code="INVALID_JSON") from exc
    if not isinstance(payload, dict):
        raise BadRequest("请求体必须是 JSON 对象。", code="INVALID_JSON")
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise _validation_error(exc) from exc


def _validation_error(exc: ValidationError) -> InvalidInput:
    first = exc.errors()[0]
    location = str(first["loc"][0]) if first["loc"] else ""
    kind = str(first["type"])
    if kind == "extra_forbidden":
        return InvalidInput("请求包含不支持的字段。", code="UNKNOWN_FIELD")
    code, message = _FIELD_ERRORS.get((location, kind), ("VALIDATION_ERROR", "请求参数不符合要求。"))
    return InvalidInput(message, code=code)
