"""Short-lived, opaque links to a cited document's original file.

A link is a random id stored with its tenant, user, conversation, fragment and expiry. Opening
it re-checks everything against the caller's *current* access, so a link used by someone
else, after expiry, or after access was revoked yields an error and zero bytes. File paths
never leave this module: originals are stored by content hash under the data directory.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from shifu.errors import Expired, Forbidden, NotFound


@dataclass(frozen=True)
class ResourceFile:
    """The bytes of an original file, with what a download response needs to name it."""

    resource_id: str
    document_key: str
    title: str
    media_type: str
    filename: str
    content: bytes


def new_resource_id() -> str:
    """An unguessable URL-safe id (256 bits)."""
    return secrets.token_urlsafe(32)


def expiry(now: datetime, ttl_s: int) -> datetime:
    """When a link issued at `now` stops working."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return now + timedelta(seconds=max(1, ttl_s))


def check_binding(
    *, row_tenant: str, row_user: str, expires_at: datetime, tenant_id: str, user_id: str, now: datetime
) -> None:
    """Refuse a link of another tenant or user (Forbidden) or past its lifetime (Expired)."""
    if row_tenant != tenant_id or row_user != user_id:
        raise Forbidden(code="RESOURCE_NOT_YOURS")
    if now >= expires_at:
        raise Expired(code="RESOURCE_EXPIRED")


def read_original(originals_dir: Path, sha256: str, suffix: str) -> bytes:
    """The stored original's bytes; NotFound when it is missing."""
    path = originals_dir / f"{sha256}{suffix}"
    try:
        return path.read_bytes()
    except OSError as exc:
        raise NotFound(code="RESOURCE_FILE_MISSING") from exc
