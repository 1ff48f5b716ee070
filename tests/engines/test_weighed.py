"""WeighedLRU: least recently used values go once their weight passes the budget."""

from __future__ import annotations

from engines.core.weighed import WeighedLRU


def cache(budget: int) -> WeighedLRU[str, list[int]]:
    return WeighedLRU(budget, len)  # a list weighs its length


def test_the_least_recently_used_go_beyond_the_budget() -> None:
    kept = cache(10)
    for key in "abcd":
        kept.put(key, [0] * 3)
    assert [key in kept for key in "abcd"] == [False, True, True, True]
    assert kept.weight == 9
    assert kept.get("b") == [0] * 3  # b is now the most recent
    kept.put("e", [0] * 3)
    assert [key in kept for key in "bcde"] == [True, False, True, True]


def test_a_value_is_weighed_again_when_asked_for() -> None:
    kept = cache(10)
    grows = [0]
    kept.put("grows", grows)
    kept.put("other", [0] * 4)
    grows.extend([0] * 6)  # 7 now
    assert kept.weight == 5  # as last weighed
    assert kept.get("grows") is grows
    assert "other" not in kept and kept.weight == 7


def test_a_value_heavier_than_the_budget_is_not_kept() -> None:
    kept = cache(10)
    kept.put("a", [0] * 4)
    kept.put("big", [0] * 11)
    assert "big" not in kept and kept.get("a") == [0] * 4
    grows = [0]
    kept.put("grows", grows)
    grows.extend([0] * 20)
    assert kept.get("grows") is grows  # still returned, but too heavy now to keep
    assert "grows" not in kept and kept.weight == 4


def test_setdefault_keeps_the_first_value() -> None:
    kept = cache(10)
    first, second = [1], [2]
    assert kept.setdefault("k", first) is first
    assert kept.setdefault("k", second) is first
    assert kept.pop("k") is first and kept.pop("k") is None and len(kept) == 0


def test_it_tells_of_each_value_it_lets_go_for_room_and_of_no_other() -> None:
    dropped: list[list[int]] = []
    kept: WeighedLRU[str, list[int]] = WeighedLRU(10, len, dropped.append)
    first, second = [1] * 4, [2] * 4
    kept.put("a", first)
    kept.put("b", second)
    kept.pop("b")  # taken out, not let go for room
    kept.put("c", [3] * 5)
    kept.put("d", [4] * 5)  # a (4) goes to make room for d
    assert dropped == [first]
    kept.clear()
    assert dropped == [first] and len(kept) == 0 and kept.weight == 0
