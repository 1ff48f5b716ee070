"""classic10 (seed 000, "Блок-пазл"): scoring, combo, New set, the end, and dealing."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from blocks_support import (
    CLASSIC10,
    ScriptedRng,
    event,
    lines_board,
    make_state,
    place,
    types,
)

from engines.blocks import ENGINE
from engines.blocks.dealing import weighted_index
from engines.blocks.moves import Finish, NewSet
from engines.blocks.rulesets import CLASSIC10_TIERS, ruleset_of
from engines.blocks.shapes import CLASSIC10_SHAPES
from engines.core.protocol import IllegalMove, Outcome, RecordEntry
from engines.core.rng import Rng

RULES = ruleset_of(CLASSIC10)
SQUARE3_HOLES = [(r, c) for r in range(3) for c in range(3)]


def test_the_nineteen_pieces_in_their_families() -> None:
    names = [s.name for s in CLASSIC10_SHAPES]
    assert names == [
        "single",
        "bar2_h", "bar2_v", "bar3_h", "bar3_v", "bar4_h", "bar4_v", "bar5_h", "bar5_v",
        "square2", "square3",
        "corner3_tl", "corner3_tr", "corner3_br", "corner3_bl",
        "corner5_tl", "corner5_tr", "corner5_br", "corner5_bl",
    ]
    # a piece's kind is its family's place in the seed's weight table
    families = (
        "single", "bar2", "bar3", "bar4", "bar5", "square2", "square3", "corner3", "corner5"
    )
    sizes = Counter(families[s.kind - 1] for s in CLASSIC10_SHAPES)
    assert sizes == {
        "single": 1, "bar2": 2, "bar3": 2, "bar4": 2, "bar5": 2,
        "square2": 1, "square3": 1, "corner3": 4, "corner5": 4,
    }
    by_name = {s.name: s.cells for s in CLASSIC10_SHAPES}
    assert by_name["corner3_br"] == ((0, 1), (1, 0), (1, 1))
    assert by_name["corner5_bl"] == ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2))
    assert by_name["bar4_v"] == ((0, 0), (1, 0), (2, 0), (3, 0))


# --- scoring: the seed's 10 / 30 / 60 / 100 / 150 / 210 --------------------------------------


@pytest.mark.parametrize(
    ("piece", "rows", "cols", "holes", "points"),
    [
        ("single", {0}, set(), [(0, 0)], 1 + 10),
        ("single", {0}, {0}, [(0, 0)], 1 + 30),
        ("square3", {0, 1, 2}, set(), SQUARE3_HOLES, 9 + 60),
        ("square3", {0, 1, 2}, {0}, SQUARE3_HOLES, 9 + 100),
        ("square3", {0, 1, 2}, {0, 1}, SQUARE3_HOLES, 9 + 150),
        ("square3", {0, 1, 2}, {0, 1, 2}, SQUARE3_HOLES, 9 + 210),
    ],
)
def test_base_points_per_lines(piece: str, rows: set[int], cols: set[int],
                               holes: list[tuple[int, int]], points: int) -> None:
    state = make_state(CLASSIC10, lines_board(rows, cols, holes, extra=[(9, 9)]), piece, "single")
    after, events = place(state, 0, 0, 0)
    cleared = event(events, "cleared")
    assert cleared["rows"] == sorted(rows) and cleared["cols"] == sorted(cols)
    assert cleared["points"] == points - len(holes)
    assert event(events, "placed")["points"] == points
    assert after.score == points
    assert after.lines == len(rows) + len(cols)
    # A cell where a full row and a full column meet is removed once.
    assert len(cleared["cells"]) == 10 * len(rows) + 10 * len(cols) - len(rows) * len(cols)
    assert after.board == 1 << 99  # only the extra cell at (9, 9) is left


@pytest.mark.parametrize(
    ("combo_before", "multiplier"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 5), (9, 5)]
)
def test_the_multiplier_is_the_combo_up_to_five(combo_before: int, multiplier: int) -> None:
    board = lines_board({0}, {0}, [(0, 0)], extra=[(9, 9)])
    state = make_state(CLASSIC10, board, "single", "single", combo=combo_before)
    after, events = place(state, 0, 0, 0)
    assert event(events, "placed")["points"] == 1 + 30 * multiplier
    assert after.combo == combo_before + 1
    assert event(events, "cleared")["combo"] == combo_before + 1


def test_combo_counts_clearing_placements_in_a_row() -> None:
    board = lines_board({0, 1, 2}, set(), [(0, 0), (1, 0), (2, 0)], extra=[(9, 9)])
    state = make_state(CLASSIC10, board, "single", "single", "single")
    points = []
    for row in range(3):
        state, events = place(state, row, row, 0)
        points.append(event(events, "placed")["points"])
    assert points == [1 + 10, 1 + 20, 1 + 30]
    assert state.combo == 3 and state.best_combo == 3


def test_combo_survives_two_placements_that_clear_nothing() -> None:
    board = lines_board({5}, set(), [(5, 0)], extra=[(9, 9)])
    state = make_state(CLASSIC10, board, "single", "single", "single", combo=3)
    state, _ = place(state, 0, 0, 9)
    assert (state.combo, state.misses) == (3, 1)
    state, _ = place(state, 1, 1, 9)
    assert (state.combo, state.misses) == (3, 2)
    state, events = place(state, 2, 5, 0)
    assert event(events, "placed")["points"] == 1 + 10 * 4
    assert (state.combo, state.misses) == (4, 0)


def test_combo_resets_after_three_placements_that_clear_nothing() -> None:
    state = make_state(CLASSIC10, None, "single", "single", "single", combo=4, best_combo=4)
    for col in range(3):
        state, _ = place(state, col, 0, col)
    assert (state.combo, state.misses) == (0, 3)
    assert state.best_combo == 4


def test_combo_label_is_shown_from_combo_two() -> None:
    labels = [RULES.scorer.combo_label(combo) for combo in range(8)]
    assert labels == [None, None, 2, 3, 4, 5, 6, 7]


def test_cleared_grid_gives_300_not_multiplied_and_a_token() -> None:
    board = lines_board({0}, set(), [(0, 0)])
    state = make_state(CLASSIC10, board, "single", "single", combo=1, tokens=1)
    after, events = place(state, 0, 0, 0)
    assert event(events, "placed")["points"] == 1 + 10 * 2 + 300
    assert event(events, "grid_cleared") == {"type": "grid_cleared", "bonus": 300, "tokens": 2}
    assert after.board == 0 and after.tokens == 2


def test_tokens_are_capped_at_three() -> None:
    state = make_state(CLASSIC10, lines_board({0}, set(), [(0, 0)]), "single", "single", tokens=3)
    after, events = place(state, 0, 0, 0)
    assert after.tokens == 3
    assert event(events, "grid_cleared")["tokens"] == 3


# --- New set, stuck, Finish -----------------------------------------------------------------


def test_a_game_starts_with_one_new_set() -> None:
    state = ENGINE.new_game(CLASSIC10, 5)
    assert state.tokens == 1
    view = ENGINE.view(state, 0)
    assert view["tokens"] == 1 and view["can_new_set"] is True


def test_new_set_replaces_the_hand_and_keeps_score_and_combo() -> None:
    state = make_state(CLASSIC10, None, "single", None, "square3", score=120, combo=2, misses=1,
                       tokens=2, placements=7)
    after, events = ENGINE.apply(state, NewSet(), 50)
    assert types(events) == ["new_set", "dealt"]
    assert events[0]["tokens"] == 1
    assert all(piece >= 0 for piece in after.hand)
    assert (after.score, after.combo, after.misses, after.placements, after.tokens) == (
        120, 2, 1, 7, 1
    )
    assert after.sets == state.sets + 1
    assert [h["name"] for h in events[1]["hand"]] == [RULES.shapes[p].name for p in after.hand]


def test_new_set_needs_a_token() -> None:
    state = make_state(CLASSIC10, None, "single", tokens=0)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, NewSet(), 0)
    assert error.value.code == "no_tokens"


NO_3X3 = [
    "".join("#" if r % 3 == 1 and c % 3 == 1 else "." for c in range(10)) for r in range(10)
]


def test_stuck_with_a_token_waits_for_a_new_set() -> None:
    state = make_state(CLASSIC10, NO_3X3, "single", "square3", tokens=1)
    after, events = place(state, 0, 0, 0)
    assert types(events) == ["placed", "stuck"]
    assert events[-1]["tokens"] == 1
    assert not after.over and ENGINE.outcome(after) is None
    view = ENGINE.view(after, 0)
    assert view["stuck"] is True and view["can_new_set"] is True and view["over"] is False
    again, events = ENGINE.apply(after, NewSet(), 10)
    assert not again.over and again.tokens == 0


def test_stuck_without_tokens_ends_the_game_with_the_final_card() -> None:
    state = make_state(CLASSIC10, NO_3X3, "single", "square3", tokens=0, score=40, lines=3,
                       best_combo=2, placements=9)
    after, events = place(state, 0, 0, 0, at_ms=61_000)
    assert types(events) == ["placed", "over"]
    assert events[-1] == {"type": "over", "reason": "stuck"}
    assert ENGINE.outcome(after) == Outcome("stuck", (41,), None, 61_000)
    assert ENGINE.record(after) == RecordEntry("classic10/classic", 41, 61_000)
    assert ENGINE.to_move(after) is None
    final = ENGINE.view(after, 0)["final"]
    assert final == {
        "reason": "stuck",
        "score": 41,
        "lines": 3,
        "best_combo": 2,
        "placements": 10,
        "time_ms": 61_000,
        "stuck": [{"name": "square3", "kind": 7,
                   "cells": [[r, c] for r in range(3) for c in range(3)]}],
        "tip": {"code": "keep_square", "size": 3},
    }
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(after, NewSet(), 62_000)
    assert error.value.code == "game_over"


def test_finish_ends_the_game_at_any_time() -> None:
    state = make_state(CLASSIC10, None, "single", "bar5_h", "square2", score=77)
    after, events = ENGINE.apply(state, Finish(), 5_000)
    assert events == [{"type": "over", "reason": "finished"}]
    assert ENGINE.outcome(after) == Outcome("finished", (77,), None, 5_000)
    final = ENGINE.view(after, 0)["final"]
    assert final["stuck"] == [] and final["tip"] == {"code": "keep_open"}
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(after, Finish(), 6_000)
    assert error.value.code == "game_over"


# --- dealing ---------------------------------------------------------------------------------


def test_family_weights_are_the_seeds_doubled() -> None:
    assert [t.min_score for t in CLASSIC10_TIERS] == [0, 300, 1500]
    halves = [[w / 2 for w in t.weights] for t in CLASSIC10_TIERS]
    assert halves == [
        [3, 4, 4, 2, 1, 4, 0.5, 4, 1],
        [2, 3, 3, 3, 2, 3, 1.5, 3, 2.5],
        [1, 2, 3, 3, 3, 3, 2, 2, 3.5],
    ]


@pytest.mark.parametrize(
    ("score", "tier"), [(0, 0), (299, 0), (300, 1), (1499, 1), (1500, 2), (99_999, 2)]
)
def test_the_tier_is_chosen_by_the_score(score: int, tier: int) -> None:
    assert RULES.dealer.draw.tier_of(score) == tier  # type: ignore[attr-defined]


@pytest.mark.parametrize("tier", [0, 1, 2])
def test_families_are_drawn_by_their_weights_and_positions_evenly(tier: int) -> None:
    rng = Rng.from_seed(tier, "test")
    score = CLASSIC10_TIERS[tier].min_score
    draws = 40_000
    counts = Counter(RULES.dealer.draw.draw(rng, score) for _ in range(draws))
    weights = CLASSIC10_TIERS[tier].weights
    for family, weight in enumerate(weights):
        members = [i for i, s in enumerate(CLASSIC10_SHAPES) if s.kind == family + 1]
        share = sum(counts[i] for i in members) / draws
        assert abs(share - weight / sum(weights)) < 0.01
        for member in members:
            assert abs(counts[member] / draws - weight / sum(weights) / len(members)) < 0.01


def test_weighted_index_matches_rng_weighted() -> None:
    weights = (6, 8, 0, 4, 2, 8, 1, 8, 2)
    cumulative = tuple(sum(weights[: i + 1]) for i in range(len(weights)))
    a, b = Rng(77), Rng(77)
    assert [weighted_index(a, cumulative) for _ in range(500)] == [
        b.weighted(weights) for _ in range(500)
    ]


# Tier-1 scripts: below(47) picks the family (single 0, bar2 6, bar5 26, square2 28,
# square3 36), then below(len(family)) the position.
SINGLE, BAR2_H, BAR2_V, BAR5_H = [0, 0], [6, 0], [6, 1], [26, 0]
SQUARE2, SQUARE3 = [28, 0], [36, 0]
# Isolated empty cells (one per row and column): only the single fits.
ISOLATED = ["".join("." if c == (3 * r) % 10 else "#" for c in range(10)) for r in range(10)]


def deal(board_rows: list[str], answers: list[int]) -> list[str]:
    state = make_state(CLASSIC10, board_rows)
    rng = ScriptedRng(answers)
    hand = RULES.dealer.deal(rng, state.board, 0, RULES.table, RULES.grid.full)
    assert rng.answers == []  # the script was used up exactly
    return [RULES.shapes[p].name for p in hand]


def test_never_three_identical_pieces_the_third_is_redrawn() -> None:
    empty = ["." * 10] * 10
    assert deal(empty, SINGLE * 3 + BAR2_V) == ["single", "single", "bar2_v"]
    assert deal(empty, SQUARE3 * 4 + SINGLE) == ["square3", "square3", "single"]


def test_a_set_none_of_which_fits_is_redrawn() -> None:
    answers = SQUARE3 + SQUARE3 + BAR5_H + SINGLE + SQUARE2 + BAR2_H
    assert deal(ISOLATED, answers) == ["single", "square2", "bar2_h"]


def test_after_ten_attempts_the_third_piece_is_the_largest_that_fits() -> None:
    board = [list(row) for row in ISOLATED]
    board[0][1] = "."  # a horizontal pair (0,0)-(0,1)
    board[6][5] = "."  # a vertical pair (5,5)-(6,5)
    rows = ["".join(row) for row in board]
    answers = (SQUARE3 + SQUARE3 + BAR5_H) * 10
    # bar2_h and bar2_v both fit and are the largest: the earlier in the table wins.
    assert deal(rows, answers) == ["square3", "square3", "bar2_h"]


def test_only_the_first_ten_attempts_count() -> None:
    answers = (SQUARE3 + SQUARE3 + BAR5_H) * 10
    assert deal(ISOLATED, answers) == ["square3", "square3", "single"]


def test_the_deal_depends_on_the_score_tier() -> None:
    state = ENGINE.new_game(CLASSIC10, 3)
    low = RULES.dealer.deal(Rng(99), state.board, 0, RULES.table, RULES.grid.full)
    high = RULES.dealer.deal(Rng(99), state.board, 5000, RULES.table, RULES.grid.full)
    assert low != high


def test_a_set_is_dealt_when_the_third_piece_is_placed() -> None:
    state = make_state(CLASSIC10, None, "single", None, None)
    state = replace(state, rng=12345)
    after, events = place(state, 0, 4, 4)
    assert types(events) == ["placed", "dealt"]
    assert all(p >= 0 for p in after.hand) and after.sets == state.sets + 1
