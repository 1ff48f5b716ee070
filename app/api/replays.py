"""Replay, review and verification routes: a game at any ply, a finished game's review,
and a submitted log judged again."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, ENGINE_PARAMS, WRITE, documented
from app.wire import GameReview, Replay, Verified, VerifyRequest
from engines.core.errors import AppCode

router = APIRouter(prefix="/api", tags=["replays"], responses=documented(*ANY_ROUTE))


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.get(
    "/games/{game_id}/replay",
    response_model=Replay,
    responses=documented(
        AppCode.GAME_NOT_FOUND,
        AppCode.REPLAY_FORBIDDEN,
        AppCode.BAD_PLY,
        AppCode.INVALID_REQUEST,
        AppCode.RATE_LIMITED,
    ),
)
async def replay(
    game_id: str,
    request: Request,
    svc: Svc,
    player_id: PlayerId,
    ply: int | None = Query(
        default=None, ge=0, le=2**31, description="0 is the start; the last ply by default"
    ),
    timeline: bool = Query(default=False, description="add every ply's step"),
) -> Replay:
    """The game at ``ply`` as the caller sees it (hidden information stays hidden),
    rebuilt from its log: the view, and the events the move at that ply produced."""
    return await svc.replays.at(game_id, player_id, address_of(request), ply, timeline)


REVIEW_CODES = (AppCode.GAME_NOT_FOUND, AppCode.NO_REVIEW, AppCode.REPLAY_FORBIDDEN)


@router.post(
    "/games/{game_id}/review",
    response_model=GameReview,
    response_model_exclude_unset=True,
    status_code=202,
    responses={
        200: {"model": GameReview, "description": "the review, done"},
        **documented(
            *REVIEW_CODES, AppCode.GAME_NOT_OVER, AppCode.RATE_LIMITED, AppCode.BUSY, *WRITE
        ),
    },
)
async def ask_review(
    game_id: str, request: Request, response: Response, svc: Svc, player_id: PlayerId
) -> GameReview:
    """Asks for the review of a finished game the caller may replay (Triangles): 202
    ``pending`` while the engine workers work it out (once per game), 200 with the review
    once it is stored. 404 ``no_review`` for a game that has none."""
    review = await svc.reviews.ask(game_id, player_id, address_of(request))
    if review.status == "done":
        response.status_code = 200
    return review


@router.get(
    "/games/{game_id}/review",
    response_model=GameReview,
    response_model_exclude_unset=True,
    responses=documented(*REVIEW_CODES),
)
async def review(game_id: str, svc: Svc, player_id: PlayerId) -> GameReview:
    """The review: ``pending``, or ``done`` with every move marked (``plies``) and each
    seat's accuracy (``summary``); ``none`` when none was asked (ask with POST: a review
    pending in a server that restarted is not remembered). 404 ``no_review`` for a game
    whose engine has no review."""
    return await svc.reviews.get(game_id, player_id)


@router.post(
    "/verify",
    response_model=Verified,
    responses=documented(
        AppCode.BAD_JSON,
        AppCode.INVALID_REQUEST,
        AppCode.TOO_LARGE,
        AppCode.UNKNOWN_GAME,
        ENGINE_PARAMS,
        AppCode.ILLEGAL_LOG,
        AppCode.RATE_LIMITED,
        *WRITE,
    ),
)
async def verify(body: VerifyRequest, request: Request, svc: Svc, player_id: PlayerId) -> Verified:
    """Replays a log (the ``moves`` of ``GET /api/games/{id}/log``) on the board
    ``number`` fixes (``params`` may set what it leaves open, as in ``POST /api/games``):
    the final public view and outcome, or 422 ``illegal_log`` with ``details.ply``
    (1-based) and ``details.reason`` (the engine's code) of the first refused entry."""
    return await svc.verifier.verify(
        body.game, body.number, body.params, body.log, player_id, address_of(request)
    )
