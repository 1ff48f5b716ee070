"""The application factory. ``python -m app`` serves it with uvicorn."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import pages, ws
from app.api import games as games_routes
from app.api import players as players_routes
from app.config import Settings, get_settings
from app.db import make_engine
from app.errors import AppError
from app.games import Clock, GameService, SystemClock
from app.hub import make_hub
from app.identity import CookieSigner, IdentityMiddleware
from app.middleware import BodyLimitMiddleware, SecurityHeadersMiddleware
from app.presence import make_presence
from engines.core.protocol import Engine

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
log = logging.getLogger("app")


def create_app(
    settings: Settings | None = None,
    engines: Mapping[str, Engine[Any, Any, Any]] | None = None,
    clock: Clock | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    if engines is None:
        from engines.registry import ENGINES

        engines = ENGINES

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = make_engine(settings)
        hub = make_hub(settings.redis_url)
        presence = make_presence(settings.redis_url)
        await hub.start()
        app.state.service = GameService(
            db,
            hub,
            clock or SystemClock(),
            engines,
            presence=presence,
            away_claim_ms=settings.away_claim_ms,
            serialize_writes=settings.is_sqlite,
        )
        renewal = asyncio.create_task(presence.renew_forever(app.state.service.clock.now_ms))
        try:
            yield
        finally:
            renewal.cancel()
            await hub.stop()
            await presence.close()
            await db.dispose()

    app = FastAPI(title="Games", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.include_router(games_routes.router)
    app.include_router(players_routes.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.exception_handler(AppError)
    async def app_error(_: Request, error: AppError) -> JSONResponse:
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return JSONResponse(
                {"error": {"code": "bad_json", "message": "the body is not valid JSON"}},
                status_code=400,
            )
        details = [
            {"loc": [str(part) for part in p.get("loc", ())], "msg": p.get("msg", "")}
            for p in problems
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        return JSONResponse(
            {
                "error": {
                    "code": "invalid_request",
                    "message": f"{'.'.join(first['loc'])}: {first['msg']}",
                    "details": {"problems": details},
                }
            },
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
            return pages.render(request, "not_found.html", status=404, game=None)
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return JSONResponse(
            {"error": {"code": code, "message": str(error.detail)}},
            status_code=error.status_code,
            headers=getattr(error, "headers", None),
        )

    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes)
    app.add_middleware(
        IdentityMiddleware, signer=CookieSigner(settings.secret), secure=settings.cookie_secure
    )
    return app
