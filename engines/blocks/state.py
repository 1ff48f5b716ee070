"""The state of a blocks game and its exact JSON codec."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.blocks.geometry import Grid
from engines.blocks.params import Params
from engines.blocks.rulesets import ruleset_of
from engines.core.codec import params_codec
from engines.core.errors import ErrorCode
from engines.core.numbers import check_seed
from engines.core.protocol import BadParams

EMPTY = -1  # a hand slot whose piece has been placed (or discarded)


@dataclass(frozen=True)
class State:
    params: Params
    seed: int
    rng: int  # SplitMix64 state after the last draw
    board: int  # filled cells, bit r*cols+c
    colours: tuple[int, ...]  # per cell: 0 empty, else the kind of the piece that filled it
    hand: tuple[int, int, int]  # piece indices in the ruleset's table, EMPTY once placed
    score: int = 0
    combo: int = 0
    misses: int = 0  # placements in a row that cleared nothing
    best_combo: int = 0
    lines: int = 0  # lines cleared by placements
    placements: int = 0
    sets: int = 1  # sets dealt, including New sets and Zen refills
    tokens: int = 0  # classic10's "New set" tokens
    continue_used: bool = False
    end_reason: str | None = None  # "stuck" | "finished" | "time_up" once over
    end_ms: int = 0
    last_ms: int = 0  # at_ms of the last move

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def remaining(self) -> list[tuple[int, int]]:
        """``(slot, piece)`` of the pieces still in hand."""
        return [(slot, piece) for slot, piece in enumerate(self.hand) if piece != EMPTY]


def colour_rows(colours: tuple[int, ...], grid: Grid) -> list[list[int]]:
    """The per-cell colours as a list of grid rows, top first."""
    return [list(colours[r * grid.cols : (r + 1) * grid.cols]) for r in range(grid.rows)]


def dump_state(state: State) -> dict[str, Any]:
    rules = ruleset_of(state.params)
    return {
        "params": params_codec(Params).dump(state.params),
        "seed": state.seed,
        "rng": state.rng,
        "grid": colour_rows(state.colours, rules.grid),
        "hand": [None if piece == EMPTY else rules.shapes[piece].name for piece in state.hand],
        "score": state.score,
        "combo": state.combo,
        "misses": state.misses,
        "best_combo": state.best_combo,
        "lines": state.lines,
        "placements": state.placements,
        "sets": state.sets,
        "tokens": state.tokens,
        "continue_used": state.continue_used,
        "end_reason": state.end_reason,
        "end_ms": state.end_ms,
        "last_ms": state.last_ms,
    }


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(key)
    return value


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise TypeError(key)
    return value


def load_state(data: Mapping[str, Any]) -> State:
    try:
        params: Params = params_codec(Params).load(data["params"])
        rules = ruleset_of(params)
        grid = data["grid"]
        if len(grid) != rules.grid.rows or any(len(row) != rules.grid.cols for row in grid):
            raise ValueError("grid size")
        colours = tuple(int(kind) for row in grid for kind in row)
        board = sum(1 << i for i, kind in enumerate(colours) if kind)
        hand = tuple(EMPTY if name is None else rules.index_of(name) for name in data["hand"])
        if len(hand) != 3:
            raise ValueError("hand size")
        end_reason = data["end_reason"]
        if end_reason not in (None, "stuck", "finished", "time_up"):
            raise ValueError("end_reason")
        return State(
            params=params,
            seed=check_seed(_int(data, "seed")),
            rng=_int(data, "rng"),
            board=board,
            colours=colours,
            hand=(hand[0], hand[1], hand[2]),
            score=_int(data, "score"),
            combo=_int(data, "combo"),
            misses=_int(data, "misses"),
            best_combo=_int(data, "best_combo"),
            lines=_int(data, "lines"),
            placements=_int(data, "placements"),
            sets=_int(data, "sets"),
            tokens=_int(data, "tokens"),
            continue_used=_bool(data, "continue_used"),
            end_reason=end_reason,
            end_ms=_int(data, "end_ms"),
            last_ms=_int(data, "last_ms"),
        )
    except BadParams:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise BadParams(ErrorCode.BAD_STATE, f"not a blocks state ({error})") from None
