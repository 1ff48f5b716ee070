"""Ratings: the leaderboard of a game's rating pool."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Query

from app.api.deps import Svc
from app.errors import ANY_ROUTE, AppError, documented
from app.wire import Leaderboard, LeaderboardRow
from engines.core.errors import AppCode
from engines.core.protocol import ClockSpec

router = APIRouter(prefix="/api", tags=["ratings"], responses=documented(*ANY_ROUTE))


def pools_by_speed(clocks: Mapping[str, ClockSpec | None]) -> list[str]:
    """A game's rating pools, fastest first (bullet, blitz, rapid, …, correspondence): a
    pool is as fast as its fastest control, timed as lichess estimates a game's length
    (initial time + 40 increments); days-per-move controls come after every timed one."""
    speed: dict[str, tuple[bool, int]] = {}
    for control in clocks.values():
        if control:
            key = (control["per_move"], control["initial_ms"] + 40 * control["increment_ms"])
            pool = control["category"]
            speed[pool] = min(speed.get(pool, key), key)
    return sorted(speed, key=lambda pool: speed[pool])


def pool_of(clocks: Mapping[str, ClockSpec | None], asked: str) -> str:
    """The pool named by ``asked``: a category ("blitz") or a time control ("3+2"). A "+"
    left unescaped in a query string arrives as a space (``?clock=1+1`` reads "1 1")."""
    pools = pools_by_speed(clocks)
    if asked in pools:
        return asked
    control = clocks.get(asked.replace(" ", "+"))
    if control:
        return control["category"]
    raise AppError(AppCode.BAD_POOL, f"clock must be one of {', '.join(pools)} or a time control")


@router.get(
    "/leaderboard/{game}",
    responses=documented(
        AppCode.INVALID_REQUEST, AppCode.UNKNOWN_GAME, AppCode.NO_RATINGS, AppCode.BAD_POOL
    ),
)
async def get_leaderboard(
    game: str, svc: Svc, clock: str = Query(default="blitz", max_length=24)
) -> Leaderboard:
    """The best-rated established players of one pool (at most 50; README "Rated play").
    Served from one index range."""
    clocks = svc.catalog.engine(game).describe().get("clocks")
    if not clocks:
        raise AppError(AppCode.NO_RATINGS, f"{game} has no rated games")
    pool = pool_of(clocks, clock)
    rows = await svc.store.leaderboard(game, pool, svc.clock.now_ms())
    return Leaderboard(game=game, pool=pool, rows=[LeaderboardRow(**row) for row in rows])
