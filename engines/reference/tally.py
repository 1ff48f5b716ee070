"""Tally: the reference engine, a complete game in one page (see docs/engine-protocol.md).

Players take turns adding 1, 2 or 3 to a shared tally; whoever brings it to the limit
wins. Small as it is, it has everything the platform hosts: params and game numbers
(``NNNNNNNN-t``), chance (the start tally comes from the seed), one or two seats (owner,
computer or open), turns, resignation, a clock ending (``timed``: a minute), per-seat
views, records and a daily board. The platform tests play it; it is not in
``engines.registry`` (no toy game is served).

How to read it: ``Params``, ``State`` and the moves (``Add``, ``Resign``, ``Claim``: the
union ``Move``) are frozen dataclasses; ``TallyView`` and ``TallyEvent`` declare what the
browser gets (TypedDicts: mypy checks every key the engine writes, the OpenAPI document
publishes them, the tests check every view and event a game sends against them); every
method of ``Tally`` states the invariant it keeps. ``Params`` and ``Move`` are
declarations: their JSON codecs (``parse_params``, ``dump_params``, ``parse_move``,
``dump_move``) and their schemas in the OpenAPI document (``TallyParams``, ``TallyMove``)
come from them (``engines.core.codec``), with the error code each field declares
(``Code``). ``BaseEngine`` supplies those codecs, ``params_of`` (the state's ``params``)
and would supply the rest for a one-seat game without clock,
computer, daily board or records: Tally overrides those because it has them all.

Errors: BadParams ``bad_opponent``, ``bad_limit``, ``bad_timed``, ``bad_number``,
``bad_seed``; BadMove ``bad_move``, ``unknown_move``, ``bad_n``; IllegalMove ``game_over``,
``not_your_seat``, ``not_your_turn``, ``out_of_range``, ``your_turn``, ``too_early``.
Shared codes come from ``engines.core.errors.ErrorCode``; the others are Tally's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic import Field, StrictBool, StrictInt
from typing_extensions import TypedDict

from engines.core.base import BaseEngine
from engines.core.codec import Code
from engines.core.errors import ErrorCode
from engines.core.numbers import format_number, parse_number
from engines.core.protocol import (
    BadParams,
    CatalogEntry,
    IllegalMove,
    Outcome,
    RecordEntry,
    SeatKind,
    ViewBase,
    closed,
)
from engines.core.rng import Rng

Opponent = Literal["solo", "human", "computer", "online"]
OPPONENTS: tuple[Opponent, ...] = get_args(Opponent)
SECOND_SEAT = {
    "human": SeatKind.OWNER,  # both seats on the creator's device
    "computer": SeatKind.COMPUTER,  # the server plays seat 1 with computer_move
    "online": SeatKind.OPEN,  # free until someone joins
}
LETTER = "t"
TIME_LIMIT_MS = 60_000  # a timed game ends one minute after it started
CLAIM_AFTER_MS = 60_000  # the player to move silent this long: the other may claim the win


@dataclass(frozen=True)
class Params:
    """Missing keys are at their defaults; a bad value is ``bad_<param>``."""

    opponent: Annotated[Opponent, Code("bad_opponent")] = "solo"
    limit: Annotated[StrictInt, Field(ge=5, le=50), Code("bad_limit")] = 10
    timed: Annotated[StrictBool, Code("bad_timed")] = False

    @property
    def seat_count(self) -> int:
        return 1 if self.opponent == "solo" else 2


@dataclass(frozen=True)
class State:
    params: Params
    seed: int
    tally: int
    start: int  # the tally the seed dealt
    turn: int  # the seat to move
    moves: int  # additions so far
    over: str | None = None  # the reason once the game has ended
    winner: int | None = None
    at_ms: int = 0  # time of the last move or of the end


@dataclass(frozen=True)
class Add:
    """Add ``n`` to the tally (1, 2 or 3: the rules say, the shape is any integer)."""

    type: Literal["add"] = field(default="add", init=False)
    n: Annotated[StrictInt, Code("bad_n")]


@dataclass(frozen=True)
class Resign:
    type: Literal["resign"] = field(default="resign", init=False)


@dataclass(frozen=True)
class Claim:
    """The opponent to move has been silent ``CLAIM_AFTER_MS``: the win."""

    type: Literal["claim"] = field(default="claim", init=False)


Move = Add | Resign | Claim
"""The moves, discriminated by ``type``: ``BaseEngine[Params, State, Move]`` declares
them (and the params), so the codecs come from them."""


@closed
class TallyView(ViewBase):
    """The view: the ``ViewBase`` keys, then the game's own. ``@closed``: no other key."""

    tally: int
    you: int | None  # the seat this view is for; None: a spectator


