import MockSessions
import ProtocolModel
package import WireJSON

/// The OpenAPI 3.1 document of the control API (`GET /_mock/openapi.json`), built from
/// `ControlRoute` so it cannot drift from what the server answers.
package enum ControlAPIDocument {
    package static var document: JSONValue {
        var paths: JSONObject = [:]
        for route in ControlRoute.allCases {
            var item = paths[route.path]?.objectValue ?? [:]
            item[route.method.lowercased()] = operation(route)
            paths[route.path] = .object(item)
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "DialogMock control API",
                "version": .string(ServerVersion.text),
                "description":
                    "HTTP control API of mock-server, on the same port as the WebSocket routes. Errors are {\"code\", \"message\"}.",
            ],
            "servers": [["url": "http://127.0.0.1:8765"]],
            "paths": .object(paths),
            "components": ["schemas": schemas],
        ]
    }

    private static func operation(_ route: ControlRoute) -> JSONValue {
        var operation: JSONObject = ["operationId": .string(route.rawValue), "summary": .string(route.summary)]
        var parameters: [JSONValue] = route.template.filter { $0.hasPrefix("{") }.map { segment in
            [
                "name": .string(String(segment.dropFirst().dropLast())), "in": "path", "required": true,
                "schema": ["type": "string"],
            ]
        }
        parameters += route.queryParameters.map { name in
            [
                "name": .string(name), "in": "query", "required": false,
                "schema": name == "open" ? ["type": "boolean"] : ["type": "string"],
            ]
        }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if route == .armFault {
            operation["requestBody"] = [
                "required": true, "content": ["application/json": ["schema": reference("FaultRequest")]],
            ]
        } else if route.takesScenarioFile {
            operation["requestBody"] = [
                "required": true,
                "description": "A scenario file (mock-server/README.md, conformance/schema/scenario.schema.json).",
                "content": ["application/json": ["schema": ["type": "object"]]],
            ]
        }
        var responses: JSONObject = ["200": success(route)]
        for (status, description) in errors(route) {
            responses[status] = [
                "description": .string(description), "content": ["application/json": ["schema": reference("Error")]],
            ]
        }
        operation["responses"] = .object(responses)
        return .object(operation)
    }

    private static func success(_ route: ControlRoute) -> JSONValue {
        switch route {
        case .metrics:
            return [
                "description": "Prometheus text exposition format 0.0.4",
                "content": ["text/plain": ["schema": ["type": "string"]]],
            ]
        case .journal:
            return [
                "description": "One journal entry per line (mock-server/README.md, Journal lines)",
                "content": ["application/x-ndjson": ["schema": ["type": "string"]]],
            ]
        case .echo, .dashboardLive:
            return ["description": "Never: the route only answers WebSocket upgrades (101)."]
        case .dashboard:
            return [
                "description": "The dashboard page (with ?token=: 303 to the path without it, setting the cookie)",
                "content": ["text/html": ["schema": ["type": "string"]]],
            ]
        case .dashboardAsset:
            return [
                "description": "A dashboard file",
                "content": [
                    "text/javascript": ["schema": ["type": "string"]], "text/css": ["schema": ["type": "string"]],
                ],
            ]
        default:
            return ["description": "OK", "content": ["application/json": ["schema": successSchema(route)]]]
        }
    }

    private static func successSchema(_ route: ControlRoute) -> JSONValue {
        switch route {
        case .sessions:
            [
                "type": "object", "required": ["sessions"],
                "properties": ["sessions": ["type": "array", "items": reference("Session")]],
            ]
        case .refusals:
            [
                "type": "object", "required": ["refusals", "dropped"],
                "properties": [
                    "refusals": ["type": "array", "items": reference("Refusal")],
                    "dropped": [
                        "type": "integer",
                        "description": .string(
                            "Refusals not kept: past the first \(RefusedUpgrades.keptPerOrigin) of a test id or case, "
                                + "or the oldest past \(RefusedUpgrades.kept) in all."),
                    ],
                ],
            ]
        case .listFaults:
            [
                "type": "object", "required": ["faults"],
                "properties": ["faults": ["type": "array", "items": reference("ArmedFault")]],
            ]
        case .removeFaults, .removeFault:
            [
                "type": "object", "required": ["status", "removed"],
                "properties": [
                    "status": ["const": "removed"], "removed": ["type": "array", "items": ["type": "string"]],
                ],
            ]
        case .armFault:
            [
                "type": "object", "required": ["status", "id"],
                "properties": [
                    "status": ["const": "armed"], "id": ["type": "string"], "session": ["type": "string"],
                    "testId": ["type": "string"], "openSessions": ["type": "integer"],
                ],
            ]
        case .reset:
            [
                "type": "object",
                "required": [
                    "status", "faultsRemoved", "sessionsForgotten", "refusalsForgotten", "testScenariosRemoved",
                    "scenario",
                ],
                "properties": [
                    "status": ["const": "reset"], "faultsRemoved": ["type": "integer"],
                    "sessionsForgotten": ["type": "integer"], "refusalsForgotten": ["type": "integer"],
                    "testScenariosRemoved": ["type": "integer"], "scenario": ["type": "string"],
                ],
            ]
        case .health:
            [
                "type": "object", "required": ["status", "version"],
                "properties": [
                    "status": ["const": "ok"], "version": ["type": "string"], "libraries": ["type": "object"],
                    "eventLoop": ["type": "string"], "threads": ["type": "integer"], "scenario": ["type": "string"],
                ],
            ]
        case .getScenario, .putScenario:
            ["type": "object", "properties": ["name": ["type": "string"], "status": ["type": "string"]]]
        case .getTestScenario: reference("ScenarioDescription")
        case .putTestScenario:
            [
                "type": "object", "required": ["testId", "scenario"],
                "properties": ["testId": ["type": "string"], "scenario": reference("ScenarioDescription")],
            ]
        case .removeTestScenario:
            [
                "type": "object", "required": ["status", "testId"],
                "properties": ["status": ["const": "removed"], "testId": ["type": "string"]],
            ]
        case .listTests:
            [
                "type": "object", "required": ["tests"],
                "properties": ["tests": ["type": "array", "items": reference("TestSummary")]],
            ]
        case .report:
            [
                "type": "object",
                "required": [
                    "profile", "durationMs", "turns", "answers", "interruptedAnswers", "userSpeechMs", "answerAudioMs",
                    "endReason",
                ],
                "properties": [
                    "profile": ["type": "string"], "durationMs": ["type": "integer"], "turns": ["type": "integer"],
                    "answers": ["type": "integer"], "interruptedAnswers": ["type": "integer"],
                    "userSpeechMs": ["type": "integer"], "answerAudioMs": ["type": "integer"],
                    "endReason": [
                        "enum": [
                            "idle", "clientStop", "clientClosed", "serverError", "serverSilence", "audioGap",
                            "sessionExpiry", "trigger",
                        ]
                    ],
                ],
            ]
        default: ["type": "object"]
        }
    }

    private static func errors(_ route: ControlRoute) -> [(String, String)] {
        // Every route: a query parameter it does not take (ControlQuery).
        let badQuery = "An unknown or repeated query parameter (parameter, and didYouMean when one is close)"
        var errors = [("405", "Wrong method (with an Allow header)")]
        switch route {
        case .journal, .removeFault: errors += [("400", badQuery), ("404", "No such session or fault")]
        case .report: errors += [("400", badQuery), ("404", "No such session, or it has no report (yet)")]
        case .sessions: errors.append(("400", badQuery + "; open not true or false"))
        case .putScenario:
            errors.append(
                ("400", "Not a valid scenario: the message names FILE:LINE:COLUMN and the field; or " + badQuery))
        case .armFault:
            errors += [
                ("400", "Not JSON, or not a valid fault (FILE:LINE:COLUMN and the field); or " + badQuery),
                ("404", "No open session with that id"),
                ("409", "A fault with that id is armed already"),
            ]
        case .echo, .dashboardLive:
            errors += [("400", badQuery), ("426", "Upgrade Required: open it as a WebSocket")]
        case .dashboard: errors += [("400", badQuery), ("401", "The token is not the server's --control-token")]
        case .dashboardAsset: errors += [("400", badQuery), ("404", "No such file")]
        case .getTestScenario, .removeTestScenario:
            errors += [("400", badQuery), ("404", "No scenario is armed for that test id")]
        case .putTestScenario:
            errors += [
                ("400", "Not a valid scenario: the message names FILE:LINE:COLUMN and the field; or " + badQuery),
                ("409", "The per-test scenarios armed already reach their count or byte limit"),
                ("413", "The scenario file is larger than a per-test scenario may be"),
            ]
        default: errors.append(("400", badQuery))
        }
        return errors
    }

    private static func reference(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    private static var schemas: JSONValue {
        [
            "Error": [
                "type": "object", "required": ["code", "message"],
                "properties": [
                    "code": ["type": "string"], "message": ["type": "string"],
                    "parameter": ["type": "string", "description": "The query parameter refused."],
                    "didYouMean": ["type": "string", "description": "The parameter the route takes that is closest."],
                ],
            ],
            "Refusal": [
                "type": "object", "required": ["time", "path", "status", "reason", "violation"],
                "properties": [
                    "time": ["type": "string", "format": "date-time"],
                    "path": ["type": "string", "description": "The request path, without the query."],
                    "status": ["type": "integer"],
                    "reason": ["type": "string", "description": "The refusal body's code and message."],
                    "testId": ["type": "string"], "caseId": ["type": "string"], "protocol": ["type": "string"],
                    "violation": [
                        "type": "object", "required": ["message"],
                        "description":
                            "As in a journal: the protocol's connect obligation (mmd.C1, qrt.C1; absent off the protocol paths) and MUST: upgrade refused with STATUS (REASON).",
                        "properties": ["obligation": ["type": "string"], "message": ["type": "string"]],
                    ],
                ],
            ],
            "FaultRequest": [
                "type": "object", "required": ["fault"],
                "description": "Exactly one of session or testId.",
                "properties": [
                    "session": ["type": "string", "description": "An open session id (s1, s2, …)."],
                    "testId": [
                        "type": "string",
                        "description":
                            "Every open and later session opened with this X-Test-Id header or test_id query parameter.",
                    ],
                    "fault": [
                        "type": "object",
                        "description":
                            "A scenario `faults` entry (mock-server/README.md, Faults); its `id`, if any, names the armed fault.",
                    ],
                ],
            ],
            "ArmedFault": [
                "type": "object", "required": ["id", "fault", "sessions"],
                "properties": [
                    "id": ["type": "string"], "fault": ["type": "object"], "session": ["type": "string"],
                    "testId": ["type": "string"], "sessions": ["type": "array", "items": ["type": "string"]],
                ],
            ],
            "ScenarioDescription": [
                "type": "object", "required": ["name", "description", "seed", "timeScale"],
                "properties": [
                    "name": ["type": "string"], "description": ["type": "string"], "seed": ["type": "integer"],
                    "timeScale": ["type": "number"],
                ],
            ],
            "TestSummary": [
                "type": "object", "required": ["testId", "scenario", "faults", "sessions"],
                "properties": [
                    "testId": ["type": "string"],
                    "scenario": [
                        "type": ["string", "null"], "description": "The per-test scenario's name; null when none.",
                    ],
                    "faults": ["type": "integer", "description": "Faults armed for the test id."],
                    "sessions": [
                        "type": "integer", "description": "Its sessions the server holds (open and kept closed ones).",
                    ],
                ],
            ],
            "Session": [
                "type": "object", "required": ["id", "protocol", "path", "open"],
                "properties": [
                    "id": ["type": "string"], "protocol": ["type": "string"], "path": ["type": "string"],
                    "open": ["type": "boolean"],
                    "framesIn": ["type": "integer"], "framesOut": ["type": "integer"], "bytesIn": ["type": "integer"],
                    "bytesOut": ["type": "integer"], "violations": ["type": "integer"], "testId": ["type": "string"],
                    "caseId": ["type": "string"], "thread": ["type": "string"],
                    "framesNotJournaled": ["type": "integer"], "upstream": ["type": "string"],
                    "scenario": [
                        "type": "string",
                        "description": "The scenario the session runs: its case's, its test id's or the global one.",
                    ],
                ],
            ],
        ]
    }
}
