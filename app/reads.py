"""What players read: a game, its log, the open games, records, statistics, the daily
board and the player's name. Nothing here changes a game except through the move path
(a load commits a due clock ending first)."""

from __future__ import annotations

import re

from app.catalog import Catalog
from app.clock import Clock, parse_day, today
from app.errors import AppError
from app.fair_play import MIN_FINISHED, MIN_OWN_MOVES
from app.limits import Admission
from app.models import COMPUTER
from app.moves import MovePath
from app.snapshots import Snapshots, may_replay, replay_forbidden
from app.store import Store
from app.wire import (
    DailyBoard,
    GameLog,
    HonourRow,
    LoadedGame,
    LogEntry,
    Me,
    OpenGame,
    OpenGames,
    RatedProgress,
    RecordRow,
    Records,
    Stats,
    Tally,
)
from app.wire.requests import NAME_MAX, NAME_PATTERN
from engines.core.daily import daily_seed
from engines.core.errors import AppCode

NAME = re.compile(NAME_PATTERN)  # app/wire/requests.py: the schema publishes it
LOG_PAGE = 500  # log entries per page at most: one long log never holds up the others


def clean_name(raw: str) -> str:
    if len(raw) > NAME_MAX or not NAME.fullmatch(raw):
        raise AppError(AppCode.BAD_NAME, f"a name has 1 to {NAME_MAX} printable characters")
    return raw.strip(" ")


class Reads:
    def __init__(
        self,
        store: Store,
        moves: MovePath,
        clock: Clock,
        catalog: Catalog,
        snapshots: Snapshots,
        admission: Admission,
    ) -> None:
        self.admission = admission
        self.store = store
        self.moves = moves
        self.clock = clock
        self.catalog = catalog
        self.snapshots = snapshots

    async def game(self, game_id: str, player_id: str | None) -> LoadedGame:
        game, state = await self.moves.current(await self.store.game(game_id))
        engine = self.catalog.engine(game.engine)
        snapshot = self.snapshots.snapshot(game, engine, state, player_id)
        return LoadedGame(
            **dict(snapshot),
            players=await self.snapshots.players(game, engine),
            presence=await self.snapshots.presence_or_unknown(game.id, len(game.seats)),
        )

    async def log(
        self, game_id: str, player_id: str | None, after: int = 0, limit: int = LOG_PAGE
    ) -> GameLog:
        """One page of a game's log: at most ``limit`` entries after ply ``after``. A log
        (with its seed) is shown to whoever may replay the game: 403 ``replay_forbidden``
        for a stranger to a running game that is not an online one."""
        game = await self.store.game(game_id)
        if not may_replay(game, self.catalog.engine(game.engine), player_id):
            raise replay_forbidden()
        entries = await self.store.moves(game_id, after=after, limit=limit + 1)
        more = len(entries) > limit
        moves = [LogEntry.model_construct(**entry) for entry in entries[:limit]]  # rows
        return GameLog(
            id=game.id,
            game=game.engine,
            params=game.params,
            seed=game.seed,
            number=game.number,
            version=game.version,
            moves=moves,
            next=moves[-1].ply if more else None,
        )

    async def moves_since(
        self, game_id: str, version: int, limit: int | None = None
    ) -> list[LogEntry]:
        entries = await self.store.moves(game_id, after=version, limit=limit)
        return [LogEntry(**entry) for entry in entries]

    async def open_games(self, player_id: str) -> OpenGames:
        rows = await self.store.open_games(self.admission.waiting_since(self.clock.now_ms()))
        return OpenGames(
            games=[OpenGame(**{**row, "mine": row.pop("owner_id") == player_id}) for row in rows]
        )

    async def me(self, player_id: str) -> Me:
        """The player's name and, per game that offers rated play, how far they are from it."""
        name = (await self.store.names([player_id])).get(player_id)
        rated = {}
        for game in self.catalog.rated():
            _, finished = await self.store.rated_standing(
                player_id, game, MIN_FINISHED, MIN_OWN_MOVES
            )
            rated[game] = RatedProgress(finished=finished, needed=MIN_FINISHED, moves=MIN_OWN_MOVES)
        return Me(name=name, rated=rated)

    async def rename(self, player_id: str, raw_name: str) -> Me:
        await self.store.set_name(player_id, clean_name(raw_name), self.clock.now_ms())
        return await self.me(player_id)

    async def records(self, player_id: str, game: str | None) -> Records:
        if game is not None:
            self.catalog.engine(game)  # 404 for a game that does not exist
        rows = await self.store.records(player_id, game)
        return Records(records=[RecordRow(**row) for row in rows])

    async def computer_stats(self, player_id: str, game: str) -> Stats:
        """Wins, losses and draws against the computer, per level (the ``opponent`` param)."""
        self.catalog.engine(game)
        stats: dict[str, Tally] = {}
        for params, seats, outcome in await self.store.finished_games(player_id, game):
            if COMPUTER not in seats or player_id not in seats or not outcome:
                continue
            tally = stats.setdefault(str(params.get("opponent", COMPUTER)), Tally())
            winner = outcome.get("winner")
            if winner is None:
                tally.draws += 1
            elif seats[winner] == player_id:
                tally.wins += 1
            else:
                tally.losses += 1
        return Stats(game=game, stats=stats)

    async def daily(self, game: str, date: str | None) -> DailyBoard:
        """A day's board (today's by default) and its board of honour."""
        engine = self.catalog.engine(game)
        day = (parse_day(date) if date else today(self.clock)).isoformat()
        params = engine.daily_params({})
        if params is None:
            raise AppError(AppCode.NO_DAILY, f"{game} has no daily board")
        seed = daily_seed(game, day)
        honour = await self.store.board_of_honour(game, day, engine.score_order)
        return DailyBoard(
            game=game,
            date=day,
            number=engine.number(params, seed),
            seed=seed,
            honour=[HonourRow(**row) for row in honour],
        )
