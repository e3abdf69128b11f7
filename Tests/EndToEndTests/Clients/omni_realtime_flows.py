"""Drives the unmodified official dashscope SDK (OmniRealtimeConversation) against the mock.

usage: omni_realtime_flows.py FLOW BASE_URL MODEL [AUDIO_WAV]
Prints one JSON object on the last stdout line: {"events": [server event types in order],
"errors": [...], "extra": {...}}. Flows: vad, ptt, tool, declared-tool, cancel (also on a
scenario whose answers are not interruptible), finish, workspace, wrong-path
(omni); asr-vad, asr-manual (qwen3-asr-flash-realtime).
"""
import base64
import json
import os
import sys
import threading
import time
import wave

import dashscope
from dashscope.audio.qwen_omni import OmniRealtimeCallback, OmniRealtimeConversation, MultiModality
from dashscope.audio.qwen_omni.omni_realtime import AudioFormatConfig, TranscriptionParams

flow, base_url, model = sys.argv[1], sys.argv[2], sys.argv[3]
audio_path = sys.argv[4] if len(sys.argv) > 4 else None
dashscope.api_key = os.environ.get("DIALOGMOCK_E2E_API_KEY", "sk-e2e")


class Recorder(OmniRealtimeCallback):
    def __init__(self):
        self.events = []
        self.messages = []
        self.closed = threading.Event()
        self.cond = threading.Condition()

    def on_open(self):
        pass

    def on_close(self, code, msg):
        self.closed.set()
        with self.cond:
            self.cond.notify_all()

    def on_event(self, message):
        event = message if isinstance(message, dict) else json.loads(message)
        with self.cond:
            self.events.append(event.get("type"))
            self.messages.append(event)
            self.cond.notify_all()

    def wait_for(self, event_type, timeout=10.0, count=1):
        deadline = time.time() + timeout
        with self.cond:
            while self.events.count(event_type) < count:
                remaining = deadline - time.time()
                if remaining <= 0:
                    raise TimeoutError(f"no {event_type} within {timeout}s; got {self.events}; last {self.messages[-1] if self.messages else None}")
                self.cond.wait(remaining)


def pcm16k(path):
    with wave.open(path, "rb") as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2 and w.getnchannels() == 1
        return w.readframes(w.getnframes())


def stream(conversation, pcm, realtime=True, chunk=3200):
    for offset in range(0, len(pcm), chunk):
        conversation.append_audio(base64.b64encode(pcm[offset:offset + chunk]).decode("ascii"))
        if realtime:
            time.sleep(0.1 * len(pcm[offset:offset + chunk]) / chunk)


recorder = Recorder()
# workspace: the SDK then sends X-DashScope-WorkSpace (issue 40 row 12)
conversation = OmniRealtimeConversation(
    model=model, callback=recorder, url=base_url, workspace="ws-e2e" if flow == "workspace" else None)
conversation.connect()
if flow == "wrong-path":  # issue 40 row 11: the multimodal path (the nuisdk sample's URL)
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=False)
    recorder.closed.wait(10)
    print(json.dumps({"events": recorder.events, "extra": {"messages": recorder.messages,
                                                            "closed": recorder.closed.is_set()}}))
    sys.exit(0)
recorder.wait_for("session.created")
extra = {}

def tool_round_trip(text):
    """Asks `text`, answers the function call it gets with {"temp": 21}, and waits for the answer."""
    recorder.wait_for("session.updated")
    conversation.create_item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
    conversation.create_response()
    recorder.wait_for("response.function_call_arguments.done", timeout=20)
    call = [m for m in recorder.messages if m.get("type") == "response.function_call_arguments.done"][-1]
    extra["call"] = {"name": call.get("name"), "arguments": json.loads(call.get("arguments", "{}"))}
    recorder.wait_for("response.done", timeout=20)
    conversation.create_item({"type": "function_call_output", "call_id": call["call_id"], "output": json.dumps({"temp": 21})})
    conversation.create_response()
    recorder.wait_for("response.done", timeout=20, count=2)


if flow == "vad":
    conversation.update_session(output_modalities=[MultiModality.AUDIO, MultiModality.TEXT], voice="Cherry",
                                enable_turn_detection=True, turn_detection_threshold=0.5,
                                turn_detection_silence_duration_ms=500)
    recorder.wait_for("session.updated")
    pcm = pcm16k(audio_path)
    stream(conversation, pcm + bytes(16000 * 2 * 1))  # speech, then 1 s of silence
    recorder.wait_for("response.done", timeout=20)
    deltas = [m for m in recorder.messages if m.get("type") == "response.audio.delta"]
    extra["audio_bytes"] = sum(len(base64.b64decode(m["delta"])) for m in deltas)
    transcript = "".join(m.get("delta", "") for m in recorder.messages if m.get("type") == "response.audio_transcript.delta")
    done = [m for m in recorder.messages if m.get("type") == "response.audio_transcript.done"]
    extra["transcript_matches_done"] = bool(done) and transcript == done[-1].get("transcript")
elif flow == "ptt":
    conversation.update_session(output_modalities=[MultiModality.AUDIO, MultiModality.TEXT], voice="Cherry",
                                enable_turn_detection=False)
    recorder.wait_for("session.updated")
    stream(conversation, pcm16k(audio_path), realtime=False)
    conversation.commit()
    recorder.wait_for("input_audio_buffer.committed")
    conversation.create_response()
    recorder.wait_for("response.done", timeout=20)
