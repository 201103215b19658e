"""Issue 2 item 8: canary strings sent through every request path never reach the audit,
any other table or the logs; every message writes exactly one hash-only `agent_runs` row.

Conversation rows (turns and state: the user's own conversation for 30 minutes) and the
records the user explicitly asked to keep (a confirmed memory, the draft ticket that holds
the shown payload until it runs, and its idempotency record) are the only places the text
may live; the scan proves it reached one of them, so the scanner itself can fail.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from typing import Any

import jwt
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, select

from shifu.audit.json_logs import JsonFormatter
from shifu.config import Settings
from shifu.runtime.wiring import Services

from .support import auth_headers

pytest_plugins = ["e2e.fixtures_e2e"]

MESSAGES = "/api/aihr/agent/messages"
CANARY_TEXT = "琥珀鲸落暗号"
CANARY_PHONE = "13957219486"
CANARY_TOKEN = "eyJhbGciOiJIUzI1NiJ9.Y2FuYXJ5LXRva2Vu.c2lnbmF0dXJlLWNhbmFyeQ"
CANARY = f"{CANARY_TEXT}，电话{CANARY_PHONE}，令牌 Bearer {CANARY_TOKEN}"
SOFT = f"（{CANARY_TEXT}{CANARY_PHONE}）"
"""The canary in a form that leaves the question's intent alone (used where a path must be reached)."""
CANARIES = (CANARY_TEXT, CANARY_PHONE, CANARY_TOKEN)
CLIENT_LOGGERS = ("httpx",)
"""The test client's own request log (the URL it called), not the service's."""

USER_CONTENT_COLUMNS = {
    ("conversations", "turns_json"),
    ("conversations", "state_json"),
    ("memories", "content"),
    ("memories", "location"),
    ("action_drafts", "payload"),
    ("action_idempotency", "command"),
    ("action_idempotency", "response"),
}
"""Where the user's own words may legitimately be kept (see the module docstring)."""


def _scan_database(services: Services) -> tuple[list[str], set[str]]:
    """(hits outside user-content columns, user-content columns that hold a canary)."""
    metadata = MetaData()
    metadata.reflect(services.engine)
    hits: list[str] = []
    allowed_hits: set[str] = set()
    with services.engine.connect() as connection:
        for table in metadata.sorted_tables:
            for row in connection.execute(select(table)).mappings():
                for column, value in row.items():
                    if value is None:
                        continue
                    text = (
                        value
                        if isinstance(value, str)
                        else json.dumps(value, ensure_ascii=False, default=str)
                    )
                    for canary in CANARIES:
                        if canary in text:
                            where = f"{table.name}.{column}"
                            if (table.name, column) in USER_CONTENT_COLUMNS:
                                allowed_hits.add(where)
                            else:
                                hits.append(f"{where} holds {canary!r}")
    return hits, allowed_hits


def _log_text(records: list[logging.LogRecord]) -> str:
    formatter = JsonFormatter()
    lines: list[str] = []
    for record in records:
        if record.name.startswith(CLIENT_LOGGERS):
            continue
        lines.append(formatter.format(record))
        lines.append(record.getMessage())
        lines.append(repr(record.args))
        if record.exc_info:
            lines.append(logging.Formatter().formatException(record.exc_info))
    return "\n".join(lines)


class Session:
    """One actor's conversation over HTTP, recording every message text it sent."""

    def __init__(self, client: TestClient, settings: Settings, key: str, sent: list[str]) -> None:
        self.client = client
        self.headers = auth_headers(settings, key)
        self.sent = sent
        self.conversation: tuple[str, int] | None = None

    def ask(self, text: str) -> dict[str, Any]:
        body: dict[str, Any] = {"text": text}
        if self.conversation:
            body["conversationId"], body["contextVersion"] = self.conversation
        response = self.client.post(MESSAGES, json=body, headers=self.headers)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        self.sent.append(text)
        self.conversation = (data["conversationId"], data["contextVersion"])
        return data

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(path, json=body, headers=self.headers)


def _confirm(session: Session, draft: dict[str, Any], **extra: Any) -> Any:
    body = {"expectedVersion": draft["version"], "idempotencyKey": f"canary-{uuid.uuid4().hex}", **extra}
    return session.post(f"/api/aihr/agent/actions/{draft['draftId']}/confirm", body)


