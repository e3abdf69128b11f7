import AnswerAudio
import MockCapture
import MockControl
import MockSessions
import MultiModalDialogEngine
import ProtocolModel
import QwenRealtimeEngine
import ScenarioEngine
import SessionCore
import WireJSON
import WireSocket

/// Routes every request of the mock's single port, for every service thread at once: the
/// state it shares (sessions, metrics, scenarios, dialog memory) is thread-safe, and what it
/// holds itself is set before the servers start.
final class Router: WebSocketServerDelegate, @unchecked Sendable {
    let configuration: MockServer.Configuration
    let controlAPI: ControlAPI
    let sessions: SessionRegistry
    /// Per-dialog memory shared by multimodal sessions (dialog_id resume, S21).
    let dialogMemory = DialogMemory()
    /// Sessions started per route key: each session's ids are drawn for its ordinal.
    let sessionOrdinals = SessionOrdinals()
    let metrics = ServerMetrics()
    /// Refused upgrades, for `GET /_mock/refusals` and the conformance case they were for.
    let refusedUpgrades = RefusedUpgrades()
    let scenarios: ScenarioStore
    /// Answer audio, rendered once per distinct answer on worker threads and shared.
    let answerAudio = AnswerAudioCache.shared
    /// Writes the `--record` files (nil without `--record`).
    let recordWriter: RecordWriter?
    /// `--proxy-upstream`: protocol routes are forwarded there (nil: the engines serve them).
    let proxy: ProxyClient?

    init(configuration: MockServer.Configuration) throws(ScenarioFileError) {
        sessions = SessionRegistry(
            closedLimit: configuration.keepClosedSessions,
            closedByteLimit: configuration.keepClosedSessionBytes)
        self.configuration = configuration
        proxy = configuration.proxyUpstream.map { ProxyClient(upstream: $0, eventLoop: configuration.eventLoop) }
        recordWriter = configuration.recordDirectory.map { RecordWriter(directory: $0, logger: configuration.logger) }
        let source = configuration.scenarioSource ?? ("default", Array(EmbeddedScenarios.files["default"]!.utf8))
        do {
            scenarios = ScenarioStore(
                initial: try ReplayAudioFiles.resolve(
                    try Scenario.load(bytes: source.bytes, file: source.name), file: source.name,
                    directory: configuration.scenarioDirectory),
                timeScaleOverride: configuration.timeScale)
        } catch let error as ScenarioFileError {
            throw error
        } catch {
            throw ScenarioFileError(description: "\(error)")
        }
        let answerAudio = answerAudio
        controlAPI = ControlAPI(
            controlToken: configuration.controlToken, eventLoop: configuration.eventLoop.rawValue,
            threads: configuration.threads, sessions: sessions, metrics: metrics, scenarios: scenarios,
            answerAudio: answerAudio, refusedUpgrades: refusedUpgrades,
            scenarioInstalled: { AnswerPrefetch.start($0, cache: answerAudio) })
        AnswerPrefetch.start(scenarios.current, cache: answerAudio)
        if let replay = configuration.replay {
            replayScenario = Scenario.replay(
                journal: try JournalFile.entries(replay.text, file: replay.name), timeScale: replay.timeScale,
                name: replay.name)
        }
        var parsed = configuration.parsedCaseScenarios
        for (id, source) in configuration.caseScenarios {
            do {
                parsed[id] = try Scenario.load(bytes: source.bytes, file: source.name)
            } catch {
                throw ScenarioFileError(description: error.description)
            }
        }
        for (id, var scenario) in parsed {
            if let timeScale = configuration.timeScale { scenario.timeScale = timeScale }
            caseScenarios[id] = scenario
            AnswerPrefetch.start(scenario, cache: answerAudio)
        }
    }

    /// The largest message a protocol route (or a replay) reassembles; a larger one closes the
    /// session with 1009. Both protocols' biggest real frames (an image, a video frame, a
    /// second of audio in base64) are well under it.
    static let maxProtocolMessageBytes = 16 << 20

    /// The replay scenario of `--replay`, if any.
    private(set) var replayScenario: Scenario?

    /// Scenarios of conformance cases by case id.
    private(set) var caseScenarios: [String: Scenario] = [:]

    /// The scenario for a session on `route`: the case's, or the current one. Nil for an
    /// unknown case id.
    func scenario(for route: ProtocolRoute) -> Scenario? {
        guard let caseID = route.caseID else { return scenarios.current }
        return caseScenarios[caseID]
    }

    /// Extra WebSocket routes by exact path (tests install protocol doubles here before start).
    var extraRoutes: [String: (HTTPRequestHead) -> UpgradeDecision] = [:]

