"""The typed engine contract (engines/core/protocol.py): every engine's view carries the
ViewBase keys the platform reads, its catalog entry is a CatalogEntry with its score
order, and ScoreOrder ranks as it says."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.catalog import entry as catalog_entry
from app.wire import GameCatalog
from engines.core.protocol import ArenaPlay, BadMove, OnlinePlay, ScoreOrder, view_base
from engines.reference.tally import ENGINE as TALLY
from engines.registry import ENGINES, served
from tests.fixtures.games import EVERY_ENGINE
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT

ALL = EVERY_ENGINE


@pytest.mark.parametrize("name", sorted(ALL))
def test_a_view_carries_the_base_keys_in_agreement_with_the_engine(name: str) -> None:
    engine: Any = ALL[name]
    params = engine.parse_params({})
    state = engine.new_game(params, 1)
    view = engine.view(state, None)
    base = view_base(view)
    assert base["over"] is False and engine.outcome(state) is None
    assert base["turn"] == engine.to_move(state)
    assert len(base["scores"]) == len(engine.seats(params))


@pytest.mark.parametrize("name", sorted(ALL))
def test_the_catalog_entry_is_typed_and_says_the_score_order(name: str) -> None:
    engine: Any = ALL[name]
    entry = engine.describe()
    assert entry["name"] == name
    assert entry["score_order"] is engine.score_order
    served = GameCatalog.model_validate({"games": [catalog_entry(engine)]}).model_dump(mode="json")
    assert served["games"][0]["score_order"] == engine.score_order.value
    # The game's own keys pass through the schema unchanged; the app adds what it
    # discovers of the game's capabilities.
    assert set(served["games"][0]) == set(entry) | {"online_play", "arenas"}
    assert served["games"][0]["online_play"] is isinstance(engine, OnlinePlay)
    assert served["games"][0]["arenas"] is isinstance(engine, ArenaPlay)


def test_score_orders() -> None:
    # Each game says its own order (a new game edits nothing here); the fixture game is
    # the one that counts down.
    assert all(isinstance(engine.score_order, ScoreOrder) for engine in ALL.values())
    assert LAMPSOUT.score_order is ScoreOrder.LOWER and TALLY.score_order is ScoreOrder.HIGHER
    assert ScoreOrder.HIGHER.best([3, 9, 5]) == 9
    assert ScoreOrder.LOWER.best([3, 9, 5]) == 3
    # Better first: the score by the order, then the shorter time.
    games = [(7, 900), (5, 100), (7, 400)]
    assert sorted(games, key=lambda g: ScoreOrder.HIGHER.rank_key(*g)) == [
        (7, 400),
        (7, 900),
        (5, 100),
    ]
    assert sorted(games, key=lambda g: ScoreOrder.LOWER.rank_key(*g)) == [
        (5, 100),
        (7, 400),
        (7, 900),
    ]


def test_a_view_without_its_base_keys_is_refused() -> None:
    good = {"over": False, "turn": 0, "scores": [1], "record_key": "k"}
    assert view_base(good) == good
    with pytest.raises(KeyError):
        view_base({"over": False, "turn": 0, "record_key": None})
    with pytest.raises(TypeError):
        view_base({**good, "scores": 1})
    with pytest.raises(TypeError):
        view_base({**good, "turn": "0"})


def test_served_adds_a_game_and_refuses_a_clash_or_a_bad_name() -> None:
    assert list(served(LAMPSOUT)) == [*ENGINES, "lampsout"]
    assert list(served()) == list(ENGINES)
    with pytest.raises(ValueError, match="two games"):
        served(TALLY, TALLY)
    with pytest.raises(ValueError, match="lowercase word"):
        served(type("Shouty", (), {"name": "LampsOut!"})())  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.parametrize("name", sorted(ALL))
@given(kind=JSON_VALUES.filter(lambda value: not isinstance(value, str)))
def test_a_move_type_of_any_json_type_but_a_string_is_a_bad_move(name: str, kind: Any) -> None:
    """The app reads a move's ``type`` only after the engine has parsed it, so every
    engine must refuse a type that is not a string (a list or an object once made 500)."""
    with pytest.raises(BadMove):
        ALL[name].parse_move({"type": kind})
