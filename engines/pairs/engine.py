"""The Pairs engine: the protocol of engines.core.protocol wired to the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.base import BaseEngine
from engines.core.errors import ErrorCode
from engines.core.protocol import BadParams, HonourPace, Outcome, RecordEntry
from engines.pairs import numbering, rules
from engines.pairs import params as params_module
from engines.pairs import state as state_module
from engines.pairs.events import PairsEvent
from engines.pairs.moves import Move
from engines.pairs.params import DEFAULT_MODE, Params
from engines.pairs.state import State
from engines.pairs.view import PairsView, view


class PairsEngine(BaseEngine[Params, State, Move]):
    name = "pairs"
    view_type = PairsView
    event_type = PairsEvent
    paced_moves = frozenset({"pause", "resume"})
    # A person sees the tiles, finds a pair and taps two tiles (two aimed taps alone
    # take some 500 ms): 750 ms a pair over a whole board is faster than anyone plays; a
    # pair within 250 ms of the one before comes when the network held that one back.
    honour_pace: HonourPace | None = HonourPace(
        moves=frozenset({"pair"}),
        average_ms=750,
        quick_ms=250,
        quick_share=0.25,
        pause="pause",
        resume="resume",
    )

    def describe(self) -> params_module.PairsEntry:
        return params_module.catalog(self.name, self.score_order)

    def new_game(self, params: Params, seed: int) -> State:
        return rules.new_game(params, seed)

    def apply(
        self, state: State, move: Move, at_ms: int, seat: int = 0
    ) -> tuple[State, list[PairsEvent]]:
        return rules.apply(state, move, at_ms, seat)

    def tick(self, state: State, at_ms: int) -> tuple[State, list[PairsEvent]]:
        return rules.tick(state, at_ms)

    def view(self, state: State, seat: int | None) -> PairsView:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over or state.reason is None:
            return None
        return Outcome(
            reason=state.reason, scores=(state.score,), winner=None, time_ms=state.clock.elapsed_ms
        )

    def number(self, params: Params, seed: int) -> str:
        return numbering.number(params, seed)

    def from_number(self, number: str) -> tuple[Params, int]:
        return numbering.from_number(number)

    def dump_state(self, state: State) -> dict[str, Any]:
        return state_module.dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> State:
        return state_module.load_state(data)

    def record(self, state: State) -> RecordEntry | None:
        """Both endings count (a timed game that runs out is not a loss)."""
        if not state.over:
            return None
        return RecordEntry(
            key=state.params.record_key,
            score=state.score,
            time_ms=state.clock.elapsed_ms,
            extra={
                "reason": state.reason,
                "pairs_removed": state.pairs_removed,
                "best_streak": state.best_streak,
                "hints": state.hints,
                "shuffles": state.shuffles,
            },
        )

    def daily_params(self, raw: Mapping[str, Any]) -> Params | None:
        """The daily board is Classic; ``raw`` may choose the mode (calm by default)."""
        if not isinstance(raw, Mapping):
            raise BadParams(ErrorCode.BAD_PARAMS, "params must be a JSON object")
        mode = self.parse_params({"mode": raw.get("mode", DEFAULT_MODE)}).mode
        return Params(size="classic", mode=mode)

    def daily_once(self, params: Params) -> bool:
        """One attempt a day at the daily board, whichever mode it is played in."""
        return True


ENGINE = PairsEngine()
