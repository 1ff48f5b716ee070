"""The shared protocol: BaseEngine's defaults, one error vocabulary, a message for every code
(shared once, a game's own wording only where it differs)."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.i18n import catalog
from engines.core import AppCode, BadMove, BaseEngine, ErrorCode, IllegalMove, SeatKind
from engines.core.protocol import ArenaPlay, ComputerPlayer, CostlySetup, OnlinePlay, Reviewer
from engines.reference.tally import ENGINE as TALLY
from engines.registry import ENGINES
from tests.fixtures.games import EVERY_ENGINE as ALL

ROOT = Path(__file__).resolve().parents[2]
ERROR_CLASSES = {"BadParams", "BadMove", "IllegalMove", "Code"}  # Code: a field's, codec


def test_base_engine_defaults() -> None:
    # Called unbound on the reference engine, which overrides them all.
    params = TALLY.parse_params({})
    state = TALLY.new_game(params, 7)
    assert BaseEngine.view_by_seat is False
    assert BaseEngine.seats(TALLY, params) == [SeatKind.OWNER]
    assert BaseEngine.params_of(TALLY, state) is params
    assert BaseEngine.tick(TALLY, state, 10**9) == (state, [])
    assert BaseEngine.record(TALLY, state) is None
    assert BaseEngine.daily_params(TALLY, {}) is None
    assert BaseEngine.daily_once(TALLY, params) is False
    assert BaseEngine.to_move(TALLY, state) == 0
    over, _ = TALLY.apply(state, TALLY.parse_move({"type": "resign"}), 5)
    assert BaseEngine.to_move(TALLY, over) is None


def test_capabilities_are_discovered_from_what_a_game_has() -> None:
    """A game has a capability by having its methods; BaseEngine gives none of them."""
    kinds = (ComputerPlayer, Reviewer, OnlinePlay, ArenaPlay, CostlySetup)
    has = {name: {k.__name__ for k in kinds if isinstance(e, k)} for name, e in ALL.items()}
    assert has == {
        "blocks": set(),
        "pairs": set(),
        "triangles": {"ComputerPlayer", "Reviewer", "OnlinePlay", "ArenaPlay", "CostlySetup"},
        "tally": {"ComputerPlayer"},
        "lampsout": set(),
        "clocktally": {"ComputerPlayer", "OnlinePlay"},
    }


def test_codes_are_plain_strings() -> None:
    error = IllegalMove(ErrorCode.GAME_OVER, "the game is over")
    assert type(error.code) is str and error.code == "game_over"
    assert json.dumps(error.to_json()) == '{"code": "game_over", "message": "the game is over"}'


@dataclass(frozen=True)
class NotAMove:
    type: str = "teleport"
    kind: str = "teleport"


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_is_a_base_engine_and_refuses_an_unknown_move_alike(name: str) -> None:
    engine = ENGINES[name]
    assert isinstance(engine, BaseEngine)
    params = engine.parse_params({})
    state = engine.new_game(params, 1)
    with pytest.raises(BadMove) as caught:
        engine.parse_move({"type": "teleport"})
    assert caught.value.code == "unknown_move"
    with pytest.raises(BadMove) as caught:
        engine.apply(state, NotAMove(), 0, 0)
    assert caught.value.code == "unknown_move"


# --------------------------------------------------------------------------- catalogs


def codes_raised_in(folder: Path) -> set[str]:
    """Every code written in the engine's source: ``ErrorCode.X``, a string given to
    BadParams/BadMove/IllegalMove or to a field's ``Code``, or a ``code=`` string."""
    codes: set[str] = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "ErrorCode"
            ):
                codes.add(ErrorCode[node.attr].value)
            elif isinstance(node, ast.Call):
                args = [k.value for k in node.keywords if k.arg == "code"]
                if isinstance(node.func, ast.Name) and node.func.id in ERROR_CLASSES:
                    args += node.args[:1]
                codes |= {a.value for a in args if isinstance(a, ast.Constant)}
    return {code for code in codes if isinstance(code, str)}


def engine_codes(name: str) -> set[str]:
    engine: Any = ENGINES[name]
    codes = codes_raised_in(ROOT / "engines" / name)
    codes |= {ErrorCode.BAD_NUMBER, ErrorCode.BAD_SEED}  # engines.core.numbers
    codes |= {ErrorCode.BAD_PARAMS, ErrorCode.BAD_MOVE, ErrorCode.UNKNOWN_MOVE}  # .codec
    if engine.daily_params({}) is not None:
        codes.add(ErrorCode.BAD_DATE)  # engines.core.daily
    return {str(code) for code in codes}


def test_the_scan_finds_codes() -> None:
    blocks = engine_codes("blocks")
    assert {"occupied", "bad_piece", "bad_cell", "out_of_board"} <= blocks
    assert {"crosses_line", "not_your_seat", "unknown_move"} <= engine_codes("triangles")
    assert "no_computer" not in engine_codes("triangles")


SHARED = {str(code) for code in ErrorCode} | {str(code) for code in AppCode}


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_every_code_an_engine_raises_has_a_message(name: str, lang: str) -> None:
    """A shared code has its message once, as ``error.<code>``; a code only this game has
    is worded under the game (``games.<game>.error.<code>``)."""
    words = catalog(lang)
    keys = {f"error.{c}" if c in SHARED else f"games.{name}.error.{c}" for c in engine_codes(name)}
    assert sorted(keys - set(words)) == []


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_every_shared_code_has_one_shared_message(lang: str) -> None:
    words = catalog(lang)
    assert sorted(code for code in SHARED if f"error.{code}" not in words) == []


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_a_game_overrides_a_shared_message_only_with_other_words(lang: str) -> None:
    words = catalog(lang)
    copies = sorted(
        key
        for key, text in words.items()
        if key.startswith("games.")
        and ".error." in key
        and words.get("error." + key.rpartition(".error.")[2]) == text
    )
    assert copies == []


def test_app_codes_and_engine_codes_do_not_overlap() -> None:
    # One namespace: a condition has one code, whichever layer refuses it.
    assert {str(c) for c in AppCode} & {str(c) for c in ErrorCode} == set()
