"""Tables: players, games, moves, records, daily. Alembic creates them (migrations/)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

Json = JSON(none_as_null=True)  # Python None is SQL NULL, not JSON null


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
    ``started_ms`` (server epoch ms) is the zero of the game's ``at_ms`` clock.
    ``daily_key`` is set only for one-attempt dailies; unique with the owner, it makes a
    second attempt impossible even under a race (NULLs never collide).
    """

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("owner_id", "daily_key", name="uq_games_owner_daily"),
        Index("ix_games_open", "status", "public"),
        Index("ix_games_owner", "owner_id", "engine"),
        Index("ix_games_daily", "engine", "daily"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    engine: Mapped[str] = mapped_column(String(24))
    params: Mapped[dict[str, Any]] = mapped_column(Json)
    seed: Mapped[int] = mapped_column(BigInteger)
    number: Mapped[str] = mapped_column(String(24))
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seats: Mapped[list[str | None]] = mapped_column(Json)
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(Json)
    status: Mapped[str] = mapped_column(String(12))  # waiting | active | over
    outcome: Mapped[dict[str, Any] | None] = mapped_column(Json)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    daily: Mapped[str | None] = mapped_column(String(10))
    daily_key: Mapped[str | None] = mapped_column(String(64))
    score: Mapped[int | None] = mapped_column(BigInteger)
    # After a two-player game: {"offered_by": seat} and, once accepted, {"game_id": ...}
    rematch: Mapped[dict[str, Any] | None] = mapped_column(Json)
    started_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


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
