#!/usr/bin/env python3
"""DialogMock adapter over the unmodified official dashscope Python SDK (dashscope==2.0.2).

Speaks the adapter protocol of conformance/README.md ("Adapter protocol"): the first stdout line announces
the adapter, then JSON Lines commands arrive on stdin and JSON Lines events leave on stdout.
stderr is log only. Multimodal dialog runs through dashscope.multimodal.MultiModalDialog, Qwen
realtime through dashscope.audio.qwen_omni.OmniRealtimeConversation. The SDK is never patched:
where it cannot express something the protocol needs, the adapter says so in an `error` event
and README.md lists it under "Known deviations".

The playback emulation (playback_started / playback_ended and the LocalRespondingStarted /
LocalRespondingEnded directives around it) is the *application's* part, as in the SDK's sample
apps: the SDK only hands out audio bytes.
"""
import argparse
import base64
import json
import logging
import os
import queue
import sys
import threading
import time
import urllib.parse

ADAPTER = "dashscope-python"
MMD = "multimodal-dialog"
QRT = "qwen-realtime"

# The protocol owns the real stdout; anything else that prints (SDK, libraries) goes to stderr.
_PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr

log = logging.getLogger("dashscope-adapter")


def now_ms():
    return time.monotonic() * 1000.0


# --------------------------------------------------------------------------------------------
# Events out, waits
# --------------------------------------------------------------------------------------------

class Events:
    """Writes events (one flushed JSON line each) and lets `wait` commands block on them."""

    def __init__(self):
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._history = []          # (name, object) in emission order
        self._consumed = {}         # wait key -> index in _history after the last match
        self.closed = False         # the connection is gone: waits for other events end early
        self.retired = False        # the case is over: late SDK callbacks write nothing more

    def write_raw(self, obj):
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            _PROTOCOL_OUT.write(line + "\n")
            _PROTOCOL_OUT.flush()

    def emit(self, _event, **fields):
        name = _event
        if name == "closed":
            with self._lock:
                if self.closed:          # one closed event per connection
                    return
        obj = {"event": name}
        obj.update(fields)
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)
        with self._cond:
            if self.retired:
                log.info("after the case ended, dropped: %s", line[:200])
                return
            try:
                _PROTOCOL_OUT.write(line + "\n")
                _PROTOCOL_OUT.flush()
            except (BrokenPipeError, ValueError):
                pass
            self._history.append((name, obj))
            if name == "closed":
                self.closed = True
            self._cond.notify_all()

    def retire(self):
        """Ends this case's events; waits still blocked on them return."""
        with self._cond:
            self.retired = True
            self.closed = True
            self._cond.notify_all()

    def count(self, name):
        with self._lock:
            return sum(1 for n, _ in self._history if n == name)

    def named(self, name):
        """Every event `name` emitted so far, in order."""
        with self._lock:
            return [obj for n, obj in self._history if n == name]

    def wait(self, name, timeout_s, match=None):
        """Blocks until an event `name` (whose fields equal `match`) was emitted after the one
        the previous wait for the same event name consumed. Every wait consumes one occurrence,
        so `wait responding_ended` twice waits for two rounds, and `wait state` then
        `wait state {"state": "Listening"}` waits for the *next* Listening. Returns the event
        or None."""
        key = name
        deadline = time.monotonic() + timeout_s
        with self._cond:
            scan = self._consumed.get(key, 0)
            while True:
                for index in range(scan, len(self._history)):
                    n, obj = self._history[index]
                    if n == name and all(obj.get(k) == v for k, v in (match or {}).items()):
                        self._consumed[key] = index + 1
                        return obj
                scan = len(self._history)
                if self.closed and name != "closed":
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------

def repo_conformance_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", ".."))


def resolve_path(path):
    """Relative paths resolve against the current directory, then <repo>/conformance/."""
    if os.path.isabs(path):
        return path
    for base in (os.getcwd(), repo_conformance_dir()):
        candidate = os.path.join(base, path)
        if os.path.exists(candidate):
            return candidate
    raise FileNotFoundError(f"{path}: not found in {os.getcwd()} nor {repo_conformance_dir()}")


def read_audio(path):
    """Raw bytes of an audio fixture; a RIFF/WAVE file yields its data chunk."""
    with open(resolve_path(path), "rb") as f:
        data = f.read()
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        offset = 12
        while offset + 8 <= len(data):
            chunk, size = data[offset:offset + 4], int.from_bytes(data[offset + 4:offset + 8], "little")
            if chunk == b"data":
                return data[offset + 8:offset + 8 + size]
            offset += 8 + size + (size & 1)
    return data


def ogg_pages(data):
    """Splits an Ogg stream into (page bytes, granule position) — one WebSocket frame each."""
    pages, offset = [], 0
    while offset + 27 <= len(data) and data[offset:offset + 4] == b"OggS":
        segments = data[offset + 26]
        table = data[offset + 27:offset + 27 + segments]
        size = 27 + segments + sum(table)
        granule = int.from_bytes(data[offset + 6:offset + 14], "little", signed=True)
        pages.append((data[offset:offset + size], granule))
        offset += size
    return pages


