"""Issue 2 over HTTP: bad input, authentication, client and project scope, probes, the page.

Every refusal is a JSON ErrorBody with a stable code and a Chinese message, carries no
stack trace, and writes nothing (row counts of every table are compared).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import pytest
from fastapi.testclient import TestClient

from shifu.api.app import create_app
from shifu.config import Settings
from shifu.context.auth import issue_token
from shifu.context.identity import Principal
from shifu.demo.setup import demo_actor_tokens
from shifu.runtime.wiring import Services

from .support import auth_headers, row_counts

pytest_plugins = ["e2e.fixtures_e2e"]

MESSAGES = "/api/aihr/agent/messages"
CJK = re.compile(r"[\u4e00-\u9fff]")
TRACE_MARKERS = ("Traceback", 'File "', "Error:", "line ", ".py")


def _assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert CJK.search(body["message"]), body
    assert set(body) <= {"code", "message", "currentVersion"}
    for marker in TRACE_MARKERS:
        assert marker not in response.text


BAD_BODIES: list[tuple[str, str | bytes, dict[str, str], int, str]] = [
    ("empty text", json.dumps({"text": ""}), {}, 422, "TEXT_EMPTY"),
    ("blank text", json.dumps({"text": "   "}), {}, 422, "TEXT_EMPTY"),
    ("missing text", json.dumps({}), {}, 422, "TEXT_EMPTY"),
    ("text over 2000 chars", json.dumps({"text": "问" * 2001}), {}, 422, "TEXT_TOO_LONG"),
    ("invalid json", "{text: 你好", {}, 400, "INVALID_JSON"),
    ("json array", json.dumps(["你好"]), {}, 400, "INVALID_JSON"),
    ("not utf-8", b"\xff\xfe{}", {}, 400, "INVALID_JSON"),
    ("unknown field", json.dumps({"text": "你好", "debug": True}), {}, 422, "UNKNOWN_FIELD"),
    ("tenant in body", json.dumps({"text": "我的待办", "tenantId": "other"}), {}, 422, "UNKNOWN_FIELD"),
    ("user in body", json.dumps({"text": "我的待办", "userId": "u-zhaoliu"}), {}, 422, "UNKNOWN_FIELD"),
    ("role in body", json.dumps({"text": "谁还没复盘", "role": "SUPERVISOR"}), {}, 422, "UNKNOWN_FIELD"),
    (
        "space in body",
        json.dumps({"text": "报销", "spaceIds": ["space-supervisors"]}),
        {},
        422,
        "UNKNOWN_FIELD",
    ),
    ("tool in body", json.dumps({"text": "我的待办", "tool": "TEAM_WORK_RESULTS"}), {}, 422, "UNKNOWN_FIELD"),
    ("wrong type", json.dumps({"text": 42}), {}, 422, "VALIDATION_ERROR"),
    ("negative version", json.dumps({"text": "你好", "contextVersion": -1}), {}, 422, "VALIDATION_ERROR"),
    ("text/plain", "你好", {"Content-Type": "text/plain"}, 415, "UNSUPPORTED_MEDIA_TYPE"),
    (
        "form encoded",
        "text=%E4%BD%A0",
        {"Content-Type": "application/x-www-form-urlencoded"},
        415,
        "UNSUPPORTED_MEDIA_TYPE",
    ),
    ("oversized body", json.dumps({"text": "你好", "pad": "x" * 70_000}), {}, 413, "BODY_TOO_LARGE"),
]


@pytest.mark.parametrize(
    ("case", "body", "headers", "status", "code"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES]
)
def test_bad_input_is_refused_with_a_code_and_writes_nothing(
    client: TestClient,
    demo_settings: Settings,
    services: Services,
    case: str,
    body: str | bytes,
    headers: dict[str, str],
    status: int,
    code: str,
) -> None:
    before = row_counts(services.sessions)
    sent = {"Content-Type": "application/json", **auth_headers(demo_settings, "employee"), **headers}
    response = client.post(MESSAGES, content=body, headers=sent)
    _assert_error(response, status, code)
    assert row_counts(services.sessions) == before


def test_oversized_body_without_content_length_is_refused(
    client: TestClient, demo_settings: Settings, services: Services
) -> None:
    before = row_counts(services.sessions)

    def chunks() -> Any:
        yield b'{"text": "'
        for _ in range(80):
            yield b"x" * 1024
        yield b'"}'

    headers = {"Content-Type": "application/json", **auth_headers(demo_settings, "employee")}
    response = client.post(MESSAGES, content=chunks(), headers=headers)
    _assert_error(response, 413, "BODY_TOO_LARGE")
    assert row_counts(services.sessions) == before


def _forged_token(settings: Settings) -> str:
    claims = {
        "sub": "ext-1001",
        "tid": "demo",
        "app": "staff-app",
        "iss": settings.jwt_issuer,
        "aud": settings.jwt_audience,
        "iat": int(datetime.now(UTC).timestamp()),
        "exp": int((datetime.now(UTC) + timedelta(hours=1)).timestamp()),
    }
    return jwt.encode(claims, "not-the-deployment-secret-" + "x" * 40, algorithm="HS256")


def _expired_token(settings: Settings) -> str:
    principal = Principal(tenant_id="demo", app_id="staff-app", external_id="ext-1001")
    return issue_token(
        settings, principal, now=datetime.now(UTC) - timedelta(hours=3), ttl=timedelta(hours=1)
    )


def _unsigned_token(settings: Settings) -> str:
    claims = {
        "sub": "ext-2001",
        "tid": "demo",
        "app": "staff-app",
        "iss": settings.jwt_issuer,
        "aud": settings.jwt_audience,
        "iat": 0,
        "exp": 4_000_000_000,
    }
    return jwt.encode(claims, "", algorithm="none")


AUTH_CASES = [
    ("missing", None, "TOKEN_MISSING"),
    ("not bearer", "Basic dXNlcjpwYXNz", "TOKEN_MISSING"),
    ("garbage", "Bearer not.a.jwt", "TOKEN_INVALID"),
    ("forged signature", "forged", "TOKEN_INVALID"),
    ("alg none", "unsigned", "TOKEN_INVALID"),
    ("expired", "expired", "TOKEN_EXPIRED"),
]


@pytest.mark.parametrize(("case", "token", "code"), AUTH_CASES, ids=[c[0] for c in AUTH_CASES])
def test_bad_tokens_are_401_with_a_code(
    client: TestClient, demo_settings: Settings, services: Services, case: str, token: str | None, code: str
) -> None:
    makers = {"forged": _forged_token, "expired": _expired_token, "unsigned": _unsigned_token}
    headers = {"X-Client-Id": "staff-app"}
    if token in makers:
        headers["Authorization"] = f"Bearer {makers[token](demo_settings)}"
    elif token is not None:
        headers["Authorization"] = token
    before = row_counts(services.sessions)
    response = client.post(MESSAGES, json={"text": "我今天有什么待办？"}, headers=headers)
    _assert_error(response, 401, code)
    assert row_counts(services.sessions) == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/aihr/agent/actions/d_anything/confirm"),
        ("post", "/api/aihr/agent/actions/d_anything/dismiss"),
        ("get", "/api/aihr/agent/resources/r_anything"),
    ],
)
def test_every_agent_endpoint_needs_a_token(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, path, json={"expectedVersion": 1}, headers={"X-Client-Id": "staff-app"})
    _assert_error(response, 401, "TOKEN_MISSING")


def test_client_id_of_another_app_is_403_client_mismatch(
    client: TestClient, demo_settings: Settings, services: Services
) -> None:
    headers = {**auth_headers(demo_settings, "employee"), "X-Client-Id": "admin-console"}
    before = row_counts(services.sessions)
    response = client.post(MESSAGES, json={"text": "我今天有什么待办？"}, headers=headers)
    _assert_error(response, 403, "CLIENT_MISMATCH")
    assert row_counts(services.sessions) == before


@pytest.mark.parametrize("project", ["proj-jiangwan", "proj-unknown"])
def test_selected_project_not_the_users_is_403(
    client: TestClient, demo_settings: Settings, services: Services, project: str
) -> None:
    before = row_counts(services.sessions)
    response = client.post(
        MESSAGES,
        json={"text": "我今天有什么待办？", "projectId": project},
        headers=auth_headers(demo_settings, "employee"),
    )
    _assert_error(response, 403, "PROJECT_NOT_ALLOWED")
    assert row_counts(services.sessions) == before


def test_selected_own_project_is_honoured(client: TestClient, demo_settings: Settings) -> None:
    response = client.post(
        MESSAGES,
        json={"text": "我今天有什么待办？", "projectId": "proj-huafu"},
        headers=auth_headers(demo_settings, "employee"),
    )
    assert response.status_code == 200, response.text
    assert response.json()["intent"] == "LIVE_MY_WORK"


def test_probes(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["ready"] is True


def test_the_h5_page_and_its_assets_are_served_locally(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "/static/app.js" in page.text
    assert not re.search(r"""(src|href)=["']https?://""", page.text), "no CDN assets"
    script = client.get("/static/app.js")
    assert script.status_code == 200
    assert "/api/aihr/agent/messages" in script.text