    func upgrade(_ request: HTTPRequestHead) -> UpgradeDecision {
        configuration.logger(.debug, "upgrade \(request.path) from \(request.peer)")
        if let route = extraRoutes[request.path] { return route(request) }
        if let proxy, let route = ProtocolRoute(request) {
            return upgradeProxied(route, request, proxy: proxy)
        }
        if let replayScenario, let route = ProtocolRoute(request) {
            return startSession(
                ReplaySession(runtime: makeRuntime(replayScenario, for: request, route: nil), protocol: route.kind),
                protocolName: "replay",
                request: request,
                maxMessageBytes: Self.maxProtocolMessageBytes)
        }
        if let route = ProtocolRoute(request) {
            return upgradeProtocol(route, request)
        }
        switch request.path {
        case ControlRoute.echo.path:
            return .accept(EchoHandler(), maxMessageBytes: nil)
        case ControlRoute.dashboardLive.path:
            if let refusal = ControlAccess.refusal(request, token: configuration.controlToken, isHealth: false) {
                return .reject(refusal)
            }
            // A page of another site may not read the feed (browsers send Origin on every upgrade).
            if let origin = request.header("origin"), let host = request.header("host"),
                origin != "http://\(host)" && origin != "https://\(host)"
            {
                return .reject(.error(403, "Forbidden", "the live feed answers the dashboard's own origin only"))
            }
            return .accept(DashboardFeed(events: sessions.events), maxMessageBytes: 4096)
        default:
            return refuse(
                request, status: 404, body: HTTPResponse.errorBody("NotFound", "no WebSocket route at \(request.path)"))
        }
    }

    /// Keeps a refused upgrade (or a plain request on a protocol route) in ``refusedUpgrades``
    /// with the test id and case it carried, and logs it. `obligation` defaults to the connect
    /// obligation of the protocol on the path.
    func recordRefusal(
        _ request: HTTPRequestHead, status: Int, body: JSONValue, obligation: String? = nil,
        logLevel: LogLevel = .info
    ) {
        let route = ProtocolRoute(request)
        let reason = [body["code"]?.stringValue, body["message"]?.stringValue].compactMap { $0 }.joined(
            separator: ": ")
        let refusal = RefusedUpgrades.Refusal(
            atMicros: MonotonicClock.nowMicros(), wallMicros: WallClock.nowMicros(), path: request.path,
            testID: request.testID, caseID: route?.caseID, dialogProtocol: route?.kind, status: status,
            obligation: obligation ?? route?.kind.connectObligation, reason: reason.isEmpty ? "HTTP \(status)" : reason)
        configuration.logger(
            logLevel,
            "refused \(request.path)\(refusal.testID.map { " (test \($0))" } ?? ""): \(status) (\(refusal.reason))")
        refusedUpgrades.record(refusal)
        sessions.events.post("refusal", ["path": .string(request.path), "status": .int(Int64(status))])
    }

    /// Refuses an upgrade with `status` and the JSON `body`, kept and logged (``recordRefusal``).
    func refuse(
        _ request: HTTPRequestHead, status: Int, body: JSONValue, obligation: String? = nil,
        logLevel: LogLevel = .info
    ) -> UpgradeDecision {
        recordRefusal(request, status: status, body: body, obligation: obligation, logLevel: logLevel)
        return .reject(.json(status: status, body))
    }

    /// A protocol route: the engine checks the request (auth, model), then a session starts with
    /// the case's scenario or the current one.
    private func upgradeProtocol(_ route: ProtocolRoute, _ request: HTTPRequestHead) -> UpgradeDecision {
        // A cheap early refusal under a flood (no engine is built); `startSession` decides atomically.
        guard sessions.openCount < configuration.maxSessions else { return refuseAtCapacity(request) }
        guard let scenario = scenario(for: route) else {
            return refuse(
                request, status: 404,
                body: HTTPResponse.errorBody("NotFound", "no conformance case \(route.caseID ?? "") on this server"))
        }
        if scenario.replay != nil {  // a recorded session (record-to-scenario) is served as recorded
            return startSession(
                ReplaySession(runtime: makeRuntime(scenario, for: request, route: route), protocol: route.kind),
                protocolName: route.kind.rawValue, request: request,
                caseID: route.caseID, maxMessageBytes: Self.maxProtocolMessageBytes)
        }
        return upgradeEngine(route, request, scenario: scenario)
    }

    /// HTTP 503 with a JSON body: `--max-sessions` sessions are open.
    func refuseAtCapacity(_ request: HTTPRequestHead) -> UpgradeDecision {
        metrics.sessionRefusedAtCapacity()
        return refuse(
            request, status: 503,
            body: HTTPResponse.errorBody(
                "ServiceUnavailable",
                "the mock serves at most \(configuration.maxSessions) sessions at once (--max-sessions)"),
            logLevel: .warn)
    }

