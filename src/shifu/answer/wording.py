"""Chinese wording built from structured decision data only (gaps, conflicts, statuses).

Nothing here reads evidence bodies or the user's text: gap details carry values
(amount, comparator, caliber), and the sentences are fixed templates around them.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from shifu.contracts.common import EvidenceNeed
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import Conflict, Gap
from shifu.nlp.mentions import LATEST_VERSION, PREVIOUS_VERSION

NEED_LABELS: dict[EvidenceNeed, str] = {
    EvidenceNeed.AMOUNT_RULE: "数额标准",
    EvidenceNeed.PROCESS_STEPS: "办理步骤",
    EvidenceNeed.REQUIRED_MATERIALS: "所需材料",
    EvidenceNeed.APPROVAL: "审批要求",
    EvidenceNeed.ELIGIBILITY: "适用条件",
    EvidenceNeed.DEADLINE: "办理时限",
    EvidenceNeed.PROHIBITION: "禁止事项",
    EvidenceNeed.DEFINITION: "定义说明",
    EvidenceNeed.CONTACT: "联系方式",
    EvidenceNeed.OBLIGATION: "义务要求",
    EvidenceNeed.LIABILITY: "责任规定",
    EvidenceNeed.GENERAL_RULE: "相关规定",
    EvidenceNeed.LIVE_STATE: "实时数据",
}

DOMAIN_LABELS: dict[str, str] = {
    "REIMBURSEMENT": "报销",
    "PROCUREMENT": "采购",
    "DECORATION": "装修",
    "ELEVATOR": "电梯",
    "FIRE_SAFETY": "消防",
    "COMPLAINT": "投诉",
    "LEAVE": "请假",
    "COLLECTION": "收费",
    "ONBOARDING": "入职",
    "LABOR_CONTRACT": "劳动合同",
    "SOCIAL_INSURANCE": "社保",
    "PROPERTY_SERVICE": "物业服务",
    "SAFETY": "安全生产",
    "PERSONAL_INFO": "个人信息",
}

_CALIBER_WORDS = {
    "PER_TRANSACTION": "单笔",
    "MONTHLY_CUMULATIVE": "每月累计",
    "ANNUAL_CUMULATIVE": "年度累计",
}
_COMPARATOR_WORDS = {"LE": "以下", "LT": "以下", "GE": "以上", "GT": "以上"}
_CURRENCY_WORDS = {"CNY": "元", "USD": "美元", "HKD": "港元"}

NO_EVIDENCE_SUMMARY = "没有找到可以作为依据的正式资料，暂时无法回答这个问题。"
CONFLICT_SUMMARY = "找到的正式资料之间对此规定不一致，暂不能给出确定结论。"
VERSION_SUMMARY = "这份制度有多个版本且内容不一致，需要先确认按哪个版本回答。"
PARTIAL_PREFIX = "资料只覆盖了问题的一部分，以下仅列出有正式依据的内容。"
LIVE_SUMMARY = "已为你查询到以下实时数据。"


def _amount_phrase(detail: dict[str, object]) -> str:
    raw = detail.get("amount")
    if not isinstance(raw, str):
        return _CALIBER_WORDS.get(str(detail.get("caliber")), "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return ""
    number = f"{value.normalize():f}"
    currency = _CURRENCY_WORDS.get(str(detail.get("currency")), str(detail.get("currency") or ""))
    caliber = _CALIBER_WORDS.get(str(detail.get("caliber")), "")
    comparator = _COMPARATOR_WORDS.get(str(detail.get("comparator")), "")
    return f"{caliber}{number}{currency}{comparator}"


def gap_text(gap: Gap, domain: str | None) -> str | None:
    """One 缺失信息 line for a gap (未找到适用于单笔500元的正式报销金额规定); None for gaps without a slot.

    AMOUNT_RULE covers money and other quantities (年假5天), so its label is 数额标准, not 金额标准.
    """
    if gap.need is None:
        return None
    domain_word = DOMAIN_LABELS.get(domain or "", "")
    if gap.need is EvidenceNeed.AMOUNT_RULE:
        phrase = _amount_phrase(dict(gap.detail))
        if phrase:
            return f"未找到适用于{phrase}的正式{domain_word}金额规定"
    if gap.need is EvidenceNeed.LIVE_STATE:
        return "未能取得有效的实时数据"
    if gap.reason_code in ("SOURCE_CONFLICT", "VERSION_CONFLICT"):
        return f"关于{domain_word}{NEED_LABELS[gap.need]}的资料存在不一致"
    versions = gap.detail.get("versions")
    if gap.reason_code == "VERSION_NOT_FOUND" and isinstance(versions, list) and versions:
        named = "、".join(_version_name(version) for version in versions if isinstance(version, str))
        return f"未找到{named}的正式资料（该版本可能未发布或已失效），没有用其他版本代替回答"
    return f"未找到关于{domain_word}{NEED_LABELS[gap.need]}的正式依据"


def missing_information(decision: DecisionResult, domain: str | None) -> list[str]:
    """缺失信息 lines for every uncovered slot, de-duplicated, in slot order."""
    lines = [text for gap in decision.gaps if (text := gap_text(gap, domain))]
    return list(dict.fromkeys(lines))


def clarifying_questions(conflicts: list[Conflict]) -> list[str]:
    """Questions naming the versions the user must choose between."""
    questions: list[str] = []
    for conflict in conflicts:
        if conflict.versions:
            names = "、".join(conflict.versions)
            questions.append(f"找到同一制度的多个版本（{names}），请问按哪个版本回答？")
    return list(dict.fromkeys(questions))


_RELATIVE_VERSION_NAMES = {LATEST_VERSION: "最新版", PREVIOUS_VERSION: "旧版"}


def _version_name(version: str) -> str:
    """2021 → 2021版, LATEST → 最新版: a version as the user named it, never an internal code."""
    return _RELATIVE_VERSION_NAMES.get(version, f"{version}版")