def file_base64(path):
    with open(resolve_path(path), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


def inline_files(value):
    """Replaces {"type": "base64", "file": F} image objects by {"type": "base64", "value": b64}."""
    if isinstance(value, list):
        return [inline_files(v) for v in value]
    if isinstance(value, dict):
        if "file" in value and "value" not in value:
            out = {k: inline_files(v) for k, v in value.items() if k != "file"}
            out.setdefault("type", "base64")
            out["value"] = file_base64(value["file"])
            return out
        return {k: inline_files(v) for k, v in value.items()}
    return value


class Pacer:
    """Sleeps so that chunk n leaves at start + n × duration (no drift)."""

    def __init__(self, realtime):
        self.realtime = realtime
        self.start = time.monotonic()
        self.elapsed = 0.0

    def after(self, seconds):
        self.elapsed += seconds
        if self.realtime:
            delay = self.start + self.elapsed - time.monotonic()
            if delay > 0:
                time.sleep(delay)


# --------------------------------------------------------------------------------------------
# Emulated player (the app's part, not the SDK's)
# --------------------------------------------------------------------------------------------

class Player:
    """Plays nothing, but keeps the clock a real player would: playback starts with the first
    audio of a round, lasts bytes / (rate × 2) seconds, ends after the server's end-of-round
    marker once the queued audio has "played", and is flushed at once on interruption.
    `on_start` / `on_end` are called once per round (the LocalResponding directives)."""

    def __init__(self, events, on_start=None, on_end=None):
        self.events = events
        self.on_start = on_start
        self.on_end = on_end
        self.lock = threading.RLock()
        self.rate = 24000
        self.bytes_per_second = 48000.0
        self.round = None          # round tag, e.g. response id
        self.playing = False
        self.play_until = 0.0      # monotonic seconds when the queued audio is played out
        self.stream_ended = False
        self.timer = None
        self.dropping = set()      # round tags whose audio is discarded

    def set_format(self, audio_format, sample_rate):
        with self.lock:
            self.rate = int(sample_rate or 24000)
            if audio_format in (None, "pcm", "pcm16", "pcm24", "wav"):
                self.bytes_per_second = self.rate * 2.0
            elif audio_format == "mp3":
                self.bytes_per_second = 48000 / 8.0      # nominal 48 kbit/s
            else:                                          # opus / raw-opus
                self.bytes_per_second = 32000 / 8.0      # nominal 32 kbit/s

    def begin_round(self, tag):
        with self.lock:
            self._cancel_timer()
            self.round = tag
            self.playing = False
            self.stream_ended = False
            self.play_until = 0.0

    def accepts(self, tag=None):
        with self.lock:
            tag = self.round if tag is None else tag
            return tag not in self.dropping

    def feed(self, nbytes, tag=None):
        """Returns False when the audio is dropped (flushed round)."""
        with self.lock:
            tag = self.round if tag is None else tag
            if tag in self.dropping:
                return False
            if tag != self.round:
                self.begin_round(tag)
            now = time.monotonic()
            if not self.playing:
                self.playing = True
                self.play_until = now
                self.events.emit("playback_started", round=tag)
                if self.on_start:
                    self.on_start(tag)
            self.play_until = max(self.play_until, now) + nbytes / self.bytes_per_second
            return True

    def end_of_stream(self, tag=None):
        """The server finished sending this round's audio: end when it has played out."""
        with self.lock:
            tag = self.round if tag is None else tag
            if tag != self.round or tag in self.dropping:
                return
            self.stream_ended = True
            self._cancel_timer()
            delay = max(0.0, self.play_until - time.monotonic())
            self.timer = threading.Timer(delay, self._finish, args=(tag,))
            self.timer.daemon = True
            self.timer.start()

    def flush(self, reason):
        """Interruption: stop at once, drop the rest of this round."""
        with self.lock:
            tag = self.round
            if tag is None:
                return False
            self._cancel_timer()
            self.dropping.add(tag)
            was_playing = self.playing
            self._finish(tag, reason=reason)
            return was_playing

    def _finish(self, tag, reason="played"):
        with self.lock:
            if tag != self.round:
                return
            self.round = None
            if self.playing:
                self.playing = False
                self.events.emit("playback_ended", round=tag, reason=reason)
            if self.on_end:
                self.on_end(tag)

    def _cancel_timer(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

def error_fields(error):
    """code/message from whatever the SDK passes to on_error (exception, JSON text, dict)."""
    if isinstance(error, BaseException):
        return {"code": type(error).__name__, "message": str(error)}
    data = error
    if isinstance(error, (str, bytes)):
        try:
            data = json.loads(error)
        except ValueError:
            return {"code": "Error", "message": str(error)}
    if isinstance(data, dict):
        header = data.get("header") or {}
        output = ((data.get("payload") or {}).get("output")) or {}
        if header.get("event") == "task-failed" or header.get("error_code"):
            return {"code": str(header.get("error_code") or "TaskFailed"),
                    "message": str(header.get("error_message") or ""), "terminal": True}
        if output:
            return {"code": str(output.get("error_code") or output.get("error_name") or "Error"),
                    "name": output.get("error_name"), "message": str(output.get("error_message") or "")}
        if isinstance(data.get("error"), dict):
            e = data["error"]
            return {"code": str(e.get("code") or e.get("type") or "error"), "type": e.get("type"),
                    "message": str(e.get("message") or "")}
    return {"code": "Error", "message": str(error)}


class CommandError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------------------------
# Multimodal dialog over dashscope.multimodal.MultiModalDialog
# --------------------------------------------------------------------------------------------

class MultiModalDriver:
    def __init__(self, env, events):
        import dashscope
        from dashscope.multimodal import multimodal_dialog as mmd_module
        from dashscope.multimodal import multimodal_request_params as params_module
        self.dashscope = dashscope
        self.sdk = mmd_module
        self.p = params_module
        self.env = env
        self.events = events
        self.dialog = None
        self.upstream_rate = 16000
        self.mode = "tap2talk"
        self.mic_muted = False         # tap2talk: between SpeechEnded and the next Listening
        self.dialog_state = None       # the last DialogStateChanged state
        self.stop_sent = False
        self.closed = threading.Event()
        self.stopped = threading.Event()
        self.round = 0
        self.round_open = False        # RespondingStarted seen, LocalRespondingEnded not sent
        self.local_started = False
        self.player = Player(events, on_start=self._local_started, on_end=self._local_ended)
        self.send_lock = threading.Lock()
        self.failed = False
        self.last_sent = time.monotonic()
        self.heartbeat_s = float(os.environ.get("DASHSCOPE_ADAPTER_HEARTBEAT_S", "30"))

    def _heartbeat_loop(self):
        """C21 (the app's part: the SDK has send_heart_beat() but no timer): a HeartBeat
        whenever the app has sent nothing for `heartbeat_s` seconds."""
        while not self.closed.wait(1.0):
            if self.stop_sent or self.failed:
                return
            if time.monotonic() - self.last_sent >= self.heartbeat_s:
                self._sdk_call(self.dialog.send_heart_beat)

    # ---- SDK callbacks -----------------------------------------------------------------

    def _callback(self):
        driver = self

        class Callback(self.sdk.MultiModalCallback):
            def on_connected(self):
                driver.events.emit("connected")

            def on_started(self, dialog_id):
                driver.events.emit("started", dialog_id=dialog_id)

            def on_stopped(self):
                driver.stopped.set()
                driver.events.emit("stopped")

            def on_state_changed(self, state):
                value = getattr(state, "value", str(state))
                driver.dialog_state = value
                if value == "Listening":
                    driver.mic_muted = False
                driver.events.emit("state", state=value)

            def on_speech_audio_data(self, data):
                if driver.player.feed(len(data)):
                    driver.events.emit("audio", bytes=len(data))

            def on_error(self, error):
                fields = error_fields(error)
                if fields.get("terminal"):
                    driver.failed = True       # C24: task-failed is terminal: send nothing more
                driver.events.emit("error", **fields)

            def on_responding_started(self):
                driver.round += 1
                driver.round_open = True
                driver.local_started = False
                driver.player.begin_round(driver.round)
                driver.events.emit("responding_started", round=driver.round)

            def on_responding_ended(self, payload):
                driver.events.emit("responding_ended", round=driver.round)
                if driver.player.round == driver.round and driver.player.playing:
                    driver.player.end_of_stream()
                elif driver.round_open and driver.player.accepts(driver.round):
                    # a round without audio: nothing to play, the round is over locally
                    driver.player.round = None
                    driver._local_ended(driver.round)

            def on_speech_started(self):
                driver.events.emit("speech_started")
                if driver.player.playing:      # duplex voice barge-in stops playback (C25)
                    driver.player.flush("barge_in")

            def on_speech_ended(self):
                driver.mic_muted = True
                driver.events.emit("speech_ended")

            def on_speech_content(self, payload):
                output = (payload or {}).get("output") or {}
                driver.events.emit("speech_content", text=output.get("text"),
                                   finished=output.get("finished"))

            def on_responding_content(self, payload):
                output = (payload or {}).get("output") or {}
                extra = output.get("extra_info") or {}
                commands, raw = [], extra.get("commands") if isinstance(extra, dict) else None
                fields = {}
                if isinstance(raw, str):        # C18: a JSON *string* holding an array
                    try:
                        parsed = json.loads(raw) if raw.strip() else []
                        commands = parsed if isinstance(parsed, list) else [parsed]
                    except ValueError as e:
                        fields["commandsError"] = f"extra_info.commands is not JSON: {e}"
                elif raw is not None:
                    fields["commandsError"] = f"extra_info.commands is {type(raw).__name__}, not a JSON string"
                    commands = raw if isinstance(raw, list) else [raw]
                driver.events.emit("responding_content", text=output.get("text"),
                                   spoken=output.get("spoken"), finished=output.get("finished"),
                                   commands=commands, **fields)

            def on_request_accepted(self):
                driver.events.emit("request_accepted")
                driver.player.flush("request_accepted")     # C25: stop playback at once

            def on_close(self, close_status_code, close_msg):
                driver.player.flush("closed")
                driver.events.emit("closed", code=close_status_code, reason=close_msg)
                driver.closed.set()

        return Callback()

    def _local_started(self, tag):
        if self.round_open and tag == self.round and not self.local_started and self.dialog:
            self.local_started = True
            self._sdk_call(self.dialog.local_responding_started)

    def _local_ended(self, tag):
        if self.round_open and tag == self.round and self.dialog:
            self.round_open = False
            self._sdk_call(self.dialog.local_responding_ended)

    def _sdk_call(self, fn, *args, **kwargs):
        try:
            with self.send_lock:
                # Checked under the lock: a Stop another thread sent meanwhile stays the last
                # directive (C22; the playback timer's LocalRespondingEnded raced a Stop here).
                if self.stop_sent or self.closed.is_set() or self.failed:
                    return
                self.last_sent = time.monotonic()
                fn(*args, **kwargs)
        except Exception as e:  # the socket went away under us
            self.events.emit("error", code=type(e).__name__, message=str(e))

    # ---- parameters ----------------------------------------------------------------------

    def _known(self, obj, names):
        obj = dict(obj or {})
        known = {k: obj.pop(k) for k in list(obj) if k in names}
        return known, (obj or None)

    def build_params(self, params):
        p = self.p
        params = inline_files(dict(params or {}))
        up, up_rest = self._known(params.pop("upstream", None),
                                  {"type", "mode", "audio_format", "sample_rate", "vocabulary_id"})
        up_asr = (up_rest or {}).pop("asr_post_processing", None) if up_rest else None
        upstream = p.Upstream(**up, pass_through_params=up_rest or None)
        if up_asr:
            upstream.asr_post_processing = p.AsrPostProcessing(
                replace_words=[p.ReplaceWord(**w) for w in up_asr.get("replace_words", [])])
        self.upstream_rate = int(upstream.sample_rate or 16000)
        self.mode = upstream.mode
        self.upstream_format = upstream.audio_format
        down, down_rest = self._known(params.pop("downstream", None),
                                      {"voice", "sample_rate", "intermediate_text", "debug",
                                       "audio_format", "volume", "pitch_rate", "speech_rate"})
        downstream = p.Downstream(**down, pass_through_params=down_rest)
        self.player.set_format(downstream.audio_format, downstream.sample_rate or 24000)
        ci = dict(params.pop("client_info", None) or {})
        client_info = p.ClientInfo(user_id=ci.pop("user_id", None) or "dialogmock-adapter")
        if "device" in ci:
            client_info.device = p.Device(**(ci.pop("device") or {}))
        if "network" in ci:
            client_info.network = p.Network(**(ci.pop("network") or {}))
        if "location" in ci:
            client_info.location = p.Locations(**(ci.pop("location") or {}))
        ci.pop("sdk", None)
        if ci:
            log.warning("client_info keys the SDK cannot send: %s", sorted(ci))
        request = p.RequestParameters(upstream=upstream, downstream=downstream, client_info=client_info)
        if "dialog_attributes" in params:
            request.dialog_attributes = p.DialogAttributes(**(params.pop("dialog_attributes") or {}))
        if "biz_params" in params:
            request.biz_params = self.biz_params(params.pop("biz_params"))
        if params:
            log.warning("Start parameters the SDK cannot send: %s", sorted(params))
        return request

    def biz_params(self, biz):
        if biz is None:
            return None
        known, rest = self._known(biz, {"user_defined_params", "user_defined_tokens", "tool_prompts",
                                        "user_prompt_params", "user_query_params", "videos"})
        return self.p.BizParams(**known, pass_through_params=rest)

    def respond_params(self, params):
        if not params:
            return None
        params = inline_files(dict(params))
        images = params.pop("images", None)
        biz = params.pop("biz_params", None)
        return self.p.RequestToRespondParameters(images=images, biz_params=self.biz_params(biz),
                                                 pass_through_params=params or None)

    # ---- commands ------------------------------------------------------------------------

    def require_dialog(self):
        if self.dialog is None:
            raise CommandError("NotStarted", "no session: send start first")
        if self.failed:
            raise CommandError("Failed", "the server failed the task (task-failed); nothing sent")
        self.last_sent = time.monotonic()

    def cmd_start(self, cmd):
        if self.dialog is not None:
            raise CommandError("AlreadyStarted", "start was already sent on this connection")
        request = self.build_params(cmd.get("params"))
        dialog_id = cmd.get("dialog_id")
        model = cmd.get("model") or self.env["model"] or None
        self.dialog = self.sdk.MultiModalDialog(
            app_id=self.env["app_id"], request_params=request, multimodal_callback=self._callback(),
            workspace_id=self.env["workspace_id"], url=self.env["url"], api_key=self.env["api_key"],
            dialog_id=dialog_id, model=model)
        with self.send_lock:
            self.dialog.start(dialog_id)       # connects (≤ 5 s), then sends Start
        if self.heartbeat_s > 0:
            threading.Thread(target=self._heartbeat_loop, daemon=True).start()

    def cmd_start_speech(self, cmd):
        self.require_dialog()
        # Seeds 000/001 startSpeech: the app calls it only in Listening (the SDK does not check):
        # a press during an answer is held until the next Listening (case mmd.push2talk.002).
        deadline = time.monotonic() + 20
        while self.dialog_state != "Listening" and time.monotonic() < deadline:
            if self.closed.is_set() or self.stop_sent:
                raise CommandError("Closed", "the connection closed while waiting for Listening")
            time.sleep(0.02)
        with self.send_lock:
            self.dialog.start_speech()

    def cmd_send_audio(self, cmd):
        self.require_dialog()
        fmt = cmd.get("format") or getattr(self, "upstream_format", "pcm") or "pcm"
        realtime = cmd.get("realtime", True)
        data = read_audio(cmd["file"])
        pacer = Pacer(realtime)
        frames = []
        if fmt in ("opus", "raw-opus") and data[:4] == b"OggS":
            last = 0
            for page, granule in ogg_pages(data):
                seconds = max(0, granule - last) / 48000.0 if granule > 0 else 0.0
                last = max(last, granule)
                frames.append((page, seconds))
        elif fmt in ("opus", "raw-opus"):
            frames.append((data, 0.0))
        else:
            chunk = self.upstream_rate * 2 // 10          # 100 ms, e.g. 3200 B at 16 kHz
            # a microphone delivers whole buffers: the last one is completed with silence
            data = data + bytes(-len(data) % chunk)
            frames = [(data[i:i + chunk], 0.1) for i in range(0, len(data), chunk)]
        tap2talk = self.mode == "tap2talk"
        for frame, seconds in frames:
            if self.closed.is_set() or self.stop_sent:
                raise CommandError("Closed", "the connection closed while sending audio")
            # tap2talk: the app mutes the microphone from SpeechEnded to the next Listening (C11)
            if not (tap2talk and self.mic_muted):
                with self.send_lock:
                    if self.closed.is_set() or self.stop_sent:
                        raise CommandError("Closed", "the connection closed while sending audio")
                    self.last_sent = time.monotonic()
                    self.dialog.send_audio_data(frame)
            pacer.after(seconds)

    def cmd_stop_speech(self, cmd):
        self.require_dialog()
        with self.send_lock:
            self.dialog.stop_speech()

    def cmd_cancel_speech(self, cmd):
        self.require_dialog()
        raise CommandError("Unsupported", "dashscope 2.0.2 MultiModalDialog has no public method for "
                                          "CancelSpeech; nothing was sent (see README, known deviations)")

    def cmd_interrupt(self, cmd):
        self.require_dialog()
        with self.send_lock:
            self.dialog.interrupt()

    def cmd_request_to_respond(self, cmd):
        self.require_dialog()
        text = cmd.get("text")
        with self.send_lock:
            self.dialog.request_to_respond(cmd.get("type") or "prompt", "" if text is None else text,
                                           parameters=self.respond_params(cmd.get("params")))

    def cmd_update_info(self, cmd):
        self.require_dialog()
        with self.send_lock:
            self.dialog.update_info(parameters=self.respond_params(cmd.get("params")))

    def cmd_heartbeat(self, cmd):
        self.require_dialog()
        with self.send_lock:
            self.dialog.send_heart_beat()

    def cmd_stop(self, cmd):
        self.require_dialog()
        with self.send_lock:
            if self.stop_sent:
                return
            self.stop_sent = True
            self.dialog.stop()    # the SDK closes the socket itself when Stopped arrives

    def shutdown(self, timeout_s=10.0):
        """End of the script: Stop if not yet sent, then wait for the close."""
        if self.dialog is None or self.closed.is_set():
            return
        if not self.stop_sent and not self.failed:
            try:
                self.cmd_stop({})
            except Exception as e:
                self.events.emit("error", code=type(e).__name__, message=str(e))
        if not self.closed.wait(timeout_s):
            log.warning("no close within %.0f s after Stop; closing", timeout_s)
            try:
                self.dialog.close()
            except Exception:
                pass
            self.closed.wait(2)

    def passive(self):
        """A default correct session: tap2talk turn with the default fixture, then Stop."""
        self.cmd_start({"params": {"upstream": {"mode": "tap2talk"}}})
        if not self.events.wait("state", 5, {"state": "Listening"}):
            raise CommandError("Timeout", "no Listening after Start")
        for name in ("fixtures/audio/hello-16k.pcm",):
            try:
                self.cmd_send_audio({"file": name, "format": "pcm", "realtime": True})
            except FileNotFoundError:
                log.warning("%s missing: sending 1 s of silence instead", name)
                self._silence(1.0)
        # tap2talk: keep the microphone open (silence) until the server heard the end of speech
        deadline = time.monotonic() + 5
        while self.events.count("speech_ended") == 0 and time.monotonic() < deadline and not self.closed.is_set():
            self._silence(0.1)
        if self.events.wait("responding_ended", 15):
            self.events.wait("state", 10, {"state": "Listening"})
        self.shutdown()

    def _silence(self, seconds):
        pacer = Pacer(True)
        chunk = bytes(self.upstream_rate * 2 // 10)
        for _ in range(int(round(seconds * 10))):
            if not (self.mode == "tap2talk" and self.mic_muted):
                with self.send_lock:
                    if self.closed.is_set() or self.stop_sent:
                        return
                    self.dialog.send_audio_data(chunk)
            pacer.after(0.1)


# --------------------------------------------------------------------------------------------
# Qwen realtime over dashscope.audio.qwen_omni.OmniRealtimeConversation
# --------------------------------------------------------------------------------------------

def qwen_profile(model):
    name = (model or "").lower()
    if name.startswith("qwen-audio"):
        return "audio"
    return "omni"


class QwenDriver:
    def __init__(self, env, events):
        from dashscope.audio import qwen_omni
        self.sdk = qwen_omni
        self.env = env
        self.events = events
        self.conversation = None
        self.profile = qwen_profile(env["model"])
        self.lock = threading.Condition()
        self.response_id = None           # in progress (response.created … response.done)
        self.session_config = {}
        self.updated = 0
        self.update_errors = 0
        self.closed = threading.Event()
        self.finished = False
        self.input_rate = 16000
        self.transcripts = {}
        self.text = {}
        self.updates_sent = 0
        self.player = Player(events)

    # ---- connection and events -------------------------------------------------------------

    def _callback(self):
        driver = self

        class Callback(self.sdk.OmniRealtimeCallback):
            def on_open(self):
                driver._connected()

            def on_close(self, close_status_code, close_msg):
                driver.player.flush("closed")
                with driver.lock:
                    driver.response_id = None
                    driver.lock.notify_all()
                driver.events.emit("closed", code=close_status_code, reason=close_msg)
                driver.closed.set()

            def on_event(self, message):
                try:
                    driver.on_event(message if isinstance(message, dict) else json.loads(message))
                except Exception as e:  # never let a callback kill the SDK's thread (C21)
                    log.exception("event handling failed: %s", e)

        return Callback()

    def _connected(self):
        # the SDK calls on_open only after its connect() poll loop, often after session.created
        with self.lock:
            first, self.announced = not getattr(self, "announced", False), True
        if first:
            self.events.emit("connected")

    def on_event(self, ev):
        self._connected()
        kind = ev.get("type")
        emit = self.events.emit
        if kind == "session.created":
            emit("started", session_id=(ev.get("session") or {}).get("id"))
        elif kind == "session.updated":
            session = ev.get("session") or {}
            self.session_config = session
            self._apply_output_format(session)
            with self.lock:
                self.updated += 1
                self.lock.notify_all()
            emit("session_updated")
        elif kind == "input_audio_buffer.speech_started":
            emit("speech_started", item_id=ev.get("item_id"))
            if self.player.playing:         # VAD barge-in: stop playback, drop the rest (C20)
                self.player.flush("barge_in")
        elif kind == "input_audio_buffer.speech_stopped":
            emit("speech_ended", item_id=ev.get("item_id"))
        elif kind == "conversation.item.input_audio_transcription.delta":
            emit("speech_content", item_id=ev.get("item_id"),
                 text=(ev.get("text") or "") + (ev.get("stash") or ""), finished=False)
        elif kind == "conversation.item.input_audio_transcription.completed":
            emit("speech_content", item_id=ev.get("item_id"), text=ev.get("transcript"), finished=True)
        elif kind == "response.created":
            rid = (ev.get("response") or {}).get("id")
            with self.lock:
                self.response_id = rid
            self.player.begin_round(rid)
            emit("responding_started", response_id=rid)
        elif kind in ("response.audio_transcript.delta", "response.text.delta"):
            rid = ev.get("response_id")
            self.text[rid] = self.text.get(rid, "") + (ev.get("delta") or "")
            emit("responding_content", response_id=rid, text=self.text[rid], finished=False)
        elif kind in ("response.audio_transcript.done", "response.text.done"):
            rid = ev.get("response_id")
            text = ev.get("transcript") if kind == "response.audio_transcript.done" else ev.get("text")
            emit("responding_content", response_id=rid, text=text, finished=True)
        elif kind == "response.audio.delta":
            rid = ev.get("response_id")
            try:
                n = len(base64.b64decode(ev.get("delta") or ""))
            except ValueError:
                emit("error", code="invalid_audio", message="response.audio.delta is not base64")
                return
            if self.player.feed(n, rid):
                emit("audio", bytes=n, response_id=rid)
        elif kind == "response.function_call_arguments.done":
            # C14: run the tool with the arguments of the .done event
            emit("tool_call", call_id=ev.get("call_id"), name=ev.get("name"), arguments=ev.get("arguments"),
                 response_id=ev.get("response_id"))
        elif kind == "response.done":
            response = ev.get("response") or {}
            rid = response.get("id")
            with self.lock:
                if self.response_id == rid or self.response_id is None:
                    self.response_id = None
                self.lock.notify_all()
            if self.player.round == rid and self.player.playing:
                self.player.end_of_stream(rid)
            elif self.player.round == rid:
                self.player.round = None
            emit("responding_ended", response_id=rid, status=response.get("status"))
        elif kind == "session.finished":
            emit("session_finished")
        elif kind == "error":
            fields = error_fields(ev)
            with self.lock:
                self.update_errors += 1
                if self.response_id == "pending":     # the response.create was refused
                    self.response_id = None
                self.lock.notify_all()
            emit("error", **fields)
            if (ev.get("error") or {}).get("type") == "server_error":
                self.finished = True           # C19: server_error is terminal: stop sending
        else:
            log.debug("event %s", kind)

    def _apply_output_format(self, session):
        rate, fmt = 24000, "pcm"
        out = ((session.get("audio") or {}).get("output") or {}).get("format")
        if isinstance(out, dict):
            rate, fmt = out.get("sample_rate") or rate, out.get("type") or fmt
        elif isinstance(session.get("output_audio_format"), str) and session["output_audio_format"].startswith("pcm"):
            fmt = "pcm"
        self.player.set_format(fmt, rate)
        inp = ((session.get("audio") or {}).get("input") or {}).get("format")
        if isinstance(inp, dict) and inp.get("sample_rate"):
            self.input_rate = int(inp["sample_rate"])
        elif session.get("sample_rate"):
            self.input_rate = int(session["sample_rate"])

    def _client_closed(self):
        if not self.closed.is_set():
            self.player.flush("closed")
            self.events.emit("closed", code=1000, reason="closed by the client")
            self.closed.set()

    def connect(self):
        url = self.env["url"]
        parts = urllib.parse.urlsplit(url)
        query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        model = self.env["model"] or dict(query).get("model") or "qwen3-omni-flash-realtime"
        self.profile = qwen_profile(model)
        others = [(k, v) for k, v in query if k != "model"]
        base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        # The SDK builds f"{url}?model={model}"; other query parameters ride behind the model.
        sdk_model = model + ("&" + urllib.parse.urlencode(others) if others else "")
        self.conversation = self.sdk.OmniRealtimeConversation(
            model=sdk_model, callback=self._callback(), url=base, api_key=self.env["api_key"],
            workspace=self.env["workspace_id"] or None)
        self.conversation.connect()
        if not self.events.wait("started", 10):
            raise CommandError("Timeout", "no session.created within 10 s")

    # ---- helpers ---------------------------------------------------------------------------

    def _ensure_configured(self):
        """C4: the first event is session.update, and nothing else goes out before its
        session.updated. Scripts that start with something else get the app's default setup."""
        if self.updates_sent == 0:
            self.cmd_session_update({"session": {}})

    def _wait_idle(self, timeout_s=20.0):
        """C11 / C18: wait until no response is in progress (the app waits for response.done)."""
        deadline = time.monotonic() + timeout_s
        with self.lock:
            while self.response_id is not None and not self.closed.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def _check_open(self):
        if self.finished:
            raise CommandError("Finished", "the session was finished (or failed terminally); nothing sent")
        if self.closed.is_set():
            raise CommandError("Closed", "the connection is closed")

    # ---- commands --------------------------------------------------------------------------

    def cmd_session_update(self, cmd):
        self._check_open()
        session = dict(cmd.get("session") or {})
        M = self.sdk.MultiModality
        kwargs = {}
        modalities = session.pop("modalities", ["audio", "text"])
        kwargs["output_modalities"] = [M(m) for m in modalities]
        if "voice" in session:
            kwargs["voice"] = session.pop("voice")
        td = session.pop("turn_detection", {}) if "turn_detection" in session else {}
        if td is None:
            kwargs["enable_turn_detection"] = False
        else:
            td = dict(td)
            kwargs["enable_turn_detection"] = True
            for key, arg in (("type", "turn_detection_type"), ("threshold", "turn_detection_threshold"),
                             ("prefix_padding_ms", "prefix_padding_ms"),
                             ("silence_duration_ms", "turn_detection_silence_duration_ms")):
                if key in td:
                    kwargs[arg] = td.pop(key)
            if td:
                kwargs["turn_detection_param"] = td
        if "input_audio_transcription" in session:
            iat = session.pop("input_audio_transcription")
            kwargs["enable_input_audio_transcription"] = iat is not None
            if isinstance(iat, dict) and iat.get("model"):
                kwargs["input_audio_transcription_model"] = iat["model"]
        audio = session.get("audio")
        if isinstance(audio, dict):
            fmt_in = ((audio.get("input") or {}).get("format"))
            fmt_out = ((audio.get("output") or {}).get("format"))
            if isinstance(fmt_in, dict) or isinstance(fmt_out, dict):
                session.pop("audio")
                C = self.sdk.AudioFormatConfig
                if isinstance(fmt_in, dict):
                    f = dict(fmt_in)
                    kwargs["input_audio_config"] = C(type=f.pop("type", "pcm"), sample_rate=f.pop("sample_rate", 16000), extra_params=f)
                if isinstance(fmt_out, dict):
                    f = dict(fmt_out)
                    kwargs["output_audio_config"] = C(type=f.pop("type", "pcm"), sample_rate=f.pop("sample_rate", 24000), extra_params=f)
        # Everything else (instructions, tools, enable_search, …) goes through the SDK's **kwargs,
        # which it merges into the session object as given.
        kwargs.update(session)
        with self.lock:
            before_updated, before_errors = self.updated, self.update_errors
        self.conversation.update_session(**kwargs)
        self.updates_sent += 1
        deadline = time.monotonic() + 10
        with self.lock:
            while self.updated == before_updated and self.update_errors == before_errors and not self.closed.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CommandError("Timeout", "no session.updated within 10 s")
                self.lock.wait(left)
            if self.updated == before_updated:
                raise CommandError("SessionUpdateFailed", "session.update was refused (see the error event)")

    def cmd_append_audio(self, cmd):
        self._check_open()
        self._ensure_configured()
        data = read_audio(cmd["file"])
        chunk = self.input_rate * 2 // 10      # 100 ms, as in the SDK examples
        data = data + bytes(-len(data) % chunk)   # whole microphone buffers (qrt.C8: ≥ 20 ms)
        pacer = Pacer(cmd.get("realtime", True))
        for i in range(0, len(data), chunk):
            self._check_open()
            piece = data[i:i + chunk]
            self.conversation.append_audio(base64.b64encode(piece).decode("ascii"))
            pacer.after(len(piece) / (self.input_rate * 2.0))

    def cmd_commit(self, cmd):
        self._check_open()
        self._ensure_configured()
        self.conversation.commit()

    def cmd_clear(self, cmd):
        self._check_open()
        self._ensure_configured()
        self.conversation.clear_appended_audio()

    def cmd_create_response(self, cmd):
        self._check_open()
        self._ensure_configured()
        response = dict(cmd.get("response") or {})
        if not self._wait_idle():
            raise CommandError("Busy", "a response is still in progress after 20 s; response.create not sent")
        self._check_open()
        modalities = response.pop("modalities", None)
        instructions = response.pop("instructions", None)
        if response:
            log.warning("response fields OmniRealtimeConversation.create_response cannot send: %s", sorted(response))
        M = self.sdk.MultiModality
        with self.lock:
            # In progress from before the create goes out (no second create) until response.done:
            # marked after the send, a response the server created and ended at once (an empty
            # answer, 2 ms) could be over on the SDK's reader thread first and stay "pending".
            self.response_id = self.response_id or "pending"
        try:
            self.conversation.create_response(
                instructions=instructions, output_modalities=[M(m) for m in modalities] if modalities else None)
        except Exception:
            with self.lock:
                if self.response_id == "pending":
                    self.response_id = None
                    self.lock.notify_all()
            raise

    def cmd_cancel_response(self, cmd):
        self._check_open()
        with self.lock:
            rid = self.response_id
        if rid is None:
            raise CommandError("NoResponse", "no response in progress; response.cancel not sent (qrt.C12)")
        self.conversation.cancel_response()
        self.player.flush("cancelled")     # C20: stop playback, drop further deltas

    def cmd_tool_result(self, cmd):
        self._check_open()
        output = cmd.get("output")
        if not isinstance(output, str):
            output = json.dumps(output)
        self.conversation.create_item({"type": "function_call_output", "call_id": cmd.get("call_id"),
                                       "output": output})

    def cmd_create_item(self, cmd):
        self._check_open()
        self._ensure_configured()
        item = dict(cmd.get("item") or {})
        if item.get("type") in ("input_image", "image"):
            if self.profile == "audio":
                raise CommandError("Unsupported", "the audio profile has no image input (qrt.C17); nothing sent")
            image = file_base64(item["file"]) if "file" in item else item.get("image") or item.get("value")
            self.conversation.append_video(image)       # input_image_buffer.append
            return
        self.conversation.create_item(inline_files(item))

    def cmd_finish(self, cmd):
        if self.finished or self.closed.is_set():
            return
        self._wait_idle()
        self.finished = True
        if self.profile == "omni":
            try:
                self.conversation.end_session(timeout=20)   # session.finish, waits for session.finished
            except Exception as e:
                raise CommandError(type(e).__name__, str(e))
        else:
            # The audio profile defines no session.finish (qrt.C17): close after the response.
            # close() completes the closing handshake, but websocket-client only calls on_close
            # when its reader thread wakes up (up to ~10 s later): report the close now.
            self.conversation.close()
            self._client_closed()
        if not self.closed.wait(5):
            self.conversation.close()
            self.closed.wait(2)

    def shutdown(self, timeout_s=10.0):
        if self.conversation is None or self.closed.is_set():
            return
        try:
            self.cmd_finish({})
        except CommandError as e:
            self.events.emit("error", code=e.code, message=str(e))
        if not self.closed.wait(timeout_s):
            self.conversation.close()

    # The tool the passive flow declares, as the Swift reference client does (a nested function).
    WEATHER_TOOL = {"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}

    def passive(self):
        """A default correct session: the weather tool declared, a server_vad turn with the default
        fixture, every tool call answered (one function_call_output, then response.create: C13),
        then finish."""
        self.cmd_session_update({"session": {"tools": [self.WEATHER_TOOL]}})
        try:
            self.cmd_append_audio({"file": "fixtures/audio/hello-16k.pcm", "realtime": True})
        except FileNotFoundError:
            log.warning("fixtures/audio/hello-16k.pcm missing: no speech in passive mode")
        # keep streaming silence (C9) until the answer is done
        silence = base64.b64encode(bytes(self.input_rate * 2 // 10)).decode("ascii")
        pacer = Pacer(True)
        deadline = time.monotonic() + 15
        answered = 0
        while time.monotonic() < deadline and not self.closed.is_set():
            calls = self.events.named("tool_call")
            for call in calls[answered:]:
                self.cmd_tool_result({"call_id": call.get("call_id"), "output": json.dumps({"weather": "sunny"})})
            if len(calls) > answered:
                answered = len(calls)
                # after the call's response.done (the SDK waits for the response to be idle)
                self.cmd_create_response({})
            if self.events.count("responding_ended") >= (2 if answered else 1):
                break
            self.conversation.append_audio(silence)
            pacer.after(0.1)
        self.shutdown()


# --------------------------------------------------------------------------------------------
# Main loop
# --------------------------------------------------------------------------------------------

def read_commands(stream, q):
    for line in stream:
        line = line.strip()
        if not line:
            continue
        try:
            q.put(json.loads(line))
        except ValueError as e:
            q.put({"cmd": None, "_invalid": f"not JSON: {e}", "_line": line[:200]})
    q.put(None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", choices=[MMD, QRT])
    parser.add_argument("--idle-passive-ms", type=int,
                        default=int(os.environ.get("DASHSCOPE_ADAPTER_IDLE_PASSIVE_MS", "3000")),
                        help="no command within this time (and stdin still open): run the passive flow")
    args = parser.parse_args()

    logging.basicConfig(level=os.environ.get("DASHSCOPE_ADAPTER_LOG", "WARNING").upper(), stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    protocol = args.protocol or os.environ.get("MOCK_PROTOCOL") or MMD
    events = Events()
    events.write_raw({"adapter": ADAPTER, "protocol": protocol, "reusable": True})
    if protocol not in (MMD, QRT):
        events.emit("error", code="UnknownProtocol", message=f"unknown protocol {protocol!r}")
        return 2

    import dashscope  # noqa: F401  (import errors surface before any command)

    commands = queue.Queue()
    threading.Thread(target=read_commands, args=(sys.stdin, commands), daemon=True).start()
    # Reusable (conformance/README.md, "Reusable adapters"): after `end_case` the same process
    # serves the next case, whose values come in `next_case {env}`; the SDK is imported once.
    values = os.environ
    while True:
        env = case_env(protocol, values)
        dashscope.api_key = env["api_key"]
        driver = MultiModalDriver(env, events) if protocol == MMD else QwenDriver(env, events)
        end, exit_code = run_case(protocol, driver, events, commands, args.idle_passive_ms)
        if end != END_CASE:
            return exit_code
        events.emit("ack", cmd=END_CASE, ok=exit_code == 0, exit=exit_code)
        events.retire()
        values = next_case(commands)
        if values is None:
            return 0
        events = Events()


END_CASE = "end_case"
NEXT_CASE = "next_case"


def case_env(protocol, values):
    """A case's settings from MOCK_* values (the process environment, or a next_case's env)."""
    default_url = ("ws://127.0.0.1:8765/api-ws/v1/inference" if protocol == MMD
                   else "ws://127.0.0.1:8765/api-ws/v1/realtime")
    return {
        "url": values.get("MOCK_URL") or default_url,
        "api_key": values.get("MOCK_API_KEY") or "sk-dialogmock",
        "workspace_id": values.get("MOCK_WORKSPACE_ID") or None,
        "app_id": values.get("MOCK_APP_ID") or "dialogmock-app",
        "model": values.get("MOCK_MODEL") or None,
        "case_id": values.get("MOCK_CASE_ID"),
    }


def read_until(commands, name, why):
    """Skips commands up to the next `name` (returned) or the end of input (None)."""
    while True:
        cmd = commands.get()
        if cmd is None or cmd.get("cmd") == name:
            return cmd
        log.warning("%s, skipped %r", why, cmd.get("cmd"))


def next_case(commands):
    """Waits for next_case between cases; returns its env, or None at end of input."""
    cmd = read_until(commands, NEXT_CASE, f"between cases, expected {NEXT_CASE}")
    if cmd is None:
        return None
    env = cmd.get("env")
    return env if isinstance(env, dict) else {}


def skip_to_case_end(commands):
    """After quit or a failure, what is left of the case up to end_case (or end of input)."""
    return END_CASE if read_until(commands, END_CASE, "after the session ended") is not None else None


def run_case(protocol, driver, events, commands, idle_passive_ms):
    """One case: commands until end of input or end_case (no command at all: the passive
    flow). Returns (None or END_CASE, exit status); whatever happens, the case's commands are
    read up to its end, so the next case starts clean."""
    end = "open"                 # "open" until end of input (None) or END_CASE has been read

    def read():
        nonlocal end
        cmd = commands.get()
        if cmd is None or cmd.get("cmd") == END_CASE:
            end = None if cmd is None else END_CASE
        return cmd

    def finish(code):
        return (skip_to_case_end(commands) if end == "open" else end), code

    try:
        if protocol == QRT:
            driver.connect()        # Qwen scripts have no start command: connect at once
        try:
            first = commands.get(timeout=idle_passive_ms / 1000.0)
            if first is None or first.get("cmd") == END_CASE:
                end = None if first is None else END_CASE
        except queue.Empty:
            first = None
            log.warning("no command within %d ms: passive mode", idle_passive_ms)
        if first is None or end != "open":
            driver.passive()
            return finish(0)
        pending = [first]
        while True:
            cmd = pending.pop() if pending else read()
            if end != "open":                     # stdin closed or end_case: end the session properly
                driver.shutdown()
                return finish(0)
            name = cmd.get("cmd")
            if name == "quit":
                events.emit("ack", cmd="quit")
                driver.shutdown()
                return finish(0)
            ok = run_command(driver, events, cmd)
            events.emit("ack", cmd=name, ok=ok)
    except KeyboardInterrupt:
        return None, 130
    except Exception as e:
        log.exception("adapter failure")
        events.emit("error", code=type(e).__name__, message=str(e))
        try:
            driver.shutdown(timeout_s=3)
        except Exception:
            pass
        return finish(1)


def run_command(driver, events, cmd):
    name = cmd.get("cmd")
    if cmd.get("_invalid"):
        events.emit("error", code="BadCommand", message=cmd["_invalid"])
        return False
    if name == "wait":
        target = cmd.get("for")
        timeout = float(cmd.get("timeoutMs", 10000)) / 1000.0
        match = {k: v for k, v in cmd.items() if k not in ("cmd", "for", "timeoutMs")} or None
        if not target:
            events.emit("error", code="BadCommand", message="wait needs \"for\"")
            return False
        if events.wait(target, timeout, match) is None:
            if events.closed and target != "closed":
                events.emit("error", code="Closed", message=f"no {target}: the connection is closed", cmd="wait")
            else:
                events.emit("error", code="Timeout", message=f"no {target} within {int(timeout * 1000)} ms", cmd="wait")
            return False
        return True
    handler = getattr(driver, "cmd_" + str(name), None)
    if handler is None:
        events.emit("error", code="UnknownCommand", message=f"{name!r} is not a command of this protocol", cmd=name)
        return False
    try:
        handler(cmd)
        return True
    except CommandError as e:
        events.emit("error", code=e.code, message=str(e), cmd=name)
    except FileNotFoundError as e:
        events.emit("error", code="FileNotFound", message=str(e), cmd=name)
    except Exception as e:
        log.exception("%s failed", name)
        events.emit("error", code=type(e).__name__, message=str(e), cmd=name)
    return False


if __name__ == "__main__":
    code = main()
    try:
        _PROTOCOL_OUT.flush()
    except Exception:
        pass
    os._exit(code or 0)     # the SDK's socket threads must not keep the process alive
