"""Canary fragments: whatever an actor asks, only what governance and scope allow comes back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kb_support import (
    CANARY_BODY,
    GOVERNANCE_CANARIES,
    ON,
    USERS,
    actor_access,
    open_store,
    policy,
    write_doc,
)
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.access import SearchAccess, access_for_actor
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base

BODY = CANARY_BODY

# document key → (space, front-matter overrides, actors that may see it; None = nobody)
CASES: dict[str, tuple[str, dict[str, object], set[str]]] = {
    "visible_all_staff": (
        "space-all-staff",
        {},
        {"employee", "employee_other_project", "supervisor", "operator"},
    ),
    "visible_huafu": ("space-huafu", {}, {"employee", "supervisor", "operator"}),
    "visible_supervisors": ("space-supervisors", {}, {"supervisor", "operator"}),
    "visible_candidates": ("space-candidates", {}, {"candidate", "operator"}),
    "scope_other_project": (
        "space-all-staff",
        {"projects": ["proj-jiangwan"]},
        {"employee_other_project", "operator"},
    ),
    "scope_supervisor_role": ("space-all-staff", {"roles": ["SUPERVISOR"]}, {"supervisor", "operator"}),
    **GOVERNANCE_CANARIES,
    "canary_retired_flag": ("space-all-staff", {"lifecycle": "RETIRED"}, set()),
    "canary_future": ("space-all-staff", {"effective_from": "2026-01-01"}, set()),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[KnowledgeBase, sessionmaker[Session]]]:
    """One knowledge base for the whole module: every test here only reads."""
    settings, engine, factory = open_store(tmp_path_factory.mktemp("governed"))
    base = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    yield base, factory
    base.close()
    engine.dispose()


@pytest.fixture(scope="module")
def kb(store: tuple[KnowledgeBase, sessionmaker[Session]]) -> KnowledgeBase:
    """The shared knowledge base."""
    return store[0]


@pytest.fixture(scope="module")
def session_factory(store: tuple[KnowledgeBase, sessionmaker[Session]]) -> sessionmaker[Session]:
    """Sessions of the shared store."""
    return store[1]


@pytest.fixture(scope="module")
def corpus(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """Ingest every case (plus a retired version and another tenant's document); fragment ids by key."""
    tmp_path = tmp_path_factory.mktemp("docs")
    for key, (space, overrides, _) in CASES.items():
        path = write_doc(tmp_path / key, key, BODY.format(label=key), **policy(key, **overrides))
        assert kb.ingest_paths([path], space_id=space).ok
    old = write_doc(tmp_path / "v1", "versioned", BODY.format(label="旧版"), **policy("versioned"))
    assert kb.ingest_paths([old], space_id="space-all-staff").ok
    retired = {e.fragment_id for e in kb.list_fragments("versioned")}
    new = write_doc(tmp_path / "v2", "versioned", BODY.format(label="新版"), **policy("versioned"))
    assert kb.ingest_paths([new], space_id="space-all-staff").ok
    other = write_doc(tmp_path / "other", "other_tenant", BODY.format(label="别家"), **policy("other"))
    assert kb.ingest_paths([other], space_id="space-all-staff", tenant_id="other").ok
    ids = {key: {e.fragment_id for e in kb.list_fragments(key)} for key in CASES}
    ids["canary_retired_version"] = retired
    ids["versioned"] = {e.fragment_id for e in kb.list_fragments("versioned")} - retired
    ids["canary_other_tenant"] = {e.fragment_id for e in kb.list_fragments("other_tenant")}
    return ids


@pytest.mark.parametrize("actor", sorted(USERS))
@pytest.mark.parametrize("query", ["金丝雀 报销 规定", "单笔报销不超过500元", "canary_draft 旧版 别家"])
def test_search_returns_exactly_what_the_actor_may_see(
    kb: KnowledgeBase,
    corpus: dict[str, set[str]],
    session_factory: sessionmaker[Session],
    actor: str,
    query: str,
) -> None:
    access = actor_access(session_factory, actor)
    returned = {e.fragment_id for e in kb.search(query, domain=None, access=access, top_k=200)}
    allowed = set().union(*(corpus[key] for key, (_, _, who) in CASES.items() if actor in who))
    if actor != "candidate":
        allowed |= corpus["versioned"]
    assert returned == allowed
    forbidden = set().union(*(ids for key, ids in corpus.items() if key.startswith("canary_")))
    assert not returned & forbidden


@pytest.mark.parametrize("actor", sorted(USERS))
def test_canaries_cannot_be_read_by_id(
    kb: KnowledgeBase, corpus: dict[str, set[str]], session_factory: sessionmaker[Session], actor: str
) -> None:
    access = actor_access(session_factory, actor)
    for key, ids in corpus.items():
        if key.startswith("canary_"):
            assert all(kb.fragment(fragment_id, access) is None for fragment_id in ids), key


def test_other_tenant_sees_only_its_own(
    kb: KnowledgeBase, corpus: dict[str, set[str]], session_factory: sessionmaker[Session]
) -> None:
    with session_factory() as session:
        access = access_for_actor(session, "other", "other_employee", ON)
    assert access is not None and access.space_ids == ("space-other",)
    assert kb.search("金丝雀 报销", domain=None, access=access, top_k=50) == []


def test_evidence_carries_governance(
    kb: KnowledgeBase, corpus: dict[str, set[str]], session_factory: sessionmaker[Session]
) -> None:
    access = actor_access(session_factory, "supervisor")
    results = kb.search("单笔报销不超过500元", domain="REIMBURSEMENT", access=access, top_k=3)
    assert results and results[0].score > 0
    top = results[0]
    assert top.citation_id == top.fragment_id
    assert top.lifecycle.value == "PUBLISHED" and top.verification.value == "HUMAN_VERIFIED"
    assert top.environment == "production" and top.scope.tenant_id == "demo"
    assert top.version == "2025版" and top.kind == "制度"
    assert top.locator in {"一、适用范围", "二、报销标准"}
    amounts = [e for e in results if e.locator == "二、报销标准"]
    assert amounts and "AMOUNT_RULE" in [n.value for n in amounts[0].supported_need_codes]


def test_empty_access_returns_nothing(kb: KnowledgeBase, corpus: dict[str, set[str]]) -> None:
    from shifu.contracts.common import Role

    access = SearchAccess("demo", (), ("proj-huafu",), Role.EMPLOYEE, ON)
    assert kb.search("金丝雀", domain=None, access=access, top_k=10) == []
