"""The move path: the only writer of a game's state and log.

Every change follows one path (lichess's round handling): load the game at the version
the client saw, check seat and status, run the engine (and the computer's replies), then
write the new log entries and the snapshot in ONE transaction guarded by the version
(``UPDATE ... WHERE version = :seen``; a unique ``(game_id, ply)`` backs it up), and only
after the commit publish to the hub. Engines run outside the transaction, so a slow
computer move never holds a database lock; a race is lost with a 409, never half-written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.catalog import AnyEngine, Catalog
from app.claims import ClaimPolicy
from app.clock import Clock
from app.commits import GroupCommit
from app.errors import AppError, from_engine
from app.honour import too_fast
from app.hub import Hub
from app.limits import Admission
from app.live import LiveGames
from app.metrics import MOVE_GAME_READS, move_count, move_seconds
from app.models import COMPUTER, Game, GameStatus, advanced
from app.push.sender import PushNotices
from app.snapshots import Snapshots, hub_views, outcome_of, seats_of, viewer_seat
from app.store import Store
from app.store.ratings import RatedEnd
from app.wire import CommittedStep, Event, HubMove
from app.workers import EngineWorkers
from engines.core.errors import AppCode
from engines.core.protocol import EngineError, Outcome

# A move on a game in one of these states is refused before the engine sees it. A
# finished game is the engine's to judge: some take moves after the end (Blocks'
# Continue), the others refuse them with ``game_over``.
CLOSED = {
    GameStatus.WAITING: (
        AppCode.WAITING_FOR_OPPONENT,
        "the game starts when a second player joins",
    ),
    GameStatus.CANCELLED: (AppCode.GAME_CANCELLED, "this game was cancelled before it started"),
}


@dataclass(frozen=True)
class LogEntry:
    seat: int | None
    move: dict[str, Any] | None  # None for a clock tick
    at_ms: int


@dataclass
class Step:
    """What a change produced: new log entries, events, and the resulting state."""

    state: Any
    entries: list[LogEntry] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Played:
    game: Game
    state: Any
    events: list[Event]
    from_version: int  # the version the change was made on


@dataclass
class MoveLabels:
    game: str = "unknown"  # until the game is found


class MovePath:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        hub: Hub,
        clock: Clock,
        catalog: Catalog,
        snapshots: Snapshots,
        claims: ClaimPolicy,
        workers: EngineWorkers,
        admission: Admission,
        notices: PushNotices,
    ) -> None:
        self.notices = notices
        self.workers = workers
        self.admission = admission
        self.commits = GroupCommit(store)
        self.store = store
        self.live = live
        self.hub = hub
        self.clock = clock
        self.catalog = catalog
        self.snapshots = snapshots
        self.claims = claims
        # Told of every committed end of an arena's game (set by app/arenas.py).
        self.arena_game_over: Callable[[Game, AnyEngine, Any], None] | None = None

    async def play(
        self,
        game_id: str,
        player_id: str | None,
        version: int,
        raw_move: Mapping[str, Any],
        from_memory: bool = True,
    ) -> Played:
        """Check a move against the seat, the status and the version, play it (and the
        computer's replies), commit and publish; counted and timed (app/metrics.py)."""
        started = time.perf_counter()
        seen = MoveLabels()
        try:
            played = await self._attempt(game_id, player_id, version, raw_move, seen, from_memory)
        except AppError as error:
            move_count(seen.game, error.code).inc()
            raise
        except Exception:
            move_count(seen.game, "failed").inc()
            raise
        move_count(seen.game, "accepted").inc()
        move_seconds(seen.game).observe(time.perf_counter() - started)
        return played

    async def _attempt(
        self,
        game_id: str,
        player_id: str | None,
        version: int,
        raw_move: Mapping[str, Any],
        seen: MoveLabels,
        from_memory: bool = True,
    ) -> Played:
        live = self.live.at_version(game_id, version) if from_memory else None
        MOVE_GAME_READS.labels("memory" if live else "database").inc()
        game = live.game if live else await self.store.game(game_id)
        seen.game = game.engine
        engine = self.catalog.engine(game.engine)
        state = live.state if live else await self.workers.load(engine, game)
        mine = seats_of(game, player_id)
        if not mine:
            raise AppError(AppCode.NOT_SEATED, "you do not hold a seat in this game")
        if game.status == GameStatus.WAITING:
            raise AppError(*CLOSED[GameStatus.WAITING])
        if version != game.version:
            raise self._stale(game, engine, state, player_id)
        if game.status in CLOSED:
            raise AppError(*CLOSED[GameStatus(game.status)])
        try:  # parsed first: the checks below read a type the engine has accepted
            move = engine.parse_move(raw_move)
        except EngineError as error:
            raise from_engine(error) from None
        kind = raw_move["type"]
        if kind == "claim":
            await self.claims.check(game, engine, mine)
        if kind in engine.paced_moves:
            await self.admission.pacing(game_id)
        try:
            step = await self._play(game, engine, state, move, mine)
        except EngineError as error:
            if live:  # memory may be behind another process: the database decides
                return await self._attempt(
                    game_id, player_id, version, raw_move, seen, from_memory=False
                )
            raise from_engine(error) from None
        game, state = await self.commit(game, engine, step)
        return Played(game, state, step.events, from_version=version)

    def keep(self, game: Game, state: Any) -> None:
        """A game that has just started: kept, so that its first move reads nothing (a
        burst of new games would otherwise queue for the database pool)."""
        self.live.remember(game, state)

    async def current(self, game: Game) -> tuple[Game, Any]:
        """A game and its state as of now: a time-based ending that is due (a countdown
        run out) is committed first, as a log entry of its own."""
        engine = self.catalog.engine(game.engine)
        state = await self.workers.load(engine, game)
        if game.status != GameStatus.ACTIVE:
            return game, state
        at_ms = self.clock.now_ms() - game.started_ms
        ticked, events = engine.tick(state, at_ms)
        if not events:
            self.live.offer(game, state)
            return game, state
        try:
            return await self.commit(
                game, engine, Step(ticked, [LogEntry(None, None, at_ms)], list(events))
            )
        except AppError:  # someone else changed it meanwhile: show theirs
            return await self.current(await self.store.game(game.id))

    async def opening(self, game: Game, engine: AnyEngine, state: Any) -> Played:
        """A new game, after the computer's first moves when it opens."""
        opened_at = game.version
        step = await self._computer_replies(game, engine, Step(state), 0)
        if step.entries:
            game, state = await self.commit(game, engine, step)
        return Played(game, state, step.events, from_version=opened_at)

    async def _play(
        self, game: Game, engine: AnyEngine, state: Any, move: Any, mine: list[int]
    ) -> Step:
        at_ms = self.clock.now_ms() - game.started_ms
        state, events = engine.tick(state, at_ms)
        step = Step(state, [LogEntry(None, None, at_ms)] if events else [], list(events))
        seat = viewer_seat(engine, state, mine)
        assert seat is not None
        try:
            step.state, move_events = engine.apply(state, move, at_ms, seat)
        except EngineError as error:
            if engine.outcome(state) is None or not step.entries:
                raise
            # The clock ended the game before this move arrived (a flag): the flag is
            # committed (the version guard decides against a sweeper's), the move refused.
            await self.commit(game, engine, step)
            raise from_engine(error) from None
        step.entries.append(LogEntry(seat, engine.dump_move(move), at_ms))
        step.events += move_events
        return await self._computer_replies(game, engine, step, at_ms)

    async def _computer_replies(
        self, game: Game, engine: AnyEngine, step: Step, at_ms: int
    ) -> Step:
        """The server plays the computer's seats itself, right away, as logged moves
        (thought out in the worker pool, applied here)."""
        state = step.state
        while engine.outcome(state) is None:
            turn = engine.to_move(state)
            if turn is None or game.seats[turn] != COMPUTER:
                break
            reply = await self.workers.computer_move(engine, state)
            at_ms = max(at_ms, self.clock.now_ms() - game.started_ms)
            state, reply_events = engine.apply(state, reply, at_ms, turn)
            step.entries.append(LogEntry(turn, engine.dump_move(reply), at_ms))
            step.events.extend(reply_events)
        step.state = state
        return step

    def _stale(self, game: Game, engine: AnyEngine, state: Any, player_id: str | None) -> AppError:
        current = self.snapshots.snapshot(game, engine, state, player_id)
        return AppError(
            AppCode.STALE_VERSION,
            f"the game is at version {game.version}; reload and try again",
            extra={"current": current.model_dump(mode="json")},
        )

    async def commit(self, game: Game, engine: AnyEngine, step: Step) -> tuple[Game, Any]:
        """Write a step under the version guard, then publish it. Returns the new row."""
        outcome = engine.outcome(step.state)
        now = self.clock.now_ms()
        seen = game.version
        values: dict[str, Any] = {
            "version": seen + len(step.entries),
            "state": engine.dump_state(step.state),
            "status": (GameStatus.OVER if outcome else GameStatus.ACTIVE).value,
            "outcome": outcome.to_json() if outcome else None,
            # The best seat's score, in the engine's order (boards of honour sort by it).
            "score": best_score(engine, outcome),
            "updated_ms": now,
            "deadline_ms": deadline_of(engine, game, step.state),
        }
        entries = [
            {"game_id": game.id, "ply": seen + i + 1, "seat": e.seat, "move": e.move,
             "at_ms": e.at_ms}
            for i, e in enumerate(step.entries)
        ]  # fmt: skip
        if outcome and game.daily is not None and engine.honour_pace is not None:
            # Judged on every ending: written by the same guarded UPDATE that ends it.
            values["too_fast"] = await too_fast(self.store, engine.honour_pace, game, entries)
        record = engine.record(step.state) if outcome else None
        rated = rated_end(engine, game, step.state) if outcome else None
        if rated is not None:
            changed = await self.store.advance_rated(game, values, entries, rated, now)
            written = changed is not None
            if changed is not None:
                values["outcome"] = changed  # with the rating change
        else:
            written = await self.commits.advance(
                game, values, entries, record, now, engine.score_order
            )
        if not written:
            self.live.forget(game.id)
            fresh = await self.store.game(game.id)
            raise self._stale(fresh, engine, await self.workers.load(engine, fresh), None)
        game = advanced(game, values)
        self.live.remember(game, step.state)
        # while it goes on, other processes' copies of the game follow it (app/live.py)
        committed = None if outcome else CommittedStep.of(entries, now, game.deadline_ms)
        await self.hub.publish(
            game.id,
            HubMove.of(
                from_version=seen,
                version=game.version,
                events=step.events,
                status=GameStatus(game.status),
                outcome=outcome_of(game),
                views=hub_views(engine, game, step.state),
                server_ms=now - game.started_ms,
                step=committed,
            ),
        )
        movers = {entry.seat for entry in step.entries if entry.seat is not None}
        if movers:  # after the commit, never waiting: a notice is only queued
            self.notices.moved(game, engine, step.state, movers)
        if outcome and game.arena_id is not None and self.arena_game_over is not None:
            self.arena_game_over(game, engine, step.state)  # its arena pairs its players again
        return game, step.state


def rated_end(engine: AnyEngine, game: Game, state: Any) -> RatedEnd | None:
    """A rated game between two players that ``state`` ends, or None."""
    pool = engine.rating_pool(engine.params_of(state))
    holders = game.seats
    if pool is None or len(holders) != 2 or None in holders or COMPUTER in holders:
        return None
    first, second = str(holders[0]), str(holders[1])
    if first == second:
        return None
    outcome = engine.outcome(state)
    winner = outcome.winner if outcome else None
    both_moved = engine.movers(state) >= {0, 1}
    return RatedEnd(game.engine, pool, (first, second), winner, both_moved)


def deadline_of(engine: AnyEngine, game: Game, state: Any) -> int | None:
    """Server epoch ms at which the game's clock ends it (the sweeper's key), if any."""
    at_ms = engine.deadline(state)
    return None if at_ms is None else game.started_ms + at_ms


def best_score(engine: AnyEngine, outcome: Outcome | None) -> int | None:
    """The stored ``games.score``: the best seat's score by the engine's order."""
    return engine.score_order.best(outcome.scores) if outcome and outcome.scores else None
