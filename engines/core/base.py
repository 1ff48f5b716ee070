"""BaseEngine: the ``Engine`` protocol with defaults, so an engine writes only what it has.

A subclass sets ``name``, declares its params and moves (``BaseEngine[Params, State,
Move]``: ``params_type`` and ``move_type`` default to those arguments; their JSON codecs,
``parse_params``/``dump_params`` and ``parse_move``/``dump_move``, come from the
declarations, ``engines.core.codec``) and writes the abstract methods (numbers, state
codec, the rules, the view, the outcome). Everything else has a default for a one-player game with
no clock rule, no daily board and no record table; an engine overrides the defaults it
does not fit. What a game can do beyond its rules (play a seat itself, review a game, be
played online, take long to set up) it says by writing the methods of that capability
(``engines.core.protocol``: ``ComputerPlayer``, ``Reviewer``, ``OnlinePlay``,
``ArenaPlay``, ``CostlySetup``); ``OnlineParams`` below gives ``OnlinePlay`` to a game
whose params name the opponent, the time control and rated play.
``engines/reference/tally.py`` is a small worked example, and
``docs/engine-protocol.md`` describes the whole protocol.

The defaults assume what every engine here does anyway: the state is an immutable value
with a ``params`` attribute (``params_of``).
"""

from __future__ import annotations

import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from engines.core.codec import Codec, move_codec, params_codec
from engines.core.protocol import (
    CatalogEntry,
    Event,
    HonourPace,
    MoveT,
    Outcome,
    ParamsT,
    RecordEntry,
    ScoreOrder,
    SeatKind,
    StateT,
    ViewBase,
)


