package import AnswerAudio
package import MockSessions
import ProtocolModel
package import ScenarioEngine
import WireAudio
package import WireJSON
package import WireSocket

/// The HTTP control API under `/_mock/` (documented in mock-server/README.md).
package final class ControlAPI {
    /// `--control-token`: every route but health requires `Authorization: Bearer <token>`.
    package let controlToken: String?
    /// The service threads' event loop and their count, as health reports them.
    package let eventLoop: String
    package let threads: Int
    /// Called with each scenario `PUT /_mock/scenario` installs (the server prefetches its answers).
    package let scenarioInstalled: @Sendable (Scenario) -> Void
    package let sessions: SessionRegistry
    package let metrics: ServerMetrics
    package let scenarios: ScenarioStore
    package let answerAudio: AnswerAudioCache
    package let refusedUpgrades: RefusedUpgrades

    package init(
        controlToken: String?, eventLoop: String, threads: Int, sessions: SessionRegistry, metrics: ServerMetrics,
        scenarios: ScenarioStore, answerAudio: AnswerAudioCache, refusedUpgrades: RefusedUpgrades,
        scenarioInstalled: @escaping @Sendable (Scenario) -> Void
    ) {
        self.controlToken = controlToken
        self.eventLoop = eventLoop
        self.threads = threads
        self.scenarioInstalled = scenarioInstalled
        self.refusedUpgrades = refusedUpgrades
        self.answerAudio = answerAudio
        self.sessions = sessions
        self.metrics = metrics
        self.scenarios = scenarios
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let path = request.head.path
        let method = request.head.method
        // Segments after "/_mock", empty ones kept: `/_mock/faults/` is no route (404), not `/_mock/faults`.
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        if parts == [""] { parts = [] }  // `/_mock/` is the index
        // The page checks access itself: `?token=` comes before the cookie exists.
        if parts == ControlRoute.dashboard.template && method == "GET" { return dashboardPage(request.head) }
        if let refusal = ControlAccess.refusal(
            request.head, token: controlToken, isHealth: parts == ["health"])
        {
            return refusal
        }
        let candidates = ControlRoute.matching(parts)
        guard !candidates.isEmpty else {
            return .error(404, "NotFound", "no control route \(method) \(path); GET /_mock/ lists them")
        }
        guard let (route, parameters) = candidates.first(where: { $0.route.method == method }) else {
            var response = HTTPResponse.error(
                405, "MethodNotAllowed",
                "\(method) not allowed on \(path); use "
                    + candidates.map(\.route.method).joined(separator: ", "))
            response.headers.append(("Allow", candidates.map(\.route.method).joined(separator: ", ")))
            return response
        }
        if let refusal = ControlQuery.refusal(request.head, route: route) { return refusal }
        let query = request.head
        switch route {
        case .index: return .json(status: 200, ControlRoute.listing)
        case .openAPI: return .json(status: 200, ControlAPIDocument.document)
        case .health: return .json(status: 200, health())
        case .metrics:
            return HTTPResponse(
                status: 200, contentType: "text/plain; version=0.0.4",
                text: metrics.prometheusText + AnswerAudioMetrics.prometheusText(answerAudio.statistics))
        case .sessions: return listSessions(query)
        case .journal:
            guard let journal = sessions.journal(parameters[0]) else {
                return .error(404, "NotFound", "no session \(parameters[0]); GET /_mock/sessions lists them")
            }
            guard let from = Self.journalStart(query) else {
                return .error(
                    400, "InvalidRequest",
                    "from: expected an entry index (0, 1, …); got \"\(query.queryItem("from") ?? "")\"")
            }
            if from == 0 {
                return HTTPResponse(status: 200, contentType: "application/x-ndjson", text: journal.jsonLines)
            }
            return HTTPResponse(
                status: 200, contentType: "application/x-ndjson",
                text: JournalEntry.encodeLines(Array(journal.entries.dropFirst(from))))
        case .report:
            guard let journal = sessions.journal(parameters[0]) else {
                return .error(404, "NotFound", "no session \(parameters[0]); GET /_mock/sessions lists them")
            }
            guard let report = journal.entries.last(where: { $0.kind == .report })?.json else {
                let why = journal.isOpen ? "is still open" : "journaled none (its scenario has no sessionReport policy)"
                return .error(404, "NoReport", "session \(parameters[0]) has no report: it \(why)")
            }
            return .json(status: 200, report)
        case .refusals: return listRefusals(query)
        case .getScenario: return .json(status: 200, scenarios.currentDescription)
        case .putScenario: return putScenario(request.body)
        case .listFaults:
            return .json(status: 200, ["faults": .array(sessions.faults.filter(faultFilter(query)).map(\.summary))])
        case .armFault: return postFault(request.body)
        case .removeFaults: return removed(sessions.removeFaults(where: faultFilter(query)))
        case .removeFault:
            let removed = sessions.removeFaults { $0.id == parameters[0] }
            guard !removed.isEmpty else {
                return .error(404, "NotFound", "no armed fault \(parameters[0]); GET /_mock/faults lists them")
            }
            return self.removed(removed)
        case .reset: return reset()
        case .echo, .dashboardLive: return .upgradeRequired(path)
        case .faultKinds: return .json(status: 200, Self.faultKinds)
        case .dashboard: return dashboardPage(request.head)
        case .dashboardAsset: return dashboardFile(parameters[0])
        }
    }

    /// `from` of `GET /_mock/sessions/<id>/journal?from=N` (0 without it); nil when it is no index.
    private static func journalStart(_ query: HTTPRequestHead) -> Int? {
        guard let text = query.queryItem("from") else { return 0 }
        guard let from = Int(text), from >= 0 else { return nil }
        return from
    }

    /// `GET /_mock/sessions[?testId=][&caseId=][&open=true|false]`.
    private func listSessions(_ query: HTTPRequestHead) -> HTTPResponse {
        var open: Bool?
        if let text = query.queryItem("open") {
            guard let value = Bool(text) else {
                return .error(400, "InvalidRequest", "open: expected true or false; got \"\(text)\"")
            }
            open = value
        }
        let testID = query.queryItem("testId")
        let caseID = query.queryItem("caseId")
        let selected = sessions.all.filter { journal in
            (testID == nil || journal.testID == testID) && (caseID == nil || journal.caseID == caseID)
                && (open == nil || journal.isOpen == open)
        }
        return .json(status: 200, ["sessions": .array(selected.map(\.summary))])
    }

    /// `GET /_mock/refusals[?testId=][&caseId=]`.
    private func listRefusals(_ query: HTTPRequestHead) -> HTTPResponse {
        let testID = query.queryItem("testId")
        let caseID = query.queryItem("caseId")
        let selected = refusedUpgrades.refusals { refusal in
            (testID == nil || refusal.testID == testID) && (caseID == nil || refusal.caseID == caseID)
        }
        return .json(
            status: 200,
            [
                "refusals": .array(selected.map(\.summary)),
                "dropped": .int(Int64(refusedUpgrades.dropped)),
            ])
    }

    /// The faults `?testId=` / `?session=` select (all without either): those armed for that
    /// test id, those armed on that one session (`{"session": S}`).
    private func faultFilter(_ query: HTTPRequestHead) -> @Sendable (SessionRegistry.ArmedFault) -> Bool {
        let testID = query.queryItem("testId")
        let session = query.queryItem("session")
        return { fault in
            (testID.map { fault.target == .testID($0) } ?? true)
                && (session.map { fault.target == .session($0) } ?? true)
        }
    }

    private func removed(_ faults: [SessionRegistry.ArmedFault]) -> HTTPResponse {
        .json(status: 200, ["status": "removed", "removed": .array(faults.map { .string($0.id) })])
    }

    /// `POST /_mock/reset`: a clean slate for the next test, open sessions left alone.
    private func reset() -> HTTPResponse {
        let faults = sessions.removeFaults { _ in true }
        let forgotten = sessions.forgetClosedSessions()
        let refusalsForgotten = refusedUpgrades.forgetAll()
        scenarios.replace(with: scenarios.initial)
        return .json(
            status: 200,
            [
                "status": "reset", "faultsRemoved": .int(Int64(faults.count)),
                "sessionsForgotten": .int(Int64(forgotten)), "refusalsForgotten": .int(Int64(refusalsForgotten)),
                "scenario": .string(scenarios.current.name),
            ])
    }

    private func health() -> JSONValue {
        [
            "status": "ok",
            "version": .string(ServerVersion.text),
            "libraries": [
                "libwebsockets": .string(LibWebSocketsVersion.string),
                "jansson": .string(JanssonVersion.string),
                "opus": .string(AudioLibraryVersions.opus),
                "lame": .string(AudioLibraryVersions.lame),
            ],
            "eventLoop": .string(eventLoop),
            "threads": .int(Int64(max(1, threads))),
            "scenario": .string(scenarios.current.name),
        ]
    }

    /// `PUT /_mock/scenario`: the body is a scenario file; it serves every session opened after.
    private func putScenario(_ body: [UInt8]) -> HTTPResponse {
        do {
            let scenario = try Scenario.load(bytes: body, file: "request body")
            if let step = scenario.replay?.firstIndex(where: { $0.audioFile != nil }) {
                // Audio files are read when the server starts (--scenario), never on a service thread.
                return .error(
                    400, "InvalidScenario",
                    "request body: replay.steps[\(step)].audioFile: audio files are read at start-up only; serve this scenario with --scenario"
                )
            }
            scenarios.replace(with: scenario)
            scenarioInstalled(scenario)
            return .json(status: 200, ["status": "ok", "scenario": .string(scenario.name)])
        } catch {
            return .error(400, "InvalidScenario", error.description)
        }
    }

    /// `POST /_mock/faults`: `{"session": ID | "testId": ID, "fault": {…}}`.
    private func postFault(_ body: [UInt8]) -> HTTPResponse {
        let request: JSONValue
        do {
            request = try JSONValue.decode(body)
        } catch {
            return .error(400, "InvalidJSON", "request body:\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let object) = request, let faultValue = object["fault"] else {
            return .error(400, "InvalidRequest", "expected {\"session\": ID or \"testId\": ID, \"fault\": {…}}")
        }
        let fault: FaultSpec
        do {
            fault = try FaultSpec.load(bytes: faultValue.encoded(), file: "fault")
        } catch {
            return .error(400, "InvalidFault", error.description)
        }
        if let id = fault.id, id.isEmpty || id.contains("/") || id.contains("?") {
            return .error(
                400, "InvalidFault",
                "fault.id: a non-empty name without '/' or '?' (it is used in DELETE /_mock/faults/<id>); got \"\(id)\""
            )
        }
        do throws(SessionRegistry.ArmError) {
            switch (object["session"], object["testId"]) {
            case (.string(let id)?, nil):
                let armed = try sessions.arm(fault, json: faultValue, session: id)
                return .json(status: 200, ["status": "armed", "id": .string(armed.id), "session": .string(id)])
            case (nil, .string(let testID)?):
                let armed = try sessions.arm(fault, json: faultValue, testID: testID)
                return .json(
                    status: 200,
                    [
                        "status": "armed", "id": .string(armed.id), "testId": .string(testID),
                        "openSessions": .int(Int64(armed.sessions.count)),
                    ])
            default:
                return .error(
                    400, "InvalidRequest", "give exactly one of \"session\" (a session id) or \"testId\" (a string)")
            }
        } catch {
            switch error {
            case .noOpenSession(let id):
                return .error(404, "NotFound", "no open session \(id)")
            case .duplicateID(let id):
                return .error(
                    409, "Conflict", "a fault with id \(id) is armed already; DELETE /_mock/faults/\(id) first")
            }
        }
    }

}

extension SessionRegistry.ArmedFault {
    /// An entry of `GET /_mock/faults`.
    package var summary: JSONValue {
        var object: JSONObject = ["id": .string(id), "fault": json, "sessions": .array(sessions.map(JSONValue.string))]
        switch target {
        case .session(let session): object["session"] = .string(session)
        case .testID(let testID): object["testId"] = .string(testID)
        }
        return .object(object)
    }
}
