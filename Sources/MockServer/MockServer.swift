import Dispatch
package import MockCapture
import MockControl
public import MockSessions
package import ProtocolModel
package import ScenarioEngine
package import WireSocket

/// The logger of `Configuration.logger`: defined with the session driver that logs through it,
/// named here so that `import MockServer` is all an in-process user needs.
public typealias Logger = MockSessions.Logger
/// The levels of ``Logger``.
public typealias LogLevel = MockSessions.LogLevel
/// The line formats of ``Logger`` (`--log-format`).
public typealias LogFormat = MockSessions.LogFormat
/// A scenario file that does not load (``MockServer/init(configuration:)`` throws it).
public typealias ScenarioFileError = MockSessions.ScenarioFileError

/// The DialogMock server: both protocol routes, the control API and the echo route on one port.
///
/// Start it in-process from tests:
/// ```swift
/// let server = MockServer(configuration: .init())
/// let port = try server.start()      // binds 127.0.0.1 on a free port
/// defer { server.stop() }
/// ```
public final class MockServer: @unchecked Sendable {
    // @unchecked Sendable: `router` is thread-safe once started (tests may install routes
    // before `start()`); `servers` is set up in `start()` and only read afterwards.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port.
        public var port: UInt16 = 0
        /// The service threads' event loop: libev (epoll) by default; poll when its lws plugin
        /// is not installed.
        package var eventLoop: WebSocketServer.EventLoop = .libev
        /// Service threads (`--threads`): each runs its own lws context on the shared port and
        /// owns the sessions the kernel hands it; a session stays on one thread.
        public var threads = 1
        /// Accepted API keys; empty accepts any non-empty bearer credential.
        public var apiKeys: [String] = []
        /// `--control-token`: the control API requires `Authorization: Bearer <token>` from any
        /// host; nil = it answers only on loopback (``ControlAccess``).
        public var controlToken: String?
        public var logger = Logger(level: .warn)
        /// Directory for `--record`: each session's journal as `<session-id>.jsonl`.
        public var recordDirectory: String?
        /// Keep audio payloads (base64 `audio` / `delta` fields) in journals (`--journal-audio`);
        /// by default audio frames are journaled as summaries (bytes, duration, codec).
        public var journalAudio = false
        /// Frames kept in memory per session journal (`--journal-limit`); later frames are
        /// counted (`framesNotJournaled` in the session list). States, violations, faults and
        /// closes are always kept; `--record` files get every frame.
        public var journalFrameLimit = 10_000
        /// Most sessions open at once (`--max-sessions`); further upgrades get HTTP 503.
        public var maxSessions = 10_000
        /// Closed sessions kept with their journals (`--keep-sessions`); older ones are dropped.
        public var keepClosedSessions = 1000
        /// Seconds a connection has to complete its upgrade (`--handshake-timeout`); a slow or
        /// silent opener is dropped after it.
        public var handshakeTimeoutSeconds = 10
        /// Most journal bytes the kept closed sessions hold together (`--keep-sessions-bytes`,
        /// estimated: entries plus the frames they keep); the oldest go first.
        public var keepClosedSessionBytes = 256 << 20
        /// Most bytes queued for one client that does not read (`--max-queued-bytes`); beyond
        /// it the session is closed with 1008 and journaled, and other sessions go on.
        public var maxQueuedBytes = 8 << 20
        /// How many per-test scenarios (`PUT /_mock/tests/{testId}/scenario`) may be armed at once,
        /// how large each file and all of them together may be; beyond them arming gets a 4xx.
        package var testScenarioLimits = ScenarioStore.TestLimits()
        /// Overrides every scenario's seed (`--seed`).
        public var seed: UInt64?
        /// Overrides every scenario's time scale (`--time-scale`).
        public var timeScale: Double?
        /// The scenario for new sessions as file bytes and a name for messages; nil = the
        /// embedded default.
        public var scenarioSource: (name: String, bytes: [UInt8])?
        /// Where relative fixture paths of scenario answers resolve (the scenario's folder).
        public var scenarioDirectory: String = "."
        /// Scenarios of conformance cases: sessions on `/case/<id>/…` run the one registered for
        /// `<id>` (file bytes and a name for messages).
        package var caseScenarios: [String: (name: String, bytes: [UInt8])] = [:]
        /// Scenarios of conformance cases already parsed (the conformance harness hands its
        /// cases' scenarios over as values); used beside ``caseScenarios``.
        package var parsedCaseScenarios: [String: Scenario] = [:]
        /// A recorded journal (JSON Lines) to serve back on the protocol routes instead of the
        /// protocol engines, with its delays multiplied by `timeScale`.
        package var replay: (name: String, text: String, timeScale: Double)?
        /// `--proxy-upstream`: forward the protocol routes to this service and journal both
        /// sides, instead of serving them from the engines.
        package var proxyUpstream: ProxyUpstream?
        public init() {}
    }

    /// Validates a scenario file's bytes; the error reads `FILE:LINE:COLUMN: message`.
    package static func checkScenario(bytes: [UInt8], file: String) throws(ScenarioFileError) {
        do {
            _ = try Scenario.load(bytes: bytes, file: file)
        } catch {
            throw ScenarioFileError(description: error.description)
        }
    }

    /// The shipped scenarios' names (`--scenario NAME`).
    package static var shippedScenarioNames: [String] { EmbeddedScenarios.files.keys.sorted() }

    /// The text of a shipped scenario.
    package static func shippedScenario(named name: String) -> String? { EmbeddedScenarios.files[name] }

    public static let version = ServerVersion.text

    /// The configuration as served: its `eventLoop` is poll when the requested loop's lws plugin
    /// is missing (a warning says so).
    public let configuration: Configuration
    /// One server per service thread, all on the same port.
    private let servers: [WebSocketServer]
    /// With several service threads: the one listening socket that hands them connections.
    private var listener: SharedListener?
    let router: Router
    /// Compresses the journals of sessions gone quiet (idle ones) while serving.
    private let journalCompactor: JournalCompactor

    /// - Throws: `ScenarioFileError` when `configuration.scenarioSource` is not a valid scenario.
    public init(configuration: Configuration = Configuration()) throws(ScenarioFileError) {
        var configuration = configuration
        configuration.eventLoop = Self.resolve(
            configuration.eventLoop, isAvailable: \.isAvailable, logger: configuration.logger)
        self.configuration = configuration
        router = try Router(configuration: configuration)
        journalCompactor = JournalCompactor(registry: router.sessions)
        let router = router
        servers = (0..<max(1, configuration.threads)).map { _ in
            var socketConfiguration = WebSocketServer.Configuration()
            socketConfiguration.host = configuration.host
            socketConfiguration.port = configuration.port
            socketConfiguration.eventLoop = configuration.eventLoop
            socketConfiguration.handshakeTimeoutSeconds = Int32(configuration.handshakeTimeoutSeconds)
            socketConfiguration.ownsListener = configuration.threads == 1
            return WebSocketServer(configuration: socketConfiguration, delegate: router)
        }
    }

    /// `requested`, or poll (with a warning) when lws cannot load `requested`'s plugin here.
    static func resolve(
        _ requested: WebSocketServer.EventLoop, isAvailable: (WebSocketServer.EventLoop) -> Bool,
        logger: Logger
    ) -> WebSocketServer.EventLoop {
        guard !isAvailable(requested) else { return requested }
        logger(
            .warn,
            "the \(requested.rawValue) event loop is not available (\(requested.pluginPath ?? "") is missing: "
                + "install \(requested.pluginPackage ?? "its plugin")); serving on the poll loop")
        return .poll
    }

    /// Binds and starts serving (every service thread); returns the bound port.
    /// - Throws: `StartError` when the address cannot be bound.
    @discardableResult
    public func start() throws(StartError) -> UInt16 {
        do {
            let port = try startServing()
            journalCompactor.start()
            return port
        } catch {
            throw StartError(description: error.description)
        }
    }

    /// Why `start()` could not serve (the address cannot be bound, lws failed to start).
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private func startServing() throws(WebSocketError) -> UInt16 {
        let port: UInt16
        if servers.count == 1 {
            port = try servers[0].start()
        } else {
            for (index, server) in servers.enumerated() {
                do {
                    try server.start()
                } catch {
                    for started in servers.prefix(index) { started.stop() }
                    throw error
                }
            }
            do {
                let listener = try SharedListener(host: configuration.host, port: configuration.port, servers: servers)
                try listener.start()
                self.listener = listener
                port = listener.port
            } catch {
                for server in servers { server.stop() }
                throw error
            }
        }
        configuration.logger(
            .info,
            "listening on \(configuration.host):\(port) (\(configuration.eventLoop.rawValue), \(servers.count) threads)"
        )
        return port
    }

    /// The bound port (after `start()`).
    public var port: UInt16 { listener?.port ?? servers[0].port }

    /// `ws://HOST:PORT`, as printed on the ready line.
    public var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "ws://\(host):\(port)"
    }

    /// A session's journal as JSON Lines (`GET /_mock/sessions/<id>/journal`), or nil for an
    /// unknown id. Session ids are `s1`, `s2`, … in the order sessions opened.
    public func journal(session id: String) async -> String? {
        router.sessions.journal(id)?.jsonLines
    }

    /// How late every frame left relative to its scripted time (percentiles in µs); the finer
    /// view of what `dialogmock_send_lateness_seconds` aggregates.
    package func sendLateness() async -> SendLateness {
        router.metrics.lateness
    }

    /// Sessions open now on the protocol routes.
    public var openSessionCount: Int { router.sessions.openCount }

    /// Runs `work` once on every service thread (soon, between their events); returns how many.
    package func runOnServiceThreads(_ work: @escaping @Sendable () -> Void) -> Int {
        for server in servers { server.execute(work) }
        return servers.count
    }

    /// The service thread of every recorded session, in opening order (nil before it opened).
    func sessionThreads() -> [String?] { router.sessions.all.map(\.serviceThreadName) }

    /// What the server recorded of one session.
    package struct SessionSnapshot: Sendable {
        package let id: String
        package let caseID: String?
        /// When the session started, in CLOCK_MONOTONIC microseconds (journal `t` counts from here).
        package let startedAtMicros: Int64
        package let isOpen: Bool
        /// The journal's entries (``journal`` is their JSON Lines).
        package let entries: [JournalEntry]

        /// The journal as JSON Lines.
        package var journal: String { JournalEntry.encodeLines(entries) }
    }

    /// Every recorded session of a conformance case (`/case/<id>/…`), in the order they opened.
    package func sessions(caseID: String) async -> [SessionSnapshot] {
        router.sessions.all.filter { $0.caseID == caseID }.map {
            SessionSnapshot(
                id: $0.id, caseID: $0.caseID, startedAtMicros: $0.startedAtMicros, isOpen: $0.isOpen,
                entries: $0.entries)
        }
    }

    /// Returns once no session of conformance case `caseID` is open (at once when none is), or
    /// after `timeoutMillis`: the registry wakes it when the last one closes (no polling).
    package func sessionsClosed(caseID: String, timeoutMillis: Int) async {
        await router.sessions.waitUntilClosed(caseID: caseID, timeoutMillis: timeoutMillis)
    }

    /// An upgrade the mock refused on a conformance case's route (the client broke C1 there).
    package struct RefusedUpgrade: Sendable {
        /// When, in CLOCK_MONOTONIC microseconds.
        package let atMicros: Int64
        /// The obligation the refusal enforces (`mmd.C1`, `qrt.C1`).
        package let obligation: String
        /// What was refused and why (`upgrade refused with 401 (InvalidApiKey: …)`).
        package let message: String
    }

    /// Every upgrade refused on a conformance case's route, in order (the case's first 100,
    /// `RefusedUpgrades.keptPerOrigin`; `GET /_mock/refusals` lists them too).
    package func refusedUpgrades(caseID: String) -> [RefusedUpgrade] {
        // A case route is a protocol's path, so its refusals carry that protocol's connect obligation.
        router.refusedUpgrades.refusals(caseID: caseID).compactMap { refusal in
            refusal.obligation.map {
                RefusedUpgrade(atMicros: refusal.atMicros, obligation: $0, message: refusal.message)
            }
        }
    }

    /// Stops accepting, closes sessions with 1001, and returns when the service thread is gone.
    public func stop() {
        journalCompactor.stop()
        listener?.stop()
        DispatchQueue.concurrentPerform(iterations: servers.count) { servers[$0].stop(closeCode: .goingAway) }
        // The sessions' upstream connections got their closes; the proxy's client thread goes last.
        router.proxy?.client.shutdown()
        // A proxied session still waiting for its upstream's close ends here: none stays open.
        for journal in router.sessions.all where journal.isOpen {
            journal.markClosed()
            router.sessions.markClosed(journal.id)
        }
        // Every session is closed now: the record files get their last entries before stop returns.
        router.recordWriter?.finish()
        configuration.logger(.info, "stopped")
    }
}
