"""The arena director every process runs (app/arenas.py): it makes the site's scheduled
arenas, tells an arena's start once (whichever process wins the guarded write) and its
end, and pairs the free players of every running arena each ``arena_pair_every_ms`` and
at once when a game of an arena ends in this process. Its turns survive a lost database
or Redis (one log line each)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.arenas import Arenas
from app.catalog import arenas_of
from app.models import Arena
from app.outage import is_outage
from app.push.notices import Notice
from app.seeks import real_time_clocks

log = logging.getLogger("app.arenas")

SCHEDULE_EVERY_S = 30.0


class ArenaDirector:
    def __init__(self, arenas: Arenas) -> None:
        self.arenas = arenas
        self.ended_told: set[str] = set()  # arenas whose end this process has told
        self._stopping = False

    async def run_forever(self) -> None:
        every_s = self.arenas.settings.arena_pair_every_ms / 1000
        scheduled_at = 0.0
        while not self._stopping:
            # Cleared before the turn, not after: a game's end or stop() while the turn
            # runs wakes the next wait at once (cleared after, it waited a whole interval:
            # a shutdown 1 s, a freed player a pairing).
            self.arenas.wake.clear()
            try:
                if time.monotonic() - scheduled_at >= SCHEDULE_EVERY_S:
                    await self.schedule()
                    scheduled_at = time.monotonic()
                await self.turn()
            except asyncio.CancelledError:
                raise
            except (SQLAlchemyError, OSError, RedisError) as error:
                if not is_outage(error) and not isinstance(error, RedisError):
                    log.exception("arena turn failed")
                else:
                    log.warning("arena turn skipped: %s", error)
            except Exception:
                log.exception("arena turn failed")
            try:
                await asyncio.wait_for(self.arenas.wake.wait(), timeout=every_s)
            except TimeoutError:
                pass

    def stop(self) -> None:
        self._stopping = True
        self.arenas.wake.set()

    async def turn(self) -> None:
        """One look at the live arenas: tell a start and an end once, pair the free."""
        now = self.arenas.clock.now_ms()
        live = await self.arenas.store.live_arenas(now)
        self._keep_only({arena.id for arena in live})
        for arena in live:
            if now >= arena.ends_ms:
                self.arenas.games_ended.discard(arena.id)  # games ending after it: silence
                if arena.id not in self.ended_told:
                    self.ended_told.add(arena.id)
                    self.arenas.standings.forget(arena.id)
                    await self.arenas.changed(arena.id)
                continue
            if not arena.started_told and await self.arenas.store.mark_started_told(arena.id):
                await self._tell_start(arena)
            ended_here = arena.id in self.arenas.games_ended
            self.arenas.games_ended.discard(arena.id)
            if not await self.arenas.pair(arena) and ended_here:
                await self.arenas.changed(arena.id)  # a game's end is news, paired or not

    def _keep_only(self, live: set[str]) -> None:
        """This process's notes of arenas over for a minute are dropped (a reader of one
        computes its standings again)."""
        self.arenas.standings.keep_only(live)
        self.ended_told &= live
        self.arenas.games_ended &= live

    async def _tell_start(self, arena: Arena) -> None:
        await self.arenas.changed(arena.id)
        for entry in await self.arenas.store.entries(arena.id):
            if not entry.paused:
                self.arenas.push.offer(
                    Notice(
                        "arena_started", entry.player_id, arena.id, arena.engine,
                        entry.player_id, 0, 1, arena_id=arena.id,
                    )
                )  # fmt: skip

    async def schedule(self) -> None:
        """The site's own arenas (``arena_hourly``, ``arena_evening``): the one under way
        and the next, in the server's timezone; each made once by whichever process is
        first (its ``schedule_key``)."""
        now = self.arenas.clock.now_ms()
        local = dt.datetime.fromtimestamp(now / 1000).astimezone()
        hour = local.replace(minute=0, second=0, microsecond=0)
        evening = hour.replace(hour=self.arenas.settings.arena_evening_hour)
        wanted = [
            ("hourly", self.arenas.settings.arena_hourly, hour),
            ("hourly", self.arenas.settings.arena_hourly, hour + dt.timedelta(hours=1)),
            ("evening", self.arenas.settings.arena_evening, evening),
            ("evening", self.arenas.settings.arena_evening, evening + dt.timedelta(days=1)),
        ]
        for kind, spec, start in wanted:
            if not spec:
                continue
            clock, _, minutes = spec.partition("/")
            starts = int(start.timestamp() * 1000)
            if starts + int(minutes) * 60_000 <= now:
                continue
            for game in self.arenas.catalog.engines:
                engine = self.arenas.catalog.engines[game]
                play = arenas_of(engine)
                if play is None or clock not in real_time_clocks(engine):
                    continue
                arena = self.arenas.new_arena(game, clock, int(minutes), starts, False, now)
                arena.schedule = kind
                arena.schedule_key = f"{game}:{kind}:{starts}"
                await self.arenas.store.add_arena(arena)
