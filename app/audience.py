"""Which games' moves a process keeps off Redis: those no other process listens to.

A publish's answer counts the subscriptions that received it; while it says this
process's own alone, the game's next moves stay here (app/hub.py). A process that
subscribes to a game announces it on the channel, and every process that kept that
game's moves back then sends them again, starting with the last one it kept.
"""

from __future__ import annotations


class Audience:
    def __init__(self) -> None:
        self.subscribed: set[str] = set()  # games whose subscription Redis confirmed
        self.alone: set[str] = set()  # subscribed games no other process listens to
        self.kept_back: dict[str, bytes] = {}  # an alone game's last move, not sent
        self.interests_heard = 0  # other processes' announcements, any game

    def keep_back(self, game_id: str, payload: bytes) -> bool:
        """True when this move of ``game_id`` is kept here instead of being sent."""
        if game_id not in self.alone:
            return False
        self.kept_back[game_id] = payload
        return True

    def before_sending(self, game_id: str) -> tuple[bool, int]:
        """What a move's publish must remember for ``answered``: whether its answer can
        say "this process alone" (subscribed: it counts itself), and the announcements
        heard so far (one may come before an answer that Redis counted before the newcomer
        subscribed)."""
        return game_id in self.subscribed, self.interests_heard

    def answered(self, game_id: str, before: tuple[bool, int], receivers: int) -> None:
        could_be_alone, interests = before
        if (
            could_be_alone
            and receivers <= 1
            and interests == self.interests_heard
            and game_id in self.subscribed
        ):
            self.alone.add(game_id)

    def heard_interest(self, game_id: str) -> bytes | None:
        """Another process subscribed to this game: its moves are sent again; the last one
        kept back, to send first."""
        self.interests_heard += 1
        self.alone.discard(game_id)
        return self.kept_back.pop(game_id, None)

    def forget(self, game_id: str) -> None:
        """Unsubscribed: every move of the game is sent (it hears no announcement now)."""
        self.subscribed.discard(game_id)
        self.alone.discard(game_id)
        self.kept_back.pop(game_id, None)

    def forget_all(self) -> None:
        for game_id in list(self.subscribed):
            self.forget(game_id)
