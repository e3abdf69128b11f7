import json
import time

import pytest

from dialogmock import bundled_root, find_repo_root

pytest_plugins = ["pytester"]

REPO = find_repo_root(__file__)
# the checkout's scenarios, else the copy an installed wheel carries
_DATA = REPO or bundled_root()
SCENARIOS = _DATA / "mock-server" / "scenarios" if _DATA else None
AUTH = {"Authorization": "Bearer sk-dialogmock"}


@pytest.fixture
def scenarios_dir():
    if SCENARIOS is None or not SCENARIOS.is_dir():
        pytest.skip("not in a DialogMock checkout, and no wheel's copy of mock-server/scenarios")
    return SCENARIOS


def recv_json(ws, timeout=5.0):
    return json.loads(ws.recv(timeout=timeout))


def recv_until(ws, event_type, timeout=5.0):
    """Reads Qwen realtime events until one of `event_type`; returns (that event, all seen)."""
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        event = recv_json(ws, max(0.01, deadline - time.monotonic()))
        seen.append(event)
        if event.get("type") == event_type:
            return event, seen
