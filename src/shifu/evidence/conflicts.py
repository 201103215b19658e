"""Qualified sources that disagree: versions of one document, amounts, time limits.

Run only over documents that already cover a slot; a disagreement between qualified
sources must be shown to the user (CONFLICT), or resolved by the user choosing a
version (NEEDS_INPUT naming the versions) — never silently picked.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from shifu.contracts.common import EvidenceNeed
from shifu.contracts.entities import ComparatorOp
from shifu.contracts.evidence import Conflict, DocumentEvidence
from shifu.evidence.body import AmountRule, durations
from shifu.evidence.injection import strip_instructions

VERSION = "VERSION"
AMOUNT = "AMOUNT"
TIME_LIMIT = "TIME_LIMIT"

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Covering:
    """A document that covers a slot, with the amount rules that made it match (AMOUNT_RULE only)."""

    doc: DocumentEvidence
    rules: tuple[AmountRule, ...] = ()


def _normalized(text: str) -> str:
    return _SPACE.sub("", text)


def _version_conflicts(need: EvidenceNeed, covering: Sequence[Covering]) -> list[Conflict]:
    by_key: dict[str, list[DocumentEvidence]] = defaultdict(list)
    for item in covering:
        by_key[item.doc.document_key].append(item.doc)
    conflicts: list[Conflict] = []
    for docs in by_key.values():
        versions = sorted({doc.version for doc in docs})
        if len(versions) < 2:
            continue
        texts_by_version = {
            version: {_normalized(doc.text) for doc in docs if doc.version == version} for version in versions
        }
        first = texts_by_version[versions[0]]
        if all(texts == first for texts in texts_by_version.values()):
            continue
        conflicts.append(
            Conflict(
                need=need,
                kind=VERSION,
                citation_ids=tuple(doc.citation_id for doc in docs),
                versions=tuple(versions),
            )
        )
    return conflicts


def _direction(op: ComparatorOp) -> str:
    if op in (ComparatorOp.LE, ComparatorOp.LT):
        return "UPPER"
    if op in (ComparatorOp.GE, ComparatorOp.GT):
        return "LOWER"
    return "POINT"


def _amount_conflicts(need: EvidenceNeed, covering: Sequence[Covering]) -> list[Conflict]:
    values: dict[tuple[str, str], dict[str, set[Decimal]]] = defaultdict(lambda: defaultdict(set))
    citations: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for item in covering:
        for rule in item.rules:
            bucket = (rule.caliber.value, _direction(rule.comparator))
            values[bucket][item.doc.document_key].add(rule.value)
            citations[bucket][item.doc.document_key].append(item.doc.citation_id)
    conflicts: list[Conflict] = []
    for bucket, per_key in values.items():
        if len(per_key) < 2:
            continue
        distinct = {frozenset(found) for found in per_key.values()}
        if len(distinct) > 1:
            ids = tuple(dict.fromkeys(cid for key in per_key for cid in citations[bucket][key]))
            conflicts.append(Conflict(need=need, kind=AMOUNT, citation_ids=ids))
    return conflicts


def _time_limit_conflicts(need: EvidenceNeed, covering: Sequence[Covering]) -> list[Conflict]:
    limits: dict[str, set[tuple[Decimal, str]]] = defaultdict(set)
    ids: dict[str, list[str]] = defaultdict(list)
    for item in covering:
        found = durations(strip_instructions(item.doc.text))
        if len(found) == 1:
            limits[item.doc.document_key].add((found[0].value, found[0].unit))
            ids[item.doc.document_key].append(item.doc.citation_id)
    if len(limits) < 2:
        return []
    by_unit: dict[str, set[Decimal]] = defaultdict(set)
    for stated in limits.values():
        for value, unit in stated:
            by_unit[unit].add(value)
    if any(len(values) > 1 for values in by_unit.values()):
        return [
            Conflict(
                need=need,
                kind=TIME_LIMIT,
                citation_ids=tuple(dict.fromkeys(cid for key in limits for cid in ids[key])),
            )
        ]
    return []


def find_conflicts(need: EvidenceNeed, covering: Sequence[Covering]) -> list[Conflict]:
    """Every disagreement among the documents covering one need.

    Versions of one document key are compared first; amounts and time limits are then
    compared across different documents only (one document's tiers are not a conflict).
    """
    conflicts = _version_conflicts(need, covering)
    versioned_ids = {cid for conflict in conflicts for cid in conflict.citation_ids}
    rest = [item for item in covering if item.doc.citation_id not in versioned_ids]
    if need is EvidenceNeed.AMOUNT_RULE:
        conflicts += _amount_conflicts(need, rest)
    if need is EvidenceNeed.DEADLINE:
        conflicts += _time_limit_conflicts(need, rest)
    return conflicts
