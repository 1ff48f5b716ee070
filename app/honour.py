"""Boards of honour list plausible play: a finished daily result enters its day's board
of honour only when its moves came at a pace a person can keep. The numbers are each
engine's (``Engine.honour_pace``); the rule in words is in the README ("Daily boards and
their board of honour").

``plausible`` is the rule, a pure function of the counted moves' times; ``running_times``
reads those times from a log. ``too_fast`` judges a daily game that a step is about to
end: the entries before the step are read from the database (the step's version guard
makes them exactly this game's log), and the answer is written by the same guarded
UPDATE that ends the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.models import Game
from app.store import Store
from engines.core.protocol import HonourPace


def running_times(log: Iterable[Mapping[str, Any]], pace: HonourPace) -> list[int]:
    """The times of the counted moves of ``log`` (entries with ``move``, None for a
    clock tick, and ``at_ms``) on the game's running clock: ``at_ms`` less the time
    spent between a ``pace.pause`` move and the next ``pace.resume`` move."""
    times: list[int] = []
    paused_ms = 0  # time spent paused before the pause under way, if any
    paused_at: int | None = None
    for entry in log:
        move = entry["move"]
        kind = move.get("type") if isinstance(move, Mapping) else None
        at_ms = int(entry["at_ms"])
        if kind is None:
            continue
        if kind == pace.pause and paused_at is None:
            paused_at = at_ms
        elif kind == pace.resume and paused_at is not None:
            paused_ms += max(0, at_ms - paused_at)
            paused_at = None
        elif kind in pace.moves:
            # No counted move is taken while paused; one would count at the pause.
            times.append((at_ms if paused_at is None else paused_at) - paused_ms)
    return times


def plausible(times: Sequence[int], pace: HonourPace) -> bool:
    """Whether counted moves at ``times`` (ms on the running clock, in order) came at a
    pace a person can keep: at least ``pace.average_ms`` each on average from the start
    to the last one, and at most ``pace.quick_share`` of them less than ``pace.quick_ms``
    after the one before (the first: after the start). No counted move: plausible."""
    count = len(times)
    if count == 0:
        return True
    if times[-1] < pace.average_ms * count:
        return False
    gaps = (later - earlier for earlier, later in zip([0, *times], times, strict=False))
    quick = sum(1 for gap in gaps if gap < pace.quick_ms)
    return quick <= pace.quick_share * count


async def too_fast(
    store: Store, pace: HonourPace, game: Game, entries: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the daily game ``game`` (the row a step was played on), ended by the log
    ``entries`` of that step, was played faster than a person can."""
    logged = await store.moves(game.id, 0, limit=game.version)
    return not plausible(running_times([*logged, *entries], pace), pace)
