"""REST answers: games, logs, players, records, history and the catalog (replays and
reviews: ``app.wire.replays``)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
)

from app.models import GameStatus
from app.wire.ratings import RatingChange
from engines.core.protocol import ScoreOrder

GAME_TYPE = "x-game-type"
"""Marks where a game's view or events stand in a model's JSON schema: the OpenAPI
document puts the served engines' declarations there (``app.wire.game_schema``)."""

View = Annotated[Mapping[str, Any], WithJsonSchema({"type": "object", GAME_TYPE: "view"})]
"""A game's view (its engine's ``view_type``), passed through as the engine made it:
never validated again on its way out."""
Event = Annotated[Mapping[str, Any], WithJsonSchema({"type": "object", GAME_TYPE: "event"})]
"""One of a game's events (its engine's ``event_type``), passed through likewise."""

# --- errors -------------------------------------------------------------------------------


class ErrorInfo(BaseModel):
    code: str = Field(description="stable machine code, e.g. `stale_version`")
    message: str = Field(description="for developers; pages show their own text per code")
    details: dict[str, Any] | None = None


class ErrorResponse(BaseModel):
    error: ErrorInfo
    current: Snapshot | None = Field(
        default=None, description="with `stale_version`: the game as it is now"
    )
    id: str | None = Field(default=None, description="with `daily_played`: the game played")


# --- games --------------------------------------------------------------------------------


class PlayerKind(StrEnum):
    OPEN = "open"  # nobody holds the seat yet
    COMPUTER = "computer"
    PLAYER = "player"


class SeatHolder(BaseModel):
    kind: PlayerKind
    name: str | None
    rating: float | None = None  # in a rated game: the player's rating in its pool
    provisional: bool | None = Field(
        default=None, description="in a rated game: the rating is provisional (shown with ?)"
    )


class SeatPresence(BaseModel):
    connected: bool
    away_ms: int | None = Field(description="how long the seat has been away; null: never seen")


class Outcome(BaseModel):
    reason: str
    scores: list[int]
    winner: int | None
    time_ms: int
    too_fast: bool | None = Field(
        default=None,
        description="true for a finished daily game whose moves came faster than a person "
        "plays: kept, but left off the day's board of honour (README, 'Daily boards')",
    )
    ratings: RatingChange | None = None  # rated games only
    unrated: Literal["aborted", "pair_limit", "shared_address"] | None = Field(
        default=None,
        description="why a rated game changed no rating: aborted (a seat never moved), "
        "pair_limit (the two players' rated games today are used up) or shared_address "
        "(players seen at one address have used up today's rated games)",
    )


class Rematch(BaseModel):
    offered_by: int | None = None
    declined_by: int | None = None
    game_id: str | None = Field(default=None, description="the new game, once accepted")


class LogEntry(BaseModel):
    ply: int
    seat: int | None
    move: dict[str, Any] | None = Field(description="null for a clock tick that changed the game")
    at_ms: int


class ArenaTag(BaseModel):
    """The arena tournament that paired a game (``GET /api/arenas/{id}``)."""

    id: str


class Snapshot(BaseModel):
    """A game as one viewer sees it."""

    id: str
    game: str
    number: str
    params: dict[str, Any]
    seat: int | None = Field(description="the seat this view is for; null for spectators")
    seats: list[int] = Field(description="every seat the viewer holds")
    version: int
    status: GameStatus
    view: View
    outcome: Outcome | None
    rematch: Rematch | None
    daily: str | None
    arena: ArenaTag | None = Field(default=None, description="the arena that paired the game")
    server_ms: int = Field(description="the game's clock now, ms since it started")
    build: str = Field(
        description="the version of the front end this server serves (a page's "
        "`<html data-assets>`): a page of another version reloads itself"
    )


class CreatedGame(Snapshot):
    events: list[Event] = Field(description="the computer's opening, if it moves first")
    players: list[SeatHolder]


class LoadedGame(Snapshot):
    players: list[SeatHolder]
    presence: list[SeatPresence]


class MoveResult(Snapshot):
    events: list[Event]


