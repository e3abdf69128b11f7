"""Drives the unmodified official dashscope SDK (dashscope.multimodal.MultiModalDialog) against
the mock.

usage: multimodal_dialog_flows.py FLOW URL SPEECH_WAV
Prints one JSON object on the last stdout line: {"events": [...], "states": [...], "extra": {...}}.
Flows: tap2talk, push2talk, duplex, interrupt, respond, vqa, liveai, heartbeat, resume,
replace-words, unknown-voice, voices, two-dialogs, interrupt-uninterruptible, bad-respond-type.
"""
import base64
import json
import os
import sys
import threading
import time
import wave

import dashscope
from dashscope.multimodal.multimodal_dialog import MultiModalCallback, MultiModalDialog
from dashscope.multimodal.multimodal_request_params import (AsrPostProcessing, BizParams, ClientInfo, Device,
                                                             Downstream, ReplaceWord, RequestParameters,
                                                             RequestToRespondParameters, Upstream)

flow, url, speech_path = sys.argv[1], sys.argv[2], sys.argv[3]
dashscope.api_key = os.environ.get("DIALOGMOCK_E2E_API_KEY", "sk-e2e")


class Recorder(MultiModalCallback):
    def __init__(self):
        self.events, self.states, self.errors = [], [], []
        self.audio_bytes = 0
        self.dialog_id = None
        self.responding = []
        self.speech_texts = []
        self.cond = threading.Condition()

    def _add(self, name):
        with self.cond:
            self.events.append(name)
            self.cond.notify_all()

    def on_started(self, dialog_id):
        self.dialog_id = dialog_id
        self._add("Started")

    def on_stopped(self):
        self._add("Stopped")

    def on_state_changed(self, state):
        with self.cond:
            self.states.append(state.value if hasattr(state, "value") else str(state))
        self._add("DialogStateChanged:" + self.states[-1])

    def on_speech_audio_data(self, data):
        with self.cond:
            self.audio_bytes += len(data)

    def on_error(self, error):
        self.errors.append(str(error))
        self._add("Error")

    def on_connected(self):
        self._add("connected")

    def on_responding_started(self):
        self._add("RespondingStarted")

    def on_responding_ended(self, payload):
        self._add("RespondingEnded")

    def on_speech_started(self):
        self._add("SpeechStarted")

    def on_speech_ended(self):
        self._add("SpeechEnded")

    def on_speech_content(self, payload):
        output = payload.get("output", payload) if isinstance(payload, dict) else {}
        with self.cond:
            self.speech_texts.append(output.get("text"))
        self._add("SpeechContent")

    def on_responding_content(self, payload):
        with self.cond:
            self.responding.append(payload.get("output", payload))
        self._add("RespondingContent")

    def on_request_accepted(self):
        self._add("RequestAccepted")

    def on_close(self, code, msg):
        self._add(f"closed:{code}")

    def count(self, name):
        with self.cond:
            return self.events.count(name)

    def wait_for(self, name, count=1, timeout=15.0):
        deadline = time.time() + timeout
        with self.cond:
            while self.events.count(name) < count:
                left = deadline - time.time()
                if left <= 0:
                    raise TimeoutError(f"no {name} (x{count}) within {timeout}s; events {self.events}; errors {self.errors}")
                self.cond.wait(left)


def pcm(path):
    with wave.open(path, "rb") as w:
        return w.readframes(w.getnframes())


def stream(dialog, data, realtime=True, chunk=3200):
    for offset in range(0, len(data), chunk):
        dialog.send_audio_data(data[offset:offset + chunk])
        if realtime:
            time.sleep(0.1)


def make_dialog(recorder, mode, dialog_id=None, voice="longxiaochun_v2", wait=True, **upstream):
    params = RequestParameters(
        upstream=Upstream(type="AudioOnly", mode=mode, audio_format="pcm", **upstream),
        downstream=Downstream(voice=voice, sample_rate=24000, audio_format="pcm",
                              intermediate_text="transcript,dialog"),
        client_info=ClientInfo(user_id="e2e-user", device=Device(uuid="e2e-device")),
        biz_params=BizParams(user_prompt_params={"user_name": "Ada"}))
    dialog = MultiModalDialog(app_id="app-e2e", workspace_id="ws-e2e", url=url, request_params=params,
                              multimodal_callback=recorder, dialog_id=dialog_id)
    dialog.start(dialog_id)
    if wait:
        recorder.wait_for("DialogStateChanged:Listening")
    return dialog


