"""One call that extracts every entity of a question, deterministically.

Used by the planners (tool arguments), by the fidelity validator (what a rewrite must
keep) and by context resolution (references). The finders run in a fixed priority order
over one shared list of claimed spans, so each character belongs to at most one entity:
当月累计 is a caliber, not a date; 不超过 is a comparator, not a negation; 下周五 is a
date, not the person 周五.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from shifu.contracts.entities import ExtractedEntities
from shifu.nlp.dates import find_dates
from shifu.nlp.mentions import (
    find_document_refs,
    find_locations,
    find_negations,
    find_ordinals,
    find_persons,
    find_versions,
)
from shifu.nlp.quantities import find_amounts, find_calibers, find_comparators, find_durations


def normalize_text(text: str) -> str:
    """NFKC (full-width digits and punctuation to ASCII) with whitespace runs collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _ordered(found: Any) -> list[Any]:
    return [item for _, item in sorted(found, key=lambda pair: pair[0])]


def extract_entities(text: str, *, now: datetime, tz: ZoneInfo) -> ExtractedEntities:
    """Extract amounts, comparators, dates, durations, negations, versions, locations,
    ordinals, document references, persons and calibers from `text`.

    Relative dates resolve against `now` seen in `tz` (the server clock and the deployment
    time zone); a naive `now` is taken to already be in `tz`.
    """
    normalized = normalize_text(text)
    local_now = now.astimezone(tz) if now.tzinfo is not None else now.replace(tzinfo=tz)
    today = local_now.date()
    taken: list[tuple[int, int]] = []
    calibers = _ordered(find_calibers(normalized, taken))
    versions = _ordered(find_versions(normalized, taken))
    dates = sorted(find_dates(normalized, today, taken), key=lambda m: m.start)
    locations = _ordered(find_locations(normalized, taken))
    amounts = _ordered(find_amounts(normalized, taken))
    comparators = _ordered(find_comparators(normalized, taken))
    durations = _ordered(find_durations(normalized, taken))
    ordinals = _ordered(find_ordinals(normalized, taken))
    document_refs = _ordered(find_document_refs(normalized, taken))
    negations = _ordered(find_negations(normalized, taken))
    persons = _ordered(find_persons(normalized, taken))
    return ExtractedEntities(
        amounts=amounts,
        comparators=comparators,
        dates=[match.span for match in dates],
        durations=durations,
        negations=negations,
        versions=versions,
        locations=locations,
        ordinals=ordinals,
        document_refs=document_refs,
        persons=persons,
        calibers=calibers,
    )
