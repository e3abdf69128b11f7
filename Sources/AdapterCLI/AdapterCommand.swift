import CLISupport
import DialogClients
import Glibc
import ProtocolModel
import WireJSON
import WireSocket

/// `dialogmock-adapter`: a driven client (the adapter protocol, conformance/README.md) over the Swift reference clients.
@main
enum AdapterCommand: AsyncCommand {
    static let protocolOption = ValueOption(
        "--protocol", valueName: "P",
        help: "\(DialogProtocol.namesText) (default: $MOCK_PROTOCOL).")
    static let fault = ValueOption(
        "--fault", valueName: "NAME", help: "Break one obligation in an otherwise correct flow (see below).")
    static let passive = FlagOption(
        "--passive", help: "Be a passive client: no adapter line, no events, stdin ignored; run the default flow.")
    static let connectOnly = FlagOption(
        "--connect-only",
        help:
            "Be a client that does nothing: open the session (with a correct Authorization), close it at once (1000), exit 0. A test client for the harness's evidence rule."
    )
    static let listFaults = FlagOption(
        "--list-faults",
        help:
            "Print the faults as JSON Lines {name, protocol, obligation, summary, needs?, runWith?, drivenOnly?, needsTimeScale?} and exit."
    )

    static let configuration = CommandConfiguration(
        name: "dialogmock-adapter",
        abstract:
            "Adapter (the adapter protocol, conformance/README.md) over the Swift clients of DialogClients; with --fault, a faulty client.",
        options: [protocolOption, fault, passive, connectOnly, listFaults],
        discussion: """
            Environment: MOCK_URL, MOCK_API_KEY, MOCK_WORKSPACE_ID, MOCK_APP_ID, MOCK_MODEL (as set by
            `conformance run`). The first stdout line is {"adapter":"swift","protocol":P,"reusable":true}; then JSON
            Lines commands are read from stdin and events written to stdout (an ack after each
            command). When stdin ends before the first command, a default flow runs: a full correct
            session (multimodal: start, one tap2talk turn with fixtures/audio/hello-16k.pcm, playback,
            stop; Qwen: session.update, the same speech, tool calls answered, finish; Qwen-Audio-Live:
            session.update, the same speech, function calls and client delegations answered, session.close).
            With --passive it is a client that cannot be driven, as most apps are: it prints nothing,
            reads no commands and runs the default flow (with the --fault, if any) on every case.
            Relative fixture paths resolve against the current directory, then against the
            conformance/ folder of the repository that holds the executable.

            \(FaultCatalog.helpText)
            """
    )

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        if arguments.value(of: listFaults) {
            for fault in FaultCatalog.all { print(fault.listEntry.encodedString()) }
            exit(0)
        }
        let protocolName = try arguments.value(of: protocolOption) ?? environment("MOCK_PROTOCOL") ?? ""
        guard let kind = ProtocolName(rawValue: protocolName) else {
            writeAll(STDERR_FILENO, "dialogmock-adapter: --protocol must be \(DialogProtocol.namesText)\n")
            exit(2)
        }
        var chosenFault: Fault?
        if let name = try arguments.value(of: fault) {
            guard let found = FaultCatalog.find(name, protocolName: kind) else {
                writeAll(STDERR_FILENO, "dialogmock-adapter: unknown fault \(name) for \(protocolName) (see --help)\n")
                exit(2)
            }
            chosenFault = found
            log("fault \(found.name): breaks \(found.obligation) (\(found.summary))")
        }
        if arguments.value(of: connectOnly) {
            exit(await connectAndClose(AdapterEnvironment(protocolName: kind)))
        }
        let isPassive = arguments.value(of: passive)
        // A driven adapter serves case after case when the harness asks (conformance/README.md,
        // "Reusable adapters"): each case gets its own event log, driver and client.
        EventLog(writesOutput: !isPassive).writeLine([
            "adapter": "swift", "protocol": .string(protocolName),
            "reusable": .bool(!isPassive),
        ])
        var input = StandardInput.lines().makeAsyncIterator()
        var settings = AdapterEnvironment(protocolName: kind)
        while true {
            let events = EventLog(writesOutput: !isPassive)
            let driver: any CaseDriver =
                switch kind {
                case .multimodalDialog: MultiModalDriver(environment: settings, events: events, fault: chosenFault)
                case .qwenRealtime: QwenDriver(environment: settings, events: events, fault: chosenFault)
                case .qwenAudioLive: QwenAudioLiveDriver(environment: settings, events: events, fault: chosenFault)
                }
            let end = await serve(events, input: &input, passive: isPassive, driver: driver)
            await driver.flushCallbacks()
            guard end == .endCase else { break }
            events.ack("end_case", ["ok": true, "exit": 0])
            events.retire()
            guard let next = await nextCase(&input) else { break }
            settings = AdapterEnvironment(protocolName: kind, values: next)
        }
        exit(0)
    }

    /// `--connect-only`: opens the session and closes it at once, sending nothing; 0 when the
    /// upgrade was accepted, 1 when it was refused.
    private static func connectAndClose(_ settings: AdapterEnvironment) async -> Int32 {
        let socket = WebSocketClient()
        defer { socket.shutdown() }
        do {
            let connection = try await socket.connect(
                settings.url, headers: [("Authorization", "Bearer \(settings.apiKey)")])
            connection.close(code: .normal, reason: "connect-only")
            // The close handshake: the server's close (or the socket's end) within 2 s.
            while let event = await connection.next(timeoutMillis: 2_000) {
                if case .closed = event { break }
            }
            return 0
        } catch {
            log("connect-only: \(error)")
            return 1
        }
    }

    /// How one case's commands ended.
    enum CaseEnd {
        /// stdin ended: the process exits.
        case endOfInput
        /// `end_case`: a reusable adapter's case is over; the next may follow.
        case endCase
    }

    /// Runs stdin commands in order (ack after each) until end of input or `end_case`, or the
    /// default flow when none came first (or at once for a passive client). After `quit` the
    /// session is over: a reused adapter skips what follows up to `end_case`.
    private static func serve(
        _ events: EventLog, input: inout AsyncStream<String>.Iterator, passive: Bool,
        driver: any CaseDriver
    ) async -> CaseEnd {
        if passive {
            await driver.runDefaultFlow()
            return .endOfInput
        }
        var sawCommand = false
        var sessionOver = false
        while let line = await input.next() {
            let trimmed = line.filter { !$0.isWhitespace }
            guard !trimmed.isEmpty else { continue }
            guard let command = (try? JSONValue.decode(line))?.objectValue, let name = command["cmd"]?.stringValue
            else {
                events.event("error", ["code": "BadCommand", "message": .string("not a command object: \(line)")])
                sawCommand = true
                continue
            }
            if name == "end_case" {
                if !sessionOver { if sawCommand { await driver.endSession() } else { await driver.runDefaultFlow() } }
                return .endCase
            }
            sawCommand = true
            if sessionOver {
                log("\(name) after quit: skipped")
                continue
            }
            if name == "wait" {
                let target = command["for"]?.stringValue ?? ""
                let found = await events.wait(for: target, timeoutMillis: Int(command["timeoutMs"]?.intValue ?? 5_000))
                if !found { log("wait for \(target) timed out") }
                events.ack(name, found ? [:] : ["timedOut": true])
                continue
            }
            do throws(AdapterError) {
                let goOn = try await driver.run(command)
                events.ack(name)
                if !goOn { sessionOver = true }
            } catch {
                events.event("error", ["code": .string(error.code), "message": .string(error.message)])
                events.ack(name, ["failed": true])
            }
        }
        if !sessionOver { if sawCommand { await driver.endSession() } else { await driver.runDefaultFlow() } }
        return .endOfInput
    }

    /// Waits for `next_case {env}` after a case (nil at end of input). Anything else in between
    /// is an error event: the harness sends nothing else there.
    private static func nextCase(_ input: inout AsyncStream<String>.Iterator) async -> [String: String]? {
        while let line = await input.next() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            guard let command = (try? JSONValue.decode(line))?.objectValue, command["cmd"]?.stringValue == "next_case"
            else {
                log("expected next_case between cases, got: \(line.prefix(200))")
                continue
            }
            var values: [String: String] = [:]
            for (name, value) in command["env"]?.objectValue ?? [:] { values[name] = value.stringValue }
            return values
        }
        return nil
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

