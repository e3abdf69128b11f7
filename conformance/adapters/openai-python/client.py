"""A passive Qwen realtime client over the unmodified `openai` SDK's realtime client (pinned in
requirements.txt): what an application written against the OpenAI realtime API does when pointed
at Qwen's OpenAI-compatible endpoint. It announces nothing (conformance/README.md, "Passive
clients"), so the harness judges its own flow on every case:

  connect to MOCK_URL (websocket_base_url = MOCK_URL without /realtime?model=…; the SDK adds
  them back), wait for session.created, send session.update {modalities: [text, audio]}, stream
  conformance/fixtures/audio/hello-16k.pcm as input_audio_buffer.append in 100 ms chunks at real
  time (server VAD turns it into a response), wait for response.done, close.

stdout stays empty; progress and server errors go to stderr. A non-fatal error event does not
end the flow; a fatal one (type server_error) stops the audio, as does the close; an event the
SDK cannot parse is skipped. Exit 0 when the flow completed, 1 when it ended early or a wait
timed out.
"""
import base64
import os
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

from openai import OpenAI
from websockets.exceptions import ConnectionClosed

CHUNK_SECONDS = 0.1
RATE = 16000  # the fixture: s16le mono 16 kHz


def log(message):
    print(f"openai-python: {message}", file=sys.stderr, flush=True)


def fixture():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "fixtures", "audio", "hello-16k.pcm")
    with open(path, "rb") as f:
        return f.read()


def main():
    url = os.environ.get("MOCK_URL", "")
    parts = urlsplit(url)
    if not parts.path.endswith("/realtime"):
        log(f"MOCK_URL is not a realtime endpoint: {url!r}")
        return 2
    base = f"{parts.scheme}://{parts.netloc}{parts.path[:-len('/realtime')]}"
    model = parse_qs(parts.query).get("model", [os.environ.get("MOCK_MODEL", "qwen3-omni-flash-realtime")])[0]
    # base_url is never contacted: only the realtime WebSocket is used.
    client = OpenAI(api_key=os.environ.get("MOCK_API_KEY", "sk-unset"), base_url="http://127.0.0.1:9/v1",
                    websocket_base_url=base)
    seen = {}
    arrived = threading.Condition()
    failure = []

    def note(name):
        with arrived:
            seen[name] = seen.get(name, 0) + 1
            arrived.notify_all()

    def wait_for(name, timeout):
        deadline = time.monotonic() + timeout
        with arrived:
            while name not in seen and not failure:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                arrived.wait(left)
        return name in seen

    with client.realtime.connect(model=model) as connection:
        def read():
            # A robust app: an event the SDK cannot parse is logged and skipped; a fatal server
            # error (type server_error) stops the sending; the close ends the flow.
            while True:
                try:
                    event = connection.recv()
                except ConnectionClosed as e:
                    failure.append(f"closed: {e}")
                    break
                except Exception as e:
                    log(f"unreadable server event skipped: {type(e).__name__}: {e}")
                    continue
                if event.type == "error":
                    error = getattr(event, "error", None)
                    log(f"server error: {getattr(error, 'type', None)} {getattr(error, 'code', None)}: {getattr(error, 'message', None)}")
                    if getattr(error, "type", None) == "server_error":
                        failure.append("fatal error")
                note(event.type)
            note("closed")

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if not wait_for("session.created", 5):
            log("no session.created within 5 s")
            return 1
        connection.send({"type": "session.update", "session": {"modalities": ["text", "audio"]}})
        if not wait_for("session.updated", 5):
            log("no session.updated within 5 s")
            return 1
        step = int(RATE * 2 * CHUNK_SECONDS)
        pcm = fixture()
        pcm += bytes(-len(pcm) % step)  # a microphone delivers whole buffers: pad the last one
        start = time.monotonic()
        for index, offset in enumerate(range(0, len(pcm), step)):
            if failure:
                break
            connection.input_audio_buffer.append(audio=base64.b64encode(pcm[offset:offset + step]).decode())
            # Paced like a microphone: chunk k leaves at k × 100 ms.
            delay = start + (index + 1) * CHUNK_SECONDS - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        done = wait_for("response.done", 15)
        if not done:
            log("no response.done within 15 s of the end of the audio")
        # Decided before the close below, which the reader sees as a close.
        status = 0 if done and not failure else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
