"""One vocabulary, one status table: every code is an enum member, its status comes from
``app.errors.STATUS`` (the middleware's too), and docs/errors.md lists them all."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from app import middleware
from app.errors import STATUS, AppError, from_engine
from engines.core import AppCode, BadMove, BadParams, ErrorCode, IllegalMove

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = {str(code) for code in AppCode} | {str(code) for code in ErrorCode}


def test_the_table_names_members_only_and_every_app_code() -> None:
    assert set(STATUS) <= MEMBERS
    assert all(type(code) in (AppCode, ErrorCode) for code in STATUS)
    assert {str(c) for c in AppCode} - set(STATUS) == {"http_error"}  # the framework's status


def test_an_app_error_takes_its_status_from_the_table_and_keeps_the_wire() -> None:
    error = AppError(AppCode.SEEK_PAIRED, "this seek has become a game", {"game_id": "g1"})
    assert error.status == 409
    assert type(error.code) is str
    assert json.dumps(error.body()) == (
        '{"error": {"code": "seek_paired", "message": "this seek has become a game",'
        ' "details": {"game_id": "g1"}}}'
    )
    assert AppError(ErrorCode.NOT_YOUR_TURN, "wait").status == 403


def test_only_http_error_carries_its_own_status() -> None:
    assert AppError(AppCode.HTTP_ERROR, "teapot", status=418).status == 418
    with pytest.raises(ValueError, match="rate_limited"):
        AppError(AppCode.RATE_LIMITED, "slow down", status=503)
    with pytest.raises(ValueError, match="http_error"):
        AppError(AppCode.HTTP_ERROR, "which status?")


def test_an_engine_error_keeps_its_code_with_the_status_of_its_class_or_the_table() -> None:
    refusals = [
        from_engine(BadParams("bad_size", "no such size")),
        from_engine(BadMove(ErrorCode.UNKNOWN_MOVE, "no such move")),
        from_engine(IllegalMove("occupied", "taken", {"cells": [[0, 1]]})),
        from_engine(IllegalMove(ErrorCode.NOT_YOUR_TURN, "wait")),
        from_engine(IllegalMove(ErrorCode.GAME_OVER, "over")),
    ]
    assert [(r.code, r.status) for r in refusals] == [
        ("bad_size", 400),
        ("unknown_move", 422),
        ("occupied", 422),
        ("not_your_turn", 403),
        ("game_over", 409),
    ]
    assert refusals[2].body() == {
        "error": {"code": "occupied", "message": "taken", "details": {"cells": [[0, 1]]}}
    }


def test_the_middleware_writes_no_status_of_its_own() -> None:
    tree = ast.parse(Path(middleware.__file__).read_text("utf-8"))
    statuses = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and type(node.value) is int and 400 <= node.value < 600
    ]
    assert statuses == []


def test_docs_list_every_code_with_its_status() -> None:
    rows = re.findall(
        r"^\| `(\w+)` \| (\d+|its own) \|", (ROOT / "docs" / "errors.md").read_text("utf-8"), re.M
    )
    listed = dict(rows)
    assert len(rows) == len(listed) == len(MEMBERS)
    # Engine codes the table does not name: the status of the class that raises them.
    by_class = dict.fromkeys(("bad_params", "bad_mode", "bad_number", "bad_seed", "bad_state"), 400)
    by_class |= dict.fromkeys(
        ("bad_move", "unknown_move", "bad_cell", "not_your_seat", "time_up", "out_of_board"), 422
    )
    by_class["no_computer"] = 422
    expected = {code: str(STATUS.get(code, by_class.get(code))) for code in MEMBERS}
    expected["http_error"] = "its own"
    assert listed == expected
