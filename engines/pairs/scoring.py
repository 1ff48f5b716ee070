"""Points: pairs and streaks, the hint and shuffle costs, the timed clear bonus.

Seed 004's worked example: pairs at 0 s, +1.2 s, +0.8 s score 10 + 12 + 14 = 36; one
6 s later scores 10 (46); a hint costs 2 (44), a manual shuffle 5 (39); a timed board
cleared with 37.4 s left adds 37 × 2 = 74.
"""

from __future__ import annotations

PAIR_POINTS = 10
STREAK_STEP_POINTS = 2
STREAK_MAX_BONUS = 10  # so from the 6th pair of a streak every pair is worth 20
STREAK_WINDOW_MS = 5_000  # a pair at most this long after the previous one extends the streak
HINT_COST = 2
SHUFFLE_COST = 5
TIMED_PAIR_MS = 3_000  # added to the countdown per pair, up to the size's cap
CLEAR_POINTS_PER_SECOND = 2


def next_streak(streak: int, last_removal_ms: int | None, at_ms: int) -> int:
    """The streak after a pair removed at ``at_ms`` (1 = a pair on its own)."""
    if last_removal_ms is not None and at_ms - last_removal_ms <= STREAK_WINDOW_MS:
        return streak + 1
    return 1


def pair_points(streak: int) -> int:
    return PAIR_POINTS + min(STREAK_STEP_POINTS * (streak - 1), STREAK_MAX_BONUS)


def clear_bonus(remaining_ms: int) -> int:
    """Timed mode, cleared board: points per whole second left on the clock."""
    return CLEAR_POINTS_PER_SECOND * (max(0, remaining_ms) // 1000)


def charged(score: int, cost: int) -> int:
    """The score after paying ``cost``; it never goes below zero."""
    return max(0, score - cost)
