"""The application factory. ``python -m app`` serves it with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp
from starlette_compress import CompressMiddleware

from app import arena_socket, health, metrics, pages, pwa, ws
from app.api import arenas as arenas_routes
from app.api import games as games_routes
from app.api import me as me_routes
from app.api import players as players_routes
from app.api import push as push_routes
from app.api import ratings as ratings_routes
from app.api import replays as replay_routes
from app.api import seeks as seeks_routes
from app.assets import StaticTree, site_assets
from app.budgets import MessageBudgets
from app.clock import Clock, SystemClock
from app.collector import collect_young_forever, time_pauses
from app.config import MissingSecret, Settings, get_settings
from app.db import make_engine
from app.drain import Drain
from app.errors import AppError, error_response
from app.health import PROBE_PATHS, Readiness
from app.hub import make_hub, redis_client
from app.i18n import check_catalogs
from app.identity import CookieSigner, IdentityMiddleware
from app.limits import make_limiter
from app.middleware import (
    BodyLimitMiddleware,
    OriginMiddleware,
    SecurityHeadersMiddleware,
    TrustedProxyMiddleware,
)
from app.observe import RequestObserver
from app.outage import is_outage
from app.presence import make_presence
from app.services import Services
from app.verify import VERIFY_BODY_BYTES
from app.wire.game_schema import publish_game_views
from app.wire.game_types import publish_game_moves
from app.wire.seek_schema import publish_seek_games
from app.wire.socket_schema import publish_socket_frames
from engines.core.errors import AppCode
from engines.core.protocol import Engine

log = logging.getLogger("app")

STOP_WITHIN_S = 3.0  # how long shutdown waits for a flag sweep in progress


class Site(FastAPI):
    """FastAPI with the security headers and the trusted-proxy rule outside Starlette's
    own error handler, so every response (its 500 included) passes through them."""

    def build_middleware_stack(self) -> ASGIApp:
        settings: Settings = self.state.settings
        secret = settings.secret or ""
        observed = RequestObserver(super().build_middleware_stack(), CookieSigner(secret), secret)
        inner = TrustedProxyMiddleware(observed, settings.trusted_proxies)
        # uvicorn types its middleware's __call__ with its own scope types; it is ASGI.
        return SecurityHeadersMiddleware(cast(ASGIApp, inner))

    def openapi(self) -> dict[str, Any]:
        """FastAPI's document of the REST routes, with the game socket's frames and the
        served games' views and events (``app/wire/game_schema.py``), moves and params
        (``app/wire/game_types.py``)."""
        if self.openapi_schema is None:
            document = publish_socket_frames(super().openapi())
            document = publish_seek_games(document, self.state.engines)
            document = publish_game_moves(document, self.state.engines)
            self.openapi_schema = publish_game_views(document, self.state.engines)
        return self.openapi_schema


def observe(services: Services) -> None:
    """Point the gauges of app/metrics.py at this process's services."""
    metrics.watch(
        hub_connected=lambda: services.hub.connected,
        engine_queue=lambda: services.moves.workers.pending,
        review_queue=lambda: services.moves.workers.reviews_pending,
        live_games=lambda: len(services.moves.live),
        seeks_waiting=lambda: len(services.seeks.polls),
    )


HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> list[str]:
    """Every method the routes at this path answer: Starlette's 405 names only those of
    the first route whose path matched (GET /api/me and PUT /api/me are two routes)."""
    return [
        method
        for method in HTTP_METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.router.routes
        )
    ]


