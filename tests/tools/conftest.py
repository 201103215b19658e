"""Fixtures for tool tests: seeded demo store, trusted contexts per actor, a fake knowledge port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.directory import SqlTeamDirectory
from shifu.contracts.common import Authority, Lifecycle, Role, Verification
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import DocumentEvidence, DocumentScope, ResourceRef
from shifu.demo.domain_seed import seed_domain
from shifu.demo.org_seed import seed_org
from shifu.domain.embedded import EmbeddedDomain
from shifu.store.engine import make_engine, make_session_factory, transaction
from shifu.store.migrate import upgrade
from shifu.tools import ToolExecutor, build_tool_executor
from shifu.tools.ports import KnowledgeAccess

TODAY = date(2025, 6, 18)
NOW = datetime(2025, 6, 18, 2, 30, tzinfo=UTC)  # 10:30 in Asia/Shanghai

ACTORS: dict[str, dict[str, Any]] = {
    "employee": {
        "user_id": "u-zhangsan",
        "display_name": "张三",
        "role": Role.EMPLOYEE,
        "project_ids": ("proj-huafu",),
        "selected_project_id": "proj-huafu",
        "space_ids": ("space-all-staff", "space-huafu", "space-laws"),
    },
    "employee_other_project": {
        "user_id": "u-zhaoliu",
        "display_name": "赵六",
        "role": Role.EMPLOYEE,
        "project_ids": ("proj-jiangwan",),
        "selected_project_id": "proj-jiangwan",
        "space_ids": ("space-all-staff", "space-laws"),
    },
    "supervisor": {
        "user_id": "u-lisi",
        "display_name": "李四",
        "role": Role.SUPERVISOR,
        "project_ids": ("proj-huafu",),
        "supervised_project_ids": ("proj-huafu",),
        "selected_project_id": "proj-huafu",
        "space_ids": ("space-all-staff", "space-huafu", "space-laws", "space-supervisors"),
    },
    "candidate": {
        "user_id": "u-wangwu",
        "display_name": "王五",
        "role": Role.CANDIDATE,
        "project_ids": (),
        "space_ids": ("space-candidates",),
    },
    "operator": {
        "user_id": "operator:u-chenqi",
        "display_name": "陈七",
        "role": Role.OPERATOR,
        "project_ids": (),
        "is_operator_preview": True,
        "app_id": "admin-console",
        "space_ids": (
            "space-all-staff",
            "space-candidates",
            "space-huafu",
            "space-laws",
            "space-supervisors",
        ),
    },
}


def make_ctx(actor: str, **changes: Any) -> ExecutionContext:
    """A trusted context for a demo actor, with optional field changes."""
    fields: dict[str, Any] = {
        "run_id": "run-1",
        "tenant_id": "demo",
        "app_id": "staff-app",
        "external_id": f"ext-{actor}",
        "now": NOW,
        **ACTORS[actor],
        **changes,
    }
    return ExecutionContext(**fields)


class FakeKnowledge:
    """An in-memory knowledge port: returns fixed fragments per space, records each access."""

    def __init__(self) -> None:
        self.accesses: list[KnowledgeAccess] = []

    def search(
        self, query: str, *, domain: str | None, access: KnowledgeAccess, focus: str | None = None
    ) -> list[DocumentEvidence]:
        self.accesses.append(access)
        return [_fragment(space, access.tenant_id) for space in ("space-all-staff", "space-supervisors")]

    def issue_resource(
        self, *, access: KnowledgeAccess, citation_id: str | None, query: str | None, kind: str
    ) -> list[ResourceRef]:
        self.accesses.append(access)
        return [
            ResourceRef(
                resource_id="res-1",
                document_key="baoxiao",
                title="费用报销管理制度",
                kind=kind,
                expires_at=datetime(2025, 6, 18, 3, 0, tzinfo=UTC),
            )
        ]


def _fragment(space: str, tenant: str) -> DocumentEvidence:
    return DocumentEvidence(
        citation_id=f"c-{space}",
        fragment_id=f"f-{space}",
        document_id=f"d-{space}",
        document_key=f"doc-{space}",
        title="费用报销管理制度",
        locator="三、报销标准",
        version="2025版",
        authority=Authority.COMPANY_POLICY,
        kind="制度",
        scope=DocumentScope(tenant_id=tenant, space_id=space),
        lifecycle=Lifecycle.PUBLISHED,
        verification=Verification.HUMAN_VERIFIED,
        environment="production",
        text="单笔500元以下的零星采购凭发票报销。",
    )


@pytest.fixture
def ctx_of() -> Callable[..., ExecutionContext]:
    """Factory: `ctx_of("employee", selected_project_id=...)`."""
    return make_ctx


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sessionmaker[Session]]:
    """A migrated store with the demo org and domain rows for TODAY, shared by a module's read-only tests."""
    url = f"sqlite:///{tmp_path_factory.mktemp('tools-store') / 'shifu.db'}"
    upgrade(url)
    engine = make_engine(url)
    factory = make_session_factory(engine)
    with transaction(factory) as session:
        seed_org(session)
        seed_domain(session, today=TODAY)
    yield factory
    engine.dispose()


@pytest.fixture
def knowledge() -> FakeKnowledge:
    """The in-memory knowledge port."""
    return FakeKnowledge()


@pytest.fixture
def executor(seeded: sessionmaker[Session], knowledge: FakeKnowledge) -> Iterator[ToolExecutor]:
    """The executor over the embedded demo domain and the fake knowledge port."""
    value = build_tool_executor(
        domain=EmbeddedDomain(seeded),
        knowledge=knowledge,
        resources=knowledge,
        roster=SqlTeamDirectory(seeded),
    )
    yield value
    value.close()