elif flow == "tool":
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=False,
                                tools=[{"type": "function", "function": {"name": "get_weather", "description": "weather",
                                        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}])
    tool_round_trip("weather in Paris?")
elif flow == "declared-tool":
    # No scripted call: the default scenario's policies.callDeclaredTools makes the call.
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=False,
                                tools=[{"type": "function", "function": {"name": "get_time", "description": "the local time",
                                        "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}}}},
                                       {"type": "function", "function": {"name": "get_weather", "description": "weather forecast for a city",
                                        "parameters": {"type": "object", "required": ["city", "days"], "properties": {
                                            "city": {"type": "string", "minLength": 2},
                                            "days": {"type": "integer", "minimum": 1, "maximum": 7}}}}}])
    tool_round_trip("What is the weather in Paris?")
    extra["answer"] = [m for m in recorder.messages if m.get("type") == "response.text.done"][-1].get("text", "")
elif flow == "cancel":
    conversation.update_session(output_modalities=[MultiModality.AUDIO, MultiModality.TEXT], enable_turn_detection=False)
    recorder.wait_for("session.updated")
    conversation.create_item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "tell me a long story"}]})
    conversation.create_response()
    recorder.wait_for("response.audio.delta", timeout=20)
    conversation.cancel_response()
    recorder.wait_for("response.done", timeout=20)
    extra["status"] = [m for m in recorder.messages if m.get("type") == "response.done"][-1]["response"]["status"]
    extra["errors"] = [m.get("error") for m in recorder.messages if m.get("type") == "error"]
elif flow == "omni-settings":
    # wav both ways, web search, and idle_timeout_ms: the model speaks first after 5 s of silence.
    conversation.update_session(output_modalities=[MultiModality.AUDIO, MultiModality.TEXT], voice="Cherry",
                                input_audio_config=AudioFormatConfig(type="wav", sample_rate=16000),
                                output_audio_config=AudioFormatConfig(type="wav", sample_rate=24000),
                                enable_turn_detection=True, turn_detection_param={"idle_timeout_ms": 5000},
                                enable_search=True)
    recorder.wait_for("session.updated")
    with open(audio_path, "rb") as f:
        wav = f.read()  # the whole file, header first
    stream(conversation, wav + bytes(16000 * 2 * 1), realtime=True)
    recorder.wait_for("response.done", timeout=20)
    first_done = time.time()
    recorder.wait_for("response.created", timeout=15, count=2)
    extra["model_spoke_after_s"] = time.time() - first_done
    recorder.wait_for("response.done", timeout=15, count=2)
    dones = [m for m in recorder.messages if m.get("type") == "response.done"]
    extra["plugins"] = [((m.get("response") or {}).get("usage") or {}).get("plugins") for m in dones]
    firsts = []
    for m in recorder.messages:
        if m.get("type") == "response.audio.delta" and m.get("response_id") not in [r for r, _ in firsts]:
            firsts.append((m.get("response_id"), base64.b64decode(m["delta"])[:4].decode("latin-1")))
    extra["first_chunk_magic"] = [magic for _, magic in firsts]
    extra["user_items"] = recorder.events.count("conversation.item.input_audio_transcription.completed")
elif flow in ("asr-vad", "asr-manual"):
    # qwen3-asr-flash-realtime: the SDK's transcription path (TranscriptionParams), as its docs show.
    vad = flow == "asr-vad"
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=vad,
                                turn_detection_threshold=0.2, turn_detection_silence_duration_ms=800,
                                transcription_params=TranscriptionParams(language="en", sample_rate=16000,
                                                                         input_audio_format="pcm",
                                                                         corpus_text="weather"))
    recorder.wait_for("session.updated")
    pcm = pcm16k(audio_path)
    stream(conversation, pcm + bytes(16000 * 2 * 1), realtime=vad)
    if vad:
        recorder.wait_for("conversation.item.input_audio_transcription.completed", timeout=20)
    else:
        conversation.commit()
        recorder.wait_for("conversation.item.input_audio_transcription.completed", timeout=20)
        stream(conversation, pcm, realtime=False)  # left uncommitted: session.finish recognises it
    conversation.end_session(timeout=10)
    recorder.closed.wait(5)
    extra["closed"] = recorder.closed.is_set()
    completed = [m for m in recorder.messages if m.get("type") == "conversation.item.input_audio_transcription.completed"]
    extra["completed"] = [{k: m.get(k) for k in ("transcript", "language", "emotion")} for m in completed]
    partials = [m for m in recorder.messages if m.get("type") == "conversation.item.input_audio_transcription.text"]
    extra["partials"] = [m.get("text", "") + m.get("stash", "") for m in partials]
elif flow == "workspace":
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=False)
    recorder.wait_for("session.updated")
elif flow == "finish":
    conversation.update_session(output_modalities=[MultiModality.TEXT], enable_turn_detection=False)
    recorder.wait_for("session.updated")
    conversation.end_session(timeout=10)
    recorder.closed.wait(5)
    extra["closed"] = recorder.closed.is_set()
else:
    raise SystemExit(f"unknown flow {flow}")

if flow not in ("finish", "asr-vad", "asr-manual"):
    conversation.close()
print(json.dumps({"events": recorder.events, "extra": extra}))
