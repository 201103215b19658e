"""Which versions of a document the question asks about: 2021版, 新版 (the newest in force) or 旧版.

A question naming a version is answered from that version only, never from another passed off
as it. 新版 / 最新版 names the newest version in force of each document; 旧版 / 老版 names every
version before it. Relative names are resolved per document family (versions share a key or a
title) among the retrieved fragments, so they need no version label in the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from shifu.contracts.evidence import DocumentEvidence
from shifu.contracts.plan import SemanticQueryPlan
from shifu.evidence.conflicts import Covering, document_families
from shifu.nlp.mentions import LATEST_VERSION, PREVIOUS_VERSION
from shifu.nlp.sections import section_key

RELATIVE_VERSIONS = frozenset({LATEST_VERSION, PREVIOUS_VERSION})
"""Versions named by their place among the others (新版, 旧版), not by a label."""


def wanted_versions(plan: SemanticQueryPlan) -> list[str]:
    """The document versions the question names (电梯困人2021版 → 2021, 新版 → LATEST)."""
    return [ref.value for ref in plan.entities.versions if ref.value]


def _age(doc: DocumentEvidence) -> tuple[date, str]:
    return (doc.effective_from or date.min, doc.version)


def _named(doc: DocumentEvidence, wanted: list[str], newest: tuple[date, str]) -> bool:
    """Whether `doc` is a version the question names, `newest` being its family's newest in force."""
    for value in wanted:
        if value == LATEST_VERSION:
            if _age(doc) == newest:
                return True
        elif value == PREVIOUS_VERSION:
            if _age(doc) < newest:
                return True
        elif value in doc.version:
            return True
    return False


def not_requested(
    plan: SemanticQueryPlan, docs: Sequence[DocumentEvidence], in_force: Callable[[DocumentEvidence], bool]
) -> set[str]:
    """Citation ids dropped because the question names another version than theirs.

    A document none of whose retrieved versions is the one named is dropped whole: the current
    version does not answer "2021版是怎么规定的", and answering from it would pass one version off
    as another. `in_force` tells which fragments pass governance: 新版 is the newest of those.
    """
    wanted = wanted_versions(plan)
    if not wanted:
        return set()
    dropped: set[str] = set()
    for family in document_families(docs):
        newest = max(_age(doc) for doc in [doc for doc in family if in_force(doc)] or family)
        dropped |= {doc.citation_id for doc in family if not _named(doc, wanted, newest)}
    return dropped


def missing_versions(
    plan: SemanticQueryPlan, docs: Sequence[DocumentEvidence], dropped: set[str]
) -> list[str]:
    """The versions the question names that no retrieved document has (旧版 of a document with one)."""
    kept = [doc for doc in docs if doc.citation_id not in dropped]
    return [
        value
        for value in wanted_versions(plan)
        if (not kept if value in RELATIVE_VERSIONS else not any(value in doc.version for doc in docs))
    ]


def current_versions(covering: Sequence[Covering]) -> list[Covering]:
    """Of the versions of a section that agree on the asked point, the newest answers alone.

    病假要什么证明: the 2024 and 2025 versions state the same certificate, so the answer quotes the
    2025 version's list, not both lists interleaved (they differ on items nobody asked about). An
    older version's section stays when no newer version of that section covers the slot.
    """
    kept_ids: set[str] = set()
    for family in document_families([item.doc for item in covering]):
        newest: dict[str, tuple[date, str]] = {}
        for doc in family:
            key = section_key(doc.locator)
            newest[key] = max(newest.get(key, _age(doc)), _age(doc))
        kept_ids.update(doc.citation_id for doc in family if _age(doc) == newest[section_key(doc.locator)])
    return [item for item in covering if item.doc.citation_id in kept_ids]


def lacks_newest_version(covering: Sequence[Covering], candidates: Sequence[DocumentEvidence]) -> bool:
    """True when a covering document's newest retrieved version is not among the covering fragments.

    请假3天要谁批: the 2024 approval section covers, the 2025 one (2日以内) was not retrieved, yet
    2025 sections on other points were; agreement on the asked section cannot be shown, so the
    versions are compared on everything that covers instead of on the approval section alone.
    """
    covering_ids = {item.doc.citation_id for item in covering}
    for family in document_families([item.doc for item in covering] + list(candidates)):
        covered = {_age(doc) for doc in family if doc.citation_id in covering_ids}
        if covered and max(_age(doc) for doc in family) not in covered:
            return True
    return False
