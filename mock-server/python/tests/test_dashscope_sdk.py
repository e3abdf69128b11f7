"""The unmodified official dashscope SDK (2.0.2) against the mock, through the fixture.

Pointing the SDK at the mock follows conformance/adapters/dashscope-python: the Qwen
client builds ``f"{url}?model={model}"`` itself, so the test id rides behind the model name.
"""

import threading
import urllib.parse

import pytest

dashscope = pytest.importorskip("dashscope")

API_KEY = "sk-dialogmock"


class Recorder:
    def __init__(self):
        self.items = []
        self.cond = threading.Condition()

    def add(self, name, value=None):
        with self.cond:
            self.items.append((name, value))
            self.cond.notify_all()

    def wait(self, name, timeout=10.0):
        with self.cond:
            ok = self.cond.wait_for(lambda: any(n == name for n, _ in self.items), timeout)
        assert ok, f"no {name} within {timeout} s; got {[n for n, _ in self.items]}"
        return next(v for n, v in self.items if n == name)

    def names(self):
        with self.cond:
            return [n for n, _ in self.items]


def sdk_realtime_args(url):
    """(base url, model argument) for OmniRealtimeConversation from a realtime URL."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query)
    model = dict(query)["model"]
    others = [(k, v) for k, v in query if k != "model"]
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return base, model + ("&" + urllib.parse.urlencode(others) if others else "")


def omni_conversation(dialogmock, seen):
    """The unmodified SDK's OmniRealtimeConversation on the mock's omni URL, recording into `seen`."""
    from dashscope.audio.qwen_omni import OmniRealtimeCallback, OmniRealtimeConversation

    class Callback(OmniRealtimeCallback):
        def on_open(self):
            seen.add("open")

        def on_close(self, code, message):
            seen.add("close", code)

        def on_event(self, message):
            seen.add(message.get("type"), message)

    url, model = sdk_realtime_args(dialogmock.realtime_url("qwen3-omni-flash-realtime"))
    return OmniRealtimeConversation(model=model, callback=Callback(), url=url, api_key=API_KEY)


def test_dashscope_omni_realtime_conversation(dialogmock):
    from dashscope.audio.qwen_omni import MultiModality

    seen = Recorder()
    conversation = omni_conversation(dialogmock, seen)
    conversation.connect()
    try:
        created = seen.wait("session.created")
        assert created["session"]["model"] == "qwen3-omni-flash-realtime"
        conversation.update_session(output_modalities=[MultiModality.AUDIO, MultiModality.TEXT], voice="Cherry")
        seen.wait("session.updated")
        conversation.end_session(timeout=10)        # session.finish → session.finished
        seen.wait("session.finished")
    finally:
        conversation.close()
    assert "open" in seen.names()

    session = dialogmock.wait_for_session(closed=True)
    assert session["testId"] == dialogmock.test_id
    assert session["protocol"] == "qwen-realtime"
    assert dialogmock.event_names(session, "in") == ["session.update", "session.finish"]
    assert dialogmock.event_names(session, "out") == ["session.created", "session.updated", "session.finished"]
    assert dialogmock.violations(level="MUST") == []
    assert dialogmock.violations() == []
    assert session["violations"] == 0


def test_dashscope_multimodal_dialog(dialogmock):
    from dashscope.multimodal import multimodal_dialog as mmd
    from dashscope.multimodal import multimodal_request_params as params

    seen = Recorder()

    class Callback(mmd.MultiModalCallback):
        def on_connected(self):
            seen.add("connected")

        def on_started(self, dialog_id):
            seen.add("started", dialog_id)

        def on_stopped(self):
            seen.add("stopped")

        def on_state_changed(self, state):
            seen.add("state:" + getattr(state, "value", str(state)))

        def on_error(self, error):
            seen.add("error", error)

        def on_close(self, code, message):
            seen.add("close", code)

    request = params.RequestParameters(
        upstream=params.Upstream(type="AudioOnly", mode="push2talk", audio_format="pcm"),
        downstream=params.Downstream(audio_format="pcm", sample_rate=24000),
        client_info=params.ClientInfo(user_id="dialogmock-pytest"))
    dialog = mmd.MultiModalDialog(
        app_id="dialogmock-app", request_params=request, multimodal_callback=Callback(),
        workspace_id="dialogmock-ws", url=dialogmock.multimodal_url, api_key=API_KEY,
        model="multimodal-dialog")
    dialog.start(None)
    try:
        dialog_id = seen.wait("started")
        assert dialog_id
        seen.wait("state:Listening")
        dialog.stop()
        seen.wait("stopped")
        seen.wait("close")
    finally:
        dialog.close()
    assert "error" not in seen.names()

    session = dialogmock.wait_for_session(closed=True)
    assert session["protocol"] == "multimodal-dialog"
    assert dialogmock.event_names(session, "in") == ["Start", "Stop"]
    out = dialogmock.event_names(session, "out")
    assert out[:2] == ["task-started", "Started"] and "Stopped" in out
    assert dialogmock.violations(level="MUST") == []
    # the one SHOULD: the SDK's known deviation #1 (dialog_id null after Start)
    assert {v["violation"]["obligation"] for v in dialogmock.violations()} <= {"mmd.C23"}


def test_dashscope_omni_realtime_aibuds_auto_end(dialogmock, scenarios_dir):
    """The aibuds profile (seed 004: "Idle duration before the session ends automatically"):
    the SDK streams silence, which is no input, so the session ends after the idle time (15 s
    at timeScale 0.1) like a finished one, and its final report says why."""
    import base64
    import json
    import time

    profile = json.loads((scenarios_dir / "aibuds.json").read_text())
    profile.pop("$schema", None)
    profile["timeScale"] = 0.1
    dialogmock.server.set_scenario(profile)
    seen = Recorder()
    conversation = omni_conversation(dialogmock, seen)
    try:
        conversation.connect()
        seen.wait("session.created")
        silence = base64.b64encode(bytes(3200)).decode()     # 100 ms of 16 kHz silence
        started = time.monotonic()
        while "session.finished" not in seen.names() and time.monotonic() - started < 5:
            conversation.append_audio(silence)
            time.sleep(0.1)
        seen.wait("session.finished")
        assert time.monotonic() - started < 3
        assert "error" not in seen.names()
        dialogmock.wait_for_session(closed=True)
        report = dialogmock.report()
        assert report["profile"] == "aibuds"
        assert report["endReason"] == "idle"
        assert report["turns"] == 0
    finally:
        conversation.close()
        dialogmock.server.reset()        # the start-up scenario again (and closed sessions forgotten)
