"""Params of a Pairs game: the board size and the mode, and what each size means."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.protocol import BadParams, CatalogEntry, ScoreOrder

COLUMNS = 6
PICTURE_SET = 16  # pictures are ids 0..15; each game draws some of them


@dataclass(frozen=True)
class SizeSpec:
    """One board size: its shape, its pictures and its timed-mode clock."""

    name: str
    letter: str  # the game-number letter
    rows: int
    pairs: int
    pictures: int
    timed_start_ms: int
    timed_cap_ms: int

    @property
    def pairs_per_picture(self) -> int:
        return self.pairs // self.pictures


SIZES: dict[str, SizeSpec] = {
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
MODES = ("calm", "timed")
DEFAULT_SIZE = "classic"
DEFAULT_MODE = "calm"


@dataclass(frozen=True)
class Params:
    size: str = DEFAULT_SIZE
    mode: str = DEFAULT_MODE

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


def parse_params(raw: Mapping[str, Any]) -> Params:
    """Strictly validate ``{"size": ..., "mode": ...}``; both optional, other keys ignored."""
    if not isinstance(raw, Mapping):
        raise BadParams(ErrorCode.BAD_PARAMS, "params must be a JSON object")
    size = raw.get("size", DEFAULT_SIZE)
    if not isinstance(size, str) or size not in SIZES:
        raise BadParams(
            "bad_size", f"size must be one of {', '.join(SIZES)}; got {_show(size)}"
        )
    mode = raw.get("mode", DEFAULT_MODE)
    if not isinstance(mode, str) or mode not in MODES:
        raise BadParams(
            ErrorCode.BAD_MODE, f"mode must be one of {', '.join(MODES)}; got {_show(mode)}"
        )
    return Params(size=size, mode=mode)


def dump_params(params: Params) -> dict[str, Any]:
    return {"size": params.size, "mode": params.mode}


def _show(value: object) -> str:
    return repr(value)[:40]


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
