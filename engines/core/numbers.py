"""Game numbers: ``NNNNNNNN-x``, eight decimal digits of seed, a dash, variant letters.

``41739205-b`` is seed 41739205 with variant ``b``. Each engine owns its letters; this
module only checks the shape. Anything else raises BadParams with a clear message.
"""

from __future__ import annotations

import re

from engines.core.errors import ErrorCode
from engines.core.protocol import BadParams

SEED_DIGITS = 8
SEED_LIMIT: int = 10**SEED_DIGITS  # seeds are 0 .. 99_999_999
_NUMBER = re.compile(r"([0-9]{8})-([a-z]+)")


def check_seed(seed: int) -> int:
    """``seed`` itself if it is a game seed (an int, not a bool, in 0 .. SEED_LIMIT - 1)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise BadParams(ErrorCode.BAD_SEED, f"a seed is an integer from 0 to {SEED_LIMIT - 1}")
    return seed


def format_number(seed: int, letters: str) -> str:
    if not 0 <= seed < SEED_LIMIT:
        raise BadParams(ErrorCode.BAD_SEED, f"a seed has {SEED_DIGITS} digits at most")
    if not letters or not letters.isascii() or not letters.isalpha() or not letters.islower():
        raise BadParams(ErrorCode.BAD_NUMBER, "variant letters are lower-case a-z")
    return f"{seed:0{SEED_DIGITS}d}-{letters}"


def parse_number(number: str) -> tuple[int, str]:
    """``"41739205-b"`` → ``(41739205, "b")``; raises BadParams(``bad_number``)."""
    if not isinstance(number, str):
        raise BadParams(ErrorCode.BAD_NUMBER, "a game number is a string like 41739205-b")
    match = _NUMBER.fullmatch(number.strip())
    if match is None:
        raise BadParams(
            ErrorCode.BAD_NUMBER,
            f"{number[:40]!r} is not a game number: expected 8 digits, a dash and "
            "lower-case letters, like 41739205-b",
        )
    return int(match.group(1)), match.group(2)
