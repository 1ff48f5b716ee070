"""Quick pairing for every game that offers online play: a seek pool, like lichess's.

``post`` puts the player in a game's pool with a time control, or pairs them at once with
the oldest compatible seek of another player (one transaction, ``app/store/seeks.py``). The
waiting player's page long-polls (``poll``); the pairing is told on the seek's hub
channel (``seek:<id>``) once committed, so it reaches a poll held by any process. A poll
re-reads the database when it starts, when it wakes and every ``seek_recheck_ms``, so
a message published before it subscribed (or lost with Redis) is never missed. When an
older compatible seek waits too (seeks posted at the same moment all found the pool
empty), the re-read matches the pool two by two. Every poll moves the seek's expiry
forward: a closed page's seek leaves the pool after ``seek_heartbeat_s``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from redis.exceptions import RedisError

from app.catalog import AnyEngine, Catalog, online
from app.clock import Clock
from app.config import Settings
from app.errors import AppError, from_engine
from app.fanout import Resync
from app.hub import Hub, HubUnavailable
from app.lifecycle import Lifecycle
from app.limits import Admission
from app.metrics import RATE_LIMITED
from app.models import Game, Seek
from app.store import Store
from app.wire import HubMessage, SeekPairedFrame, SeekState
from engines.core.errors import AppCode
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import EngineError, OnlinePlay

log = logging.getLogger("app.seeks")

WAIT_MAX_S = 25.0
# Another transaction is matching the pool: it tells every seek it pairs, so look again
# only this soon (plus jitter), for a seek that came in after it began.
CONTENDED_S = 0.2

Message = HubMessage | Resync | None


def channel(seek_id: str) -> str:
    """The hub channel a seek's pairing is told on."""
    return f"seek:{seek_id}"


def real_time_clocks(engine: AnyEngine) -> set[str]:
    """The time controls of ``engine`` a player plays one game of at a time (not days
    per move)."""
    clocks = engine.describe().get("clocks") or {}
    return {name for name, control in clocks.items() if control and not control["per_move"]}


def not_found() -> AppError:
    return AppError(AppCode.SEEK_NOT_FOUND, "no such seek (or it has expired)")


@dataclass
class Poll:
    """One open long-poll of a seek in this process; a newer poll of the same seek
    replaces it (wakes it through its queue)."""

    queue: asyncio.Queue[Message]
    replaced: bool = False
    holder: str = field(default_factory=lambda: secrets.token_hex(8))


