"""Helpers for the blocks tests: boards from pictures, hands by name, scripted chance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.blocks import ENGINE
from engines.blocks.params import Params
from engines.blocks.rulesets import Ruleset, ruleset_of
from engines.blocks.state import EMPTY, State
from engines.core.rng import Rng

CLASSIC10 = Params("classic10")
SHAPES48 = Params("shapes48")
GRAVITY8 = Params("gravity8")
GRAVITY8_ROT = Params("gravity8", rotation=True)


def picture(rows: list[str]) -> tuple[int, tuple[int, ...]]:
    """Board and colours from rows of ``.`` (empty) and digits or ``#`` (kind 1)."""
    colours: list[int] = []
    for line in rows:
        colours.extend(0 if ch == "." else 1 if ch == "#" else int(ch) for ch in line)
    board = sum(1 << i for i, kind in enumerate(colours) if kind)
    return board, tuple(colours)


def grid_rows(view_or_state: Any, params: Params | None = None) -> list[str]:
    """Rows of ``.`` and ``#`` (filled) of a view or a state."""
    if isinstance(view_or_state, State):
        view_or_state = ENGINE.view(view_or_state, 0)
    return ["".join("#" if k else "." for k in row) for row in view_or_state["grid"]]


def hand_of(rules: Ruleset, *names: str | None) -> tuple[int, int, int]:
    pieces = [EMPTY if name is None else rules.index_of(name) for name in names]
    pieces += [EMPTY] * (3 - len(pieces))
    return (pieces[0], pieces[1], pieces[2])


def make_state(
    params: Params, rows: list[str] | None, *hand: str | None, seed: int = 1, **fields: Any
) -> State:
    """A game of ``params`` with the board of ``rows`` and the named pieces in hand."""
    rules = ruleset_of(params)
    state = ENGINE.new_game(params, seed)
    changes: dict[str, Any] = {"hand": hand_of(rules, *hand)}
    if rows is not None:
        changes["board"], changes["colours"] = picture(rows)
    changes.update(fields)
    return replace(state, **changes)


def lines_board(rows: set[int], cols: set[int], holes: list[tuple[int, int]], size: int = 10,
                extra: list[tuple[int, int]] | None = None) -> list[str]:
    """Rows and columns filled except ``holes`` (the cells a piece will fill), plus ``extra``."""
    grid = [["."] * size for _ in range(size)]
    for r in range(size):
        for c in range(size):
            if r in rows or c in cols:
                grid[r][c] = "#"
    for r, c in holes:
        grid[r][c] = "."
    for r, c in extra or []:
        grid[r][c] = "#"
    return ["".join(line) for line in grid]


def place(
    state: State, piece: int, row: int, col: int, at_ms: int = 0
) -> tuple[State, list[dict[str, Any]]]:
    move = ENGINE.parse_move({"type": "place", "piece": piece, "row": row, "col": col})
    return ENGINE.apply(state, move, at_ms)


def event(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


class ScriptedRng(Rng):
    """An Rng whose ``below`` answers from a script, to drive a dealer exactly."""

    def __init__(self, answers: list[int]) -> None:
        super().__init__(0)
        self.answers = list(answers)

    def below(self, n: int) -> int:
        value = self.answers.pop(0)
        assert 0 <= value < n, (value, n)
        return value
