"""Qualified sources that disagree: versions of one document, amounts, time limits.

Run only over documents that already cover a slot; a disagreement between qualified
sources must be shown to the user (CONFLICT), or resolved by the user choosing a
version (NEEDS_INPUT naming the versions) — never silently picked.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from shifu.contracts.common import EvidenceNeed
from shifu.contracts.entities import ComparatorOp
from shifu.contracts.evidence import Conflict, DocumentEvidence
from shifu.evidence.body import AmountRule, durations
from shifu.nlp.injection import strip_instructions
from shifu.nlp.sections import section_key, title_key

VERSION = "VERSION"
AMOUNT = "AMOUNT"
TIME_LIMIT = "TIME_LIMIT"

_SPACE = re.compile(r"\s+")
_SENTENCE = re.compile(r"[^。；;\n]+")


@dataclass(frozen=True, slots=True)
class Covering:
    """A document that covers a slot, with the amount rules that made it match (AMOUNT_RULE only)."""

    doc: DocumentEvidence
    rules: tuple[AmountRule, ...] = ()


def _normalized(text: str) -> str:
    return _SPACE.sub("", text)


_PUNCTUATION = re.compile(r"[\s，,。．.；;：:、！!？?“”\"'‘’（）()]")


def _bare(text: str) -> str:
    """The words of `text` without spacing and punctuation: 病历，请病假 and 病历；请病假 say the same."""
    return _PUNCTUATION.sub("", text)


def document_families(docs: Sequence[DocumentEvidence]) -> list[list[DocumentEvidence]]:
    """Documents grouped into families: versions of one document share a key or a title.

    A new version is often ingested as a separate document (its own key, e.g. `qingjia_zhidu_2024`
    and `qingjia_zhidu_2025`) under the same title, so the key alone misses version conflicts.
    """
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for doc in docs:
        key, title = f"key:{doc.document_key}", f"title:{title_key(doc.title)}"
        parent[find(key)] = find(title)
    families: dict[str, list[DocumentEvidence]] = defaultdict(list)
    for doc in docs:
        families[find(f"key:{doc.document_key}")].append(doc)
    return list(families.values())


def _claim_texts(
    texts: Sequence[str], claim_score: Callable[[str], float] | None, states_claim: Callable[[str], bool]
) -> frozenset[str]:
    """What one version says on the question's point: its best-matching sentences, else all its text.

    Two versions that reword other sentences of a section but state the asked rule alike
    (年休假5天 in both) do not disagree on this question: they agree when each version's claim
    sentences stand word for word (punctuation aside) in every other version. Sentences that
    state what is asked (`states_claim`: the count of days, not the notice period in days) are
    preferred; when none does, every sentence competes.
    """
    whole = frozenset(_normalized(text) for text in texts)
    if claim_score is None:
        return whole
    sentences = [sentence for text in texts for sentence in _SENTENCE.findall(strip_instructions(text))]
    sentences = [sentence for sentence in sentences if states_claim(sentence)] or sentences
    scored = [(claim_score(sentence), _normalized(sentence)) for sentence in sentences]
    best = max((score for score, _ in scored), default=0.0)
    if best <= 0:
        return whole
    return frozenset(sentence for score, sentence in scored if score >= best)


def _version_conflicts(
    need: EvidenceNeed,
    covering: Sequence[Covering],
    claim_score: Callable[[str], float] | None,
    states_claim: Callable[[str], bool],
) -> list[Conflict]:
    conflicts: list[Conflict] = []
    for docs in document_families([item.doc for item in covering]):
        versions = sorted({doc.version for doc in docs})
        if len(versions) < 2:
            continue
        texts = {version: [doc.text for doc in docs if doc.version == version] for version in versions}
        claims = {version: _claim_texts(texts[version], claim_score, states_claim) for version in versions}
        wholes = {version: _bare("".join(texts[version])) for version in versions}
        if all(
            _bare(claim) in wholes[other]
            for version in versions
            for claim in claims[version]
            for other in versions
        ):
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
            ends = [(_direction(rule.comparator), rule.value)]
            if rule.upper is not None:
                ends.append(("UPPER", rule.upper))
            for direction, value in ends:
                bucket = (rule.caliber.value, direction)
                values[bucket][item.doc.document_key].add(value)
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


def _time_limit_conflicts(
    need: EvidenceNeed, covering: Sequence[Covering], about_subject: Callable[[str], bool]
) -> list[Conflict]:
    limits: dict[str, set[tuple[Decimal, str]]] = defaultdict(set)
    ids: dict[str, list[str]] = defaultdict(list)
    for item in covering:
        sentences = _SENTENCE.findall(strip_instructions(item.doc.text))
        found = [
            mention for sentence in sentences if about_subject(sentence) for mention in durations(sentence)
        ]
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


def sibling_versions(covering: Sequence[Covering], candidates: Sequence[DocumentEvidence]) -> list[Covering]:
    """The same section of other qualified versions of a covering document, for comparison.

    When only one version's section matches the question (the other version reworded it),
    the other version still states a rule on the same point; comparing both is the only
    way to see that they disagree.
    """
    covering_ids = {item.doc.citation_id for item in covering}
    by_family = document_families([item.doc for item in covering] + list(candidates))
    extra: list[Covering] = []
    for family in by_family:
        sections = {
            (doc.version, section_key(doc.locator)) for doc in family if doc.citation_id in covering_ids
        }
        if not sections:
            continue
        wanted = {section for _, section in sections}
        for doc in family:
            if doc.citation_id in covering_ids or section_key(doc.locator) not in wanted:
                continue
            if (doc.version, section_key(doc.locator)) not in sections:
                extra.append(Covering(doc=doc))
    return extra


def _anything(_: str) -> bool:
    return True


def find_conflicts(
    need: EvidenceNeed,
    covering: Sequence[Covering],
    *,
    about_subject: Callable[[str], bool] = _anything,
    siblings: Sequence[Covering] = (),
    claim_score: Callable[[str], float] | None = None,
    states_claim: Callable[[str], bool] = _anything,
) -> list[Conflict]:
    """Every disagreement among the documents covering one need.

    Versions of one document family (same key or same title) are compared first, including
    the same section of other qualified versions (`siblings`), on the sentences that best
    match the question (`claim_score`) among those stating what it asks (`states_claim`) when
    given; amounts and time limits are
    then compared across different documents only (one document's tiers are not a
    conflict), and only values stated in sentences about the question's subject count:
    装修押金 3000元 and 出入证 10元 are different things, not a conflict.
    """
    conflicts = _version_conflicts(need, [*covering, *siblings], claim_score, states_claim)
    versioned_ids = {cid for conflict in conflicts for cid in conflict.citation_ids}
    rest = [item for item in covering if item.doc.citation_id not in versioned_ids]
    if need is EvidenceNeed.AMOUNT_RULE:
        conflicts += _amount_conflicts(need, rest)
    if need is EvidenceNeed.DEADLINE:
        conflicts += _time_limit_conflicts(need, rest, about_subject)
    return conflicts