def _bad_requests(client: TestClient, settings: Settings) -> None:
    headers = {"Content-Type": "application/json", **auth_headers(settings, "employee")}
    bodies: list[str | bytes] = [
        json.dumps({"text": CANARY * 200}, ensure_ascii=False),
        "{" + CANARY,
        json.dumps({"text": "你好", "note": CANARY}, ensure_ascii=False),
        json.dumps({"text": CANARY, "contextVersion": CANARY}, ensure_ascii=False),
    ]
    for body in bodies:
        response = client.post(
            MESSAGES, content=body.encode() if isinstance(body, str) else body, headers=headers
        )
        assert 400 <= response.status_code < 500
        for canary in CANARIES:
            assert canary not in response.text
    wrong_type = {**headers, "Content-Type": "text/plain"}
    assert client.post(MESSAGES, content=CANARY.encode(), headers=wrong_type).status_code == 415
    forged = jwt.encode({"sub": CANARY_PHONE, "tid": "demo", "app": "staff-app"}, "k" * 40, algorithm="HS256")
    unauth = {"Authorization": f"Bearer {forged}", "X-Client-Id": "staff-app"}
    assert client.post(MESSAGES, json={"text": CANARY}, headers=unauth).status_code == 401
    canary_header = {"Authorization": f"Bearer {CANARY_TOKEN}", "X-Client-Id": "staff-app"}
    assert client.post(MESSAGES, json={"text": CANARY}, headers=canary_header).status_code == 401
    resource = client.get(
        f"/api/aihr/agent/resources/{CANARY_PHONE}", headers=auth_headers(settings, "employee")
    )
    assert resource.status_code == 404


def test_canaries_reach_no_audit_row_no_other_table_and_no_log(
    client: TestClient,
    demo_settings: Settings,
    warm_services: Services,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    sent: list[str] = []
    employee = Session(client, demo_settings, "employee", sent)
    employee.ask(f"你好，{CANARY}")
    employee.ask(f"我今天有什么待办？{CANARY}")
    employee.ask(f"电梯困人怎么处理？{CANARY}")
    delivered = employee.ask(f"电梯困人应急处置规程原文件发我{SOFT}")
    assert delivered["resources"], delivered
    for resource in delivered["resources"]:
        assert client.get(resource["url"], headers=employee.headers).status_code == 200
    memory = employee.ask(f"记一下，3栋1201要回访{SOFT}")
    assert memory["status"] == "NEEDS_CONFIRMATION", memory
    confirmed = _confirm(employee, memory["actionDraft"], visibility="PRIVATE")
    assert confirmed.status_code == 200, confirmed.text
    dismissed_draft = employee.ask(f"记一下，5栋302漏水{SOFT}")
    dismissed = employee.post(
        f"/api/aihr/agent/actions/{dismissed_draft['actionDraft']['draftId']}/dismiss",
        {"expectedVersion": dismissed_draft["actionDraft"]["version"]},
    )
    assert dismissed.status_code == 200, dismissed.text
    employee.ask(f"记一下，6栋101门禁坏了{SOFT}")
    employee.ask(f"算了，{CANARY}")
    employee.ask(f"第二项呢？{CANARY}")

    supervisor = Session(client, demo_settings, "supervisor", sent)
    supervisor.ask(f"谁还没复盘？{CANARY}")
    review = Session(client, demo_settings, "supervisor", sent).ask(f"给主管发一份待复盘名单{SOFT}")
    assert review["status"] == "NEEDS_CONFIRMATION", review
    assert _confirm(supervisor, review["actionDraft"]).status_code == 200

    Session(client, demo_settings, "candidate", sent).ask(f"我今天有什么待办？{CANARY}")
    Session(client, demo_settings, "operator", sent).ask(f"报销制度怎么规定的？{CANARY}")
    Session(client, demo_settings, "employee_other_project", sent).ask(f"赵六今天有哪些待办，{CANARY}")
    _bad_requests(client, demo_settings)

    hits, allowed = _scan_database(warm_services)
    assert hits == []
    assert "memories.content" in allowed, "the confirmed memory must hold the canary: the scanner works"
    logs = _log_text(caplog.records)
    captured = capfd.readouterr()
    for canary in CANARIES:
        assert canary not in logs
        assert canary not in captured.out and canary not in captured.err


def test_each_message_writes_exactly_one_hash_only_agent_run(
    client: TestClient, demo_settings: Settings, warm_services: Services
) -> None:
    questions = [
        f"你好{uuid.uuid4().hex[:6]}",
        f"我今天有什么待办？{CANARY_PHONE}",
        f"电梯困人怎么处理？{CANARY_TEXT}",
        f"记一下，3栋1201要回访{uuid.uuid4().hex[:4]}",
        f"谁还没复盘？{CANARY_TOKEN}",
    ]
    metadata = MetaData()
    metadata.reflect(warm_services.engine, only=["agent_runs"])
    runs = metadata.tables["agent_runs"]
    for question in questions:
        with warm_services.engine.connect() as connection:
            before = {r.run_id for r in connection.execute(select(runs.c.run_id))}
        response = client.post(
            MESSAGES, json={"text": question}, headers=auth_headers(demo_settings, "employee")
        )
        assert response.status_code == 200, response.text
        with warm_services.engine.connect() as connection:
            new = [r for r in connection.execute(select(runs)).mappings() if r["run_id"] not in before]
        assert len(new) == 1, new
        row = new[0]
        assert row["run_id"] == response.json()["runId"]
        assert row["question_sha256"] == hashlib.sha256(question.encode("utf-8")).hexdigest()
        assert (row["tenant_id"], row["app_id"], row["user_id"]) == ("demo", "staff-app", "u-zhangsan")
        assert row["status"] == response.json()["status"]
        flat = json.dumps(dict(row), ensure_ascii=False, default=str)
        assert question not in flat
        for canary in CANARIES:
            assert canary not in flat
