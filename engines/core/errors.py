"""The error codes the engines share: one name for one condition, in every game.

An engine raises ``BadParams``, ``BadMove`` or ``IllegalMove`` (``engines.core.protocol``)
with a stable machine code. A condition that more than one game can meet has its code
here, and every engine uses this code for it; the client looks up the message under
``games.<game>.error.<code>`` (``static/i18n``). Conditions only one game has (``occupied``,
``crosses_line``, ``no_path`` ...) keep their codes in that engine.

``ErrorCode`` is a ``StrEnum``: a member is its string (``ErrorCode.GAME_OVER ==
"game_over"``), and ``EngineError.code`` always holds the plain string.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The shared vocabulary, by error class (see docs/engine-protocol.md)."""

    # --- BadParams (HTTP 400): no game can be made from this --------------------------
    BAD_PARAMS = "bad_params"  # params are not a JSON object (BadParams' default code)
    BAD_MODE = "bad_mode"  # the ``mode`` param names no mode of this game
    BAD_NUMBER = "bad_number"  # not a game number, or its letters name no variant
    BAD_SEED = "bad_seed"  # a seed outside 0 .. 99_999_999
    BAD_DATE = "bad_date"  # a daily board's date is not an ISO date
    BAD_STATE = "bad_state"  # a stored snapshot does not load as a state of this game

    # --- BadMove (HTTP 422): the move is not well formed ------------------------------
    BAD_MOVE = "bad_move"  # the move is not a JSON object (BadMove's default code)
    UNKNOWN_MOVE = "unknown_move"  # its ``type`` names no move of this game
    BAD_CELL = "bad_cell"  # a cell (row, col) of the move is not a pair of integers

    # --- IllegalMove (HTTP 422, not_your_turn 403): the rules refuse the move --------
    NOT_YOUR_SEAT = "not_your_seat"  # the seat does not play in this game
    NOT_YOUR_TURN = "not_your_turn"  # another seat is to move
    GAME_OVER = "game_over"  # the game has ended
    TIME_UP = "time_up"  # the game's clock has run out (it ends on the next tick)
    OUT_OF_BOARD = "out_of_board"  # the move reaches a cell off the board
    NO_COMPUTER = "no_computer"  # computer_move on a game without a computer seat
