"""Shared helpers for the knowledge tests (a demo org, document writers)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import yaml
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.knowledge.access import SearchAccess, access_for_actor
from shifu.knowledge.index.base import Hit
from shifu.store.engine import make_engine, make_session_factory, transaction
from shifu.store.migrate import upgrade
from shifu.store.tables.org import KnowledgeSpaceRow, ProjectMemberRow, ProjectRow, TenantRow, UserRow

ON = date(2025, 6, 1)
"""The query date every test searches on."""

CANARY_BODY = (
    "## 一、适用范围\n\n金丝雀 报销 规定适用于{label}。\n\n"
    "## 二、报销标准\n\n金丝雀 单笔报销不超过500元，{label}。\n"
)
"""A two-section policy body; `{label}` makes each canary document's text its own."""

GOVERNANCE_CANARIES: dict[str, tuple[str, dict[str, object], set[str]]] = {
    "canary_draft": ("space-all-staff", {"lifecycle": "DRAFT"}, set()),
    "canary_unverified": ("space-all-staff", {"verification": "UNVERIFIED"}, set()),
    "canary_staging": ("space-all-staff", {"environment": "staging"}, set()),
    "canary_expired": (
        "space-all-staff",
        {"effective_from": "2024-01-01", "effective_to": "2024-12-31"},
        set(),
    ),
}
"""document key → (space, front-matter overrides, actors that may see it): nobody, ever."""

USERS = {
    "employee": ("u-zhangsan", "EMPLOYEE", ["proj-huafu"]),
    "employee_other_project": ("u-zhaoliu", "EMPLOYEE", ["proj-jiangwan"]),
    "supervisor": ("u-lisi", "SUPERVISOR", ["proj-huafu"]),
    "candidate": ("u-wangwu", "CANDIDATE", []),
    "operator": ("u-chenqi", "OPERATOR", []),
}
SPACES: list[tuple[str, str, str | None]] = [
    ("space-laws", "ALL_STAFF", None),
    ("space-all-staff", "ALL_STAFF", None),
    ("space-huafu", "PROJECT", "proj-huafu"),
    ("space-supervisors", "SUPERVISORS", None),
    ("space-candidates", "CANDIDATES", None),
]


def seed_org(session_factory: sessionmaker[Session]) -> None:
    """The demo org of interfaces.md, plus a second tenant with its own space."""
    with transaction(session_factory) as session:
        session.add_all([TenantRow(id="demo", name="银城物业"), TenantRow(id="other", name="别家物业")])
        session.flush()
        session.add_all(
            [
                ProjectRow(id="proj-huafu", tenant_id="demo", name="华府"),
                ProjectRow(id="proj-jiangwan", tenant_id="demo", name="江湾"),
            ]
        )
        for index, (actor, (user_id, role, _)) in enumerate(USERS.items()):
            session.add(
                UserRow(
                    id=user_id,
                    tenant_id="demo",
                    external_id=f"e{index}",
                    phone=f"1380000000{index}",
                    display_name=actor,
                    role=role,
                    actor_key=actor,
                )
            )
        session.add(
            UserRow(
                id="u-other",
                tenant_id="other",
                external_id="x1",
                phone="13900000000",
                display_name="other",
                role="EMPLOYEE",
                actor_key="other_employee",
            )
        )
        session.flush()
        for user_id, role, projects in USERS.values():
            for project in projects:
                session.add(
                    ProjectMemberRow(project_id=project, user_id=user_id, is_supervisor=role == "SUPERVISOR")
                )
        for space_id, audience, space_project in SPACES:
            session.add(
                KnowledgeSpaceRow(
                    id=space_id, tenant_id="demo", name=space_id, audience=audience, project_id=space_project
                )
            )
        session.add(KnowledgeSpaceRow(id="space-other", tenant_id="other", name="x", audience="ALL_STAFF"))


def write_doc(folder: Path, stem: str, body: str, **front: object) -> Path:
    """Write a Markdown document with YAML front matter (None values become `null`)."""
    folder.mkdir(parents=True, exist_ok=True)
    header = yaml.safe_dump(front, allow_unicode=True, sort_keys=False) if front else ""
    path = folder / f"{stem}.md"
    path.write_text(f"---\n{header}---\n{body}" if front else body, encoding="utf-8")
    return path


def policy(title: str, **overrides: object) -> dict[str, object]:
    """Front matter of a published, verified company policy, with overrides."""
    base: dict[str, object] = {
        "title": title,
        "authority": "COMPANY_POLICY",
        "kind": "制度",
        "version": "2025版",
        "effective_from": "2025-01-01",
        "effective_to": None,
        "lifecycle": "PUBLISHED",
        "verification": "HUMAN_VERIFIED",
        "environment": "production",
        "projects": [],
        "roles": [],
    }
    base.update(overrides)
    return base


def open_store(root: Path) -> tuple[Settings, Engine, sessionmaker[Session]]:
    """A migrated SQLite store under `root` with the demo org seeded."""
    settings = Settings(data_dir=root / "var", environment="test", jwt_secret="x" * 48)
    upgrade(settings.sqlalchemy_url)
    engine = make_engine(settings.sqlalchemy_url)
    factory = make_session_factory(engine)
    seed_org(factory)
    return settings, engine, factory


def actor_access(session_factory: sessionmaker[Session], actor: str) -> SearchAccess:
    """What `actor` of the demo tenant may search on ON."""
    with session_factory() as session:
        access = access_for_actor(session, "demo", actor, ON)
    assert access is not None
    return access


def hits(*fragment_ids: str) -> list[Hit]:
    """A leg's ranking of these fragment ids, best first (scores are not read by RRF)."""
    return [Hit(fragment_id, 1.0) for fragment_id in fragment_ids]


def ids(ranking: list[Hit]) -> list[str]:
    """The fragment ids of a ranking, in order."""
    return [hit.fragment_id for hit in ranking]
