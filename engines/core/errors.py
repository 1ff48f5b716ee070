"""The error codes the engines share: one name for one condition, in every game.

An engine raises ``BadParams``, ``BadMove`` or ``IllegalMove`` (``engines.core.protocol``)
with a stable machine code. A condition that more than one game can meet has its code
here, and every engine uses this code for it. Conditions only one game has (``occupied``,
``crosses_line``, ``no_path`` ...) keep their codes in that engine.

``AppCode`` is the app's own vocabulary (a game that does not exist, a stale version, a
cross-site write ...): the same namespace, so no app code repeats an engine code. The HTTP
status of every code is in ``app.errors.STATUS``; docs/errors.md lists them all.

The client shows ``error.<code>`` (``static/i18n``), one message for every game; a game
overrides it as ``games.<game>.error.<code>`` only where its wording differs.

Both are ``StrEnum``: a member is its string (``ErrorCode.GAME_OVER == "game_over"``), so
it serialises as that string, and ``EngineError.code`` always holds the plain string.
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


class AppCode(StrEnum):
    """The app's refusals (``app.errors.AppError``), by HTTP status (``app.errors.STATUS``).
    The app also answers with ``ErrorCode`` members where the condition is the same
    (``game_over``, ``not_your_turn``, ``bad_params``, ``bad_date``)."""

    # --- 400: the request cannot be read ---------------------------------------------
    BAD_JSON = "bad_json"  # the body (or a socket message) is not JSON
    # --- 403: not this player's to do ------------------------------------------------
    NOT_SEATED = "not_seated"  # a move or a rematch from a player without a seat
    NOT_OWNER = "not_owner"  # cancelling a game someone else created
    BAD_ORIGIN = "bad_origin"  # a write or a socket from another site
    REPLAY_FORBIDDEN = "replay_forbidden"  # the log of a running game, asked by a non-player
    RATED_NEEDS_NAME = "rated_needs_name"  # rated play needs a named player
    RATED_NEEDS_GAMES = "rated_needs_games"  # ... who has finished a few games
    NAME_REQUIRED = "name_required"  # making an arena needs a named player
    ARENA_PRIVATE = "arena_private"  # a private arena without its link's key
    # --- 404: no such thing ----------------------------------------------------------
    NOT_FOUND = "not_found"  # no such route
    UNKNOWN_GAME = "unknown_game"  # no game kind of that name
    GAME_NOT_FOUND = "game_not_found"  # no game with that id
    NO_DAILY = "no_daily"  # the game has no daily board
    BAD_CODE = "bad_code"  # a device-transfer code that is wrong, used or expired
    NO_RATINGS = "no_ratings"  # the game has no rated play
    SEEK_NOT_FOUND = "seek_not_found"  # no such seek of this player (or it expired)
    NO_REVIEW = "no_review"  # the game has no review (its engine reviews no game)
    NO_ONLINE = "no_online"  # a seek for a game without online play
    PUSH_OFF = "push_off"  # push notifications are not set up on this server
    ARENA_NOT_FOUND = "arena_not_found"  # no arena with that id
    NO_ARENAS = "no_arenas"  # an arena of a game that has no arenas
    # --- 405 -------------------------------------------------------------------------
    METHOD_NOT_ALLOWED = "method_not_allowed"  # a route asked with a method it does not answer
    # --- 409: the game is not in a state that allows it ------------------------------
    STALE_VERSION = "stale_version"  # the move was made against an older version
    WAITING_FOR_OPPONENT = "waiting_for_opponent"  # a move before the second seat is taken
    GAME_CANCELLED = "game_cancelled"  # a move in a cancelled game
    NO_FREE_SEAT = "no_free_seat"  # joining a game whose seats are taken
    NOT_WAITING = "not_waiting"  # cancelling a game that has started
    DAILY_PLAYED = "daily_played"  # a second try at a once-a-day board
    DAILY_NOT_OVER = "daily_not_over"  # a daily board opened by its number before its day ends
    OPPONENT_PRESENT = "opponent_present"  # a win by absence claimed while they are here
    NO_REMATCH = "no_rematch"  # a rematch of a game without two players
    NOT_OVER = "not_over"  # a rematch of a game still running
    GAME_NOT_OVER = "game_not_over"  # a review of a game still running
    GAME_ABORTED = "game_aborted"  # a review of a game aborted before it began
    NO_OFFER = "no_offer"  # accepting a rematch nobody offered
    TOO_MANY_WAITING = "too_many_waiting"  # too many open invitations of one player
    SEEK_PAIRED = "seek_paired"  # withdrawing a seek that became a game
    NOTHING_TO_TRANSFER = "nothing_to_transfer"  # a transfer code for a browser with no player
    TOO_MANY_SUBSCRIPTIONS = "too_many_subscriptions"  # an 11th push subscription of a player
    NO_PLAYER = "no_player"  # a push subscription from a browser without a player cookie
    ARENA_OVER = "arena_over"  # joining an arena that has ended
    NOT_IN_ARENA = "not_in_arena"  # pausing an arena the player has not joined
    # --- 413 -------------------------------------------------------------------------
    TOO_LARGE = "too_large"  # a request body over its limit
    # --- 422: well formed, but not acceptable ----------------------------------------
    INVALID_REQUEST = "invalid_request"  # the body does not match the route's model
    BAD_MESSAGE = "bad_message"  # a socket message that matches no frame's model
    UNKNOWN_TYPE = "unknown_type"  # a socket message of an unknown type
    BAD_NAME = "bad_name"  # a display name that is empty, too long or unprintable
    BAD_PLY = "bad_ply"  # a replay position outside the game
    ILLEGAL_LOG = "illegal_log"  # a log sent for verification holds a refused move
    BAD_POOL = "bad_pool"  # a ratings pool that is no clock of the game
    BAD_ENDPOINT = "bad_endpoint"  # a push endpoint that is not https on a public host
    BAD_MINUTES = "bad_minutes"  # an arena shorter than 3 or longer than 120 minutes
    BAD_START = "bad_start"  # an arena starting in the past or more than 7 days ahead
    # --- 429: later ------------------------------------------------------------------
    RATE_LIMITED = "rate_limited"  # too many requests or messages; Retry-After says when
    BUSY = "busy"  # the engine workers are all busy
    TOO_MANY_REVIEWS = "too_many_reviews"  # a player's (or address's) reviews pending at once
    # --- 5xx -------------------------------------------------------------------------
    INTERNAL = "internal"  # a bug
    DATABASE_UNAVAILABLE = "database_unavailable"  # the store is down for a moment
    SERVER_RESTARTING = "server_restarting"  # a draining process refuses a new socket
    HTTP_ERROR = "http_error"  # any other HTTP status the framework raises (its own status)
