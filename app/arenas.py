"""Arena tournaments (after lichess's): a game and a time control for a fixed length;
players join at any moment, are paired again as soon as a game of theirs ends, and the
standings move live.

What is stored is what happened: the arena, who joined (and who paused), and the games it
paired (``games.arena_id``). The standings are computed from those games every time
(``app/arena_standings.py``), so they cannot drift from the games, and a process killed
mid-arena loses nothing: its games carry their deadlines and are ended by any other
process's flag sweeper; its pairings were committed with their games.

Every process runs a director (``app/arena_director.py``) that calls ``pair`` for every
running arena. Pairings of one arena take turns (``app/store/arenas.py``). An
arena's status is a function of the time alone: it ends on time with every socket silent;
games still running then finish, but count for nothing.

Changes are told on the hub channel ``arena:<id>`` (``ArenaChanged``, ``ArenaPaired``),
which the arena sockets (``app/arena_socket.py``) follow.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.arena_standings import Standings, summary_of
from app.catalog import AnyEngine, Catalog, arenas_of
from app.clock import Clock
from app.config import Settings
from app.errors import AppError, from_engine
from app.hub import Hub, HubUnavailable
from app.lifecycle import Lifecycle
from app.limits import Admission
from app.models import Arena, Game
from app.moves import MovePath, Played
from app.push.notices import Notice
from app.push.sender import PushNotices
from app.seeks import real_time_clocks
from app.store import Store
from app.store.arenas import ArenaGameRow, Entry
from app.wire import (
    ArenaAnswer,
    ArenaChanged,
    ArenaPaired,
    ArenaSummary,
    HubMessage,
)
from app.workers import EngineWorkers
from engines.core.arena import (
    Entrant,
    pair,
)
from engines.core.errors import AppCode
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import ABORTED, ArenaPlay, BadParams, EngineError

log = logging.getLogger("app.arenas")

MIN_MINUTES, MAX_MINUTES = 3, 120
AHEAD_MOST_MS = 7 * 24 * 3600_000  # an arena starts at most a week ahead
LISTED_AHEAD_MS = 24 * 3600_000  # the list shows the next day's arenas
LISTED_AFTER_MS = 3 * 3600_000  # and those that ended in the last three hours


def channel(arena_id: str) -> str:
    """The hub channel an arena's news is told on."""
    return f"arena:{arena_id}"


