"""Drives the unmodified `openai` SDK's realtime client (openai 3.51.0, GA interface) against
the mock's Qwen realtime route: websocket_base_url=ws://HOST:PORT/api-ws/v1 makes the SDK
connect to /api-ws/v1/realtime?model=MODEL, as the Qwen docs describe for OpenAI-compatible
clients.

usage: openai_realtime_flow.py BASE_WS_URL MODEL
Prints one JSON object on the last stdout line: {"events": [...], "parsed": {...}, "text": ...}.
"""
import json
import sys

from openai import OpenAI

base, model = sys.argv[1], sys.argv[2]
client = OpenAI(api_key="sk-e2e", base_url="http://127.0.0.1:9/v1", websocket_base_url=base)
events, parsed_types, text = [], {}, ""
with client.realtime.connect(model=model) as connection:
    # GA shape: the SDK's typed session.update; Qwen reads `modalities`, `turn_detection`.
    connection.send({"type": "session.update", "session": {"modalities": ["text"], "turn_detection": None}})
    connection.conversation.item.create(item={"type": "message", "role": "user",
                                              "content": [{"type": "input_text", "text": "Say hello."}]})
    connection.response.create()
    for event in connection:
        events.append(event.type)
        parsed_types[event.type] = type(event).__name__
        if event.type == "response.text.delta":
            text += getattr(event, "delta", "")
        if event.type in ("response.done", "error") or len(events) > 500:
            break
print(json.dumps({"events": events, "parsed": parsed_types, "text": text}))
