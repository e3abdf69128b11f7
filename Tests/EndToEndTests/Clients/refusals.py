"""Opens refused upgrades with the two Python WebSocket libraries real clients are built on:
`websockets` (what the `openai` realtime client uses) and `websocket-client` (what the
`dashscope` SDK uses). Each must read the mock's refusal as an HTTP status with its JSON body,
not as an unparsable response.

usage: refusals.py URL [HEADER:VALUE ...]
Prints one JSON object on the last stdout line:
{"websockets": {"status": 401, "body": {...}} | {"error": "..."},
 "websocket-client": {...}}
"""
import json
import sys

import websocket
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

url = sys.argv[1]
headers = [tuple(item.split(":", 1)) for item in sys.argv[2:]]


def parsed(body):
    try:
        return json.loads(body)
    except (TypeError, ValueError):
        return {"unparsed": repr(body)}


def with_websockets():
    try:
        with connect(url, additional_headers=headers, open_timeout=5):
            return {"error": "the upgrade was accepted"}
    except InvalidStatus as refusal:
        return {"status": refusal.response.status_code, "body": parsed(refusal.response.body)}
    except Exception as error:  # noqa: BLE001 - the test reports what the library raised
        return {"error": f"{type(error).__name__}: {error}"}


def with_websocket_client():
    try:
        websocket.create_connection(url, header=[f"{name}: {value}" for name, value in headers], timeout=5).close()
        return {"error": "the upgrade was accepted"}
    except websocket.WebSocketBadStatusException as refusal:
        return {"status": refusal.status_code, "body": parsed(refusal.resp_body)}
    except Exception as error:  # noqa: BLE001
        return {"error": f"{type(error).__name__}: {error}"}


print(json.dumps({"websockets": with_websockets(), "websocket-client": with_websocket_client()}))
