"""The state of a game of Triangles and its JSON codec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from sys import getsizeof
from typing import Any

from engines.core.codec import params_codec
from engines.core.errors import ErrorCode
from engines.core.protocol import BadParams
from engines.triangles.board import Board, get_board
from engines.triangles.params import Params, dump
from engines.triangles.position import Position

SEATS = 2


@dataclass(frozen=True, slots=True)  # slots: a server keeps one per game under way
class State:
    """A game: the board (params + seed), the lines in drawing order and the tallies.

    The last six fields are derived, never serialized: the board (a pure function of
    params and seed, or a hand-made one in tests) and the drawing's incremental form
    (see ``Position``), a pure function of ``lines`` that ``load_state`` rebuilds.
    """

    params: Params
    seed: int
    lines: tuple[tuple[int, int, int], ...]  # (a, b, seat) with a < b
    triangles: tuple[tuple[int, int, int, int], ...]  # (a, b, c, seat) with a < b < c
    turn: int
    scores: tuple[int, int]
    turn_started_ms: int
    last_ms: int
    result: str | None  # why it ended: no_triangles | resigned | claimed | time | aborted
    winner: int | None
    clocks: tuple[int, int] | None  # time left per seat as of turn_started_ms (clock.py)
    berserk: tuple[bool, bool]  # per seat: it halved its clock (arena games, rules.berserk)
    board: Board = field(compare=False, repr=False)
    drawn: tuple[int, ...] = field(compare=False, repr=False)
    alive: tuple[int, ...] = field(compare=False, repr=False)
    live: int = field(compare=False, repr=False)
    one_drawn: int = field(compare=False, repr=False)
    two_drawn: int = field(compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.result is not None

    def position(self) -> Position:
        """A fresh mutable copy of the drawing."""
        return Position(
            self.board,
            list(self.drawn),
            list(self.alive),
            self.live,
            self.one_drawn,
            self.two_drawn,
        )


def position_fields(position: Position) -> dict[str, Any]:
    """The derived fields of a State, frozen from a Position."""
    return {
        "drawn": tuple(position.drawn),
        "alive": tuple(position.alive),
        "live": position.live,
        "one_drawn": position.one_drawn,
        "two_drawn": position.two_drawn,
    }


NO_BERSERK = (False, False)


def dump_state(state: State) -> dict[str, Any]:
    """The snapshot; ``berserk`` only once a seat has gone berserk (and the params'
    ``berserk`` only when set), so every other state dumps key for key as before."""
    data: dict[str, Any] = {
        "params": dump(state.params),
        "seed": state.seed,
        "lines": [list(line) for line in state.lines],
        "triangles": [list(triangle) for triangle in state.triangles],
        "turn": state.turn,
        "scores": list(state.scores),
        "turn_started_ms": state.turn_started_ms,
        "last_ms": state.last_ms,
        "result": state.result,
        "winner": state.winner,
        "clocks": None if state.clocks is None else list(state.clocks),
    }
    if state.berserk != NO_BERSERK:
        data["berserk"] = list(state.berserk)
    return data


def load_state(data: Mapping[str, Any]) -> State:
    """The State of ``dump_state``'s output; the drawing is rebuilt from the lines."""
    try:
        params: Params = params_codec(Params).load(data["params"])
        seed = int(data["seed"])
        lines = tuple((int(a), int(b), int(seat)) for a, b, seat in data["lines"])
        triangles = tuple(
            (int(a), int(b), int(c), int(seat)) for a, b, c, seat in data["triangles"]
        )
        first, second = (int(score) for score in data["scores"])
        board = get_board(params.field, params.stars, seed)
        position = Position.start(board)
        for a, b, _ in lines:
            if not (0 <= a < b < board.count and position.is_legal(a, b)):
                raise ValueError(f"line {a}-{b} cannot be drawn")
            position.draw(a, b, once=True)
        winner = data["winner"]
        clocks = data.get("clocks")  # absent in snapshots from before time controls
        berserk = data.get("berserk", NO_BERSERK)  # absent until a seat goes berserk
        if len(berserk) != 2 or not all(isinstance(flag, bool) for flag in berserk):
            raise ValueError(f"berserk is two booleans, not {berserk!r:.40}")
        return State(
            params=params,
            seed=seed,
            lines=lines,
            triangles=triangles,
            turn=int(data["turn"]),
            scores=(first, second),
            turn_started_ms=int(data["turn_started_ms"]),
            last_ms=int(data["last_ms"]),
            result=None if data["result"] is None else str(data["result"]),
            winner=None if winner is None else int(winner),
            clocks=None if clocks is None else (int(clocks[0]), int(clocks[1])),
            berserk=(berserk[0], berserk[1]),
            board=board,
            **position_fields(position),
        )
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise BadParams(ErrorCode.BAD_STATE, f"not a Triangles state: {error}") from None


def footprint(states: Sequence[State]) -> int:
    """About how many bytes ``states`` hold together: each distinct board once, each
    state's own tuples and bitsets, and once the lines and star bitsets that a game's
    successive states share (counted from the one with the most lines)."""
    if not states:
        return 0
    boards = {id(state.board): state.board.nbytes for state in states}
    longest = max(states, key=lambda state: len(state.lines))
    shared = (len(longest.lines) + len(longest.triangles)) * _ITEM
    # star bitsets, each below 2 ** count: as large as such an int can be (this runs on
    # every move a server keeps in memory, so it counts rather than measures)
    largest = getsizeof((1 << longest.board.count) - 1)
    shared += (len(longest.drawn) + len(longest.alive)) * largest
    return sum(boards.values()) + shared + sum(_own_bytes(state) for state in states)


def _own_bytes(state: State) -> int:
    """A state's object, containers and triangle bitsets, and the star bitsets its last
    line changed (about four)."""
    return (
        _STATE
        + getsizeof(state.lines)
        + getsizeof(state.triangles)
        + getsizeof(state.drawn)
        + getsizeof(state.alive)
        + getsizeof(state.live)
        + getsizeof(state.one_drawn)
        + getsizeof(state.two_drawn)
        + 4 * getsizeof(state.alive[0])
    )


_STATE = 200  # the frozen dataclass's object: a header and 18 slots
_ITEM = 70  # a line's (a, b, seat) or a triangle's tuple of small ints
