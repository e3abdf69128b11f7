import CLISupport
import EchoFloor
import Glibc
import MockServer
import MockSessions
import ProtocolModel
import WireJSON
import WireSocket

/// `dialogmock-bench scenario`: N concurrent Qwen realtime sessions whose server events are
/// scripted with fixed delays of 20 ms and 250 ms; how late the mock sends them (p50/p99).
enum ScenarioLatencyBench: AsyncCommand {
    static let sessions = DefaultedOption(
        "--sessions", valueName: "N", help: "Concurrent sessions.", default: 100, reader: .integer(in: 1...2000))
    static let rounds = DefaultedOption(
        "--rounds", valueName: "N", help: "Text turns per session.", default: 3, reader: .integer(in: 1...100))
    static let loop = DefaultedOption(
        "--loop", valueName: "LOOP", help: "Event loop: libev, poll or libuv.",
        default: WebSocketServer.EventLoop.libev, reader: .choice)
    static let output = ValueOption("--output", valueName: "FILE", help: "Also write the JSON document to FILE.")
    static let check = FlagOption("--check", help: "Exit 1 when p99 lateness exceeds 1 ms.")
    static let configuration = CommandConfiguration(
        name: "scenario",
        abstract: "Send lateness of scripted delays (20 ms and 250 ms) with N concurrent sessions.",
        options: [sessions, rounds, loop, output, check])

    /// session.created and every text delta at 20 ms; session.updated and response.created at 250 ms.
    static let scenario = #"""
        {"name": "bench-delays", "seed": 1,
         "turns": {"default": {"transcript": "", "answer": "one two three four five six seven eight", "audio": {"none": true}}},
         "timing": {"events": {"*": 20, "session.updated": 250, "response.created": 250},
                    "text": {"timeToFirstTokenMs": 20, "tokensPerSecond": 50}}}
        """#

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let (sessions, rounds, eventLoop) = CommandLineRunner.valueOrExit(spec: BenchCommand.spec) {
            (
                try arguments.value(of: Self.sessions), try arguments.value(of: Self.rounds),
                try arguments.value(of: loop)
            )
        }
        _ = ef_raise_nofile(4 * sessions + 256)
        var configuration = MockServer.Configuration()
        configuration.eventLoop = eventLoop
        configuration.scenarioSource = ("bench-delays", Array(scenario.utf8))
        let server: MockServer
        do {
            server = try MockServer(configuration: configuration)
            try server.start()
        } catch {
            BenchCommand.printError("dialogmock-bench: \(error)")
            exit(ExitCode.harnessError)
        }
        let client = WebSocketClient(eventLoop: .poll)
        let started = MonotonicClock.nowMicros()
        let url = server.baseURL + DialogProtocol.qwenRealtime.path(model: "qwen3-omni-flash-realtime")
        let problems = await withTaskGroup(of: String?.self) { group in
            for index in 0..<sessions {
                group.addTask { await session(index, rounds: rounds, url: url, client: client) }
            }
            var problems: [String] = []
            for await problem in group { if let problem { problems.append(problem) } }
            return problems
        }
        let wallMicros = MonotonicClock.nowMicros() - started
        let lateness = await server.sendLateness()
        client.shutdown()
        server.stop()
        let percentile = lateness.percentile
        let p99 = percentile(0.99)
        let report = BenchJSON.object([
            ("benchmark", .string("scenario-lateness")),
            ("loop", .string(eventLoop.rawValue)), ("sessions", .int(sessions)), ("roundsPerSession", .int(rounds)),
            ("scriptedDelaysMs", .array([.int(20), .int(250)])),
            ("framesSent", .int(lateness.count)), ("wallSeconds", .number(Double(wallMicros) / 1_000_000, digits: 2)),
            (
                "latenessMicros",
                .object([
                    ("p50", .int(Int(percentile(0.5)))), ("p90", .int(Int(percentile(0.9)))),
                    ("p99", .int(Int(p99))), ("p999", .int(Int(percentile(0.999)))),
                    ("max", .int(Int(lateness.maxMicros))),
                ])
            ),
            ("target", .object([("p99MicrosAtMost", .int(1000)), ("met", .bool(p99 <= 1000 && problems.isEmpty))])),
            ("sessionFailures", .array(problems.prefix(10).map { .string($0) })),
        ])
        var text = report.rendered() + "\n"
        if let path = try? arguments.value(of: output) { try? BenchCommand.write(text, to: path) }
        text.withUTF8 { bytes in BenchCommand.writeAll(1, bytes) }
        exit(arguments.value(of: check) && !(p99 <= 1000 && problems.isEmpty) ? ExitCode.failure : ExitCode.success)
    }

    /// One client: session.update (text only, push-to-talk), then `rounds` text turns.
    static func session(_ index: Int, rounds: Int, url: String, client: WebSocketClient) async -> String? {
        guard
            let connection = try? await client.connect(
                url, headers: [("Authorization", "Bearer sk-bench")], timeoutMillis: 20_000)
        else {
            return "session \(index): connect failed"
        }
        defer { connection.close() }
        func receive(_ event: QwenServerEvent) async -> Bool {
            while let message = await connection.nextMessage(timeoutMillis: 15_000) {
                if (try? JSONValue.decode(message.bytes))?["type"]?.stringValue == event.rawValue { return true }
            }
            return false
        }
        guard await receive(.sessionCreated) else { return "session \(index): no session.created" }
        connection.send(text: #"{"type":"session.update","session":{"modalities":["text"],"turn_detection":null}}"#)
        guard await receive(.sessionUpdated) else { return "session \(index): no session.updated" }
        for round in 0..<rounds {
            connection.send(
                text:
                    #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello \#(round)"}]}}"#
            )
            connection.send(text: #"{"type":"response.create"}"#)
            guard await receive(.responseDone) else { return "session \(index): no response.done in round \(round)" }
        }
        return nil
    }
}
