"""How a game looks to one viewer: the snapshot answered by REST and sockets alike."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from redis.exceptions import RedisError

from app.catalog import AnyEngine
from app.clock import Clock
from app.errors import AppError
from app.fair_play import provisional
from app.models import COMPUTER, Game, GameStatus
from app.presence import Presence
from app.store import Store
from app.wire import (
    Outcome,
    PlayerKind,
    Rematch,
    SeatHolder,
    SeatPresence,
    Snapshot,
    View,
)
from app.wire.answers import ArenaTag
from engines.core.errors import AppCode
from engines.core.glicko2 import START_RATING, START_RD
from engines.core.protocol import SeatKind

NEW_RATING = (START_RATING, START_RD)  # a player without a rating in the pool yet

log = logging.getLogger("app.presence")


def seats_of(game: Game, player_id: str | None) -> list[int]:
    """The seats ``player_id`` holds in ``game``."""
    return [i for i, holder in enumerate(game.seats) if player_id and holder == player_id]


def may_replay(game: Game, engine: AnyEngine, player_id: str | None) -> bool:
    """Whether ``player_id`` may replay the game or read its log (which holds its seed
    and every move): a finished game is anyone's; a running one its players', or
    anyone's when it is an online game (which spectators may watch anyway)."""
    if game.status in (GameStatus.OVER, GameStatus.CANCELLED) or seats_of(game, player_id):
        return True
    return SeatKind.OPEN in engine.seats(engine.parse_params(game.params))


def replay_forbidden() -> AppError:
    return AppError(
        AppCode.REPLAY_FORBIDDEN, "only its players can replay a game that is still running"
    )


def viewer_seat(engine: AnyEngine, state: Any, mine: Sequence[int]) -> int | None:
    """The seat a player views (and moves) from: the one to move if they hold it."""
    if not mine:
        return None
    turn = engine.to_move(state)
    return turn if turn in mine else mine[0]


def hub_views(engine: AnyEngine, game: Game, state: Any) -> dict[str, View]:
    """The spectators' view as ``"public"`` and, in a game with hidden information,
    each seat's own view, keyed ``"0"``, ``"1"``…"""
    views: dict[str, View] = {"public": engine.view(state, None)}
    if engine.view_by_seat:
        for seat in range(len(game.seats)):
            views[str(seat)] = engine.view(state, seat)
    return views


def outcome_of(game: Game) -> Outcome | None:
    if not game.outcome:
        return None
    # too_fast is the row's own column (app/honour.py), shown with the outcome it marks.
    marked = {**game.outcome, "too_fast": True} if game.too_fast else game.outcome
    return Outcome.model_validate(marked)


class Snapshots:
    def __init__(self, store: Store, presence: Presence, clock: Clock, build: str) -> None:
        self.store = store
        self.presence = presence
        self.clock = clock
        self.build = build  # the front end's version (app/assets.py), in every snapshot

    def snapshot(
        self, game: Game, engine: AnyEngine, state: Any, player_id: str | None
    ) -> Snapshot:
        mine = seats_of(game, player_id)
        seat = viewer_seat(engine, state, mine)
        return Snapshot(
            id=game.id,
            game=game.engine,
            number=game.number,
            params=game.params,
            seat=seat,
            seats=mine,
            version=game.version,
            status=GameStatus(game.status),
            view=engine.view(state, seat),
            outcome=outcome_of(game),
            rematch=Rematch.model_validate(game.rematch) if game.rematch else None,
            daily=game.daily,
            arena=ArenaTag(id=game.arena_id) if game.arena_id else None,
            server_ms=self.clock.now_ms() - game.started_ms,
            build=self.build,
        )

    async def players(self, game: Game, engine: AnyEngine | None = None) -> list[SeatHolder]:
        """Who holds each seat; in a rated game (``engine`` tells), with their ratings."""
        return await seat_holders(self.store, game, engine)

    async def presence_or_unknown(self, game_id: str, seat_count: int) -> list[SeatPresence]:
        """Presence is advisory: while its store is unreachable every seat reads as never
        seen, and the game is served regardless."""
        try:
            return await self.presence_of(game_id, seat_count)
        except (RedisError, OSError) as exc:
            log.warning("presence of game %s unknown: %s", game_id, exc)
            return [SeatPresence(connected=False, away_ms=None) for _ in range(seat_count)]

    async def presence_of(self, game_id: str, seat_count: int) -> list[SeatPresence]:
        return await self.presence.seats(game_id, seat_count, self.clock.now_ms())


async def seat_holders(
    store: Store, game: Game, engine: AnyEngine | None = None
) -> list[SeatHolder]:
    """Who holds each seat of ``game``; in a rated game (``engine`` tells), with ratings."""
    pool = engine.rating_pool(engine.parse_params(game.params)) if engine else None
    humans = [s for s in game.seats if s and s != COMPUTER]
    names = await store.names(humans)
    ratings = await store.ratings(game.engine, pool, humans) if pool else {}
    return [
        SeatHolder(kind=PlayerKind.OPEN, name=None)
        if holder is None
        else SeatHolder(kind=PlayerKind.COMPUTER, name=None)
        if holder == COMPUTER
        else _player(names.get(holder), ratings.get(holder, NEW_RATING) if pool else None)
        for holder in game.seats
    ]


def _player(name: str | None, rating: tuple[float, float] | None) -> SeatHolder:
    """A seated player; in a rated game, with their rating and whether it is provisional."""
    if rating is None:
        return SeatHolder(kind=PlayerKind.PLAYER, name=name)
    value, rd = rating
    return SeatHolder(kind=PlayerKind.PLAYER, name=name, rating=value, provisional=provisional(rd))