/// What the adapter loop needs of a protocol's driver (one per case).
protocol CaseDriver: Sendable {
    /// Runs one command. - Returns: false when the session is over (`quit`).
    func run(_ command: JSONObject) async throws(AdapterError) -> Bool
    /// The full correct session of a client that gets no commands.
    func runDefaultFlow() async
    /// Ends the session the protocol's way (end of input or `end_case` after commands).
    func endSession() async
    /// Waits until the client's callbacks have all been delivered.
    func flushCallbacks() async
}

extension MultiModalDriver: CaseDriver {
    func endSession() async { await dialog.stop() }
    func flushCallbacks() async { await dialog.flushCallbacks() }
}

extension QwenDriver: CaseDriver {
    func endSession() async { await client.finish() }
    func flushCallbacks() async { await client.flushCallbacks() }
}

/// The run's settings from the environment (`conformance run` sets them for each case).
struct AdapterEnvironment: Sendable {
    let url: String
    let apiKey: String
    let workspaceID: String
    let appID: String
    let model: String

    /// The settings from the process environment (the first case), or from a `next_case`'s `env`.
    init(protocolName: ProtocolName, values: [String: String]? = nil) {
        let value: (String) -> String? = { name in
            guard let values else { return AdapterCommand.environment(name) }
            return values[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let path = protocolName.servicePath
        url = value("MOCK_URL") ?? "ws://127.0.0.1:8765\(path)"
        apiKey = value("MOCK_API_KEY") ?? "sk-dialogmock"
        workspaceID = value("MOCK_WORKSPACE_ID") ?? "llm-dialogmock"
        appID = value("MOCK_APP_ID") ?? "app-dialogmock"
        model = value("MOCK_MODEL") ?? protocolName.descriptor.defaultModel ?? ""
    }
}
