"""The services one process runs, wired together once at start-up."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from redis.exceptions import RedisError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.arena_director import ArenaDirector
from app.arenas import Arenas
from app.assets import site_assets
from app.catalog import AnyEngine, Catalog
from app.claims import ClaimPolicy
from app.clock import Clock
from app.config import Settings
from app.flags import FlagSweeper
from app.history import HistoryService
from app.hub import Hub
from app.lifecycle import Lifecycle
from app.limits import Admission, Limiter
from app.live import LiveGames
from app.moves import MovePath
from app.outage import OutageLog
from app.presence import Presence, Throttle
from app.push.keys import vapid_keys
from app.push.sender import PushLimits, PushNotices
from app.reads import Reads
from app.replays import Replays
from app.reviews import Reviews
from app.seeks import Seeks
from app.snapshots import Snapshots
from app.store import Store
from app.transfer import Transfers
from app.verify import Verifier
from app.wire import PresenceFrame
from app.workers import EngineWorkers

log = logging.getLogger("app.presence")
MIB = 1024 * 1024


@dataclass(frozen=True)
class Services:
    catalog: Catalog
    store: Store
    hub: Hub
    presence: Presence
    clock: Clock
    snapshots: Snapshots
    moves: MovePath
    lifecycle: Lifecycle
    reads: Reads
    replays: Replays
    reviews: Reviews
    verifier: Verifier
    presence_notices: Throttle
    admission: Admission
    history: HistoryService
    transfers: Transfers
    flags: FlagSweeper
    seeks: Seeks
    push: PushNotices
    arenas: Arenas
    arena_director: ArenaDirector
    outages: OutageLog

    @classmethod
    def build(
        cls,
        db: AsyncEngine,
        hub: Hub,
        presence: Presence,
        limiter: Limiter,
        clock: Clock,
        engines: Mapping[str, AnyEngine],
        settings: Settings,
    ) -> Services:
        catalog = Catalog(engines)
        board_budget = settings.board_cache_mib * MIB
        for engine in engines.values():
            engine.bound_caches(board_budget)
        store = Store(db, serialize_writes=settings.is_sqlite)
        admission = Admission(limiter, settings)
        snapshots = Snapshots(store, presence, clock, site_assets().version)

        async def announce_presence(game_id: str, seat_count: int) -> None:
            """Tell every watcher of a game who is connected. Presence is advisory: if
            its store fails, the game goes on regardless."""
            try:
                presence = await snapshots.presence_of(game_id, seat_count)
            except (RedisError, OSError) as exc:
                log.warning("presence of game %s unknown: %s", game_id, exc)
                return
            await hub.publish(game_id, PresenceFrame(presence=presence))

        workers = EngineWorkers(
            settings.engine_workers, settings.engine_queue, tuple(engines.values()), board_budget
        )
        push = PushNotices(
            store,
            presence,
            clock,
            vapid_keys(settings),
            settings.push_contact,
            settings.push_allowed_hosts,
            settings.push_queue,
            PushLimits(
                settings.push_workers,
                settings.push_per_host,
                settings.push_deadline_s,
                settings.push_retries,
                settings.push_host_failures,
                settings.push_host_pause_s,
            ),
        )
        moves = MovePath(
            store,
            LiveGames(catalog, settings.live_games_mib * MIB),
            hub,
            clock,
            catalog,
            snapshots,
            ClaimPolicy(presence, clock),
            workers,
            admission,
            push,
        )
        hub.on_foreign_move(moves.live.follow)
        lifecycle = Lifecycle(
            store, moves, hub, clock, catalog, snapshots, admission, workers, push
        )
        arenas = Arenas(
            store, hub, clock, catalog, admission, lifecycle, moves, workers, push, settings
        )
        return cls(
            catalog=catalog,
            store=store,
            hub=hub,
            presence=presence,
            clock=clock,
            snapshots=snapshots,
            moves=moves,
            lifecycle=lifecycle,
            reads=Reads(store, moves, clock, catalog, snapshots, admission),
            replays=Replays(store, catalog, admission, settings.replays_mib * MIB),
            reviews=Reviews(store, catalog, workers, clock, admission),
            verifier=Verifier(catalog, admission),
            presence_notices=Throttle(announce_presence),
            admission=admission,
            history=HistoryService(store, catalog, clock),
            transfers=Transfers(store, clock, admission),
            flags=FlagSweeper(store, moves, clock),
            seeks=Seeks(store, hub, clock, catalog, admission, lifecycle, settings),
            push=push,
            arenas=arenas,
            arena_director=ArenaDirector(arenas),
            outages=OutageLog(),
        )
