"""Every database query of the site, and the transactions they run in.

One ``Store`` object serves the services; its queries are grouped by what they read and
write, one module each (``games``: games, moves, dailies, players and records;
``history``: a player's own games; ``transfers``: device-transfer codes; ``ratings``:
Glicko-2 ratings and the leaderboard; ``seeks``: the quick-pairing pool; ``reviews``:
finished games' reviews; ``push``: Web Push subscriptions; ``arenas``: arena
tournaments, their players and their pairing). A new group of queries is a
class in its own module that ``Store`` inherits from.
"""

from app.store.arenas import ArenaQueries
from app.store.games import GameQueries, valid_id
from app.store.history import HistoryQueries
from app.store.push import PushQueries
from app.store.ratings import RatingQueries
from app.store.reviews import ReviewQueries
from app.store.seeks import SeekQueries
from app.store.transfers import TransferQueries


class Store(
    GameQueries,
    HistoryQueries,
    TransferQueries,
    RatingQueries,
    SeekQueries,
    ReviewQueries,
    PushQueries,
    ArenaQueries,
):
    """The queries of every group; ``GameQueries`` holds the engine, sessions and the
    write transaction the others use."""


__all__ = ["Store", "valid_id"]
