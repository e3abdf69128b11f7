"""assert_no_violations: a readable AssertionError for the protocol violations of a test or a
session, refused upgrades included."""

import json
import time

import pytest
from websockets.sync.client import connect

from dialogmock import format_violation

from conftest import AUTH, recv_json
from test_refusals import raw_upgrade


def send_and_close(url, frames, settle=0.3):
    """Connects, reads session.created, sends `frames` (str or dict), closes."""
    with connect(url, additional_headers=AUTH, open_timeout=5) as ws:
        assert recv_json(ws)["type"] == "session.created"
        for frame in frames:
            ws.send(frame if isinstance(frame, str) else json.dumps(frame))
        time.sleep(settle)


def failure(check):
    with pytest.raises(AssertionError) as info:
        check()
    return str(info.value)


def test_a_test_without_sessions_passes(dialogmock):
    dialogmock.assert_no_violations()
    dialogmock.assert_no_violations(level=None)


def test_a_clean_session_passes(dialogmock):
    send_and_close(dialogmock.realtime_url(), [{"type": "session.update", "event_id": "e1", "session": {}}])
    session = dialogmock.wait_for_session(closed=True)
    assert [e["event"] for e in dialogmock.events(session, "in")] == ["session.update"]
    dialogmock.assert_no_violations()
    dialogmock.assert_no_violations(level=None)
    dialogmock.server.assert_no_violations(session)


def test_garbage_fails_with_obligation_session_and_frame(dialogmock):
    send_and_close(dialogmock.realtime_url(), ["garbage{", {"type": "no.such.event"}])
    session = dialogmock.wait_for_session(closed=True)["id"]
    message = failure(dialogmock.assert_no_violations)
    lines = message.splitlines()
    assert lines[0] == f"2 protocol violations (MUST) in test {dialogmock.test_id!r}:"
    assert lines[1].startswith(f"  qrt.C2 MUST session {session} at ")
    assert "(client text frame without an event name at " in lines[1]
    assert lines[1].endswith("The frame is not valid JSON.")
    assert lines[2].startswith(f"  qrt.C2 MUST session {session} at ")
    assert "(client frame no.such.event at " in lines[2]
    assert lines[2].endswith(": unknown client event type no.such.event")
    assert "MUST: " not in message                       # the level is shown once, not repeated
    # the same session through the server, and every session of the server
    assert failure(lambda: dialogmock.server.assert_no_violations(session)).splitlines()[1:] == lines[1:]
    assert failure(lambda: dialogmock.server.assert_no_violations(test_id=dialogmock.test_id)) == message
    assert f"session {session}" in failure(dialogmock.server.assert_no_violations)


def test_level_is_the_lowest_level_that_fails(dialogmock):
    # Qwen-Audio-Live: a number as event_id is a SHOULD finding (and a MUST one: not a string id)
    send_and_close(dialogmock.live_url(), [{"type": "session.update", "event_id": 5, "session": {}}])
    dialogmock.wait_for_session(closed=True)
    must = failure(dialogmock.assert_no_violations)
    assert must.startswith("1 protocol violation (MUST) in test ")
    assert "qal.C3 MUST" in must and "SHOULD" not in must
    should = failure(lambda: dialogmock.assert_no_violations(level="SHOULD"))
    assert should.startswith("2 protocol violations (SHOULD or stricter) in test ")
    assert "qal.C3 SHOULD session " in should and "event_id must be a string, got integer" in should
    assert failure(lambda: dialogmock.assert_no_violations(level=None)).splitlines()[1:] == should.splitlines()[1:]
    with pytest.raises(ValueError, match="level must be one of MUST, SHOULD, MAY or None"):
        dialogmock.assert_no_violations(level="COULD")


def test_a_refused_upgrade_shows_up(dialogmock):
    status, _ = raw_upgrade(dialogmock.realtime_url())
    assert status == 401
    message = failure(dialogmock.assert_no_violations)
    lines = message.splitlines()
    assert lines[0] == f"1 protocol violation (MUST) in test {dialogmock.test_id!r}:"
    assert lines[1].startswith("  qrt.C1 MUST refused upgrade /api-ws/v1/realtime: status 401, InvalidApiKey: ")


def test_format_violation_of_a_violation_before_any_frame():
    entry = {"t": 1500, "kind": "violation", "session": "s9", "frame": None,
             "violation": {"obligation": "mmd.C9", "message": "SHOULD: something"}}
    assert format_violation(entry) == "mmd.C9 SHOULD session s9 at 1.5 ms (before any frame): something"
