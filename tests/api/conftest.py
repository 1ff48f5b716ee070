from __future__ import annotations

from typing import Any

import pytest

from engines.reference.tally import ENGINE as TALLY


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client({"tally": TALLY})


@pytest.fixture
def alice_bob(client: Any, players: Any) -> Any:
    return players(client, "alice", "bob")
