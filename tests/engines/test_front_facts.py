"""Facts the browser reads instead of restating a rule (issue 13): record keys and whether a
game counts for records come in the view; Triangles says which seat the computer holds, how
a game is played and which opponents are computer levels."""

from __future__ import annotations

from engines.registry import ENGINES


def test_blocks_view_carries_its_record_key_and_whether_it_counts() -> None:
    engine = ENGINES["blocks"]
    cases = {
        ("classic10", "classic", False): ("classic10/classic", True),
        ("shapes48", "zen", False): ("shapes48/zen", False),
        ("shapes48", "chrono", False): ("shapes48/chrono", False),
        ("shapes48", "hardcore", False): ("shapes48/hardcore", True),
        ("gravity8", "classic", True): ("gravity8/classic/rot", True),
    }
    for (ruleset, mode, rotation), (key, counts) in cases.items():
        params = engine.parse_params({"ruleset": ruleset, "mode": mode, "rotation": rotation})
        view = engine.view(engine.new_game(params, 7), 0)
        assert (view["record_key"], view["counts_for_record"]) == (key, counts)
        assert view["counts_lines"] is (mode == "zen")
        assert view["shows_combo"] is (ruleset != "gravity8" and mode != "zen")


def test_pairs_view_carries_its_record_key() -> None:
    engine = ENGINES["pairs"]
    params = engine.parse_params({"size": "long", "mode": "timed"})
    view = engine.view(engine.new_game(params, 3), 0)
    assert view["record_key"] == "long/timed"
    assert view["counts_for_record"] is True


def test_triangles_says_who_plays_and_where_the_computer_sits() -> None:
    engine = ENGINES["triangles"]
    described = engine.describe()
    assert described["levels"] == ["easy", "medium", "hard"]
    assert described["computer_seat"] == 1
    assert described["kinds"]["hard"] == "computer"
    for opponent, kind, seat in [
        ("easy", "computer", 1),
        ("human", "human", None),
        ("online", "online", None),
    ]:
        view = engine.view(engine.new_game(engine.parse_params({"opponent": opponent}), 5), 0)
        assert (view["kind"], view["computer_seat"]) == (kind, seat)
