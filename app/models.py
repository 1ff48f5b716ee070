"""Tables: players, games, moves, records, daily, transfers, ratings (with
rating_opponents and rated_addresses), seeks, reviews, push_subscriptions, arenas (with
arena_players). Alembic creates them (migrations/)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

Json = JSON(none_as_null=True)  # Python None is SQL NULL, not JSON null

COMPUTER = "computer"
"""What ``Game.seats`` holds for a seat the server plays; never a player's id."""


class GameStatus(StrEnum):
    WAITING = "waiting"  # an online game whose second seat is still open
    ACTIVE = "active"
    OVER = "over"
    CANCELLED = "cancelled"  # withdrawn by its creator while waiting


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(24))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Game(Base):
    """A game's header and its latest snapshot; the moves table holds its full log.

    ``seats`` has one entry per seat: a player id, ``"computer"``, or None while open.
    ``version`` counts the log entries; a move is accepted only against the current one.
    ``started_ms`` (server epoch ms) is the zero of the game's ``at_ms`` clock: its
    creation, or for an online game the moment the second player took the seat.
    ``daily_key`` is set only for one-attempt dailies; unique with the owner, it makes a
    second attempt impossible even under a race (NULLs never collide).
    ``guest_id`` is the other human seated in a two-player game (a joiner, or the owner's
    opponent in a rematch), so a player's history is two indexed lookups, not a scan of
    the ``seats`` JSON.
    """

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("owner_id", "daily_key", name="uq_games_owner_daily"),
        Index("ix_games_open", "status", "public"),
        Index("ix_games_owner", "owner_id", "engine"),
        Index("ix_games_daily", "engine", "daily"),
        Index("ix_games_owner_started", "owner_id", "started_ms"),
        Index("ix_games_guest_started", "guest_id", "started_ms"),
        Index("ix_games_deadline", "deadline_ms"),
        Index("ix_games_rated_pair", "owner_id", "guest_id", "rated_ms"),
        Index("ix_games_arena", "arena_id", "started_ms"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    engine: Mapped[str] = mapped_column(String(24))
    params: Mapped[dict[str, Any]] = mapped_column(Json)
    seed: Mapped[int] = mapped_column(BigInteger)
    number: Mapped[str] = mapped_column(String(24))
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    guest_id: Mapped[str | None] = mapped_column(String(32), default=None)
    seats: Mapped[list[str | None]] = mapped_column(Json)
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(Json)
    status: Mapped[str] = mapped_column(String(12))  # a GameStatus
    outcome: Mapped[dict[str, Any] | None] = mapped_column(Json)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    daily: Mapped[str | None] = mapped_column(String(10))
    daily_key: Mapped[str | None] = mapped_column(String(64))
    score: Mapped[int | None] = mapped_column(BigInteger)
    # After a two-player game: {"offered_by": seat} and, once accepted, {"game_id": ...}
    rematch: Mapped[dict[str, Any] | None] = mapped_column(Json)
    started_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    # Server epoch ms at which an active game's clock runs out (the engine's
    # ``deadline``), None when no clock can end it: the flag sweeper's index.
    deadline_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # A finished daily game whose moves came faster than a person plays (app/honour.py):
    # kept and shown to its player, left off the day's board of honour and its ranks.
    too_fast: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Server epoch ms at which the game counted as rated (None: it did not).
    rated_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # A counted rated game: whether its two players shared an address (app/fair_play.py).
    shared_address: Mapped[bool | None] = mapped_column(Boolean, default=None)
    # The arena that paired this game (app/arenas.py), None for any other game.
    arena_id: Mapped[str | None] = mapped_column(String(16), default=None)


_new_game_row = Game.__mapper__.class_manager.new_instance


def advanced(game: Game, values: Mapping[str, Any]) -> Game:
    """A new row: ``game`` with ``values`` written over it. It is a value that never
    joins a session, so it is filled directly rather than through the ORM's attribute
    events (the constructor cost 0.2 ms a move). The columns are copied as ``game`` holds
    them (its sessions never expire what they loaded: app/db.py), not read one by one
    through the ORM's descriptors: 1.4 µs instead of 8, and a move makes two or three."""
    row: Game = _new_game_row()
    fields = row.__dict__
    own_state = fields["_sa_instance_state"]
    fields.update(game.__dict__, **values)
    fields["_sa_instance_state"] = own_state
    return row


class Move(Base):
    """One log entry. ``move`` is None for a clock tick that changed the game."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_moves_game_ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    move: Mapped[dict[str, Any] | None] = mapped_column(Json)
    at_ms: Mapped[int] = mapped_column(BigInteger)


class Record(Base):
    """A player's best finished game per record table (engine + the engine's key)."""

    __tablename__ = "records"
    __table_args__ = (UniqueConstraint("player_id", "engine", "key", name="uq_records_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    engine: Mapped[str] = mapped_column(String(24))
    key: Mapped[str] = mapped_column(String(64))
    score: Mapped[int] = mapped_column(BigInteger)
    time_ms: Mapped[int] = mapped_column(BigInteger)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    played: Mapped[int] = mapped_column(Integer, default=0)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class Daily(Base):
    """The daily board of a game on a date: its number, fixed once first asked for."""

    __tablename__ = "daily"
    __table_args__ = (UniqueConstraint("engine", "date", name="uq_daily_engine_date"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    engine: Mapped[str] = mapped_column(String(24))
    date: Mapped[str] = mapped_column(String(10))
    seed: Mapped[int] = mapped_column(BigInteger)
    number: Mapped[str] = mapped_column(String(24))


class Transfer(Base):
    """A short code that lets another browser become this player (``/me`` device transfer).

    Only the code's SHA-256 is kept. ``used_ms`` is set once, by the one claim whose
    guarded update (``WHERE used_ms IS NULL AND expires_ms > now``) wins.
    """

    __tablename__ = "transfers"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    used_ms: Mapped[int | None] = mapped_column(BigInteger)


class Rating(Base):
    """A player's Glicko-2 rating in one pool (engine + time-control category). Written
    only in the transaction that ends a rated game, so each game counts exactly once."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "engine", "pool", "rating"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    engine: Mapped[str] = mapped_column(String(24), primary_key=True)
    pool: Mapped[str] = mapped_column(String(24), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    # Different players met in this pool's counted games (``RatingOpponent`` rows).
    opponents: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class RatingOpponent(Base):
    """One opponent a player has met in a pool's counted rated games (the leaderboard
    asks for several different ones)."""

    __tablename__ = "rating_opponents"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    engine: Mapped[str] = mapped_column(String(24), primary_key=True)
    pool: Mapped[str] = mapped_column(String(24), primary_key=True)
    opponent_id: Mapped[str] = mapped_column(String(32), primary_key=True)


class RatedAddress(Base):
    """A keyed hash of a client address a player asked for rated play from, and when
    last: two players seen at one address lately play few counted games a day."""

    __tablename__ = "rated_addresses"
    __table_args__ = (Index("ix_rated_addresses_address", "address", "seen_ms"),)

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_ms: Mapped[int] = mapped_column(BigInteger)


class Seek(Base):
    """A player in the quick-pairing pool, waiting for an opponent with the same time
    control (and rated or not). ``game_id`` is None while open and the game it became
    once paired. ``expires_ms`` moves forward with every poll of its owner's page, so a
    closed page's seek leaves the pool by itself."""

    __tablename__ = "seeks"
    __table_args__ = (
        Index(
            "ix_seeks_open",
            "engine",
            "clock",
            "rated",
            "created_ms",
            postgresql_where=text("game_id IS NULL"),
            sqlite_where=text("game_id IS NULL"),
        ),
        Index("ix_seeks_player", "player_id"),
        Index("ix_seeks_expires", "expires_ms"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    engine: Mapped[str] = mapped_column(String(24))
    clock: Mapped[str] = mapped_column(String(12))
    rated: Mapped[bool] = mapped_column(Boolean)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    game_id: Mapped[str | None] = mapped_column(String(16), default=None)
    paired_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class Review(Base):
    """A finished game's review (``Engine.review``), computed once: the game id is the
    key, so two processes that reviewed it at once store it once."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    body: Mapped[dict[str, Any]] = mapped_column(Json)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PushSubscription(Base):
    """A browser's Web Push subscription for a player (``POST /api/me/push``): where to
    send (``endpoint``, unique: keyed by its SHA-256), the keys that encrypt a notice for
    that browser, which kinds of notice it wants, and the language of the page that
    subscribed (the notices are written in it)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (Index("ix_push_subscriptions_player", "player_id"),)

    endpoint_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    kinds: Mapped[list[str]] = mapped_column(Json)
    lang: Mapped[str] = mapped_column(String(8))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Arena(Base):
    """An arena tournament (app/arenas.py): a game and time control, from ``starts_ms``
    to ``ends_ms``. Its games are the games rows with its ``arena_id``; its standings are
    computed from them, never stored. ``key`` is set for a private arena (its link holds
    it). A site-run arena has its ``schedule`` ("hourly", "evening") and a unique
    ``schedule_key`` (the schedule and the start), so processes that make it together
    make it once. ``started_told`` marks the push notice of its start as sent."""

    __tablename__ = "arenas"
    __table_args__ = (Index("ix_arenas_ends", "ends_ms"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    engine: Mapped[str] = mapped_column(String(24))
    clock: Mapped[str] = mapped_column(String(12))
    minutes: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    key: Mapped[str | None] = mapped_column(String(24), default=None)
    schedule: Mapped[str | None] = mapped_column(String(16), default=None)
    schedule_key: Mapped[str | None] = mapped_column(String(48), unique=True, default=None)
    created_by: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), default=None
    )
    starts_ms: Mapped[int] = mapped_column(BigInteger)
    ends_ms: Mapped[int] = mapped_column(BigInteger)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    started_told: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ArenaPlayer(Base):
    """A player who joined an arena; ``paused`` while they asked not to be paired."""

    __tablename__ = "arena_players"
    __table_args__ = (Index("ix_arena_players_player", "player_id"),)

    arena_id: Mapped[str] = mapped_column(
        ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