def finish_round(dialog, recorder, n):
    """Play the answer: LocalRespondingStarted/Ended around RespondingStarted…Ended, back to Listening."""
    recorder.wait_for("RespondingStarted", count=n, timeout=20)
    dialog.local_responding_started()
    recorder.wait_for("RespondingEnded", count=n, timeout=30)
    dialog.local_responding_ended()
    recorder.wait_for("DialogStateChanged:Listening", count=n + 1, timeout=10)


recorder = Recorder()
speech = pcm(speech_path)
silence = bytes(32000)  # 1 s at 16 kHz s16le
extra = {}


def status_error(errors):
    """The SDK's report of the task's status error: the mock sends the error frame and then
    closes, and the SDK may report the close (its reason repeats the status) as a second error
    before this thread reads them; the frame's report is the one that carries status_code."""
    return next((e for e in errors if "status_code" in e), errors[0])

if flow == "tap2talk":
    dialog = make_dialog(recorder, "tap2talk")
    stream(dialog, speech + silence)
    recorder.wait_for("SpeechEnded", timeout=20)
    finish_round(dialog, recorder, 1)
    finals = [r for r in recorder.responding if isinstance(r, dict) and r.get("finished")]
    extra_info = (finals[-1].get("extra_info") or {}) if finals else {}
    extra["timestamps"] = extra_info.get("timestamps")
elif flow == "push2talk":
    dialog = make_dialog(recorder, "push2talk")
    dialog.start_speech()
    stream(dialog, speech, realtime=False)
    dialog.stop_speech()
    finish_round(dialog, recorder, 1)
elif flow == "duplex":
    dialog = make_dialog(recorder, "duplex")
    keep = threading.Event()

    def uplink():  # duplex: audio keeps flowing in every state
        stream(dialog, speech + silence)
        recorder.wait_for("RespondingStarted", timeout=20)
        time.sleep(0.3)
        stream(dialog, speech + silence)  # barge in while the bot speaks
        while not keep.is_set():
            stream(dialog, silence[:3200])
    thread = threading.Thread(target=uplink, daemon=True)
    thread.start()
    recorder.wait_for("SpeechStarted", count=2, timeout=30)
    recorder.wait_for("DialogStateChanged:Listening", count=2, timeout=10)
    keep.set()
    thread.join(5)
elif flow == "interrupt":
    dialog = make_dialog(recorder, "push2talk")
    dialog.request_to_respond("prompt", "Tell me a long story.")
    recorder.wait_for("RespondingStarted", timeout=20)
    dialog.interrupt()
    recorder.wait_for("RequestAccepted")
    recorder.wait_for("DialogStateChanged:Listening", count=2)
elif flow == "interrupt-uninterruptible":
    dialog = make_dialog(recorder, "push2talk")
    dialog.request_to_respond("prompt", "Tell me a long story.")
    recorder.wait_for("RespondingStarted", timeout=20)
    dialog.local_responding_started()
    dialog.interrupt()
    recorder.wait_for("RequestAccepted")
    recorder.wait_for("RespondingEnded", timeout=30)
    dialog.local_responding_ended()
    recorder.wait_for("DialogStateChanged:Listening", count=2)
elif flow == "respond":
    dialog = make_dialog(recorder, "push2talk")
    dialog.request_to_respond("transcript", "Read this sentence out loud.")
    finish_round(dialog, recorder, 1)
    extra["transcript_text"] = recorder.responding[-1].get("text") if recorder.responding else None
    dialog.request_to_respond("prompt", "Say hello.")
    finish_round(dialog, recorder, 2)
elif flow == "vqa":
    dialog = make_dialog(recorder, "push2talk")
    dialog.request_to_respond("prompt", "What is this?")
    finish_round(dialog, recorder, 1)
    commands = [r.get("extra_info", {}).get("commands") for r in recorder.responding if r.get("extra_info")]
    extra["commands_is_string"] = bool(commands) and isinstance(commands[-1], str)
    extra["commands"] = json.loads(commands[-1]) if commands else None
    image = base64.b64encode(bytes(range(256)) * 40).decode()
    dialog.request_to_respond("prompt", "", parameters=RequestToRespondParameters(images=[{"type": "base64", "value": image}]))
    finish_round(dialog, recorder, 2)
