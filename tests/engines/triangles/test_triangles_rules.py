"""Moves, errors, turns, resigning, claiming, params, numbers, views and codecs."""

from __future__ import annotations

import json

import pytest
from triangles_helpers import draw, hand_made

from engines.core.protocol import BadMove, BadParams, IllegalMove, Outcome, SeatKind
from engines.triangles import ENGINE
from engines.triangles.moves import Claim, Line, Move, Resign
from engines.triangles.params import Params
from engines.triangles.state import State

A, B, C, D = 0, 1, 2, 3
SQUARE = [(100, 100), (300, 100), (300, 300), (100, 300)]


def code_of(state: State, move: Move, seat: int, at_ms: int = 0) -> str:
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, move, at_ms, seat)
    return caught.value.code


# --- line errors -----------------------------------------------------------------------


def test_an_existing_line_is_refused_in_either_direction() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B))
    assert code_of(state, Line(A, B), 1) == "exists"
    assert code_of(state, Line(B, A), 1) == "exists"


def test_same_star_and_missing_stars() -> None:
    state = hand_made(SQUARE)
    assert code_of(state, Line(2, 2), 0) == "same_star"
    assert code_of(state, Line(0, 4), 0) == "no_such_star"
    assert code_of(state, Line(-1, 2), 0) == "no_such_star"


def test_moving_out_of_turn() -> None:
    state = hand_made(SQUARE)
    assert code_of(state, Line(A, B), 1) == "not_your_turn"
    state, _ = draw(state, (A, B))
    assert code_of(state, Line(B, C), 0) == "not_your_turn"


def test_after_the_end_every_move_is_refused() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D), (D, A), (A, C))
    assert state.over
    assert code_of(state, Line(B, D), state.turn) == "game_over"
    assert code_of(state, Resign(), 0) == "game_over"
    assert code_of(state, Claim(), 1, 10**9) == "game_over"


def test_order_of_the_ends_does_not_matter() -> None:
    first, _ = draw(hand_made(SQUARE), (C, A))
    second, _ = draw(hand_made(SQUARE), (A, C))
    assert first.lines == second.lines == ((A, C, 0),)


def test_a_refused_move_changes_nothing() -> None:
    state, _ = draw(hand_made(SQUARE), (A, C))
    before = ENGINE.dump_state(state)
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, Line(B, D), 5, 1)
    assert ENGINE.dump_state(state) == before


def test_near_miss_just_outside_the_tolerance_is_legal() -> None:
    # tolerance 5: B exactly 5 from A–C is in the way, 6 is not
    on_border = hand_made([(100, 100), (200, 105), (300, 100), (200, 400)], tolerance=5)
    assert code_of(on_border, Line(A, C), 0) == "through_star"
    outside = hand_made([(100, 100), (200, 106), (300, 100), (200, 400)], tolerance=5)
    state, events = draw(outside, (A, C))
    assert events[0] == {"type": "line", "a": A, "b": C, "seat": 0}


def test_a_t_junction_line_is_through_a_star() -> None:
    # C lies on A–B: A–B is refused, and C–D ending on it is fine
    state = hand_made([(100, 100), (300, 100), (200, 100), (200, 300)])
    assert code_of(state, Line(A, B), 0) == "through_star"
    state, _ = draw(state, (C, D), (A, C), (B, C))
    assert len(state.lines) == 3


def test_lines_sharing_an_end_star_are_fine() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (A, C), (A, D))
    assert len(state.lines) == 3


# --- resign and claim ------------------------------------------------------------------


def test_resigning_hands_the_win_to_the_other_seat() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), at_ms=1000)
    state, events = ENGINE.apply(state, Resign(), 2500, 0)
    assert events == [{"type": "over", "reason": "resigned", "winner": 1, "scores": [0, 0]}]
    assert ENGINE.outcome(state) == Outcome("resigned", (0, 0), 1, 2500)
    assert ENGINE.to_move(state) is None


def test_claiming_needs_a_minute_of_silence_from_the_seat_to_move() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), at_ms=4000)  # seat 1 to move since 4000
    assert code_of(state, Claim(), 0, 63_999) == "too_early"
    assert code_of(state, Claim(), 1, 100_000) == "your_turn"
    assert code_of(state, Claim(), 7, 100_000) == "not_your_seat"
    state, events = ENGINE.apply(state, Claim(), 64_000, 0)
    assert events == [{"type": "over", "reason": "claimed", "winner": 0, "scores": [0, 0]}]
    assert ENGINE.outcome(state) == Outcome("claimed", (0, 0), 0, 64_000)


