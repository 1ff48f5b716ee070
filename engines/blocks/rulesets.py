"""The rulesets as data: grid, piece table, dealer, scorer, combo rule and options.

One game loop (``engines.blocks.play``) runs every ruleset; what differs lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engines.blocks.dealing import (
    Dealer,
    FamilyDraw,
    NoGuarantee,
    RedealUntilFits,
    RetryThenLargest,
    ShapeDraw,
    Tier,
)
from engines.blocks.geometry import Grid, Placements, placement_tables
from engines.blocks.params import LETTERS, MODES, RULESETS, Params, RulesetName
from engines.blocks.scoring import (
    ComboRule,
    GraceCombo,
    LineTableScorer,
    NoCombo,
    NoScore,
    Scorer,
    StreakCombo,
    TriangularScorer,
)
from engines.blocks.shapes import (
    CLASSIC10_SHAPES,
    SHAPES48,
    TETROMINO_LETTERS,
    TETROMINOES,
    Shape,
    rotation_table,
)
from engines.core.protocol import CatalogEntry, ScoreOrder

CHRONO_MS = 180_000


@dataclass(frozen=True)
class Tokens:
    """classic10's "New set" tokens."""

    start: int = 1
    per_cleared_grid: int = 1
    cap: int = 3


@dataclass(frozen=True)
class Ruleset:
    params: Params
    grid: Grid
    shapes: tuple[Shape, ...]
    table: tuple[Placements, ...]
    dealer: Dealer
    scorer: Scorer
    combo: ComboRule
    gravity: bool  # rows above a cleared row fall into it (gravity8)
    tokens: Tokens | None  # classic10's "New set"
    zen: bool  # never ends when stuck: refill, then clear the fullest rows
    continue_offered: bool  # shapes48's Continue, once per game
    rotations: tuple[int, ...] | None  # clockwise turn of each piece when rotation is on
    time_limit_ms: int | None  # Chrono
    counts_for_record: bool

    def index_of(self, name: str) -> int:
        """The table index of a shape name; KeyError for a name not in this ruleset."""
        return INDEX_BY_NAME[self.params.ruleset][name]


# --- classic10 ---------------------------------------------------------------------------
# The seed's family weights (1×1 / bar2 / bar3 / bar4 / bar5 / 2×2 / 3×3 / small corner /
# big corner), doubled so that the halves are integers. The tier is chosen by the score
# when the set is dealt: < 300, 300–1499, ≥ 1500.
CLASSIC10_TIERS = (
    Tier(0, (6, 8, 8, 4, 2, 8, 1, 8, 2)),
    Tier(300, (4, 6, 6, 6, 4, 6, 3, 6, 5)),
    Tier(1500, (2, 4, 6, 6, 6, 6, 4, 4, 7)),
)


def families_by_kind(shapes: tuple[Shape, ...], kinds: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(i for i, shape in enumerate(shapes) if shape.kind == kind)
        for kind in range(1, kinds + 1)
    )


# --- shapes48 ----------------------------------------------------------------------------
# Weight of each shape, (Classic, Hardcore). Classic (also Daily, Zen and Chrono) favours
# the small easy pieces; Hardcore makes them much rarer and the awkward shapes more common:
#   small easy (single, dominoes, line3, 2-cell diagonals, 2×2, small corners):
#       36 of 95 in Classic (38%), 14 of 112 in Hardcore (12.5%);
#   awkward (3-cell diagonals, 3×3, cross, U, big corners, big T, W):
#       15 of 95 in Classic (16%), 46 of 112 in Hardcore (41%).
SHAPES48_WEIGHTS: dict[str, tuple[int, int]] = {
    "single": (4, 1),
    "domino_h": (3, 1),
    "domino_v": (3, 1),
    "line3_h": (3, 2),
    "line3_v": (3, 2),
    "line4_h": (2, 2),
    "line4_v": (2, 2),
    "line5_h": (2, 3),
    "line5_v": (2, 3),
    "diag2_down": (2, 1),
    "diag2_up": (2, 1),
    "diag3_down": (1, 3),
    "diag3_up": (1, 3),
    "square2": (4, 1),
    "square3": (2, 4),
    "rect2x3": (2, 3),
    "rect3x2": (2, 3),
    **{f"corner_{t}": (3, 1) for t in ("tl", "tr", "br", "bl")},
    **{f"{s}_{t}": (2, 2) for s in ("l", "j") for t in ("0", "90", "180", "270")},
    **{f"t_{t}": (2, 2) for t in ("up", "right", "down", "left")},
    "s_h": (2, 3),
    "s_v": (2, 3),
    "z_h": (2, 3),
    "z_v": (2, 3),
    "cross": (1, 4),
    **{f"u_{t}": (1, 3) for t in ("up", "right", "down", "left")},
    **{f"big_corner_{t}": (1, 3) for t in ("tl", "tr", "br", "bl")},
    "big_t": (1, 4),
    "w": (1, 4),
}


