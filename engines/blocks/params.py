"""Params of a blocks game, declared (their strict codec: ``engines.core.codec``), and
the game-number letters.

Every param changes the deal or the rules a shared number must reproduce, so the letters
encode all of them (``from_number`` gives back exactly the params of ``number``):

=========  ==========  =======
ruleset    mode        letters
=========  ==========  =======
classic10  classic     ``a``
shapes48   classic     ``b``
shapes48   daily       ``bd``
shapes48   zen         ``bz``
shapes48   chrono      ``bc``
shapes48   hardcore    ``bh``
gravity8   classic     ``c``   (``cr`` with rotation)
=========  ==========  =======
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, get_args

from pydantic import StrictBool, model_validator

from engines.core.codec import Code
from engines.core.errors import ErrorCode
from engines.core.numbers import check_seed, format_number, parse_number
from engines.core.protocol import BadParams

RulesetName = Literal["classic10", "shapes48", "gravity8"]
Mode = Literal["classic", "daily", "zen", "chrono", "hardcore"]
RULESETS: tuple[RulesetName, ...] = get_args(RulesetName)
MODES: tuple[Mode, ...] = get_args(Mode)


@dataclass(frozen=True)
class Params:
    """Only shapes48 has modes other than classic, only gravity8 the rotation option."""

    ruleset: Annotated[RulesetName, Code("bad_ruleset")] = "classic10"
    mode: Annotated[Mode, Code(ErrorCode.BAD_MODE)] = "classic"
    rotation: Annotated[StrictBool, Code("bad_rotation")] = False

    @model_validator(mode="after")
    def _consistent(self) -> Params:
        """The checks across params (on parsing)."""
        if self.mode != "classic" and self.ruleset != "shapes48":
            raise BadParams(ErrorCode.BAD_MODE, f"{self.ruleset} has only the classic mode")
        if self.rotation and self.ruleset != "gravity8":
            raise BadParams("bad_rotation", "only gravity8 has the rotation option")
        return self

    @property
    def record_key(self) -> str:
        return f"{self.ruleset}/{self.mode}" + ("/rot" if self.rotation else "")


LETTERS: dict[Params, str] = {
    Params("classic10"): "a",
    Params("shapes48"): "b",
    Params("shapes48", "daily"): "bd",
    Params("shapes48", "zen"): "bz",
    Params("shapes48", "chrono"): "bc",
    Params("shapes48", "hardcore"): "bh",
    Params("gravity8"): "c",
    Params("gravity8", rotation=True): "cr",
}
PARAMS_OF_LETTERS = {letters: params for params, letters in LETTERS.items()}


def number(params: Params, seed: int) -> str:
    return format_number(check_seed(seed), LETTERS[params])


def from_number(text: str) -> tuple[Params, int]:
    seed, letters = parse_number(text)
    params = PARAMS_OF_LETTERS.get(letters)
    if params is None:
        known = ", ".join(sorted(PARAMS_OF_LETTERS))
        raise BadParams(
            ErrorCode.BAD_NUMBER, f"blocks numbers end in one of {known}, not {letters!r}"
        )
    return params, seed
