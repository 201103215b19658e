"""Structured JSON log lines: a message plus named fields, nothing else."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


def _event(record: logging.LogRecord) -> str:
    """Our own records carry a fixed event name; third-party ones (uvicorn) their formatted message."""
    if not isinstance(record.msg, str):
        return type(record.msg).__name__
    return record.msg if record.name.startswith("shifu") else record.getMessage()


class JsonFormatter(logging.Formatter):
    """One JSON object per line with time, level, logger, event and the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "event": _event(record),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                payload[key] = value if isinstance(value, int | float | bool | str | None) else str(value)
        if record.exc_info and record.exc_info[0] is not None:
            payload["exc_type"] = record.exc_info[0].__name__
        return json.dumps(payload, ensure_ascii=False)


def configure_json_logging(level: int = logging.INFO) -> None:
    """Route the root logger to stderr as JSON lines (idempotent)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_shifu_json", False):
            return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._shifu_json = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("jieba", "httpx", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
