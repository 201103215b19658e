"""The fidelity validator (invariant 2): a rewrite may change words, never facts.

Every number, amount (with currency), date, duration, comparator, negation, version,
caliber and building/room of the original question must survive into the rewritten
question — compared by value, so 五百块 and 500元 are the same amount while 五百 → 5000,
本月 → 上月 or a dropped 以下/不 are violations. A rewrite may also not invent amounts,
dates, durations, versions or negations the user never said.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

from shifu.contracts.entities import ExtractedEntities
from shifu.nlp.entities import extract_entities, normalize_text
from shifu.nlp.numerals import CN_NUMBER, parse_number

Atom = tuple[str, ...]

_BARE_NUMBER = re.compile(rf"\d+(?:\.\d+)?|{CN_NUMBER}")
_INVENTION_KINDS = frozenset({"AMOUNT", "DATE", "DURATION", "VERSION", "NEGATION", "CALIBER"})


def _surfaces(entities: ExtractedEntities) -> list[str]:
    texts: list[str] = []
    for group in (
        entities.amounts,
        entities.dates,
        entities.durations,
        entities.versions,
        entities.locations,
        entities.ordinals,
        entities.comparators,
    ):
        texts.extend(item.text for item in group)
    return texts


def _bare_numbers(text: str, entities: ExtractedEntities) -> list[Atom]:
    """Numbers outside every recognized entity (room numbers, counts, percentages)."""
    rest = text
    for surface in sorted(_surfaces(entities), key=len, reverse=True):
        rest = rest.replace(surface, " ")
    atoms: list[Atom] = []
    for match in _BARE_NUMBER.finditer(rest):
        token = match.group(0)
        if not token[0].isdigit() and not any(unit in token for unit in "十百千万亿") and len(token) < 2:
            continue
        value = parse_number(token)
        if value is not None:
            atoms.append(("NUMBER", str(value)))
    return atoms


def fidelity_atoms(text: str, entities: ExtractedEntities) -> Counter[Atom]:
    """The facts of a text that no rewrite may change, as a multiset."""
    atoms: list[Atom] = []
    atoms += [("AMOUNT", str(a.value), a.currency) for a in entities.amounts]
    atoms += [("DATE", d.start.isoformat(), d.end.isoformat()) for d in entities.dates]
    atoms += [("DURATION", str(d.value), d.unit.value) for d in entities.durations]
    atoms += [("COMPARATOR", c.op.value) for c in entities.comparators]
    atoms += [("NEGATION",) for _ in entities.negations]
    atoms += [("VERSION", v.value) for v in entities.versions]
    atoms += [("CALIBER", c.value) for c in entities.calibers]
    atoms += [("LOCATION", loc.building or "", loc.room or "") for loc in entities.locations]
    atoms += _bare_numbers(normalize_text(text), entities)
    return Counter(atoms)


def fidelity_violations(original: str, rewritten: str, *, now: datetime, tz: ZoneInfo) -> list[str]:
    """Reasons `rewritten` does not preserve `original` (empty when it does).

    Reasons are codes plus kinds only (e.g. "MISSING:COMPARATOR"), never the text.
    """
    before = fidelity_atoms(original, extract_entities(original, now=now, tz=tz))
    after = fidelity_atoms(rewritten, extract_entities(rewritten, now=now, tz=tz))
    reasons = [f"MISSING:{atom[0]}" for atom in (before - after).elements()]
    reasons += [f"INVENTED:{atom[0]}" for atom in (after - before).elements() if atom[0] in _INVENTION_KINDS]
    return sorted(set(reasons))
