"""Does a body amount rule answer the amount, comparator and caliber the question states?

Seed 000's 500元 cases: a monthly cumulative cap never answers a per-transaction
question, and when no qualified rule matches, the question's amount, comparator and
caliber are kept as a structured gap (never the user's text).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pydantic import JsonValue

from shifu.contracts.entities import AmountCaliber, ComparatorOp
from shifu.contracts.plan import SemanticQueryPlan
from shifu.evidence.body import AmountRule

_PER_TRANSACTION_WORDS = ("一笔", "单笔", "每笔", "单次", "每次", "一次性")
_MONTHLY_WORDS = ("每月累计", "月累计", "每个月", "每月")
_ANNUAL_WORDS = ("每年", "年度累计", "全年", "年累计")

CALIBER_MISMATCH = "CALIBER_MISMATCH"
AMOUNT_NOT_MATCHED = "AMOUNT_NOT_MATCHED"


@dataclass(frozen=True, slots=True)
class AmountTarget:
    """What the question asks about money: amount, comparator and caliber (any may be absent)."""

    value: Decimal | None
    currency: str
    comparator: ComparatorOp | None
    caliber: AmountCaliber

    @property
    def is_constrained(self) -> bool:
        """True when the question states an amount or a caliber that sources must match."""
        return self.value is not None or self.caliber is not AmountCaliber.UNSPECIFIED

    def detail(self) -> dict[str, JsonValue]:
        """Structured gap detail; values only, never the user's wording."""
        return {
            "amount": str(self.value) if self.value is not None else None,
            "currency": self.currency,
            "comparator": self.comparator.value if self.comparator is not None else None,
            "caliber": self.caliber.value,
        }


def amount_target(plan: SemanticQueryPlan) -> AmountTarget:
    """Read the question's amount target from the plan's entities, with a text fallback for caliber."""
    entities = plan.entities
    amount = entities.amounts[0] if entities.amounts else None
    comparator = entities.comparators[0].op if entities.comparators else None
    calibers = [c for c in entities.calibers if c is not AmountCaliber.UNSPECIFIED]
    caliber = calibers[0] if calibers else _caliber_from_text(plan.question)
    return AmountTarget(
        value=amount.value if amount is not None else None,
        currency=amount.currency if amount is not None else "CNY",
        comparator=comparator,
        caliber=caliber,
    )


def _caliber_from_text(question: str) -> AmountCaliber:
    if any(word in question for word in _MONTHLY_WORDS):
        return AmountCaliber.MONTHLY_CUMULATIVE
    if any(word in question for word in _ANNUAL_WORDS):
        return AmountCaliber.ANNUAL_CUMULATIVE
    if any(word in question for word in _PER_TRANSACTION_WORDS):
        return AmountCaliber.PER_TRANSACTION
    return AmountCaliber.UNSPECIFIED


def _caliber_fits(question: AmountCaliber, body: AmountCaliber) -> bool:
    """Same caliber; a question without one accepts per-transaction or unstated rules, never caps."""
    if question is AmountCaliber.UNSPECIFIED:
        return body in (AmountCaliber.PER_TRANSACTION, AmountCaliber.UNSPECIFIED)
    return body is question


def _point_in_rule(value: Decimal, rule: AmountRule) -> bool:
    if rule.upper is not None and (value > rule.upper or (value == rule.upper and not rule.upper_included)):
        return False
    match rule.comparator:
        case ComparatorOp.LE:
            return value <= rule.value
        case ComparatorOp.LT:
            return value < rule.value
        case ComparatorOp.GE:
            return value >= rule.value
        case ComparatorOp.GT:
            return value > rule.value
        case ComparatorOp.EQ:
            return value == rule.value


def _range_in_rule(value: Decimal, op: ComparatorOp, rule: AmountRule) -> bool:
    """The question's whole range (≤ value, ≥ value …) falls under the rule (never under a bounded range)."""
    if rule.upper is not None:
        return False
    upper = op in (ComparatorOp.LE, ComparatorOp.LT)
    if upper:
        if rule.comparator is ComparatorOp.LE:
            return value <= rule.value
        if rule.comparator is ComparatorOp.LT:
            return value < rule.value or (op is ComparatorOp.LT and value == rule.value)
        return False
    if rule.comparator is ComparatorOp.GE:
        return value >= rule.value
    if rule.comparator is ComparatorOp.GT:
        return value > rule.value or (op is ComparatorOp.GT and value == rule.value)
    return False


def rule_matches(target: AmountTarget, rule: AmountRule) -> bool:
    """True when this body rule answers the question's amount under the same caliber."""
    if not _caliber_fits(target.caliber, rule.caliber):
        return False
    if target.value is None:
        return True
    if target.comparator is None or target.comparator is ComparatorOp.EQ:
        return _point_in_rule(target.value, rule)
    return _range_in_rule(target.value, target.comparator, rule)


def match_rules(target: AmountTarget, rules: Sequence[AmountRule]) -> tuple[list[AmountRule], str | None]:
    """Rules that answer the target, or none and the reason (CALIBER_MISMATCH / AMOUNT_NOT_MATCHED)."""
    if not target.is_constrained:
        return list(rules), None if rules else AMOUNT_NOT_MATCHED
    matching = [rule for rule in rules if rule_matches(target, rule)]
    if matching:
        return matching, None
    if not any(_caliber_fits(target.caliber, rule.caliber) for rule in rules):
        return [], CALIBER_MISMATCH
    return [], AMOUNT_NOT_MATCHED
