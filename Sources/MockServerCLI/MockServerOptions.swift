import CLISupport
import MockServer
import MockSessions
import WireSocket

/// The options of `mock-server` (serving), each declared once: name, type, default and help.
/// Defaults that the library shares come from `MockServer.Configuration`.
extension MockServerCommand {
    private static let library = MockServer.Configuration()

    static let host = DefaultedOption(
        "--host", valueName: "HOST", help: "Address to bind (loopback by default).", default: library.host,
        reader: .text)
    static let port = DefaultedOption(
        "--port", valueName: "PORT", help: "Port to bind; 0 picks a free port.", default: 8765,
        reader: .integer(in: 0...65535))
    static let apiKey = RepeatedOption(
        "--api-key", valueName: "KEY", help: "Accept only these API keys (default: any non-empty bearer credential).",
        reader: .text(complaint: "expected a non-empty key", where: { !$0.isEmpty }))
    static let controlToken = ValueOption(
        "--control-token", valueName: "TOKEN",
        help:
            "Require Authorization: Bearer TOKEN on the control API, from any host (default: the control API answers only on loopback).",
        reader: .text(
            complaint: "expected a non-empty token without spaces",
            where: { !$0.isEmpty && !$0.contains(where: \.isWhitespace) }))
    static let logLevel = DefaultedOption(
        "--log-level", valueName: "LEVEL",
        help: "\(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")) (logs go to stderr).",
        default: LogLevel.info,
        reader: .choice)
    static let logFormat = DefaultedOption(
        "--log-format", valueName: "FORMAT",
        help:
            "text (2026-12-07T12:34:56.789Z INFO message) or json (one object per line: time, level, message, session, testId).",
        default: LogFormat.text, reader: .choice)
    static let eventLoop = DefaultedOption(
        "--event-loop", valueName: "LOOP",
        help: "libev (epoll; poll when its lws plugin is missing), poll, or libuv.", default: library.eventLoop,
        reader: .choice)
    static let scenario = ValueOption(
        "--scenario", valueName: "NAME|FILE",
        help: "Scenario for new sessions: a shipped name (see --list-scenarios) or a JSON file.")
    static let record = ValueOption(
        "--record", valueName: "DIR", help: "Write each session's journal to DIR/<session-id>.jsonl (DIR is created).")
    static let seed = ValueOption(
        "--seed", valueName: "N", help: "Override the scenario's seed (same seed, same input: same frames).",
        reader: .unsignedInteger)
    static let timeScale = ValueOption(
        "--time-scale", valueName: "X", help: "Multiply policy timeouts (60 s, 20 s, session caps) by X, e.g. 0.01.",
        reader: .number(in: 0.000_001...1000))
    static let replay = ValueOption(
        "--replay", valueName: "FILE",
        help: "Serve a recorded journal (JSON Lines, from --record) back on the protocol routes.")
    static let replayTimeScale = DefaultedOption(
        "--replay-time-scale", valueName: "X", help: "Multiply the replayed delays by X (1: original timing).",
        default: 1, reader: .number(in: 0.000_001...1000))
    static let proxyUpstream = ValueOption(
        "--proxy-upstream", valueName: "URL",
        help:
            "Forward the protocol routes to wss://HOST[:PORT] (or ws://), journaling both sides; the client's headers go upstream."
    )
    static let proxyUpstreamInsecure = FlagOption(
        "--proxy-upstream-insecure", help: "Accept a self-signed or mismatched upstream certificate (tests only).")
    static let threads = ValueOption(
        "--threads", valueName: "N",
        help: "Service threads sharing the port; a session stays on one (default: one per core).",
        reader: .integer(in: 1...256))
    static let journalLimit = DefaultedOption(
        "--journal-limit", valueName: "N", help: "Frames kept in memory per session journal; later ones are counted.",
        default: library.journalFrameLimit, reader: .integer(in: 0...100_000_000))
    static let journalAudio = FlagOption(
        "--journal-audio", help: "Keep audio payloads in journals and recordings (default: a summary per audio frame).")
    static let maxSessions = DefaultedOption(
        "--max-sessions", valueName: "N", help: "Most sessions open at once; more upgrades get HTTP 503.",
        default: library.maxSessions, reader: .integer(in: 1...1_000_000))
    static let keepSessions = DefaultedOption(
        "--keep-sessions", valueName: "N",
        help: "Closed sessions whose journals stay listed and readable (oldest dropped first).",
        default: library.keepClosedSessions, reader: .integer(in: 0...10_000_000))
    static let handshakeTimeout = DefaultedOption(
        "--handshake-timeout", valueName: "S",
        help: "Seconds a connection has to finish its HTTP upgrade before it is dropped.",
        default: library.handshakeTimeoutSeconds, reader: .integer(in: 1...3600))
    static let keepSessionsBytes = DefaultedOption(
        "--keep-sessions-bytes", valueName: "N",
        help: "Most bytes the kept closed journals hold together (oldest dropped first).",
        default: library.keepClosedSessionBytes, reader: .integer(in: 0...(1 << 50)))
    static let maxQueuedBytes = DefaultedOption(
        "--max-queued-bytes", valueName: "N",
        help: "Bytes queued for a client that does not read before its session is closed (1008).",
        default: library.maxQueuedBytes, reader: .integer(in: 65_536...(1 << 40)))
    static let checkScenario = ValueOption(
        "--check-scenario", valueName: "FILE", help: "Validate a scenario file and exit (0 valid, 2 invalid).")
    static let listScenarios = FlagOption("--list-scenarios", help: "Print the shipped scenario names and exit.")
    static let version = FlagOption("--version", help: "Print the version and exit.")

    /// Every option, in the order help lists them.
    static let options: [any DeclaredOption] = [
        host, port, apiKey, controlToken, logLevel, logFormat, eventLoop, scenario, record, seed, timeScale, replay,
        replayTimeScale, proxyUpstream, proxyUpstreamInsecure, threads, journalLimit, journalAudio, maxSessions,
        keepSessions, handshakeTimeout, keepSessionsBytes, maxQueuedBytes, checkScenario, listScenarios, version,
    ]
}
