"""A least-recently-used cache bounded by the weight of what it keeps, not by a count.

Built on ``cachetools.LRUCache`` with a ``getsizeof``; what this adds is for values whose
weight changes while they are kept (a board's tables fill up as lines are asked about, a
kept game grows by a move): a value is weighed again each time it is asked for or put
back, and the least recently used ones go until the total is back within the budget.
A value heavier than the whole budget is not kept. Thread-safe (a lock around each
operation): servers build and load boards on threads.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock
from typing import Generic, TypeVar

from cachetools import LRUCache

K = TypeVar("K")
V = TypeVar("V")


class _Dropping(LRUCache[K, V]):
    """An LRUCache that tells ``dropped`` of each value it lets go to make room."""

    def __init__(self, budget: int, weigh: Callable[[V], int], dropped: Callable[[V], None]):
        super().__init__(budget, getsizeof=weigh)
        self._dropped = dropped

    def popitem(self) -> tuple[K, V]:
        key, value = super().popitem()
        self._dropped(value)
        return key, value


class WeighedLRU(Generic[K, V]):
    def __init__(
        self,
        budget: int,
        weigh: Callable[[V], int],
        dropped: Callable[[V], None] = lambda _value: None,
    ) -> None:
        """``dropped(value)`` is told of each value let go to stay within the budget."""
        self.budget = budget
        self._new: Callable[[], LRUCache[K, V]] = lambda: _Dropping(max(budget, 0), weigh, dropped)
        self._values: LRUCache[K, V] = self._new()
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used, weighed anew)."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._put(key, value)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._put(key, value)

    def setdefault(self, key: K, value: V) -> V:
        """The value kept under ``key`` if there is one (another thread may have made it
        first), else ``value``, now kept."""
        with self._lock:
            kept = self._values.get(key)
            if kept is not None:
                return kept
            self._put(key, value)
            return value

    def pop(self, key: K) -> V | None:
        with self._lock:
            return self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values = self._new()  # LRUCache.clear() would pop each as if dropped

    @property
    def weight(self) -> int:
        """What the kept values weighed when last weighed (at most ``budget``)."""
        return int(self._values.currsize)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def _put(self, key: K, value: V) -> None:
        self._values.pop(key, None)  # then its new weight is all that is added
        try:
            self._values[key] = value  # weighs it, drops the least recently used
        except ValueError:  # heavier than the whole budget: not kept
            pass
