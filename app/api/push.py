"""Web Push subscriptions: the server's public key, and a browser's subscription for
the calling player (docs/pwa.md)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, WRITE, AppError, documented
from app.i18n import negotiate
from app.push.endpoints import check_endpoint
from app.push.sender import PushNotices
from app.store.push import Subscription
from app.wire import PushKey, PushSubscribe, PushSubscribed, PushUnsubscribe
from engines.core.errors import AppCode

router = APIRouter(tags=["push"], responses=documented(*ANY_ROUTE))
WRITES = (AppCode.PUSH_OFF, AppCode.BAD_JSON, AppCode.INVALID_REQUEST, AppCode.RATE_LIMITED)


def keys_of(push: PushNotices) -> PushKey:
    if push.keys is None:
        raise AppError(AppCode.PUSH_OFF, "push notifications are not set up on this server")
    return PushKey(public_key=push.keys.public_key)


@router.get("/api/push/key", response_model=PushKey, responses=documented(AppCode.PUSH_OFF))
async def push_key(svc: Svc) -> PushKey:
    """The VAPID public key browsers subscribe with (``applicationServerKey``); 404
    ``push_off`` when the server has no key (a public server without VAPID_PRIVATE_KEY)."""
    return keys_of(svc.push)


@router.post(
    "/api/me/push",
    status_code=201,
    response_model=PushSubscribed,
    responses=documented(
        *WRITES,
        AppCode.BAD_ENDPOINT,
        AppCode.TOO_MANY_SUBSCRIPTIONS,
        AppCode.NO_PLAYER,
        AppCode.TOO_LARGE,
        *WRITE,
    ),
)
async def subscribe(
    body: PushSubscribe, request: Request, svc: Svc, player_id: PlayerId
) -> PushSubscribed:
    """Keep this browser's subscription for the player (one row per endpoint: sending
    it again changes its kinds and language). The notices are written in the language of
    the page that subscribed. At most 10 per player: the 11th endpoint is 409
    ``too_many_subscriptions``. The endpoint must be https on port 443 of a public host
    (422 ``bad_endpoint``) unless PUSH_ENDPOINT_ALLOW names it. A request without the
    player cookie is 409 ``no_player``: keeping it would make a player nobody is."""
    keys_of(svc.push)
    settings = request.app.state.settings
    check_endpoint(body.endpoint, settings.push_allowed_hosts)
    if getattr(request.state, "new_player", False):
        raise AppError(
            AppCode.NO_PLAYER,
            "no player cookie came with this subscription: load a page of the site first",
        )
    address = request.client.host if request.client else "unknown"
    await svc.admission.subscribing(player_id, address)
    lang = negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))
    kinds = tuple(dict.fromkeys(body.kinds))
    sub = Subscription(body.endpoint, body.keys.p256dh, body.keys.auth, kinds, lang)
    limit = settings.limit_push_subscriptions_per_player
    if not await svc.store.subscribe(player_id, sub, limit, svc.clock.now_ms()):
        raise AppError(
            AppCode.TOO_MANY_SUBSCRIPTIONS,
            f"at most {limit} devices get notifications: turn them off on another one first",
            {"limit": limit},
        )
    return PushSubscribed(kinds=list(kinds))


@router.delete(
    "/api/me/push",
    status_code=204,
    responses=documented(*WRITES, AppCode.TOO_LARGE, *WRITE),
)
async def unsubscribe(
    body: PushUnsubscribe, request: Request, svc: Svc, player_id: PlayerId
) -> Response:
    """Forget this browser's subscription (204 whether or not there was one)."""
    keys_of(svc.push)
    address = request.client.host if request.client else "unknown"
    await svc.admission.subscribing(player_id, address)
    await svc.store.unsubscribe(player_id, body.endpoint)
    return Response(status_code=204)
