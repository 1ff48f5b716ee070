"""Game params: the field, the star count, the "move again" option, the opponent and the
time control."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.numbers import format_number, parse_number
from engines.core.protocol import BadParams, CatalogEntry, ScoreOrder
from engines.triangles.clock import CONTROLS
from engines.triangles.field import FIELDS

OPPONENTS = ("human", "easy", "medium", "hard", "online")
COMPUTER_LEVELS = ("easy", "medium", "hard")
DEFAULT_STARS = {"phone": 24, "tablet": 80}


@dataclass(frozen=True)
class Params:
    field: str = "phone"
    stars: int = 24
    again: bool = False
    opponent: str = "medium"
    clock: str = "none"  # a key of clock.CONTROLS
    rated: bool = False  # online games with a clock only: counted in the rating pools


def parse_params(raw: Mapping[str, Any]) -> Params:
    if not isinstance(raw, Mapping):
        raise BadParams(ErrorCode.BAD_PARAMS, "params must be a JSON object")
    field = raw.get("field", "phone")
    if not isinstance(field, str) or field not in FIELDS:
        raise BadParams("bad_field", f"field must be one of {', '.join(FIELDS)}")
    shape = FIELDS[field]
    stars = raw.get("stars", DEFAULT_STARS[field])
    if isinstance(stars, bool) or not isinstance(stars, int) or stars not in shape.counts:
        counts = ", ".join(str(count) for count in shape.counts)
        raise BadParams("bad_stars", f"a {field} field has {counts} stars")
    again = raw.get("again", False)
    if not isinstance(again, bool):
        raise BadParams("bad_again", "again must be true or false")
    opponent = raw.get("opponent", "medium")
    if not isinstance(opponent, str) or opponent not in OPPONENTS:
        raise BadParams("bad_opponent", f"opponent must be one of {', '.join(OPPONENTS)}")
    clock = raw.get("clock", "none")
    if not isinstance(clock, str) or clock not in CONTROLS:
        raise BadParams("bad_clock", f"clock must be one of {', '.join(CONTROLS)}")
    rated = raw.get("rated", False)
    if not isinstance(rated, bool):
        raise BadParams("bad_rated", "rated must be true or false")
    if rated and (opponent != "online" or clock == "none"):
        raise BadParams("bad_rated", "only online games with a clock can be rated")
    return Params(field, stars, again, opponent, clock, rated)


def dump_params(params: Params) -> dict[str, Any]:
    return {
        "field": params.field,
        "stars": params.stars,
        "again": params.again,
        "opponent": params.opponent,
        "clock": params.clock,
        "rated": params.rated,
    }


def number(params: Params, seed: int) -> str:
    """The game number: the seed and one letter for field and count (a–c phone, d–f tablet)."""
    shape = FIELDS[params.field]
    return format_number(seed, shape.letters[shape.counts.index(params.stars)])


def from_number(text: str) -> tuple[Params, int]:
    """Params and seed of a game number; options that do not change the board get defaults."""
    seed, letters = parse_number(text)
    for shape in FIELDS.values():
        if letters in shape.letters:
            count = shape.counts[shape.letters.index(letters)]
            return Params(field=shape.name, stars=count), seed
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