def test_docs_is_never_a_blank_page(client: TestClient) -> None:
    response = client.get("/docs")
    if response.status_code == 200:
        assert "<html" in response.text.lower()
        assert "cdn.jsdelivr.net" not in response.text and "unpkg.com" not in response.text
    else:
        _assert_error(response, 404, "NOT_FOUND")


def test_unknown_route_and_wrong_method_are_json_errors(client: TestClient) -> None:
    _assert_error(client.get("/api/aihr/agent/nothing-here"), 404, "NOT_FOUND")
    _assert_error(client.get(MESSAGES), 405, "METHOD_NOT_ALLOWED")


def test_demo_actors_are_listed_in_demo_mode(client: TestClient) -> None:
    response = client.get("/api/demo/actors")
    assert response.status_code == 200
    actors = {a["key"]: a for a in response.json()}
    assert set(actors) == {"employee", "employee_other_project", "supervisor", "candidate", "operator"}
    token = actors["employee"]["token"]
    answer = client.post(
        MESSAGES,
        json={"text": "你好"},
        headers={"Authorization": f"Bearer {token}", "X-Client-Id": actors["employee"]["clientId"]},
    )
    assert answer.status_code == 200


def test_demo_actors_are_404_outside_demo_mode(demo_settings: Settings, services: Services) -> None:
    production = demo_settings.with_changes(environment="production", jwt_secret="p" * 48)
    app = create_app(production, services, demo_actors=lambda: demo_actor_tokens(demo_settings))
    with TestClient(app) as prod_client:
        response = prod_client.get("/api/demo/actors")
    _assert_error(response, 404, "NOT_FOUND")
    assert "token" not in response.text
