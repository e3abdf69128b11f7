import CLISupport
import Glibc
import MockServer
import WireSocket

/// `mock-server`: serves both protocols, the control API and the echo route on one port.
@main
enum MockServerCommand {
    static let spec = CommandSpec(
        name: "mock-server",
        abstract: "Mock server for the multimodal-dialog and Qwen realtime WebSocket protocols.",
        options: [
            .value("--host", valueName: "HOST", help: "Address to bind (loopback by default).", default: "127.0.0.1"),
            .value("--port", valueName: "PORT", help: "Port to bind; 0 picks a free port.", default: "8765"),
            .repeated(
                "--api-key", valueName: "KEY",
                help: "Accept only these API keys (default: any non-empty bearer credential)."),
            .value(
                "--control-token", valueName: "TOKEN",
                help:
                    "Require Authorization: Bearer TOKEN on the control API, from any host (default: the control API answers only on loopback)."
            ),
            .value(
                "--log-level", valueName: "LEVEL", help: "error, warn, info, debug or trace (logs go to stderr).",
                default: "info"),
            .value(
                "--event-loop", valueName: "LOOP",
                help: "libev (epoll; poll when its lws plugin is missing), poll, or libuv.", default: "libev"),
            .value(
                "--scenario", valueName: "NAME|FILE",
                help: "Scenario for new sessions: a shipped name (see --list-scenarios) or a JSON file."),
            .value(
                "--record", valueName: "DIR",
                help: "Write each session's journal to DIR/<session-id>.jsonl (DIR is created)."),
            .value(
                "--seed", valueName: "N", help: "Override the scenario's seed (same seed, same input: same frames)."),
            .value(
                "--time-scale", valueName: "X",
                help: "Multiply policy timeouts (60 s, 20 s, session caps) by X, e.g. 0.01."),
            .value(
                "--replay", valueName: "FILE",
                help: "Serve a recorded journal (JSON Lines, from --record) back on the protocol routes."),
            .value(
                "--replay-time-scale", valueName: "X",
                help: "Multiply the replayed delays by X (default 1: original timing).", default: "1"),
            .value(
                "--proxy-upstream", valueName: "URL",
                help:
                    "Forward the protocol routes to wss://HOST[:PORT] (or ws://), journaling both sides; the client's headers go upstream."
            ),
            .flag(
                "--proxy-upstream-insecure",
                help: "Accept a self-signed or mismatched upstream certificate (tests only)."),
            .value(
                "--threads", valueName: "N",
                help: "Service threads sharing the port; a session stays on one (default: one per core)."),
            .value(
                "--journal-limit", valueName: "N",
                help: "Frames kept in memory per session journal; later ones are counted.", default: "10000"),
            .flag(
                "--journal-audio",
                help: "Keep audio payloads in journals and recordings (default: a summary per audio frame)."),
            .value(
                "--max-sessions", valueName: "N", help: "Most sessions open at once; more upgrades get HTTP 503.",
                default: "10000"),
            .value(
                "--keep-sessions", valueName: "N",
                help: "Closed sessions whose journals stay listed and readable (oldest dropped first).", default: "1000"
            ),
            .value(
                "--handshake-timeout", valueName: "S",
                help: "Seconds a connection has to finish its HTTP upgrade before it is dropped.", default: "10"),
            .value(
                "--keep-sessions-bytes", valueName: "N",
                help: "Most bytes the kept closed journals hold together (oldest dropped first).", default: "268435456"),
            .value(
                "--max-queued-bytes", valueName: "N",
                help: "Bytes queued for a client that does not read before its session is closed (1008).",
                default: "8388608"),
            .value(
                "--check-scenario", valueName: "FILE", help: "Validate a scenario file and exit (0 valid, 2 invalid)."),
            .flag("--list-scenarios", help: "Print the shipped scenario names and exit."),
            .flag("--version", help: "Print the version and exit."),
        ],
        discussion: """
            `mock-server record-to-scenario JOURNAL [--out FILE]` turns a recorded session into a
            scenario that replays it; `mock-server compare-recordings OLD NEW
            [--timing-tolerance-ms N]` reports what changed between two recordings of a flow (see
            their --help).
            As soon as the server accepts connections, the first line on stdout is exactly
            `listening ws://HOST:PORT`. SIGINT or SIGTERM stops accepting, closes sessions with 1001
            and exits 0.
            """
    )

