"""References are re-authorized on every reuse; TTL only matters once authorization holds."""

from __future__ import annotations

from typing import Any

import pytest

from context.builders import NOW, citation, fact_ref, later, principal, state_with
from shifu.context.refs import (
    CitationOutcome,
    CitationReason,
    FactRefReason,
    RefOutcome,
    check_citation_ref,
    check_fact_ref,
    find_citation,
    find_fact_ref,
)
from shifu.contracts.common import Role
from shifu.contracts.evidence import AuthorizationSnapshot


def test_same_principal_within_ttl_is_reusable() -> None:
    check = check_fact_ref(fact_ref(), principal(), later(seconds=299))
    assert (check.outcome, check.reason, check.allowed) == (RefOutcome.REUSABLE, FactRefReason.OK, True)


@pytest.mark.parametrize("seconds", [300, 301, 3600])
def test_past_ttl_the_tool_is_queried_again(seconds: int) -> None:
    check = check_fact_ref(fact_ref(), principal(), later(seconds=seconds))
    assert check.outcome is RefOutcome.EXPIRED_REQUERY
    assert check.reason is FactRefReason.FACT_TTL_EXPIRED
    assert check.allowed


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"tenant_id": "other"}, FactRefReason.TENANT_CHANGED),
        ({"app_id": "admin-console"}, FactRefReason.APP_CHANGED),
        ({"user_id": "u-zhaoliu"}, FactRefReason.USER_CHANGED),
        ({"conversation_id": "conv_other"}, FactRefReason.CONVERSATION_CHANGED),
        ({"conversation_id": None}, FactRefReason.CONVERSATION_CHANGED),
        (
            {"selected_project_id": "proj-jiangwan", "project_ids": ("proj-huafu", "proj-jiangwan")},
            FactRefReason.PROJECT_CHANGED,
        ),
        ({"role": Role.SUPERVISOR}, FactRefReason.ROLE_CHANGED),
        ({"project_ids": ("proj-jiangwan",)}, FactRefReason.PROJECT_ACCESS_REVOKED),
        ({"project_ids": ()}, FactRefReason.PROJECT_ACCESS_REVOKED),
        ({"is_operator_preview": True}, FactRefReason.OPERATOR_PREVIEW),
        ({"role": Role.OPERATOR, "user_id": "operator:u-chenqi"}, FactRefReason.OPERATOR_PREVIEW),
    ],
)
def test_any_change_of_scope_or_authorization_is_forbidden(
    changes: dict[str, Any], reason: FactRefReason
) -> None:
    check = check_fact_ref(fact_ref(), principal(**changes), NOW)
    assert check.outcome is RefOutcome.FORBIDDEN
    assert check.reason is reason
    assert not check.allowed


def test_authorization_is_checked_before_ttl() -> None:
    check = check_fact_ref(fact_ref(), principal(project_ids=()), later(hours=2))
    assert check.outcome is RefOutcome.FORBIDDEN


def test_team_reference_needs_the_project_still_supervised() -> None:
    team = fact_ref(
        authorization=AuthorizationSnapshot(
            role=Role.SUPERVISOR, project_ids=("proj-huafu",), policy="SUPERVISED_PROJECTS"
        )
    )
    supervisor = principal(role=Role.SUPERVISOR, supervised_project_ids=("proj-huafu",))
    assert check_fact_ref(team, supervisor, NOW).outcome is RefOutcome.REUSABLE
    demoted = principal(role=Role.SUPERVISOR, supervised_project_ids=())
    check = check_fact_ref(team, demoted, NOW)
    assert (check.outcome, check.reason) == (RefOutcome.FORBIDDEN, FactRefReason.PROJECT_ACCESS_REVOKED)


@pytest.mark.parametrize(
    ("current", "outcome", "reason"),
    [
        ("2025版", CitationOutcome.CURRENT, CitationReason.OK),
        ("2026版", CitationOutcome.RETIRED_RESEARCH, CitationReason.DOCUMENT_VERSION_CHANGED),
        ("", CitationOutcome.RETIRED_RESEARCH, CitationReason.DOCUMENT_VERSION_CHANGED),
        (None, CitationOutcome.RETIRED_RESEARCH, CitationReason.DOCUMENT_RETIRED),
    ],
)
def test_citation_reuse_follows_the_current_version(
    current: str | None, outcome: CitationOutcome, reason: CitationReason
) -> None:
    check = check_citation_ref(citation("c1", "baoxiao"), current)
    assert (check.outcome, check.reason) == (outcome, reason)


def test_lookups_never_guess() -> None:
    state = state_with(facts=2, citations=(citation("c1", "baoxiao"),))
    assert find_fact_ref(state, "fr-2") == state.fact_refs[1]
    assert find_fact_ref(state, "fr-9") is None
    assert find_citation(state, "c1") == state.citations[0]
    assert find_citation(state, "c2") is None
