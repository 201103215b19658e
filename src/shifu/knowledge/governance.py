"""Governance metadata of a document version: what it is, when it applies, who may see it.

Front matter wins over CLI defaults (except the space, which the caller fixes); law files
carry their own front matter (`doc_type`, `source_version_date_in_filename`) that maps onto
the same fields. Anything that does not validate is refused by name, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from shifu.contracts.common import Authority, Environment, Lifecycle, Role, Verification

LAW_DOC_TYPES: dict[str, Authority] = {
    "法律": Authority.STATUTE,
    "行政法规": Authority.REGULATION,
    "司法解释": Authority.JUDICIAL_INTERPRETATION,
    "部门规章": Authority.DEPARTMENTAL_RULE,
}
"""Law front-matter `doc_type` → authority."""

STATUTE_AUTHORITIES = frozenset(
    {Authority.STATUTE, Authority.REGULATION, Authority.JUDICIAL_INTERPRETATION, Authority.DEPARTMENTAL_RULE}
)
"""Authorities whose documents are split per article (第X条)."""

_DEFAULT_KIND: dict[Authority, str] = {
    Authority.STATUTE: "法律",
    Authority.REGULATION: "行政法规",
    Authority.JUDICIAL_INTERPRETATION: "司法解释",
    Authority.DEPARTMENTAL_RULE: "部门规章",
    Authority.COMPANY_POLICY: "制度",
    Authority.SOP: "SOP",
    Authority.MANUAL: "手册",
    Authority.CASE: "案例",
    Authority.INTERVIEW: "访谈",
}


class MetadataError(ValueError):
    """Front matter or flags that cannot be turned into valid governance metadata."""


class DocumentMeta(BaseModel):
    """Validated governance metadata of one document version."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str = Field(min_length=1, max_length=300)
    authority: Authority
    kind: str = Field(min_length=1, max_length=40)
    version: str = Field(min_length=1, max_length=80)
    effective_from: date | None = None
    effective_to: date | None = None
    lifecycle: Lifecycle = Lifecycle.PUBLISHED
    verification: Verification = Verification.HUMAN_VERIFIED
    environment: Environment = Environment.PRODUCTION
    project_ids: tuple[str, ...] = ()
    roles: tuple[Role, ...] = ()

    @field_validator("project_ids", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return () if value is None else value

    def model_post_init(self, __context: Any) -> None:
        """Refuse an effective window that ends before it starts."""
        if self.effective_from and self.effective_to and self.effective_to < self.effective_from:
            raise ValueError("effective_to is before effective_from")

    def canonical(self) -> dict[str, Any]:
        """A JSON-ready, order-stable form (part of the version hash)."""
        return self.model_dump(mode="json")


@dataclass(frozen=True)
class IngestDefaults:
    """Values given on the command line; front matter overrides each of them."""

    authority: Authority | None = None
    kind: str | None = None
    version: str | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    lifecycle: Lifecycle | None = None
    verification: Verification | None = None
    environment: Environment | None = None
    project_ids: tuple[str, ...] = field(default_factory=tuple)
    roles: tuple[Role, ...] = field(default_factory=tuple)


_YEAR = re.compile(r"(19|20)\d{2}")


_ADOPTED = re.compile(r"((?:19|20)\d{2})年(\d{1,2})月(\d{1,2})日[^，。]*?(?:通过|修正|修订|公布|发布)")
_ABSENT = frozenset({"", "none", "null", "n/a", "unknown"})
"""Spellings of "no value" in hand-written front matter (YAML reads `none` as a string)."""


def _law_version(front: dict[str, Any]) -> str | None:
    """The law's version: the dated source file, else its latest adoption or amendment, else a year."""
    dated = front.get("source_version_date_in_filename")
    if dated is not None and str(dated).strip().lower() not in _ABSENT:
        return str(dated)
    history = front.get("history_as_stated_in_text")
    entries = [str(entry) for entry in history] if isinstance(history, list) else []
    adopted = [
        date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        for entry in entries
        if (m := _ADOPTED.search(entry))
    ]
    if adopted:
        return max(adopted).isoformat()
    for key in ("source_file_last_changed", "title"):
        found = _YEAR.search(str(front.get(key) or ""))
        if found:
            return found.group(0)
    return None


def resolve_metadata(front: dict[str, Any], defaults: IngestDefaults, *, fallback_title: str) -> DocumentMeta:
    """Merge front matter over defaults and validate; raise MetadataError with the reason."""
    merged: dict[str, Any] = {
        "authority": defaults.authority,
        "kind": defaults.kind,
        "version": defaults.version,
        "effective_from": defaults.effective_from,
        "effective_to": defaults.effective_to,
        "lifecycle": defaults.lifecycle or Lifecycle.PUBLISHED,
        "verification": defaults.verification or Verification.HUMAN_VERIFIED,
        "environment": defaults.environment or Environment.PRODUCTION,
        "project_ids": defaults.project_ids,
        "roles": defaults.roles,
        "title": fallback_title,
    }
    doc_type = front.get("doc_type")
    if doc_type is not None:
        if str(doc_type) not in LAW_DOC_TYPES:
            raise MetadataError(f"unknown doc_type {doc_type!r}")
        merged["authority"] = LAW_DOC_TYPES[str(doc_type)]
        merged["kind"] = str(doc_type)
        merged["version"] = _law_version(front) or merged["version"]
    for key in ("title", "authority", "kind", "version", "effective_from", "effective_to", "lifecycle"):
        if front.get(key) is not None:
            merged[key] = front[key]
    for key in ("verification", "environment"):
        if front.get(key) is not None:
            merged[key] = front[key]
    if "projects" in front:
        merged["project_ids"] = tuple(front.get("projects") or ())
    if "roles" in front:
        merged["roles"] = tuple(front.get("roles") or ())
    if merged["authority"] is None:
        raise MetadataError("authority is missing (front matter `authority` or --authority)")
    if merged["kind"] is None:
        try:
            merged["kind"] = _DEFAULT_KIND[Authority(merged["authority"])]
        except ValueError as exc:
            raise MetadataError(f"unknown authority {merged['authority']!r}") from exc
    if merged["version"] is None:
        raise MetadataError("version is missing (front matter `version` or --version)")
    merged["version"] = str(merged["version"])
    merged["kind"] = str(merged["kind"])
    merged["title"] = str(merged["title"])
    try:
        return DocumentMeta.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "metadata"
        raise MetadataError(f"{where}: {first['msg']}") from exc
    except ValueError as exc:
        raise MetadataError(str(exc)) from exc
