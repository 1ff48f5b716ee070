"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(
        default=f"sqlite+aiosqlite:///{ROOT / 'var' / 'games.sqlite3'}",
        description="SQLAlchemy URL; postgresql:// URLs are served by asyncpg.",
    )
    redis_url: str | None = Field(default=None, description="Enables Redis pub/sub when set.")
    secret: str = Field(
        default="dev-secret-change-me",
        description="Signs the player cookie. Set a long random value in production.",
    )
    cookie_secure: bool = False
    max_body_bytes: int = 64 * 1024
    ws_max_frame_bytes: int = 16 * 1024
    ws_messages_per_second: float = 20.0
    ws_burst: int = 40
    away_claim_ms: int = 60_000

    @property
    def async_database_url(self) -> str:
        """The URL with an async driver, whatever form it was given in."""
        url = self.database_url
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+asyncpg://" + url[len(prefix) :]
        if url.startswith("sqlite:///"):
            return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
        return url

    @property
    def is_sqlite(self) -> bool:
        return self.async_database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