@closed
class TallyAdded(TypedDict):
    """An event: ``seat`` added ``n``. Each event is a TypedDict with a literal ``type``."""

    type: Literal["added"]
    n: int
    seat: int


@closed
class TallyOver(TypedDict):
    """The game ended (``reason`` only when the clock ended it)."""

    type: Literal["over"]
    reason: NotRequired[Literal["time_up"]]


TallyEvent = TallyAdded | TallyOver
"""The engine's ``event_type``: the union of its events."""


class Tally(BaseEngine[Params, State, Move]):
    name = "tally"
    view_type = TallyView  # what ``view`` returns
    event_type = TallyEvent  # what ``apply`` and ``tick`` return
    view_by_seat = True  # each seat's view says which seat it is ("you")
    claim_after_ms = CLAIM_AFTER_MS  # the server adds: and away (no socket) as long

    # --- params and numbers ----------------------------------------------------------------

    def describe(self) -> CatalogEntry:
        """The catalog entry: every param with its choices and default, and which scores
        are better (``score_order``: BaseEngine's default, the higher)."""
        return CatalogEntry(
            name=self.name,
            params={"opponent": {"choices": list(OPPONENTS), "default": "solo"}},
            score_order=self.score_order,
        )

    def number(self, params: Params, seed: int) -> str:
        """The game number: the seed and the variant letters (``00000042-t``).

        ``from_number(number(p, s))`` gives the seed back and params with the same board."""
        return format_number(seed, LETTER)

    def from_number(self, number: str) -> tuple[Params, int]:
        """Params and seed of a game number; BadParams(``bad_number``) for anything else.

        A number names a board, not the settings around it: Tally has one variant."""
        seed, letters = parse_number(number)
        if letters != LETTER:
            raise BadParams(ErrorCode.BAD_NUMBER, f"tally numbers end in -{LETTER}")
        return Params(), seed

    # --- play ------------------------------------------------------------------------------

    def new_game(self, params: Params, seed: int) -> State:
        """The start of a game: a pure function of params and seed (chance only from
        ``Rng``), so a number reproduces its board on every machine."""
        start = Rng.from_seed(seed, "tally").below(3)
        return State(params, seed, start, start, start % params.seat_count, 0)

    def apply(
        self, state: State, move: Move, at_ms: int, seat: int = 0
    ) -> tuple[State, list[TallyEvent]]:
        """The state after ``seat`` plays ``move`` at ``at_ms``, and the events to animate.

        Never mutates ``state``; a move the rules refuse raises IllegalMove and changes
        nothing. Time comes only from ``at_ms`` (the server's clock, stored in the log)."""
        if state.over is not None:
            raise IllegalMove(ErrorCode.GAME_OVER, "the game is over")
        if not 0 <= seat < state.params.seat_count:
            raise IllegalMove(ErrorCode.NOT_YOUR_SEAT, f"seat {seat} does not play in this game")
        if isinstance(move, Resign):
            winner = 1 - seat if state.params.seat_count == 2 else None
            resigned = replace(state, over="resigned", winner=winner, at_ms=at_ms)
            return resigned, [TallyOver(type="over")]
        if isinstance(move, Claim):
            return self._claim(state, at_ms, seat)
        if seat != state.turn:
            raise IllegalMove(ErrorCode.NOT_YOUR_TURN, "wait for your turn")
        if not 1 <= move.n <= 3:
            raise IllegalMove("out_of_range", "add 1, 2 or 3")
        tally = min(state.params.limit, state.tally + move.n)
        new = replace(
            state,
            tally=tally,
            moves=state.moves + 1,
            at_ms=at_ms,
            turn=(state.turn + 1) % state.params.seat_count,
        )
        events: list[TallyEvent] = [TallyAdded(type="added", n=move.n, seat=seat)]
        if tally == state.params.limit:
            new = replace(new, over="reached", winner=seat)
            events.append(TallyOver(type="over"))
        return new, events

    @staticmethod
    def _claim(state: State, at_ms: int, seat: int) -> tuple[State, list[TallyEvent]]:
        """The seat not to move wins once the one to move has been silent for
        ``CLAIM_AFTER_MS`` (measured on the game clock, so a replay agrees)."""
        if state.params.seat_count < 2 or seat == state.turn:
            raise IllegalMove("your_turn", "it is your turn: there is nothing to claim")
        waited = at_ms - state.at_ms
        if waited < CLAIM_AFTER_MS:
            raise IllegalMove(
                "too_early",
                "your opponent has not been silent long enough",
                {"wait_ms": CLAIM_AFTER_MS - waited},
            )
        return replace(state, over="claimed", winner=seat, at_ms=at_ms), [TallyOver(type="over")]

    def tick(self, state: State, at_ms: int) -> tuple[State, list[TallyEvent]]:
        """Endings by the clock alone: a timed game is over at one minute. Unchanged state
        and no events otherwise (the server ticks before every move and on loading a game)."""
        if state.params.timed and state.over is None and at_ms >= TIME_LIMIT_MS:
            return replace(state, over="time_up", at_ms=at_ms), [
                TallyOver(type="over", reason="time_up")
            ]
        return state, []

    # --- what the server shows and stores ----------------------------------------------------

    def view(self, state: State, seat: int | None) -> TallyView:
        """JSON for the client of ``seat`` (None: a spectator). It differs between seats
        only because ``view_by_seat`` is True; nothing hidden may leak into it."""
        over = state.over is not None
        return TallyView(
            # The keys the platform reads (typed by ViewBase), then the game's own.
            over=over,
            turn=None if over else state.turn,
            scores=[state.tally],
            record_key=None if state.params.opponent != "solo" else self._key(state),
            tally=state.tally,
            you=seat,
        )

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on; how it ended once it is over."""
        if state.over is None:
            return None
        return Outcome(state.over, (state.tally,), state.winner, state.at_ms)

    def dump_state(self, state: State) -> dict[str, Any]:
        """The snapshot: JSON that ``load_state`` reads back to an equal state."""
        return {
            "params": self.dump_params(state.params),
            "seed": state.seed,
            "tally": state.tally,
            "start": state.start,
            "turn": state.turn,
            "moves": state.moves,
            "over": state.over,
            "winner": state.winner,
            "at_ms": state.at_ms,
        }

    def load_state(self, data: Mapping[str, Any]) -> State:
        """The inverse of ``dump_state``."""
        return State(
            self.parse_params(data["params"]),
            data["seed"],
            data["tally"],
            data["start"],
            data["turn"],
            data["moves"],
            data["over"],
            data["winner"],
            data["at_ms"],
        )

    # --- seats, turns, computer, records, daily ---------------------------------------------

    def seats(self, params: Params) -> list[SeatKind]:
        """Who fills each seat when the game is created, in seat order."""
        second = SECOND_SEAT.get(params.opponent)
        return [SeatKind.OWNER] + ([second] if second else [])

    def to_move(self, state: State) -> int | None:
        """The seat whose turn it is; None once the game is over."""
        return None if state.over is not None else state.turn

    def computer_move(self, state: State) -> Move:
        """The computer's move: deterministic for a state, and legal whenever the game is
        not over (adding 1 always is)."""
        return Add(1)

    def record(self, state: State) -> RecordEntry | None:
        """The record entry of a finished game, or None when it does not count: solo
        games count on the table ``limit<N>``, scored by their number of moves."""
        if state.params.opponent != "solo":
            return None
        return RecordEntry(self._key(state), state.moves, state.at_ms)

    @staticmethod
    def _key(state: State) -> str:
        return f"limit{state.params.limit}"

    def daily_params(self, raw: Mapping[str, Any]) -> Params | None:
        """The daily board's params (its seed is the date's, ``engines.core.daily``)."""
        return Params(limit=12)

    def daily_once(self, params: Params) -> bool:
        """A player gets one attempt at the daily board."""
        return True


ENGINE = Tally()
