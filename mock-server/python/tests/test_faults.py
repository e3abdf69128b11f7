"""Faults through the control API: armed by test id or session, listed, removed, reset."""

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed, ConnectionClosedError, InvalidStatus
from websockets.sync.client import connect

from dialogmock import ControlAPIError, MockServer

from conftest import AUTH, recv_json

CLOSE_4000 = {"kind": "close", "code": 4000, "reason": "bye"}


def read_until_closed(ws, timeout):
    """Reads frames until the connection closes; returns (exception, seconds, frames)."""
    started = time.monotonic()
    frames = []
    with pytest.raises(ConnectionClosed) as info:
        while True:
            left = timeout - (time.monotonic() - started)
            if left <= 0:
                pytest.fail(f"still open after {timeout} s; got {frames}")
            frames.append(ws.recv(timeout=left))
    return info.value, time.monotonic() - started, frames


def test_prearmed_close_fault_closes_with_4000_promptly(dialogmock):
    fault_id = dialogmock.arm_fault(CLOSE_4000)
    assert fault_id
    started = time.monotonic()
    with connect(dialogmock.realtime_url(), additional_headers=AUTH, open_timeout=5) as ws:
        closed, _, frames = read_until_closed(ws, timeout=3)
    assert time.monotonic() - started < 3
    assert closed.rcvd is not None, "expected a close frame"
    assert closed.rcvd.code == 4000
    assert closed.rcvd.reason == "bye"
    # at once: before (or right after) session.created
    assert all(json.loads(f)["type"] == "session.created" for f in frames) and len(frames) <= 1
    journal = dialogmock.journal(dialogmock.wait_for_session(closed=True))
    assert any(e["kind"] == "fault" and e["fault"].get("id") == fault_id for e in journal)
    assert any(e["kind"] == "close" and e.get("dir") == "out" and e.get("code") == 4000 for e in journal)
    listed = dialogmock.faults()
    assert [f["id"] for f in listed] == [fault_id]
    assert listed[0]["sessions"] == [dialogmock.sessions()[0]["id"]]


def test_prearmed_close_fault_on_multimodal(dialogmock):
    dialogmock.arm_fault({"kind": "close", "code": 4001, "reason": "mmd"})
    with connect(dialogmock.multimodal_url, additional_headers=AUTH, open_timeout=5) as ws:
        closed, seconds, _ = read_until_closed(ws, timeout=3)
    assert closed.rcvd is not None and closed.rcvd.code == 4001


def test_prearmed_abrupt_close_drops_without_close_frame(dialogmock):
    dialogmock.arm_fault({"kind": "abruptClose"})
    with connect(dialogmock.realtime_url(), additional_headers=AUTH, open_timeout=5) as ws:
        closed, seconds, _ = read_until_closed(ws, timeout=2)
    assert isinstance(closed, ConnectionClosedError)
    assert closed.rcvd is None, f"got a close frame: {closed.rcvd}"
    assert seconds < 2
    journal = dialogmock.journal(dialogmock.wait_for_session(closed=True))
    assert any(e["kind"] == "fault" and e["fault"]["kind"] == "abruptClose" for e in journal)


def test_fault_armed_on_an_open_session(dialogmock):
    with connect(dialogmock.realtime_url(), additional_headers=AUTH, open_timeout=5) as ws:
        recv_json(ws)
        session = dialogmock.wait_for_session()
        fault_id = dialogmock.server.arm_fault({"kind": "close", "code": 4002, "reason": "now"}, session=session)
        closed, seconds, _ = read_until_closed(ws, timeout=3)     # a close without match acts at once
    assert seconds < 2
    assert closed.rcvd is not None and closed.rcvd.code == 4002
    # a fault armed on one session ends with it: once closed, it is no longer listed
    dialogmock.wait_for_session(closed=True)
    assert dialogmock.server.faults(session=session) == []
    assert any(e["kind"] == "fault" and e["fault"].get("id") == fault_id for e in dialogmock.journal(session))