def test_days_per_move_have_no_claim_only_the_clock() -> None:
    """A correspondence player is away most of the time by design: however long the seat
    to move has been silent, only its clock (a day a move) can end the game."""
    state, _ = draw(hand_made(SQUARE, opponent="online", clock="1d"), (A, B), at_ms=4000)
    assert ENGINE.view(state, 0)["claim_after_ms"] is None
    assert code_of(state, Claim(), 0, 4000 + 86_000_000) == "no_claim"
    assert ENGINE.tick(state, 4000 + 86_000_000)[1] == []  # still within the day
    assert ENGINE.tick(state, 4000 + 86_400_300)[0].result == "time"
    realtime = hand_made(SQUARE, opponent="online", clock="3+2")
    assert ENGINE.view(realtime, 0)["claim_after_ms"] == 60_000


def test_too_early_tells_how_long_to_wait() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), at_ms=4000)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, Claim(), 34_000, 0)
    assert caught.value.details == {"wait_ms": 30_000}


def test_outcome_of_a_natural_end() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D), (D, A), (A, C), at_ms=777)
    assert ENGINE.outcome(state) == Outcome("no_triangles", (2, 0), 0, 777)
    assert ENGINE.record(state) is None


# --- params, numbers, seats -------------------------------------------------------------


def test_params_defaults() -> None:
    assert ENGINE.parse_params({}) == Params("phone", 24, False, "medium")
    assert ENGINE.parse_params({"field": "tablet"}) == Params("tablet", 80, False, "medium")


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"field": "watch"}, "bad_field"),
        ({"field": 1}, "bad_field"),
        ({"stars": 80}, "bad_stars"),
        ({"field": "tablet", "stars": 24}, "bad_stars"),
        ({"stars": "24"}, "bad_stars"),
        ({"stars": True}, "bad_stars"),
        ({"again": 1}, "bad_again"),
        ({"again": "yes"}, "bad_again"),
        ({"opponent": "expert"}, "bad_opponent"),
        ({"opponent": None}, "bad_opponent"),
        ({"berserk": True}, "bad_berserk"),
    ],
)
def test_bad_params(raw: dict[str, object], code: str) -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.parse_params(raw)
    assert caught.value.code == code


def test_params_round_trip() -> None:
    raw = {
        "field": "tablet", "stars": 180, "again": True, "opponent": "online", "clock": "5+3",
        "rated": True,
    }  # fmt: skip
    assert ENGINE.dump_params(ENGINE.parse_params(raw)) == raw


@pytest.mark.parametrize(
    ("field", "stars", "letter"),
    [
        ("phone", 24, "a"),
        ("phone", 60, "b"),
        ("phone", 120, "c"),
        ("tablet", 80, "d"),
        ("tablet", 120, "e"),
        ("tablet", 180, "f"),
    ],
)
def test_number_letters(field: str, stars: int, letter: str) -> None:
    params = Params(field, stars, True, "hard")
    number = ENGINE.number(params, 41739205)
    assert number == f"41739205-{letter}"
    # options that do not change the board come back as defaults
    assert ENGINE.from_number(number) == (Params(field, stars), 41739205)


@pytest.mark.parametrize("number", ["41739205-g", "41739205-ab", "4173920-a", "x", "41739205"])
def test_unknown_numbers(number: str) -> None:
    with pytest.raises(BadParams):
        ENGINE.from_number(number)


def test_seats() -> None:
    assert ENGINE.seats(Params(opponent="human")) == [SeatKind.OWNER, SeatKind.OWNER]
    assert ENGINE.seats(Params(opponent="online")) == [SeatKind.OWNER, SeatKind.OPEN]
    for level in ("easy", "medium", "hard"):
        assert ENGINE.seats(Params(opponent=level)) == [SeatKind.OWNER, SeatKind.COMPUTER]


def test_no_daily_board() -> None:
    assert ENGINE.daily_params({}) is None
    assert ENGINE.daily_once(Params()) is False


