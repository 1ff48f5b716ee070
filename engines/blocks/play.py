"""The one game loop of every ruleset: deal, place, clear, score, and the ways a game ends.

Functions here take a ``Ruleset`` and a ``State`` and return a new ``State`` with the
events of what happened; they never mutate their input.
"""

from __future__ import annotations

from dataclasses import replace

from engines.blocks.dealing import Hand
from engines.blocks.events import (
    BlocksCleared,
    BlocksContinued,
    BlocksDealt,
    BlocksEvent,
    BlocksGravity,
    BlocksGridCleared,
    BlocksNewSet,
    BlocksOver,
    BlocksPiece,
    BlocksPlaced,
    BlocksRotated,
    BlocksStuck,
    BlocksZenClearedRow,
)
from engines.blocks.params import Params
from engines.blocks.rulesets import Ruleset, ruleset_of
from engines.blocks.scoring import ComboState
from engines.blocks.state import EMPTY, State
from engines.core.bits import bits
from engines.core.errors import ErrorCode
from engines.core.numbers import check_seed
from engines.core.protocol import IllegalMove
from engines.core.rng import Rng

CONTINUE_ROWS = 4  # Continue empties at most this many rows


def rng_stream(params: Params) -> str:
    # One stream per ruleset: a seed deals the same first set in every shapes48 mode that
    # shares the Classic distribution.
    return f"blocks/{params.ruleset}"


def new_game(params: Params, seed: int) -> State:
    rules = ruleset_of(params)
    rng = Rng.from_seed(check_seed(seed), rng_stream(params))
    hand = rules.dealer.deal(rng, 0, 0, rules.table, rules.grid.full)
    return State(
        params=params,
        seed=seed,
        rng=rng.state,
        board=0,
        colours=(0,) * rules.grid.size,
        hand=hand,
        tokens=rules.tokens.start if rules.tokens else 0,
    )


# --- what fits -----------------------------------------------------------------------------


def placeable(rules: Ruleset, board: int, piece: int) -> bool:
    """Whether the piece fits somewhere; with rotation on, in any of its orientations."""
    full = rules.grid.full
    if rules.rotations is None:
        return rules.table[piece].fits(board, full)
    turned = piece
    for _ in range(4):
        if rules.table[turned].fits(board, full):
            return True
        turned = rules.rotations[turned]
    return False


def any_placeable(rules: Ruleset, board: int, hand: Hand) -> bool:
    return any(piece != EMPTY and placeable(rules, board, piece) for piece in hand)


def cells_json(rules: Ruleset, mask: int) -> list[list[int]]:
    return [list(rules.grid.cell_of(i)) for i in bits(mask)]


def piece_json(rules: Ruleset, piece: int) -> BlocksPiece:
    shape = rules.shapes[piece]
    return BlocksPiece(name=shape.name, kind=shape.kind, cells=[list(c) for c in shape.cells])


def hand_json(rules: Ruleset, hand: Hand) -> list[BlocksPiece | None]:
    return [None if piece == EMPTY else piece_json(rules, piece) for piece in hand]


def hand_piece(state: State, slot: int) -> int:
    if not 0 <= slot < len(state.hand):
        raise IllegalMove("no_such_piece", f"the hand has pieces 0, 1 and 2, not {slot}")
    piece = state.hand[slot]
    if piece == EMPTY:
        raise IllegalMove("piece_used", f"piece {slot} has been placed already")
    return piece


def fullest_row(rules: Ruleset, board: int) -> int:
    """The row with the most filled cells (ties: the topmost); -1 on an empty board."""
    best, best_count = -1, 0
    for row in range(rules.grid.rows):
        count = (board & rules.grid.row_mask(row)).bit_count()
        if count > best_count:
            best, best_count = row, count
    return best


def empty_cells(colours: tuple[int, ...], mask: int) -> tuple[int, ...]:
    out = list(colours)
    for i in bits(mask):
        out[i] = 0
    return tuple(out)


# --- dealing -------------------------------------------------------------------------------


def deal_hand(
    rules: Ruleset, rng_state: int, board: int, score: int, events: list[BlocksEvent]
) -> tuple[Hand, int]:
    """A new set for ``board`` (with the ruleset's guarantee) and the new rng state."""
    rng = Rng(rng_state)
    hand = rules.dealer.deal(rng, board, score, rules.table, rules.grid.full)
    events.append(BlocksDealt(type="dealt", hand=hand_json(rules, hand)))
    return hand, rng.state


def deal(rules: Ruleset, state: State, events: list[BlocksEvent]) -> State:
    hand, rng_state = deal_hand(rules, state.rng, state.board, state.score, events)
    return replace(state, rng=rng_state, hand=hand, sets=state.sets + 1)


