"""The OpenAI-compatible client over real loopback HTTP against the shipped fake server."""

from __future__ import annotations

import socket

import pytest

from shifu.errors import ModelError
from shifu.llm.client import OpenAICompatibleClient, parse_json_object
from shifu.llm.fake_server import Reply, running_fake_server
from shifu.llm.scripted import ScriptedChatClient

SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}


def _ask(client: OpenAICompatibleClient, timeout_s: float = 2.0) -> dict[str, object]:
    return client.complete_json(system="s", user="u", schema=SCHEMA, schema_name="t", timeout_s=timeout_s)


def test_json_reply_is_parsed_and_the_request_asks_for_a_strict_schema() -> None:
    with running_fake_server([Reply.json({"a": 1})]) as server:
        client = OpenAICompatibleClient(server.base_url, "m", "key")
        assert _ask(client) == {"a": 1}
        client.close()
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["strict"] is True
    assert server.requests[0]["model"] == "m"


def test_a_server_rejecting_json_schema_is_asked_again_with_json_object() -> None:
    with running_fake_server([Reply.json({"a": 2}, reject_json_schema=True)]) as server:
        client = OpenAICompatibleClient(server.base_url + "/v1", "m")
        assert _ask(client) == {"a": 2}
        client.close()
    assert [r.get("response_format", {}).get("type") for r in server.requests] == [
        "json_schema",
        "json_object",
    ]


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        (Reply(content="好的，我来帮你查一下待办。"), "MODEL_INVALID_JSON"),
        (Reply(content="[1, 2]"), "MODEL_INVALID_JSON"),
        (Reply(status=500, content="boom"), "MODEL_HTTP_ERROR"),
        (Reply.json({"a": 1}, delay_s=0.6), "MODEL_TIMEOUT"),
    ],
)
def test_failures_map_to_typed_codes(reply: Reply, code: str) -> None:
    with running_fake_server([reply]) as server:
        client = OpenAICompatibleClient(server.base_url, "m")
        with pytest.raises(ModelError) as info:
            _ask(client, timeout_s=0.2)
        client.close()
    assert info.value.code == code


def test_a_refused_connection_is_a_transport_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = OpenAICompatibleClient(f"http://127.0.0.1:{port}", "m")
    with pytest.raises(ModelError) as info:
        _ask(client)
    client.close()
    assert info.value.code == "MODEL_TRANSPORT"


def test_fenced_json_is_tolerated() -> None:
    assert parse_json_object('```json\n{"a": 3}\n```') == {"a": 3}


def test_scripted_client_replays_in_order_and_records_calls() -> None:
    client = ScriptedChatClient.of([{"a": 1}, ModelError(code="MODEL_TIMEOUT")])
    assert client.complete_json(system="s", user="u", schema=SCHEMA, schema_name="t", timeout_s=1) == {"a": 1}
    with pytest.raises(ModelError) as info:
        client.complete_json(system="s", user="u", schema=SCHEMA, schema_name="t", timeout_s=1)
    assert info.value.code == "MODEL_TIMEOUT"
    assert [c.user for c in client.calls] == ["u", "u"]
