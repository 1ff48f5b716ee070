"""Params of a blocks game, their strict parser, and the game-number letters.

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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.numbers import check_seed, format_number, parse_number
from engines.core.protocol import BadParams

RULESETS = ("classic10", "shapes48", "gravity8")
MODES = ("classic", "daily", "zen", "chrono", "hardcore")


@dataclass(frozen=True)
class Params:
    ruleset: str = "classic10"
    mode: str = "classic"
    rotation: bool = False

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


def parse_params(raw: Mapping[str, Any]) -> Params:
    if not isinstance(raw, Mapping):
        raise BadParams(ErrorCode.BAD_PARAMS, "params are a JSON object")
    ruleset = raw.get("ruleset", "classic10")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise BadParams(
            "bad_ruleset", f"ruleset is one of {', '.join(RULESETS)}, not {ruleset!r:.40}"
        )
    mode = raw.get("mode", "classic")
    if not isinstance(mode, str) or mode not in MODES:
        raise BadParams(ErrorCode.BAD_MODE, f"mode is one of {', '.join(MODES)}, not {mode!r:.40}")
    if mode != "classic" and ruleset != "shapes48":
        raise BadParams(ErrorCode.BAD_MODE, f"{ruleset} has only the classic mode")
    rotation = raw.get("rotation", False)
    if not isinstance(rotation, bool):
        raise BadParams("bad_rotation", "rotation is true or false")
    if rotation and ruleset != "gravity8":
        raise BadParams("bad_rotation", "only gravity8 has the rotation option")
    return Params(ruleset, mode, rotation)


def dump_params(params: Params) -> dict[str, Any]:
    return {"ruleset": params.ruleset, "mode": params.mode, "rotation": params.rotation}


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