elif flow == "liveai":
    dialog = make_dialog(recorder, "duplex")
    connect = BizParams(videos=[{"action": "connect", "type": "voicechat_video_channel"}])
    dialog.request_to_respond("prompt", "", parameters=RequestToRespondParameters(biz_params=connect))
    finish_round(dialog, recorder, 1)
    image = base64.b64encode(bytes(range(256)) * 20).decode()
    for _ in range(6):
        dialog.update_info(parameters=RequestToRespondParameters(images=[{"type": "base64", "value": image}]))
        dialog.send_audio_data(silence[:3200 * 5])
        time.sleep(0.5)
    exit_video = BizParams(videos=[{"action": "exit", "type": "voicechat_video_channel"}])
    dialog.request_to_respond("prompt", "", parameters=RequestToRespondParameters(biz_params=exit_video))
    finish_round(dialog, recorder, 2)
elif flow == "heartbeat":
    dialog = make_dialog(recorder, "push2talk")
    dialog.send_heart_beat()
    time.sleep(0.5)
    extra["errors"] = len(recorder.errors)
elif flow == "resume":
    first = make_dialog(recorder, "push2talk")
    first_id = recorder.dialog_id
    first.stop()
    recorder.wait_for("Stopped")
    second_recorder = Recorder()
    second = make_dialog(second_recorder, "push2talk", dialog_id=first_id)
    extra["resumed"] = second_recorder.dialog_id == first_id
    second.stop()
    second_recorder.wait_for("Stopped")
    extra["first_dialog_id"] = first_id
elif flow == "replace-words":
    words = AsrPostProcessing(replace_words=[ReplaceWord(source="talking", target="speaking", match_mode="exact")])
    dialog = make_dialog(recorder, "push2talk", vocabulary_id="vocab-e2e", asr_post_processing=words)
    dialog.start_speech()
    stream(dialog, speech, realtime=False)
    dialog.stop_speech()
    finish_round(dialog, recorder, 1)
    extra["speech_texts"] = recorder.speech_texts
elif flow == "voices":
    extra["started"] = {}
    for voice in ["longanyang", "Cherry", "longanqian"]:
        voice_recorder = Recorder()
        dialog = make_dialog(voice_recorder, "push2talk", voice=voice, wait=False)
        try:
            voice_recorder.wait_for("DialogStateChanged:Listening", timeout=10)
            extra["started"][voice] = True
        except TimeoutError:
            extra["started"][voice] = voice_recorder.errors
        dialog.stop()
        voice_recorder.wait_for("Stopped", timeout=10)
    print(json.dumps({"events": recorder.events, "states": recorder.states, "extra": extra}))
    sys.exit(0)
elif flow == "two-dialogs":
    ids = []
    answers = []
    for dialog_id in [None, None, "first"]:
        one = Recorder()
        dialog = make_dialog(one, "push2talk", dialog_id=ids[0] if dialog_id == "first" else None)
        ids.append(one.dialog_id)
        dialog.request_to_respond("prompt", "Hello.")
        finish_round(dialog, one, 1)
        answers.append(one.responding[-1].get("text") if one.responding else None)
        dialog.stop()
        one.wait_for("Stopped", timeout=10)
    extra["dialog_ids"] = ids
    extra["answers"] = answers
    print(json.dumps({"events": recorder.events, "states": recorder.states, "extra": extra}))
    sys.exit(0)
elif flow == "bad-respond-type":
    dialog = make_dialog(recorder, "push2talk")
    dialog.request_to_respond("poem", "Say something.")
    recorder.wait_for("Error", timeout=10)
    extra["failure"] = status_error(recorder.errors)
    recorder.errors = []
    time.sleep(0.5)
    print(json.dumps({"events": recorder.events, "states": recorder.states, "extra": extra}))
    sys.exit(0)
elif flow == "unknown-voice":
    dialog = make_dialog(recorder, "push2talk", voice="no_such_voice", wait=False)
    recorder.wait_for("Error", timeout=10)
    extra["failure"] = status_error(recorder.errors)
    recorder.errors = []
    print(json.dumps({"events": recorder.events, "states": recorder.states, "extra": extra}))
    sys.exit(0)
else:
    raise SystemExit(f"unknown flow {flow}")

if flow != "resume":
    dialog.stop()
    recorder.wait_for("Stopped", timeout=10)
time.sleep(0.3)
extra["audio_bytes"] = recorder.audio_bytes
extra["errors"] = recorder.errors
print(json.dumps({"events": recorder.events, "states": recorder.states, "extra": extra}))
