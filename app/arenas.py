"""Arena tournaments (after lichess's): a game and a time control for a fixed length;
players join at any moment, are paired again as soon as a game of theirs ends, and the
standings move live.

What is stored is what happened: the arena, who joined (and who paused), and the games it
paired (``games.arena_id``). The standings are computed from those games every time
(``engines.core.arena``: points, fire, berserk), so they cannot drift from the games, and
a process killed mid-arena loses nothing: its games carry their deadlines and are ended
by any other process's flag sweeper; its pairings were committed with their games.

Every process runs ``run_forever``: it makes the site's scheduled arenas, tells an
arena's start once (whichever process wins the guarded write), and pairs the free players
of every running arena each ``arena_pair_every_ms`` and at once when a game of an arena
ends in this process. Pairings of one arena take turns (``app/store/arenas.py``). An
arena's status is a function of the time alone: it ends on time with every socket silent;
games still running then finish, but count for nothing.

Changes are told on the hub channel ``arena:<id>`` (``ArenaChanged``, ``ArenaPaired``),
which the arena sockets (``app/arena_socket.py``) follow.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.catalog import AnyEngine, Catalog, arenas_of
from app.clock import Clock
from app.config import Settings
from app.errors import AppError, from_engine
from app.hub import Hub, HubUnavailable
from app.lifecycle import Lifecycle
from app.limits import Admission
from app.models import Arena, Game, GameStatus
from app.moves import MovePath, Played
from app.outage import is_outage
from app.push.notices import Notice
from app.push.sender import PushNotices
from app.seeks import real_time_clocks
from app.store import Store
from app.store.arenas import ArenaGameRow, Entry
from app.wire import (
    ArenaAnswer,
    ArenaChanged,
    ArenaGameLine,
    ArenaMe,
    ArenaPaired,
    ArenaSummary,
    HubMessage,
    Standing,
)
from app.workers import EngineWorkers
from engines.core.arena import (
    ArenaGame,
    ArenaResult,
    Entrant,
    pair,
    performance,
    result_of,
    score_sheet,
)
from engines.core.errors import AppCode
from engines.core.glicko2 import START_RATING
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import ABORTED, ArenaPlay, BadParams, EngineError

log = logging.getLogger("app.arenas")

MIN_MINUTES, MAX_MINUTES = 3, 120
AHEAD_MOST_MS = 7 * 24 * 3600_000  # an arena starts at most a week ahead
LISTED_AHEAD_MS = 24 * 3600_000  # the list shows the next day's arenas
LISTED_AFTER_MS = 3 * 3600_000  # and those that ended in the last three hours
STANDINGS_FRESH_MS = 500  # standings computed at most this often per arena and process
ROW_FRESH_S = 1.0  # an arena's row read at most this often for its sockets
SCHEDULE_EVERY_S = 30.0
TALLIES_KEPT = 50_000  # finished games' tallies kept in memory (immutable)
HOUR_MS = 3600_000


def channel(arena_id: str) -> str:
    """The hub channel an arena's news is told on."""
    return f"arena:{arena_id}"


def status_of(arena: Arena, now_ms: int) -> str:
    if now_ms < arena.starts_ms:
        return "upcoming"
    return "running" if now_ms < arena.ends_ms else "over"


@dataclass(frozen=True)
class Tally:
    """A finished arena game, seat by seat: each seat's result and arena play, and the
    server time at which it ended (a game ending after its arena counts for nothing)."""

    results: tuple[ArenaResult, ArenaResult]
    games: tuple[ArenaGame, ArenaGame]
    ended_ms: int


@dataclass(frozen=True)
class Row:
    """A player's line of the standings, before it is shown to a viewer."""

    player_id: str
    name: str | None
    score: int
    fire: bool
    paused: bool
    playing: str | None  # the game under way
    performance: int | None
    games: tuple[ArenaGameLine, ...]


