public import WireSocket
import ScenarioEngine

/// The DialogMock server: both protocol routes, the control API and the echo route on one port.
///
/// Start it in-process from tests:
/// ```swift
/// let server = MockServer(configuration: .init())
/// let port = try server.start()      // binds 127.0.0.1 on a free port
/// defer { server.stop() }
/// ```
public final class MockServer: @unchecked Sendable {
    // @unchecked Sendable: `router` is touched only on the service thread once started (tests
    // may install routes before `start()`); everything else is immutable or thread-safe.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port.
        public var port: UInt16 = 0
        public var eventLoop: WebSocketServer.EventLoop = .poll
        /// Accepted API keys; empty accepts any non-empty bearer credential.
        public var apiKeys: [String] = []
        public var logger = Logger(level: .warn)
        /// Directory for `--record`: each session's journal as `<session-id>.jsonl`.
        public var recordDirectory: String?
        /// Keep audio payloads (base64 `audio` / `delta` fields) in journals (`--journal-audio`);
        /// by default audio frames are journaled as summaries (bytes, duration, codec).
        public var journalAudio = false
        /// Most sessions open at once (`--max-sessions`); further upgrades get HTTP 503.
        public var maxSessions = 10_000
        /// Most bytes queued for one client that does not read (`--max-queued-bytes`); beyond
        /// it the session is closed with 1008 and journaled, and other sessions go on.
        public var maxQueuedBytes = 8 << 20
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
        public var caseScenarios: [String: (name: String, bytes: [UInt8])] = [:]
        /// A recorded journal (JSON Lines) to serve back on the protocol routes instead of the
        /// protocol engines, with its delays multiplied by `timeScale`.
        public var replay: (name: String, text: String, timeScale: Double)?
        public init() {}
    }

    /// Validates a scenario file's bytes; the error reads `FILE:LINE:COLUMN: message`.
    public static func checkScenario(bytes: [UInt8], file: String) throws(ScenarioFileError) {
        do {
            _ = try Scenario.load(bytes: bytes, file: file)
        } catch {
            throw ScenarioFileError(description: error.description)
        }
    }

    /// The shipped scenarios' names (`--scenario NAME`).
    public static var shippedScenarioNames: [String] { EmbeddedScenarios.files.keys.sorted() }

    /// The text of a shipped scenario.
    public static func shippedScenario(named name: String) -> String? { EmbeddedScenarios.files[name] }

    public static let version = "0.1.0"

    public let configuration: Configuration
    private let server: WebSocketServer
    let router: Router

    /// - Throws: `ScenarioFileError` when `configuration.scenarioSource` is not a valid scenario.
    public init(configuration: Configuration = Configuration()) throws(ScenarioFileError) {
        self.configuration = configuration
        var socketConfiguration = WebSocketServer.Configuration()
        socketConfiguration.host = configuration.host
        socketConfiguration.port = configuration.port
        socketConfiguration.eventLoop = configuration.eventLoop
        router = try Router(configuration: configuration)
        server = WebSocketServer(configuration: socketConfiguration, delegate: router)
    }

    /// Binds and starts serving; returns the bound port.
    /// - Throws: `WebSocketError` when the address cannot be bound.
    @discardableResult
    public func start() throws(WebSocketError) -> UInt16 {
        let port = try server.start()
        configuration.logger(.info, "listening on \(configuration.host):\(port) (\(configuration.eventLoop.rawValue))")
        return port
    }

    /// The bound port (after `start()`).
    public var port: UInt16 { server.port }

    /// `ws://HOST:PORT`, as printed on the ready line.
    public var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "ws://\(host):\(port)"
    }

    /// A session's journal as JSON Lines (`GET /_mock/sessions/<id>/journal`), or nil for an
    /// unknown id. Session ids are `s1`, `s2`, … in the order sessions opened.
    public func journal(session id: String) async -> String? {
        await withCheckedContinuation { continuation in
            // The router is only read on the service thread, where this closure runs.
            server.execute { [self] in continuation.resume(returning: router.sessions.records[id]?.journal.jsonLines) }
        }
    }

    /// How late each frame left relative to its scripted time (µs), in sending order (the first
    /// million frames); what `dialogmock_send_lateness_seconds` aggregates.
    public func sendLatenessMicros() async -> [Int64] {
        await withCheckedContinuation { continuation in
            server.execute { [self] in continuation.resume(returning: router.metrics.latenessSamples) }
        }
    }

    /// What the server recorded of one session.
    public struct SessionSnapshot: Sendable {
        public let id: String
        public let caseID: String?
        /// When the session started, in CLOCK_MONOTONIC microseconds (journal `t` counts from here).
        public let startedAtMicros: Int64
        public let isOpen: Bool
        /// The journal as JSON Lines.
        public let journal: String
    }

    /// Every recorded session of a conformance case (`/case/<id>/…`), in the order they opened.
    public func sessions(caseID: String) async -> [SessionSnapshot] {
        await withCheckedContinuation { continuation in
            server.execute { [self] in
                continuation.resume(returning: router.sessions.all.filter { $0.caseID == caseID }.map {
                    SessionSnapshot(id: $0.id, caseID: $0.caseID, startedAtMicros: $0.startedAtMicros, isOpen: $0.isOpen,
                                    journal: $0.jsonLines)
                })
            }
        }
    }

    /// Stops accepting, closes sessions with 1001, and returns when the service thread is gone.
    public func stop() {
        server.stop(closeCode: .goingAway)
        configuration.logger(.info, "stopped")
    }
}

/// A scenario file that does not load; `description` is `FILE:LINE:COLUMN: message`.
public struct ScenarioFileError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
