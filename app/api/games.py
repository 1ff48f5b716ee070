"""Game routes: create, load, move, log, join, rematch, cancel, open games."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, ENGINE_MOVES, ENGINE_PARAMS, WRITE, documented
from app.reads import LOG_PAGE
from app.wire import (
    CreatedGame,
    CreateGame,
    GameLog,
    LoadedGame,
    MoveRequest,
    MoveResult,
    OpenGames,
    RematchAnswer,
    RematchRequest,
    Snapshot,
)
from engines.core.errors import AppCode, ErrorCode

router = APIRouter(prefix="/api", tags=["games"], responses=documented(*ANY_ROUTE))

BODY = (AppCode.BAD_JSON, AppCode.INVALID_REQUEST, AppCode.TOO_LARGE)
GAME = (AppCode.GAME_NOT_FOUND,)


@router.post(
    "/games",
    status_code=201,
    responses=documented(
        *BODY,
        ENGINE_PARAMS,
        AppCode.UNKNOWN_GAME,
        AppCode.NO_DAILY,
        ErrorCode.BAD_DATE,
        AppCode.DAILY_PLAYED,
        AppCode.DAILY_NOT_OVER,
        AppCode.TOO_MANY_WAITING,
        AppCode.RATE_LIMITED,
        AppCode.BUSY,
        *WRITE,
    ),
)
async def create_game(
    body: CreateGame, request: Request, svc: Svc, player_id: PlayerId
) -> CreatedGame:
    address = request.client.host if request.client else "unknown"
    played, snapshot = await svc.lifecycle.create(
        player_id, address, body.game, body.params, body.number, body.daily, body.public
    )
    return CreatedGame(
        **dict(snapshot),
        events=played.events,
        players=await svc.snapshots.players(played.game, svc.catalog.engine(played.game.engine)),
    )


@router.get("/games/{game_id}", responses=documented(*GAME))
async def get_game(game_id: str, svc: Svc, player_id: PlayerId) -> LoadedGame:
    return await svc.reads.game(game_id, player_id)


@router.post(
    "/games/{game_id}/moves",
    responses=documented(
        *BODY,
        *GAME,
        ENGINE_MOVES,
        AppCode.NOT_SEATED,
        ErrorCode.NOT_YOUR_TURN,
        AppCode.STALE_VERSION,
        AppCode.WAITING_FOR_OPPONENT,
        ErrorCode.GAME_OVER,
        AppCode.GAME_CANCELLED,
        AppCode.OPPONENT_PRESENT,
        AppCode.BUSY,
        *WRITE,
    ),
)
async def post_move(game_id: str, body: MoveRequest, svc: Svc, player_id: PlayerId) -> MoveResult:
    played = await svc.moves.play(game_id, player_id, body.version, body.move)
    engine = svc.catalog.engine(played.game.engine)
    snapshot = svc.snapshots.snapshot(played.game, engine, played.state, player_id)
    return MoveResult(**dict(snapshot), events=played.events)


@router.get(
    "/games/{game_id}/log",
    response_model=GameLog,
    responses=documented(*GAME, AppCode.REPLAY_FORBIDDEN, AppCode.INVALID_REQUEST),
)
async def get_log(
    game_id: str,
    svc: Svc,
    player_id: PlayerId,
    after: int = Query(
        default=0, ge=0, le=2**31, alias="from", description="entries after this ply"
    ),
    limit: int = Query(default=LOG_PAGE, ge=1, le=LOG_PAGE),
) -> Response:
    """The game's params, seed and number, and one page of its move log: a full replay
    reads pages until ``next`` is null. Whoever may replay the game may read it: 403
    ``replay_forbidden`` for a stranger to a running game that is not an online one."""
    log = await svc.reads.log(game_id, player_id, after, limit)
    # Encoded straight from the model the store's rows filled: a 500-entry page is not
    # validated a second time on the way out (it cost ~15 ms of the event loop).
    return Response(log.model_dump_json(), media_type="application/json")


@router.post("/games/{game_id}/join", responses=documented(*GAME, AppCode.NO_FREE_SEAT, *WRITE))
async def join_game(game_id: str, request: Request, svc: Svc, player_id: PlayerId) -> Snapshot:
    address = request.client.host if request.client else "unknown"
    return await svc.lifecycle.join(game_id, player_id, address)


@router.post(
    "/games/{game_id}/rematch",
    responses=documented(
        *BODY,
        *GAME,
        AppCode.NOT_SEATED,
        AppCode.NO_REMATCH,
        AppCode.NOT_OVER,
        AppCode.NO_OFFER,
        AppCode.BUSY,
        *WRITE,
    ),
)
async def rematch(
    game_id: str, body: RematchRequest, svc: Svc, player_id: PlayerId
) -> RematchAnswer:
    return RematchAnswer(rematch=await svc.lifecycle.rematch(game_id, player_id, body.action))


@router.post(
    "/games/{game_id}/cancel",
    status_code=204,
    responses=documented(*GAME, AppCode.NOT_OWNER, AppCode.NOT_WAITING, *WRITE),
)
async def cancel_game(game_id: str, svc: Svc, player_id: PlayerId) -> None:
    await svc.lifecycle.cancel(game_id, player_id)


@router.get("/open")
async def open_games(svc: Svc, player_id: PlayerId) -> OpenGames:
    return await svc.reads.open_games(player_id)
