"""Every snapshot names the front end's build the server serves (``build``, the page's
``<html data-assets>``): a page of another build reloads itself (core/session.js)."""

from __future__ import annotations

from typing import Any

from app.assets import site_assets


def test_every_snapshot_and_state_frame_names_the_build(alice_bob: Any) -> None:
    alice, _ = alice_bob
    build = site_assets().version
    created = alice.new_game("tally")
    assert created["build"] == build
    assert alice.get(f"/api/games/{created['id']}").json()["build"] == build
    moved = alice.move(created["id"], 0, {"type": "add", "n": 1})
    assert moved.status_code == 200 and moved.json()["build"] == build
    with alice.websocket(f"/ws/games/{created['id']}") as socket:
        state = socket.receive_json()
        assert state["type"] == "state" and state["build"] == build
    page = alice.get(f"/g/{created['id']}").text
    assert f'data-assets="{build}"' in page