class Seeks:
    def __init__(
        self,
        store: Store,
        hub: Hub,
        clock: Clock,
        catalog: Catalog,
        admission: Admission,
        lifecycle: Lifecycle,
        settings: Settings,
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock = clock
        self.catalog = catalog
        self.admission = admission
        self.lifecycle = lifecycle
        self.settings = settings
        self.polls: dict[str, Poll] = {}  # seek id → its open poll in this process

    @property
    def heartbeat_ms(self) -> int:
        return self.settings.seek_heartbeat_s * 1000

    def _online(self, game: str) -> tuple[AnyEngine, OnlinePlay]:
        """The engine of ``game`` and its online play: a 404 ``unknown_game``, or
        ``no_online`` for a game that offers no online play."""
        engine = self.catalog.engine(game)
        play = online(engine)
        if play is None:
            raise AppError(AppCode.NO_ONLINE, f"{game} is not played online")
        return engine, play

    async def _game_maker(self, game: str, clock: str, rated: bool) -> Callable[[Seek, str], Game]:
        """The params (the engine's ``seek_params``, checked as for any new game), and a
        function that builds the game of two seeks on a fresh board, seats in random
        order. Boards are built only for the games made (online boards are small ones)."""
        engine, play = self._online(game)
        try:
            params = play.seek_params(clock, rated)
        except EngineError as error:
            raise from_engine(error) from None

        def make(waiting: Seek, seeker_id: str) -> Game:
            seats: list[str | None] = [waiting.player_id, seeker_id]
            if secrets.randbelow(2):
                seats.reverse()
            seed = secrets.randbelow(SEED_LIMIT)
            state = engine.new_game(params, seed)
            return self.lifecycle.paired_row(game, engine, params, seed, state, seats)

        return make

    async def post(
        self, player_id: str, address: str, game: str, clock: str, rated: bool
    ) -> SeekState:
        """A seek for ``game``: paired at once with a waiting one, or waiting in the pool;
        a player already in a real-time game of it (another tab's seek) is sent back."""
        engine, _ = self._online(game)
        await self.admission.seeking(player_id, address)
        make = await self._game_maker(game, clock, rated)
        if rated:
            await self.lifecycle.rated.check(player_id, game, address)
        now = self.clock.now_ms()
        seek = Seek(
            id=secrets.token_urlsafe(9),
            player_id=player_id,
            engine=game,
            clock=clock,
            rated=rated,
            created_ms=now,
            expires_ms=now + self.heartbeat_ms,
            game_id=None,
            paired_ms=None,
        )
        other, made = await self.store.post_seek(seek, make, real_time_clocks(engine))
        if made is not None:
            if other is not None:
                await self._tell(other.id, made.id)
            return SeekState(status="paired", game_id=made.id, game=game, clock=clock, rated=rated)
        return SeekState(
            status="waiting",
            game=game,
            seek_id=seek.id,
            clock=clock,
            rated=rated,
            expires_ms=seek.expires_ms,
        )

    async def _tell(self, seek_id: str, game_id: str) -> None:
        """Wake the poll of a seek that was just paired, wherever it is held."""
        try:
            await self.hub.publish(
                channel(seek_id), SeekPairedFrame(seek_id=seek_id, game_id=game_id)
            )
        except (RedisError, OSError, HubUnavailable) as exc:  # its poll re-reads the pool
            log.warning("seek %s paired but not told: %s", seek_id, exc)

    async def _own(self, seek_id: str, player_id: str) -> Seek:
        seek = await self.store.seek(seek_id)
        if seek is None or seek.player_id != player_id:
            raise not_found()
        return seek

    async def _check(self, seek: Seek) -> tuple[Seek | None, bool]:
        """The seek as it is now (None: gone), after matching its pool when an older
        compatible seek waits too; and whether another process was matching the pool
        (then the poll looks again shortly)."""
        current = await self.store.seek(seek.id)
        if current is None or current.game_id is not None:
            return current, False
        if current.expires_ms <= self.clock.now_ms():
            return None, False
        pairs = await self.store.match_pool(
            current,
            self.clock.now_ms(),
            lambda: self._game_maker(current.engine, current.clock, current.rated),
        )
        if pairs is None:
            return current, True
        for older, newer, game in pairs:
            for paired in (older, newer):
                if paired.id == current.id:
                    current.game_id = game.id
                else:
                    await self._tell(paired.id, game.id)
        return current, False

    async def poll(
        self,
        seek_id: str,
        player_id: str,
        wait_s: float,
        disconnected: Callable[[], Awaitable[bool]],
    ) -> SeekState:
        """Answer as soon as the seek is paired, else ``waiting`` after ``wait_s``."""
        seek = await self._own(seek_id, player_id)
        if seek.game_id is not None:
            return self._paired(seek)
        if seek.expires_ms <= self.clock.now_ms():
            raise not_found()
        poll = Poll(asyncio.Queue(8))
        key = f"seekpolls:player:{player_id}"
        if not await self._take_slot(key, poll.holder):
            RATE_LIMITED.labels("seek_polls").inc()
            raise AppError(
                AppCode.RATE_LIMITED,
                "too many open polls; close another tab first",
                headers={"Retry-After": "1"},
            )
        earlier = self.polls.get(seek_id)
        if earlier is not None:  # one open poll per seek: the newer one replaces it
            earlier.replaced = True
            with contextlib.suppress(asyncio.QueueFull):
                earlier.queue.put_nowait(None)
        self.polls[seek_id] = poll
        try:
            wait_ms = int(wait_s * 1000)
            await self.store.extend_seek(seek_id, self.clock.now_ms() + wait_ms + self.heartbeat_ms)
            async with contextlib.AsyncExitStack() as stack:
                try:
                    poll.queue = await stack.enter_async_context(self.hub.watch(channel(seek_id)))
                except HubUnavailable:
                    pass  # no hub: the periodic re-read alone finds the pairing
                found = await self._wait(seek, poll, wait_s, disconnected)
        finally:
            if self.polls.get(seek_id) is poll:
                del self.polls[seek_id]
            await self._give_back_slot(key, poll.holder)
        if found is not None and found.game_id is not None:
            return self._paired(found)
        if found is None:
            raise not_found()
        if not poll.replaced:  # (a newer poll has set the seek's expiry for its own wait)
            # The page polls again at once, or is gone: the seek lives a heartbeat more.
            await self.store.extend_seek(seek_id, self.clock.now_ms() + self.heartbeat_ms)
        return SeekState(
            status="waiting",
            game=seek.engine,
            seek_id=seek_id,
            clock=seek.clock,
            rated=seek.rated,
            expires_ms=self.clock.now_ms() + self.heartbeat_ms,
        )

    async def _wait(
        self,
        seek: Seek,
        poll: Poll,
        wait_s: float,
        disconnected: Callable[[], Awaitable[bool]],
    ) -> Seek | None:
        """Re-read when starting, on every hub message and every re-check interval,
        until paired, gone, replaced, disconnected or out of time."""
        until = time.monotonic() + wait_s
        recheck_s = self.settings.seek_recheck_ms / 1000
        while True:
            current, contended = await self._check(seek)
            if current is None or current.game_id is not None:
                return current
            left = until - time.monotonic()
            if left <= 0 or poll.replaced or await disconnected():
                return current
            soon = CONTENDED_S * (1 + secrets.randbelow(1000) / 1000)
            pause = min(left, soon if contended else recheck_s)
            with contextlib.suppress(TimeoutError):
                message = await asyncio.wait_for(poll.queue.get(), timeout=pause)
                if isinstance(message, SeekPairedFrame):  # committed before it was told
                    current.game_id = message.game_id
                    return current
            if poll.replaced:
                return current

    @staticmethod
    def _paired(seek: Seek) -> SeekState:
        return SeekState(
            status="paired",
            game_id=seek.game_id,
            game=seek.engine,
            clock=seek.clock,
            rated=seek.rated,
        )

    async def cancel(self, seek_id: str, player_id: str) -> None:
        """Withdraw an open seek; 409 ``seek_paired`` (with the game) when it became one."""
        await self._own(seek_id, player_id)
        if await self.store.cancel_seek(seek_id, player_id):
            poll = self.polls.get(seek_id)
            if poll is not None:
                poll.replaced = True
                with contextlib.suppress(asyncio.QueueFull):
                    poll.queue.put_nowait(None)
            return
        seek = await self._own(seek_id, player_id)  # gone now: 404
        if seek.game_id is not None:
            raise AppError(
                AppCode.SEEK_PAIRED,
                "this seek has become a game",
                details={"game_id": seek.game_id},
            )
        raise not_found()

    async def _take_slot(self, key: str, holder: str) -> bool:
        # Without Redis, the limiter counts in this process (it never fails open).
        return await self.admission.limiter.take(
            key, holder, self.settings.limit_seek_polls_per_player
        )

    async def _give_back_slot(self, key: str, holder: str) -> None:
        try:
            await self.admission.limiter.give_back(key, holder)
        except (RedisError, OSError) as exc:
            log.warning("limits unavailable: %s", exc)
