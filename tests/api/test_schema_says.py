"""The OpenAPI document says what the server accepts: a request valid by the schema is
not refused for its form (schemathesis's positive-data check found six such), and what the
schema publishes (patterns, enums) is the rule the server applies."""

from __future__ import annotations

import re
from typing import Any

from tests.api.test_errors import error


def schema_of(client: Any, name: str) -> dict[str, Any]:
    return client.get("/openapi.json").json()["components"]["schemas"][name]  # type: ignore[no-any-return]


def test_a_whole_number_written_with_a_point_is_an_integer(alice_bob: Any) -> None:
    # JSON Schema's `integer` admits 1.0; so does the server. 1.5, "1" and true do not.
    alice, _ = alice_bob
    game = alice.new_game("tally")
    answer = alice.post(
        f"/api/games/{game['id']}/moves", json={"version": 0.0, "move": {"type": "add", "n": 1}}
    )
    assert answer.status_code == 200 and answer.json()["version"] == 1
    for version in (1.5, "1", True):
        refused = alice.post(
            f"/api/games/{game['id']}/moves", json={"version": version, "move": {"type": "add"}}
        )
        assert error(refused) == (422, "invalid_request")


def test_the_name_rule_is_the_published_pattern(alice_bob: Any) -> None:
    alice, _ = alice_bob
    published = schema_of(alice.client, "NameRequest")["properties"]["name"]
    assert (published["minLength"], published["maxLength"]) == (1, 24)
    pattern = re.compile(published["pattern"])
    names = {
        "François-Marie Dubois": True,
        " Алексей ": True,
        "🦊 Fox 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f": True,
        "": False,
        "   ": False,
        "tab\there": False,
        "zero\u200dwidth": False,
        "\u202eevil": False,
        "no\u00a0break": False,
        "x" * 25: False,
    }
    for name, accepted in names.items():
        assert bool(pattern.fullmatch(name)) and len(name) <= 24 or not accepted, name
        answer = alice.put("/api/me", json={"name": name})
        if accepted:
            assert answer.status_code == 200 and answer.json()["name"] == name.strip(), name
        else:
            assert error(answer) == (422, "bad_name"), name
    # A lone surrogate (JSON can spell one; no database stores it) is refused as unreadable.
    lone = alice.put(
        "/api/me", content=b'{"name": "a\\ud800"}', headers={"content-type": "application/json"}
    )
    assert error(lone) == (422, "invalid_request")


def test_forms_and_choices_are_published(client: Any, make_client: Any) -> None:
    # One alternative per game played online (Triangles alone), with its time controls;
    # a site that serves no such game (this client: Tally) publishes no valid seek.
    assert schema_of(client, "SeekRequest")["oneOf"] == [{"not": {}}]
    (seek,) = schema_of(make_client(), "SeekRequest")["oneOf"]
    assert seek["properties"]["game"] == {"const": "triangles"}
    assert seek["properties"]["clock"]["enum"] == ["none", "1+1", "3+2", "5+3", "10+5", "1d", "3d"]
    assert seek["then"] == {"properties": {"clock": {"not": {"enum": ["none"]}}}}  # rated
    create = schema_of(client, "CreateGame")["properties"]
    assert re.fullmatch(create["number"]["pattern"], "41739205-b")
    assert re.fullmatch(create["daily"]["pattern"], "2026-12-04")
    assert not re.fullmatch(create["daily"]["pattern"], "2026-13-04")
    seat = schema_of(client, "VerifyEntry")["properties"]["seat"]["anyOf"][0]
    assert (seat["minimum"], seat["maximum"]) == (0, 7)
    endpoint = schema_of(client, "PushSubscribe")["properties"]["endpoint"]["pattern"]
    assert re.fullmatch(endpoint, "https://fcm.googleapis.com/fcm/send/abc:def")
    assert not re.fullmatch(endpoint, "")
    history = client.get("/openapi.json").json()["paths"]["/api/me/games"]["get"]
    before = next(p for p in history["parameters"] if p["name"] == "before")
    assert re.fullmatch(before["schema"]["anyOf"][0]["pattern"], "1795000000000.abc")
