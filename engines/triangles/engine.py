"""Triangles as an Engine: parsing, codecs, views and seats around the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engines.core.base import BaseEngine, OnlineParams
from engines.core.errors import ErrorCode
from engines.core.protocol import ArenaSeat, BadMove, IllegalMove, Outcome, SeatKind
from engines.core.rng import Rng
from engines.triangles import ai, params, rules
from engines.triangles.board import set_cache_budget
from engines.triangles.clock import CONTROLS, LAG_MS
from engines.triangles.events import TrianglesEvent, TrianglesResult
from engines.triangles.moves import Berserk, Claim, Line, Move, Resign
from engines.triangles.params import COMPUTER_LEVELS, Params
from engines.triangles.review import dump_review, review_lines
from engines.triangles.state import SEATS, State, dump_state, footprint, load_state
from engines.triangles.tactics import Tactics
from engines.triangles.view import (
    TrianglesClock,
    TrianglesKind,
    TrianglesView,
)

COSTLY_STARS = 60  # boards this large are built off the server's event loop


class TrianglesEngine(OnlineParams, BaseEngine[Params, State, Move]):
    """Two seats, no record table, no daily board. ``tick`` ends a game whose clock of
    the seat to move has run out, or aborts one whose seat to move has not drawn its
    first line in time (time controls, ``clock.py``); an absent player without a clock
    is still beaten only by a claim, which is a move. Arena games (``ArenaPlay``) allow
    berserk (``rules.berserk``)."""

    name = "triangles"
    view_type = TrianglesView
    event_type = TrianglesEvent
    claim_after_ms: int | None = rules.CLAIM_AFTER_MS

    def costly_setup(self, params: Params) -> bool:
        """A board's geometry: a few ms for 24 stars, up to 200 ms for 180."""
        return params.stars >= COSTLY_STARS

    def footprint(self, states: Sequence[State]) -> int:
        """Their boards (90 KiB to 1.3 MiB and more, each counted once) and their own
        lines and bitsets (3 to 9 KiB a state)."""
        return footprint(states)

    def bound_caches(self, budget: int) -> None:
        set_cache_budget(budget)

    def describe(self) -> params.TrianglesEntry:
        return params.catalog(self.name, self.score_order)

    def new_game(self, params: Params, seed: int) -> State:
        return rules.new_state(params, seed)

    def apply(
        self, state: State, move: Move, at_ms: int, seat: int = 0
    ) -> tuple[State, list[TrianglesEvent]]:
        if isinstance(move, Line):
            return rules.draw_line(state, move.a, move.b, seat, at_ms)
        if isinstance(move, Resign):
            return rules.resign(state, seat, at_ms)
        if isinstance(move, Claim):
            return rules.claim(state, seat, at_ms)
        if isinstance(move, Berserk):
            return rules.berserk(state, seat, at_ms)
        raise BadMove(ErrorCode.UNKNOWN_MOVE, f"not a Triangles move: {move!r:.60}")

    def tick(self, state: State, at_ms: int) -> tuple[State, list[TrianglesEvent]]:
        return rules.tick(state, at_ms)

    def deadline(self, state: State) -> int | None:
        return rules.deadline(state)

    def rating_pool(self, params_: Params) -> str | None:
        return params.rating_pool(params_)

    def movers(self, state: State) -> frozenset[int]:
        """The seats that have drawn a line (resigning, claiming or going berserk draws
        none)."""
        return frozenset(seat for _, _, seat in state.lines)

    def view(self, state: State, seat: int | None) -> TrianglesView:
        board = state.board
        last = state.lines[-1] if state.lines else None
        # The board's and the state's own tuples (JSON arrays on the wire): a view is
        # made for every move, and fresh lists of every star and line would each be
        # garbage for the collector to walk.
        return TrianglesView(
            stars=board.stars,
            lines=state.lines,
            triangles=state.triangles,
            over=state.over,
            turn=None if state.over else state.turn,
            scores=list(state.scores),
            record_key=None,  # no record table: two-seat games count on ratings
            width=board.width,
            height=board.height,
            field=state.params.field,
            again=state.params.again,
            opponent=state.params.opponent,
            kind=cast(TrianglesKind, params.kind_of(state.params.opponent)),
            computer_seat=1 if state.params.opponent in COMPUTER_LEVELS else None,
            tolerance=board.tolerance,
            last=list(last) if last else None,
            winner=state.winner,
            result=cast(TrianglesResult | None, state.result),
            turn_started_ms=state.turn_started_ms,
            claim_after_ms=rules.claim_after_ms(state.params),
            remaining=state.live.bit_count(),
            clock=clock_view(state),
            berserk=list(state.berserk),
            berserk_allowed=rules.berserk_allowed(state.params),
            berserk_open=list(rules.berserk_open(state)),
        )  # the same for every seat and for spectators: nothing in Triangles is hidden

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def number(self, params_: Params, seed: int) -> str:
        return params.number(params_, seed)

    def from_number(self, number: str) -> tuple[Params, int]:
        return params.from_number(number)

    def dump_params(self, params_: Params) -> dict[str, Any]:
        """The declared codec's JSON, ``berserk`` only when set (``params.dump``)."""
        return params.dump(params_)

    def dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)

    def seats(self, params_: Params) -> list[SeatKind]:
        if params_.opponent == "human":
            return [SeatKind.OWNER, SeatKind.OWNER]
        if params_.opponent == "online":
            return [SeatKind.OWNER, SeatKind.OPEN]
        return [SeatKind.OWNER, SeatKind.COMPUTER]

    def to_move(self, state: State) -> int | None:
        return None if state.over else state.turn

    # --- ArenaPlay (engines.core.protocol) ----------------------------------------------
    def arena_params(self, clock: str, rated: bool) -> Params:
        """An online game on a real-time ``clock`` in which either seat may berserk
        (BadParams ``bad_clock`` for a clock Triangles has not, ``bad_berserk`` for none
        or days per move)."""
        return self.parse_params(
            {"opponent": "online", "clock": clock, "rated": rated, "berserk": True}
        )

    def arena_game(self, params_: Params) -> bool:
        return rules.berserk_allowed(params_)

    def berserk_move(self) -> Move:
        return Berserk()

    def arena_seat(self, state: State, seat: int) -> ArenaSeat:
        """Berserk, and long enough: the seat drew at least ``ARENA_BERSERK_LINES``."""
        return ArenaSeat(
            berserk=state.berserk[seat],
            long_enough=rules.lines_of(state, seat) >= rules.ARENA_BERSERK_LINES,
        )

    def review(self, state: State) -> dict[str, Any]:
        """Every line of the game marked against the best one (``review.py``); a line's
        ply is its place among the lines, as every log entry but the last is a line."""
        return dump_review(review_lines(state.board, state.params.again, state.lines), SEATS)

    def computer_move(self, state: State) -> Move:
        """The computer's line for the seat to move, at the level of ``opponent``
        (medium when the game has no computer seat)."""
        if state.over:
            raise IllegalMove(ErrorCode.GAME_OVER, "the game is over")
        level = state.params.opponent if state.params.opponent in COMPUTER_LEVELS else "medium"
        rng = Rng.from_seed(state.seed, f"triangles-ai:{len(state.lines)}")
        a, b = ai.LEVELS[level](Tactics.of(state.position()), rng, state.params.again)
        return Line(a, b)


