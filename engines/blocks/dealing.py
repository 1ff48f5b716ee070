"""Dealing sets of three: how one piece is drawn, and what a new set guarantees.

A dealer is a piece draw (family weights by score tier, or per-shape weights) and a
guarantee (classic10's ten attempts and fallback, shapes48's redeal, or none). Every draw
comes from the game's ``Rng``, so a game number always deals the same pieces.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Protocol

from engines.blocks.geometry import Placements
from engines.core.rng import Rng

Hand = tuple[int, int, int]


class PieceDraw(Protocol):
    def draw(self, rng: Rng, score: int) -> int: ...


def weighted_index(rng: Rng, cumulative: tuple[int, ...]) -> int:
    """Same draw as ``Rng.weighted`` (one ``below(total)``), with prefix sums precomputed."""
    return bisect_right(cumulative, rng.below(cumulative[-1]))


@dataclass(frozen=True)
class Tier:
    min_score: int  # the tier applies from this score (when the set is dealt)
    weights: tuple[int, ...]  # one integer weight per family


@dataclass(frozen=True)
class FamilyDraw:
    """Draw a family by the weights of the score's tier, then one of its positions uniformly."""

    families: tuple[tuple[int, ...], ...]  # piece indices of each family
    tiers: tuple[Tier, ...]  # by increasing min_score
    cumulative: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        prefix_sums = tuple(tuple(accumulate(t.weights)) for t in self.tiers)
        object.__setattr__(self, "cumulative", prefix_sums)

    def tier_of(self, score: int) -> int:
        tier = 0
        for i, t in enumerate(self.tiers):
            if score >= t.min_score:
                tier = i
        return tier

    def draw(self, rng: Rng, score: int) -> int:
        family = self.families[weighted_index(rng, self.cumulative[self.tier_of(score)])]
        return family[rng.below(len(family))]


@dataclass(frozen=True)
class ShapeDraw:
    """Draw a piece with a fixed integer weight per piece."""

    weights: tuple[int, ...]
    cumulative: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cumulative", tuple(accumulate(self.weights)))

    def draw(self, rng: Rng, score: int) -> int:
        return weighted_index(rng, self.cumulative)


def draw_three(draw: PieceDraw, rng: Rng, score: int) -> Hand:
    """Three pieces drawn one after another, first to third."""
    first = draw.draw(rng, score)
    second = draw.draw(rng, score)
    third = draw.draw(rng, score)
    return (first, second, third)


class Guarantee(Protocol):
    def deal(
        self, draw: PieceDraw, rng: Rng, board: int, score: int, table: tuple[Placements, ...],
        full: int,
    ) -> Hand: ...


def any_fits(hand: Hand, board: int, table: tuple[Placements, ...], full: int) -> bool:
    return any(table[piece].fits(board, full) for piece in hand)


@dataclass(frozen=True)
class RetryThenLargest:
    """classic10: never three identical pieces (the third is redrawn until it differs); at
    least one piece must fit (else the whole set is redrawn), at most ``attempts`` sets; if
    the last set still has no fitting piece, its third piece becomes the largest piece that
    fits now (most cells; ties go to the earlier piece in the table)."""

    attempts: int = 10

    def deal(
        self, draw: PieceDraw, rng: Rng, board: int, score: int, table: tuple[Placements, ...],
        full: int,
    ) -> Hand:
        hand: Hand = (0, 0, 0)
        for _ in range(self.attempts):
            first, second, third = draw_three(draw, rng, score)
            while first == second == third:
                third = draw.draw(rng, score)
            hand = (first, second, third)
            if any_fits(hand, board, table, full):
                return hand
        return (hand[0], hand[1], largest_fitting(board, table, full))


def largest_fitting(board: int, table: tuple[Placements, ...], full: int) -> int:
    best = -1
    for index, placements in enumerate(table):
        if placements.fits(board, full) and (
            best < 0 or placements.shape.size > table[best].shape.size
        ):
            best = index
    if best < 0:
        # Unreachable in play: a full grid has full lines, which are cleared before a deal.
        raise ValueError("no piece fits a full grid")
    return best


@dataclass(frozen=True)
class RedealUntilFits:
    """shapes48: a set none of whose pieces fits anywhere is redealt. This ends: the single
    cell has a positive weight and always fits (a full grid is cleared before a deal)."""

    def deal(
        self, draw: PieceDraw, rng: Rng, board: int, score: int, table: tuple[Placements, ...],
        full: int,
    ) -> Hand:
        while True:
            hand = draw_three(draw, rng, score)
            if any_fits(hand, board, table, full):
                return hand


@dataclass(frozen=True)
class NoGuarantee:
    """gravity8: three pieces as drawn (the seed promises nothing; a set may end the game)."""

    def deal(
        self, draw: PieceDraw, rng: Rng, board: int, score: int, table: tuple[Placements, ...],
        full: int,
    ) -> Hand:
        return draw_three(draw, rng, score)


@dataclass(frozen=True)
class Dealer:
    draw: PieceDraw
    guarantee: Guarantee

    def deal(
        self, rng: Rng, board: int, score: int, table: tuple[Placements, ...], full: int
    ) -> Hand:
        return self.guarantee.deal(self.draw, rng, board, score, table, full)

    def draw_set(self, rng: Rng, score: int) -> Hand:
        """Three pieces without any check (Zen's refill when nothing fits)."""
        return draw_three(self.draw, rng, score)
