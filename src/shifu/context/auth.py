"""Bearer-token verification: HS256 with a generated secret, or RS256 via a JWKS.

Authentication happens once at the edge; what a token proves is a `Principal`
(tenant, app, external id). Missing, expired or forged tokens raise Unauthenticated.
"""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jwt

from shifu.config import Settings
from shifu.context.identity import Principal
from shifu.errors import Unauthenticated

_SECRET_FILE = "jwt.key"
_LEEWAY_S = 10


def load_or_create_secret(settings: Settings) -> str:
    """The HS256 secret: configured, or generated once into the data directory (mode 0600)."""
    if settings.jwt_secret:
        return settings.jwt_secret
    directory = settings.secrets_dir
    path = directory / _SECRET_FILE
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    directory.mkdir(parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    secret = secrets.token_urlsafe(48)
    _write_private(path, secret)
    return path.read_text(encoding="utf-8").strip()


def _write_private(path: Path, text: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


class TokenVerifier:
    """Verifies bearer tokens against the deployment's key material."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._jwks: jwt.PyJWKClient | None = None
        self._secret: str | None = None
        if settings.jwt_jwks_url:
            self._jwks = jwt.PyJWKClient(settings.jwt_jwks_url, cache_keys=True, lifespan=300)
        else:
            self._secret = load_or_create_secret(settings)

    def verify(self, token: str | None) -> Principal:
        """The principal a token proves; anything wrong → Unauthenticated (never a partial identity)."""
        if not token:
            raise Unauthenticated("缺少登录凭证。", code="TOKEN_MISSING")
        try:
            claims = self._decode(token)
        except jwt.ExpiredSignatureError as exc:
            raise Unauthenticated("登录已过期，请重新登录。", code="TOKEN_EXPIRED") from exc
        except (jwt.PyJWTError, ValueError) as exc:
            raise Unauthenticated("登录凭证无效。", code="TOKEN_INVALID") from exc
        tenant, app, subject = claims.get("tid"), claims.get("app"), claims.get("sub")
        if not all(isinstance(v, str) and v for v in (tenant, app, subject)):
            raise Unauthenticated("登录凭证无效。", code="TOKEN_INVALID")
        return Principal(tenant_id=str(tenant), app_id=str(app), external_id=str(subject))

    def _decode(self, token: str) -> dict[str, Any]:
        options = {"require": ["exp", "iat", "sub", "iss", "aud"]}
        if self._jwks is not None:
            key = self._jwks.get_signing_key_from_jwt(token).key
            algorithms = ["RS256"]
        else:
            key, algorithms = self._secret or "", ["HS256"]
        decoded: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=algorithms,
            audience=self._settings.jwt_audience,
            issuer=self._settings.jwt_issuer,
            leeway=_LEEWAY_S,
            options=options,  # type: ignore[arg-type]
        )
        return decoded


def issue_token(
    settings: Settings,
    principal: Principal,
    *,
    now: datetime | None = None,
    ttl: timedelta = timedelta(hours=12),
) -> str:
    """An HS256 token for the embedded identity provider (demo and tests only)."""
    issued = now or datetime.now(UTC)
    claims = {
        "sub": principal.external_id,
        "tid": principal.tenant_id,
        "app": principal.app_id,
        "iss": settings.jwt_issuer,
        "aud": settings.jwt_audience,
        "iat": int(issued.timestamp()),
        "exp": int((issued + ttl).timestamp()),
    }
    return jwt.encode(claims, load_or_create_secret(settings), algorithm="HS256")
