import ProtocolModel
package import WireJSON

/// The control API's routes, once: the dispatcher matches them, `GET /_mock/` lists them and
/// `GET /_mock/openapi.json` describes them (the committed `mock-server/openapi.json` is a copy
/// a test keeps equal).
package enum ControlRoute: String, CaseIterable, Sendable {
    case index, openAPI, health, metrics, sessions, journal, report, refusals, getScenario, putScenario
    case listFaults, armFault, removeFaults, removeFault, reset, echo
    case listTests, getTestScenario, putTestScenario, removeTestScenario
    // The dashboard (its live feed before its assets: `ui/live` matches both templates).
    case faultKinds, dashboard, dashboardLive, dashboardAsset

    /// Path segments after `/_mock`; `{name}` is a parameter.
    package var template: [String] {
        switch self {
        case .index: []
        case .openAPI: ["openapi.json"]
        case .health: ["health"]
        case .metrics: ["metrics"]
        case .sessions: ["sessions"]
        case .journal: ["sessions", "{id}", "journal"]
        case .report: ["sessions", "{id}", "report"]
        case .refusals: ["refusals"]
        case .getScenario, .putScenario: ["scenario"]
        case .listFaults, .armFault, .removeFaults: ["faults"]
        case .removeFault: ["faults", "{id}"]
        case .reset: ["reset"]
        case .echo: ["echo"]
        case .listTests: ["tests"]
        case .getTestScenario, .putTestScenario, .removeTestScenario: ["tests", "{testId}", "scenario"]
        case .faultKinds: ["fault-kinds"]
        case .dashboard: ["ui"]
        case .dashboardLive: ["ui", "live"]
        case .dashboardAsset: ["ui", "{file}"]
        }
    }

    package var method: String {
        switch self {
        case .putScenario, .putTestScenario: "PUT"
        case .armFault, .reset: "POST"
        case .removeFaults, .removeFault, .removeTestScenario: "DELETE"
        default: "GET"
        }
    }

    package var path: String { "/_mock/" + template.joined(separator: "/") }

    package var summary: String {
        switch self {
        case .index: "This list of routes."
        case .openAPI: "The OpenAPI 3.1 document of the control API."
        case .health: "Liveness, version, library versions, event loop, threads and the current scenario."
        case .metrics: "Prometheus text: sessions, frames, bytes, send lateness, answer-audio cache."
        case .sessions: "Open sessions and the last closed ones; filter with testId, caseId, open."
        case .journal: "One session's journal as JSON Lines; from=N: from its Nth entry on (0-based)."
        case .report:
            "The final report of a session whose scenario journals one (policy sessionReport, the aibuds profile)."
        case .refusals:
            "Upgrades the mock refused (no session opened), with status and reason; filter with testId, caseId."
        case .getScenario: "The scenario new sessions get."
        case .putScenario: "Replace the scenario for sessions opened afterwards (body: a scenario file)."
        case .listFaults: "The faults armed through this API; filter with testId, session."
        case .armFault: "Arm a fault on one open session or on every session of a test id, now and later."
        case .removeFaults: "Remove the armed faults (all, or those of testId / session); open sessions disarm them."
        case .removeFault: "Remove one armed fault by id; open sessions disarm it."
        case .reset:
            "Remove every fault and per-test scenario, restore the start-up scenario, forget closed sessions and refusals."
        case .echo: "WebSocket echo of text and binary messages (upgrade only; a plain GET gets 426)."
        case .listTests: "The test ids that have a per-test scenario or an armed fault, with their counts."
        case .getTestScenario: "The scenario armed for one test id (404 when none)."
        case .putTestScenario:
            "Arm a scenario (body: a scenario file) for the sessions opened later with this test id; case routes keep theirs."
        case .removeTestScenario: "Remove a test id's scenario: its later sessions get the global one again."
        case .faultKinds: "The fault kinds POST /_mock/faults takes, each with a line on what it does and an example."
        case .dashboard:
            "The dashboard (HTML; also at /). With --control-token, ?token=T sets a cookie that authorises the browser."
        case .dashboardLive:
            "The dashboard's live feed: a WebSocket of JSON events (opened, closed, violation, fault, faults, refusal)."
        case .dashboardAsset: "The dashboard's files: dashboard.js, dashboard.css, timeline.js, timeline.css."
        }
    }

    /// A route that parses a scenario file from its body: the control API answers it from a
    /// worker thread, and the OpenAPI document gives it a scenario request body.
    package var takesScenarioFile: Bool { self == .putScenario || self == .putTestScenario }

    /// The dashboard page checks access and its query itself: `?token=` comes before the cookie
    /// exists, and a browser gets its refusals as a page.
    package var checksAccessItself: Bool { self == .dashboard }

    /// The query parameters a route takes, and the only ones: any other is a 400
    /// (``ControlQuery``); the listing and the OpenAPI document show these.
    package var queryParameters: [String] {
        switch self {
        case .sessions: ["testId", "caseId", "open"]
        case .refusals: ["testId", "caseId"]
        case .listFaults, .removeFaults: ["testId", "session"]
        case .journal: ["from"]
        case .dashboard: ["token"]
        default: []
        }
    }

    /// The routes whose template matches `parts` (segments after `_mock`), with the values of
    /// their `{…}` parameters.
    package static func matching(_ parts: [String]) -> [(route: ControlRoute, parameters: [String])] {
        allCases.compactMap { route in
            let template = route.template
            guard template.count == parts.count else { return nil }
            var parameters: [String] = []
            for (expected, actual) in zip(template, parts) {
                if expected.hasPrefix("{") { parameters.append(actual) } else if expected != actual { return nil }
            }
            return (route, parameters)
        }
    }

    /// `GET /_mock/`.
    package static var listing: JSONValue {
        [
            "name": "dialogmock control API",
            "version": .string(ServerVersion.text),
            "openapi": .string(ControlRoute.openAPI.path),
            "routes": .array(
                allCases.map { route in
                    var object: JSONObject = [
                        "method": .string(route.method), "path": .string(route.path), "summary": .string(route.summary),
                    ]
                    if !route.queryParameters.isEmpty {
                        object["query"] = .array(route.queryParameters.map(JSONValue.string))
                    }
                    return .object(object)
                }),
        ]
    }
}