def settle(rules: Ruleset, state: State, at_ms: int, events: list[BlocksEvent]) -> State:
    """After a change of board or hand: go on, wait for a New set, refill (Zen), or end."""
    if any_placeable(rules, state.board, state.hand):
        return state
    if rules.zen:
        return zen_refill(rules, state, events)
    if rules.tokens is not None and state.tokens > 0:
        events.append(BlocksStuck(type="stuck", tokens=state.tokens))
        return state
    events.append(BlocksOver(type="over", reason="stuck"))
    return replace(state, end_reason="stuck", end_ms=at_ms)


def zen_refill(rules: Ruleset, state: State, events: list[BlocksEvent]) -> State:
    """Zen when nothing fits: three new pieces; while none of them fits, clear the fullest
    row (an empty grid takes every piece, so this ends)."""
    rng = Rng(state.rng)
    hand = rules.dealer.draw_set(rng, state.score)
    events.append(BlocksDealt(type="dealt", hand=hand_json(rules, hand), refill=True))
    board, colours = state.board, state.colours
    while not any_placeable(rules, board, hand):
        row = fullest_row(rules, board)
        mask = board & rules.grid.row_mask(row)
        events.append(
            BlocksZenClearedRow(type="zen_cleared_row", row=row, cells=cells_json(rules, mask))
        )
        board &= ~mask
        colours = empty_cells(colours, mask)
    return replace(
        state, rng=rng.state, hand=hand, sets=state.sets + 1, board=board, colours=colours
    )


# --- placing -------------------------------------------------------------------------------


def fall(rules: Ruleset, colours: tuple[int, ...], full_rows: list[int]) -> tuple[
    int, tuple[int, ...], list[list[int]]
]:
    """Gravity: rows above cleared rows move down into them, keeping their layout.

    Returns the new board, colours and the ``[from_row, to_row]`` moves of non-empty rows.
    """
    rows, cols = rules.grid.rows, rules.grid.cols
    kept = [r for r in range(rows) if r not in full_rows]
    drop = rows - len(kept)
    new_colours = [0] * (drop * cols)
    moves: list[list[int]] = []
    for to_row, from_row in enumerate(kept, start=drop):
        line = colours[from_row * cols : (from_row + 1) * cols]
        new_colours.extend(line)
        if to_row != from_row and any(line):
            moves.append([from_row, to_row])
    board = sum(1 << i for i, kind in enumerate(new_colours) if kind)
    return board, tuple(new_colours), moves


def place(rules: Ruleset, state: State, slot: int, row: int, col: int, at_ms: int) -> tuple[
    State, list[BlocksEvent]
]:
    piece = hand_piece(state, slot)
    grid = rules.grid
    placements = rules.table[piece]
    shape = placements.shape
    if not (0 <= row <= grid.rows - shape.height and 0 <= col <= grid.cols - shape.width):
        raise IllegalMove(
            ErrorCode.OUT_OF_BOARD,
            f"piece {slot} at row {row}, column {col} would leave the grid",
            {"piece": slot, "row": row, "col": col},
        )
    anchor = row * grid.cols + col
    mask = placements.masks[anchor]
    overlap = mask & state.board
    if overlap:
        raise IllegalMove(
            "occupied",
            f"piece {slot} at row {row}, column {col} covers filled cells",
            {"cells": cells_json(rules, overlap)},
        )

    board = state.board | mask
    colours = list(state.colours)
    covered = placements.covered[anchor]
    for i in covered:
        colours[i] = shape.kind
    full_rows, full_cols, cleared = grid.full_lines(board, placements.touched[anchor])
    lines = len(full_rows) + len(full_cols)
    combo = rules.combo.after(ComboState(state.combo, state.misses), lines > 0)
    board &= ~cleared
    for i in bits(cleared):
        colours[i] = 0
    emptied = lines > 0 and board == 0
    points = rules.scorer.points(shape.size, lines, combo.combo, emptied)

    events: list[BlocksEvent] = [
        BlocksPlaced(
            type="placed",
            piece=slot,
            row=row,
            col=col,
            kind=shape.kind,
            cells=[list(divmod(i, grid.cols)) for i in covered],
            points=points.total,
        )
    ]
    if lines:
        events.append(
            BlocksCleared(
                type="cleared",
                rows=full_rows,
                cols=full_cols,
                cells=cells_json(rules, cleared),
                points=points.lines,
                combo=combo.combo,
            )
        )
    tokens = state.tokens
    if emptied and points.bonus:
        grid_event = BlocksGridCleared(type="grid_cleared", bonus=points.bonus)
        if rules.tokens is not None:
            tokens = min(tokens + rules.tokens.per_cleared_grid, rules.tokens.cap)
            grid_event["tokens"] = tokens
        events.append(grid_event)
    new_colours = tuple(colours)
    if rules.gravity and full_rows:
        board, new_colours, moves = fall(rules, new_colours, full_rows)
        if moves:
            events.append(BlocksGravity(type="gravity", moves=moves))

    hand: Hand = (
        EMPTY if slot == 0 else state.hand[0],
        EMPTY if slot == 1 else state.hand[1],
        EMPTY if slot == 2 else state.hand[2],
    )
    score = state.score + points.total
    rng_state, sets = state.rng, state.sets
    if hand == (EMPTY, EMPTY, EMPTY):
        hand, rng_state = deal_hand(rules, rng_state, board, score, events)
        sets += 1
    # Built directly rather than with dataclasses.replace: this is the hot path.
    after = State(
        params=state.params,
        seed=state.seed,
        rng=rng_state,
        board=board,
        colours=new_colours,
        hand=hand,
        score=score,
        combo=combo.combo,
        misses=combo.misses,
        best_combo=max(state.best_combo, combo.combo),
        lines=state.lines + lines,
        placements=state.placements + 1,
        sets=sets,
        tokens=tokens,
        continue_used=state.continue_used,
        end_reason=None,
        end_ms=0,
        last_ms=at_ms,
    )
    return settle(rules, after, at_ms, events), events


