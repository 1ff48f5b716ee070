"""A game's life outside its moves: creation (by number, daily admission), taking the
open seat, cancelling a waiting game, and the rematch of a finished one."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any

from app.catalog import AnyEngine, Catalog
from app.clock import Clock, parse_day, today
from app.errors import AppError, from_engine
from app.fair_play import RatedAdmission
from app.hub import Hub
from app.limits import Admission
from app.models import COMPUTER, Game, GameStatus
from app.moves import MovePath, Played
from app.push.sender import PushNotices
from app.snapshots import Snapshots, seats_of
from app.store import Store
from app.wire import CancelledFrame, JoinedFrame, Rematch, RematchFrame, Snapshot
from app.workers import EngineWorkers
from engines.core.daily import daily_seed
from engines.core.errors import AppCode, ErrorCode
from engines.core.numbers import SEED_LIMIT
from engines.core.protocol import ArenaPlay, BadParams, EngineError, SeatKind


class Lifecycle:
    def __init__(
        self,
        store: Store,
        moves: MovePath,
        hub: Hub,
        clock: Clock,
        catalog: Catalog,
        snapshots: Snapshots,
        admission: Admission,
        workers: EngineWorkers,
        notices: PushNotices,
    ) -> None:
        self.notices = notices
        self.workers = workers
        self.admission = admission
        self.store = store
        self.moves = moves
        self.hub = hub
        self.clock = clock
        self.catalog = catalog
        self.snapshots = snapshots
        self.rated = RatedAdmission(store, clock, admission.settings.secret or "")

    async def create(
        self,
        player_id: str,
        address: str,
        game_name: str,
        raw_params: Mapping[str, Any] | None,
        number: str | None,
        daily: str | None,
        public: bool,
    ) -> tuple[Played, Snapshot]:
        """A new game: a random board, a numbered one, or the day's. Returns the game (after
        the computer's opening, when it moves first) and the creator's snapshot."""
        engine = self.catalog.engine(game_name)
        await self.admission.creating(player_id, address)
        raw = dict(raw_params or {})
        daily_key = None
        try:
            if daily is not None:
                params, seed = self._daily(engine, game_name, raw, daily)
                if engine.daily_once(params):
                    daily_key = f"{game_name}:{daily}"
            elif number is not None:
                params, seed = numbered(engine, number, raw)
                self._not_a_daily(engine, game_name, number, seed)
            else:
                params = engine.parse_params(raw)
                seed = secrets.randbelow(SEED_LIMIT)
            if isinstance(engine, ArenaPlay) and engine.arena_game(params):
                raise BadParams(ErrorCode.BAD_PARAMS.value, "only an arena makes a berserk game")
        except EngineError as error:
            raise from_engine(error) from None
        if engine.rating_pool(params) is not None:
            await self.rated.check(player_id, game_name, address)
        try:
            state = await self.workers.new_game(engine, params, seed)
        except EngineError as error:
            raise from_engine(error) from None
        seats: list[str | None] = [
            player_id if kind is SeatKind.OWNER else COMPUTER if kind is SeatKind.COMPUTER else None
            for kind in engine.seats(params)
        ]
        if None in seats:
            await self._check_waiting(player_id)
        game = self._new_row(
            game_name,
            engine,
            params,
            seed,
            state,
            owner_id=player_id,
            seats=seats,
            status=GameStatus.WAITING if None in seats else GameStatus.ACTIVE,
            public=bool(public and None in seats),
            daily=daily,
            daily_key=daily_key,
        )
        now = self.clock.now_ms()
        await self.store.add_game(game, player_id, now, daily_seed=seed if daily else None)
        played = await self.moves.opening(game, engine, state)
        self.moves.keep(played.game, played.state)
        return played, self.snapshots.snapshot(played.game, engine, played.state, player_id)

    def _waiting_since(self) -> int:
        return self.admission.waiting_since(self.clock.now_ms())

    async def _check_waiting(self, player_id: str) -> None:
        limit = self.admission.settings.limit_waiting_per_player
        if await self.store.count_waiting(player_id, self._waiting_since()) >= limit:
            raise AppError(
                AppCode.TOO_MANY_WAITING,
                f"you have {limit} games waiting for an opponent: cancel one first",
            )

    def _daily(
        self, engine: AnyEngine, game_name: str, raw: Mapping[str, Any], daily: str
    ) -> tuple[Any, int]:
        """Admission to a daily board: only yesterday's, today's or tomorrow's (players'
        local dates straddle the server's), and only for games that have one."""
        date = parse_day(daily)
        if abs((date - today(self.clock)).days) > 1:
            raise AppError(
                ErrorCode.BAD_DATE, "the daily board exists only for yesterday, today and tomorrow"
            )
        params = engine.daily_params(raw)
        if params is None:
            raise AppError(AppCode.NO_DAILY, f"{game_name} has no daily board")
        return params, daily_seed(game_name, daily)

    def _not_a_daily(self, engine: AnyEngine, game_name: str, number: str, seed: int) -> None:
        """A daily board opens by its number only once its day is over: while the daily
        route still admits its date (the server's yesterday, today or tomorrow), a game
        with its seed would let anyone practise it. Every number of the game with that
        seed is refused (Blocks deals a seed alike in Daily and Classic)."""
        if engine.daily_params({}) is None:
            return
        on = today(self.clock)
        for offset in (-1, 0, 1):
            date = (on + dt.timedelta(days=offset)).isoformat()
            if daily_seed(game_name, date) == seed:
                raise AppError(
                    AppCode.DAILY_NOT_OVER,
                    f"{number} is the daily board of {date}: it opens by its number once "
                    "that day is over; play it as the daily board",
                )

    async def join(self, game_id: str, player_id: str, address: str) -> Snapshot:
        """Take the open seat of a waiting online game (a seated player just gets the
        game back); exactly one of two racing joiners wins."""
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        if not seats_of(game, player_id):
            if game.status != GameStatus.WAITING or None not in game.seats:
                raise AppError(
                    AppCode.NO_FREE_SEAT, "both seats are taken; you can watch this game"
                )
            if game.updated_ms < self._waiting_since():
                raise AppError(AppCode.NO_FREE_SEAT, "this invitation has expired")
            if engine.rating_pool(engine.parse_params(game.params)) is not None:
                await self.rated.check(player_id, game.engine, address)
            seats = list(game.seats)
            seats[seats.index(None)] = player_id
            # The game's time starts now (its at_ms zero), and with it a clock, if any.
            now = self.clock.now_ms()
            deadline = engine.deadline(await self.workers.load(engine, game))
            deadline_ms = None if deadline is None else now + deadline
            if not await self.store.take_seat(game_id, player_id, seats, now, deadline_ms):
                raise AppError(AppCode.NO_FREE_SEAT, "someone else took the seat first")
            game = await self.store.game(game_id)
            players = await self.snapshots.players(game, engine)
            await self.hub.publish(game.id, JoinedFrame(version=game.version, players=players))
            self.notices.others("joined", game, player_id)
        state = await self.workers.load(engine, game)
        self.moves.keep(game, state)
        return self.snapshots.snapshot(game, engine, state, player_id)

    async def cancel(self, game_id: str, player_id: str) -> None:
        """Withdraw a game nobody has joined yet; only its creator may."""
        game = await self.store.game(game_id)
        if game.owner_id != player_id:
            raise AppError(AppCode.NOT_OWNER, "only the creator can cancel this game")
        if not await self.store.cancel_waiting(game_id, self.clock.now_ms()):
            raise AppError(
                AppCode.NOT_WAITING, "only a game still waiting for an opponent can be cancelled"
            )
        await self.hub.publish(game_id, CancelledFrame(version=game.version))

    async def rematch(self, game_id: str, player_id: str, action: str) -> Rematch:
        """Offer, accept or decline a rematch of a finished two-player game.

        Accepting creates the new game with the seats swapped (the other player opens).
        The game row is locked while the offer changes, so two answers cannot cross.
        """
        # The new board is built before the row is locked (it may take a while).
        candidate = await self._new_rematch(game_id) if action == "accept" else None
        async with self.store.locked_game(game_id) as (session, game):
            previous = game.rematch
            offer = self._rematch_offer(game, player_id, action)
            if candidate is not None and offer.game_id is None:
                rematch = self._new_row(
                    game.engine,
                    self.catalog.engine(game.engine),
                    *candidate,
                    owner_id=game.owner_id,
                    seats=list(reversed(game.seats)),
                )
                session.add(rematch)
                offer = offer.model_copy(update={"game_id": rematch.id})
            game.rematch = offer.model_dump(exclude_none=True)
            # A new offer (not the same one again) is told to the opponent, once committed.
            new_offer = action == "offer" and offer.game_id is None and game.rematch != previous
        await self.hub.publish(game_id, RematchFrame(rematch=offer))
        if new_offer:
            self.notices.others("rematch", game, player_id)
        return offer

    @staticmethod
    def _rematch_offer(game: Game, player_id: str, action: str) -> Rematch:
        mine = seats_of(game, player_id)
        humans = {s for s in game.seats if s not in (None, COMPUTER)}
        if not mine:
            raise AppError(AppCode.NOT_SEATED, "only the players can ask for a rematch")
        if len(humans) < 2:
            raise AppError(AppCode.NO_REMATCH, "rematches are for games between two players")
        if game.status != GameStatus.OVER:
            raise AppError(AppCode.NOT_OVER, "a rematch can be offered once the game is over")
        offer = Rematch.model_validate(game.rematch or {})
        if offer.game_id is not None:
            return offer  # already agreed: everyone goes to the same new game
        if action == "offer":
            return Rematch(offered_by=mine[0])
        if action == "decline":
            return Rematch(declined_by=mine[0])
        if offer.offered_by in (None, mine[0]):
            raise AppError(AppCode.NO_OFFER, "there is no rematch offer from your opponent")
        return offer

    async def _new_rematch(self, game_id: str) -> tuple[Any, int, Any]:
        """Params, seed and state of a rematch: the same params, a new board."""
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        params = engine.parse_params(game.params)
        seed = secrets.randbelow(SEED_LIMIT)
        return params, seed, await self.workers.new_game(engine, params, seed)

    def paired_row(
        self,
        game_name: str,
        engine: AnyEngine,
        params: Any,
        seed: int,
        state: Any,
        seats: list[str | None],
    ) -> Game:
        """The row of a game two players start at once (quick pairing): both seats
        filled, under way now; the first seat's player is its owner."""
        first = seats[0]
        assert first is not None
        return self._new_row(game_name, engine, params, seed, state, owner_id=first, seats=seats)

    def _new_row(
        self,
        game_name: str,
        engine: AnyEngine,
        params: Any,
        seed: int,
        state: Any,
        *,
        owner_id: str,
        seats: list[str | None],
        status: GameStatus = GameStatus.ACTIVE,
        public: bool = False,
        daily: str | None = None,
        daily_key: str | None = None,
    ) -> Game:
        """A new game's row, at version 0 and started now."""
        now = self.clock.now_ms()
        deadline = engine.deadline(state) if status == GameStatus.ACTIVE else None
        return Game(
            id=secrets.token_urlsafe(9),
            engine=game_name,
            params=engine.dump_params(params),
            seed=seed,
            number=engine.number(params, seed),
            owner_id=owner_id,
            guest_id=next((s for s in seats if s not in (None, COMPUTER, owner_id)), None),
            seats=seats,
            version=0,
            state=engine.dump_state(state),
            status=status.value,
            outcome=None,
            public=public,
            daily=daily,
            daily_key=daily_key,
            score=None,
            rematch=None,
            started_ms=now,
            updated_ms=now,
            deadline_ms=None if deadline is None else now + deadline,
            too_fast=False,
        )


def numbered(engine: AnyEngine, number: str, raw: Mapping[str, Any]) -> tuple[Any, int]:
    """The number fixes the board; the request may choose what the number leaves open
    (a mode, an opponent): each requested param is kept when the number stays the same."""
    params, seed = engine.from_number(number)
    number = engine.number(params, seed)
    for key, value in raw.items():
        candidate = engine.parse_params({**engine.dump_params(params), key: value})
        if engine.number(candidate, seed) == number:
            params = candidate
    return params, seed
