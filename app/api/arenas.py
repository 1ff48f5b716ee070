"""Arena tournaments: make one, list them, read one with its standings, join, pause, and
berserk in an arena game (app/arenas.py)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, ENGINE_MOVES, ENGINE_PARAMS, WRITE, documented
from app.wire import ArenaAnswer, Arenas, CreateArena, MoveResult
from engines.core.errors import AppCode, ErrorCode

router = APIRouter(prefix="/api", tags=["arenas"], responses=documented(*ANY_ROUTE))

BODY = (AppCode.BAD_JSON, AppCode.INVALID_REQUEST, AppCode.TOO_LARGE)
ARENA = (AppCode.ARENA_NOT_FOUND, AppCode.ARENA_PRIVATE, AppCode.INVALID_REQUEST)
Key = Query(default=None, max_length=32, description="a private arena's key (from its link)")


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post(
    "/arenas",
    status_code=201,
    responses=documented(
        *BODY,
        ENGINE_PARAMS,
        AppCode.UNKNOWN_GAME,
        AppCode.NO_ARENAS,
        AppCode.NAME_REQUIRED,
        AppCode.BAD_MINUTES,
        AppCode.BAD_START,
        AppCode.RATE_LIMITED,
        *WRITE,
    ),
)
async def create_arena(
    body: CreateArena, request: Request, svc: Svc, player_id: PlayerId
) -> ArenaAnswer:
    """Make an arena (a named player only): ``starts_at`` in server epoch ms, now when
    absent; a private one is not listed, and its ``link`` carries the key to share."""
    return await svc.arenas.create(
        player_id,
        address_of(request),
        body.game,
        body.clock,
        body.minutes,
        body.starts_at,
        body.rated,
        body.private,
    )


@router.get("/arenas")
async def list_arenas(svc: Svc) -> Arenas:
    """Public arenas: those of the next day, those under way, those that ended lately."""
    return Arenas(arenas=await svc.arenas.listed())


@router.get("/arenas/{arena_id}", responses=documented(*ARENA))
async def get_arena(
    arena_id: str, svc: Svc, player_id: PlayerId, key: str | None = Key
) -> ArenaAnswer:
    """The arena, its standings computed from its games, and the viewer's place in it."""
    return await svc.arenas.read(arena_id, player_id, key)


@router.post(
    "/arenas/{arena_id}/join",
    responses=documented(
        *ARENA,
        AppCode.ARENA_OVER,
        AppCode.RATED_NEEDS_NAME,
        AppCode.RATED_NEEDS_GAMES,
        AppCode.RATE_LIMITED,
        *WRITE,
    ),
)
async def join_arena(
    arena_id: str, request: Request, svc: Svc, player_id: PlayerId, key: str | None = Key
) -> ArenaAnswer:
    """Join (before or during the arena), or come back after a pause: the player is
    paired as soon as another is free."""
    return await svc.arenas.join(arena_id, player_id, address_of(request), key)


@router.post(
    "/arenas/{arena_id}/pause",
    responses=documented(*ARENA, AppCode.NOT_IN_ARENA, AppCode.RATE_LIMITED, *WRITE),
)
async def pause_arena(
    arena_id: str, request: Request, svc: Svc, player_id: PlayerId, key: str | None = Key
) -> ArenaAnswer:
    """Leave the pairing until joining again (a game under way goes on)."""
    return await svc.arenas.pause(arena_id, player_id, address_of(request), key)


@router.post(
    "/games/{game_id}/berserk",
    tags=["games"],
    responses=documented(
        AppCode.GAME_NOT_FOUND,
        AppCode.NO_ARENAS,
        ENGINE_MOVES,
        AppCode.NOT_SEATED,
        ErrorCode.GAME_OVER,
        AppCode.STALE_VERSION,
        AppCode.BUSY,
        *WRITE,
    ),
)
async def berserk(game_id: str, svc: Svc, player_id: PlayerId) -> MoveResult:
    """In an arena game, before the player's first move: halve their own clock (its
    increment goes too) for an extra point with a win (``berserk_too_late``,
    ``already_berserk``)."""
    played = await svc.arenas.berserk(game_id, player_id)
    engine = svc.catalog.engine(played.game.engine)
    snapshot = svc.snapshots.snapshot(played.game, engine, played.state, player_id)
    return MoveResult(**dict(snapshot), events=played.events)
