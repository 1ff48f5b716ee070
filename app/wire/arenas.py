"""Arena tournaments on the wire: the request that makes one, the arena as the API
answers it (its standings included), the arena socket's frames and the hub messages that
feed them (app/arenas.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.wire.requests import Strict

ArenaStatus = Literal["upcoming", "running", "over"]
ArenaResult = Literal["win", "draw", "loss", "aborted"]


class CreateArena(Strict):
    game: str = Field(max_length=24, description="a game with arenas (its engine's ArenaPlay)")
    clock: str = Field(max_length=12, description="one of the game's real-time controls")
    minutes: int = Field(description="the arena's length: 3 to 120 minutes (else bad_minutes)")
    starts_at: int | None = Field(
        default=None, description="server epoch ms, at most 7 days ahead; absent: now"
    )
    rated: bool = False
    private: bool = Field(
        default=False, description="unlisted: only holders of its link see and join it"
    )


class ArenaGameLine(BaseModel):
    """One game of a player's, in the order played."""

    game_id: str
    result: ArenaResult
    points: int
    fire: bool = Field(description="played on fire: it scored double")
    berserk: bool


class Standing(BaseModel):
    rank: int = Field(description="1 for the leader")
    name: str | None = Field(description="null for a player without a name")
    you: bool = Field(description="this row is the viewer's")
    score: int
    fire: bool = Field(description="on fire: two wins in a row, the next game scores double")
    paused: bool
    playing: bool = Field(description="in an arena game now")
    performance: int | None = Field(description="performance rating in the arena (tiebreak)")
    games: list[ArenaGameLine]


class ArenaMe(BaseModel):
    joined: bool
    paused: bool
    game_id: str | None = Field(description="the viewer's arena game under way")


class ArenaSummary(BaseModel):
    id: str
    game: str
    clock: str
    minutes: int
    rated: bool
    private: bool
    schedule: str | None = Field(description="a site-run arena's schedule: hourly, evening")
    starts_at: int = Field(description="server epoch ms")
    ends_at: int = Field(description="server epoch ms")
    status: ArenaStatus
    players: int
    server_ms: int = Field(description="the server's epoch ms when it answered")


class Arenas(BaseModel):
    arenas: list[ArenaSummary] = Field(
        description="public arenas: upcoming (a day ahead), running, finished in the last hours"
    )


class ArenaAnswer(ArenaSummary):
    standings: list[Standing]
    me: ArenaMe
    link: str | None = Field(description="a private arena's link to share (key included)")


class ArenaStandingsFrame(BaseModel):
    """The arena socket's frame whenever its standings or status change."""

    type: Literal["standings"] = "standings"
    arena: ArenaAnswer


class ArenaPairedFrame(BaseModel):
    """The arena socket's frame to a player the arena has just paired."""

    type: Literal["paired"] = "paired"
    game_id: str


class ArenaChanged(BaseModel):
    """Hub message on an arena's channel: its standings changed (a join, a pause, a
    pairing, a game's end, its start or end)."""

    type: Literal["arena_changed"] = "arena_changed"
    arena_id: str


class ArenaPaired(BaseModel):
    """Hub message on an arena's channel: ``players`` were paired in ``game_id``
    (committed)."""

    type: Literal["arena_paired"] = "arena_paired"
    arena_id: str
    game_id: str
    players: list[str]
