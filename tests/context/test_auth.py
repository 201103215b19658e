"""Bearer tokens: the generated HS256 secret, and RS256 against a JWKS served over real HTTP."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from shifu.config import Settings
from shifu.context.auth import TokenVerifier, issue_token, load_or_create_secret
from shifu.context.identity import Principal
from shifu.errors import Unauthenticated

PRINCIPAL = Principal(tenant_id="demo", app_id="staff-app", external_id="ext-1001")


def _claims(**overrides: Any) -> dict[str, Any]:
    now = datetime.now(UTC)
    claims: dict[str, Any] = {
        "sub": "ext-1001",
        "tid": "demo",
        "app": "staff-app",
        "iss": "shifu-demo",
        "aud": "shifu",
        "iat": int(now.timestamp()),
        "exp": int((now + timedelta(minutes=5)).timestamp()),
    }
    claims.update(overrides)
    return claims


def test_the_hs256_secret_is_generated_once_and_private(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "var", environment="test")
    first = load_or_create_secret(settings)
    second = load_or_create_secret(settings)
    assert first == second and len(first) >= 32
    mode = (settings.secrets_dir / "jwt.key").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert TokenVerifier(settings).verify(issue_token(settings, PRINCIPAL)) == PRINCIPAL


def test_another_deployments_token_is_rejected(tmp_path: Path) -> None:
    one = Settings(data_dir=tmp_path / "one", environment="test")
    two = Settings(data_dir=tmp_path / "two", environment="test")
    with pytest.raises(Unauthenticated) as caught:
        TokenVerifier(two).verify(issue_token(one, PRINCIPAL))
    assert caught.value.code == "TOKEN_INVALID"


@pytest.mark.parametrize(
    ("token", "code"),
    [(None, "TOKEN_MISSING"), ("", "TOKEN_MISSING"), ("not-a-jwt", "TOKEN_INVALID")],
)
def test_missing_and_garbage_tokens(tmp_path: Path, token: str | None, code: str) -> None:
    verifier = TokenVerifier(Settings(data_dir=tmp_path / "var", environment="test"))
    with pytest.raises(Unauthenticated) as caught:
        verifier.verify(token)
    assert caught.value.code == code


class _Jwks:
    """A JWKS endpoint on 127.0.0.1 serving one public key."""

    def __init__(self, public_jwk: dict[str, Any]) -> None:
        body = json.dumps({"keys": [public_jwk]}).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                return

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/.well-known/jwks.json"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def idp() -> Iterator[tuple[rsa.RSAPrivateKey, str]]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": "k1", "alg": "RS256", "use": "sig"})
    server = _Jwks(jwk)
    yield key, server.url
    server.close()


def test_rs256_tokens_verify_against_the_jwks(tmp_path: Path, idp: tuple[rsa.RSAPrivateKey, str]) -> None:
    key, url = idp
    verifier = TokenVerifier(Settings(data_dir=tmp_path / "var", environment="test", jwt_jwks_url=url))
    token = jwt.encode(_claims(), key, algorithm="RS256", headers={"kid": "k1"})
    assert verifier.verify(token) == PRINCIPAL


def test_rs256_forged_expired_and_hs256_confusion_are_rejected(
    tmp_path: Path, idp: tuple[rsa.RSAPrivateKey, str]
) -> None:
    key, url = idp
    settings = Settings(data_dir=tmp_path / "var", environment="test", jwt_jwks_url=url)
    verifier = TokenVerifier(settings)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = jwt.encode(_claims(), other, algorithm="RS256", headers={"kid": "k1"})
    past = datetime.now(UTC) - timedelta(hours=2)
    expired = jwt.encode(
        _claims(iat=int(past.timestamp()), exp=int((past + timedelta(minutes=5)).timestamp())),
        key,
        algorithm="RS256",
        headers={"kid": "k1"},
    )
    hs256 = jwt.encode(_claims(), "x" * 48, algorithm="HS256", headers={"kid": "k1"})
    codes = []
    for token in (forged, expired, hs256):
        with pytest.raises(Unauthenticated) as caught:
            verifier.verify(token)
        codes.append(caught.value.code)
    assert codes == ["TOKEN_INVALID", "TOKEN_EXPIRED", "TOKEN_INVALID"]