def clock_view(state: State) -> TrianglesClock | None:
    """The clocks as of ``since_ms`` (the view's moment: when the current turn began, or
    the end): ``left_ms`` per seat, the seat whose clock ``running`` (None once over, and
    while the seat to move has yet to draw its first line: a clock starts with its
    seat's first line), and ``deadline_ms``, when the running clock reaches zero (the
    server flags it then). The page counts down to ``deadline_ms``, never above
    ``left_ms[running]``: between the two lies the turn's free ``lag_ms``.

    ``first_line_ms`` is the time a seat has for its first line (real-time controls;
    None with days per move) and ``first_line_deadline_ms``, while the seat to move
    (``turn``) has yet to draw it, when the server aborts the game (else None); the
    page counts down to it the same way, never above ``first_line_ms``."""
    control = CONTROLS[state.params.clock]
    if control is None or state.clocks is None:
        return None
    first_line = rules.first_line_deadline(state)
    return TrianglesClock(
        control=control.name,
        initial_ms=control.initial_ms,
        increment_ms=control.increment_ms,
        per_move=control.per_move,
        left_ms=list(state.clocks),
        since_ms=state.last_ms if state.over else state.turn_started_ms,
        running=None if state.over or first_line is not None else state.turn,
        deadline_ms=None if first_line is not None else rules.deadline(state),
        lag_ms=LAG_MS,
        first_line_ms=control.first_line_ms,
        first_line_deadline_ms=first_line,
    )


ENGINE = TrianglesEngine()
