import CLISupport
import Glibc
import MockCapture
import MockServer
import MockSessions
import WireSocket

/// `mock-server`: serves both protocols, the control API and the echo route on one port; its
/// subcommands work on recordings.
@main
enum MockServerCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mock-server",
        abstract: "Mock server for the multimodal-dialog and Qwen realtime WebSocket protocols.",
        options: options,
        discussion: """
            As soon as the server accepts connections, the first line on stdout is exactly
            `listening ws://HOST:PORT`. SIGINT or SIGTERM stops accepting, closes sessions with 1001
            and exits 0. The subcommands work on recordings (see their --help):
            """
                + subcommands.map {
                    "\n  " + HelpFormatter.usage(for: $0.spec, commandPath: ["mock-server", $0.configuration.name])
                }
                .joined(),
        runsWithoutSubcommand: true, namesSubcommandInErrors: true)
    static var subcommands: [any Command.Type] { [RecordToScenarioCommand.self, CompareRecordingsCommand.self] }

    /// Serves until SIGINT or SIGTERM (or answers `--version`, `--list-scenarios`,
    /// `--check-scenario`, `--health-check`).
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if arguments.value(of: version) {
            printLine("mock-server \(MockServer.version)")
            return 0
        }
        if arguments.value(of: listScenarios) {
            for name in MockServer.shippedScenarioNames { printLine(name) }
            return 0
        }
        if let file = try arguments.value(of: checkScenario) {
            checkScenarioAndExit(file)
        }
        if let text = try arguments.value(of: healthCheck), let target = HealthProbe.target(text) {
            var body = ""
            if let problem = HealthProbe.problem(host: target.host, port: target.port, body: &body) {
                printError("mock-server: --health-check \(text): \(problem)")
                return 1
            }
            printLine(body)
            return 0
        }
        var configuration = try serverConfiguration(arguments)
        if let file = try arguments.value(of: replay) {
            guard let bytes = readFile(file) else {
                printError("mock-server: --replay: cannot read '\(file)'")
                return 2
            }
            let scale = try arguments.value(of: replayTimeScale)
            configuration.replay = (file, String(decoding: bytes, as: UTF8.self), scale)
        }
        if let name = try arguments.value(of: scenario) {
            configuration.scenarioSource = loadScenarioSource(name, configuration: &configuration)
        }
        serve(configuration)
    }

    /// The configuration the options describe, before `--replay` and `--scenario` files are read.
    static func serverConfiguration(_ arguments: ParsedArguments) throws(CommandLineError) -> MockServer.Configuration {
        var configuration = MockServer.Configuration()
        configuration.host = try arguments.value(of: host)
        configuration.port = UInt16(try arguments.value(of: port))
        configuration.logger = Logger(
            level: try arguments.value(of: logLevel), format: try arguments.value(of: logFormat))
        LibWebSocketsLog.setEnabled(configuration.logger.level >= .debug)
        let logger = configuration.logger
        LibWebSocketsLog.forward { isError, line in logger(isError ? .error : .warn, line) }
        let loop = try arguments.value(of: eventLoop)
        // Asked for by name: a missing plugin is an error; the default falls back to poll.
        guard loop.isAvailable || !arguments.isGiven(eventLoop) else {
            throw CommandLineError(
                "--event-loop \(loop.rawValue): \(loop.pluginPath ?? "its lws plugin") is missing (install \(loop.pluginPackage ?? "it"))",
                commandPath: arguments.command)
        }
        configuration.eventLoop = loop
        configuration.apiKeys = try arguments.value(of: apiKey)
        configuration.controlToken = try arguments.value(of: controlToken)
        configuration.seed = try arguments.value(of: seed)
        configuration.timeScale = try arguments.value(of: timeScale)
        configuration.journalAudio = arguments.value(of: journalAudio)
        configuration.journalFrameLimit = try arguments.value(of: journalLimit)
        configuration.threads = try arguments.value(of: threads) ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        configuration.maxSessions = try arguments.value(of: maxSessions)
        configuration.maxQueuedBytes = try arguments.value(of: maxQueuedBytes)
        configuration.keepClosedSessions = try arguments.value(of: keepSessions)
        configuration.handshakeTimeoutSeconds = try arguments.value(of: handshakeTimeout)
        configuration.keepClosedSessionBytes = try arguments.value(of: keepSessionsBytes)
        if let directory = try arguments.value(of: record) {
            if let problem = makeDirectory(directory) {
                throw CommandLineError(
                    "--record: cannot create '\(directory)': \(problem)", commandPath: arguments.command)
            }
            guard isWritableDirectory(directory) else {
                throw CommandLineError(
                    "--record: '\(directory)' is not a writable directory", commandPath: arguments.command)
            }
            configuration.recordDirectory = directory
        }
        configuration.proxyUpstream = try checkedProxyUpstream(arguments)
        return configuration
    }

    /// Starts the server, prints the ready line and serves until SIGINT or SIGTERM.
    static func serve(_ configuration: MockServer.Configuration) -> Never {
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
        memoryRelease.start(
            openSessions: { server.openSessionCount }, onServiceThreads: { server.runOnServiceThreads($0) },
            logger: configuration.logger)

        var received: Int32 = 0
        sigwait(&signals, &received)
        configuration.logger(.info, "received signal \(received); shutting down")
        memoryRelease.stop()
        server.stop()
        exit(0)
    }

    /// `--proxy-upstream URL [--proxy-upstream-insecure]`, checked; nil without `--proxy-upstream`.
    static func checkedProxyUpstream(_ arguments: ParsedArguments) throws(CommandLineError) -> ProxyUpstream? {
        let insecure = arguments.value(of: proxyUpstreamInsecure)
        guard let text = try arguments.value(of: proxyUpstream) else {
            guard !insecure else {
                throw CommandLineError(
                    "--proxy-upstream-insecure: needs --proxy-upstream", commandPath: ["mock-server"])
            }
            return nil
        }
        guard !arguments.isGiven(replay) else {
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
