package import AnswerAudio
import Dispatch
package import MockSessions
import ProtocolModel
package import ScenarioEngine
import WireAudio
package import WireJSON
package import WireSocket

/// The HTTP control API under `/_mock/` (documented in mock-server/README.md).
package final class ControlAPI: Sendable {
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
        switch resolve(request.head) {
        case .answered(let response): response
        case .route(let route, let parameters): respond(to: request, route: route, parameters: parameters)
        }
    }

    /// Answers through `reply`: at once, except the routes that parse a scenario file, which is
    /// parsed on a worker thread (a file of a megabyte takes tens of milliseconds, a second in a
    /// debug build, and a service thread serves sessions meanwhile).
    package func respond(to request: HTTPRequest, reply: HTTPReply) {
        switch resolve(request.head) {
        case .answered(let response): reply(response)
        case .route(let route, let parameters) where route == .putScenario || route == .putTestScenario:
            DispatchQueue.global(qos: .userInitiated).async {
                reply(self.respond(to: request, route: route, parameters: parameters))
            }
        case .route(let route, let parameters): reply(respond(to: request, route: route, parameters: parameters))
        }
    }

    /// What routing a request gives: an answer already (refused access, no route, wrong method,
    /// bad query), or the route to run with its path parameters.
    private enum Resolution {
        case answered(HTTPResponse)
        case route(ControlRoute, parameters: [String])
    }

    private func resolve(_ head: HTTPRequestHead) -> Resolution {
        let path = head.path
        let method = head.method
        // Segments after "/_mock", empty ones kept: `/_mock/faults/` is no route (404), not `/_mock/faults`.
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        if parts == [""] { parts = [] }  // `/_mock/` is the index
        // The page checks access itself: `?token=` comes before the cookie exists.
        if parts == ControlRoute.dashboard.template && method == "GET" { return .answered(dashboardPage(head)) }
        if let refusal = ControlAccess.refusal(head, token: controlToken, isHealth: parts == ["health"]) {
            return .answered(refusal)
        }
        let candidates = ControlRoute.matching(parts)
        guard !candidates.isEmpty else {
            return .answered(.error(404, "NotFound", "no control route \(method) \(path); GET /_mock/ lists them"))
        }
        guard let (route, parameters) = candidates.first(where: { $0.route.method == method }) else {
            var response = HTTPResponse.error(
                405, "MethodNotAllowed",
                "\(method) not allowed on \(path); use "
                    + candidates.map(\.route.method).joined(separator: ", "))
            response.headers.append(("Allow", candidates.map(\.route.method).joined(separator: ", ")))
            return .answered(response)
        }
        if let refusal = ControlQuery.refusal(head, route: route) { return .answered(refusal) }
        return .route(route, parameters: parameters)
    }

    private func respond(to request: HTTPRequest, route: ControlRoute, parameters: [String]) -> HTTPResponse {
        let path = request.head.path
        let query = request.head
        switch route {
        case .index: return .json(status: 200, ControlRoute.listing)
        case .openAPI: return .json(status: 200, ControlAPIDocument.document)
        case .health: return .json(status: 200, health())
        case .metrics:
            return HTTPResponse(
                status: 200, contentType: "text/plain; version=0.0.4",
                text: metrics.prometheusText + AnswerAudioMetrics.prometheusText(answerAudio.statistics)
                    + scenarios.prometheusText)
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
        case .listTests: return .json(status: 200, ["tests": .array(testSummaries())])
        case .getTestScenario:
            guard let scenario = scenarios.testScenario(parameters[0]) else { return noTestScenario(parameters[0]) }
            return .json(status: 200, ScenarioStore.description(scenario))
        case .putTestScenario: return putTestScenario(request.body, testID: parameters[0])
        case .removeTestScenario:
            guard scenarios.removeTestScenario(parameters[0]) else { return noTestScenario(parameters[0]) }
            return .json(status: 200, ["status": "removed", "testId": .string(parameters[0])])
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
        let testScenarios = scenarios.removeAllTestScenarios()
        return .json(
            status: 200,
            [
                "status": "reset", "faultsRemoved": .int(Int64(faults.count)),
                "sessionsForgotten": .int(Int64(forgotten)), "refusalsForgotten": .int(Int64(refusalsForgotten)),
                "testScenariosRemoved": .int(Int64(testScenarios)), "scenario": .string(scenarios.current.name),
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
        let scenario: Scenario
        switch loadScenario(body) {
        case .success(let loaded): scenario = loaded
        case .failure(let refusal): return refusal.response
        }
        scenarios.replace(with: scenario)
        scenarioInstalled(scenario)
        return .json(status: 200, ["status": "ok", "scenario": .string(scenario.name)])
    }

    /// `PUT /_mock/tests/{testId}/scenario`: the body is a scenario file; it serves the sessions
    /// opened afterwards with that test id (``ScenarioStore/TestLimits`` bound how many and how big).
    private func putTestScenario(_ body: [UInt8], testID: String) -> HTTPResponse {
        guard !testID.isEmpty else {
            return .error(400, "InvalidRequest", "the test id in /_mock/tests/{testId}/scenario is empty")
        }
        // Checked before parsing too, which is long for a large file.
        let limit = scenarios.testLimits.fileBytes
        guard body.count <= limit else { return tooLarge(bytes: body.count, limit: limit) }
        let loaded: Scenario
        switch loadScenario(body) {
        case .success(let scenario): loaded = scenario
        case .failure(let refusal): return refusal.response
        }
        let armed: Scenario
        do throws(ScenarioStore.TestLimitError) {
            armed = try scenarios.arm(loaded, bytes: body.count, forTest: testID)
        } catch {
            switch error {
            case .fileTooLarge(let bytes, let limit): return tooLarge(bytes: bytes, limit: limit)
            case .full(let count, let bytes, let limits):
                return .error(
                    409, "TooManyTestScenarios",
                    "\(count) per-test scenarios of \(bytes) bytes are armed; at most \(limits.count) of "
                        + "\(limits.totalBytes) bytes together: DELETE /_mock/tests/{testId}/scenario or POST /_mock/reset first"
                )
            }
        }
        scenarioInstalled(armed)
        return .json(status: 200, ["testId": .string(testID), "scenario": ScenarioStore.description(armed)])
    }

    /// 413 for a per-test scenario file over ``ScenarioStore/TestLimits/fileBytes``.
    private func tooLarge(bytes: Int, limit: Int) -> HTTPResponse {
        .error(413, "PayloadTooLarge", "a per-test scenario file holds at most \(limit) bytes; this one has \(bytes)")
    }

    /// A scenario file from a request body, or the 400 that says what is wrong with it.
    private func loadScenario(_ body: [UInt8]) -> Result<Scenario, Refusal> {
        do {
            let scenario = try Scenario.load(bytes: body, file: "request body")
            if let step = scenario.replay?.firstIndex(where: { $0.audioFile != nil }) {
                // Audio files are read when the server starts (--scenario), never on a service thread.
                return .failure(
                    Refusal(
                        response: .error(
                            400, "InvalidScenario",
                            "request body: replay.steps[\(step)].audioFile: audio files are read at start-up only; serve this scenario with --scenario"
                        )))
            }
            return .success(scenario)
        } catch {
            return .failure(Refusal(response: .error(400, "InvalidScenario", error.description)))
        }
    }

    /// An error response as a `Result` failure.
    private struct Refusal: Error {
        let response: HTTPResponse
    }

    private func noTestScenario(_ testID: String) -> HTTPResponse {
        .error(404, "NotFound", "no scenario armed for test \(testID); PUT /_mock/tests/\(testID)/scenario arms one")
    }

    /// `GET /_mock/tests`: every test id with a per-test scenario or an armed fault, sorted.
    private func testSummaries() -> [JSONValue] {
        let names = scenarios.testScenarioNames
        var faults: [String: Int] = [:]
        for fault in sessions.faults {
            if case .testID(let testID) = fault.target { faults[testID, default: 0] += 1 }
        }
        var counts: [String: Int] = [:]
        for journal in sessions.all {
            if let testID = journal.testID, names[testID] != nil || faults[testID] != nil {
                counts[testID, default: 0] += 1
            }
        }
        return Set(names.keys).union(faults.keys).sorted().map { testID in
            [
                "testId": .string(testID), "scenario": names[testID].map(JSONValue.string) ?? .null,
                "faults": .int(Int64(faults[testID] ?? 0)), "sessions": .int(Int64(counts[testID] ?? 0)),
            ]
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
