"""Sessions and journals through the dialogmock fixture, with the websockets library."""

import json
import re

from websockets.sync.client import connect

from conftest import AUTH, recv_json, recv_until


def test_test_ids_are_unique_and_url_safe(dialogmock, dialogmock_server):
    assert re.fullmatch(r"[A-Za-z0-9._~-]+", dialogmock.test_id)
    assert "test_test_ids_are_unique_and_url_safe" in dialogmock.test_id
    assert dialogmock.multimodal_url == dialogmock_server.multimodal_url + "?test_id=" + dialogmock.test_id
    assert dialogmock.realtime_url("m1") == dialogmock_server.realtime_url_for(dialogmock.test_id, model="m1")
    assert dialogmock.sessions() == []


def test_qwen_realtime_session_is_listed_and_journaled(dialogmock):
    with connect(dialogmock.realtime_url(), additional_headers=AUTH, open_timeout=5) as ws:
        created = recv_json(ws)
        assert created["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"modalities": ["text", "audio"]}}))
        recv_until(ws, "session.updated")
        live = dialogmock.sessions(open=True)
        assert len(live) == 1
    closed = dialogmock.wait_for_session(closed=True)
    assert closed["id"] == live[0]["id"]
    assert closed["protocol"] == "qwen-realtime"
    assert closed["path"] == "/api-ws/v1/realtime"
    assert closed["testId"] == dialogmock.test_id
    assert closed["open"] is False
    assert closed["framesIn"] == 1 and closed["framesOut"] >= 2
    assert closed["violations"] == 0
    journal = dialogmock.journal()
    out = [e for e in journal if e.get("dir") == "out" and e.get("event") == "session.created"]
    assert len(out) == 1
    assert out[0]["kind"] == "text"
    assert out[0]["json"]["session"]["id"] == created["session"]["id"]
    assert isinstance(out[0]["t"], int)
    assert dialogmock.event_names(direction="in") == ["session.update"]
    assert dialogmock.event_names(direction="out")[:2] == ["session.created", "session.updated"]
    assert journal[-1]["kind"] == "close"
    assert dialogmock.violations() == []


def test_multimodal_session_via_header_test_id(dialogmock, dialogmock_server):
    # the X-Test-Id header instead of the query parameter
    start = {
        "header": {"action": "run-task", "task_id": "0123456789abcdef", "streaming": "duplex"},
        "payload": {"task_group": "aigc", "task": "multimodal-generation", "function": "generation",
                    "model": "multimodal-dialog",
                    "input": {"directive": "Start", "workspace_id": "ws-1", "app_id": "app-1"},
                    "parameters": {"upstream": {"type": "AudioOnly", "mode": "push2talk", "audio_format": "pcm"},
                                   "downstream": {"audio_format": "pcm", "sample_rate": 24000},
                                   "client_info": {"user_id": "u1"}}},
    }
    with connect(dialogmock_server.multimodal_url, additional_headers=dialogmock.headers, open_timeout=5) as ws:
        ws.send(json.dumps(start))
        assert recv_json(ws)["header"]["event"] == "task-started"
        started = recv_json(ws)
        assert started["payload"]["output"]["event"] == "Started"
    session = dialogmock.wait_for_session(closed=True)
    assert session["protocol"] == "multimodal-dialog"
    assert dialogmock.event_names(session, "in") == ["Start"]
    assert dialogmock.event_names(session, "out")[:2] == ["task-started", "Started"]


def test_sessions_are_filtered_by_test_id(dialogmock, dialogmock_server):
    with connect(dialogmock.realtime_url(), additional_headers=AUTH) as ws:
        recv_json(ws)
    with connect(dialogmock_server.realtime_url_for(dialogmock.test_id + "-other"), additional_headers=AUTH) as ws:
        recv_json(ws)
    dialogmock.wait_for_session(closed=True)
    mine = dialogmock.sessions()
    assert len(mine) == 1 and mine[0]["testId"] == dialogmock.test_id
    others = dialogmock_server.sessions(test_id=dialogmock.test_id + "-other")
    assert len(others) == 1 and others[0]["id"] != mine[0]["id"]
    assert {mine[0]["id"], others[0]["id"]} <= {s["id"] for s in dialogmock_server.sessions()}
