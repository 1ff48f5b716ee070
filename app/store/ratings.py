"""Queries on ratings: a rated game's end applied to both players, and the leaderboard.

A rated game's ratings change inside the transaction that writes its end, right after
the version-guarded UPDATE: only one write can end a game, so its ratings change exactly
once, whatever races it (a resignation against the last line, a flag against a move).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import CursorResult, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import aliased

from app.fair_play import (
    ABORTED,
    ADDRESS_WINDOW_MS,
    BOARD_MAX_RD,
    BOARD_MIN_GAMES,
    BOARD_MIN_OPPONENTS,
    BOARD_RECENT_MS,
    NOT_PLAYED,
    PAIR_LIMIT,
    PAIR_LIMITED,
    PAIR_WINDOW_MS,
    SHARED_ADDRESS,
    SHARED_ADDRESS_LIMIT,
    placed,
    provisional,
)
from app.models import Game, GameStatus, Move, Player, RatedAddress, Rating, RatingOpponent
from app.statements import ADVANCE_GAME, APPEND_MOVES
from app.upsert import insert_ignore, insert_or_update
from engines.core import glicko2

LEADERBOARD_SIZE = 50
QUALIFY_LOOKBACK = 200  # finished games per seat looked at for rated admission


class VersionMoved(Exception):
    """Another write ended or moved the game first: roll back."""


@dataclass(frozen=True)
class RatedEnd:
    """A rated two-player game that has just ended: its pool, its two players (seat
    order), the winning seat (None: a draw) and whether both seats played a move."""

    engine: str
    pool: str
    players: tuple[str, str]
    winner: int | None
    both_moved: bool = True


async def apply_ratings(
    session: AsyncSession, game: Game, end: RatedEnd, outcome: dict[str, Any], now_ms: int
) -> dict[str, Any]:
    """Count the game in both players' ratings (``app.fair_play``); return ``outcome``
    with the change (``ratings``: pool and, per seat, before and after), also written to
    the row. A game that must not count gets ``unrated`` instead: aborted, its two players
    already counted ``PAIR_LIMIT`` games together lately, or players seen at one address
    have counted ``SHARED_ADDRESS_LIMIT`` such games today."""
    if not end.both_moved:
        return await _write_outcome(session, game, {**outcome, "unrated": ABORTED})
    rows = await _locked_ratings(session, end, now_ms)
    # Counted once both rows are locked: two games of the same players ending at once
    # take turns here, so neither can slip past a limit.
    if await _rated_together(session, end.players, now_ms) >= PAIR_LIMIT:
        return await _write_outcome(session, game, {**outcome, "unrated": PAIR_LIMITED})
    shared = await _share_an_address(session, end.players, now_ms)
    if shared:
        for player_id in end.players:
            if await _shared_games(session, player_id, now_ms) >= SHARED_ADDRESS_LIMIT:
                return await _write_outcome(session, game, {**outcome, "unrated": SHARED_ADDRESS})
    before = [glicko2.Rating(r.rating, r.rd, r.volatility) for r in (rows[p] for p in end.players)]
    counted = [rows[p].games for p in end.players]
    lines = []
    for seat, player_id in enumerate(end.players):
        score = 0.5 if end.winner is None else 1.0 if end.winner == seat else 0.0
        after = before[seat]
        if placed(counted[1 - seat]):  # a newcomer's result moves nobody else's rating
            after = glicko2.update(before[seat], [glicko2.Result(before[1 - seat], score)])
        row = rows[player_id]
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.updated_ms = now_ms
        row.opponents += await _met(session, end, player_id, end.players[1 - seat])
        lines.append(
            {
                "before": before[seat].rating,
                "after": after.rating,
                "rd": after.rd,
                "provisional": provisional(after.rd),
            }
        )
    rated = {**outcome, "ratings": {"pool": end.pool, "seats": lines}}
    return await _write_outcome(session, game, rated, rated_ms=now_ms, shared_address=shared)


async def _locked_ratings(session: AsyncSession, end: RatedEnd, now_ms: int) -> dict[str, Rating]:
    """Both players' rating rows in the pool (made at the start rating if new), locked."""
    for player_id in sorted(set(end.players)):  # one order, so two games never deadlock
        await session.execute(
            insert_ignore(
                session,
                Rating,
                {
                    "player_id": player_id,
                    "engine": end.engine,
                    "pool": end.pool,
                    "rating": glicko2.START_RATING,
                    "rd": glicko2.START_RD,
                    "volatility": glicko2.START_VOLATILITY,
                    "games": 0,
                    "opponents": 0,
                    "updated_ms": now_ms,
                },
            )
        )
    return {
        row.player_id: row
        for row in await session.scalars(
            select(Rating)
            .where(
                Rating.engine == end.engine,
                Rating.pool == end.pool,
                Rating.player_id.in_(end.players),
            )
            .order_by(Rating.player_id)
            .with_for_update()
        )
    }


