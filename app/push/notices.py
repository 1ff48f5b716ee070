"""What a notice says: ``{type, title, body, url, game_id}`` in the subscriber's language,
and how the push service should treat it (TTL, Urgency, Topic)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from app.i18n import Translator

# What a subscription may ask for ("arena": an arena it joined starts, or pairs it while
# none of its pages has the arena open), and the notices sent.
Wanted = Literal["your_turn", "joined", "rematch", "arena"]
Kind = Literal["your_turn", "joined", "rematch", "arena_started", "arena_paired"]
KINDS: tuple[Wanted, ...] = ("your_turn", "joined", "rematch", "arena")
WANTED_BY: dict[str, Wanted] = {"arena_started": "arena", "arena_paired": "arena"}
# The catalog keys, written whole (tests/engines/test_catalog_keys.py finds them).
WORDS: dict[str, tuple[str, str]] = {
    "your_turn": ("push.your_turn.title", "push.your_turn.body"),
    "joined": ("push.joined.title", "push.joined.body"),
    "rematch": ("push.rematch.title", "push.rematch.body"),
    "arena_started": ("push.arena_started.title", "push.arena_started.body"),
    "arena_paired": ("push.arena_paired.title", "push.arena_paired.body"),
}
# How long a push service keeps a notice for a phone that is off: a correspondence move
# waits a day; an arrival or a rematch offer is stale sooner, an arena's news sooner still.
TTL_S = {
    "your_turn": 24 * 3600,
    "joined": 3600,
    "rematch": 600,
    "arena_started": 300,
    "arena_paired": 30,
}


@dataclass(frozen=True)
class Notice:
    """One event for one player: ``kind`` in ``game_id`` (of ``engine``), caused by
    ``by`` (the opponent's player id). ``seat`` is the player's seat (``your_turn``
    looks whether they have the game open)."""

    kind: Kind
    player_id: str
    game_id: str
    engine: str
    by: str
    seat: int
    seat_count: int
    # an arena's notice: the arena it is about (``arena_started``, whose ``game_id`` is
    # the arena's too, opens the arena's page)
    arena_id: str | None = None

    @property
    def wanted(self) -> Wanted:
        """The kind a subscription asks for to get this notice."""
        return WANTED_BY.get(self.kind) or cast(Wanted, self.kind)


def payload(notice: Notice, lang: str, opponent: str | None) -> dict[str, Any]:
    t = Translator(lang)
    title, body = WORDS[notice.kind]
    game_key = f"games.{notice.engine}.title"
    game = t(game_key)
    words = {
        "opponent": opponent or t("push.opponent"),
        "game": notice.engine if game == game_key else game,  # a game without words
    }
    return {
        "type": notice.kind,
        "title": t(title),
        "body": t(body, **words),
        "url": url_of(notice),
        "game_id": notice.game_id,
    }


def url_of(notice: Notice) -> str:
    """Where the notice opens: the game, or for an arena's start, the arena."""
    if notice.kind == "arena_started":
        return f"/arenas/{notice.arena_id}"
    return f"/g/{notice.game_id}"


def push_headers(notice: Notice) -> dict[str, str]:
    return {
        "TTL": str(TTL_S[notice.kind]),
        "Urgency": "high" if notice.kind == "your_turn" else "normal",
        "Topic": notice.game_id,  # a newer notice of the same game (arena) replaces an older one
    }
