package import AnswerAudio
import Dispatch
package import MockSessions
import ProtocolModel
package import ScenarioEngine
import WireAudio
import WireJSON
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
        case .route(let route, let parameters) where route.takesScenarioFile:
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
        if let own = ControlRoute.matching(parts).first(where: {
            $0.route.checksAccessItself && $0.route.method == method
        }) {
            return .route(own.route, parameters: own.parameters)
        }
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
            return HTTPResponse(status: 200, contentType: "application/x-ndjson", text: journal.jsonLines(from: from))
        case .report:
            guard let journal = sessions.journal(parameters[0]) else {
                return .error(404, "NotFound", "no session \(parameters[0]); GET /_mock/sessions lists them")
            }
            guard let report = journal.lastEntry(ofKind: .report)?.json else {
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

}