async def _met(session: AsyncSession, end: RatedEnd, player_id: str, opponent_id: str) -> int:
    """1 when this is the first counted game of the player against that opponent in
    the pool, else 0."""
    met = await session.execute(
        insert_ignore(
            session,
            RatingOpponent,
            {
                "player_id": player_id,
                "engine": end.engine,
                "pool": end.pool,
                "opponent_id": opponent_id,
            },
        )
    )
    return 1 if isinstance(met, CursorResult) and met.rowcount == 1 else 0


async def _write_outcome(
    session: AsyncSession,
    game: Game,
    outcome: dict[str, Any],
    rated_ms: int | None = None,
    shared_address: bool | None = None,
) -> dict[str, Any]:
    await session.execute(
        update(Game)
        .where(Game.id == game.id)
        .values(outcome=outcome, rated_ms=rated_ms, shared_address=shared_address)
        .execution_options(synchronize_session=False)
    )
    await session.flush()
    return outcome


async def _rated_together(session: AsyncSession, players: tuple[str, str], now_ms: int) -> int:
    """How many games of these two players have counted within ``PAIR_WINDOW_MS``."""
    first, second = players
    count = await session.scalar(
        select(func.count())
        .select_from(Game)
        .where(
            or_(
                and_(Game.owner_id == first, Game.guest_id == second),
                and_(Game.owner_id == second, Game.guest_id == first),
            ),
            Game.rated_ms > now_ms - PAIR_WINDOW_MS,
        )
    )
    return int(count or 0)


async def _share_an_address(
    session: AsyncSession, players: tuple[str, str], now_ms: int
) -> bool:
    """Whether both players asked for rated play from one address within the window."""
    first, second = players
    mine, theirs = aliased(RatedAddress), aliased(RatedAddress)
    since = now_ms - ADDRESS_WINDOW_MS
    found = await session.scalar(
        select(mine.address)
        .join(theirs, theirs.address == mine.address)
        .where(mine.player_id == first, mine.seen_ms > since)
        .where(theirs.player_id == second, theirs.seen_ms > since)
        .limit(1)
    )
    return found is not None


async def _shared_games(session: AsyncSession, player_id: str, now_ms: int) -> int:
    """How many counted games the player has played lately against someone seen at one
    of their addresses."""
    total = 0
    for seat in (Game.owner_id, Game.guest_id):  # each served by its own index
        count = await session.scalar(
            select(func.count())
            .select_from(Game)
            .where(seat == player_id, Game.shared_address.is_(True))
            .where(Game.rated_ms > now_ms - ADDRESS_WINDOW_MS)
        )
        total += int(count or 0)
    return total


