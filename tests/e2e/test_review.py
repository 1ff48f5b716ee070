"""The review on the replay page: a finished Triangles game asked for with ?review=1 (as
the end card's "Review" does) is marked ply by ply, by colour class and symbol, exactly
as the API's review says; each seat shows its accuracy; a ply that was not the best
names the better line. Waits are on #review's data-review and the stage's data-ply."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import settle
from tests.e2e.test_replay import api, at, played

SYMBOLS = {"best": "!", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
SHOTS = Path(os.environ.get("REVIEW_SHOTS", "/tmp/review-shots"))


def reviewed(page: Any) -> tuple[str, dict[str, Any]]:
    """A finished game, its replay page opened with ?review=1, and its review once done."""
    final = played(page, "triangles")
    page.goto(f"/replay/{final['id']}?review=1")
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    return final["id"], api(page, "GET", f"/api/games/{final['id']}/review")


def test_the_replay_page_marks_every_line_and_shows_the_accuracy(desktop: Any) -> None:
    page = desktop.new_page()
    game_id, review = reviewed(page)
    assert review["status"] == "done"
    steps = page.locator(".replay-list__step.review-step")
    expect(steps).to_have_count(len(review["plies"]))
    for step in review["plies"]:
        button = page.locator(f".replay-list__step[data-ply='{step['ply']}']")
        verdict = f"review-step--{step['verdict']}"
        expect(button).to_have_class(f"replay-list__step review-step {verdict}")
        expect(button.locator(".review-mark")).to_have_text(SYMBOLS[step["verdict"]])
    for seat in review["summary"]:
        accuracy = page.locator(f".review-seat[data-seat='{seat['seat']}'] .review-seat__accuracy")
        expect(accuracy).to_contain_text("% accuracy")
        assert float(accuracy.get_attribute("data-accuracy") or "nan") == seat["accuracy"]
    worst = max(review["plies"], key=lambda step: (step["loss"], -step["ply"]))
    page.locator(f".replay-list__step[data-ply='{worst['ply']}']").click()
    at(page, worst["ply"])
    if worst["verdict"] == "best":
        expect(page.locator("#review-note")).to_have_text("Best")
    else:
        better = f"Better: {worst['best']['a'] + 1}–{worst['best']['b'] + 1}"
        expect(page.locator("#review-note")).to_contain_text(better)
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-desktop.png"))
    assert game_id


def test_a_review_on_a_phone_is_asked_with_the_button(phone: Any) -> None:
    page = phone.new_page()
    final = played(page, "triangles")
    page.goto(f"/replay/{final['id']}")
    at(page, 0)
    ask = page.locator("#review-ask")
    expect(ask).to_be_visible()
    assert (ask.bounding_box() or {"height": 0})["height"] >= 44
    ask.tap()
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    expect(ask).to_be_hidden()
    review = api(page, "GET", f"/api/games/{final['id']}/review")
    blunders = [step for step in review["plies"] if step["verdict"] != "best"]
    ply = blunders[0]["ply"] if blunders else 1
    page.locator(f".replay-list__step[data-ply='{ply}']").tap()
    at(page, ply)
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    page.screenshot(path=str(SHOTS / "review-phone.png"))
    page.screenshot(path=str(SHOTS / "review-phone-full.png"), full_page=True)
    page.locator("#review").scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(SHOTS / "review-phone-panel.png"))


def test_the_replay_of_an_unreviewed_game_logs_no_error(desktop: Any) -> None:
    """Issue 36 (8): every replay of an unreviewed Triangles game logged a 404 (the page's
    GET of the review answered no_review); it answers {"status": "none"}."""
    page = desktop.new_page()
    final = played(page, "triangles")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(f"/replay/{final['id']}")
    expect(page.locator("#review")).to_have_attribute("data-review", "none")
    expect(page.locator("#review-ask")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert errors == []
