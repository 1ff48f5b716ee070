"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

import ipaddress
import os
import secrets
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Literal

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
    secret: str | None = Field(
        default=None,
        description="Signs the player cookie; every process of one site shares it. Without "
        "it, a server bound to loopback makes one in SECRET_FILE; any other bind refuses.",
    )
    secret_file: Path = Field(
        default=ROOT / "var" / "secret",
        description="Where a loopback server keeps the secret it made (mode 0600).",
    )
    cookie_secure: bool = Field(
        default=False, description="Always mark the cookie Secure (it is on HTTPS anyway)."
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1,::1",
        description="Proxies trusted for X-Forwarded-Proto/-For: comma-separated addresses "
        "or networks, or *. Uvicorn reads the same variable.",
    )
    allowed_origins: str = Field(
        default="",
        description="Other origins (scheme://host[:port], comma-separated) allowed to send "
        "state-changing requests and open sockets, besides the site's own.",
    )
    # PostgreSQL connections per process, each opened when first needed and then kept;
    # beyond them (overflow) a connection is opened for one request and closed after it,
    # a fork and a login on the server each time: under load that was 30 a second
    # (bench/online.py, 2,000 matches), so the default opens none. Every process of the
    # site counts against the server's max_connections (100 by default): processes ×
    # (size + overflow) must stay below.
    db_pool_size: int = 40
    db_max_overflow: int = 0
    # A database that goes silent (a network partition) is answered with 503
    # `database_unavailable` instead of holding requests. A request waits at most for a
    # pooled connection, then a connect, then one statement, then SQLAlchemy's 2 s to
    # close a connection that timed out: 2 + 2 + 4 + 2 s, within 10 s. The statement
    # bound is asyncpg's command_timeout, and SQLite's busy timeout.
    db_pool_timeout_s: float = 2.0
    db_connect_timeout_s: float = 2.0
    db_statement_timeout_s: float = 4.0
    # How long a Redis connect or command (limits, presence, publish) may take: a silent
    # Redis fails fast, and limits go on counting in the process (app/limits.py).
    redis_timeout_s: float = 2.0
    max_body_bytes: int = 64 * 1024
    ws_max_frame_bytes: int = 16 * 1024
    ws_messages_per_second: float = 20.0
    ws_burst: int = 40
    # Limits per client (see app/limits.py); benches and tests that open many sockets
    # or games from one loopback address raise the per-address ones.
    limit_creates_per_player_min: int = 30
    limit_creates_per_ip_min: int = 300
    # Replays that are not in the cache (each folds a whole log) and log verifications.
    limit_replays_per_player_min: int = 60
    limit_replays_per_ip_min: int = 600
    limit_verifies_per_player_min: int = 20
    limit_verifies_per_ip_min: int = 200
    # Reviews pending (queued or running) at once, per player and per address (app/reviews.py).
    limit_reviews_per_player: int = 2
    limit_reviews_per_ip: int = 8
    limit_waiting_per_player: int = 3
    # Device transfer: codes issued and claims tried a minute (a claim guesses a code).
    limit_transfers_per_player_min: int = 10
    limit_transfers_per_ip_min: int = 60
    limit_claims_per_player_min: int = 10
    limit_claims_per_ip_min: int = 60
    waiting_ttl_s: int = 30 * 60
    # Quick pairing (app/seeks.py): seeks posted a minute, long-polls open at once per
    # player, how long an unpolled seek lives, how often a waiting poll re-reads the pool.
    limit_seeks_per_player_min: int = 30
    limit_paced_moves_per_game_min: int = 10  # pause and resume (Pairs): each is a log entry
    limit_seeks_per_ip_min: int = 300
    limit_seek_polls_per_player: int = 4
    seek_heartbeat_s: int = 15
    seek_recheck_ms: int = 1000
    # Arenas (app/arenas.py): the site's own schedule, in the server's timezone (README
    # "Arenas"): an arena every hour on the hour, and one every evening; "" for none.
    # Each is "<clock>/<minutes>"; arenas made a minute (per player, per address), and
    # how often the pairing looks for free players (a game's end pairs its players at once).
    arena_hourly: str = Field(default="1+1/27", pattern=r"^$|^[^/]+/[0-9]+$")
    arena_evening: str = Field(default="3+2/60", pattern=r"^$|^[^/]+/[0-9]+$")
    arena_evening_hour: int = Field(default=19, ge=0, le=23)
    limit_arenas_per_player_min: int = 3
    limit_arenas_per_ip_min: int = 10
    arena_pair_every_ms: int = Field(default=1000, ge=50)
    limit_sockets_per_player: int = 16
    limit_sockets_per_ip: int = 256
    # The computer's moves and large boards run in a process pool (app/workers.py):
    # this many processes (0: one per core), this many jobs waiting at most (0: 8 each);
    # reviews in their own (one fewer, at least one), with a queue of the same bound.
    engine_workers: int = 0
    engine_queue: int = 0
    # Memory for caches, in MiB: the boards an engine keeps (in every process, the engine
    # workers too), the states of live games, and the states of replayed games. Live
    # games hold every game a process serves at full speed: a 24-star Triangles game
    # weighs 100 KiB as it begins, up to 145 KiB by its end (its board's tables fill), so
    # 1,800-2,600 games; past them, each move reads its row and builds its state again
    # (bench/online.py, 2,000 matches over two processes at 128: each process kept about
    # 1,300 of its 2,000 games, and a quarter of the matches failed).
    board_cache_mib: int = Field(default=128, ge=0)
    live_games_mib: int = Field(default=256, ge=0)
    replays_mib: int = Field(default=64, ge=0)
    # Operating it (README "Operating it"): the longest a SIGTERM'd process takes to
    # drain and exit; who may read /metrics; the log's form.
    shutdown_s: float = Field(default=10.0, gt=3.0)
    metrics_allow_ips: str = Field(
        default="127.0.0.1,::1",
        description="Addresses or networks (comma-separated) served /metrics; others get 404.",
    )
    # Web Push (app/push/, docs/pwa.md): the VAPID private key (base64url of the raw
    # 32-byte P-256 key, or of its DER); without it a loopback server makes one in
    # VAPID_KEY_FILE, and a server on any other address has push off.
    vapid_private_key: str | None = Field(default=None, repr=False)
    vapid_key_file: Path = ROOT / "var" / "vapid_private_key"
    push_contact: str = Field(
        default="mailto:push@localhost",
        description="The VAPID subject push services may write to: mailto: or https: URL.",
    )
    push_endpoint_allow: str = Field(
        default="",
        description="host:port pairs (comma-separated) admitted as push endpoints besides "
        "public https hosts on port 443, over http too: for tests and private deployments.",
    )
    push_queue: int = Field(default=1000, ge=1)  # notices waiting to be sent, at most
    # The sender's share (app/push/sender.py): its own threads, the sends one push host
    # may have in flight, a send's wall-clock limit (connect to last byte), the retries
    # of one notice over all its subscriptions, and the pause of a host that failed
    # this many sends in a row.
    push_workers: int = Field(default=8, ge=1)
    push_per_host: int = Field(default=2, ge=1)
    push_deadline_s: float = Field(default=10.0, gt=0)
    push_retries: int = Field(default=2, ge=0)
    push_host_failures: int = Field(default=10, ge=1)
    push_host_pause_s: float = Field(default=600.0, ge=0)
    limit_push_subscriptions_per_player: int = 10
    limit_push_writes_per_player_min: int = 20
    limit_push_writes_per_ip_min: int = 200
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["debug", "info", "warning", "error"] = "info"

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
    def trusted_proxies(self) -> list[str]:
        return [item.strip() for item in self.forwarded_allow_ips.split(",") if item.strip()]

    @property
    def extra_origins(self) -> frozenset[str]:
        return frozenset(
            item.strip().rstrip("/").lower()
            for item in self.allowed_origins.split(",")
            if item.strip()
        )

    @property
    def metrics_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return tuple(
            ipaddress.ip_network(item.strip(), strict=False)
            for item in self.metrics_allow_ips.split(",")
            if item.strip()
        )

    @property
    def push_allowed_hosts(self) -> frozenset[str]:
        return frozenset(
            item.strip().lower() for item in self.push_endpoint_allow.split(",") if item.strip()
        )

    @property
    def is_sqlite(self) -> bool:
        return self.async_database_url.startswith("sqlite")


class MissingSecret(Exception):
    """The server may not start: no SECRET and not bound to loopback."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def startup_secret(settings: Settings, host: str) -> str:
    """The cookie secret for a server binding ``host``: SECRET when set; on loopback, the
    one in ``secret_file`` (made once, random, mode 0600); anywhere else, refusal."""
    if settings.secret:
        return settings.secret
    if not is_loopback(host):
        raise MissingSecret(
            f"SECRET is not set and the server binds {host or 'every address'}: set SECRET "
            "to a long random value shared by every process of the site"
        )
    return kept_once(settings.secret_file, lambda: secrets.token_urlsafe(48))


def kept_once(path: Path, make: Callable[[], str]) -> str:
    """The value kept in ``path``, made by ``make`` and written (mode 0600) by the first
    process to ask; the others read it. A loopback server's secret and VAPID key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another process may be writing it right now
            value = path.read_text().strip()
            if value:
                return value
            time.sleep(0.02)
        raise MissingSecret(f"{path} is empty: delete it, or set the value it holds") from None
    value = make()
    with os.fdopen(fd, "w") as out:
        out.write(value + "\n")
    return value


@lru_cache
def get_settings() -> Settings:
    return Settings()