def test_list_remove_and_clear_faults(dialogmock, dialogmock_server):
    first = dialogmock.arm_fault({"kind": "stall", "ms": 2000})
    second = dialogmock.arm_fault({"kind": "drop", "match": {"type": "session.updated"}})
    other = dialogmock_server.arm_fault({"kind": "abruptClose"}, test_id=dialogmock.test_id + "-other")
    try:
        mine = dialogmock.faults()
        assert [f["id"] for f in mine] == [first, second]
        assert mine[0]["fault"] == {"kind": "stall", "ms": 2000}
        assert mine[0]["testId"] == dialogmock.test_id
        assert mine[0]["sessions"] == []
        assert {first, second, other} <= {f["id"] for f in dialogmock_server.faults()}

        assert dialogmock.remove_fault(first)["removed"] == [first]
        assert [f["id"] for f in dialogmock.faults()] == [second]
        with pytest.raises(ControlAPIError) as info:
            dialogmock.remove_fault(first)
        assert info.value.status == 404 and info.value.code == "NotFound"

        assert dialogmock.clear_faults() == [second]
        assert dialogmock.faults() == []
        assert [f["id"] for f in dialogmock_server.faults(test_id=dialogmock.test_id + "-other")] == [other]
    finally:
        dialogmock_server.clear_faults(test_id=dialogmock.test_id + "-other")


def test_bad_fault_bodies_are_400_with_a_message(dialogmock, dialogmock_server):
    with pytest.raises(ControlAPIError) as info:
        dialogmock.arm_fault({"kind": "nope"})
    assert info.value.status == 400
    assert info.value.code == "InvalidFault"
    assert "kind" in info.value.message and "abruptClose" in info.value.message
    with pytest.raises(ControlAPIError) as info:
        dialogmock.arm_fault({"kind": "close", "code": 99})
    assert info.value.status == 400 and "code" in info.value.message
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.arm_fault_raw(b"not json")
    assert info.value.status == 400 and info.value.code == "InvalidJSON"
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.arm_fault_raw({"testId": "x", "session": "s1", "fault": {"kind": "drop"}})
    assert info.value.status == 400 and "exactly one" in info.value.message
    with pytest.raises(ControlAPIError) as info:
        dialogmock_server.arm_fault({"kind": "drop"}, session="s999999")
    assert info.value.status == 404
    with pytest.raises(ValueError):
        dialogmock_server.arm_fault({"kind": "drop"})
    assert dialogmock.faults() == []


_leftover = {}


def test_fixture_teardown_clears_faults_part1(dialogmock):
    _leftover["test_id"] = dialogmock.test_id
    dialogmock.arm_fault(CLOSE_4000)
    assert len(dialogmock.faults()) == 1


def test_fixture_teardown_clears_faults_part2(dialogmock_server):
    if "test_id" not in _leftover:
        pytest.skip("part 1 did not run")
    assert dialogmock_server.faults(test_id=_leftover["test_id"]) == []


def test_reset_removes_faults_and_forgets_closed_sessions_and_refusals(scenarios_dir):
    with MockServer() as server:
        server.arm_fault(CLOSE_4000, test_id="a")
        server.arm_fault({"kind": "abruptClose"}, test_id="b")
        with connect(server.realtime_url_for("a"), additional_headers=AUTH) as ws:
            read_until_closed(ws, timeout=3)
        server.wait_for_session(test_id="a", closed=True)
        with pytest.raises(InvalidStatus):
            connect(server.realtime_url_for("a"), open_timeout=5)    # no Authorization: refused
        assert len(server.refusals(test_id="a")) == 1
        server.set_scenario(scenarios_dir / "duplicate.json")
        assert server.scenario()["name"] == "duplicate"
        server.set_test_scenario("c", "close")
        answer = server.reset()
        assert answer == {"status": "reset", "faultsRemoved": 2, "sessionsForgotten": 1, "refusalsForgotten": 1,
                          "testScenariosRemoved": 1, "scenario": "default"}
        assert server.test_scenario("c") is None
        assert server.faults() == []
        assert server.sessions() == []
        assert server.refusals() == []
        assert server.scenario()["name"] == "default"
