"""Bringing up the demo deployment: migrate, seed, ingest, and talk to it as an actor.

All dates of the demo work are relative to today in the configured time zone, so the demo
never goes stale; seeding and ingesting are idempotent, so `make serve` can run them on
every start.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TextIO

from shifu.config import Settings
from shifu.context.auth import issue_token
from shifu.context.identity import Principal
from shifu.contracts.messages import AgentRequest, AgentResponse
from shifu.demo.domain_seed import seed_domain
from shifu.demo.org_seed import DEMO_SPACES, TENANT_ID, actor, actor_keys, seed_org
from shifu.errors import ConfigurationError, NotFound, Unauthenticated
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base
from shifu.store.engine import make_engine, make_session_factory, transaction
from shifu.store.migrate import upgrade

CORPUS_DIR = Path(__file__).parent / "corpus"
"""The demo company's own policies and SOPs, one folder per knowledge space."""

LAWS_SPACE = "space-laws"


def principal_for(actor_key: str) -> tuple[Principal, str]:
    """The principal and client id a demo actor's app would present."""
    try:
        user = actor(actor_key)
    except KeyError as exc:
        raise NotFound(
            f"没有这个演示身份：{actor_key}。可选：{'、'.join(actor_keys())}", code="UNKNOWN_ACTOR"
        ) from exc
    return Principal(tenant_id=TENANT_ID, app_id=user.app_id, external_id=user.external_id), user.app_id


def demo_token(settings: Settings, actor_key: str) -> str:
    """A bearer token for a demo actor."""
    principal, _ = principal_for(actor_key)
    return issue_token(settings, principal)


ROLE_LABELS = {"EMPLOYEE": "员工", "SUPERVISOR": "主管", "CANDIDATE": "候选人", "OPERATOR": "运营预览"}


def demo_actor_tokens(settings: Settings) -> list[dict[str, str]]:
    """The actor picker of the H5 page: each demo actor with its client id and a fresh token."""
    actors: list[dict[str, str]] = []
    for key in actor_keys():
        user = actor(key)
        actors.append(
            {
                "key": key,
                "name": user.name,
                "label": ROLE_LABELS[user.role.value],
                "clientId": user.app_id,
                "token": demo_token(settings, key),
            }
        )
    return actors


def seed_demo(settings: Settings) -> None:
    """Migrate and seed the demo tenant, its actors and their work (idempotent)."""
    upgrade(settings.sqlalchemy_url)
    engine = make_engine(settings.sqlalchemy_url)
    try:
        sessions = make_session_factory(engine)
        today = datetime.now(settings.tz).date()
        with transaction(sessions) as session:
            seed_org(session)
        with transaction(sessions) as session:
            seed_domain(session, today=today)
    finally:
        engine.dispose()


def ingest_demo_corpus(kb: KnowledgeBase, settings: Settings, *, progress: bool, out: TextIO | None) -> int:
    """Ingest the company corpus and, when present, the public laws; returns the problem count."""
    problems = 0
    sources: list[tuple[Path, str]] = [(CORPUS_DIR / space_id, space_id) for space_id, *_ in DEMO_SPACES]
    if settings.laws_dir.is_dir():
        sources.append((settings.laws_dir, LAWS_SPACE))
    elif out is not None:
        print(f"未找到法规语料目录 {settings.laws_dir}，跳过（可用 SHIFU_LAWS_DIR 指定）。", file=out)
    for folder, space_id in sources:
        if not folder.is_dir():
            continue
        report = kb.ingest_paths([folder], space_id=space_id, tenant_id=TENANT_ID, progress=progress)
        problems += len(report.problems)
        if out is not None:
            for problem in report.problems:
                print(f"  无法导入 {problem.file}：{problem.reason}（{problem.detail}）", file=out)
    return problems


def bring_up_demo(
    settings: Settings, *, host: str = "127.0.0.1", port: int = 8000, out: TextIO | None
) -> None:
    """Seed, ingest, verify the index, and print the URL and a token per actor."""
    seed_demo(settings)
    engine = make_engine(settings.sqlalchemy_url)
    try:
        kb = open_knowledge_base(settings, make_session_factory(engine))
        try:
            ingest_demo_corpus(kb, settings, progress=out is not None, out=out)
            check = kb.check()
        finally:
            kb.close()
    finally:
        engine.dispose()
    if out is None:
        return
    print(f"知识库检查：{check.problems} 个问题。", file=out)
    print(f"\nShifu 演示部署：http://{host}:{port}/", file=out)
    print("各演示身份的令牌（请求头 Authorization: Bearer <token>，X-Client-Id: <client>）：", file=out)
    for key in actor_keys():
        _, client = principal_for(key)
        print(f"  {key:<24} client={client:<14} {demo_token(settings, key)}", file=out)


def ask_as(
    settings: Settings, actor_key: str, text: str, *, conversation_id: str | None = None
) -> AgentResponse:
    """Ask one question in-process as a demo actor (the quickest way to try Shifu)."""
    from shifu.runtime.wiring import build_services

    principal, client = principal_for(actor_key)
    services = build_services(settings)
    try:
        request = AgentRequest(text=text, conversation_id=conversation_id)
        return services.run_message_sync(principal, client, request)
    except Unauthenticated as exc:
        # In-process there is no token to expire: the actor is missing from the store.
        raise ConfigurationError(
            f"演示数据尚未初始化（{settings.data_dir} 中没有演示身份）："
            "请先运行 shifu demo up 或 make serve。",
            code="DEMO_NOT_SEEDED",
        ) from exc
    finally:
        services.close()
