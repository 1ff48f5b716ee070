"""Game params: the field, the star count, the "move again" option, the opponent, the
time control, rated play and berserk (arena games)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast, get_args

from pydantic import StrictBool, model_validator

from engines.core.codec import Choice, Code, params_codec
from engines.core.errors import ErrorCode
from engines.core.numbers import format_number, parse_number
from engines.core.protocol import BadParams, CatalogEntry, ScoreOrder
from engines.triangles.clock import CONTROLS
from engines.triangles.field import FIELDS

Opponent = Literal["human", "easy", "medium", "hard", "online"]
OPPONENTS: tuple[Opponent, ...] = get_args(Opponent)
COMPUTER_LEVELS = ("easy", "medium", "hard")
FieldName = Literal["phone", "tablet"]
Stars = Literal[24, 60, 120, 80, 180]
Clock = Literal["none", "1+1", "3+2", "5+3", "10+5", "1d", "3d"]
DEFAULT_STARS = {"phone": 24, "tablet": 80}
assert set(get_args(FieldName)) == set(FIELDS) and get_args(Clock) == tuple(CONTROLS)
assert set(get_args(Stars)) == {count for shape in FIELDS.values() for count in shape.counts}


@dataclass(frozen=True)
class Params:
    """The params (their codec: ``engines.core.codec``); ``stars`` defaults to the
    field's default count, and must be one of the field's counts."""

    field: Annotated[FieldName, Code("bad_field")] = "phone"
    stars: Annotated[Stars, Choice, Code("bad_stars")] = 24
    again: Annotated[StrictBool, Code("bad_again")] = False
    opponent: Annotated[Opponent, Code("bad_opponent")] = "medium"
    clock: Annotated[Clock, Code("bad_clock")] = "none"  # a key of clock.CONTROLS
    # online games with a clock only: counted in the rating pools
    rated: Annotated[StrictBool, Code("bad_rated")] = False
    # online games with a real-time clock only (arena games): either seat may berserk,
    # halving its own clock before its first line (rules.berserk)
    berserk: Annotated[StrictBool, Code("bad_berserk")] = False

    @model_validator(mode="before")
    @classmethod
    def _field_default_stars(cls, raw: Any) -> Any:
        """Without ``stars``, the field's default count."""
        field = raw.get("field", "phone") if isinstance(raw, dict) else None
        if isinstance(field, str) and field in DEFAULT_STARS and "stars" not in raw:
            return {**raw, "stars": DEFAULT_STARS[field]}
        return raw

    @model_validator(mode="after")
    def _consistent(self) -> Params:
        """The checks across params (on parsing): the field's star counts, rated play."""
        shape = FIELDS[self.field]
        if self.stars not in shape.counts:
            counts = ", ".join(str(count) for count in shape.counts)
            raise BadParams("bad_stars", f"a {self.field} field has {counts} stars")
        if self.rated and (self.opponent != "online" or self.clock == "none"):
            raise BadParams("bad_rated", "only online games with a clock can be rated")
        if self.berserk and not berserk_clock(self):
            raise BadParams(
                "bad_berserk", "only online games with a real-time clock allow berserk"
            )
        return self


def berserk_clock(params: Params) -> bool:
    """Whether a game with these params could allow berserk: an online game with a
    real-time clock (not untimed, not days per move)."""
    control = CONTROLS[params.clock]
    return params.opponent == "online" and control is not None and not control.per_move


def dump(params: Params) -> dict[str, Any]:
    """The params' JSON (``parse_params`` reads it back); ``berserk`` only when set, so
    the params of every other game dump key for key as before it existed."""
    raw = params_codec(Params).dump(params)
    if not params.berserk:
        del raw["berserk"]
    return raw


def number(params: Params, seed: int) -> str:
    """The game number: the seed and one letter for field and count (a–c phone, d–f tablet)."""
    shape = FIELDS[params.field]
    return format_number(seed, shape.letters[shape.counts.index(params.stars)])


def from_number(text: str) -> tuple[Params, int]:
    """Params and seed of a game number; options that do not change the board (the
    opponent, the clock, rated, berserk) get defaults."""
    seed, letters = parse_number(text)
    for shape in FIELDS.values():
        if letters in shape.letters:
            count = shape.counts[shape.letters.index(letters)]
            return Params(field=cast(FieldName, shape.name), stars=cast(Stars, count)), seed
    raise BadParams(ErrorCode.BAD_NUMBER, f"unknown Triangles board letter {letters!r} (a–f)")


def rating_pool(params: Params) -> str | None:
    """The rating pool a game counts in (its clock's category), or None: unrated."""
    control = CONTROLS[params.clock]
    return control.category if params.rated and control is not None else None


def kind_of(opponent: str) -> str:
    """How a game is played: "computer" (a level), "human" (one device) or "online"."""
    return "computer" if opponent in COMPUTER_LEVELS else opponent


class TrianglesEntry(CatalogEntry):
    """Triangles' catalog entry: the computer's levels and seat, each opponent's kind of
    game, and each field's shape."""

    levels: list[str]
    computer_seat: int
    kinds: dict[str, str]
    fields: dict[str, dict[str, Any]]


def catalog(game: str, score_order: ScoreOrder) -> TrianglesEntry:
    """The catalog entry's params; the star counts a field offers depend on the field."""
    return {
        "name": game,
        "score_order": score_order,
        "params": {
            "field": {"choices": list(FIELDS), "default": "phone"},
            "stars": {
                "choices": sorted({count for shape in FIELDS.values() for count in shape.counts}),
                "default": DEFAULT_STARS["phone"],
                "by_field": {name: list(shape.counts) for name, shape in FIELDS.items()},
                "default_by_field": dict(DEFAULT_STARS),
            },
            "again": {"choices": [False, True], "default": False},
            "opponent": {"choices": list(OPPONENTS), "default": "medium"},
            "clock": {"choices": list(CONTROLS), "default": "none", "for": ["online"]},
            "rated": {
                "choices": [False, True],
                "default": False,
                "for": ["online"],
                "clocks": [name for name, control in CONTROLS.items() if control is not None],
            },
        },
        "clocks": {
            name: None
            if control is None
            else {
                "initial_ms": control.initial_ms,
                "increment_ms": control.increment_ms,
                "per_move": control.per_move,
                "category": control.category,
            }
            for name, control in CONTROLS.items()
        },
        "levels": list(COMPUTER_LEVELS),
        "computer_seat": 1,
        "kinds": {opponent: kind_of(opponent) for opponent in OPPONENTS},
        "fields": {
            name: {
                "width": shape.width,
                "height": shape.height,
                "tolerance": shape.tolerance,
                "stars": list(shape.counts),
                "letters": list(shape.letters),
            }
            for name, shape in FIELDS.items()
        },
    }
