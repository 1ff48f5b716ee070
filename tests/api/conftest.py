from __future__ import annotations

from typing import Any

import pytest

from engines.reference.tally import ENGINE as TALLY

# An API test that waits for a frame that never comes blocks for good (the test client's
# socket receive has no time limit). The slowest here takes under a minute on a busy
# machine (the arena crowd, the review flood); past three, stop it with every thread's
# stack, not at the run's 600 s (pyproject.toml), which cost CI ten minutes and a worker.
API_TIMEOUT_S = 180


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = str(config.rootpath / "tests" / "api")
    for item in items:
        if str(item.path).startswith(here) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(API_TIMEOUT_S))


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client({"tally": TALLY})


@pytest.fixture
def alice_bob(client: Any, players: Any) -> Any:
    return players(client, "alice", "bob")