@dataclass(frozen=True)
class Table:
    """An arena's standings, best first, as computed at ``at`` (``time.monotonic``), and
    each row's JSON as a stranger sees it (``you`` false): encoded once, whoever reads
    them (a change sends the table to every socket of the arena)."""

    rows: tuple[Row, ...]
    at: float
    encoded: tuple[str, ...]
    places: dict[str, int]  # player id → index in rows

    @classmethod
    def of(cls, rows: list[Row]) -> Table:
        encoded = tuple(
            standing(rank, row, False).model_dump_json() for rank, row in enumerate(rows, 1)
        )
        places = {row.player_id: i for i, row in enumerate(rows)}
        return cls(tuple(rows), time.monotonic(), encoded, places)


def standing(rank: int, row: Row, you: bool) -> Standing:
    return Standing(
        rank=rank,
        name=row.name,
        you=you,
        score=row.score,
        fire=row.fire,
        paused=row.paused,
        playing=row.playing is not None,
        performance=row.performance,
        games=list(row.games),
    )


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
        self.tables: dict[str, Table] = {}
        self.changes: dict[str, int] = {}  # per arena: how often this process saw it change
        self.last_news: dict[str, object] = {}  # per arena: the hub message last taken
        self.computing: dict[str, tuple[int, asyncio.Future[Table]]] = {}
        self.rows: dict[str, tuple[float, Arena]] = {}  # arena rows read lately, for sockets
        self.tallies: OrderedDict[str, Tally] = OrderedDict()
        self.wake = asyncio.Event()  # a game of an arena ended here: pair now
        self.games_ended: set[str] = set()  # arenas with a game ended here, not yet told
        self.ended_told: set[str] = set()  # arenas whose end this process has told
        self.pausing: set[asyncio.Task[None]] = set()
        self._stopping = False
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
        arena = self._arena(game, clock, minutes, max(starts, now), rated, now)
        arena.created_by = player_id
        arena.key = secrets.token_urlsafe(12) if private else None
        await self.store.add_arena(arena)
        return await self.answer(arena, player_id)

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

    def _arena(
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
        return [self.summary(a, counts.get(a.id, 0), now) for a in arenas]

    def summary(self, arena: Arena, players: int, now_ms: int) -> ArenaSummary:
        return ArenaSummary(
            id=arena.id,
            game=arena.engine,
            clock=arena.clock,
            minutes=arena.minutes,
            rated=arena.rated,
            private=arena.key is not None,
            schedule=arena.schedule,
            starts_at=arena.starts_ms,
            ends_at=arena.ends_ms,
            status=status_of(arena, now_ms),  # type: ignore[arg-type]
            players=players,
            server_ms=now_ms,
        )

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
        return await self.answer(await self.visible(arena_id, key, player_id), player_id)

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
        await self._changed(arena.id)
        self.wake.set()
        return await self.answer(arena, player_id)

    async def pause(
        self, arena_id: str, player_id: str, address: str, key: str | None
    ) -> ArenaAnswer:
        """Not paired again until the player joins again (a game under way goes on)."""
        arena = await self.visible(arena_id, key, player_id)
        await self.admission.seeking(player_id, address)
        if not await self.store.pause_arena(arena.id, player_id):
            raise AppError(AppCode.NOT_IN_ARENA, "you have not joined this arena")
        await self._changed(arena.id)
        return await self.answer(arena, player_id)

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

    # --- standings ------------------------------------------------------------------------

    async def answer(self, arena: Arena, viewer: str | None) -> ArenaAnswer:
        """The arena with its standings, as ``viewer`` sees them."""
        return ArenaAnswer.model_validate_json(await self.answer_json(arena, viewer))

    async def answer_json(self, arena: Arena, viewer: str | None) -> str:
        """``answer`` as its JSON, put together from the table's rows encoded once (the
        viewer's own row encoded again, with ``you``)."""
        table = await self.table(arena)
        place = table.places.get(viewer) if viewer else None
        mine = table.rows[place] if place is not None else None
        rows = list(table.encoded)
        if mine is not None and place is not None:
            rows[place] = standing(place + 1, mine, True).model_dump_json()
        me = ArenaMe(
            joined=mine is not None,
            paused=mine.paused if mine else False,
            game_id=mine.playing if mine else None,
        )
        link = f"/arenas/{arena.id}?key={arena.key}" if arena.key is not None else None
        summary = self.summary(arena, len(table.rows), self.clock.now_ms()).model_dump_json()
        return (
            f'{summary[:-1]},"standings":[{",".join(rows)}],'
            f'"me":{me.model_dump_json()},"link":{json.dumps(link)}}}'
        )

    async def row(self, arena: Arena) -> Arena:
        """``arena``'s row as stored, read at most once a second for every socket of this
        process (its end can be moved by an operator; its start is told in it)."""
        known = self.rows.get(arena.id)
        if known is not None and time.monotonic() - known[0] < ROW_FRESH_S:
            return known[1]
        fresh = await self.store.arena(arena.id) or arena
        self.rows[arena.id] = (time.monotonic(), fresh)
        return fresh

    def news(self, arena_id: str, message: object) -> None:
        """An arena's hub message reached this process: it comes to every socket of the
        arena here (the same object), and one of them is enough to have the standings
        computed again, once, for all of them."""
        if self.last_news.get(arena_id) is not message:
            self.last_news[arena_id] = message
            self.forget(arena_id)

    def forget(self, arena_id: str) -> None:
        """The arena's standings changed: the next reader computes them again (and a
        computation begun before the change is not kept)."""
        self.tables.pop(arena_id, None)
        self.changes[arena_id] = self.changes.get(arena_id, 0) + 1

    async def table(self, arena: Arena) -> Table:
        """The standings: kept for STANDINGS_FRESH_MS unless they change; computed once
        for every reader asking at the same moment (a change wakes every socket of the
        arena at once), in a task a reader that goes away does not cancel."""
        cached = self.tables.get(arena.id)
        if cached is not None and time.monotonic() - cached.at < STANDINGS_FRESH_MS / 1000:
            return cached
        seen = self.changes.get(arena.id, 0)
        running = self.computing.get(arena.id)
        if running is None or running[0] != seen:
            running = (seen, asyncio.ensure_future(self._fresh(arena, seen)))
            self.computing[arena.id] = running
            running[1].add_done_callback(lambda task: self._done(arena.id, task))
        return await asyncio.shield(running[1])

    def _done(self, arena_id: str, task: asyncio.Future[Table]) -> None:
        running = self.computing.get(arena_id)
        if running is not None and running[1] is task:
            del self.computing[arena_id]

    async def _fresh(self, arena: Arena, seen: int) -> Table:
        entries = await self.store.entries(arena.id)
        games = await self.store.arena_games(arena.id)
        table = await self._compute(arena, entries, games)
        if self.changes.get(arena.id, 0) == seen:  # no change while it was computed
            self.tables[arena.id] = table
        return table

    async def _compute(
        self, arena: Arena, entries: list[Entry], games: list[ArenaGameRow]
    ) -> Table:
        """The standings from the games themselves: each player's sheet of counted games
        (finished before the arena's end) in the order they started."""
        engine = self.catalog.engine(arena.engine)
        sheets: dict[str, list[tuple[str, ArenaGame, str]]] = {e.player_id: [] for e in entries}
        playing: dict[str, str] = {}
        for row in games:
            if row.status in (GameStatus.WAITING, GameStatus.ACTIVE):
                for player in row.seats:
                    playing[player] = row.id
                continue
            tally = await self._tally(engine, row)
            if tally is None or tally.ended_ms > arena.ends_ms:
                continue
            for seat, player in enumerate(row.seats):
                opponent = row.seats[1 - seat]
                sheets.setdefault(player, []).append((row.id, tally.games[seat], opponent))
        ratings = await self._ratings(engine, arena, list(sheets))
        rows = []
        for entry in entries:
            played = sheets.get(entry.player_id, [])
            sheet = score_sheet([game for _, game, _ in played])
            perf = performance(
                [(game.result, round(ratings.get(opp, START_RATING))) for _, game, opp in played]
            )
            rows.append(
                Row(
                    player_id=entry.player_id,
                    name=entry.name,
                    score=sheet.score,
                    fire=sheet.fire,
                    paused=entry.paused,
                    playing=playing.get(entry.player_id),
                    performance=perf,
                    games=tuple(
                        ArenaGameLine(
                            game_id=game_id,
                            result=scored.result.value,
                            points=scored.points,
                            fire=scored.fire,
                            berserk=scored.berserk,
                        )
                        for (game_id, _, _), scored in zip(played, sheet.games, strict=True)
                    ),
                )
            )
        joined = {e.player_id: i for i, e in enumerate(entries)}
        rows.sort(key=lambda r: (-r.score, -(r.performance or 0), joined[r.player_id]))
        return Table.of(rows)

    async def _tally(self, engine: AnyEngine, row: ArenaGameRow) -> Tally | None:
        """A finished game's tally (kept: a finished game never changes)."""
        known = self.tallies.get(row.id)
        if known is not None:
            return known
        play = arenas_of(engine)
        if play is None or row.outcome is None:
            return None
        game = await self.store.game(row.id)
        state = await self.workers.load(engine, game)
        winner = row.outcome.get("winner")
        movers = engine.movers(state)
        results = (result_of(winner, 0, movers), result_of(winner, 1, movers))
        seats = (play.arena_seat(state, 0), play.arena_seat(state, 1))
        tally = Tally(
            results,
            tuple(  # type: ignore[arg-type]
                ArenaGame(results[s], seats[s].berserk, seats[s].long_enough) for s in (0, 1)
            ),
            row.started_ms + int(row.outcome.get("time_ms") or 0),
        )
        self.tallies[row.id] = tally
        while len(self.tallies) > TALLIES_KEPT:
            self.tallies.popitem(last=False)
        return tally

    async def _ratings(
        self, engine: AnyEngine, arena: Arena, players: list[str]
    ) -> dict[str, float]:
        """The players' ratings in the arena's rating pool (its clock's), for performance."""
        play = arenas_of(engine)
        assert play is not None
        pool = engine.rating_pool(play.arena_params(arena.clock, True))
        if pool is None:
            return {}
        found = await self.store.ratings(arena.engine, pool, players)
        return {player: rating for player, (rating, _) in found.items()}

    # --- pairing --------------------------------------------------------------------------

    def game_over(self, game: Game, engine: AnyEngine, state: Any) -> None:
        """A game of an arena ended in this process: its standings changed, its players
        are free (paired at the director's next turn, at once). A player whose first move
        never came (the game aborted on their clock) is paused, as if they had left: an
        empty chair is not paired again until its player comes back and joins."""
        assert game.arena_id is not None
        self.forget(game.arena_id)
        self.games_ended.add(game.arena_id)  # told at the director's next turn
        self.wake.set()
        outcome = engine.outcome(state)
        if outcome is not None and outcome.reason == ABORTED:
            missing = [seat for seat in range(len(game.seats)) if seat not in engine.movers(state)]
            if missing:
                absent = str(game.seats[missing[0]])
                task = asyncio.create_task(self._pause_absent(game.arena_id, absent))
                self.pausing.add(task)
                task.add_done_callback(self.pausing.discard)

    async def _pause_absent(self, arena_id: str, player_id: str) -> None:
        try:
            if await self.store.pause_arena(arena_id, player_id):
                await self._changed(arena_id)
        except (SQLAlchemyError, OSError) as error:  # they stay in: paired, absent again
            log.warning("absent player of arena %s not paused: %s", arena_id, error)

    async def pair(self, arena: Arena) -> list[Game]:
        """Pair the arena's free players, best ranked first (``engines.core.arena.pair``),
        in one committed transaction; then tell the pairings."""
        engine, play = self._play(arena.engine)
        params = play.arena_params(arena.clock, arena.rated)
        table = await self.table(arena)
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
            await self._changed(arena.id)
        return games

    # --- the director: every process runs one ---------------------------------------------

    async def run_forever(self) -> None:
        every_s = self.settings.arena_pair_every_ms / 1000
        scheduled_at = 0.0
        while not self._stopping:
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
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=every_s)
            except TimeoutError:
                pass

    def stop(self) -> None:
        self._stopping = True
        self.wake.set()

    async def turn(self) -> None:
        """One look at the live arenas: tell a start and an end once, pair the free."""
        now = self.clock.now_ms()
        live = await self.store.live_arenas(now)
        self._keep_only({arena.id for arena in live})
        for arena in live:
            if now >= arena.ends_ms:
                self.games_ended.discard(arena.id)  # games ending after it: silence
                if arena.id not in self.ended_told:
                    self.ended_told.add(arena.id)
                    self.forget(arena.id)
                    await self._changed(arena.id)
                continue
            if not arena.started_told and await self.store.mark_started_told(arena.id):
                await self._tell_start(arena)
            ended_here = arena.id in self.games_ended
            self.games_ended.discard(arena.id)
            if not await self.pair(arena) and ended_here:
                await self._changed(arena.id)  # a game's end is news even when nobody is paired

    def _keep_only(self, live: set[str]) -> None:
        """This process's notes of arenas over for a minute are dropped (a reader of one
        computes its standings again)."""
        notes: dict[str, Any]
        for notes in (self.tables, self.changes, self.last_news, self.rows):
            for arena_id in [a for a in notes if a not in live]:
                del notes[arena_id]
        self.ended_told &= live
        self.games_ended &= live

    async def _tell_start(self, arena: Arena) -> None:
        await self._changed(arena.id)
        for entry in await self.store.entries(arena.id):
            if not entry.paused:
                self.push.offer(
                    Notice(
                        "arena_started", entry.player_id, arena.id, arena.engine,
                        entry.player_id, 0, 1, arena_id=arena.id,
                    )
                )  # fmt: skip

    async def schedule(self) -> None:
        """The site's own arenas (``arena_hourly``, ``arena_evening``): the one under way
        and the next, in the server's timezone; each made once by whichever process is
        first (its ``schedule_key``)."""
        now = self.clock.now_ms()
        local = dt.datetime.fromtimestamp(now / 1000).astimezone()
        hour = local.replace(minute=0, second=0, microsecond=0)
        evening = hour.replace(hour=self.settings.arena_evening_hour)
        wanted = [
            ("hourly", self.settings.arena_hourly, hour),
            ("hourly", self.settings.arena_hourly, hour + dt.timedelta(hours=1)),
            ("evening", self.settings.arena_evening, evening),
            ("evening", self.settings.arena_evening, evening + dt.timedelta(days=1)),
        ]
        for kind, spec, start in wanted:
            if not spec:
                continue
            clock, _, minutes = spec.partition("/")
            starts = int(start.timestamp() * 1000)
            if starts + int(minutes) * 60_000 <= now:
                continue
            for game in self.catalog.engines:
                engine = self.catalog.engines[game]
                play = arenas_of(engine)
                if play is None or clock not in real_time_clocks(engine):
                    continue
                arena = self._arena(game, clock, int(minutes), starts, False, now)
                arena.schedule = kind
                arena.schedule_key = f"{game}:{kind}:{starts}"
                await self.store.add_arena(arena)

    # --- telling --------------------------------------------------------------------------

    async def _changed(self, arena_id: str) -> None:
        self.forget(arena_id)
        await self._publish(arena_id, ArenaChanged(arena_id=arena_id))

    async def _publish(self, arena_id: str, message: HubMessage) -> None:
        try:
            await self.hub.publish(channel(arena_id), message)
        except (RedisError, OSError, HubUnavailable) as exc:  # sockets re-read on reconnect
            log.warning("arena %s news not told: %s", arena_id, exc)


