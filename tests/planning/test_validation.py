"""Authorization-field detection and the fidelity validator, edge by edge."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from shifu.planning.fidelity import fidelity_violations
from shifu.planning.validation import find_authorization_keys, is_authorization_key

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)


@pytest.mark.parametrize(
    "key",
    [
        "tenantId",
        "tenant_id",
        "TENANT-ID",
        "ｔｅｎａｎｔＩｄ",
        "tenant",
        "userId",
        "user_id",
        "projectId",
        "project",
        "spaceId",
        "space_ids",
        "appId",
        "extPartyId",
        "ext_party_id",
        "role",
        "ROLE",
        "rоle",
        "employeeId",
        "recipientId",
        "recipient_id",
        "targetUserId",
        "tenant\u200bId",
        "user.id",
    ],
)
def test_authorization_keys_are_recognized_in_any_spelling(key: str) -> None:
    assert is_authorization_key(key)


@pytest.mark.parametrize(
    "key",
    [
        "query",
        "domain",
        "dateRange",
        "citationId",
        "assigneeName",
        "recipient",
        "requestedSystem",
        "content",
        "intent",
    ],
)
def test_business_keys_are_not_authorization_keys(key: str) -> None:
    assert not is_authorization_key(key)


def test_keys_are_found_at_any_depth_and_inside_lists() -> None:
    value = {"a": [{"b": {"c": [{"projectId": "p"}]}}], "d": {"USER_ID": 1}}
    assert find_authorization_keys(value) == 2
    assert find_authorization_keys({"query": "tenantId 是什么"}) == 0


@pytest.mark.parametrize(
    ("original", "rewritten"),
    [
        ("五百块的小额自采怎么走账", "500元的小额自采如何走账"),
        ("500元以下的零星采购怎么报销", "500 元以下零星采购的报销流程"),
        ("本月待办有哪些", "这个月的待办有哪些"),
        ("一年以上的员工能请年假吗", "工作一年以上员工年假资格"),
        ("3栋1201要回访", "3栋1201 回访"),
        ("2024版报销制度里不需要发票吗", "2024版报销制度 不需要发票吗"),
        ("你好", "你好"),
    ],
)
def test_faithful_rewrites_pass(original: str, rewritten: str) -> None:
    assert fidelity_violations(original, rewritten, now=NOW, tz=TZ) == []


@pytest.mark.parametrize(
    ("original", "rewritten", "reason"),
    [
        ("五百块的小额自采怎么走账", "5000元的小额自采怎么走账", "MISSING:AMOUNT"),
        ("500元以下的零星采购怎么报销", "500元的零星采购怎么报销", "MISSING:COMPARATOR"),
        ("本月待办有哪些", "上月待办有哪些", "MISSING:DATE"),
        ("试用期员工不能报销吗", "试用期员工能报销吗", "MISSING:NEGATION"),
        ("满20年呢", "满2年呢", "MISSING:DURATION"),
        ("2024版制度", "2025版制度", "MISSING:VERSION"),
        ("一笔500元怎么报", "每月累计500元怎么报", "MISSING:CALIBER"),
        ("3栋1201要回访", "3栋1202要回访", "MISSING:LOCATION"),
        ("报销流程", "报销500元以上的流程", "INVENTED:AMOUNT"),
        ("报销流程", "报销不需要的流程", "INVENTED:NEGATION"),
        ("报销流程", "今天报销流程", "INVENTED:DATE"),
        ("第3季度有几场培训", "有几场培训", "MISSING:NUMBER"),
    ],
)
def test_unfaithful_rewrites_are_named(original: str, rewritten: str, reason: str) -> None:
    assert reason in fidelity_violations(original, rewritten, now=NOW, tz=TZ)
