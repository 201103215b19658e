"""Protected originals: bound to tenant and user, short-lived, re-authorized at download."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from kb_support import ON, policy, write_doc
from sqlalchemy.orm import Session, sessionmaker

from shifu.contracts.common import Role
from shifu.errors import Expired, Forbidden, NotFound
from shifu.knowledge.access import SearchAccess, access_for_user
from shifu.knowledge.service import KnowledgeBase
from shifu.store.engine import transaction
from shifu.store.tables.org import ProjectMemberRow

NOW = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)
BODY = "## 一、门岗交接\n\n交接时应当核对钥匙。\n"


def _live(_conversation_id: str) -> bool:
    """Every conversation is still the caller's (the conversation check has its own test)."""
    return True


def _access(factory: sessionmaker[Session], user_id: str) -> SearchAccess:
    with factory() as session:
        access = access_for_user(session, "demo", user_id, ON)
    assert access is not None
    return access


@pytest.fixture
def huafu(kb: KnowledgeBase, tmp_path: Path) -> tuple[str, bytes]:
    """A 华府-only document; returns one fragment id and the original's bytes."""
    path = write_doc(tmp_path, "huafu_jiaojie", BODY, **policy("华府门岗交接"))
    assert kb.ingest_paths([path], space_id="space-huafu").ok
    return kb.list_fragments("huafu_jiaojie")[0].fragment_id, path.read_bytes()


def test_owner_downloads_original_bytes(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    fragment_id, original = huafu
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(fragment_id, access=access, user_id="u-zhangsan", conversation_id="c1", now=NOW)
    assert ref.document_key == "huafu_jiaojie" and ref.kind == "FILE"
    assert ref.expires_at == NOW + timedelta(seconds=600) and len(ref.resource_id) >= 40
    assert "/" not in ref.resource_id and "huafu" not in ref.resource_id
    opened = kb.open_resource(
        ref.resource_id, access=access, user_id="u-zhangsan", now=NOW, conversation_ok=_live
    )
    assert opened.content == original and opened.media_type.startswith("text/markdown")
    assert opened.filename == "huafu_jiaojie.md"


def test_another_user_gets_forbidden(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    ref = kb.issue_resource(
        huafu[0],
        access=_access(session_factory, "u-zhangsan"),
        user_id="u-zhangsan",
        conversation_id=None,
        now=NOW,
    )
    with pytest.raises(Forbidden):
        kb.open_resource(
            ref.resource_id,
            access=_access(session_factory, "u-lisi"),
            user_id="u-lisi",
            now=NOW,
            conversation_ok=_live,
        )


def test_expired_link(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(
        huafu[0], access=access, user_id="u-zhangsan", conversation_id=None, ttl_s=60, now=NOW
    )
    with pytest.raises(Expired):
        kb.open_resource(
            ref.resource_id,
            access=access,
            user_id="u-zhangsan",
            now=NOW + timedelta(seconds=60),
            conversation_ok=_live,
        )


def test_revoked_access_is_forbidden(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(huafu[0], access=access, user_id="u-zhangsan", conversation_id=None, now=NOW)
    with transaction(session_factory) as session:
        session.delete(session.get_one(ProjectMemberRow, ("proj-huafu", "u-zhangsan")))
    revoked = _access(session_factory, "u-zhangsan")
    assert "space-huafu" not in revoked.space_ids
    with pytest.raises(Forbidden):
        kb.open_resource(
            ref.resource_id, access=revoked, user_id="u-zhangsan", now=NOW, conversation_ok=_live
        )


def test_retired_document_is_forbidden(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes], tmp_path: Path
) -> None:
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(huafu[0], access=access, user_id="u-zhangsan", conversation_id=None, now=NOW)
    path = write_doc(tmp_path, "huafu_jiaojie", BODY + "\n补充。\n", **policy("华府门岗交接", version="v2"))
    assert kb.ingest_paths([path], space_id="space-huafu").ok
    with pytest.raises(Forbidden):
        kb.open_resource(ref.resource_id, access=access, user_id="u-zhangsan", now=NOW, conversation_ok=_live)


def test_issue_refuses_unauthorized_and_unknown(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    other = _access(session_factory, "u-zhaoliu")
    with pytest.raises(Forbidden):
        kb.issue_resource(huafu[0], access=other, user_id="u-zhaoliu", conversation_id=None, now=NOW)
    with pytest.raises(NotFound):
        kb.issue_resource("0" * 64, access=other, user_id="u-zhaoliu", conversation_id=None, now=NOW)
    with pytest.raises(NotFound):
        kb.open_resource("no-such-link", access=other, user_id="u-zhaoliu", now=NOW, conversation_ok=_live)


def test_other_tenant_with_same_user_id_is_forbidden(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(huafu[0], access=access, user_id="u-zhangsan", conversation_id=None, now=NOW)
    foreign = SearchAccess("other", ("space-huafu",), ("proj-huafu",), Role.EMPLOYEE, ON)
    with pytest.raises(Forbidden):
        kb.open_resource(
            ref.resource_id, access=foreign, user_id="u-zhangsan", now=NOW, conversation_ok=_live
        )


def test_a_link_dies_with_the_conversation_it_was_issued_in(
    kb: KnowledgeBase, session_factory: sessionmaker[Session], huafu: tuple[str, bytes]
) -> None:
    access = _access(session_factory, "u-zhangsan")
    ref = kb.issue_resource(huafu[0], access=access, user_id="u-zhangsan", conversation_id="c1", now=NOW)
    asked: list[str] = []

    def ended(conversation_id: str) -> bool:
        asked.append(conversation_id)
        return False

    with pytest.raises(Forbidden) as refused:
        kb.open_resource(ref.resource_id, access=access, user_id="u-zhangsan", now=NOW, conversation_ok=ended)
    assert refused.value.code == "RESOURCE_CONVERSATION_ENDED"
    assert asked == ["c1"]
