"""The unmodified `openai` SDK's realtime client on the mock's Qwen route, for rules the mock
takes from its sources (issue 40): an audio-profile session.update without turn_detection
(push-to-talk, SEED-003) and a response.create before any user message (refused).

usage: openai_service_rules.py FLOW BASE_WS_URL MODEL
Flows: omitted-turn-detection, no-user-message. Prints one JSON object on the last stdout line.
"""
import json
import sys

from openai import OpenAI

flow, base, model = sys.argv[1], sys.argv[2], sys.argv[3]
client = OpenAI(api_key="sk-e2e", base_url="http://127.0.0.1:9/v1", websocket_base_url=base)
out = {"events": []}


def until(connection, wanted):
    for event in connection:
        out["events"].append(event.type)
        if event.type in wanted or len(out["events"]) > 500:
            return event
    return None


with client.realtime.connect(model=model) as connection:
    if flow == "omitted-turn-detection":
        created = until(connection, {"session.created"})
        out["created_turn_detection"] = created.session.model_dump().get("turn_detection") if created else "missing"
        connection.send({"type": "session.update", "session": {"modalities": ["text"], "voice": "longanqian"}})
        updated = until(connection, {"session.updated", "error"})
        out["updated_turn_detection"] = json.loads(updated.model_dump_json()).get("session", {}).get("turn_detection", "missing")
    elif flow == "no-user-message":
        connection.send({"type": "session.update", "session": {"modalities": ["text"], "turn_detection": None}})
        until(connection, {"session.updated"})
        connection.response.create()
        error = until(connection, {"error", "response.created"})
        out["error"] = json.loads(error.model_dump_json()).get("error") if error is not None else None
        connection.conversation.item.create(item={"type": "message", "role": "user",
                                                  "content": [{"type": "input_text", "text": "Say hello."}]})
        connection.response.create()
        done = until(connection, {"response.done"})
        out["status"] = json.loads(done.model_dump_json()).get("response", {}).get("status") if done else None
    else:
        raise SystemExit(f"unknown flow {flow}")
print(json.dumps(out))