class RatingQueries:
    """The ratings' queries (``Store`` inherits them)."""

    sessions: Any
    _writing: Callable[[], AbstractAsyncContextManager[AsyncConnection]]

    async def advance_rated(
        self,
        game: Game,
        values: dict[str, Any],
        entries: Sequence[dict[str, Any]],
        end: RatedEnd,
        now_ms: int,
    ) -> dict[str, Any] | None:
        """Write the move that ends a rated game (under its version guard) and both
        players' new ratings, in one transaction. Returns the outcome with the rating
        change, or None when the version moved (then nothing was written)."""
        try:
            async with self._writing() as connection:
                updated = await connection.execute(
                    ADVANCE_GAME, {"game_id": game.id, "seen": game.version, **values}
                )
                if not isinstance(updated, CursorResult) or updated.rowcount != 1:
                    raise VersionMoved
                await connection.execute(APPEND_MOVES, list(entries))
                async with AsyncSession(bind=connection) as session:
                    return await apply_ratings(session, game, end, values["outcome"], now_ms)
        except (VersionMoved, IntegrityError):
            return None

    async def rated_standing(
        self, player_id: str, engine: str, enough: int, own_moves: int
    ) -> tuple[str | None, int]:
        """The player's name and how many of their finished games of ``engine`` open rated
        play (counted up to ``enough``): games against another player or the computer in
        which they made ``own_moves`` moves of their own. Their latest ``QUALIFY_LOOKBACK``
        finished games from each seat are looked at."""
        async with self.sessions() as session:
            name = await session.scalar(select(Player.name).where(Player.id == player_id))
            seat_of: dict[str, int] = {}
            for holder in (Game.owner_id, Game.guest_id):  # each served by its own index
                rows = await session.execute(
                    select(Game.id, Game.seats)
                    .where(holder == player_id, Game.engine == engine)
                    .where(Game.status == GameStatus.OVER)
                    .order_by(Game.started_ms.desc())
                    .limit(QUALIFY_LOOKBACK)
                )
                for game_id, seats in rows.all():
                    others = [s for s in seats if s != player_id]
                    if len(others) == 1 and others[0] is not None:  # not hot-seat
                        seat_of[game_id] = seats.index(player_id)
            if not seat_of:
                return name, 0
            kind = Move.move["type"].as_string()
            counts = await session.execute(
                select(Move.game_id, Move.seat, func.count())
                .where(Move.game_id.in_(seat_of), Move.move.is_not(None))
                .where(kind.not_in(NOT_PLAYED))
                .group_by(Move.game_id, Move.seat)
            )
            finished = sum(
                1
                for game_id, seat, moves in counts.all()
                if seat == seat_of[game_id] and moves >= own_moves
            )
        return name, min(finished, enough)

    async def note_rated_address(self, player_id: str, address: str, now_ms: int) -> None:
        """Remember that the player asked for rated play from ``address`` (a keyed hash)."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                insert_or_update(
                    session,
                    RatedAddress,
                    {"player_id": player_id, "address": address, "seen_ms": now_ms},
                    ("player_id", "address"),
                )
            )

    async def ratings(
        self, engine: str, pool: str, player_ids: Sequence[str]
    ) -> dict[str, tuple[float, float]]:
        """Each player's rating and deviation in the pool (players without one: absent)."""
        if not player_ids:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(Rating.player_id, Rating.rating, Rating.rd).where(
                    Rating.engine == engine,
                    Rating.pool == pool,
                    Rating.player_id.in_(player_ids),
                )
            )
        return {player_id: (rating, rd) for player_id, rating, rd in rows.all()}

    async def rated_pools(self, engine: str, now_ms: int) -> set[str]:
        """The pools of a game whose leaderboard lists at least one player."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Rating.pool).where(*_established(engine, now_ms)).distinct()
            )
        return set(rows.scalars().all())

    async def leaderboard(
        self, engine: str, pool: str, now_ms: int, limit: int = LEADERBOARD_SIZE
    ) -> list[dict[str, Any]]:
        """The best-rated established players of a pool (``app.fair_play``; the index
        ``ix_ratings_board`` serves it)."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Player.name, Rating.rating, Rating.rd, Rating.games)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.pool == pool, *_established(engine, now_ms))
                .order_by(Rating.rating.desc(), Rating.player_id)
                .limit(limit)
            )
        return [
            {"rank": rank, "name": name, "rating": rating, "rd": rd, "games": games}
            for rank, (name, rating, rd, games) in enumerate(rows.all(), start=1)
        ]


def _established(engine: str, now_ms: int) -> tuple[Any, ...]:
    """The leaderboard's conditions on a rating row."""
    return (
        Rating.engine == engine,
        Rating.games >= BOARD_MIN_GAMES,
        Rating.rd < BOARD_MAX_RD,
        Rating.updated_ms > now_ms - BOARD_RECENT_MS,
        Rating.opponents >= BOARD_MIN_OPPONENTS,
    )
