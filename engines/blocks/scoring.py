"""Combo rules and scorers: the small strategies where the rulesets' arithmetic differs.

A placement's points are ``cells + line points + bonus``. The combo rule runs first (a
clearing placement counts itself), then the scorer prices the lines with that combo.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ComboState:
    combo: int  # clearing placements in the current series
    misses: int  # placements in a row that cleared nothing


class ComboRule(Protocol):
    def after(self, state: ComboState, cleared: bool) -> ComboState: ...


@dataclass(frozen=True)
class GraceCombo:
    """classic10: +1 per clearing placement; reset only after ``grace + 1`` misses in a row."""

    grace: int = 2

    def after(self, state: ComboState, cleared: bool) -> ComboState:
        if cleared:
            return ComboState(state.combo + 1, 0)
        misses = state.misses + 1
        return ComboState(0 if misses > self.grace else state.combo, misses)


@dataclass(frozen=True)
class StreakCombo:
    """shapes48: the k-th clearing placement in a row has combo k; a miss ends it."""

    def after(self, state: ComboState, cleared: bool) -> ComboState:
        if cleared:
            return ComboState(state.combo + 1, 0)
        return ComboState(0, state.misses + 1)


@dataclass(frozen=True)
class NoCombo:
    """gravity8 and Zen: there is no combo."""

    def after(self, state: ComboState, cleared: bool) -> ComboState:
        return ComboState(0, 0 if cleared else state.misses + 1)


@dataclass(frozen=True)
class Points:
    cells: int
    lines: int  # line points, combo included
    bonus: int  # cleared-grid bonus, never multiplied

    @property
    def total(self) -> int:
        return self.cells + self.lines + self.bonus


class Scorer(Protocol):
    def points(self, cells: int, lines: int, combo: int, grid_emptied: bool) -> Points: ...

    def combo_label(self, combo: int) -> int | None:
        """The N of "Combo ×N" to show, or None when nothing is shown."""
        ...


def triangular(lines: int) -> int:
    """10·L·(L+1)/2: 1→10, 2→30, 3→60, 4→100, 5→150, 6→210."""
    return 10 * lines * (lines + 1) // 2


@dataclass(frozen=True)
class TriangularScorer:
    """classic10 (base × min(combo, 5), +300 cleared grid) and gravity8 (no combo, no bonus)."""

    grid_bonus: int
    multiplier_cap: int

    def points(self, cells: int, lines: int, combo: int, grid_emptied: bool) -> Points:
        multiplier = min(max(combo, 1), self.multiplier_cap)
        bonus = self.grid_bonus if grid_emptied else 0
        return Points(cells, triangular(lines) * multiplier, bonus)

    def combo_label(self, combo: int) -> int | None:
        # Seed 000: "from combo 2 the screen shows Combo ×N": N is the combo itself; only
        # the multiplier stops at ×5.
        return combo if combo >= 2 and self.multiplier_cap > 1 else None


def line_table_points(lines: int) -> int:
    """shapes48: 1→100, 2→250, 3→500, 4→1000, L≥5→1000+500·(L−4)."""
    if lines >= 4:
        return 1000 + 500 * (lines - 4)
    return (0, 100, 250, 500)[lines]


@dataclass(frozen=True)
class LineTableScorer:
    """shapes48: line table, +50% per combo step from ×2 up to +200% at ×5, +2000 grid."""

    grid_bonus: int = 2000
    combo_cap: int = 5

    def points(self, cells: int, lines: int, combo: int, grid_emptied: bool) -> Points:
        step = min(max(combo, 1), self.combo_cap)
        # ×k adds 50% per step above 1: points·(1 + (k−1)/2) = points·(k+1)/2, always exact
        # because every table value is a multiple of 50.
        line_points = line_table_points(lines) * (step + 1) // 2
        return Points(cells, line_points, self.grid_bonus if grid_emptied else 0)

    def combo_label(self, combo: int) -> int | None:
        return min(combo, self.combo_cap) if combo >= 2 else None


@dataclass(frozen=True)
class NoScore:
    """Zen: no score at all."""

    def points(self, cells: int, lines: int, combo: int, grid_emptied: bool) -> Points:
        return Points(0, 0, 0)

    def combo_label(self, combo: int) -> int | None:
        return None