# --- the other moves -----------------------------------------------------------------------


def rotate(rules: Ruleset, state: State, slot: int, at_ms: int) -> tuple[State, list[BlocksEvent]]:
    if rules.rotations is None:
        raise IllegalMove("rotation_off", "pieces do not turn in this game")
    piece = hand_piece(state, slot)
    turned = rules.rotations[piece]
    hand = list(state.hand)
    hand[slot] = turned
    piece_shown = piece_json(rules, turned)
    event = BlocksRotated(
        type="rotated",
        piece=slot,
        name=piece_shown["name"],
        kind=piece_shown["kind"],
        cells=piece_shown["cells"],
    )
    return replace(state, hand=(hand[0], hand[1], hand[2]), last_ms=at_ms), [event]


def new_set(rules: Ruleset, state: State, at_ms: int) -> tuple[State, list[BlocksEvent]]:
    if rules.tokens is None:
        raise IllegalMove("not_allowed", "this game has no New set")
    if state.tokens <= 0:
        raise IllegalMove("no_tokens", "no New set is left")
    events: list[BlocksEvent] = [BlocksNewSet(type="new_set", tokens=state.tokens - 1)]
    after = deal(rules, replace(state, tokens=state.tokens - 1, last_ms=at_ms), events)
    return settle(rules, after, at_ms, events), events


def rows_to_empty(rules: Ruleset, state: State) -> list[int] | None:
    """Continue: the fullest rows, emptied one by one until a remaining piece fits (at most
    four), or None when four rows would not make room."""
    board = state.board
    rows: list[int] = []
    for _ in range(CONTINUE_ROWS):
        row = fullest_row(rules, board)
        if row < 0:
            break
        rows.append(row)
        board &= ~rules.grid.row_mask(row)
        if any_placeable(rules, board, state.hand):
            return rows
    return None


def can_continue(rules: Ruleset, state: State) -> bool:
    return (
        rules.continue_offered
        and state.end_reason == "stuck"
        and not state.continue_used
        and rows_to_empty(rules, state) is not None
    )


def continue_game(rules: Ruleset, state: State, at_ms: int) -> tuple[State, list[BlocksEvent]]:
    if not rules.continue_offered:
        raise IllegalMove("continue_not_allowed", "this game offers no Continue")
    if not state.over:
        raise IllegalMove("not_over", "Continue is offered only once the game is over")
    if state.continue_used:
        raise IllegalMove("continue_used", "Continue has been used in this game already")
    if state.end_reason != "stuck":
        raise IllegalMove(
            "continue_not_allowed", "Continue is offered only when no piece fits"
        )
    rows = rows_to_empty(rules, state)
    if rows is None:
        raise IllegalMove(
            "no_room", f"emptying {CONTINUE_ROWS} rows would not make room for any piece"
        )
    mask = 0
    for row in rows:
        mask |= rules.grid.row_mask(row)
    after = replace(
        state,
        board=state.board & ~mask,
        colours=empty_cells(state.colours, mask),
        continue_used=True,
        end_reason=None,
        end_ms=0,
        last_ms=at_ms,
    )
    removed = cells_json(rules, state.board & mask)
    return after, [BlocksContinued(type="continued", rows=rows, cells=removed)]


def finish(state: State, at_ms: int) -> tuple[State, list[BlocksEvent]]:
    return replace(state, end_reason="finished", end_ms=at_ms, last_ms=at_ms), [
        BlocksOver(type="over", reason="finished")
    ]


def tick(rules: Ruleset, state: State, at_ms: int) -> tuple[State, list[BlocksEvent]]:
    limit = rules.time_limit_ms
    if limit is None or state.over or at_ms < limit:
        return state, []
    return replace(state, end_reason="time_up", end_ms=limit), [
        BlocksOver(type="over", reason="time_up")
    ]
