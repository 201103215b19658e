"""Settings refuse what would be unsafe outside a demo, and read every SHIFU_* variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from shifu.config import Settings, settings_from_env
from shifu.errors import ConfigurationError


@pytest.mark.parametrize(
    "settings",
    [
        Settings(environment="production"),
        Settings(environment="production", jwt_secret="changeme"),
        Settings(environment="production", jwt_secret="short-but-real"),
        Settings(environment="nonsense"),
    ],
)
def test_unsafe_settings_are_refused(settings: Settings) -> None:
    with pytest.raises(ConfigurationError):
        settings.check()


def test_production_with_a_real_secret_or_a_jwks_is_accepted() -> None:
    Settings(environment="production", jwt_secret="s" * 40).check()
    Settings(environment="production", jwt_jwks_url="https://idp.example/jwks.json").check()


def test_environment_selects_the_deployment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SHIFU_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("SHIFU_DATABASE_URL", "postgresql+psycopg://u@127.0.0.1/x")
    monkeypatch.setenv("SHIFU_REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("SHIFU_LLM_TIMEOUT_S", "2.5")
    settings = settings_from_env()
    assert settings.data_dir == tmp_path / "d"
    assert settings.sqlalchemy_url == "postgresql+psycopg://u@127.0.0.1/x"
    assert settings.redis_url == "redis://127.0.0.1:1/0"
    assert settings.llm_timeout_s == 2.5
    assert settings.index_dir == tmp_path / "d" / "index"


def test_a_bad_number_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIFU_LLM_TIMEOUT_S", "soon")
    with pytest.raises(ConfigurationError):
        settings_from_env()


def test_sqlite_is_the_default_under_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert settings.sqlalchemy_url == f"sqlite:///{(tmp_path / 'shifu.db').resolve()}"
