"""Which documents the things a question names belong to: 买灯泡 reaches 《零星采购管理办法》.

A scope section (`nlp.scope_sections`) lists the things its document covers (…例如灯泡、水龙头、
清洁用品). A question naming one of them (买清洁用品要谁签字) is about that document's rules, and
its procedure never repeats the examples, so keyword search alone misses it. The titles of such
documents join the keyword query as a hint (never a filter); the evidence gate still judges each
section (a scope lends its members only to sections not headed for another listed thing).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.access import SearchAccess
from shifu.knowledge.parts import is_indexable
from shifu.nlp.lay_words import statute_words
from shifu.nlp.scope_sections import SCOPE_WORDS, is_scope_section, scope_members, without_exclusions
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow

REFRESH_S = 60.0
"""How long the members read from the store are used before they are read again (another process
may have ingested since); an ingest in this process refreshes them at once."""


def scope_headed() -> ColumnElement[bool]:
    """The store-side filter on a fragment's locator for scope sections (`is_scope_section` decides)."""
    return or_(*(KbFragmentRow.locator.contains(word, autoescape=True) for word in SCOPE_WORDS))


@dataclass(frozen=True, slots=True)
class Member:
    """One thing a current document's scope lists, with where that document lives."""

    name: str
    title: str
    tenant_id: str
    space_id: str


class MembershipIndex:
    """The scope members of every current, published document, read from the store on demand."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        refresh_s: float = REFRESH_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._sessions = sessions
        self._refresh_s = refresh_s
        self._clock = clock
        self._members: tuple[Member, ...] | None = None
        self._read_at = 0.0

    def invalidate(self) -> None:
        """Forget the members (after an ingest or rebuild): the next lookup reads them again."""
        self._members = None

    def titles(self, query: str, access: SearchAccess) -> tuple[str, ...]:
        """Titles of the documents `access` may read whose scope lists a thing `query` names, in the
        query's words or in the document words its lay words stand for (年假 names 年休假)."""
        named = " ".join((query, *statute_words(query)))
        found = (
            member.title
            for member in self._current()
            if member.tenant_id == access.tenant_id
            and member.space_id in access.space_ids
            and member.name in named
        )
        return tuple(dict.fromkeys(found))

    def _current(self) -> tuple[Member, ...]:
        now = self._clock()
        if self._members is None or now - self._read_at > self._refresh_s:
            self._members = self._read()
            self._read_at = now
        return self._members

    def _read(self) -> tuple[Member, ...]:
        with self._sessions() as session:
            rows = session.execute(
                select(KbFragmentRow.locator, KbFragmentRow.text, KbDocumentRow)
                .join(KbDocumentRow, KbDocumentRow.id == KbFragmentRow.document_id)
                .where(KbFragmentRow.lifecycle == "PUBLISHED", scope_headed())
            ).all()
        members: dict[tuple[str, str, str, str], None] = {}
        for locator, text, document in rows:
            if not is_scope_section(locator) or not is_indexable(document):
                continue
            for name in scope_members(without_exclusions(text)):
                members[(name, document.title, document.tenant_id, document.space_id)] = None
        return tuple(Member(*key) for key in members)