def shapes48_draw(hardcore: bool) -> ShapeDraw:
    return ShapeDraw(tuple(SHAPES48_WEIGHTS[s.name][1 if hardcore else 0] for s in SHAPES48))


# --- the rulesets ------------------------------------------------------------------------
TEN = Grid(10, 10)
EIGHT = Grid(8, 8)
CLASSIC10_TABLE = placement_tables(TEN, CLASSIC10_SHAPES)
SHAPES48_TABLE = placement_tables(TEN, SHAPES48)
TETROMINO_TABLE = placement_tables(EIGHT, TETROMINOES)
INDEX_BY_NAME = {
    ruleset: {shape.name: i for i, shape in enumerate(shapes)}
    for ruleset, shapes in (
        ("classic10", CLASSIC10_SHAPES),
        ("shapes48", SHAPES48),
        ("gravity8", TETROMINOES),
    )
}


def _classic10(params: Params) -> Ruleset:
    return Ruleset(
        params=params,
        grid=TEN,
        shapes=CLASSIC10_SHAPES,
        table=CLASSIC10_TABLE,
        dealer=Dealer(
            FamilyDraw(families_by_kind(CLASSIC10_SHAPES, 9), CLASSIC10_TIERS),
            RetryThenLargest(attempts=10),
        ),
        scorer=TriangularScorer(grid_bonus=300, multiplier_cap=5),
        combo=GraceCombo(grace=2),
        gravity=False,
        tokens=Tokens(),
        zen=False,
        continue_offered=False,
        rotations=None,
        time_limit_ms=None,
        counts_for_record=True,
    )


def _shapes48(params: Params) -> Ruleset:
    zen = params.mode == "zen"
    return Ruleset(
        params=params,
        grid=TEN,
        shapes=SHAPES48,
        table=SHAPES48_TABLE,
        dealer=Dealer(shapes48_draw(params.mode == "hardcore"), RedealUntilFits()),
        scorer=NoScore() if zen else LineTableScorer(grid_bonus=2000, combo_cap=5),
        combo=NoCombo() if zen else StreakCombo(),
        gravity=False,
        tokens=None,
        zen=zen,
        continue_offered=params.mode in ("classic", "chrono", "hardcore"),
        rotations=None,
        time_limit_ms=CHRONO_MS if params.mode == "chrono" else None,
        counts_for_record=params.mode in ("classic", "daily", "hardcore"),
    )


def _gravity8(params: Params) -> Ruleset:
    return Ruleset(
        params=params,
        grid=EIGHT,
        shapes=TETROMINOES,
        table=TETROMINO_TABLE,
        dealer=Dealer(
            FamilyDraw(
                families_by_kind(TETROMINOES, len(TETROMINO_LETTERS)),
                (Tier(0, (1,) * len(TETROMINO_LETTERS)),),
            ),
            NoGuarantee(),
        ),
        scorer=TriangularScorer(grid_bonus=0, multiplier_cap=1),
        combo=NoCombo(),
        gravity=True,
        tokens=None,
        zen=False,
        continue_offered=False,
        rotations=rotation_table(TETROMINOES) if params.rotation else None,
        time_limit_ms=None,
        counts_for_record=True,
    )


@cache
def ruleset_of(params: Params) -> Ruleset:
    builders = {"classic10": _classic10, "shapes48": _shapes48, "gravity8": _gravity8}
    return builders[params.ruleset](params)


class BlocksEntry(CatalogEntry):
    """Blocks' catalog entry: what each ruleset offers in each of its modes."""

    rulesets: dict[str, dict[str, Any]]


def catalog(name: str, score_order: ScoreOrder) -> BlocksEntry:
    """The catalog entry's params, and what each ruleset offers in each of its modes."""
    return BlocksEntry(
        name=name,
        params={
            "ruleset": {"choices": list(RULESETS), "default": "classic10"},
            "mode": {"choices": list(MODES), "default": "classic"},
            "rotation": {"choices": [False, True], "default": False},
        },
        score_order=score_order,
        rulesets={name: _ruleset_entry(name) for name in RULESETS},
    )


def _ruleset_entry(name: RulesetName) -> dict[str, Any]:
    base = ruleset_of(Params(name))
    modes = {}
    for params in LETTERS:
        if params.ruleset == name and not params.rotation:
            rules = ruleset_of(params)
            modes[params.mode] = {
                "records": rules.counts_for_record,
                "new_set": rules.tokens is not None,
                "continue": rules.continue_offered,
                "time_limit_ms": rules.time_limit_ms,
                "daily_once": params.mode == "daily",
            }
    return {
        "rows": base.grid.rows,
        "cols": base.grid.cols,
        "pieces": len(base.shapes),
        "rotation": name == "gravity8",
        "modes": modes,
    }
