"""The state of a Pairs game and its JSON codec (a snapshot that round-trips exactly)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.protocol import BadParams
from engines.pairs.clock import Clock
from engines.pairs.grid import EMPTY, Grid, grid_for
from engines.pairs.params import COLUMNS, MODES, SIZES, Params


@dataclass(frozen=True)
class State:
    params: Params
    seed: int
    pictures: tuple[int, ...]  # the picture ids dealt in this game, sorted
    tiles: tuple[int, ...]  # row-major, picture id or EMPTY
    rng: int  # Rng state after the deal and every shuffle so far
    clock: Clock = Clock()
    score: int = 0
    streak: int = 0  # of the last removed pair; 1 = a pair on its own
    best_streak: int = 0
    last_removal_ms: int | None = None
    pairs_removed: int = 0
    hints: int = 0
    shuffles: int = 0  # manual ones (they cost points)
    auto_shuffles: int = 0
    hint: tuple[int, int] | None = None  # board indices of the last hint, until the board changes
    over: bool = False
    reason: str | None = None  # "cleared" | "time_up" once over
    bonus: int = 0  # the timed clear bonus, included in score

    @property
    def grid(self) -> Grid:
        return grid_of(self.params)


def grid_of(params: Params) -> Grid:
    return grid_for(params.spec.rows, COLUMNS)


def dump_state(state: State) -> dict[str, Any]:
    clock = state.clock
    return {
        "size": state.params.size,
        "mode": state.params.mode,
        "seed": state.seed,
        "pictures": list(state.pictures),
        "tiles": list(state.tiles),
        # A hex string: a 64-bit integer does not survive every JSON reader.
        "rng": f"{state.rng:016x}",
        "clock": {
            "as_of_ms": clock.as_of_ms,
            "elapsed_ms": clock.elapsed_ms,
            "remaining_ms": clock.remaining_ms,
            "paused": clock.paused,
        },
        "score": state.score,
        "streak": state.streak,
        "best_streak": state.best_streak,
        "last_removal_ms": state.last_removal_ms,
        "pairs_removed": state.pairs_removed,
        "hints": state.hints,
        "shuffles": state.shuffles,
        "auto_shuffles": state.auto_shuffles,
        "hint": None if state.hint is None else list(state.hint),
        "over": state.over,
        "reason": state.reason,
        "bonus": state.bonus,
    }


def load_state(data: Mapping[str, Any]) -> State:
    """The inverse of :func:`dump_state`; raises BadParams(``bad_state``) on a bad snapshot."""
    try:
        size, mode = data["size"], data["mode"]
        if size not in SIZES or mode not in MODES:
            raise ValueError("size or mode")
        params = Params(size=size, mode=mode)
        clock_data = data["clock"]
        tiles = tuple(_int(t) for t in data["tiles"])
        if len(tiles) != params.spec.rows * COLUMNS or min(tiles) < EMPTY:
            raise ValueError("tiles")
        hint = data["hint"]
        reason = data["reason"]
        if reason is not None and not isinstance(reason, str):
            raise ValueError("reason")
        return State(
            params=params,
            seed=_int(data["seed"]),
            pictures=tuple(_int(p) for p in data["pictures"]),
            tiles=tiles,
            rng=int(_str(data["rng"]), 16),
            clock=Clock(
                as_of_ms=_int(clock_data["as_of_ms"]),
                elapsed_ms=_int(clock_data["elapsed_ms"]),
                remaining_ms=(
                    None if clock_data["remaining_ms"] is None else _int(clock_data["remaining_ms"])
                ),
                paused=_bool(clock_data["paused"]),
            ),
            score=_int(data["score"]),
            streak=_int(data["streak"]),
            best_streak=_int(data["best_streak"]),
            last_removal_ms=(
                None if data["last_removal_ms"] is None else _int(data["last_removal_ms"])
            ),
            pairs_removed=_int(data["pairs_removed"]),
            hints=_int(data["hints"]),
            shuffles=_int(data["shuffles"]),
            auto_shuffles=_int(data["auto_shuffles"]),
            hint=None if hint is None else (_int(hint[0]), _int(hint[1])),
            over=_bool(data["over"]),
            reason=reason,
            bonus=_int(data["bonus"]),
        )
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise BadParams(ErrorCode.BAD_STATE, f"not a Pairs snapshot ({error})") from None


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {repr(value)[:20]}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected a boolean, got {repr(value)[:20]}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {repr(value)[:20]}")
    return value
