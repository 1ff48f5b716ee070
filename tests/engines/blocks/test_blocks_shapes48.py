"""shapes48 (seed 002, "Block Puzzle"): points, combo, redeal, the five modes, Continue."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from blocks_support import (
    SHAPES48,
    event,
    lines_board,
    make_state,
    place,
    types,
)

from engines.blocks import ENGINE
from engines.blocks import play as loop
from engines.blocks.moves import Continue, Finish, NewSet
from engines.blocks.params import Params
from engines.blocks.rulesets import SHAPES48_WEIGHTS, ruleset_of
from engines.blocks.scoring import line_table_points
from engines.blocks.shapes import SHAPES48 as SHAPES
from engines.blocks.shapes import SHAPES48_FAMILIES
from engines.core.protocol import IllegalMove, Outcome, RecordEntry
from engines.core.rng import Rng

RULES = ruleset_of(SHAPES48)
ZEN = Params("shapes48", "zen")
CHRONO = Params("shapes48", "chrono")
DAILY = Params("shapes48", "daily")
HARDCORE = Params("shapes48", "hardcore")
CORNER_HOLES = [(0, 0), (0, 1), (1, 0)]


def test_the_48_named_shapes() -> None:
    assert len(SHAPES) == 48
    assert len({s.name for s in SHAPES}) == 48
    assert len({s.cells for s in SHAPES}) == 48  # fixed orientation: all distinct
    for shape in SHAPES:
        assert min(r for r, _ in shape.cells) == 0 and min(c for _, c in shape.cells) == 0
    families = Counter(SHAPES48_FAMILIES[s.kind - 1] for s in SHAPES)
    assert families == {
        "single": 1, "domino": 2, "line3": 2, "line4": 2, "line5": 2, "diagonal": 4,
        "square2": 1, "square3": 1, "rectangle": 2, "corner": 4, "l": 4, "j": 4, "t": 4,
        "s": 2, "z": 2, "cross": 1, "u": 4, "big_corner": 4, "awkward": 2,
    }
    by_name = {s.name: s.cells for s in SHAPES}
    assert by_name["cross"] == ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))
    assert by_name["diag3_up"] == ((0, 2), (1, 1), (2, 0))
    assert by_name["u_up"] == ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2))
    assert by_name["t_up"] == ((0, 1), (1, 0), (1, 1), (1, 2))
    assert by_name["w"] == ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2))
    assert set(SHAPES48_WEIGHTS) == set(by_name)


@pytest.mark.parametrize(
    ("lines", "points"), [(0, 0), (1, 100), (2, 250), (3, 500), (4, 1000), (5, 1500), (6, 2000),
                          (7, 2500)]
)
def test_line_table(lines: int, points: int) -> None:
    assert line_table_points(lines) == points


def test_seed_example_503() -> None:
    """A 3-cell piece clears 2 lines as the 3rd clearing placement in a row: 3+250+250."""
    board = lines_board({0}, {0}, CORNER_HOLES, extra=[(9, 9)])
    state = make_state(SHAPES48, board, "corner_tl", "single", combo=2)
    after, events = place(state, 0, 0, 0)
    assert event(events, "placed")["points"] == 503
    assert event(events, "cleared") | {"cells": None} == {
        "type": "cleared", "rows": [0], "cols": [0], "cells": None, "points": 500, "combo": 3
    }
    assert after.score == 503 and after.combo == 3


def test_seed_example_503_played_out() -> None:
    # Rows 3 and 4 wait for a single each; then rows 0 and 1 wait for the corner.
    board = lines_board({0, 1, 3, 4}, set(), CORNER_HOLES + [(3, 5), (4, 5)], extra=[(9, 9)])
    state = make_state(SHAPES48, board, "single", "single", "corner_tl")
    state, first = place(state, 0, 3, 5)
    state, second = place(state, 1, 4, 5)
    state, third = place(state, 2, 0, 0)
    assert [event(e, "placed")["points"] for e in (first, second, third)] == [
        1 + 100, 1 + 150, 503
    ]
    assert state.score == 101 + 151 + 503


@pytest.mark.parametrize(
    ("combo_before", "line_points"), [(0, 100), (1, 150), (2, 200), (3, 250), (4, 300), (7, 300)]
)
def test_combo_bonus_from_x2_to_x5(combo_before: int, line_points: int) -> None:
    board = lines_board({0}, set(), [(0, 0)], extra=[(9, 9)])
    state = make_state(SHAPES48, board, "single", "single", combo=combo_before)
    _, events = place(state, 0, 0, 0)
    assert event(events, "cleared")["points"] == line_points


def test_a_placement_that_clears_nothing_ends_the_combo() -> None:
    state = make_state(SHAPES48, None, "single", "single", combo=4)
    after, _ = place(state, 0, 5, 5)
    assert after.combo == 0


def test_two_lines_at_once_250_two_lines_apart_200() -> None:
    board = lines_board({0}, {0}, [(0, 0)], extra=[(9, 9)])
    at_once, events = place(make_state(SHAPES48, board, "single", "single"), 0, 0, 0)
    assert event(events, "cleared")["points"] == 250
    board = lines_board({0, 5}, set(), [(0, 0), (5, 0)], extra=[(9, 9)])
    state = make_state(SHAPES48, board, "single", "single", "single")
    state, first = place(state, 0, 0, 0)
    state, _ = place(state, 1, 8, 8)  # clears nothing: the combo ends
    state, second = place(state, 2, 5, 0)
    assert event(first, "cleared")["points"] + event(second, "cleared")["points"] == 200


def test_cleared_grid_gives_2000_not_multiplied() -> None:
    board = lines_board({0}, set(), [(0, 0)])
    state = make_state(SHAPES48, board, "single", "single", combo=3)
    after, events = place(state, 0, 0, 0)
    assert event(events, "grid_cleared") == {"type": "grid_cleared", "bonus": 2000}
    assert event(events, "placed")["points"] == 1 + 250 + 2000


def test_combo_label() -> None:
    assert [RULES.scorer.combo_label(c) for c in range(7)] == [None, None, 2, 3, 4, 5, 5]


# --- dealing ---------------------------------------------------------------------------------

ISOLATED = ["".join("." if c == (3 * r) % 10 else "#" for c in range(10)) for r in range(10)]


@pytest.mark.parametrize("params", [SHAPES48, HARDCORE])
def test_a_set_none_of_which_fits_is_redealt(params: Params) -> None:
    rules = ruleset_of(params)
    state = make_state(params, ISOLATED)  # only the single fits
    single = rules.index_of("single")
    for seed in range(30):
        rng = Rng(seed)
        hand = rules.dealer.deal(rng, state.board, 0, rules.table, rules.grid.full)
        assert single in hand
        plain = rules.dealer.draw_set(Rng(seed), 0)
        if single not in plain:
            assert rng.state != Rng(seed).state  # more than one set was drawn


def draw_shares(params: Params, draws: int = 40_000) -> dict[str, float]:
    rules = ruleset_of(params)
    rng = Rng.from_seed(1, "shares")
    counts = Counter(rules.dealer.draw.draw(rng, 0) for _ in range(draws))
    return {rules.shapes[i].name: n / draws for i, n in counts.items()}


SMALL_EASY = ["single", "domino_h", "domino_v", "line3_h", "line3_v", "diag2_down", "diag2_up",
              "square2", "corner_tl", "corner_tr", "corner_br", "corner_bl"]
AWKWARD = ["diag3_down", "diag3_up", "square3", "cross", "u_up", "u_right", "u_down", "u_left",
           "big_corner_tl", "big_corner_tr", "big_corner_br", "big_corner_bl", "big_t", "w"]


def test_hardcore_makes_small_easy_pieces_rarer_and_awkward_ones_commoner() -> None:
    classic, hardcore = draw_shares(SHAPES48), draw_shares(HARDCORE)
    assert sum(SHAPES48_WEIGHTS[n][0] for n in SMALL_EASY) == 36
    assert sum(SHAPES48_WEIGHTS[n][1] for n in SMALL_EASY) == 14
    assert sum(SHAPES48_WEIGHTS[n][0] for n in AWKWARD) == 15
    assert sum(SHAPES48_WEIGHTS[n][1] for n in AWKWARD) == 46
    assert abs(sum(classic.get(n, 0) for n in SMALL_EASY) - 36 / 95) < 0.01
    assert abs(sum(hardcore.get(n, 0) for n in SMALL_EASY) - 14 / 112) < 0.01
    assert abs(sum(classic.get(n, 0) for n in AWKWARD) - 15 / 95) < 0.01
    assert abs(sum(hardcore.get(n, 0) for n in AWKWARD) - 46 / 112) < 0.01
    assert classic["single"] > 3 * hardcore["single"]


def test_zen_daily_and_chrono_deal_like_classic() -> None:
    first = ENGINE.new_game(SHAPES48, 4242).hand
    for mode in ("daily", "zen", "chrono"):
        assert ENGINE.new_game(Params("shapes48", mode), 4242).hand == first


def test_new_set_and_rotate_are_not_in_shapes48() -> None:
    state = ENGINE.new_game(SHAPES48, 1)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, NewSet(), 0)
    assert error.value.code == "not_allowed"
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, ENGINE.parse_move({"type": "rotate", "piece": 0}), 0)
    assert error.value.code == "rotation_off"


# --- the end and Continue ---------------------------------------------------------------------

# Row 0 waits for a single; then the fullest rows are 3 and 4 (9 cells each), and the
# other rows have two isolated holes, so no 2×2 fits.
TWO_ROWS = [
    "#.########",
    "##.###.###",
    "###.###.##",
    "####.#####",
    "#####.####",
    ".######.##",
    "#.######.#",
    "##.######.",
    "###.#.####",
    "#.####.###",
]


def stuck_game(params: Params = SHAPES48, **fields: object) -> object:
    state = make_state(params, TWO_ROWS, "single", "square2", **fields)
    after, events = place(state, 0, 0, 1, at_ms=9_000)
    assert types(events) == ["placed", "cleared", "over"]
    return after


def test_no_fitting_piece_ends_the_game() -> None:
    after = stuck_game(score=10)
    assert ENGINE.outcome(after) == Outcome("stuck", (111,), None, 9_000)
    assert ENGINE.record(after) == RecordEntry("shapes48/classic", 111, 9_000)
    view = ENGINE.view(after, 0)
    assert view["over"] is True and view["can_continue"] is True
    assert view["final"]["stuck"][0]["name"] == "square2"
    assert view["final"]["tip"] == {"code": "keep_square", "size": 2}
    assert ENGINE.to_move(after) == 0  # Continue is still a move


def test_continue_empties_the_fullest_rows_until_a_piece_fits() -> None:
    after = stuck_game()
    resumed, events = ENGINE.apply(after, Continue(), 10_000)
    assert events[0]["type"] == "continued" and events[0]["rows"] == [3, 4]
    assert len(events[0]["cells"]) == 18
    assert not resumed.over and resumed.continue_used
    assert resumed.score == after.score  # no points
    assert ENGINE.outcome(resumed) is None
    view = ENGINE.view(resumed, 0)
    assert view["grid"][3] == [0] * 10 and view["grid"][4] == [0] * 10
    assert view["hand"][1]["fits"] is True


def test_continue_only_once() -> None:
    resumed, _ = ENGINE.apply(stuck_game(), Continue(), 10_000)
    again = replace(resumed, end_reason="stuck")
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(again, Continue(), 11_000)
    assert error.value.code == "continue_used"
    assert ENGINE.view(again, 0)["can_continue"] is False
    assert ENGINE.to_move(again) is None


def test_continue_not_before_the_end() -> None:
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(ENGINE.new_game(SHAPES48, 3), Continue(), 0)
    assert error.value.code == "not_over"


@pytest.mark.parametrize("params", [DAILY, ZEN, Params("classic10"), Params("gravity8")])
def test_continue_is_not_offered(params: Params) -> None:
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(ENGINE.new_game(params, 3), Continue(), 0)
    assert error.value.code == "continue_not_allowed"


def test_no_continue_in_daily_after_the_end() -> None:
    after = stuck_game(DAILY)
    assert ENGINE.view(after, 0)["can_continue"] is False
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(after, Continue(), 10_000)
    assert error.value.code == "continue_not_allowed"
    assert ENGINE.record(after) == RecordEntry("shapes48/daily", 101, 9_000)


def test_no_continue_after_finish() -> None:
    finished, _ = ENGINE.apply(ENGINE.new_game(SHAPES48, 3), Finish(), 100)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(finished, Continue(), 200)
    assert error.value.code == "continue_not_allowed"


def test_continue_refused_when_four_rows_make_no_room() -> None:
    # Rows 0, 2, 4, 6 are the fullest; the others have isolated holes: no 3×3 appears.
    rows = [
        "#########.",
        "#.###.####",
        "########.#",
        "##.####.##",
        "#######.##",
        ".####.####",
        "######.###",
        "###.###.##",
        "#.#####.##",
        "####.#####",
    ]
    state = make_state(SHAPES48, rows, "square3", end_reason="stuck")
    assert loop.rows_to_empty(RULES, state) is None
    assert ENGINE.view(state, 0)["can_continue"] is False
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, Continue(), 0)
    assert error.value.code == "no_room"


# --- Zen ---------------------------------------------------------------------------------------


def test_zen_has_no_score() -> None:
    board = lines_board({0}, {0}, CORNER_HOLES, extra=[(9, 9)])
    state = make_state(ZEN, board, "corner_tl", "single")
    after, events = place(state, 0, 0, 0)
    assert event(events, "placed")["points"] == 0
    assert after.score == 0 and after.combo == 0 and after.lines == 2
    view = ENGINE.view(after, 0)
    assert view["score"] == 0
    assert all(p["points"] == 0 for p in view["hand"][1]["placements"])


def test_zen_refills_then_clears_the_fullest_row() -> None:
    isolated = ["".join("." if c == (3 * r) % 10 else "#" for c in range(10)) for r in range(10)]
    rules = ruleset_of(ZEN)
    single = rules.index_of("single")
    for rng_state in range(100):
        state = make_state(ZEN, isolated, "square3", rng=rng_state)
        if single in rules.dealer.draw_set(Rng(rng_state), 0):
            continue
        events: list[dict[str, object]] = []
        after = loop.settle(rules, state, 0, events)
        assert events[0]["type"] == "dealt" and events[0]["refill"] is True
        cleared = [e["row"] for e in events[1:]]
        # Every row has 9 cells: ties go to the topmost row, one row at a time.
        assert cleared == list(range(len(cleared))) and cleared
        assert all(e["type"] == "zen_cleared_row" for e in events[1:])
        assert loop.any_placeable(rules, after.board, after.hand)
        before_last = after.board | rules.grid.row_mask(cleared[-1])
        assert not loop.any_placeable(rules, before_last, after.hand)
        assert not after.over and after.sets == state.sets + 1
        break
    else:
        pytest.fail("no refill without a single in 100 draws")


def test_zen_refill_that_fits_clears_nothing() -> None:
    rules = ruleset_of(ZEN)
    single = rules.index_of("single")
    rng_state = next(k for k in range(100) if single in rules.dealer.draw_set(Rng(k), 0))
    state = make_state(ZEN, ISOLATED, "square3", rng=rng_state)
    events: list[dict[str, object]] = []
    after = loop.settle(rules, state, 0, events)
    assert types(events) == ["dealt"]
    assert after.board == state.board and single in after.hand


def test_zen_never_ends_but_finish_lets_the_player_leave() -> None:
    finished, events = ENGINE.apply(ENGINE.new_game(ZEN, 9), Finish(), 30_000)
    assert ENGINE.outcome(finished) == Outcome("finished", (0,), None, 30_000)
    assert ENGINE.record(finished) is None


# --- Chrono ------------------------------------------------------------------------------------


def test_chrono_ends_by_tick_after_three_minutes() -> None:
    state = ENGINE.new_game(CHRONO, 8)
    same, events = ENGINE.tick(state, 179_999)
    assert same is state and events == []
    over, events = ENGINE.tick(state, 180_000)
    assert events == [{"type": "over", "reason": "time_up"}]
    assert ENGINE.outcome(over) == Outcome("time_up", (0,), None, 180_000)
    assert ENGINE.record(over) is None
    late, _ = ENGINE.tick(state, 250_000)
    assert ENGINE.outcome(late) == Outcome("time_up", (0,), None, 180_000)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(over, Finish(), 181_000)
    assert error.value.code == "game_over"


def test_chrono_refuses_a_move_after_the_limit() -> None:
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(ENGINE.new_game(CHRONO, 8), Finish(), 180_000)
    assert error.value.code == "time_up"


def test_chrono_clock_in_the_view() -> None:
    state = ENGINE.new_game(CHRONO, 8)
    assert ENGINE.view(state, 0)["clock"] == {
        "limit_ms": 180_000, "remaining_ms": 180_000, "as_of_ms": 0, "running": True
    }
    view = ENGINE.view(ENGINE.new_game(SHAPES48, 8), 0)
    assert view["clock"] is None
    hand = ENGINE.view(state, 0)["hand"]
    slot = next(i for i, h in enumerate(hand) if h and h["placements"])
    spot = hand[slot]["placements"][0]
    after, _ = place(state, slot, spot["row"], spot["col"], at_ms=42_500)
    assert ENGINE.view(after, 0)["clock"] == {
        "limit_ms": 180_000, "remaining_ms": 137_500, "as_of_ms": 42_500, "running": True
    }
    ended, _ = ENGINE.tick(after, 200_000)
    assert ENGINE.view(ended, 0)["clock"]["remaining_ms"] == 0


def test_chrono_also_ends_when_nothing_fits() -> None:
    after = stuck_game(CHRONO)
    assert ENGINE.outcome(after) == Outcome("stuck", (101,), None, 9_000)
    assert ENGINE.record(after) is None


def test_chrono_continue_only_within_the_three_minutes() -> None:
    after = stuck_game(CHRONO)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(after, Continue(), 180_000)
    assert error.value.code == "time_up"
    resumed, events = ENGINE.apply(after, Continue(), 179_000)
    assert events[0]["type"] == "continued" and not resumed.over


def test_records_by_mode() -> None:
    assert ENGINE.record(stuck_game(HARDCORE)) == RecordEntry("shapes48/hardcore", 101, 9_000)
