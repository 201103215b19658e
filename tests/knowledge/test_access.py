"""SearchAccess from the org snapshot: audiences, projects, roles, inactive users."""

from __future__ import annotations

import pytest
from kb_support import ON, seed_org
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.access import access_for_actor, access_for_user
from shifu.store.engine import transaction
from shifu.store.tables.org import UserRow


@pytest.mark.parametrize(
    ("actor", "spaces", "projects"),
    [
        ("employee", ("space-all-staff", "space-huafu", "space-laws"), ("proj-huafu",)),
        ("employee_other_project", ("space-all-staff", "space-laws"), ("proj-jiangwan",)),
        (
            "supervisor",
            ("space-all-staff", "space-huafu", "space-laws", "space-supervisors"),
            ("proj-huafu",),
        ),
        ("candidate", ("space-candidates",), ()),
        (
            "operator",
            ("space-all-staff", "space-candidates", "space-huafu", "space-laws", "space-supervisors"),
            ("proj-huafu", "proj-jiangwan"),
        ),
    ],
)
def test_audience_rules(
    session_factory: sessionmaker[Session], actor: str, spaces: tuple[str, ...], projects: tuple[str, ...]
) -> None:
    seed_org(session_factory)
    with session_factory() as session:
        access = access_for_actor(session, "demo", actor, ON)
    assert access is not None
    assert (access.space_ids, access.project_ids, access.on_date) == (spaces, projects, ON)


def test_unknown_inactive_and_foreign_users_get_nothing(session_factory: sessionmaker[Session]) -> None:
    seed_org(session_factory)
    with transaction(session_factory) as session:
        session.get_one(UserRow, "u-zhangsan").active = False
    with session_factory() as session:
        assert access_for_user(session, "demo", "u-zhangsan", ON) is None
        assert access_for_user(session, "demo", "u-nobody", ON) is None
        assert access_for_user(session, "other", "u-lisi", ON) is None
        assert access_for_actor(session, "demo", "nobody", ON) is None
