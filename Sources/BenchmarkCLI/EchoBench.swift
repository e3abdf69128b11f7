import CLISupport
import WireSocket

/// `dialogmock-bench echo`: echo round-trip latency of WireSocket (libev, poll and libuv, with and
/// without idle connections) against a plain blocking C echo server, as one JSON document.
enum EchoBench: AsyncCommand {
    static let roundTrips = DefaultedOption(
        "--round-trips", valueName: "N", help: "Timed round trips per configuration.", default: 10_000,
        reader: .integer(in: 1...10_000_000))
    static let block = DefaultedOption(
        "--block", valueName: "N", help: "Servers measured together take turns in blocks of N round trips.",
        default: 500, reader: .integer(in: 1...10_000_000))
    static let warmup = DefaultedOption(
        "--warmup", valueName: "N", help: "Untimed round trips before the timed ones.", default: 200,
        reader: .integer(in: 0...1_000_000))
    static let idle = DefaultedOption(
        "--idle", valueName: "N", help: "Idle connections held open for the second measurement (0 skips it).",
        default: 1000, reader: .integer(in: 0...9000))
    static let loops = DefaultedOption(
        "--loops", valueName: "LIST", help: "Comma-separated event loops to measure: libev, poll, libuv.",
        default: [.libev, .poll, .libuv], reader: .eventLoopList)
    static let maxSeconds = DefaultedOption(
        "--max-seconds", valueName: "S", help: "Wall-clock cap of each client run (warm-up included).", default: 60,
        reader: .number(in: 1...60))
    static let output = ValueOption("--output", valueName: "FILE", help: "Also write the JSON document to FILE.")
    static let check = FlagOption("--check", help: "Exit 1 when a latency target is missed.")

    static let configuration = CommandConfiguration(
        name: "echo",
        abstract: "Echo round-trip latency: C floor vs. WireSocket (libev, poll, libuv), 0 and N idle connections.",
        options: [roundTrips, block, warmup, idle, loops, maxSeconds, output, check],
        discussion: """
            All traffic stays on 127.0.0.1. The load client and the idle connections are C code
            (EchoFloor): blocking sockets, TCP_NODELAY, masked 83-byte JSON text frames, on their own
            pthread. Progress goes to stderr; the JSON document to stdout. Build in release mode:
            swift build -c release -Xswiftc -cross-module-optimization --product dialogmock-bench
            """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let plan = RoundTripPlan(
            warmup: try arguments.value(of: warmup), roundTrips: try arguments.value(of: roundTrips),
            block: try arguments.value(of: block), maxSeconds: try arguments.value(of: maxSeconds))
        let settings = BenchCommand.Settings(
            plan: plan, idle: try arguments.value(of: idle), loops: try arguments.value(of: loops),
            output: try arguments.value(of: output), check: arguments.value(of: check))
        do {
            let report = try BenchCommand.run(settings)
            var text = report.json.rendered() + "\n"
            if let path = settings.output { try BenchCommand.write(text, to: path) }
            text.withUTF8 { bytes in BenchCommand.writeAll(1, bytes) }
            return settings.check && !report.allTargetsMet ? ExitCode.failure : ExitCode.success
        } catch {
            BenchCommand.printError("dialogmock-bench: \(error)")
            return ExitCode.harnessError
        }
    }
}

extension ValueReader where Value == [WebSocketServer.EventLoop] {
    /// `libev,poll,libuv`: event loops, each once, in the order given.
    static var eventLoopList: ValueReader {
        ValueReader(
            complaint: { text in
                let bad = text.split(separator: ",").first { WebSocketServer.EventLoop(rawValue: String($0)) == nil }
                return "expected libev, poll and/or libuv, got '\(bad ?? "")'"
            },
            describe: { $0.map(\.rawValue).joined(separator: ",") }
        ) { text in
            var loops: [WebSocketServer.EventLoop] = []
            for name in text.split(separator: ",") {
                guard let loop = WebSocketServer.EventLoop(rawValue: String(name)) else { return nil }
                if !loops.contains(loop) { loops.append(loop) }
            }
            return loops
        }
    }
}
