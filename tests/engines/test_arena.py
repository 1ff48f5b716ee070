"""Arena rules (engines/core/arena.py): results, the scoring sheet (fire, berserk,
aborted games), the pairing of free players and the performance tiebreak; exact examples
and Hypothesis properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.arena import (
    ArenaGame,
    ArenaResult,
    Entrant,
    ScoredGame,
    met_last,
    pair,
    performance,
    result_of,
    score_sheet,
)
from tests.profile import examples

W, D, L, A = ArenaResult.WIN, ArenaResult.DRAW, ArenaResult.LOSS, ArenaResult.ABORTED


def games(*results: ArenaResult) -> list[ArenaGame]:
    return [ArenaGame(result, False, True) for result in results]


# --- results -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "seat", "movers", "expected"),
    [
        (0, 0, {0, 1}, W),
        (0, 1, {0, 1}, L),
        (None, 0, {0, 1}, D),
        (None, 1, {0, 1}, D),
        (None, 0, set(), A),  # nobody moved
        (1, 0, set(), A),
        (None, 0, {0}, A),  # aborted by the clock before the second seat drew
        (None, 1, {0}, A),
        (1, 1, {0}, W),  # a win stands (seat 0 drew, then resigned)
        (1, 0, {0}, L),
    ],
)
def test_result_of(winner: int | None, seat: int, movers: set[int], expected: ArenaResult) -> None:
    assert result_of(winner, seat, frozenset(movers)) == expected


# --- the sheet -----------------------------------------------------------------------


def test_fire_doubles_after_two_wins_until_a_game_that_is_not_a_win() -> None:
    sheet = score_sheet(games(W, W, W, D, L, W, W, W))
    assert [game.points for game in sheet.games] == [2, 2, 4, 2, 0, 2, 2, 4]
    assert [game.fire for game in sheet.games] == [False, False, True, True] + [False] * 3 + [True]
    assert sheet.score == 18 and sheet.fire is True


def test_a_loss_or_a_draw_puts_the_fire_out() -> None:
    assert score_sheet(games(W, W, L)).fire is False
    assert score_sheet(games(W, W, D)).games[-1] == ScoredGame(D, 2, True, False)
    assert score_sheet(games(W, W, D)).fire is False
    assert score_sheet(games(W, W)).fire is True
    assert score_sheet(games(W)).fire is False
    assert score_sheet([]).score == 0 and score_sheet([]).fire is False


def test_berserk_wins() -> None:
    long_win = [ArenaGame(W, True, True)]
    assert score_sheet(long_win).games[0].points == 3
    assert score_sheet([*games(W, W), *long_win]).games[-1].points == 5  # on fire: 4 + 1
    short_win = [ArenaGame(W, True, False)]
    assert score_sheet(short_win).games[0].points == 2
    assert score_sheet([ArenaGame(D, True, True)]).games[0].points == 1  # only a win
    assert score_sheet([ArenaGame(L, True, True)]).games[0].points == 0
    assert score_sheet([ArenaGame(W, False, True)]).games[0].points == 2


def test_an_aborted_game_scores_nothing_and_leaves_the_streak_alone() -> None:
    sheet = score_sheet(games(W, A, W, A, W))
    assert [game.points for game in sheet.games] == [2, 0, 2, 0, 4]
    assert sheet.games[1] == ScoredGame(A, 0, False, False)
    assert sheet.games[3].fire is False and sheet.games[4].fire is True
    assert sheet.score == 8 and sheet.fire is True
    assert score_sheet(games(W, W, A)).fire is True  # still on fire
    assert score_sheet([ArenaGame(A, True, True)]).games[0] == ScoredGame(A, 0, False, True)


results = st.sampled_from([W, D, L, A])
arena_games = st.lists(st.builds(ArenaGame, results, st.booleans(), st.booleans()), max_size=30)


@settings(max_examples=examples(300), deadline=None)
@given(played=arena_games)
def test_sheet_invariants(played: list[ArenaGame]) -> None:
    sheet = score_sheet(played)
    assert len(sheet.games) == len(played)
    assert sheet.score == sum(game.points for game in sheet.games)
    counted = [game.result for game in played if game.result != A]
    streak = 0
    for result in reversed(counted):
        if result != W:
            break
        streak += 1
    assert sheet.fire == (streak >= 2)
    for game, scored in zip(played, sheet.games, strict=True):
        assert scored.result == game.result and scored.berserk == game.berserk
        assert scored.points in {0, 1, 2, 3, 4, 5}
        if game.result == A:
            assert (scored.points, scored.fire) == (0, False)
        elif game.result == L:
            assert scored.points == 0
        elif game.result == D:
            assert scored.points == (2 if scored.fire else 1)
        else:
            bonus = 1 if game.berserk and game.long_enough else 0
            assert scored.points == (4 if scored.fire else 2) + bonus
    # dropping the aborted games changes no other game's score
    kept = score_sheet([game for game in played if game.result != A])
    assert [g for g in sheet.games if g.result != A] == list(kept.games)
    assert (kept.score, kept.fire) == (sheet.score, sheet.fire)


@given(played=st.lists(st.builds(ArenaGame, st.just(L), st.booleans(), st.booleans())))
def test_an_all_loss_sheet_scores_nothing(played: list[ArenaGame]) -> None:
    sheet = score_sheet(played)
    assert sheet.score == 0 and sheet.fire is False


# --- pairing -------------------------------------------------------------------------


def entrants(*specs: tuple[str, str | None]) -> list[Entrant]:
    """Entrants ranked in the order given: (player, previous opponent)."""
    return [Entrant(player, rank, previous) for rank, (player, previous) in enumerate(specs)]


def test_pairs_are_neighbours_in_the_ranking() -> None:
    free = entrants(("a", None), ("b", None), ("c", None), ("d", None), ("e", None))
    assert pair(free, others_playing=True) == [("a", "b"), ("c", "d")]  # e waits
    assert pair(list(reversed(free)), others_playing=False) == [("a", "b"), ("c", "d")]


def test_nearest_ranked_among_the_free_not_the_previous_opponent() -> None:
    free = [Entrant("a", 0, "b"), Entrant("b", 3, "a"), Entrant("c", 7, None)]
    assert pair(free, others_playing=True) == [("a", "c")]  # b waits
    free = [Entrant("a", 0, None), Entrant("b", 5, None), Entrant("c", 2, None)]
    assert pair(free, others_playing=True) == [("a", "c")]
    # equal ranks (a ranking not yet told apart): by name
    free = [Entrant("y", 1, None), Entrant("x", 1, None), Entrant("w", 0, None)]
    assert pair(free, others_playing=True) == [("w", "x")]


def test_previous_opponents_wait_while_anyone_else_can_come() -> None:
    two = [Entrant("a", 0, "b"), Entrant("b", 1, "a")]
    assert pair(two, others_playing=True) == []  # another game may free someone
    assert pair(two, others_playing=False) == [("a", "b")]  # nobody else can come
    one_sided = [Entrant("a", 0, None), Entrant("b", 1, "a")]
    assert pair(one_sided, others_playing=True) == []
    three = [*two, Entrant("c", 2, None)]
    assert pair(three, others_playing=False) == [("a", "c")]  # b waits: c was free
    assert pair([], others_playing=False) == []
    assert pair([Entrant("a", 0, None)], others_playing=False) == []


def test_a_chain_of_previous_opponents() -> None:
    free = entrants(("a", "b"), ("b", "a"), ("c", "d"), ("d", "c"))
    assert pair(free, others_playing=True) == [("a", "c"), ("b", "d")]


@st.composite
def arenas(draw: st.DrawFn) -> tuple[list[Entrant], bool]:
    names = draw(st.lists(st.sampled_from("abcdefghijkl"), unique=True, max_size=12))
    ranks = draw(st.permutations(range(len(names))))
    free = [
        Entrant(name, rank, draw(st.none() | st.sampled_from([*names, "zz"])))
        for name, rank in zip(names, ranks, strict=True)
    ]
    return free, draw(st.booleans())


@settings(max_examples=examples(300), deadline=None)
@given(arena=arenas())
def test_pairing_properties(arena: tuple[list[Entrant], bool]) -> None:
    free, others_playing = arena
    pairs = pair(free, others_playing)
    by_name = {entrant.player: entrant for entrant in free}
    paired = [player for two in pairs for player in two]
    assert len(paired) == len(set(paired))  # nobody twice
    assert set(paired) <= set(by_name)
    for a, b in pairs:
        assert by_name[a].rank < by_name[b].rank  # the better ranked first
    left = [entrant for entrant in free if entrant.player not in paired]
    # nobody left over who could have been paired: the ones waiting all met last
    for i, x in enumerate(left):
        for y in left[i + 1 :]:
            assert met_last(x, y)
    rematches = [(a, b) for a, b in pairs if met_last(by_name[a], by_name[b])]
    if rematches:
        # previous opponents only when nobody else could come or was paired
        assert not others_playing and rematches == pairs
        assert all(met_last(x, y) for x in free for y in free if x is not y)
    if not others_playing and not pairs:
        assert len(left) <= 1
    # each pair, in order: its better-ranked player took the nearest-ranked player still
    # free who was not their previous opponent (none of the ones waiting is better)
    if not rematches:
        taken: set[str] = set()
        for a, b in pairs:
            x = by_name[a]
            distance = by_name[b].rank - x.rank
            for y in free:
                if y.player not in taken and y is not x and not met_last(x, y):
                    assert abs(y.rank - x.rank) >= distance
                    assert y.rank > x.rank  # the better ranked ones were paired first
            taken |= {a, b}
    # deterministic, whatever the order the free players come in
    shuffled = list(free)
    random.Random(len(free)).shuffle(shuffled)
    assert pair(shuffled, others_playing) == pairs


# --- the tiebreak --------------------------------------------------------------------


def test_performance() -> None:
    assert performance([]) is None
    assert performance([(A, 1800)]) is None
    assert performance([(W, 1500)]) == 2000
    assert performance([(L, 1500), (D, 1600), (A, 3000)]) == 1300  # (1000 + 1600) / 2
    assert performance([(W, 1500), (D, 1500)]) == 1750
    assert performance([(D, 1500), (D, 1502), (D, 1500)]) == 1501  # 1500.67
    assert performance([(D, 1500), (D, 1501)]) == 1501  # 1500.5: half up


@given(st.lists(st.tuples(results, st.integers(0, 3000)), max_size=20))
def test_performance_is_the_rounded_mean(played: list[tuple[ArenaResult, int]]) -> None:
    counted = [
        rating + {W: 500, D: 0, L: -500}[result] for result, rating in played if result != A
    ]
    got = performance(played)
    if not counted:
        assert got is None
    else:
        assert got is not None and abs(got - sum(counted) / len(counted)) <= 0.5
