"""A player's history: their games page by page, statistics per game and variant, and
the daily streak, all read from the stored games and their outcomes.

Words used here (the wire keeps them):

- *variant*: the params that name a board, in the catalog's order, joined by ``/``;
  every param except ``opponent`` (whom one played is a statistic, not the board). A
  true boolean param gives its own name, a false one nothing: ``classic10/classic``,
  ``beginner/timed``, ``phone/24/again``. A new game gets variants with no edit here.
- *level*: against the computer, the ``opponent`` param (``easy``…); between two
  different players, ``online``. Games one person plays on both seats have no level.
- *result* (two-seat games, once over): ``win``, ``loss`` or ``draw`` for this player,
  ``aborted`` for a game that ended before it began (it counts in no statistic);
  *score*: this player's seat's score in the stored outcome.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from app.catalog import Catalog
from app.clock import Clock, today
from app.errors import AppError
from app.fair_play import provisional
from app.models import COMPUTER, GameStatus
from app.store import Store
from app.wire import (
    DailyResult,
    History,
    HistoryGame,
    HistoryLinks,
    MyStats,
    Tally,
    VariantStats,
)
from engines.core.errors import AppCode
from engines.core.protocol import ABORTED, BadParams, ScoreOrder

HISTORY_PAGE = 20
HISTORY_MAX = 100
CURSOR_PATTERN = r"^(\d{1,15})\.([A-Za-z0-9_-]{1,16})$"  # the query's schema says it too
CURSOR = re.compile(CURSOR_PATTERN)
OPPONENT = "opponent"
ONLINE = "online"
Result = Literal["win", "loss", "draw", "aborted"]
TALLY = {"win": "wins", "loss": "losses", "draw": "draws"}


def variant_of(params: Mapping[str, Any], declared: Mapping[str, Any]) -> str:
    """The variant's name (see the module's docstring): ``declared`` is the catalog's
    ``params`` of the game, whose order the name follows."""
    parts: list[str] = []
    for key in [*declared, *sorted(set(params) - set(declared))]:
        if key == OPPONENT or key not in params:
            continue
        value = params[key]
        if isinstance(value, bool):
            if value:
                parts.append(key)
        else:
            parts.append(str(value))
    return "/".join(parts)


def parse_cursor(text: str) -> tuple[int, str]:
    """``before`` is ``<started_ms>.<id>`` of the last game a page showed."""
    match = CURSOR.fullmatch(text)
    if match is None:
        raise AppError(AppCode.INVALID_REQUEST, "before: a cursor is the `next` of a page")
    return int(match[1]), match[2]


def level_of(params: Mapping[str, Any], seats: Sequence[str | None], player_id: str) -> str | None:
    if COMPUTER in seats:
        return str(params.get(OPPONENT, COMPUTER))
    others = {s for s in seats if s is not None and s != player_id}
    return ONLINE if others else None


def result_of(
    seats: Sequence[str | None], outcome: Mapping[str, Any] | None, player_id: str
) -> tuple[Result | None, int | None]:
    """This player's result and score in a finished game (None, None before the end)."""
    if not outcome or player_id not in seats:
        return None, None
    seat = list(seats).index(player_id)
    scores = outcome.get("scores") or []
    score = int(scores[seat]) if seat < len(scores) else None
    if len(seats) < 2 or all(s == player_id for s in seats):
        return None, score
    if outcome.get("reason") == ABORTED:
        return "aborted", score
    winner = outcome.get("winner")
    if winner is None:
        return "draw", score
    return ("win" if seats[winner] == player_id else "loss"), score


def daily_streak(days: set[str], on: dt.date) -> tuple[int, str | None]:
    """The daily streak on day ``on`` (the server's date, UTC).

    A day counts when the player finished (status ``over``) a daily board of that date
    in any game; dates are the player's local dates the boards were asked for, which may
    be the server's yesterday, today or tomorrow. The streak is the number of consecutive
    counting days that ends on the latest counting day among tomorrow, today and
    yesterday; it is 0 when none of those three counts (a missed day breaks it). Returns
    the length and its last day.
    """
    end = next(
        (d for d in (on + dt.timedelta(days=k) for k in (1, 0, -1)) if d.isoformat() in days), None
    )
    if end is None:
        return 0, None
    length = 0
    while (end - dt.timedelta(days=length)).isoformat() in days:
        length += 1
    return length, end.isoformat()


def empty_stats(game: str, variant: str) -> VariantStats:
    return VariantStats(game=game, variant=variant, played=0, best=None, average=None, levels={})