class GameLog(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    seed: int
    number: str
    version: int
    moves: list[LogEntry]
    next: int | None = Field(
        description="more entries follow: ask again with `from` set to this ply"
    )


class Verified(BaseModel):
    game: str
    number: str
    plies: int
    view: View = Field(description="the final public view")
    outcome: Outcome | None


class RematchAnswer(BaseModel):
    rematch: Rematch


class OpenGame(BaseModel):
    id: str
    game: str
    number: str
    params: dict[str, Any]
    name: str | None
    mine: bool
    created_ms: int


class OpenGames(BaseModel):
    games: list[OpenGame]


# --- players, records, daily, catalog -----------------------------------------------------


class RatedProgress(BaseModel):
    """How far a player is from rated play in one game (README "Rated play")."""

    finished: int = Field(description="their finished games that count, at most `needed`")
    needed: int = Field(description="the finished games rated play asks for")
    moves: int = Field(description="the moves of their own a game needs to count")


class Me(BaseModel):
    name: str | None
    rated: dict[str, RatedProgress] = Field(
        default_factory=dict,
        description="per game that offers rated play: the player's progress towards it "
        "(open once `finished` reaches `needed` and the player has a name)",
    )


class PushKey(BaseModel):
    public_key: str = Field(
        description="the VAPID public key: base64url of the uncompressed P-256 point"
    )


class PushSubscribed(BaseModel):
    kinds: list[str]


class RecordRow(BaseModel):
    game: str
    key: str
    score: int
    time_ms: int
    game_id: str
    played: int


class Records(BaseModel):
    records: list[RecordRow]


class Tally(BaseModel):
    wins: int = 0
    losses: int = 0
    draws: int = 0


class Stats(BaseModel):
    game: str
    stats: dict[str, Tally] = Field(description="per computer level")


class HonourRow(BaseModel):
    rank: int
    name: str | None
    score: int | None
    time_ms: int
    game_id: str


class DailyBoard(BaseModel):
    game: str
    date: str
    number: str
    seed: int
    honour: list[HonourRow]


class HistoryLinks(BaseModel):
    replay: str = Field(description="`/replay/{id}`: the game move by move")
    play: str = Field(description="`/play/{game}/{number}`: the same board, new game")


class HistoryGame(BaseModel):
    id: str
    game: str
    variant: str = Field(description="the params that name the board (see app/history.py)")
    number: str
    status: GameStatus
    result: Literal["win", "loss", "draw", "aborted"] | None = Field(
        description="two-seat games once over, for this player (aborted: ended before "
        "it began, it counts for nothing); else null"
    )
    score: int | None = Field(description="this player's score once over")
    daily: str | None
    started_ms: int
    links: HistoryLinks


class History(BaseModel):
    games: list[HistoryGame]
    next: str | None = Field(description="more games follow: ask again with `before` = this")


class VariantStats(BaseModel):
    game: str
    variant: str
    played: int = Field(description="finished games (aborted ones count for nothing)")
    best: int | None
    average: float | None = Field(description="mean score, one decimal")
    levels: dict[str, Tally] = Field(description="per computer level, and `online`")
    rating: float | None = Field(
        default=None, description="the player's rating in the variant's pool (rated variants)"
    )
    provisional: bool | None = Field(
        default=None, description="the rating is provisional (shown with ?)"
    )


class DailyResult(BaseModel):
    game: str
    date: str
    id: str
    status: GameStatus
    score: int | None
    rank: int | None = Field(
        description="place on the day's board of honour, once over (null when too_fast)"
    )
    too_fast: bool = Field(
        default=False,
        description="played faster than a person can: left off the board of honour",
    )


class MyStats(BaseModel):
    stats: list[VariantStats]
    streak: int = Field(description="days in a row with a daily board finished")
    streak_until: str | None = Field(description="the streak's last day, YYYY-MM-DD")
    daily: list[DailyResult] = Field(description="daily games of yesterday, today, tomorrow")


class TransferCode(BaseModel):
    code: str
    url: str = Field(description="the claim URL the QR code holds")
    expires_ms: int
    qr: list[list[int]] = Field(description="the QR code's modules, rows of 0/1, no border")


class CatalogParam(BaseModel):
    """One param of a game: its choices and default (a game may add facts of its own)."""

    model_config = ConfigDict(extra="allow")
    choices: list[Any]
    default: Any


class CatalogGame(BaseModel):
    """A game's catalog entry (``engines.core.protocol.CatalogEntry``): the keys every
    game has, and the game's own facts (sizes, rulesets, clocks…) besides."""

    model_config = ConfigDict(extra="allow")
    name: str
    params: dict[str, CatalogParam]
    score_order: ScoreOrder = Field(description="whether a higher or a lower score is better")
    online_play: bool = Field(
        description="two players may be paired by a seek (`POST /api/seeks`) for this game",
    )
    arenas: bool = Field(
        description="the game is played in arena tournaments (`POST /api/arenas`)",
    )


class GameCatalog(BaseModel):
    games: list[CatalogGame] = Field(description="each engine's `describe()`")


ErrorResponse.model_rebuild()  # its `current` names Snapshot, defined after it


# --- quick pairing ------------------------------------------------------------------------


class SeekState(BaseModel):
    """A seek: ``paired`` with the game it became, or ``waiting`` in the pool."""

    status: Literal["paired", "waiting"]
    game_id: str | None = Field(default=None, description="with `paired`: the new game")
    seek_id: str | None = Field(default=None, description="with `waiting`: poll or cancel it")
    game: str | None = Field(default=None, description="the game sought")
    clock: str | None = None
    rated: bool | None = None
    expires_ms: int | None = Field(
        default=None, description="with `waiting`: the seek leaves the pool unless polled"
    )
