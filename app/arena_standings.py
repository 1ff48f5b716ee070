"""An arena's standings (app/arenas.py): computed from the arena's stored games each time
(``engines.core.arena``), kept for STANDINGS_FRESH_MS per process unless they change,
computed once for every reader asking at the same moment, and encoded once for every
socket (each viewer's own row encoded again, with ``you``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from app.catalog import AnyEngine, Catalog, arenas_of
from app.clock import Clock
from app.models import Arena, GameStatus
from app.store import Store
from app.store.arenas import ArenaGameRow, Entry
from app.wire import ArenaAnswer, ArenaGameLine, ArenaMe, ArenaSummary, Standing
from app.workers import EngineWorkers
from engines.core.arena import ArenaGame, ArenaResult, performance, result_of, score_sheet
from engines.core.glicko2 import START_RATING

STANDINGS_FRESH_MS = 500  # standings computed at most this often per arena and process
ROW_FRESH_S = 1.0  # an arena's row read at most this often for its sockets
TALLIES_KEPT = 50_000  # finished games' tallies kept in memory (immutable)


def status_of(arena: Arena, now_ms: int) -> str:
    if now_ms < arena.starts_ms:
        return "upcoming"
    return "running" if now_ms < arena.ends_ms else "over"


@dataclass(frozen=True)
class Tally:
    """A finished arena game, seat by seat: each seat's result and arena play, the rating
    each seat's opponent had when the game was rated (None: it was not), and the server
    time at which it ended (a game ending after its arena counts for nothing)."""

    results: tuple[ArenaResult, ArenaResult]
    games: tuple[ArenaGame, ArenaGame]
    opponents_rated: tuple[float | None, float | None]
    ended_ms: int


def ratings_then(outcome: dict[str, Any]) -> tuple[float | None, float | None]:
    """Each seat's rating before the game, as its end stored it (``outcome.ratings``), or
    None for a game that was not rated."""
    seats = (outcome.get("ratings") or {}).get("seats") or []
    if len(seats) != 2:
        return (None, None)
    return (float(seats[0]["before"]), float(seats[1]["before"]))


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


def summary_of(arena: Arena, players: int, now_ms: int) -> ArenaSummary:
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


class Standings:
    """One process's standings of the arenas it is asked about."""

    def __init__(
        self, store: Store, catalog: Catalog, workers: EngineWorkers, clock: Clock
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.workers = workers
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.changes: dict[str, int] = {}  # per arena: how often this process saw it change
        self.last_news: dict[str, object] = {}  # per arena: the hub message last taken
        self.computing: dict[str, tuple[int, asyncio.Future[Table]]] = {}
        self.rows: dict[str, tuple[float, Arena]] = {}  # arena rows read lately, for sockets
        self.tallies: OrderedDict[str, Tally] = OrderedDict()

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
        summary = summary_of(arena, len(table.rows), self.clock.now_ms()).model_dump_json()
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
        (finished before the arena's end) in the order they were played."""
        engine = self.catalog.engine(arena.engine)
        # player → [(game id, their arena game, opponent, the opponent's rating then)]
        sheets: dict[str, list[tuple[str, ArenaGame, str, float | None]]] = {
            e.player_id: [] for e in entries
        }
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
                line = (row.id, tally.games[seat], row.seats[1 - seat], tally.opponents_rated[seat])
                sheets.setdefault(player, []).append(line)
        # An opponent's rating counts as it was when the game was rated; a game that was
        # not (a casual arena) counts the opponent's rating in the pool as it is now.
        unrated = {opp for played in sheets.values() for _, _, opp, then in played if then is None}
        ratings = await self._ratings(engine, arena, sorted(unrated)) if unrated else {}
        rows = []
        for entry in entries:
            played = sheets.get(entry.player_id, [])
            sheet = score_sheet([game for _, game, _, _ in played])
            perf = performance(
                [
                    (game.result, round(ratings.get(opp, START_RATING) if then is None else then))
                    for _, game, opp, then in played
                ]
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
                        for (game_id, _, _, _), scored in zip(played, sheet.games, strict=True)
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
        rated = ratings_then(row.outcome)
        ended_ms = row.ended_ms
        assert ended_ms is not None  # it has an outcome
        tally = Tally(
            results,
            tuple(  # type: ignore[arg-type]
                ArenaGame(results[s], seats[s].berserk, seats[s].long_enough) for s in (0, 1)
            ),
            (rated[1], rated[0]),  # each seat's opponent's
            ended_ms,
        )
        self.tallies[row.id] = tally
        while len(self.tallies) > TALLIES_KEPT:
            self.tallies.popitem(last=False)
        return tally

    async def _ratings(
        self, engine: AnyEngine, arena: Arena, players: list[str]
    ) -> dict[str, float]:
        """The players' current ratings in the arena's rating pool (its clock's), for the
        performance of games that were not rated."""
        play = arenas_of(engine)
        assert play is not None
        pool = engine.rating_pool(play.arena_params(arena.clock, True))
        if pool is None:
            return {}
        found = await self.store.ratings(arena.engine, pool, players)
        return {player: rating for player, (rating, _) in found.items()}

    def keep_only(self, live: set[str]) -> None:
        """Notes of arenas over for a minute are dropped (a reader of one computes its
        standings again)."""
        notes: dict[str, Any]
        for notes in (self.tables, self.changes, self.last_news, self.rows):
            for arena_id in [a for a in notes if a not in live]:
                del notes[arena_id]
