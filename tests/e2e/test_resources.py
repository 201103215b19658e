"""Issue 3 resources over HTTP: a cited document's original, delivered through an opaque,
short-lived link that is re-authorized at download (owner only, unexpired, its conversation
still there, still allowed) and never reveals where the file is stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from shifu.config import Settings
from shifu.demo.setup import CORPUS_DIR
from shifu.runtime.wiring import Services
from shifu.store.engine import transaction
from shifu.store.tables.conversation import ConversationRow

from .support import FakeClock, auth_headers, membership_removed

pytest_plugins = ["e2e.fixtures_e2e"]

ELEVATOR = "dianti_kunren_yingji"
ELEVATOR_FILE = CORPUS_DIR / "space-all-staff" / f"{ELEVATOR}.md"
HUAFU_GATE = "huafu_menggang_jiaojieban"
HUAFU_GATE_FILE = CORPUS_DIR / "space-huafu" / f"{HUAFU_GATE}.md"


def _resource(actor: Any, question: str, document_key: str) -> dict[str, Any]:
    response = actor.ask(question)
    assert response["intent"] == "RESOURCE_DELIVERY", response
    assert response["status"] == "COMPLETED", response
    matching = [r for r in response["resources"] if r["documentKey"] == document_key]
    assert matching, response["resources"]
    first: dict[str, Any] = matching[0]
    return first


def _assert_no_storage_path(text: str, settings: Settings) -> None:
    for marker in (
        str(settings.data_dir),
        str(settings.data_dir.resolve()),
        "originals",
        str(CORPUS_DIR),
        "/tmp/",
    ):
        assert marker not in text


def _assert_refused(response: Any, status: int, code: str, original: Path) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    body = original.read_bytes()
    assert body[:200] not in response.content
    assert "attachment" not in response.headers.get("content-disposition", "")


def test_the_cited_document_is_delivered_by_reference(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    answer = employee.ask("电梯困人怎么处理")
    cited = {c["documentKey"] for c in answer["citations"]}
    assert ELEVATOR in cited
    delivered = employee.ask("把刚才的原文件发我")
    assert (delivered["intent"], delivered["status"]) == ("RESOURCE_DELIVERY", "COMPLETED")
    assert delivered["resources"] and {r["documentKey"] for r in delivered["resources"]} <= cited
    assert [c["tool"] for c in delivered["trace"]["toolCalls"]] == ["KNOWLEDGE_RESOURCE"]


def test_a_requested_video_is_never_answered_with_a_written_document(actor: Any, clock: FakeClock) -> None:
    response = actor("employee").ask("有没有电梯困人处置的视频")
    assert (response["intent"], response["status"]) == ("RESOURCE_DELIVERY", "NO_EVIDENCE")
    assert response["resources"] == []
    assert "视频" in response["answer"]


def test_the_owner_downloads_the_original_and_no_path_is_exposed(
    actor: Any, client: TestClient, demo_settings: Settings, clock: FakeClock
) -> None:
    employee = actor("employee")
    response = employee.ask("电梯困人应急处置规程原文件发我")
    resource = next(r for r in response["resources"] if r["documentKey"] == ELEVATOR)
    assert resource["kind"] == "FILE" and resource["title"]
    assert resource["url"] == f"/api/aihr/agent/resources/{resource['resourceId']}"
    _assert_no_storage_path(json.dumps(response, ensure_ascii=False), demo_settings)
    download = client.get(resource["url"], headers=employee.headers)
    assert download.status_code == 200
    assert download.content == ELEVATOR_FILE.read_bytes()
    assert download.headers["cache-control"] == "no-store"
    disposition = download.headers["content-disposition"]
    assert disposition.startswith("attachment;") and ELEVATOR in disposition
    _assert_no_storage_path(str(dict(download.headers)), demo_settings)


@pytest.mark.parametrize("other", ["employee_other_project", "supervisor", "candidate"])
def test_another_user_gets_403_and_zero_bytes(
    actor: Any, client: TestClient, demo_settings: Settings, clock: FakeClock, other: str
) -> None:
    resource = _resource(actor("employee"), "电梯困人应急处置规程原文件发我", ELEVATOR)
    response = client.get(resource["url"], headers=auth_headers(demo_settings, other))
    _assert_refused(response, 403, "RESOURCE_NOT_YOURS", ELEVATOR_FILE)


def test_an_expired_link_is_410(actor: Any, client: TestClient, clock: FakeClock) -> None:
    employee = actor("employee")
    resource = _resource(employee, "电梯困人应急处置规程原文件发我", ELEVATOR)
    assert client.get(resource["url"], headers=employee.headers).status_code == 200
    clock.advance(minutes=11)
    response = client.get(resource["url"], headers=employee.headers)
    _assert_refused(response, 410, "RESOURCE_EXPIRED", ELEVATOR_FILE)


def test_access_revoked_since_is_403_and_zero_bytes(
    actor: Any, client: TestClient, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    resource = _resource(employee, "华府项目门岗交接班SOP原文件发我", HUAFU_GATE)
    assert client.get(resource["url"], headers=employee.headers).status_code == 200
    with membership_removed(warm_services.sessions, "u-zhangsan", "proj-huafu"):
        response = client.get(resource["url"], headers=employee.headers)
    _assert_refused(response, 403, "RESOURCE_REVOKED", HUAFU_GATE_FILE)
    assert client.get(resource["url"], headers=employee.headers).status_code == 200, "restored access works"


@pytest.mark.parametrize(
    ("other", "question"),
    [
        ("employee_other_project", "华府项目门岗交接班SOP原文件发我"),
        ("candidate", "把员工费用报销制度的文件发我"),
    ],
)
def test_a_document_the_user_may_not_see_is_not_replaced_by_another(
    actor: Any, clock: FakeClock, other: str, question: str
) -> None:
    response = actor(other).ask(question)
    assert response["intent"] == "RESOURCE_DELIVERY", response
    assert (response["status"], response["resources"]) == ("NO_EVIDENCE", []), response


def test_unknown_link_and_wrong_client_are_refused(
    actor: Any, client: TestClient, demo_settings: Settings, clock: FakeClock
) -> None:
    employee = actor("employee")
    resource = _resource(employee, "电梯困人应急处置规程原文件发我", ELEVATOR)
    unknown = client.get("/api/aihr/agent/resources/not-a-real-id", headers=employee.headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "RESOURCE_NOT_FOUND"
    wrong_client = {**employee.headers, "X-Client-Id": "admin-console"}
    _assert_refused(client.get(resource["url"], headers=wrong_client), 403, "CLIENT_MISMATCH", ELEVATOR_FILE)


def test_a_link_dies_with_its_conversation(
    actor: Any, client: TestClient, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    resource = _resource(employee, "电梯困人应急处置规程原文件发我", ELEVATOR)
    assert client.get(resource["url"], headers=employee.headers).status_code == 200
    with transaction(warm_services.sessions) as session:
        session.execute(delete(ConversationRow).where(ConversationRow.id == employee.conversation_id))
    response = client.get(resource["url"], headers=employee.headers)
    _assert_refused(response, 403, "RESOURCE_CONVERSATION_ENDED", ELEVATOR_FILE)
