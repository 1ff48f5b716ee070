"""The one source of chance for every engine: SplitMix64.

SplitMix64 (Steele, Lea, Flood 2014; the seeder of Java's SplittableRandom and of the
xoshiro family) keeps a single 64-bit integer of state. Each draw adds the golden-ratio
increment ``0x9E3779B97F4A7C15`` to the state and returns the state passed through a
fixed mixing function. Everything is integer arithmetic modulo 2**64, so the same seed
gives the same numbers on every machine and in every future version; golden tests in
``tests/engines/test_core.py`` pin the sequence.

The state is a plain ``int`` meant to live inside a game's State. An engine that needs
chance builds ``Rng(state.rng)``, draws, and stores ``rng.state`` in the new State, so
replaying a log reproduces every draw.

Only integer draws are offered (no floats): ``below`` is unbiased (rejection sampling),
``weighted`` takes integer weights.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection on 64-bit integers that scrambles every bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Rng:
    """A SplitMix64 generator. Mutable while an engine draws; its ``state`` is plain data."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def from_seed(cls, seed: int, stream: str = "") -> Rng:
        """A generator for a game seed. ``stream`` separates unrelated uses of one seed."""
        salt = 0
        for byte in stream.encode():
            salt = mix64((salt ^ byte) & MASK64)
        return cls(mix64((seed ^ salt) & MASK64))

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)  # largest multiple of n that fits in 64 bits
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def between(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to its (non-negative int) weight."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("weighted() needs a positive total weight")
        x = self.below(total)
        for index, weight in enumerate(weights):
            if x < weight:
                return index
            x -= weight
        raise AssertionError("unreachable")

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place, from the last index down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample() needs 0 <= k <= len(items)")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
