"""The issue-2 acceptance as real processes: `shifu demo up`, `serve`, `token`, `ask`, `kb check`.

One demo deployment (no laws, so nothing long to embed) is brought up once for the module;
each test then drives the installed `shifu` command against it exactly as a newcomer would.
The embedded index admits one process at a time, so `ask` and `kb check` run while no server
is up (the server test starts and stops its own server).
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import pytest

from serve.support import Deployment, free_port, stop, wait_healthy
from shifu.config import Settings
from shifu.contracts.messages import AgentResponse
from shifu.knowledge.service import open_knowledge_base
from shifu.store.engine import make_engine, make_session_factory

CJK = re.compile(r"[\u4e00-\u9fff]")
TODO_QUESTION = "我今天有什么待办？"
REQUEST_TIMEOUT_S = 30.0


def assert_contained(deployment: Deployment) -> None:
    """Nothing fell back to the default `./var` of the working directory."""
    assert not (deployment.workdir / "var").exists(), "a command ignored SHIFU_DATA_DIR"


@dataclass(frozen=True)
class Prepared:
    """Two deployments and the commands that prepared them (run concurrently to save time)."""

    deployment: Deployment
    other: Deployment
    demo_up: subprocess.CompletedProcess[str]
    other_token: subprocess.CompletedProcess[str]
    unknown_token: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    """`shifu demo up` in one data dir while another data dir issues its own token."""
    deployment = Deployment.create(tmp_path_factory.mktemp("serve-a"))
    other = Deployment.create(tmp_path_factory.mktemp("serve-b"))
    with ThreadPoolExecutor(max_workers=3) as pool:
        up = pool.submit(deployment.run, "demo", "up")
        other_token = pool.submit(other.run, "token", "employee")
        unknown = pool.submit(deployment.run, "token", "nobody")
        result = Prepared(deployment, other, up.result(), other_token.result(), unknown.result())
    assert result.demo_up.returncode == 0, result.demo_up.stderr[-2000:]
    return result


def test_demo_up_seeds_checks_the_index_and_prints_a_token_per_actor(
    prepared: Prepared,
) -> None:
    deployment, stdout = prepared.deployment, prepared.demo_up.stdout
    assert "知识库检查：0 个问题。" in stdout
    for actor in ("employee", "employee_other_project", "supervisor", "candidate", "operator"):
        assert re.search(rf"^\s+{actor}\s+client=\S+\s+\S+\.\S+\.\S+$", stdout, re.MULTILINE), actor
    assert (deployment.data_dir / "shifu.db").is_file()
    assert (deployment.data_dir / "secrets" / "jwt.key").is_file()
    assert_contained(deployment)


def test_ask_json_prints_an_agent_response_with_one_tool_call(prepared: Prepared) -> None:
    deployment = prepared.deployment
    result = deployment.run("ask", "--as", "employee", "--json", TODO_QUESTION)
    assert result.returncode == 0, result.stderr[-2000:]
    response = AgentResponse.model_validate_json(result.stdout)
    assert response.intent == "LIVE_MY_WORK"
    assert response.status == "COMPLETED"
    assert [call.tool for call in response.trace.tool_calls] == ["MY_CURRENT_TASKS"]
    assert response.trace.tool_calls[0].status == "OK"
    assert [source.type for source in response.source_summary] == ["LIVE_DATA"]
    assert response.data["state"] == "TASKS"
    assert response.data["items"], "the demo employee has a task due today"
    assert_contained(deployment)


def test_token_for_an_unknown_actor_exits_2_with_a_chinese_message(prepared: Prepared) -> None:
    deployment, result = prepared.deployment, prepared.unknown_token
    assert result.returncode == 2
    assert result.stdout == ""
    assert CJK.search(result.stderr), result.stderr
    assert "Traceback" not in result.stderr
    assert_contained(deployment)


def test_kb_check_reports_no_problems(prepared: Prepared) -> None:
    deployment = prepared.deployment
    result = deployment.run("kb", "check")
    assert result.returncode == 0, result.stderr[-2000:]
    match = re.search(r"受治理片段 (\d+)，索引点 (\d+)，问题 (\d+)", result.stdout)
    assert match, result.stdout
    fragments, points, problems = (int(group) for group in match.groups())
    assert fragments > 0
    assert points == fragments
    assert problems == 0
    assert_contained(deployment)


def test_kb_check_on_a_busy_index_fails_with_a_chinese_message(prepared: Prepared) -> None:
    deployment = prepared.deployment
    settings = Settings(data_dir=deployment.data_dir, laws_dir=deployment.laws_dir, environment="demo")
    engine = make_engine(settings.sqlalchemy_url)
    holder = open_knowledge_base(settings, make_session_factory(engine))
    try:
        result = deployment.run("kb", "check")
    finally:
        holder.close()
        engine.dispose()
    assert result.returncode == 2
    assert "Traceback" not in result.stderr, result.stderr[-600:]
    assert "INDEX_UNAVAILABLE" in result.stderr
    assert CJK.search(result.stderr)


def _ask_over_http(base_url: str, token: str, client_id: str = "staff-app") -> httpx.Response:
    return httpx.post(
        f"{base_url}/api/aihr/agent/messages",
        json={"text": TODO_QUESTION},
        headers={"Authorization": f"Bearer {token}", "X-Client-Id": client_id},
        timeout=REQUEST_TIMEOUT_S,
    )


def test_serve_answers_over_http_rejects_another_deployments_token_and_stops_cleanly(
    prepared: Prepared,
) -> None:
    deployment, other = prepared.deployment, prepared.other
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    server = deployment.start("serve", "--port", str(port))
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            own = pool.submit(deployment.run, "token", "employee")
            wait_healthy(base_url, server)
            own_result, foreign_result = own.result(), prepared.other_token
        assert own_result.returncode == 0, own_result.stderr[-2000:]
        assert foreign_result.returncode == 0, foreign_result.stderr[-2000:]
        own_token, foreign_token = own_result.stdout.strip(), foreign_result.stdout.strip()

        assert httpx.get(f"{base_url}/readyz", timeout=REQUEST_TIMEOUT_S).status_code == 200
        answer = _ask_over_http(base_url, own_token)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["status"], body["intent"]) == ("COMPLETED", "LIVE_MY_WORK")
        assert [call["tool"] for call in body["trace"]["toolCalls"]] == ["MY_CURRENT_TASKS"]

        rejected = _ask_over_http(base_url, foreign_token)
        assert rejected.status_code == 401
        error = rejected.json()
        assert error["code"] == "TOKEN_INVALID"
        assert CJK.search(error["message"])
    finally:
        started = time.monotonic()
        code = stop(server)
        elapsed = time.monotonic() - started
    output = deployment.output("serve")
    # uvicorn finishes its graceful shutdown, then re-raises the SIGTERM it captured.
    assert code in {0, -signal.SIGTERM}, output[-2000:]
    assert output.index("Shutting down") < output.index("Application shutdown complete.")
    assert elapsed < 10, f"shutdown took {elapsed:.1f} s"
    assert "Traceback" not in output
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{base_url}/healthz", timeout=2.0)
    assert f"http://127.0.0.1:{port}/" in output

    own_secret = (deployment.data_dir / "secrets" / "jwt.key").read_text(encoding="utf-8")
    foreign_secret = (other.data_dir / "secrets" / "jwt.key").read_text(encoding="utf-8")
    assert own_secret != foreign_secret
    assert_contained(deployment)
    assert_contained(other)
