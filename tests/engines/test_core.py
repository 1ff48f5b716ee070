"""engines/core: the PRNG's golden sequence, game numbers, daily seeds, replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core.daily import daily_seed, fnv1a32
from engines.core.numbers import format_number, parse_number
from engines.core.protocol import BadParams, IllegalMove
from engines.core.replay import replay
from engines.core.rng import Rng, mix64
from engines.reference.tally import ENGINE as TALLY


def test_splitmix64_reference_sequence() -> None:
    # The published SplitMix64 outputs for seed 0 (Vigna's splitmix64.c).
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_golden_draws_are_pinned() -> None:
    rng = Rng.from_seed(41739205, "pairs")
    assert [rng.below(100) for _ in range(8)] == GOLDEN_BELOW
    rng = Rng.from_seed(7)
    items = list(range(10))
    rng.shuffle(items)
    assert items == GOLDEN_SHUFFLE
    assert Rng.from_seed(7).weighted([1, 0, 3]) in (0, 2)


GOLDEN_BELOW = [56, 42, 48, 51, 19, 11, 54, 73]
GOLDEN_SHUFFLE = [1, 6, 8, 2, 4, 9, 3, 0, 7, 5]


def test_streams_differ_and_state_is_plain_data() -> None:
    a, b = Rng.from_seed(5, "blocks"), Rng.from_seed(5, "pairs")
    assert a.state != b.state
    copy = Rng(a.state)
    assert [a.next_u64() for _ in range(5)] == [copy.next_u64() for _ in range(5)]


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_mix64_stays_in_64_bits(z: int) -> None:
    assert 0 <= mix64(z) < 2**64


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**9))
def test_below_is_in_range(state: int, n: int) -> None:
    assert 0 <= Rng(state).below(n) < n


@given(st.integers(min_value=0, max_value=2**64 - 1), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(state: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(state).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


def test_rng_refuses_empty_ranges() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):
        Rng(1).weighted([0, 0])


def test_game_numbers() -> None:
    assert format_number(41739205, "b") == "41739205-b"
    assert format_number(42, "ab") == "00000042-ab"
    assert parse_number("41739205-b") == (41739205, "b")
    assert parse_number(" 00000042-ab ") == (42, "ab")


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "41739205",
        "4173920-b",
        "417392051-b",
        "41739205-B",
        "41739205-",
        "41739205_b",
        "41739205-b1",
        "x1739205-b",
        "٤١٧٣٩٢٠٥-b",
        "41739205-é",
    ],
)
def test_bad_game_numbers(bad: str) -> None:
    with pytest.raises(BadParams) as error:
        parse_number(bad)
    assert error.value.code == "bad_number"
    assert "41739205-b" in error.value.message


@pytest.mark.parametrize("seed,letters", [(-1, "a"), (10**8, "a"), (5, ""), (5, "A"), (5, "a1")])
def test_format_refuses_bad_parts(seed: int, letters: str) -> None:
    with pytest.raises(BadParams):
        format_number(seed, letters)


def test_fnv1a_reference_values() -> None:
    assert fnv1a32("") == 0x811C9DC5
    assert fnv1a32("a") == 0xE40C292C
    assert fnv1a32("foobar") == 0xBF9CF968


def test_daily_seed_is_pinned() -> None:
    assert daily_seed("pairs", "2026-11-29") == fnv1a32("pairs:2026-11-29") % 10**8
    assert daily_seed("pairs", "2026-11-29") == DAILY_PAIRS_2026_11_29
    with pytest.raises(BadParams):
        daily_seed("pairs", "29.11.2026")


DAILY_PAIRS_2026_11_29 = 72537419


def test_replay_folds_moves_and_ticks() -> None:
    params = TALLY.parse_params({"opponent": "human", "limit": 30, "timed": True})
    start = TALLY.new_game(params, 9)
    log = [
        {"move": {"type": "add", "n": 2}, "at_ms": 10, "seat": start.turn},
        {"move": {"type": "add", "n": 3}, "at_ms": 20, "seat": 1 - start.turn},
        {"move": None, "at_ms": 60_000},
    ]
    state = replay(TALLY, params, 9, log)
    assert state.tally == start.tally + 5 and state.over == "time_up"
    with pytest.raises(IllegalMove):
        replay(
            TALLY,
            params,
            9,
            [{"move": {"type": "add", "n": 2}, "at_ms": 0, "seat": 1 - start.turn}],
        )
