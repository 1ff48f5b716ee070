"""A game packaged outside engines/ and templates/ (tests/fixtures/games/lampsout), served
the way a plugin is: ``engines.registry.served`` and its own ``templates/games/``. Its
score is its number of presses and fewer is better; the platform serves it, lists it,
keeps the lower score as the record (never negated) and replays it, and no shared file
names it."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.i18n import LANGUAGES, catalog, package_catalogs, words
from engines.registry import ENGINES, served
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT
from tests.fixtures.games.lampsout import LampsOut, Params
from tests.pages import page_json


class DailyLamps(LampsOut):
    """Lamps Out with a daily board: its board of honour ranks fewer presses first."""

    name = "dailylamps"

    def daily_params(self, raw: Any) -> Params:
        return Params(6)


ROOT = Path(__file__).resolve().parents[2]
SHARED = ("app", "engines", "templates", "static", "migrations")


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client(served(LAMPSOUT))


@pytest.fixture
def alice(client: Any, players: Any) -> Any:
    return players(client, "alice")[0]


def finish(player: Any, game: dict[str, Any], waste: int) -> dict[str, Any]:
    """Put every lit lamp out after ``2 * waste`` presses that change nothing in the end
    (one lamp pressed an even number of times while another lamp stays lit, so the game
    cannot end early: a lit one when two are lit, else a dark one); returns the last answer."""
    lamps = game["view"]["lamps"]
    version, lit = game["version"], [i for i, on in enumerate(lamps) if on]
    wasted = lit[0] if len(lit) >= 2 else lamps.index(False)
    presses = [wasted] * (2 * waste) + lit
    for lamp in presses:
        answer = player.move(game["id"], version, {"type": "press", "lamp": lamp})
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    body: dict[str, Any] = answer.json()
    assert body["status"] == "over" and body["view"]["over"] is True
    return body


def test_a_lower_is_better_game_is_served_recorded_and_replayed(
    client: Any, alice: Any, clock: Any
) -> None:
    # Served: listed in the catalog with its order, its own pages answer.
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert list(games) == [*ENGINES, "lampsout"]  # after the site's own games
    assert games["lampsout"]["score_order"] == "lower"
    for name, engine in ENGINES.items():
        assert games[name]["score_order"] == engine.score_order.value
    play = alice.get("/play/lampsout")
    assert play.status_code == 200 and 'id="lampsout"' in play.text
    # Its words are its own (tests/fixtures/games/lampsout/i18n), in the player's language.
    assert '<h1 class="hud__title">Lamps Out</h1>' in play.text
    russian = alice.get("/play/lampsout", headers={"accept-language": "ru"})
    assert '<h1 class="hud__title">Погаси лампы</h1>' in russian.text
    assert alice.get("/daily/lampsout").status_code == 404  # it has no daily board

    # Three games of one board: 2 extra presses, none extra, 2 extra again.
    first = alice.new_game("lampsout", params={"size": 4})
    lit = sum(first["view"]["lamps"])
    assert lit >= 1
    number = first["number"]
    assert alice.get(f"/play/lampsout/{number}").status_code == 200
    finish(alice, first, waste=1)
    clock.advance(1000)  # the history is newest first by start
    best = alice.new_game("lampsout", number=number)
    assert best["view"]["lamps"] == first["view"]["lamps"]
    finish(alice, best, waste=0)
    clock.advance(1000)
    last = alice.new_game("lampsout", number=number)
    finish(alice, last, waste=1)

    # Recorded: the fewest presses is the record, with its true (positive) score.
    records = alice.get("/api/records", params={"game": "lampsout"}).json()["records"]
    assert records == [
        {
            "game": "lampsout",
            "key": "size4",
            "score": lit,
            "time_ms": 0,
            "game_id": best["id"],
            "played": 3,
        }
    ]
    # Its page brings them, read for it (it has no computer player: no stats).
    config = page_json(alice.get("/play/lampsout").text)
    assert config["records"] == records and "stats" not in config
    history = alice.get("/api/me/games", params={"game": "lampsout"}).json()["games"]
    assert [(g["id"], g["score"]) for g in history] == [
        (last["id"], lit + 2),
        (best["id"], lit),
        (first["id"], lit + 2),
    ]
    stats = [s for s in alice.get("/api/me/stats").json()["stats"] if s["game"] == "lampsout"]
    assert stats == [
        {
            "game": "lampsout",
            "variant": "4",
            "played": 3,
            "best": lit,
            "average": round((3 * lit + 4) / 3, 1),
            "levels": {},
            "rating": None,
            "provisional": None,
        }
    ]

    # Replayable: every ply through the API, and the replay page in the game's own look.
    end = alice.get(f"/api/games/{best['id']}/replay", params={"timeline": "true"}).json()
    assert end["view"]["lamps"] == [False] * 4 and end["view"]["scores"] == [lit]
    assert [step["scores"] for step in end["timeline"]] == [[n] for n in range(1, lit + 1)]
    start = alice.get(f"/api/games/{best['id']}/replay", params={"ply": 0}).json()
    assert start["view"]["lamps"] == first["view"]["lamps"]
    page = alice.get(f"/replay/{best['id']}")
    assert page.status_code == 200
    assert 'data-game="lampsout"' in page.text
    assert 'class="board-box lampsout-board replay-board"' in page.text
    assert 'class="game-page lampsout-page replay-page"' in page.text
    assert "Replay: Lamps Out" in page.text


def test_the_board_of_honour_ranks_the_fewest_presses_first(
    make_client: Any, players: Any, clock: Any
) -> None:
    client = make_client(served(DailyLamps()))
    alice, bob, carol = players(client, "alice", "bob", "carol")
    today = "2026-11-18"
    games = {}
    for player, name, waste in ((alice, "Alice", 2), (bob, "Bob", 0), (carol, "Carol", 1)):
        assert player.put("/api/me", json={"name": name}).status_code == 200
        games[name] = player.new_game("dailylamps", daily=today)
        finish(player, games[name], waste)
        clock.advance(1000)
    lit = sum(games["Bob"]["view"]["lamps"])
    honour = client.get(f"/api/daily/dailylamps?date={today}").json()["honour"]
    assert [(row["rank"], row["name"], row["score"]) for row in honour] == [
        (1, "Bob", lit),
        (2, "Carol", lit + 2),
        (3, "Alice", lit + 4),
    ]
    daily = [d for d in carol.get("/api/me/stats").json()["daily"] if d["date"] == today]
    assert [(d["score"], d["rank"]) for d in daily] == [(lit + 2, 2)]


def test_its_words_are_its_packages_and_the_site_catalog_holds_none() -> None:
    """The package's i18n/<lang>.json is merged for the apps that serve it, not into the
    site's catalogs (nor the build's)."""
    packages = package_catalogs(served(LAMPSOUT))
    assert packages == ((LAMPSOUT.name, ROOT / "tests/fixtures/games/lampsout/i18n"),)
    for lang in LANGUAGES:
        mine = set(words(lang, packages)) - set(catalog(lang))
        assert {"games.lampsout.title", "games.lampsout.lamp"} <= mine
        assert all(key.startswith("games.lampsout.") for key in mine)
        assert [key for key in catalog(lang) if "lampsout" in key] == []


def test_no_shared_file_names_the_fixture_game() -> None:
    found = subprocess.run(
        ["git", "grep", "-il", "lampsout", "--", *SHARED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode == 1, found.stdout  # 1: git grep found nothing
