"""What a notice says: ``{type, title, body, url, game_id}`` in the subscriber's language,
and how the push service should treat it (TTL, Urgency, Topic)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.i18n import Translator

Kind = Literal["your_turn", "joined", "rematch"]
KINDS: tuple[Kind, ...] = ("your_turn", "joined", "rematch")
# The catalog keys, written whole (tests/engines/test_catalog_keys.py finds them).
WORDS: dict[str, tuple[str, str]] = {
    "your_turn": ("push.your_turn.title", "push.your_turn.body"),
    "joined": ("push.joined.title", "push.joined.body"),
    "rematch": ("push.rematch.title", "push.rematch.body"),
}
# How long a push service keeps a notice for a phone that is off: a correspondence move
# waits a day; an arrival or a rematch offer is stale sooner.
TTL_S = {"your_turn": 24 * 3600, "joined": 3600, "rematch": 600}


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
        "url": f"/g/{notice.game_id}",
        "game_id": notice.game_id,
    }


def push_headers(notice: Notice) -> dict[str, str]:
    return {
        "TTL": str(TTL_S[notice.kind]),
        "Urgency": "high" if notice.kind == "your_turn" else "normal",
        "Topic": notice.game_id,  # a newer notice of the same game replaces an older one
    }
