"""Keep stored claim labels in step with the classifier that produced them.

Fragment labels (candidate needs and claim types) are computed at ingest and stored with the
fragment; the evidence gate reads them from the store. A classifier that improves after a
deployment was built would otherwise reach only documents ingested later, so re-ingesting an
unchanged file and `kb rebuild` relabel stored fragments, and `kb check` counts the stale ones.
The labels are a pure function of the fragment text, so relabelling is idempotent.
"""

from __future__ import annotations

from collections.abc import Iterable

from shifu.knowledge.classifier import classify_claims
from shifu.store.tables.knowledge import KbFragmentRow


def current_labels(text: str) -> tuple[list[str], list[str]]:
    """The need codes and claim types the current classifier gives `text`, as stored."""
    needs, claims = classify_claims(text)
    return [n.value for n in needs], [c.value for c in claims]


def is_stale(fragment: KbFragmentRow) -> bool:
    """Whether the fragment's stored labels differ from what the current classifier says."""
    needs, claims = current_labels(fragment.text)
    return list(fragment.supported_need_codes) != needs or list(fragment.claim_types) != claims


def relabel(fragments: Iterable[KbFragmentRow]) -> int:
    """Rewrite stale labels in place on session-attached rows; returns how many changed."""
    changed = 0
    for fragment in fragments:
        if is_stale(fragment):
            fragment.supported_need_codes, fragment.claim_types = current_labels(fragment.text)
            changed += 1
    return changed
