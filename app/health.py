"""Liveness and readiness: ``GET /healthz`` and ``GET /readyz`` (README "Operating it").

``/healthz`` answers while the event loop does: a lost database or Redis must not get
every process restarted by its orchestrator. ``/readyz`` says whether this process should
get traffic: not while its database does not answer, and not once a drain has begun.
Redis lost is reported but keeps the process ready (moves and reads go on without it).

The checks run at most once a second whatever the number of probes (a flood of
``/readyz`` costs one ``SELECT 1`` a second), and a probe never waits more than
``CHECK_TIMEOUT_S`` for them. A check still running then goes on in the background
rather than being cancelled mid-query, and the next probe reads its answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

router = APIRouter()

CACHE_S = 1.0
CHECK_TIMEOUT_S = 1.0
PROBE_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})  # no cookie, no access line


class Readiness:
    def __init__(self, db: AsyncEngine, redis: Redis | None) -> None:
        self.db = db
        self.redis = redis
        self.draining = False
        self.checks: dict[str, str] = {}
        self.checked_at = -CACHE_S
        self.running: asyncio.Task[dict[str, str]] | None = None

    def begin_drain(self) -> None:
        self.draining = True

    async def current(self) -> dict[str, str]:
        """The latest checks, made again when over ``CACHE_S`` old."""
        if time.monotonic() - self.checked_at >= CACHE_S and (
            self.running is None or self.running.done()
        ):
            self.running = asyncio.create_task(self._check())
        if self.running is not None and not self.running.done():
            done, _ = await asyncio.wait({self.running}, timeout=CHECK_TIMEOUT_S)
            if not done:
                # Still waiting on a silent server: as good as down for this probe.
                return {**self.checks, **dict.fromkeys(self._unanswered(), "down")}
        return self.checks

    def _unanswered(self) -> list[str]:
        return ["database"] + (["redis"] if self.redis is not None else [])

    async def _check(self) -> dict[str, str]:
        database, redis = await asyncio.gather(self._database(), self._redis())
        self.checks = {"database": database} | ({"redis": redis} if redis else {})
        self.checked_at = time.monotonic()
        return self.checks

    async def _database(self) -> str:
        try:
            async with self.db.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except Exception:  # every way of not answering means the same here
            return "down"
        return "up"

    async def _redis(self) -> str | None:
        if self.redis is None:
            return None
        try:
            await self.redis.ping()
        except Exception:
            return "down"
        return "up"

    async def close(self) -> None:
        if self.running is not None:
            self.running.cancel()
            with contextlib.suppress(BaseException):
                await self.running


@router.get("/healthz", include_in_schema=False)
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    readiness: Readiness = request.app.state.readiness
    checks = await readiness.current()
    if readiness.draining:
        checks = {**checks, "drain": "started"}
    ready = not readiness.draining and checks.get("database") == "up"
    return JSONResponse(
        {"status": "ready" if ready else "unready", "checks": checks},
        status_code=200 if ready else 503,
        headers={"Cache-Control": "no-store"},
    )