    /// Accepts an upgrade as a protocol session: journal, driver, registry.
    func startSession<Session: ProtocolSession>(
        _ session: Session, protocolName: String, request: HTTPRequestHead,
        caseID: String? = nil, maxMessageBytes: Int,
        initialNotes: [JournalNote] = []
    ) -> UpgradeDecision {
        let testID = request.testID
        let driver = SessionDriver(session: session, metrics: metrics, logger: configuration.logger)
        driver.initialNotes = initialNotes + Self.workspaceNotes(request)
        // Recordings are for replay: they keep the payloads.
        driver.journalAudio = configuration.journalAudio || configuration.recordDirectory != nil
        driver.maxQueuedBytes = configuration.maxQueuedBytes
        // Faults armed from the control API (any thread) run on the session's service thread.
        let serviceThread = request.serviceThread
        let armHere = ServiceThreadBound<(FaultSpec) -> Void>({ [weak driver] fault in driver?.arm(fault) })
        let disarmHere = ServiceThreadBound<(String) -> Void>({ [weak driver] id in driver?.disarm(faultID: id) })
        let control = SessionRegistry.SessionControl(
            arm: { fault in
                if let serviceThread { serviceThread.execute { armHere.value(fault) } } else { armHere.value(fault) }
            },
            disarm: { id in
                if let serviceThread { serviceThread.execute { disarmHere.value(id) } } else { disarmHere.value(id) }
            })
        let made = sessions.add(
            limit: configuration.maxSessions,
            { id in
                SessionJournal(
                    id: id, protocolName: protocolName, path: request.path, testID: testID, caseID: caseID,
                    startedAtMicros: MonotonicClock.nowMicros(), recordWriter: recordWriter,
                    frameLimit: configuration.journalFrameLimit, events: sessions.events)
            }, control: control, armNow: armHere.value)
        guard let journal = made else { return refuseAtCapacity(request) }
        driver.journal = journal
        let id = journal.id
        driver.onClose = { [sessions] in sessions.markClosed(id) }
        configuration.logger(
            .info, "session \(id): \(protocolName) \(request.path)\(testID.map { " test \($0)" } ?? "")")
        return .accept(driver, maxMessageBytes: maxMessageBytes)
    }

    /// Issue 40 row 12: `X-DashScope-WorkSpace` (a workspace the key belongs to) is accepted on
    /// both protocols and noted in the session's log; the mock serves every workspace, and never checks the host
    /// (`{WorkspaceId}.cn-beijing.maas.aliyuncs.com` and the like reach it as any other).
    static func workspaceNotes(_ request: HTTPRequestHead) -> [JournalNote] {
        guard let workspace = request.header("x-dashscope-workspace") else { return [] }
        return [.info("X-DashScope-WorkSpace \"\(workspace)\" accepted (the mock serves every workspace)")]
    }

    /// A fresh scenario runtime for a new session (`--seed` applied) on `route` (nil: a replay);
    /// its ids are those of the next ordinal under the session's test id, case or plain route.
    func makeRuntime(
        _ scenario: Scenario, for request: HTTPRequestHead, route: ProtocolRoute?
    ) -> ScenarioRuntime<MonotonicScenarioClock> {
        let ordinal = sessionOrdinals.next(SessionOrdinals.key(testID: request.testID, caseID: route?.caseID))
        return ScenarioRuntime(
            scenario: scenario, clock: MonotonicScenarioClock(), seed: configuration.seed, sessionOrdinal: ordinal)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        configuration.logger(.debug, "\(request.head.method) \(request.head.path)")
        if request.head.path.hasPrefix("/_mock/") || request.head.path == "/_mock" {
            return controlAPI.respond(to: request)
        }
        if request.head.path == "/" && request.head.method == "GET" { return controlAPI.dashboardPage(request.head) }
        if ProtocolRoute(request.head) != nil {
            // A client that did not ask for the upgrade never reached the protocol: a refusal too.
            recordRefusal(request.head, status: 426, body: HTTPResponse.upgradeRequiredBody(request.head.path))
            return .upgradeRequired(request.head.path)
        }
        return .json(
            status: 404,
            ["code": "NotFound", "message": .string("no route \(request.head.method) \(request.head.path)")])
    }
}

extension HTTPRequestHead {
    /// The test id a session is filed under: `X-Test-Id`, else `?test_id=`.
    var testID: String? { header("x-test-id") ?? queryItem("test_id") }
}