def create_app(
    settings: Settings | None = None,
    engines: Mapping[str, Engine[Any, Any, Any]] | None = None,
    clock: Clock | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    if not settings.secret:
        raise MissingSecret(
            "SECRET is not set: set it, or serve with `python -m app` on a loopback address"
        )
    if engines is None:
        from engines.registry import ENGINES

        engines = ENGINES
    check_catalogs(engines)  # a key two catalog files hold stops the start (app/i18n.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = make_engine(settings)
        redis = (
            redis_client(settings.redis_url, settings.redis_timeout_s)
            if settings.redis_url
            else None
        )
        hub = make_hub(redis)
        presence = make_presence(redis)
        await hub.start()
        server_clock = clock or SystemClock()
        limiter = make_limiter(redis, server_clock)
        services = Services.build(db, hub, presence, limiter, server_clock, engines, settings)
        app.state.services = services
        readiness = Readiness(db, redis)
        app.state.readiness = readiness
        app.state.drain = Drain(readiness)
        observe(services)
        time_pauses()
        app.state.message_budgets = MessageBudgets(
            settings.ws_messages_per_second, settings.ws_burst
        )
        renewal = asyncio.create_task(presence.renew_forever(services.clock.now_ms))
        slots = asyncio.create_task(limiter.renew_forever())
        flags = asyncio.create_task(services.flags.run_forever())
        arenas = asyncio.create_task(services.arena_director.run_forever())
        collector = asyncio.create_task(collect_young_forever())
        push = asyncio.create_task(services.push.run_forever())
        try:
            yield
        finally:
            # Reviews take seconds: they are dropped (asked again later), not waited for.
            await services.reviews.stop()
            # The sweeper may be inside a query: its pass ends before the database
            # closes (cancelled only if the database keeps it past STOP_WITHIN_S).
            services.flags.stop()
            services.arena_director.stop()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(asyncio.gather(flags, arenas), STOP_WITHIN_S)
            renewal.cancel()
            slots.cancel()
            collector.cancel()
            push.cancel()
            await services.push.stop()
            services.presence_notices.cancel()
            await hub.stop()
            await readiness.close()
            if redis is not None:
                await redis.aclose()
            await db.dispose()

    app = Site(title="Games", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.engines = engines  # the games served: the OpenAPI document names them
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(games_routes.router)
    app.include_router(players_routes.router)
    app.include_router(me_routes.router)
    app.include_router(push_routes.router)
    app.include_router(replay_routes.router)
    app.include_router(ratings_routes.router)
    app.include_router(seeks_routes.router)
    app.include_router(arenas_routes.router)
    app.include_router(ws.router)
    app.include_router(arena_socket.router)
    app.include_router(pwa.router)
    app.include_router(pages.router)
    app.mount("/static", StaticTree(site_assets()), name="static")

    @app.exception_handler(AppError)
    async def app_error(_: Request, error: AppError) -> JSONResponse:
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return await app_error(_, AppError(AppCode.BAD_JSON, "the body is not valid JSON"))
        details = [
            {"loc": [str(part) for part in p.get("loc", ())], "msg": p.get("msg", "")}
            for p in problems
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        message = f"{'.'.join(first['loc'])}: {first['msg']}"
        return await app_error(_, AppError(AppCode.INVALID_REQUEST, message, {"problems": details}))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
            return pages.render(request, "not_found.html", status=404, game=None)
        code = {404: AppCode.NOT_FOUND, 405: AppCode.METHOD_NOT_ALLOWED}.get(error.status_code)
        detail = str(error.detail)
        refusal = (
            AppError(code, detail)
            if code
            else AppError(AppCode.HTTP_ERROR, detail, status=error.status_code)
        )
        body = refusal.body()
        headers = dict(getattr(error, "headers", None) or {})
        if error.status_code == 405:
            headers = {name: value for name, value in headers.items() if name.lower() != "allow"}
            headers["allow"] = ", ".join(allowed_methods(request))
        return JSONResponse(body, error.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def server_error(_: Request, error: Exception) -> JSONResponse:
        return await app_error(_, AppError(AppCode.INTERNAL, "the server failed; try again"))

    # Registered by class, these are answered here and not re-raised to the server's log.
    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)
    async def database_error(request: Request, error: Exception) -> JSONResponse:
        if not is_outage(error):
            log.error("database error on %s", request.url.path, exc_info=error)
            return await server_error(request, error)
        outages = request.app.state.services.outages
        return await app_error(request, outages.unavailable(error))

    # add_middleware puts the last one outermost: origin → body limit → identity →
    # compression → routes. Pages, scripts, styles and JSON answers over 1 KB go out in
    # brotli to clients that take it, else gzip (the build's files come compressed already;
    # sockets are not touched). Brotli at quality 5 costs about what gzip 6 does (0.08 ms
    # for a move's JSON answer, 0.3 ms for a game page) and sends 6 % less HTML and 27 %
    # less JSON; zstd is off: without a dictionary it is larger than gzip on pages this size.
    app.add_middleware(
        CompressMiddleware, minimum_size=1024, zstd=False, brotli_quality=5, gzip_level=6
    )
    app.add_middleware(
        IdentityMiddleware,
        signer=CookieSigner(settings.secret),
        secure=settings.cookie_secure,
        # Files that are everyone's alike make no player: a script or an icon (public,
        # cached for a year, maybe by a shared cache) must not carry a Set-Cookie, nor
        # may the worker's script or the manifest; the page before them makes the player.
        anonymous=PROBE_PATHS | {"/sw.js", "/manifest.webmanifest"},
        anonymous_prefixes=("/static/",),
    )
    app.add_middleware(
        BodyLimitMiddleware,
        limit=settings.max_body_bytes,
        paths={"/api/verify": VERIFY_BODY_BYTES},
    )
    app.add_middleware(OriginMiddleware, allowed=settings.extra_origins)
    return app