class HistoryService:
    def __init__(self, store: Store, catalog: Catalog, clock: Clock) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.declared = {
            name: engine.describe()["params"] for name, engine in catalog.engines.items()
        }

    def _order(self, game: str) -> ScoreOrder:
        """The game's score order (a game no longer served: the higher is better)."""
        engine = self.catalog.engines.get(game)
        return engine.score_order if engine is not None else ScoreOrder.HIGHER

    def _pool(self, game: str, params: Mapping[str, Any]) -> str | None:
        """The rating pool of a finished game's params (None: unrated, or unreadable)."""
        engine = self.catalog.engines.get(game)
        if engine is None:
            return None
        try:
            return engine.rating_pool(engine.parse_params(params))
        except BadParams:  # an old game's params the engine no longer reads: unrated
            return None

    def _variant(self, game: str, params: Mapping[str, Any]) -> str:
        return variant_of(params, self.declared.get(game, {}))

    async def games(
        self,
        player_id: str,
        game: str | None,
        status: GameStatus | None,
        before: str | None,
        limit: int = HISTORY_PAGE,
    ) -> History:
        """One page of the player's games, newest first; ``next`` is the cursor of the
        page after it, or null on the last page."""
        if game is not None:
            self.catalog.engine(game)  # 404 unknown_game
        cursor = parse_cursor(before) if before else None
        statuses = [status.value] if status else []
        rows = await self.store.history(player_id, game, statuses, cursor, limit + 1)
        page = [self._entry(row, player_id) for row in rows[:limit]]
        last = rows[limit - 1] if len(rows) > limit else None
        return History(games=page, next=f"{last['started_ms']}.{last['id']}" if last else None)

    def _entry(self, row: Mapping[str, Any], player_id: str) -> HistoryGame:
        result, score = result_of(row["seats"], row["outcome"], player_id)
        return HistoryGame(
            id=row["id"],
            game=row["game"],
            variant=self._variant(row["game"], row["params"]),
            number=row["number"],
            status=row["status"],
            result=result,
            score=score,
            daily=row["daily"],
            started_ms=row["started_ms"],
            links=HistoryLinks(
                replay=f"/replay/{row['id']}", play=f"/play/{row['game']}/{row['number']}"
            ),
        )

    async def stats(self, player_id: str) -> MyStats:
        """Statistics per game and variant, the daily streak, and the daily games of the
        days around today (what the lobby marks done)."""
        groups: dict[tuple[str, str], VariantStats] = {}
        scores: dict[tuple[str, str], list[int]] = {}
        days: set[str] = set()
        pools: dict[tuple[str, str], str] = {}
        for row in await self.store.finished_of(player_id):
            if (row["outcome"] or {}).get("reason") == ABORTED:
                continue  # ended before it began: counts for nothing
            key = (row["game"], self._variant(row["game"], row["params"]))
            entry = groups.get(key) or groups.setdefault(key, empty_stats(*key))
            entry.played += 1
            result, score = result_of(row["seats"], row["outcome"], player_id)
            if score is not None:
                scores.setdefault(key, []).append(score)
            pool = self._pool(row["game"], row["params"])
            if pool is not None:
                pools[key] = pool
            level = level_of(row["params"], row["seats"], player_id)
            if level is not None and result is not None:
                tally = entry.levels.setdefault(level, Tally())
                column = TALLY[result]
                setattr(tally, column, getattr(tally, column) + 1)
            if row["daily"]:
                days.add(row["daily"])
        for key, values in scores.items():
            groups[key].best = self._order(key[0]).best(values)
            groups[key].average = round(sum(values) / len(values), 1)
        for key, pool in pools.items():
            rated = await self.store.ratings(key[0], pool, [player_id])
            if player_id in rated:
                rating, rd = rated[player_id]
                groups[key].rating, groups[key].provisional = rating, provisional(rd)
        on = today(self.clock)
        streak, until = daily_streak(days, on)
        return MyStats(
            stats=sorted(groups.values(), key=lambda s: (s.game, s.variant)),
            streak=streak,
            streak_until=until,
            daily=await self._dailies(player_id, on),
        )

    async def _dailies(self, player_id: str, on: dt.date) -> list[DailyResult]:
        dates = [(on + dt.timedelta(days=k)).isoformat() for k in (-1, 0, 1)]
        results = []
        for row in await self.store.dailies_of(player_id, dates):
            over = row["status"] == GameStatus.OVER
            rank = (
                await self.store.daily_rank(
                    row["game"], row["daily"], row["id"], self._order(row["game"])
                )
                if over
                else None
            )
            results.append(
                DailyResult(
                    game=row["game"],
                    date=row["daily"],
                    id=row["id"],
                    status=row["status"],
                    score=result_of(row["seats"], row["outcome"], player_id)[1],
                    rank=rank,
                    too_fast=over and bool(row["too_fast"]),
                )
            )
        return results
