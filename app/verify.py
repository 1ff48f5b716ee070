"""Verifiable results: anyone can replay a submitted log on the board a number fixes and
get the final public view and outcome, or the first ply the rules refuse and why.

The log is the ``moves`` of ``GET /api/games/{id}/log`` (``{seat, move, at_ms}``), so a
game downloaded from its replay page verifies as it is. The number fixes the board; as
for a new game by number, ``params`` may set what it leaves open (Pairs' mode,
Triangles' opponent), which the rules depend on (a timed game scores its time).

The engine is the judge, exactly as in play: the clock (``tick``) before each entry, then
its move for its seat. The fold runs on a thread (``asyncio.to_thread``: its result is a
state, not worth pickling to and from the worker pool), at most ``CONCURRENT`` at once,
and the route is rate-limited like a costly write.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from app.catalog import AnyEngine, Catalog
from app.errors import AppError, from_engine
from app.lifecycle import numbered
from app.limits import Admission
from app.wire import VERIFY_PLIES, Outcome, Verified, VerifyEntry
from engines.core.errors import AppCode
from engines.core.protocol import EngineError

VERIFY_BODY_BYTES = 160 * VERIFY_PLIES  # a log entry is ~90 bytes of JSON
CONCURRENT = 2


class IllegalLog(Exception):
    def __init__(self, ply: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.ply = ply
        self.reason = reason
        self.message = message


def replay_log(engine: AnyEngine, params: Any, seed: int, log: Sequence[VerifyEntry]) -> Any:
    """The state after ``log``; raises IllegalLog naming the first ply (1-based) refused."""
    seats = len(engine.seats(params))
    state = engine.new_game(params, seed)
    for ply, entry in enumerate(log, start=1):
        seat = entry.seat or 0
        if seat >= seats:
            raise IllegalLog(ply, "bad_seat", f"this game has seats 0 to {seats - 1}")
        try:
            state, _ = engine.tick(state, entry.at_ms)
            if entry.move is not None:
                state, _ = engine.apply(state, engine.parse_move(entry.move), entry.at_ms, seat)
        except EngineError as error:
            raise IllegalLog(ply, error.code, error.message) from None
    return state


class Verifier:
    def __init__(self, catalog: Catalog, admission: Admission) -> None:
        self.catalog = catalog
        self.admission = admission
        self.slots = asyncio.Semaphore(CONCURRENT)

    async def verify(
        self,
        game_name: str,
        number: str,
        raw_params: Mapping[str, Any] | None,
        log: Sequence[VerifyEntry],
        player_id: str | None,
        address: str,
    ) -> Verified:
        engine = self.catalog.engine(game_name)
        try:
            params, seed = numbered(engine, number, raw_params or {})
        except EngineError as error:
            raise from_engine(error) from None
        await self.admission.verifying(player_id, address)
        async with self.slots:
            try:
                state = await asyncio.to_thread(replay_log, engine, params, seed, log)
            except IllegalLog as illegal:
                raise AppError(
                    AppCode.ILLEGAL_LOG,
                    f"ply {illegal.ply} is refused: {illegal.message}",
                    details={"ply": illegal.ply, "reason": illegal.reason},
                ) from None
        outcome = engine.outcome(state)
        return Verified(
            game=game_name,
            number=engine.number(params, seed),
            plies=len(log),
            view=engine.view(state, None),
            outcome=Outcome.model_validate(outcome.to_json()) if outcome else None,
        )
