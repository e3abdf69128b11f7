"""PUT /_mock/scenario with shipped scenario files and dicts (on a private server)."""

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dialogmock import ControlAPIError, MockServer

from conftest import AUTH, recv_json


@pytest.fixture(scope="module")
def server():
    with MockServer() as s:
        yield s


def test_set_scenario_from_a_shipped_file(server, scenarios_dir):
    answer = server.set_scenario(scenarios_dir / "duplicate.json")
    assert answer["scenario"] == "duplicate"
    assert server.scenario()["name"] == "duplicate"
    assert server.health()["scenario"] == "duplicate"
    assert server.set_scenario("close")["scenario"] == "close"      # a shipped name
    server.reset()
    assert server.scenario()["name"] == "default"


def test_set_scenario_from_a_dict_serves_new_sessions(server, scenarios_dir):
    scenario = json.loads((scenarios_dir / "default.json").read_text())
    scenario.pop("$schema", None)
    scenario.update(name="closing", faults=[{"kind": "close", "code": 4003, "reason": "scripted",
                                              "match": {"type": "session.created"}}])
    assert server.set_scenario(scenario)["scenario"] == "closing"
    try:
        with connect(server.realtime_url_for("dict"), additional_headers=AUTH, open_timeout=5) as ws:
            assert recv_json(ws)["type"] == "session.created"
            with pytest.raises(ConnectionClosed) as info:
                ws.recv(timeout=3)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4003
    finally:
        server.reset()


def test_bad_scenario_is_400_with_position(server):
    with pytest.raises(ControlAPIError) as info:
        server.set_scenario({"nam": "typo"})
    assert info.value.status == 400
    assert info.value.code == "InvalidScenario"
    assert 'did you mean "name"' in info.value.message
    assert server.scenario()["name"] == "default"
    with pytest.raises(FileNotFoundError):
        server.set_scenario("/no/such/scenario.json")
