"""Params of a Pairs game: the board size and the mode, and what each size means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from engines.core.codec import Code
from engines.core.errors import ErrorCode
from engines.core.protocol import CatalogEntry, ScoreOrder

COLUMNS = 6
PICTURE_SET = 16  # pictures are ids 0..15; each game draws some of them
Size = Literal["beginner", "classic", "long"]


@dataclass(frozen=True)
class SizeSpec:
    """One board size: its shape, its pictures and its timed-mode clock."""

    name: Size
    letter: str  # the game-number letter
    rows: int
    pairs: int
    pictures: int
    timed_start_ms: int
    timed_cap_ms: int

    @property
    def pairs_per_picture(self) -> int:
        return self.pairs // self.pictures


SIZES: dict[Size, SizeSpec] = {
    spec.name: spec
    for spec in (
        SizeSpec("beginner", "a", rows=6, pairs=18, pictures=6,
                 timed_start_ms=90_000, timed_cap_ms=150_000),
        SizeSpec("classic", "b", rows=8, pairs=24, pictures=12,
                 timed_start_ms=150_000, timed_cap_ms=240_000),
        SizeSpec("long", "c", rows=9, pairs=27, pictures=9,
                 timed_start_ms=200_000, timed_cap_ms=300_000),
    )
}
SIZE_BY_LETTER: dict[str, SizeSpec] = {spec.letter: spec for spec in SIZES.values()}
Mode = Literal["calm", "timed"]
MODES: tuple[Mode, ...] = get_args(Mode)
assert get_args(Size) == tuple(SIZES)
DEFAULT_SIZE: Size = "classic"
DEFAULT_MODE: Mode = "calm"


@dataclass(frozen=True)
class Params:
    """``{"size": ..., "mode": ...}``, both optional, other keys ignored (its codec:
    ``engines.core.codec``)."""

    size: Annotated[Size, Code("bad_size")] = DEFAULT_SIZE
    mode: Annotated[Mode, Code(ErrorCode.BAD_MODE)] = DEFAULT_MODE

    @property
    def spec(self) -> SizeSpec:
        return SIZES[self.size]

    @property
    def timed(self) -> bool:
        return self.mode == "timed"

    @property
    def record_key(self) -> str:
        """Records are kept per size and mode."""
        return f"{self.size}/{self.mode}"


class PairsEntry(CatalogEntry):
    """Pairs' catalog entry: what each size means, and the records table's keys."""

    sizes: dict[str, dict[str, Any]]
    record_keys: dict[str, dict[str, str]]


def catalog(name: str, score_order: ScoreOrder) -> PairsEntry:
    """The catalog entry's params and what each size means."""
    return {
        "name": name,
        "params": {
            "size": {"choices": list(SIZES), "default": DEFAULT_SIZE},
            "mode": {"choices": list(MODES), "default": DEFAULT_MODE},
        },
        "score_order": score_order,
        "sizes": {
            spec.name: {
                "letter": spec.letter,
                "rows": spec.rows,
                "cols": COLUMNS,
                "pairs": spec.pairs,
                "pictures": spec.pictures,
                "timed_start_ms": spec.timed_start_ms,
                "timed_cap_ms": spec.timed_cap_ms,
            }
            for spec in SIZES.values()
        },
        # The records table: one row per size, one column per mode, each cell's key.
        "record_keys": {
            size: {mode: Params(size, mode).record_key for mode in MODES} for size in SIZES
        },
    }
