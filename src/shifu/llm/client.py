"""One client for any OpenAI-compatible chat endpoint (vLLM, Ollama, DashScope, DeepSeek …).

Every consumer (planner, evidence classifier, composer) asks for a JSON object that
matches a schema and gets a `dict` back or a `ModelError` whose `code` says what went
wrong — the fallback chains above decide what to do with each code:

    ModelError
    ├── MODEL_TIMEOUT       no complete answer within `timeout_s`
    ├── MODEL_TRANSPORT     connection refused/reset, DNS, TLS
    ├── MODEL_HTTP_ERROR    a non-2xx status the format fallback could not fix
    └── MODEL_INVALID_JSON  a 2xx answer whose content is not one JSON object

Servers differ in how much of `response_format` they accept, so the client steps down:
`json_schema` (strict) → `json_object` → plain prompt, and remembers the level that worked.
Whatever level answered, the content is parsed and returned unvalidated: schema checks
belong to the caller, because model output is untrusted input.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Protocol

import httpx

from shifu.errors import ModelError

logger = logging.getLogger(__name__)

MODEL_TIMEOUT = "MODEL_TIMEOUT"
MODEL_TRANSPORT = "MODEL_TRANSPORT"
MODEL_HTTP_ERROR = "MODEL_HTTP_ERROR"
MODEL_INVALID_JSON = "MODEL_INVALID_JSON"

_FORMAT_LEVELS = ("json_schema", "json_object", "plain")
_REJECTED_FORMAT_STATUSES = frozenset({400, 404, 415, 422, 501})
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


class ChatClient(Protocol):
    """Ask a chat model for one JSON object matching `schema`."""

    def complete_json(
        self, *, system: str, user: str, schema: dict[str, Any], schema_name: str, timeout_s: float
    ) -> dict[str, Any]:
        """Return the parsed object or raise `ModelError` with one of the codes above."""
        ...


def parse_json_object(content: str) -> dict[str, Any]:
    """Parse a model's content as exactly one JSON object (a ```json fence is tolerated)."""
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ModelError("模型返回的内容不是 JSON。", code=MODEL_INVALID_JSON) from exc
    if not isinstance(value, dict):
        raise ModelError("模型返回的 JSON 不是对象。", code=MODEL_INVALID_JSON)
    return value


class OpenAICompatibleClient:
    """`POST {base_url}/v1/chat/completions` over httpx with a per-call timeout."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        root = base_url.rstrip("/")
        self._url = f"{root}/chat/completions" if root.endswith("/v1") else f"{root}/v1/chat/completions"
        self._model = model
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._http = httpx.Client(headers=headers, transport=transport)
        self._level = 0

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def _body(self, level: str, system: str, user: str, schema: dict[str, Any], name: str) -> dict[str, Any]:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        body: dict[str, Any] = {"model": self._model, "messages": messages, "temperature": 0}
        if level == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            }
        elif level == "json_object":
            body["response_format"] = {"type": "json_object"}
        else:
            messages[0]["content"] = (
                f"{system}\n\n只输出一个 JSON 对象，不要输出其他文字。JSON Schema：\n"
                f"{json.dumps(schema, ensure_ascii=False)}"
            )
        return body

    def complete_json(
        self, *, system: str, user: str, schema: dict[str, Any], schema_name: str, timeout_s: float
    ) -> dict[str, Any]:
        """See `ChatClient`; steps down the response-format levels on a format rejection."""
        while True:
            level = _FORMAT_LEVELS[self._level]
            body = self._body(level, system, user, schema, schema_name)
            try:
                response = self._http.post(self._url, json=body, timeout=timeout_s)
            except httpx.TimeoutException as exc:
                raise ModelError("模型服务响应超时。", code=MODEL_TIMEOUT) from exc
            except httpx.HTTPError as exc:
                raise ModelError("无法连接模型服务。", code=MODEL_TRANSPORT) from exc
            if response.status_code in _REJECTED_FORMAT_STATUSES and self._level < len(_FORMAT_LEVELS) - 1:
                logger.info("model endpoint rejected response format", extra={"level": level})
                self._level += 1
                continue
            if response.status_code >= 300:
                logger.warning("model endpoint error", extra={"status": response.status_code})
                raise ModelError("模型服务返回错误。", code=MODEL_HTTP_ERROR)
            return parse_json_object(_content(response))


def _content(response: httpx.Response) -> str:
    """The first choice's message content of a chat completion."""
    try:
        content = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ModelError("模型服务返回的格式不正确。", code=MODEL_INVALID_JSON) from exc
    if not isinstance(content, str):
        raise ModelError("模型服务返回的格式不正确。", code=MODEL_INVALID_JSON)
    return content
