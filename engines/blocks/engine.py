"""The blocks engine: the protocol of ``engines.core.protocol`` over the one game loop.

Params ``{"ruleset": "classic10"|"shapes48"|"gravity8", "mode": "classic"|"daily"|"zen"|
"chrono"|"hardcore", "rotation": bool}``; numbers end in ``a``, ``b``, ``bd``, ``bz``,
``bc``, ``bh``, ``c`` or ``cr`` (see ``params.py``).

Moves: ``place`` {piece, row, col}, ``rotate`` {piece}, ``new_set``, ``continue``,
``finish``.

Events: ``placed`` {piece, row, col, kind, cells, points}; ``cleared`` {rows, cols, cells,
points, combo}; ``grid_cleared`` {bonus, tokens (classic10)}; ``gravity`` {moves:
[[from_row, to_row], ...]}; ``dealt`` {hand, refill (Zen only)}; ``rotated`` {piece, name,
kind, cells}; ``new_set`` {tokens}; ``stuck`` {tokens} (classic10: nothing fits, a New set
is left); ``continued`` {rows, cells}; ``zen_cleared_row`` {row, cells}; ``over``
{reason: stuck|finished|time_up}.

Errors (shared codes in ``engines.core.errors``): BadParams ``bad_params``, ``bad_ruleset``,
``bad_mode``, ``bad_rotation``, ``bad_seed``, ``bad_number``, ``bad_state``; BadMove
``bad_move``, ``unknown_move``, ``bad_piece``, ``bad_cell``; IllegalMove ``not_your_seat``,
``game_over``, ``time_up``, ``no_such_piece``, ``piece_used``, ``out_of_board``,
``occupied`` {cells}, ``rotation_off``, ``not_allowed``, ``no_tokens``,
``continue_not_allowed``, ``not_over``, ``continue_used``, ``no_room``, ``no_computer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.blocks import params as params_module
from engines.blocks import play
from engines.blocks.events import BlocksEvent
from engines.blocks.moves import (
    Continue,
    Finish,
    Move,
    NewSet,
    Place,
    Rotate,
)
from engines.blocks.params import Params
from engines.blocks.rulesets import BlocksEntry, catalog, ruleset_of
from engines.blocks.state import State, dump_state, load_state
from engines.blocks.view import BlocksView, build_view
from engines.core.base import BaseEngine
from engines.core.errors import ErrorCode
from engines.core.protocol import BadMove, HonourPace, IllegalMove, Outcome, RecordEntry


class BlocksEngine(BaseEngine[Params, State, Move]):
    name = "blocks"
    view_type = BlocksView
    event_type = BlocksEvent
    # A piece is picked up, dragged and dropped (or chosen and placed with three keys):
    # under 400 ms a piece on average, or half the pieces within 100 ms of the one
    # before, is no person's play (README).
    honour_pace: HonourPace | None = HonourPace(
        moves=frozenset({"place"}), average_ms=400, quick_ms=100, quick_share=0.5
    )

    # --- params, numbers, codecs -----------------------------------------------------------

    def describe(self) -> BlocksEntry:
        return catalog(self.name, self.score_order)

    def number(self, params: Params, seed: int) -> str:
        return params_module.number(params, seed)

    def from_number(self, number: str) -> tuple[Params, int]:
        return params_module.from_number(number)

    def dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)

    # --- play ------------------------------------------------------------------------------

    def new_game(self, params: Params, seed: int) -> State:
        return play.new_game(params, seed)

    def apply(
        self, state: State, move: Move, at_ms: int, seat: int = 0
    ) -> tuple[State, list[BlocksEvent]]:
        if seat != 0:
            raise IllegalMove(ErrorCode.NOT_YOUR_SEAT, "a blocks game has one seat, seat 0")
        rules = ruleset_of(state.params)
        if state.over and not isinstance(move, Continue):
            raise IllegalMove(ErrorCode.GAME_OVER, "the game is over")
        if rules.time_limit_ms is not None and at_ms >= rules.time_limit_ms:
            raise IllegalMove(ErrorCode.TIME_UP, "the three minutes are up")
        if isinstance(move, Place):
            after, events = play.place(rules, state, move.piece, move.row, move.col, at_ms)
        elif isinstance(move, Rotate):
            after, events = play.rotate(rules, state, move.piece, at_ms)
        elif isinstance(move, NewSet):
            after, events = play.new_set(rules, state, at_ms)
        elif isinstance(move, Continue):
            after, events = play.continue_game(rules, state, at_ms)
        elif isinstance(move, Finish):
            after, events = play.finish(state, at_ms)
        else:
            raise BadMove(ErrorCode.UNKNOWN_MOVE, f"not a blocks move: {move!r:.60}")
        return after, events

    def tick(self, state: State, at_ms: int) -> tuple[State, list[BlocksEvent]]:
        return play.tick(ruleset_of(state.params), state, at_ms)

    def view(self, state: State, seat: int | None) -> BlocksView:
        return build_view(ruleset_of(state.params), state)

    # --- results ---------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state.end_reason is None:
            return None
        return Outcome(state.end_reason, (state.score,), None, state.end_ms)

    def record(self, state: State) -> RecordEntry | None:
        rules = ruleset_of(state.params)
        if state.end_reason is None or not rules.counts_for_record:
            return None
        return RecordEntry(
            state.params.record_key, state.score, state.end_ms, again=state.continue_used
        )

    def to_move(self, state: State) -> int | None:
        # Seat 0 may still move in a game that is over when Continue is offered.
        if not state.over or play.can_continue(ruleset_of(state.params), state):
            return 0
        return None

    def daily_params(self, raw: Mapping[str, Any]) -> Params | None:
        return Params("shapes48", "daily")

    def daily_once(self, params: Params) -> bool:
        return params.mode == "daily"


ENGINE = BlocksEngine()
