"""Replays: any game's view at any ply, rebuilt by folding its log over a new game.

A game's log is its truth: ``new_game(params, seed)``, then for each logged entry the
clock (``tick`` at its ``at_ms``, as the move path does before every move) and its move,
exactly as the move path applied them. The states of a whole game are kept together in a
small LRU keyed by game id and version, so stepping through a game (a slider, autoplay)
replays it once; a finished game never changes, and a running one only grows, so a newer
version extends the kept sequence instead of starting over. The LRU is bounded by memory:
a game weighs its engine's ``footprint`` of its states (a board shared by all of them
counted once) and its log.

Replaying runs on a thread, not in the worker pool: the fold itself is quick (a 330-ply
Triangles game replays in ~15 ms once its board exists), but building a large board can
take 170 ms, and the states must come back whole for the cache, which a process pool would
pickle (a Triangles board is up to 1.1 MB). At most ``CONCURRENT`` replays run at once, and
requests for the same game share one replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import anyio

from app.catalog import AnyEngine, Catalog
from app.errors import AppError
from app.limits import Admission
from app.models import Game
from app.snapshots import may_replay, replay_forbidden, seat_holders, seats_of, viewer_seat
from app.store import Store
from app.wire import Event, Replay, ReplayStep
from engines.core.errors import AppCode
from engines.core.protocol import view_base
from engines.core.weighed import WeighedLRU

# States ~3 kB each for Blocks, ~7.6 kB for a 120-star Triangles game, and its board
# (shared by all its states and the engine's cache): 60 to 80 long games.
REPLAYS_BYTES = 64 * 1024 * 1024
PLY_BYTES = 1024  # a log entry as the store reads it, its events and scores
CONCURRENT = 2  # replays running at once (each holds a thread and the GIL's attention)


@dataclass(frozen=True)
class Replayed:
    """A game's states ``states[0..plies]``, what each ply produced, the scores after it
    (worked out with the fold, off the event loop) and its log entry."""

    version: int
    states: list[Any]
    events: list[list[Event]]
    scores: list[list[int]]
    entries: list[dict[str, Any]]
    weight: int = 0  # bytes, about


def fold(
    engine: AnyEngine,
    params: Any,
    seed: int,
    entries: Sequence[Mapping[str, Any]],
    start: Replayed | None = None,
) -> tuple[list[Any], list[list[Event]]]:
    """The states after each of ``entries`` and their events, from a new game (or from
    the last state of ``start``). Raises the engine's error on a move the rules refuse."""
    state = start.states[-1] if start else engine.new_game(params, seed)
    states: list[Any] = [] if start else [state]
    produced: list[list[Event]] = [] if start else [[]]
    for entry in entries:
        at_ms = int(entry["at_ms"])
        state, events = engine.tick(state, at_ms)
        if entry.get("move") is not None:
            seat = int(entry.get("seat") or 0)
            state, moved = engine.apply(state, engine.parse_move(entry["move"]), at_ms, seat)
            events = [*events, *moved]
        states.append(state)
        produced.append(list(events))
    return states, produced


def fold_scored(
    engine: AnyEngine,
    params: Any,
    seed: int,
    entries: Sequence[Mapping[str, Any]],
    start: Replayed | None = None,
) -> tuple[list[Any], list[list[Event]], list[list[int]]]:
    """``fold``, and the scores each new state's public view shows."""
    states, events = fold(engine, params, seed, entries, start)
    return states, events, [scores_of(engine.view(state, None)) for state in states]


def scores_of(view: Mapping[str, Any]) -> list[int]:
    """The scores a view shows (``ViewBase.scores``: one per seat)."""
    return view_base(view)["scores"]


class Replays:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        admission: Admission,
        budget: int = REPLAYS_BYTES,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.admission = admission
        self.kept: WeighedLRU[str, Replayed] = WeighedLRU(budget, _weight)
        self.running: dict[tuple[str, int], asyncio.Future[Replayed]] = {}
        self.slots = asyncio.Semaphore(CONCURRENT)

    async def at(
        self,
        game_id: str,
        player_id: str | None,
        address: str,
        ply: int | None,
        timeline: bool = False,
    ) -> Replay:
        """The game at ``ply`` (the last one when None) as ``player_id`` sees it."""
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        if not may_replay(game, engine, player_id):
            raise replay_forbidden()
        mine = seats_of(game, player_id)
        replayed = await self.replayed(game, engine, player_id, address)
        plies = len(replayed.states) - 1
        ply = plies if ply is None else ply
        if not 0 <= ply <= plies:
            raise AppError(
                AppCode.BAD_PLY, f"this game has plies 0 to {plies}", details={"plies": plies}
            )
        state = replayed.states[ply]
        seat = viewer_seat(engine, state, mine)
        return Replay(
            id=game.id,
            game=game.engine,
            number=game.number,
            params=game.params,
            ply=ply,
            plies=plies,
            seat=seat,
            view=engine.view(state, seat),
            players=await seat_holders(self.store, game),
            events=replayed.events[ply],
            timeline=self.timeline(replayed) if timeline else None,
        )

    @staticmethod
    def timeline(replayed: Replayed) -> list[ReplayStep]:
        return [
            ReplayStep(
                ply=ply,
                seat=entry["seat"],
                move=entry["move"],
                at_ms=entry["at_ms"],
                events=replayed.events[ply],
                scores=replayed.scores[ply],
            )
            for ply, entry in enumerate(replayed.entries, start=1)
        ]

    async def replayed(
        self, game: Game, engine: AnyEngine, player_id: str | None, address: str
    ) -> Replayed:
        """The game's states at its current version: kept, extended, or replayed (one
        replay per game and version however many ask at once)."""
        kept = self.kept.get(game.id)
        if kept is not None and kept.version == game.version:
            return kept
        key = (game.id, game.version)
        running = self.running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        await self.admission.replaying(player_id, address)
        future: asyncio.Future[Replayed] = asyncio.get_running_loop().create_future()
        self.running[key] = future
        try:
            replayed = await self._replay(game, engine, kept)
            future.set_result(replayed)
            self.kept.put(game.id, replayed)
            return replayed
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self.running[key]

    async def _replay(self, game: Game, engine: AnyEngine, kept: Replayed | None) -> Replayed:
        start = kept if kept is not None and kept.version < game.version else None
        after = len(start.entries) if start else 0
        # Every log entry bumps the version by one: the game's first ``version`` entries
        # are exactly this version's log (a move committed meanwhile is not in it).
        entries = await self.store.moves(game.id, after=after, limit=game.version - after)
        params = engine.parse_params(game.params)
        async with self.slots:
            states, events, scores = await anyio.to_thread.run_sync(
                fold_scored, engine, params, game.seed, entries, start
            )
        if start is not None:
            states = start.states + states
            events = start.events + events
            scores = start.scores + scores
            entries = start.entries + entries
        weight = engine.footprint(states) + PLY_BYTES * len(entries)
        return Replayed(game.version, states, events, scores, entries, weight)


def _weight(replayed: Replayed) -> int:
    return replayed.weight
