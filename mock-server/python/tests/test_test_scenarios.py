"""Per-test scenarios (PUT/GET/DELETE /_mock/tests/<id>/scenario): armed for one test id,
served to that test's sessions only, removed at the fixture's teardown."""

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dialogmock import ControlAPIError, DialogMockTest, MockServer

from conftest import AUTH, recv_json


@pytest.fixture(scope="module")
def server():
    with MockServer() as s:
        yield s


def closing_scenario(scenarios_dir, name, code):
    """The default scenario, renamed, closing with `code` right after session.created."""
    scenario = json.loads((scenarios_dir / "default.json").read_text())
    scenario.pop("$schema", None)
    scenario.update(name=name, faults=[{"kind": "close", "code": code, "reason": name,
                                        "match": {"type": "session.created"}}])
    return scenario


def close_code(url, timeout=3):
    """Connects, reads session.created, returns the close code the server sends (None: it stays open)."""
    with connect(url, additional_headers=AUTH, open_timeout=5) as ws:
        assert recv_json(ws)["type"] == "session.created"
        try:
            ws.recv(timeout=timeout)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            return None
    return None


def test_no_scenario_armed(server):
    assert server.test_scenario("nobody") is None
    assert server.clear_test_scenario("nobody") is False
    with pytest.raises(ControlAPIError) as info:
        server._json("GET", "/_mock/tests/nobody/scenario")
    assert info.value.status == 404 and info.value.code == "NotFound"
    with pytest.raises(ValueError):
        server.set_test_scenario("", {"name": "x"})


def test_a_test_scenario_serves_that_test_only(server, scenarios_dir):
    answer = server.set_test_scenario("t-a", closing_scenario(scenarios_dir, "closing-a", 4011))
    try:
        assert answer["testId"] == "t-a"
        assert answer["scenario"]["name"] == "closing-a"
        assert server.test_scenario("t-a")["name"] == "closing-a"
        listed = {t["testId"]: t for t in server.tests()}
        assert listed["t-a"]["scenario"] == "closing-a"
        assert close_code(server.realtime_url_for("t-a")) == 4011
        assert close_code(server.realtime_url_for("t-b"), timeout=0.5) is None   # the global scenario
        assert server.scenario()["name"] == "default"
    finally:
        assert server.clear_test_scenario("t-a") is True
    assert server.test_scenario("t-a") is None
    assert close_code(server.realtime_url_for("t-a"), timeout=0.5) is None


def test_bad_test_scenario_is_400(server):
    with pytest.raises(ControlAPIError) as info:
        server.set_test_scenario("t-bad", {"nam": "typo"})
    assert info.value.status == 400 and info.value.code == "InvalidScenario"
    assert server.test_scenario("t-bad") is None


def test_reset_removes_test_scenarios(server):
    server.set_test_scenario("t-reset", "close")             # a shipped scenario by name
    assert server.test_scenario("t-reset")["name"] == "close"
    server.reset()
    assert server.test_scenario("t-reset") is None


def test_dialogmock_set_scenario_is_removed_at_teardown(server, scenarios_dir):
    test = DialogMockTest(server, "t-fixture")
    assert test.scenario() is None
    assert test.set_scenario(closing_scenario(scenarios_dir, "closing-f", 4012))["testId"] == "t-fixture"
    assert test.scenario()["name"] == "closing-f"
    assert close_code(test.realtime_url()) == 4012
    test.close()                                              # what the fixture's teardown does
    assert server.test_scenario("t-fixture") is None
    test.close()                                              # nothing armed: no error
    assert test.clear_scenario() is False


def test_the_fixture_arms_and_removes(pytester):
    pytester.makepyfile(test_inner="""
        ids = []

        def test_a(dialogmock):
            ids.append(dialogmock.test_id)
            dialogmock.set_scenario("close")
            assert dialogmock.scenario()["name"] == "close"

        def test_b(dialogmock, dialogmock_server):
            assert dialogmock_server.test_scenario(ids[0]) is None
            assert dialogmock.scenario() is None
    """)
    from dialogmock import find_binary
    result = pytester.runpytest_inprocess(f"--dialogmock-binary={find_binary()}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
