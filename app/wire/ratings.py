"""Ratings on the wire: a game's rating change and the leaderboard."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RatingLine(BaseModel):
    before: float
    after: float
    rd: float = Field(description="the rating deviation after the game")
    provisional: bool = Field(
        default=False, description="the rating after the game is provisional (shown with ?)"
    )


class RatingChange(BaseModel):
    """How a rated game changed its players' ratings (in ``outcome.ratings``)."""

    pool: str = Field(description="bullet | blitz | rapid | correspondence")
    seats: list[RatingLine] = Field(description="one entry per seat, in seat order")


class LeaderboardRow(BaseModel):
    rank: int
    name: str | None
    rating: float
    rd: float
    games: int


class Leaderboard(BaseModel):
    game: str
    pool: str
    rows: list[LeaderboardRow]