    static func main() {
        // Subcommands that do not serve (plain `mock-server [options]` serves).
        switch CommandLine.arguments.dropFirst().first {
        case RecordToScenarioCommand.word: RecordToScenarioCommand.main(Array(CommandLine.arguments.dropFirst(2)))
        case CompareRecordingsCommand.word:
            CompareRecordingsCommand.main(Array(CommandLine.arguments.dropFirst(2)))
        default: break
        }
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        if arguments.flag("--version") {
            printLine("mock-server \(MockServer.version)")
            exit(0)
        }
        if arguments.flag("--list-scenarios") {
            for name in MockServer.shippedScenarioNames { printLine(name) }
            exit(0)
        }
        if let file = arguments.value("--check-scenario") {
            checkScenarioAndExit(file)
        }
        var configuration = MockServer.Configuration()
        CommandLineRunner.valueOrExit(spec: spec) {
            configuration.host = arguments.value("--host") ?? "127.0.0.1"
            configuration.port = UInt16(try arguments.int("--port", range: 0...65535) ?? 8765)
            let level = try arguments.choice("--log-level", among: LogLevel.allCases.map(\.rawValue)) ?? "info"
            configuration.logger = Logger(level: LogLevel(rawValue: level)!)
            LibWebSocketsLog.setEnabled(configuration.logger.level >= .debug)
            if let name = try arguments.choice(
                "--event-loop", among: WebSocketServer.EventLoop.allCases.map(\.rawValue))
            {
                let loop = WebSocketServer.EventLoop(rawValue: name)!
                // Asked for by name: a missing plugin is an error; the default falls back to poll.
                guard loop.isAvailable || !arguments.isGiven("--event-loop") else {
                    throw CommandLineError(
                        "--event-loop \(name): \(loop.pluginPath ?? "its lws plugin") is missing (install \(loop.pluginPackage ?? "it"))",
                        commandPath: arguments.command)
                }
                configuration.eventLoop = loop
            }
            configuration.apiKeys = arguments.values("--api-key")
            if configuration.apiKeys.contains(where: \.isEmpty) {
                throw CommandLineError("--api-key: expected a non-empty key", commandPath: ["mock-server"])
            }
            if let token = arguments.value("--control-token") {
                guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
                    throw CommandLineError(
                        "--control-token: expected a non-empty token without spaces", commandPath: ["mock-server"])
                }
                configuration.controlToken = token
            }
            if let seed = arguments.value("--seed") {
                guard let value = UInt64(seed) else {
                    throw CommandLineError(
                        "--seed: expected a non-negative integer, got '\(seed)'", commandPath: ["mock-server"])
                }
                configuration.seed = value
            }
            configuration.timeScale = try arguments.double("--time-scale", range: 0.000_001...1000)
            configuration.journalAudio = arguments.flag("--journal-audio")
            configuration.journalFrameLimit = try arguments.int("--journal-limit", range: 0...100_000_000) ?? 10_000
            configuration.threads =
                try arguments.int("--threads", range: 1...256) ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            configuration.maxSessions = try arguments.int("--max-sessions", range: 1...1_000_000) ?? 10_000
            configuration.maxQueuedBytes = try arguments.int("--max-queued-bytes", range: 65_536...(1 << 40)) ?? 8 << 20
            configuration.keepClosedSessions = try arguments.int("--keep-sessions", range: 0...10_000_000) ?? 1000
            configuration.handshakeTimeoutSeconds = try arguments.int("--handshake-timeout", range: 1...3600) ?? 10
            configuration.keepClosedSessionBytes =
                try arguments.int("--keep-sessions-bytes", range: 0...(1 << 50)) ?? 256 << 20
            if let directory = arguments.value("--record") {
                if let problem = makeDirectory(directory) {
                    throw CommandLineError(
                        "--record: cannot create '\(directory)': \(problem)", commandPath: ["mock-server"])
                }
                guard isWritableDirectory(directory) else {
                    throw CommandLineError(
                        "--record: '\(directory)' is not a writable directory", commandPath: ["mock-server"])
                }
                configuration.recordDirectory = directory
            }
        }
        CommandLineRunner.valueOrExit(spec: spec) {
            configuration.proxyUpstream = try proxyUpstream(arguments)
        }
        if let file = arguments.value("--replay") {
            guard let bytes = readFile(file) else {
                printError("mock-server: --replay: cannot read '\(file)'")
                exit(2)
            }
            let scale = CommandLineRunner.valueOrExit(spec: spec) {
                try arguments.double("--replay-time-scale", range: 0.000_001...1000) ?? 1
            }
            configuration.replay = (file, String(decoding: bytes, as: UTF8.self), scale)
        }
        if let scenario = arguments.value("--scenario") {
            configuration.scenarioSource = loadScenarioSource(scenario, configuration: &configuration)
        }

