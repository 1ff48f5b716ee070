"""The engine protocol: the one shape every game has (see ARCHITECTURE.md).

An engine is a stateless object. Game state, params and moves are immutable values with
JSON codecs; ``apply`` returns a new state and never mutates its input. Engines never read
a clock (``at_ms`` is given), never use global randomness (``engines.core.rng``) and do no
I/O, so a stored log replays to exactly the stored state.

Beyond the names fixed in ARCHITECTURE.md, the protocol carries what a generic server
needs to host any game without knowing its rules: codecs for snapshots and logs, who is
to move, who sits where, the computer's move, and what a finished game is worth as a
record.

``engines.core.base.BaseEngine`` implements this protocol with defaults, and
``engines.core.errors.ErrorCode`` holds the error codes the engines share; see
docs/engine-protocol.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, NotRequired, Protocol, TypeVar, runtime_checkable

# pydantic reads the views' and events' TypedDicts (the OpenAPI document, the tests), and
# on Python 3.11 only typing_extensions' TypedDict carries what it needs.
from typing_extensions import TypedDict

from engines.core.errors import ErrorCode

Event = Mapping[str, Any]
"""Something that happened in a move, for the client to animate: ``{"type": ..., ...}``.
Each engine declares its own (TypedDicts with ``type: Literal[...]``, their union its
``event_type``); the platform passes them through as they are."""

TypedDictT = TypeVar("TypedDictT", bound=type)


def closed(declaration: TypedDictT) -> TypedDictT:
    """A view's or an event's TypedDict has no keys but its declared ones: pydantic (the
    OpenAPI document's ``additionalProperties: false``, the tests that check every view
    and event an engine sends) refuses any other. Engines import no pydantic: this is
    its config, ``extra="forbid"``, written as the plain dict it reads."""
    setattr(declaration, "__pydantic_config__", {"extra": "forbid"})  # noqa: B010
    return declaration


ParamsT = TypeVar("ParamsT")
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class EngineError(Exception):
    """An error with a stable machine ``code`` and a human ``message``.

    Codes shared by several games are ``engines.core.errors.ErrorCode`` members; ``code``
    always holds the plain string. ``details`` carries JSON data the client may use (e.g.
    the tile that blocks a path).
    """

    default_code = "engine_error"

    def __init__(
        self, code: str | None = None, message: str = "", details: Mapping[str, Any] | None = None
    ) -> None:
        self.code = str(code or self.default_code)
        self.message = message or self.code.replace("_", " ")
        self.details: dict[str, Any] = dict(details or {})
        super().__init__(f"{self.code}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return body


class BadParams(EngineError):
    """Params or a game number that do not describe a game (HTTP 400)."""

    default_code = ErrorCode.BAD_PARAMS.value


class BadMove(EngineError):
    """A move that is not well formed (HTTP 422)."""

    default_code = ErrorCode.BAD_MOVE.value


class IllegalMove(EngineError):
    """A well-formed move the rules refuse (HTTP 422), e.g. ``occupied`` or ``no_path``."""

    default_code = "illegal_move"


ABORTED = "aborted"
"""The ``Outcome.reason`` of a game that ended before it began: it counts for nothing."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a seat, or None for a draw and for one-player games; ``scores`` has one
    entry per seat; ``reason`` is a stable word (``cleared``, ``time_up``, ``stuck``,
    ``finished``, ``resigned``, ``no_triangles``...); ``time_ms`` is the game time at the end.
    One reason is the platform's: ``ABORTED``, a game that ended before it began (a seat
    made no first move in time), has no winner and counts for nothing (no rating, no
    statistics; the history says "aborted").
    """

    reason: str
    scores: tuple[int, ...]
    winner: int | None = None
    time_ms: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "scores": list(self.scores),
            "winner": self.winner,
            "time_ms": self.time_ms,
        }


class ScoreOrder(StrEnum):
    """Which scores are better: the engine's ``score_order`` says it once, and records,
    statistics, history and boards of honour rank by it (a fewest-presses game is stored
    with its true score, never negated)."""

    HIGHER = "higher"  # points: more is better
    LOWER = "lower"  # presses, seconds: fewer is better

    def best(self, scores: Sequence[int]) -> int:
        """The best of ``scores`` (not empty)."""
        return max(scores) if self is ScoreOrder.HIGHER else min(scores)

    def rank_key(self, score: int, time_ms: int) -> tuple[int, int]:
        """Sorts the better game first: score by this order, then the shorter time."""
        return (-score if self is ScoreOrder.HIGHER else score, time_ms)


@dataclass(frozen=True)
class RecordEntry:
    """What a finished game is worth on the player's record table.

    ``key`` names the table (e.g. ``"beginner/timed"``); games rank by ``score`` in the
    engine's ``score_order``, then ``time_ms`` (lower first). ``again`` marks a game
    finishing a second time (Blocks' Continue): it may better the record but is not
    another game played.
    """

    key: str
    score: int
    time_ms: int
    extra: Mapping[str, Any] = field(default_factory=dict)
    again: bool = False


@dataclass(frozen=True)
class HonourPace:
    """The pace a person can keep on a game's daily board: platform policy the engine
    states (as it states ``paced_moves``), judged by ``app/honour.py``. A finished daily
    result enters its day's board of honour only when its moves came no faster.

    Times are on the game's running clock: the moves' ``at_ms`` less the time between a
    ``pause`` move and the next ``resume`` move. The moves of the types in ``moves`` (a
    pair, a piece placed) must have taken at least ``average_ms`` each on average, from
    the start to the last of them; and at most ``quick_share`` of them may come less than
    ``quick_ms`` after the one before (the first: after the start)."""

    moves: frozenset[str]
    average_ms: int
    quick_ms: int
    quick_share: float
    pause: str | None = None
    resume: str | None = None


@closed
class ViewBase(TypedDict):
    """The keys every view carries besides its game's own: the ones the platform reads.

    ``scores`` has one entry per seat (a one-player game: one); ``turn`` is the seat to
    move, None once the game is over; ``record_key`` names the record table the game
    counts on (``RecordEntry.key``), None when it counts on none."""

    over: bool
    turn: int | None
    scores: list[int]
    record_key: str | None


def view_base(view: Mapping[str, Any]) -> ViewBase:
    """The base keys of a view, checked (an engine's view that lacks one is a bug)."""
    scores = view["scores"]
    turn = view["turn"]
    record_key = view["record_key"]
    if not isinstance(scores, list) or not all(isinstance(s, int) for s in scores):
        raise TypeError(f"a view's scores are a list of integers, not {scores!r:.60}")
    if turn is not None and not isinstance(turn, int):
        raise TypeError(f"a view's turn is a seat or None, not {turn!r:.60}")
    if record_key is not None and not isinstance(record_key, str):
        raise TypeError(f"a view's record_key is a string or None, not {record_key!r:.60}")
    return ViewBase(over=bool(view["over"]), turn=turn, scores=scores, record_key=record_key)


ParamSpec = TypedDict(
    "ParamSpec",
    {
        "choices": list[Any],
        "default": Any,
        # Triangles: the star counts and default of each field.
        "by_field": NotRequired[dict[str, list[int]]],
        "default_by_field": NotRequired[dict[str, int]],
        "for": NotRequired[list[str]],  # the opponents this param applies to
        "clocks": NotRequired[list[str]],  # the clocks this param applies to
    },
)
"""One param of the catalog entry: its choices and default."""


class ClockSpec(TypedDict):
    """A time control (the catalog's ``clocks``): its rating pool is ``category``."""

    initial_ms: int
    increment_ms: int
    per_move: bool
    category: str


class CatalogEntry(TypedDict):
    """What ``describe()`` returns and ``/api/catalog`` serves for a game. A game adds
    keys of its own (a TypedDict deriving from this one); the platform reads only these.

    ``score_order`` is the engine's ``score_order``; ``clocks``, for games with time
    controls, the controls by name (None: untimed), whose categories are rating pools."""

    name: str
    params: dict[str, ParamSpec]
    score_order: ScoreOrder
    clocks: NotRequired[dict[str, ClockSpec | None]]


class SeatKind(StrEnum):
    """Who fills a seat when a game is created."""

    OWNER = "owner"  # the player who created the game
    COMPUTER = "computer"  # the server plays it with ``computer_move``
    OPEN = "open"  # free until another player joins


ParamsIn = TypeVar("ParamsIn", contravariant=True)
MoveIn = TypeVar("MoveIn", contravariant=True)


class Rules(Protocol[ParamsIn, StateT, MoveIn]):
    """What happens in a game: the rules. Pure functions of their arguments (ARCHITECTURE.md)."""

    def new_game(self, params: ParamsIn, seed: int) -> StateT:
        """The start: a pure function of params and seed (chance only from ``Rng``)."""
        ...

    def apply(
        self, state: StateT, move: MoveIn, at_ms: int, seat: int = 0
    ) -> tuple[StateT, Sequence[Event]]:
        """The state after ``seat`` plays ``move`` at ``at_ms`` and the events to animate
        (each one of the engine's ``event_type``); IllegalMove when the rules refuse."""
        ...

    def tick(self, state: StateT, at_ms: int) -> tuple[StateT, Sequence[Event]]:
        """Endings by the clock alone (the server ticks before each move and on loading)."""
        ...

    def view(self, state: StateT, seat: int | None) -> ViewBase:
        """The game's JSON for ``seat``: its own keys and the ``ViewBase`` keys (an
        engine returns its ``view_type``, which derives from ``ViewBase``)."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game goes on; how it ended once it is over."""
        ...

    def to_move(self, state: StateT) -> int | None:
        """The seat whose turn it is, or None when the game is over."""
        ...

    def deadline(self, state: StateT) -> int | None:
        """The ``at_ms`` from which ``tick`` would end the game by itself (a clock run
        out), or None: the server watches games past this moment and ticks them."""
        ...

    def movers(self, state: StateT) -> frozenset[int]:
        """The seats that have played a move of their own so far."""
        ...


class GameSpec(Protocol[ParamsT, StateT, MoveT]):
    """What a game declares: its name, its types (and so its codecs), its seats, how its
    scores rank, its clocks and rating pools, its claims, its paced moves, its daily
    board and its records. Mostly values; the methods answer from params or a state."""

    name: str
    params_type: ClassVar[Any]
    """The params' declaration: a frozen dataclass whose fields are the params
    (``engines.core.codec``); ``parse_params``/``dump_params`` are its codec and the
    OpenAPI document publishes it as ``<Game>Params``."""
    move_type: ClassVar[Any]
    """The moves' declaration: a union of frozen dataclasses discriminated by ``type`` (or
    one such class); ``parse_move``/``dump_move`` are its codec and the OpenAPI document
    publishes it as ``<Game>Move``."""
    view_type: Any
    """The view's declaration, a TypedDict deriving from ``ViewBase`` (``PairsView``):
    what ``view`` returns. The OpenAPI document publishes it as ``<Game>View``."""
    event_type: Any
    """The events' declaration, the union of TypedDicts with ``type: Literal[...]``
    (``PairsEvent``): what ``apply`` and ``tick`` return. Published as ``<Game>Event``."""
    view_by_seat: bool
    """True when view(state, seat) may differ between seats and spectators (hidden
    information); the server then sends each seat its own view."""
    score_order: ScoreOrder
    """Whether a higher or a lower score is better (records, statistics, honour boards)."""
    claim_after_ms: int | None
    """How long the player to move must have been silent (and, the server adds, away)
    before the other may claim the win with ``{"type": "claim"}``; None: no claims."""
    paced_moves: frozenset[str]  # move types held to a few a minute per game
    honour_pace: HonourPace | None
    """The pace a daily result must keep to enter its day's board of honour (None: any)."""

    def describe(self) -> CatalogEntry:
        """The catalog entry: name, params, score order, clocks, the game's own facts."""
        ...

    def parse_params(self, raw: Mapping[str, Any]) -> ParamsT: ...
    def dump_params(self, params: ParamsT) -> dict[str, Any]: ...
    def parse_move(self, raw: Mapping[str, Any]) -> MoveT: ...
    def dump_move(self, move: MoveT) -> dict[str, Any]: ...
    def dump_state(self, state: StateT) -> dict[str, Any]: ...
    def load_state(self, data: Mapping[str, Any]) -> StateT: ...
    def number(self, params: ParamsT, seed: int) -> str: ...
    def from_number(self, number: str) -> tuple[ParamsT, int]: ...
    def params_of(self, state: StateT) -> ParamsT: ...

    def seats(self, params: ParamsT) -> list[SeatKind]:
        """One entry per seat, in seat order (a COMPUTER seat: a ``ComputerPlayer``)."""
        ...

    def rating_pool(self, params: ParamsT) -> str | None:
        """The rating pool a two-player game with these params counts in, or None."""
        ...

    def record(self, state: StateT) -> RecordEntry | None:
        """The record entry of a finished game, or None when it does not count."""
        ...

    def daily_params(self, raw: Mapping[str, Any]) -> ParamsT | None:
        """Params of the daily board (``raw`` may pick among dailies), or None if none."""
        ...

    def daily_once(self, params: ParamsT) -> bool:
        """True when a player has exactly one attempt at this daily board."""
        ...

    def footprint(self, states: Sequence[StateT]) -> int:
        """About how many bytes these states hold together (what they share, a board,
        counted once): the server's caches of states are bounded by it."""
        ...

    def bound_caches(self, budget: int) -> None:
        """Keep what the engine caches in this process (boards) within ``budget`` bytes."""
        ...


class Engine(Rules[ParamsT, StateT, MoveT], GameSpec[ParamsT, StateT, MoveT], Protocol):
    """A game: its rules and its spec. What else it can do, it says by having the
    methods of a capability below (``ComputerPlayer``, ``Reviewer``, ``OnlinePlay``,
    ``ArenaPlay``, ``CostlySetup``); the server discovers them (``app/catalog.py``: ``computer``,
    ``reviewer``, ``online``, ``costly``)."""


# --- capabilities: a game has one by having its methods ----------------------------------


@runtime_checkable
class ComputerPlayer(Protocol):
    """The server can play a seat (``SeatKind.COMPUTER``)."""

    def computer_move(self, state: Any) -> Any:
        """The move the server plays for a COMPUTER seat (deterministic for a state)."""
        ...


@runtime_checkable
class Reviewer(Protocol):
    """A finished game can be reviewed (docs/review.md)."""

    def review(self, state: Any) -> dict[str, Any]:
        """A finished game's review: ``plies`` (each move against the best one) and
        ``summary`` (per seat); CPU-heavy, the server runs it in its worker pool."""
        ...


@runtime_checkable
class OnlinePlay(Protocol):
    """Two players may be paired for the game by a seek (quick pairing in the lobby, its
    clocks, ratings and leaderboard). Such a game has time controls (the catalog's
    ``clocks``, named by its ``clock`` param), a ``deadline`` and ``rating_pool``."""

    def seek_params(self, clock: str, rated: bool) -> Any:
        """The params of a game that pairs two seeks with this time control (a
        BadParams for a control the game has not)."""
        ...


@dataclass(frozen=True)
class ArenaSeat:
    """What an arena's scoring needs of one seat of a finished game."""

    berserk: bool
    """The seat halved its clock at the start of the game."""
    long_enough: bool
    """The seat played enough for a berserk win's extra point."""


@runtime_checkable
class ArenaPlay(Protocol):
    """The game can be played in arenas: the server pairs two players for an arena game,
    in which either may berserk (halve their own clock) before their first move. The
    scoring, pairing and tiebreak of an arena are the game's no more:
    ``engines.core.arena``."""

    def arena_params(self, clock: str, rated: bool) -> Any:
        """The params of an arena game with this time control (berserk allowed); a
        BadParams for a control the game has not, or a per-move one."""
        ...

    def arena_game(self, params: Any) -> bool:
        """Whether these params are an arena game's (berserk allowed): only an arena
        makes one; the server refuses them from a player making a game (``bad_params``)."""
        ...

    def berserk_move(self) -> Any:
        """The move (a value of the game's move type) that berserks the mover's seat;
        the server applies it for the seat that asks, in turn or not."""
        ...

    def arena_seat(self, state: Any, seat: int) -> ArenaSeat:
        """Whether ``seat`` went berserk in this game, and played long enough for a
        berserk win's extra point."""
        ...


@runtime_checkable
class CostlySetup(Protocol):
    """Setting a game up may take long (building a large board)."""

    def costly_setup(self, params: Any) -> bool:
        """True when ``new_game`` or ``load_state`` may take long for these params: the
        server then runs them off its event loop (its worker pool)."""
        ...
