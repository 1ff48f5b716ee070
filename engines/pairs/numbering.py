"""Game numbers ``NNNNNNNN-a|b|c``: the seed and the board size (a beginner, b classic, c long).

The number names the board only; the mode is not in it, so one number gives the same
board in calm and timed mode (that is how "restart this board in calm mode" works).
"""

from __future__ import annotations

from engines.core.errors import ErrorCode
from engines.core.numbers import format_number, parse_number
from engines.core.protocol import BadParams
from engines.pairs.params import DEFAULT_MODE, SIZE_BY_LETTER, Params


def number(params: Params, seed: int) -> str:
    return format_number(seed, params.spec.letter)


def from_number(text: str) -> tuple[Params, int]:
    seed, letters = parse_number(text)
    spec = SIZE_BY_LETTER.get(letters)
    if spec is None:
        raise BadParams(
            ErrorCode.BAD_NUMBER,
            f"{letters!r} is not a Pairs size letter: a (beginner), b (classic) or c (long)",
        )
    return Params(size=spec.name, mode=DEFAULT_MODE), seed