class Arenas:
    def __init__(
        self,
        store: Store,
        hub: Hub,
        clock: Clock,
        catalog: Catalog,
        admission: Admission,
        lifecycle: Lifecycle,
        moves: MovePath,
        workers: EngineWorkers,
        push: PushNotices,
        settings: Settings,
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock = clock
        self.catalog = catalog
        self.admission = admission
        self.lifecycle = lifecycle
        self.moves = moves
        self.workers = workers
        self.push = push
        self.settings = settings
        self.standings = Standings(store, catalog, workers, clock)
        self.wake = asyncio.Event()  # a game of an arena ended here: pair now
        self.games_ended: set[str] = set()  # arenas with a game ended here, not yet told
        self.pausing: set[asyncio.Task[None]] = set()
        # (arena, player) whose game aborted on their clock, their pause not yet written:
        # never paired meanwhile (an empty chair would get a new game at once)
        self.absent: set[tuple[str, str]] = set()
        moves.arena_game_over = self.game_over

    # --- what players ask -----------------------------------------------------------------

    def _play(self, game: str) -> tuple[AnyEngine, ArenaPlay]:
        engine = self.catalog.engine(game)
        play = arenas_of(engine)
        if play is None:
            raise AppError(AppCode.NO_ARENAS, f"{game} has no arenas")
        return engine, play

    async def create(
        self,
        player_id: str,
        address: str,
        game: str,
        clock: str,
        minutes: int,
        starts_at: int | None,
        rated: bool,
        private: bool,
    ) -> ArenaAnswer:
        """A player's arena: checked, stored, and answered as its first reader sees it."""
        engine, play = self._play(game)
        name = (await self.store.names([player_id])).get(player_id)
        if not name:
            raise AppError(AppCode.NAME_REQUIRED, "choose a name before you make an arena")
        self._params(engine, play, clock, rated)
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise AppError(
                AppCode.BAD_MINUTES,
                f"an arena lasts {MIN_MINUTES} to {MAX_MINUTES} minutes",
                details={"min": MIN_MINUTES, "max": MAX_MINUTES},
            )
        now = self.clock.now_ms()
        starts = now if starts_at is None else starts_at
        if starts < now - 60_000 or starts > now + AHEAD_MOST_MS:
            raise AppError(AppCode.BAD_START, "an arena starts now or within the next 7 days")
        await self.admission.arenas(player_id, address)  # counted once it would be made
        arena = self.new_arena(game, clock, minutes, max(starts, now), rated, now)
        arena.created_by = player_id
        arena.key = secrets.token_urlsafe(12) if private else None
        await self.store.add_arena(arena)
        return await self.standings.answer(arena, player_id)

    def _params(self, engine: AnyEngine, play: ArenaPlay, clock: str, rated: bool) -> Any:
        """An arena game's params; 400 ``bad_clock`` for a control the game has not or one
        that is not real-time."""
        if clock not in real_time_clocks(engine):
            why = f"an arena plays a real-time control, not {clock[:12]!r}"
            raise from_engine(BadParams("bad_clock", why))
        try:
            return play.arena_params(clock, rated)
        except EngineError as error:
            raise from_engine(error) from None

    def new_arena(
        self, game: str, clock: str, minutes: int, starts_ms: int, rated: bool, now_ms: int
    ) -> Arena:
        return Arena(
            id=secrets.token_urlsafe(9),
            engine=game,
            clock=clock,
            minutes=minutes,
            rated=rated,
            key=None,
            schedule=None,
            schedule_key=None,
            created_by=None,
            starts_ms=starts_ms,
            ends_ms=starts_ms + minutes * 60_000,
            created_ms=now_ms,
            started_told=False,
        )

    async def listed(self) -> list[ArenaSummary]:
        now = self.clock.now_ms()
        arenas = await self.store.listed_arenas(now, now - LISTED_AFTER_MS, now + LISTED_AHEAD_MS)
        counts = await self.store.player_counts([a.id for a in arenas])
        return [summary_of(a, counts.get(a.id, 0), now) for a in arenas]

    async def visible(self, arena_id: str, key: str | None, viewer: str | None) -> Arena:
        """The arena, for a viewer holding ``key`` (a private one's link) or who has
        joined it (their games link back to it): 404 ``arena_not_found``, 403
        ``arena_private``."""
        arena = await self.store.arena(arena_id)
        if arena is None:
            raise AppError(AppCode.ARENA_NOT_FOUND, "there is no such arena")
        if arena.key is None or (key and secrets.compare_digest(key, arena.key)):
            return arena
        if viewer is not None and await self.store.in_arena(arena.id, viewer):
            return arena
        raise AppError(AppCode.ARENA_PRIVATE, "this arena is private: open it by its link")

    async def read(self, arena_id: str, player_id: str | None, key: str | None) -> ArenaAnswer:
        return await self.standings.answer(await self.visible(arena_id, key, player_id), player_id)

    async def join(
        self, arena_id: str, player_id: str, address: str, key: str | None
    ) -> ArenaAnswer:
        """Join, or come back after a pause: 409 ``arena_over`` once it has ended; a rated
        arena admits whom rated play admits."""
        arena = await self.visible(arena_id, key, player_id)
        await self.admission.seeking(player_id, address)  # a join is a seek of sorts
        now = self.clock.now_ms()
        if now >= arena.ends_ms:
            raise AppError(AppCode.ARENA_OVER, "this arena is over")
        if arena.rated:
            await self.lifecycle.rated.check(player_id, arena.engine, address)
        await self.store.join_arena(arena.id, player_id, now)
        await self.changed(arena.id)
        self.wake.set()
        return await self.standings.answer(arena, player_id)

    async def pause(
        self, arena_id: str, player_id: str, address: str, key: str | None
    ) -> ArenaAnswer:
        """Not paired again until the player joins again (a game under way goes on)."""
        arena = await self.visible(arena_id, key, player_id)
        await self.admission.seeking(player_id, address)
        if not await self.store.pause_arena(arena.id, player_id):
            raise AppError(AppCode.NOT_IN_ARENA, "you have not joined this arena")
        await self.changed(arena.id)
        return await self.standings.answer(arena, player_id)

    async def berserk(self, game_id: str, player_id: str) -> Played:
        """The player halves their own clock in an arena game, before their first move:
        the engine's berserk move, played at the game's current version (again once if
        the opponent moved meanwhile: a berserk does not depend on the position)."""
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        play = arenas_of(engine)
        if play is None or game.arena_id is None:
            raise AppError(AppCode.NO_ARENAS, "this is not an arena game")
        move = engine.dump_move(play.berserk_move())
        for attempt in range(3):
            try:
                return await self.moves.play(game_id, player_id, game.version, move)
            except AppError as error:
                if error.code != AppCode.STALE_VERSION or attempt == 2:
                    raise
                game = await self.store.game(game_id)
        raise AssertionError("unreachable")

    # --- pairing --------------------------------------------------------------------------

    def game_over(self, game: Game, engine: AnyEngine, state: Any) -> None:
        """A game of an arena ended in this process: its standings changed, its players
        are free (paired at the director's next turn, at once). A player whose first move
        never came (the game aborted on their clock) is paused, as if they had left: an
        empty chair is not paired again until its player comes back and joins."""
        assert game.arena_id is not None
        self.standings.forget(game.arena_id)
        self.games_ended.add(game.arena_id)  # told at the director's next turn
        outcome = engine.outcome(state)
        never_moved = None
        if outcome is not None and outcome.reason == ABORTED:
            moved = engine.movers(state)
            never_moved = next((seat for seat in range(len(game.seats)) if seat not in moved), None)
        if never_moved is None:
            self.wake.set()
            return
        absent = (game.arena_id, str(game.seats[never_moved]))
        self.absent.add(absent)  # the director pairs again once the pause is written
        task = asyncio.create_task(self._pause_absent(*absent))
        self.pausing.add(task)
        task.add_done_callback(self.pausing.discard)

    async def _pause_absent(self, arena_id: str, player_id: str) -> None:
        try:
            if await self.store.pause_arena(arena_id, player_id):
                await self.changed(arena_id)
        except (SQLAlchemyError, OSError) as error:  # they stay in: paired, absent again
            log.warning("absent player of arena %s not paused: %s", arena_id, error)
        finally:
            self.absent.discard((arena_id, player_id))
            self.wake.set()

    async def pair(self, arena: Arena) -> list[Game]:
        """Pair the arena's free players, best ranked first (``engines.core.arena.pair``),
        in one committed transaction; then tell the pairings."""
        engine, play = self._play(arena.engine)
        params = play.arena_params(arena.clock, arena.rated)
        table = await self.standings.table(arena)
        if sum(1 for row in table.rows if not row.paused and row.playing is None) < 2:
            return []  # nobody to pair (as of half a second ago): no write transaction
        rank = table.places
        states: dict[str, Any] = {}

        def plan(
            locked: Arena, free: list[Entry], games: list[ArenaGameRow], busy: set[str]
        ) -> list[Game]:
            if self.clock.now_ms() >= locked.ends_ms:
                return []  # its time is up: no more pairing
            previous: dict[str, str] = {}
            for row in games:  # in the order they started: the last one wins
                previous[row.seats[0]], previous[row.seats[1]] = row.seats[1], row.seats[0]
            unranked = len(rank)  # joined since the standings were read: last
            entrants = [
                Entrant(e.player_id, rank.get(e.player_id, unranked), previous.get(e.player_id))
                for e in free
                if (arena.id, e.player_id) not in self.absent
            ]
            made = []
            for first, second in pair(entrants, others_playing=bool(busy)):
                seats: list[str | None] = [first, second]
                if secrets.randbelow(2):
                    seats.reverse()
                seed = secrets.randbelow(SEED_LIMIT)
                state = engine.new_game(params, seed)
                game = self.lifecycle.paired_row(arena.engine, engine, params, seed, state, seats)
                game.arena_id = arena.id
                states[game.id] = state
                made.append(game)
            return made

        games = await self.store.pair_arena(arena.id, plan)
        for game in games:
            self.moves.keep(game, states[game.id])
            players = [str(p) for p in game.seats]
            told = ArenaPaired(arena_id=arena.id, game_id=game.id, players=players)
            await self._publish(arena.id, told)
            for seat, player in enumerate(players):
                self.push.offer(
                    Notice(
                        "arena_paired", player, game.id, game.engine, players[1 - seat], seat, 2,
                        arena_id=arena.id,
                    )
                )  # fmt: skip
        if games:
            await self.changed(arena.id)
        return games

    # --- telling --------------------------------------------------------------------------

    async def changed(self, arena_id: str) -> None:
        """Tell the arena's sockets, in every process, that its standings changed."""
        self.standings.forget(arena_id)
        await self._publish(arena_id, ArenaChanged(arena_id=arena_id))

    async def _publish(self, arena_id: str, message: HubMessage) -> None:
        try:
            await self.hub.publish(channel(arena_id), message)
        except (RedisError, OSError, HubUnavailable) as exc:  # sockets re-read on reconnect
            log.warning("arena %s news not told: %s", arena_id, exc)