class BaseEngine(ABC, Generic[ParamsT, StateT, MoveT]):
    """Implements ``engines.core.protocol.Engine``; see the module docstring."""

    name: str
    params_type: ClassVar[Any]
    """The params, a frozen dataclass (``engines.core.codec``). Default: the first type
    argument of ``BaseEngine[Params, State, Move]``."""
    move_type: ClassVar[Any]
    """The moves: a union of frozen dataclasses discriminated by ``type`` (or one such
    class). Default: the third type argument of ``BaseEngine[Params, State, Move]``."""
    _params_codec: ClassVar[Codec[Any]]
    _move_codec: ClassVar[Codec[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Reads the declarations once, when the engine's class is made: the codecs are
        class attributes (an engine sent to a worker process pickles without them)."""
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if typing.get_origin(base) is BaseEngine:
                params, _, move = typing.get_args(base)
                if "params_type" not in cls.__dict__ and not isinstance(params, TypeVar):
                    cls.params_type = params
                if "move_type" not in cls.__dict__ and not isinstance(move, TypeVar):
                    cls.move_type = move
        if "params_type" in cls.__dict__:
            cls._params_codec = params_codec(cls.params_type)
        if "move_type" in cls.__dict__:
            cls._move_codec = move_codec(cls.move_type)

    score_order: ScoreOrder = ScoreOrder.HIGHER
    """Default: the higher score is the better one."""
    view_type: Any = dict[str, Any]
    """Default: a view declared no further than JSON (a game declares its TypedDict)."""
    event_type: Any = dict[str, Any]
    """Default: events declared no further than JSON (a game declares their union)."""
    view_by_seat: bool = False
    """Default: every seat and every spectator gets the same view (nothing is hidden)."""
    claim_after_ms: int | None = None
    # Move types that change nothing on the board (a pause, a resume): each is a log
    # entry, so the server holds them to a few a minute per game.
    paced_moves: frozenset[str] = frozenset()
    """Default: no win by claiming that an absent opponent has been silent."""
    honour_pace: HonourPace | None = None
    """Default: any daily result enters the board of honour. A game with daily boards
    says how fast a person can play it (Pairs: a pair, Blocks: a piece)."""

    state_bytes: int = 4096
    """Default ``footprint``: a state weighs about this much (Blocks' and Pairs' 3 KiB)."""

    def footprint(self, states: Sequence[StateT]) -> int:
        """Default: ``state_bytes`` a state, nothing shared."""
        return len(states) * self.state_bytes

    def bound_caches(self, budget: int) -> None:
        """Default: the engine caches nothing of its own."""

    # --- what every engine writes -------------------------------------------------------
    @abstractmethod
    def describe(self) -> CatalogEntry: ...
    @abstractmethod
    def number(self, params: ParamsT, seed: int) -> str: ...
    @abstractmethod
    def from_number(self, number: str) -> tuple[ParamsT, int]: ...
    @abstractmethod
    def new_game(self, params: ParamsT, seed: int) -> StateT: ...
    @abstractmethod
    def apply(
        self, state: StateT, move: MoveT, at_ms: int, seat: int = 0
    ) -> tuple[StateT, Sequence[Event]]: ...
    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> ViewBase: ...
    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None: ...
    @abstractmethod
    def dump_state(self, state: StateT) -> dict[str, Any]: ...
    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> StateT: ...

    # --- the codecs of the declarations (engines.core.codec) ---------------------------
    def parse_params(self, raw: Mapping[str, Any]) -> ParamsT:
        """Params from client JSON, missing keys at their defaults, other keys ignored;
        BadParams (``bad_params``, or the field's code) for anything else."""
        return cast(ParamsT, self._params_codec.load(raw))

    def dump_params(self, params: ParamsT) -> dict[str, Any]:
        """JSON that ``parse_params`` reads back to equal params."""
        return self._params_codec.dump(params)

    def parse_move(self, raw: Mapping[str, Any]) -> MoveT:
        """A move from client JSON, checked for shape only: BadMove ``bad_move`` (not an
        object), ``unknown_move`` (its ``type``) or the field's code."""
        return cast(MoveT, self._move_codec.load(raw))

    def dump_move(self, move: MoveT) -> dict[str, Any]:
        """JSON that ``parse_move`` reads back to an equal move (the log stores this)."""
        return self._move_codec.dump(move)

    # --- defaults -----------------------------------------------------------------------
    def tick(self, state: StateT, at_ms: int) -> tuple[StateT, Sequence[Event]]:
        """Default: no time rule, so the clock alone never changes the state."""
        return state, []

    def deadline(self, state: StateT) -> int | None:
        """Default: no clock can end the game by itself, so no server needs to watch it.
        An engine whose ``tick`` ends games says from which ``at_ms`` it would."""
        return None

    def rating_pool(self, params: ParamsT) -> str | None:
        """Default: games are never rated. An engine with rated games names the pool
        (e.g. a time-control category) a game with these params counts in."""
        return None

    def movers(self, state: StateT) -> frozenset[int]:
        """The seats that have played a move of their own (a rated game that ends before
        every seat has is aborted, unrated). Default: every seat, so nothing is aborted;
        an engine with rated games says."""
        return frozenset(range(len(self.seats(self.params_of(state)))))

    def params_of(self, state: StateT) -> ParamsT:
        """Default: the state's ``params`` attribute."""
        return cast(ParamsT, cast(Any, state).params)

    def seats(self, params: ParamsT) -> list[SeatKind]:
        """Default: one seat, the player who created the game."""
        return [SeatKind.OWNER]

    def to_move(self, state: StateT) -> int | None:
        """Default: seat 0 until the game has an outcome, then nobody."""
        return 0 if self.outcome(state) is None else None

    def record(self, state: StateT) -> RecordEntry | None:
        """Default: no game counts on a record table."""
        return None

    def daily_params(self, raw: Mapping[str, Any]) -> ParamsT | None:
        """Default: no daily board."""
        return None

    def daily_once(self, params: ParamsT) -> bool:
        """Default: no daily board, so nothing is played once only."""
        return False


class OnlineParams:
    """The ``OnlinePlay`` capability of a game whose params are ``opponent`` (with the
    choice ``online``: an open second seat), ``clock`` (its time controls, the catalog's
    ``clocks``) and ``rated``: a game of two seeks has those params, read as any params
    are (``parse_params``). Mixed in before ``BaseEngine``."""

    def seek_params(self, clock: str, rated: bool) -> Any:
        engine: Any = self  # an engine: BaseEngine comes after this class
        return engine.parse_params({"opponent": "online", "clock": clock, "rated": rated})
