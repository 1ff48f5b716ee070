"""The one place a game changes: create, load (with clock ticks), move, join.

Every change follows one path (lichess's round handling): read the game, check seat and
version, run the engine, then write the new log entries and the snapshot in ONE
transaction guarded by the version (``UPDATE ... WHERE version = :seen``; a unique
``(game_id, ply)`` backs it up), and only after the commit publish to the hub. Engines run
outside the transaction, so a slow computer move never holds a database lock; a race
is lost with a 409, never half-written.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from app.db import make_sessionmaker
from app.errors import AppError, from_engine, not_found
from app.hub import Hub
from app.models import Daily, Game, Move, Player
from app.presence import LocalPresence, Presence
from app.records import update_record
from app.upsert import insert_ignore
from engines.core.daily import daily_seed, parse_date
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import Engine, EngineError, Outcome, SeatKind

COMPUTER = "computer"
# Active games whose latest state this process keeps. A state holds its board (up to
# 1.1 MB for Triangles), so this is bounded like that engine's own board cache.
LIVE_GAMES = 1024

# The move path's statements, built once: SQLAlchemy then reuses their compiled form
# instead of building, hashing and coercing a new statement for every move.
ADVANCE_GAME = update(Game.__table__).where(
    Game.__table__.c.id == bindparam("game_id"),
    Game.__table__.c.version == bindparam("seen"),
)
APPEND_MOVES = insert(Move.__table__)


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class LogEntry:
    seat: int | None
    move: dict[str, Any] | None  # None for a clock tick
    at_ms: int


@dataclass
class Live:
    """An active game as this process last wrote or read it: its row and its state."""

    game: Game
    state: Any


@dataclass
class Step:
    """What a change produced: new log entries, events, and the resulting state."""

    state: Any
    entries: list[LogEntry]
    events: list[dict[str, Any]]


def seats_of(game: Game, player_id: str | None) -> list[int]:
    return [i for i, holder in enumerate(game.seats) if player_id and holder == player_id]


class GameService:
    def __init__(
        self,
        db: AsyncEngine,
        hub: Hub,
        clock: Clock,
        engines: Mapping[str, Engine[Any, Any, Any]],
        presence: Presence | None = None,
        away_claim_ms: int = 60_000,
        serialize_writes: bool = False,
    ) -> None:
        self.db = db
        self.sessions = make_sessionmaker(db)
        self.hub = hub
        self.clock = clock
        self.engines = engines
        self.presence = presence or LocalPresence()
        self.away_claim_ms = away_claim_ms
        self._write_turn: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if serialize_writes else nullcontext()
        )
        self._live: OrderedDict[str, Live] = OrderedDict()

    # --- helpers -------------------------------------------------------------------

    def engine(self, name: str) -> Engine[Any, Any, Any]:
        engine = self.engines.get(name)
        if engine is None:
            raise AppError(404, "unknown_game", f"there is no game called {name[:40]!r}")
        return engine

    async def _get(self, session: AsyncSession, game_id: str, lock: bool = False) -> Game:
        """The game row (locked for this transaction with ``lock``), or a 404."""
        if len(game_id) > 16 or not game_id.replace("-", "").replace("_", "").isalnum():
            raise not_found()  # ids are url-safe tokens; anything else (a NUL byte…) is none
        query = select(Game).where(Game.id == game_id)
        game = await session.scalar(query.with_for_update() if lock else query)
        if game is None:
            raise not_found()
        return game

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a write transaction, committed at the end of the block.

        With SQLite, writers in this process take turns on an asyncio lock: SQLite admits
        one writer at a time anyway, and its busy handler would otherwise make waiting
        writers sleep in steps of up to 100 ms.
        """
        async with self._write_turn:
            async with self.sessions() as session:
                async with session.begin():
                    yield session

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A bare connection in a write transaction, for the move path's Core statements
        (no ORM session to build and tear down per move); same turn-taking as above."""
        async with self._write_turn:
            async with self.db.begin() as connection:
                yield connection

    def today(self) -> dt.date:
        """The server's date, in UTC (daily boards change at 00:00 UTC)."""
        return dt.datetime.fromtimestamp(self.clock.now_ms() / 1000, dt.UTC).date()

    async def ensure_player(self, session: AsyncSession, player_id: str) -> None:
        await session.execute(
            insert_ignore(session, Player, {"id": player_id, "created_ms": self.clock.now_ms()})
        )

    async def names(self, game: Game) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            ids = [s for s in game.seats if s and s != COMPUTER]
            rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
            names = dict(rows.all())
        return [
            {
                "kind": "open" if holder is None else COMPUTER if holder == COMPUTER else "player",
                "name": names.get(holder) if holder and holder != COMPUTER else None,
            }
            for holder in game.seats
        ]

    def viewer_seat(
        self, engine: Engine[Any, Any, Any], state: Any, mine: Sequence[int]
    ) -> int | None:
        if not mine:
            return None
        turn = engine.to_move(state)
        return turn if turn in mine else mine[0]

    def views(self, engine: Engine[Any, Any, Any], game: Game, state: Any) -> dict[str, Any]:
        """The spectators' view as ``"public"`` and, in a game with hidden information,
        each seat's own view, keyed ``"0"``, ``"1"``…"""
        views: dict[str, Any] = {"public": engine.view(state, None)}
        if engine.view_by_seat:
            for seat in range(len(game.seats)):
                views[str(seat)] = engine.view(state, seat)
        return views

    # --- create ----------------------------------------------------------------------

    async def create(
        self,
        player_id: str,
        game_name: str,
        raw_params: Mapping[str, Any] | None,
        number: str | None,
        daily: str | None,
        public: bool,
    ) -> dict[str, Any]:
        engine = self.engine(game_name)
        raw = dict(raw_params or {})
        daily_key = None
        try:
            if daily is not None:
                params, seed = self._daily(engine, game_name, raw, daily)
                if engine.daily_once(params):
                    daily_key = f"{game_name}:{daily}"
            elif number is not None:
                params, seed = self._numbered(engine, number, raw)
            else:
                params = engine.parse_params(raw)
                seed = secrets.randbelow(SEED_LIMIT)
            state = engine.new_game(params, seed)
        except EngineError as error:
            raise from_engine(error) from None

        seat_kinds = engine.seats(params)
        seats: list[str | None] = [
            player_id if kind is SeatKind.OWNER else COMPUTER if kind is SeatKind.COMPUTER else None
            for kind in seat_kinds
        ]
        game = self._new_row(
            game_name,
            engine,
            params,
            seed,
            state,
            owner_id=player_id,
            seats=seats,
            status="waiting" if None in seats else "active",
            public=bool(public and None in seats),
            daily=daily,
            daily_key=daily_key,
        )
        async with self.transaction() as session:
            await self.ensure_player(session, player_id)
            if daily is not None:
                await session.execute(
                    insert_ignore(
                        session,
                        Daily,
                        {
                            "engine": game_name,
                            "date": daily,
                            "seed": seed,
                            "number": game.number,
                        },
                    )
                )
            if daily_key is not None:
                taken = await session.scalar(
                    select(Game.id).where(Game.owner_id == player_id, Game.daily_key == daily_key)
                )
                if taken:
                    raise AppError(
                        409,
                        "daily_played",
                        "you have played today's board already",
                        extra={"id": taken},
                    )
            session.add(game)
            try:
                await session.flush()
            except IntegrityError:
                raise AppError(
                    409, "daily_played", "you have played today's board already"
                ) from None
        opening = self._computer_replies(game, engine, Step(state, [], []), 0)
        if opening.entries:  # the computer moves first
            game, state = await self._commit(game, engine, opening)
        result = self.snapshot(game, engine, state, player_id)
        result["events"] = opening.events
        result["players"] = await self.names(game)
        return result

    @staticmethod
    def _numbered(
        engine: Engine[Any, Any, Any], number: str, raw: Mapping[str, Any]
    ) -> tuple[Any, int]:
        """The number fixes the board; the request may choose what the number leaves open
        (a mode, an opponent): each requested param is kept when the number stays the same."""
        params, seed = engine.from_number(number)
        number = engine.number(params, seed)
        for key, value in raw.items():
            candidate = engine.parse_params({**engine.dump_params(params), key: value})
            if engine.number(candidate, seed) == number:
                params = candidate
        return params, seed

    def _daily(
        self, engine: Engine[Any, Any, Any], game_name: str, raw: Mapping[str, Any], daily: str
    ) -> tuple[Any, int]:
        date = parse_date(daily)
        if abs((date - self.today()).days) > 1:
            raise AppError(
                400, "bad_date", "the daily board exists only for yesterday, today and tomorrow"
            )
        params = engine.daily_params(raw)
        if params is None:
            raise AppError(400, "no_daily", f"{game_name} has no daily board")
        return params, daily_seed(game_name, daily)

    # --- load ------------------------------------------------------------------------

    async def load(self, game_id: str, player_id: str | None) -> dict[str, Any]:
        async with self.sessions() as session:
            game = await self._get(session, game_id)
        engine = self.engine(game.engine)
        state = engine.load_state(game.state)
        if game.status == "active":
            at_ms = self.clock.now_ms() - game.started_ms
            ticked, events = engine.tick(state, at_ms)
            if events:
                try:
                    game, state = await self._commit(
                        game, engine, Step(ticked, [LogEntry(None, None, at_ms)], events)
                    )
                except AppError:  # someone else changed it meanwhile: show theirs
                    return await self.load(game_id, player_id)
        result = self.snapshot(game, engine, state, player_id)
        result["players"] = await self.names(game)
        result["presence"] = await self.presence_of(game.id, len(game.seats))
        return result

    def snapshot(
        self, game: Game, engine: Engine[Any, Any, Any], state: Any, player_id: str | None
    ) -> dict[str, Any]:
        mine = seats_of(game, player_id)
        seat = self.viewer_seat(engine, state, mine)
        return {
            "id": game.id,
            "game": game.engine,
            "number": game.number,
            "params": game.params,
            "seat": seat,
            "seats": mine,
            "version": game.version,
            "status": game.status,
            "view": engine.view(state, seat),
            "outcome": game.outcome,
            "rematch": game.rematch,
            "daily": game.daily,
            "server_ms": self.clock.now_ms() - game.started_ms,
        }

    # --- move ------------------------------------------------------------------------

    async def move(
        self, game_id: str, player_id: str | None, version: int, raw_move: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Play a move (REST): the mover's snapshot of the new state, with its events."""
        game, state, events = await self.play(game_id, player_id, version, raw_move)
        result = self.snapshot(game, self.engine(game.engine), state, player_id)
        result["events"] = events
        return result

    async def play(
        self,
        game_id: str,
        player_id: str | None,
        version: int,
        raw_move: Mapping[str, Any],
        from_memory: bool = True,
    ) -> tuple[Game, Any, list[dict[str, Any]]]:
        """Check a move against the seat and the version, play it (and the computer's
        replies), commit and publish; returns the new game row, state and events."""
        game, state, remembered = await self._at_version(game_id, version, from_memory)
        engine = self.engine(game.engine)
        mine = seats_of(game, player_id)
        if not mine:
            raise AppError(403, "not_seated", "you do not hold a seat in this game")
        if game.status == "waiting":
            raise AppError(
                409, "waiting_for_opponent", "the game starts when a second player joins"
            )
        if version != game.version:
            raise self._stale(game, engine, state, player_id)
        if raw_move.get("type") == "claim":
            await self._check_opponent_away(game, mine)
        try:
            move = engine.parse_move(raw_move)
            step = self._play(game, engine, state, move, mine)
        except EngineError as error:
            if remembered:  # memory may be behind another process: the database decides
                return await self.play(game_id, player_id, version, raw_move, from_memory=False)
            raise from_engine(error) from None
        game, state = await self._commit(game, engine, step)
        return game, state, step.events

    async def _at_version(
        self, game_id: str, version: int, from_memory: bool = True
    ) -> tuple[Game, Any, bool]:
        """The game, its state, and whether they came from this process's memory: they
        do when it holds the very version the client saw (a newer write by another
        process still fails the commit's version guard), else from the database."""
        live = self._live.get(game_id) if from_memory else None
        if live is not None and live.game.version == version:
            self._live.move_to_end(game_id)
            return live.game, live.state, True
        game = await self.get_game(game_id)
        return game, self.engine(game.engine).load_state(game.state), False

    def _remember(self, game: Game, state: Any) -> None:
        """Keep an active game's latest row and state for its next move.

        Only active games: their seats are settled and every change bumps the version,
        so a version names exactly one row and state. Game rows here are never changed
        in place (a commit makes a new one), so concurrent moves cannot see each other's.
        """
        if game.status != "active":
            self._live.pop(game.id, None)
            return
        self._live[game.id] = Live(game, state)
        self._live.move_to_end(game.id)
        if len(self._live) > LIVE_GAMES:
            self._live.popitem(last=False)

    async def _check_opponent_away(self, game: Game, mine: list[int]) -> None:
        """A win by absence needs the opponent gone for the whole grace period."""
        seats = await self.presence.seats(game.id, len(game.seats), self.clock.now_ms())
        for seat, presence in enumerate(seats):
            if seat in mine or game.seats[seat] == COMPUTER:
                continue
            recently = presence.away_ms is not None and presence.away_ms < self.away_claim_ms
            if presence.connected or recently:
                raise AppError(
                    409,
                    "opponent_present",
                    f"you can claim the win after your opponent has been away "
                    f"for {self.away_claim_ms // 1000} seconds",
                )

    async def presence_of(self, game_id: str, seat_count: int) -> list[dict[str, Any]]:
        seats = await self.presence.seats(game_id, seat_count, self.clock.now_ms())
        return [p.to_json() for p in seats]

    def _play(
        self, game: Game, engine: Engine[Any, Any, Any], state: Any, move: Any, mine: list[int]
    ) -> Step:
        at_ms = self.clock.now_ms() - game.started_ms
        entries: list[LogEntry] = []
        state, events = engine.tick(state, at_ms)
        if events:
            entries.append(LogEntry(None, None, at_ms))
        seat = self.viewer_seat(engine, state, mine)
        assert seat is not None
        state, move_events = engine.apply(state, move, at_ms, seat)
        entries.append(LogEntry(seat, engine.dump_move(move), at_ms))
        events += move_events
        return self._computer_replies(game, engine, Step(state, entries, events), at_ms)

    def _computer_replies(
        self, game: Game, engine: Engine[Any, Any, Any], step: Step, at_ms: int
    ) -> Step:
        """The server plays the computer's seats itself, right away, as logged moves."""
        state = step.state
        while engine.outcome(state) is None:
            turn = engine.to_move(state)
            if turn is None or game.seats[turn] != COMPUTER:
                break
            reply = engine.computer_move(state)
            at_ms = max(at_ms, self.clock.now_ms() - game.started_ms)
            state, reply_events = engine.apply(state, reply, at_ms, turn)
            step.entries.append(LogEntry(turn, engine.dump_move(reply), at_ms))
            step.events.extend(reply_events)
        step.state = state
        return step

    def _stale(
        self, game: Game, engine: Engine[Any, Any, Any], state: Any, player_id: str | None
    ) -> AppError:
        return AppError(
            409,
            "stale_version",
            f"the game is at version {game.version}; reload and try again",
            extra={"current": self.snapshot(game, engine, state, player_id)},
        )

    async def _commit(
        self, game: Game, engine: Engine[Any, Any, Any], step: Step
    ) -> tuple[Game, Any]:
        """Write a step under the version guard, then publish it. Returns the new game row."""
        outcome: Outcome | None = engine.outcome(step.state)
        seen = game.version
        now = self.clock.now_ms()
        values: dict[str, Any] = {
            "version": seen + len(step.entries),
            "state": engine.dump_state(step.state),
            "status": "over" if outcome else "active",
            "outcome": outcome.to_json() if outcome else None,
            "score": max(outcome.scores) if outcome and outcome.scores else None,
            "updated_ms": now,
        }
        try:
            async with self._writing() as connection:
                updated = await connection.execute(
                    ADVANCE_GAME, {"game_id": game.id, "seen": seen, **values}
                )
                if updated.rowcount != 1:  # type: ignore[attr-defined]
                    raise IntegrityError("version moved", None, Exception())
                await connection.execute(
                    APPEND_MOVES,
                    [
                        {"game_id": game.id, "ply": seen + i + 1, "seat": e.seat,
                         "move": e.move, "at_ms": e.at_ms}
                        for i, e in enumerate(step.entries)
                    ],
                )  # fmt: skip
                if outcome is not None:
                    await self._record(connection, game, engine, step.state)
        except IntegrityError:
            self._live.pop(game.id, None)
            fresh = await self.get_game(game.id)
            raise self._stale(fresh, engine, engine.load_state(fresh.state), None) from None
        game = self._advanced(game, values)
        self._remember(game, step.state)
        await self.hub.publish(
            game.id,
            {
                "type": "move",
                "from_version": seen,
                "version": game.version,
                "events": step.events,
                "status": game.status,
                "outcome": game.outcome,
                "views": self.views(engine, game, step.state),
                "server_ms": now - game.started_ms,
            },
        )
        return game, step.state

    @staticmethod
    def _advanced(game: Game, values: Mapping[str, Any]) -> Game:
        """A new detached row: ``game`` with ``values`` written over it."""
        columns = {column.key: getattr(game, column.key) for column in Game.__table__.columns}
        return Game(**{**columns, **values})

    async def get_game(self, game_id: str) -> Game:
        async with self.sessions() as session:
            return await self._get(session, game_id)

    async def _record(
        self,
        connection: AsyncConnection,
        game: Game,
        engine: Engine[Any, Any, Any],
        state: Any,
    ) -> None:
        entry = engine.record(state)
        if entry is not None and game.seats and game.seats[0] not in (None, COMPUTER):
            # A session on the move's own connection joins its transaction (and leaves
            # committing it to the move).
            async with AsyncSession(bind=connection) as session:
                await update_record(
                    session, str(game.seats[0]), game, entry, self.clock.now_ms()
                )
                await session.flush()

    # --- join, log, cancel ------------------------------------------------------------

    async def join(self, game_id: str, player_id: str) -> dict[str, Any]:
        async with self.sessions() as session:
            game = await self._get(session, game_id)
        engine = self.engine(game.engine)
        if not seats_of(game, player_id):
            if game.status != "waiting" or None not in game.seats:
                raise AppError(409, "no_free_seat", "both seats are taken; you can watch this game")
            seats = list(game.seats)
            seats[seats.index(None)] = player_id
            async with self.transaction() as session:
                await self.ensure_player(session, player_id)
                taken = await session.execute(
                    update(Game)
                    .where(Game.id == game.id, Game.status == "waiting")
                    .values(
                        seats=seats,
                        status="active",
                        public=False,
                        updated_ms=self.clock.now_ms(),
                    )
                    .execution_options(synchronize_session=False)
                )
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    raise AppError(409, "no_free_seat", "someone else took the seat first")
            game = await self.get_game(game_id)
            await self.hub.publish(
                game.id,
                {"type": "joined", "version": game.version, "players": await self.names(game)},
            )
        return self.snapshot(game, engine, engine.load_state(game.state), player_id)

    async def rematch(self, game_id: str, player_id: str, action: str) -> dict[str, Any]:
        """Offer, accept or decline a rematch of a finished two-player game.

        Accepting creates the new game with the seats swapped (the other player opens).
        The game row is locked while the offer changes, so two answers cannot cross.
        """
        async with self.transaction() as session:
            game = await self._get(session, game_id, lock=True)
            offer = self._rematch_offer(game, player_id, action)
            if action == "accept" and "game_id" not in offer:
                rematch = self._new_rematch(game)
                session.add(rematch)
                offer = {**offer, "game_id": rematch.id}
            game.rematch = offer
        await self.hub.publish(game_id, {"type": "rematch", "rematch": offer})
        return offer

    def _rematch_offer(self, game: Game, player_id: str, action: str) -> dict[str, Any]:
        mine = seats_of(game, player_id)
        humans = {s for s in game.seats if s not in (None, COMPUTER)}
        if not mine:
            raise AppError(403, "not_seated", "only the players can ask for a rematch")
        if len(humans) < 2:
            raise AppError(409, "no_rematch", "rematches are for games between two players")
        if game.status != "over":
            raise AppError(409, "not_over", "a rematch can be offered once the game is over")
        offer = dict(game.rematch or {})
        if "game_id" in offer:
            return offer  # already agreed: everyone goes to the same new game
        if action == "offer":
            return {"offered_by": mine[0]}
        if action == "decline":
            return {"declined_by": mine[0]}
        if offer.get("offered_by") in (None, mine[0]):
            raise AppError(409, "no_offer", "there is no rematch offer from your opponent")
        return offer

    def _new_rematch(self, game: Game) -> Game:
        engine = self.engine(game.engine)
        params = engine.parse_params(game.params)
        seed = secrets.randbelow(SEED_LIMIT)
        state = engine.new_game(params, seed)
        seats = list(reversed(game.seats))
        return self._new_row(
            game.engine, engine, params, seed, state, owner_id=game.owner_id, seats=seats
        )

    def _new_row(
        self,
        game_name: str,
        engine: Engine[Any, Any, Any],
        params: Any,
        seed: int,
        state: Any,
        *,
        owner_id: str,
        seats: list[str | None],
        status: str = "active",
        public: bool = False,
        daily: str | None = None,
        daily_key: str | None = None,
    ) -> Game:
        """A new game's row, at version 0 and started now."""
        now = self.clock.now_ms()
        return Game(
            id=secrets.token_urlsafe(9),
            engine=game_name,
            params=engine.dump_params(params),
            seed=seed,
            number=engine.number(params, seed),
            owner_id=owner_id,
            seats=seats,
            version=0,
            state=engine.dump_state(state),
            status=status,
            outcome=None,
            public=public,
            daily=daily,
            daily_key=daily_key,
            score=None,
            rematch=None,
            started_ms=now,
            updated_ms=now,
        )

    async def cancel(self, game_id: str, player_id: str) -> None:
        async with self.transaction() as session:
            game = await self._get(session, game_id)
            if game.owner_id != player_id:
                raise AppError(403, "not_owner", "only the creator can cancel this game")
            if game.status != "waiting":
                raise AppError(
                    409,
                    "not_waiting",
                    "only a game still waiting for an opponent can be cancelled",
                )
            game.status = "cancelled"
            game.public = False
        await self.hub.publish(game_id, {"type": "cancelled", "version": game.version})

    async def log(self, game_id: str) -> dict[str, Any]:
        async with self.sessions() as session:
            game = await self._get(session, game_id)
            moves = await self._moves(session, game_id, after=0)
        return {
            "id": game.id,
            "game": game.engine,
            "params": game.params,
            "seed": game.seed,
            "number": game.number,
            "version": game.version,
            "moves": moves,
        }

    async def moves_since(self, game_id: str, version: int) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            return await self._moves(session, game_id, after=version)

    @staticmethod
    async def _moves(session: AsyncSession, game_id: str, after: int) -> list[dict[str, Any]]:
        """The log entries after ply ``after`` (plies count from 1: 0 gives the whole log)."""
        rows = await session.execute(
            select(Move).where(Move.game_id == game_id, Move.ply > after).order_by(Move.ply)
        )
        return [
            {"ply": m.ply, "seat": m.seat, "move": m.move, "at_ms": m.at_ms}
            for m in rows.scalars()
        ]
