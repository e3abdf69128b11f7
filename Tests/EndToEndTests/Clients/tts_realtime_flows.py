"""Drives the unmodified official dashscope SDK (QwenTtsRealtime) against the mock.

usage: tts_realtime_flows.py FLOW BASE_URL MODEL
Prints one JSON object on the last stdout line: {"events": [server event types in order],
"extra": {...}}. Flows: commit (mode commit: append, commit, then finish speaks the rest),
server-commit (the server speaks each sentence; finish speaks the unfinished one).
"""
import base64
import json
import sys
import threading
import time

import dashscope
from dashscope.audio.qwen_tts_realtime import AudioFormat, QwenTtsRealtime, QwenTtsRealtimeCallback

flow, base_url, model = sys.argv[1], sys.argv[2], sys.argv[3]
dashscope.api_key = "sk-e2e"


class Recorder(QwenTtsRealtimeCallback):
    def __init__(self):
        self.events = []
        self.messages = []
        self.audio = {}
        self.close_code = None
        self.closed = threading.Event()
        self.cond = threading.Condition()

    def on_close(self, code, msg):
        self.close_code = code
        self.closed.set()

    def on_event(self, message):
        event = message if isinstance(message, dict) else json.loads(message)
        with self.cond:
            self.events.append(event.get("type"))
            self.messages.append(event)
            if event.get("type") == "response.audio.delta":
                chunk = base64.b64decode(event["delta"])
                self.audio[event["response_id"]] = self.audio.get(event["response_id"], b"") + chunk
            self.cond.notify_all()

    def wait_for(self, event_type, timeout=20.0, count=1):
        deadline = time.time() + timeout
        with self.cond:
            while self.events.count(event_type) < count:
                remaining = deadline - time.time()
                if remaining <= 0:
                    raise TimeoutError(f"no {event_type} within {timeout}s; got {self.events}")
                self.cond.wait(remaining)


recorder = Recorder()
tts = QwenTtsRealtime(model=model, callback=recorder, url=base_url)
tts.connect()
recorder.wait_for("session.created")
rate = 24000
if flow == "commit":
    tts.update_session(voice="Cherry", response_format=AudioFormat.PCM_24000HZ_MONO_16BIT, mode="commit",
                       language_type="English")
    tts.append_text("Hello there. ")
    tts.append_text("How are you today?")
    time.sleep(0.5)
    before_commit = list(recorder.events)
    tts.commit()
    recorder.wait_for("response.done")
    tts.append_text("Goodbye.")
    tts.finish()
elif flow == "server-commit":
    rate = 16000
    tts.update_session(voice="Ethan", mode="server_commit", sample_rate=rate, volume=60, speech_rate=1.2)
    for piece in ["The first sentence", " ends here. The second", " one is a question?", " And the rest"]:
        tts.append_text(piece)
        time.sleep(0.05)
    before_commit = []
    tts.finish()
else:
    raise SystemExit(f"unknown flow {flow}")

recorder.wait_for("session.finished", timeout=30)
recorder.closed.wait(5)
done = [m["response"] for m in recorder.messages if m.get("type") == "response.done"]
print(json.dumps({"events": recorder.events, "extra": {
    "session_id": tts.get_session_id(),
    "before_commit": before_commit,
    "closed": recorder.closed.is_set(),
    "close_code": recorder.close_code,
    "status": [r["status"] for r in done],
    "usage": [r.get("usage") for r in done],
    "seconds": [len(recorder.audio.get(r["id"], b"")) / 2 / rate for r in done],
    "first_audio_delay_ms": tts.get_first_audio_delay(),
}}))