        // Signals are taken by sigwait on this thread; block them before any other thread exists
        // so the lws service thread (and libuv's own handlers) never see them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        IdleMemoryRelease.keepArenaTopsWhileBusy(logger: configuration.logger)
        let server: MockServer
        do {
            server = try MockServer(configuration: configuration)
        } catch {
            printError(error.description)
            exit(2)
        }
        do {
            try server.start()
        } catch {
            printError("mock-server: \(error)")
            exit(1)
        }
        printLine("listening \(server.baseURL)")
        let memoryRelease = IdleMemoryRelease()
        memoryRelease.start(openSessions: { server.openSessionCount }, logger: configuration.logger)

        var received: Int32 = 0
        sigwait(&signals, &received)
        configuration.logger(.info, "received signal \(received); shutting down")
        memoryRelease.stop()
        server.stop()
        exit(0)
    }

    /// `--proxy-upstream URL [--proxy-upstream-insecure]`, checked; nil without `--proxy-upstream`.
    static func proxyUpstream(_ arguments: ParsedArguments) throws(CommandLineError) -> ProxyUpstream? {
        let insecure = arguments.flag("--proxy-upstream-insecure")
        guard let text = arguments.value("--proxy-upstream") else {
            guard !insecure else {
                throw CommandLineError(
                    "--proxy-upstream-insecure: needs --proxy-upstream", commandPath: ["mock-server"])
            }
            return nil
        }
        guard arguments.value("--replay") == nil else {
            throw CommandLineError("--proxy-upstream: cannot be combined with --replay", commandPath: ["mock-server"])
        }
        do {
            return try ProxyUpstream(parsing: text, insecureTLS: insecure)
        } catch {
            throw CommandLineError("--proxy-upstream: \(error)", commandPath: ["mock-server"])
        }
    }

    /// `--check-scenario FILE`: exit 0 when valid, else `FILE:LINE:COLUMN: message` and exit 2.
    static func checkScenarioAndExit(_ file: String) -> Never {
        guard let bytes = readFile(file) else {
            printError("mock-server: --check-scenario: cannot read '\(file)'")
            exit(2)
        }
        do {
            try MockServer.checkScenario(bytes: bytes, file: file)
            printLine("\(file): ok")
            exit(0)
        } catch {
            printError(error.description)
            exit(2)
        }
    }

    /// `--scenario NAME|FILE`: a readable file wins; otherwise a shipped scenario name.
    static func loadScenarioSource(
        _ argument: String, configuration: inout MockServer.Configuration
    ) -> (name: String, bytes: [UInt8]) {
        if let bytes = readFile(argument) {
            if let slash = argument.lastIndex(of: "/") { configuration.scenarioDirectory = String(argument[..<slash]) }
            return (argument, bytes)
        }
        if let text = MockServer.shippedScenario(named: argument) {
            return (argument, Array(text.utf8))
        }
        printError(
            "mock-server: --scenario: '\(argument)' is neither a readable file nor a shipped scenario (\(MockServer.shippedScenarioNames.joined(separator: ", ")))"
        )
        exit(2)
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return ferror(file) == 0 ? bytes : nil
    }

    /// Creates `path` and its missing parents (`mkdir -p`); nil when it exists or was made, else
    /// the reason.
    static func makeDirectory(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
            prefix += "/"
        }
        return nil
    }

    static func isWritableDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && access(path, W_OK) == 0
    }

    /// Writes a line to stdout and flushes it (stdout is a pipe for scripts waiting on the ready line).
    static func printLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
    }

    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