# --- moves ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [{"type": "line", "a": 3, "b": 9}, {"type": "resign"}, {"type": "claim"}, {"type": "berserk"}],
)
def test_move_round_trip(raw: dict[str, object]) -> None:
    assert ENGINE.dump_move(ENGINE.parse_move(raw)) == raw


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"type": "line", "a": 1}, "bad_star"),
        ({"type": "line", "a": 1, "b": "2"}, "bad_star"),
        ({"type": "line", "a": True, "b": 2}, "bad_star"),
        ({"type": "line", "a": 1.0, "b": 2}, "bad_star"),
        ({"type": "jump"}, "unknown_move"),
        ({}, "unknown_move"),
        ([1, 2], "bad_move"),
    ],
)
def test_bad_moves(raw: object, code: str) -> None:
    with pytest.raises(BadMove) as caught:
        ENGINE.parse_move(raw)  # type: ignore[arg-type]
    assert caught.value.code == code


# --- the view and the codec -------------------------------------------------------------


def test_view_of_a_game_in_progress() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), at_ms=1234)
    view = json.loads(json.dumps(ENGINE.view(state, 0)))  # as the client gets it
    assert view["stars"] == [list(star) for star in SQUARE]
    assert view["lines"] == [[A, B, 0], [B, C, 1]]
    assert view["triangles"] == []
    assert view["turn"] == 0
    assert view["scores"] == [0, 0]
    assert view["over"] is False
    assert view["last"] == [B, C, 1]
    assert view["winner"] is None and view["result"] is None
    assert view["turn_started_ms"] == 1234
    assert view["tolerance"] == 2
    assert view["remaining"] == 4  # ABC, ACD, ABD, BCD: no diagonal is drawn yet


def test_view_of_a_new_generated_game() -> None:
    params = Params("tablet", 80, True, "hard")
    view = ENGINE.view(ENGINE.new_game(params, 5), None)
    assert len(view["stars"]) == 80
    assert (view["width"], view["height"], view["tolerance"]) == (1500, 2000, 18)
    assert (view["field"], view["again"], view["opponent"]) == ("tablet", True, "hard")
    assert view["last"] is None and view["turn"] == 0
    assert all(isinstance(v, int) for star in view["stars"] for v in star)


def test_view_when_over() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D), (D, A), (A, C))
    view = json.loads(json.dumps(ENGINE.view(state, 1)))
    assert view["over"] is True and view["turn"] is None
    assert view["winner"] == 0 and view["result"] == "no_triangles"
    assert view["triangles"] == [[A, B, C, 0], [A, C, D, 0]]


def test_dump_and_load_round_trip_on_a_generated_board() -> None:
    params, seed = ENGINE.from_number("41739205-b")
    state = ENGINE.new_game(params, seed)
    for _ in range(12):
        state, _ = ENGINE.apply(state, ENGINE.computer_move(state), 100, state.turn)
    data = ENGINE.dump_state(state)
    loaded = ENGINE.load_state(json.loads(json.dumps(data)))
    assert loaded == state
    assert loaded.alive == state.alive and loaded.live == state.live
    assert ENGINE.params_of(loaded) == params


def test_load_state_rejects_garbage() -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.load_state({"params": {}})
    assert caught.value.code == "bad_state"


def test_tick_changes_nothing() -> None:
    state = hand_made(SQUARE)
    assert ENGINE.tick(state, 10**7) == (state, [])


def test_load_state_rejects_lines_that_cannot_be_drawn() -> None:
    params, seed = ENGINE.from_number("00000001-a")
    state = ENGINE.new_game(params, seed)
    data = ENGINE.dump_state(state)
    a, b = state.position().nth_legal(0)
    for lines in ([[a, b, 0], [a, b, 1]], [[0, 99, 0]], [[b, a, 0]]):
        with pytest.raises(BadParams) as caught:
            ENGINE.load_state({**data, "lines": lines})
        assert caught.value.code == "bad_state"


def test_no_computer_move_after_the_end() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D), (D, A), (A, C))
    with pytest.raises(IllegalMove) as caught:
        ENGINE.computer_move(state)
    assert caught.value.code == "game_over"


def test_catalog_entry() -> None:
    entry = ENGINE.describe()
    assert entry["name"] == "triangles"
    assert entry["params"]["field"] == {"choices": ["phone", "tablet"], "default": "phone"}
    assert entry["params"]["stars"]["by_field"] == {
        "phone": [24, 60, 120],
        "tablet": [80, 120, 180],
    }
    assert entry["params"]["opponent"]["default"] == "medium"
    assert entry["fields"]["tablet"]["letters"] == ["d", "e", "f"]
    json.dumps(entry)
