import CLISupport
import EchoFloor
import Glibc
import WireSocket

/// `dialogmock-bench echo`: echo round-trip latency of WireSocket (libev, poll and libuv, with and
/// without idle connections) against a plain blocking C echo server, as one JSON document.
@main
enum BenchCommand {
    static let echoSpec = CommandSpec(
        name: "echo",
        abstract: "Echo round-trip latency: C floor vs. WireSocket (libev, poll, libuv), 0 and N idle connections.",
        options: [
            .value("--round-trips", valueName: "N", help: "Timed round trips per configuration.", default: "10000"),
            .value(
                "--block", valueName: "N", help: "Servers measured together take turns in blocks of N round trips.",
                default: "500"),
            .value("--warmup", valueName: "N", help: "Untimed round trips before the timed ones.", default: "200"),
            .value(
                "--idle", valueName: "N", help: "Idle connections held open for the second measurement (0 skips it).",
                default: "1000"),
            .value(
                "--loops", valueName: "LIST", help: "Comma-separated event loops to measure: libev, poll, libuv.",
                default: "libev,poll,libuv"),
            .value(
                "--max-seconds", valueName: "S", help: "Wall-clock cap of each client run (warm-up included).",
                default: "60"),
            .value("--output", valueName: "FILE", help: "Also write the JSON document to FILE."),
            .flag("--check", help: "Exit 1 when a latency target is missed."),
        ],
        discussion: """
            All traffic stays on 127.0.0.1. The load client and the idle connections are C code
            (EchoFloor): blocking sockets, TCP_NODELAY, masked 83-byte JSON text frames, on their own
            pthread. Progress goes to stderr; the JSON document to stdout. Build in release mode:
            swift build -c release --product dialogmock-bench
            """
    )

    static let spec = CommandSpec(
        name: "dialogmock-bench",
        abstract: "DialogMock benchmarks (loopback only).",
        options: [],
        subcommands: [echoSpec, ScenarioLatencyBench.spec, LoadBench.spec, SoakBench.spec]
    )

    struct Settings {
        var plan: RoundTripPlan
        var idle: Int
        var loops: [WebSocketServer.EventLoop]
        var output: String?
        var check: Bool
    }

    static func main() async {
        let arguments = CommandLineRunner.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: spec)
        if arguments.subcommand == "scenario" { await ScenarioLatencyBench.run(arguments) }
        if arguments.subcommand == "load" { LoadBench.run(arguments) }
        if arguments.subcommand == "soak" { SoakBench.run(arguments) }
        let settings = CommandLineRunner.valueOrExit(spec: spec) { () throws -> Settings in
            let plan = RoundTripPlan(
                warmup: try arguments.int("--warmup", range: 0...1_000_000) ?? 200,
                roundTrips: try arguments.int("--round-trips", range: 1...10_000_000) ?? 10_000,
                block: try arguments.int("--block", range: 1...10_000_000) ?? 500,
                maxSeconds: try arguments.double("--max-seconds", range: 1...60) ?? 60)
            var loops: [WebSocketServer.EventLoop] = []
            for name in (arguments.value("--loops") ?? "libev,poll,libuv").split(separator: ",") {
                guard let loop = WebSocketServer.EventLoop(rawValue: String(name)) else {
                    throw CommandLineError(
                        "--loops: expected libev, poll and/or libuv, got '\(name)'", commandPath: arguments.command)
                }
                if !loops.contains(loop) { loops.append(loop) }
            }
            return Settings(
                plan: plan, idle: try arguments.int("--idle", range: 0...9000) ?? 1000, loops: loops,
                output: arguments.value("--output"), check: arguments.flag("--check"))
        }
        do {
            let report = try run(settings)
            var text = report.json.rendered() + "\n"
            if let path = settings.output { try write(text, to: path) }
            text.withUTF8 { bytes in writeAll(1, bytes) }
            exit(settings.check && !report.allTargetsMet ? ExitCode.failure : ExitCode.success)
        } catch {
            printError("dialogmock-bench: \(error)")
            exit(ExitCode.harnessError)
        }
    }

    static func run(_ settings: Settings) throws(BenchError) -> Report {
        // lws sizes its descriptor table from RLIMIT_NOFILE when a context is created, so raise
        // it first: each idle connection costs two descriptors in this one process.
        let nofile = ef_raise_nofile(2 * settings.idle + 512)
        guard nofile >= 2 * settings.idle + 64 else {
            throw BenchError(
                "RLIMIT_NOFILE is \(nofile); \(settings.idle) idle connections need about \(2 * settings.idle + 64)")
        }
        LibWebSocketsLog.setEnabled(false)
        let progress: (String) -> Void = { printError("dialogmock-bench: \($0)") }
        let started = LatencyRun.now()
        let loadBefore = loadAverage()

        var port: UInt16 = 0
        var error = [CChar](repeating: 0, count: 512)
        guard let floor = ef_floor_start(&port, &error, error.count) else {
            throw BenchError("floor server: \(LatencyRun.cString(error))")
        }
        defer { ef_floor_stop(floor) }
        var targets = [
            Target(
                server: "floor", eventLoop: nil, idleConnections: 0, port: port, path: "/",
                serverCPUClock: ef_floor_cpu_clock(floor))
        ]
        var servers: [(WebSocketServer.EventLoop, BenchEchoServer, clockid_t?)] = []
        defer { for (_, server, _) in servers { server.stop() } }
        for loop in settings.loops {
            let server: BenchEchoServer
            do {
                server = try BenchEchoServer(eventLoop: loop)
            } catch {
                throw BenchError("WireSocket \(loop.rawValue): \(error)")
            }
            let clock = server.serviceThreadCPUClock()
            servers.append((loop, server, clock))
            targets.append(
                Target(
                    server: "wiresocket", eventLoop: loop.rawValue, idleConnections: 0, port: server.port,
                    path: BenchEchoServer.path, serverCPUClock: clock))
        }

        progress(
            "0 idle connections: floor and \(settings.loops.map(\.rawValue).joined(separator: ", ")), interleaved in blocks of \(settings.plan.block)"
        )
        var measurements = try LatencyRun.measure(targets, plan: settings.plan)
        if settings.idle > 0 {
            for (loop, server, clock) in servers {
                progress("\(loop.rawValue): \(settings.idle) idle connections")
                measurements.append(
                    try LatencyRun.measureWithIdle(
                        server, loop: loop, idle: settings.idle, clock: clock,
                        plan: settings.plan))
            }
        }
        return Report(
            settings: settings, nofile: nofile, measurements: measurements,
            totalSeconds: LatencyRun.now() - started, loadBefore: loadBefore, loadAfter: loadAverage())
    }

    /// The 1-minute load average (other work on the machine skews latency).
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }

    static func write(_ text: String, to path: String) throws(BenchError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchError("--output \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var text = text
        text.withUTF8 { bytes in writeAll(fd, bytes) }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { break }
            offset += written
        }
    }

    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { writeAll(2, $0) }
    }
}

/// The JSON document.
struct Report {
    static let floorRatioLimit = 1.25
    static let idleP50LimitMicros = 100.0
    static let targetIdleConnections = 1000

    let settings: BenchCommand.Settings
    let nofile: Int
    let measurements: [Measurement]
    let totalSeconds: Double
    let loadBefore: Double
    let loadAfter: Double

    struct Verdict {
        let target: String
        let eventLoop: String
        let value: Double
        let limit: Double
        let pass: Bool
        var note: String?

        var json: BenchJSON {
            var members: [(String, BenchJSON)] = [
                ("target", .string(target)), ("event_loop", .string(eventLoop)),
                ("value", .number(value, digits: 3)), ("limit", .number(limit, digits: 3)), ("pass", .bool(pass)),
            ]
            if let note { members.append(("note", .string(note))) }
            return .object(members)
        }
    }

    var verdicts: [Verdict] {
        var verdicts: [Verdict] = []
        guard let floor = measurements.first(where: { $0.server == "floor" }) else { return [] }
        for m in measurements where m.server != "floor" && m.idleConnections == 0 {
            let ratio = m.stats.p99 / floor.stats.p99
            verdicts.append(
                Verdict(
                    target: "p99 within 1.25x of the floor at 0 idle connections (value: p99 / floor p99)",
                    eventLoop: m.eventLoop ?? "", value: ratio, limit: Self.floorRatioLimit,
                    pass: ratio <= Self.floorRatioLimit,
                    note:
                        "p99 \(BenchJSON.fixed(m.stats.p99, digits: 1)) us vs floor \(BenchJSON.fixed(floor.stats.p99, digits: 1)) us"
                ))
        }
        if let uv = measurements.first(where: { $0.eventLoop == "libuv" && $0.idleConnections > 0 }) {
            var verdict = Verdict(
                target: "p50 under 100 us with 1,000 idle connections on libuv (value: p50 in us)",
                eventLoop: "libuv", value: uv.stats.p50, limit: Self.idleP50LimitMicros,
                pass: uv.stats.p50 < Self.idleP50LimitMicros)
            if uv.idleConnections != Self.targetIdleConnections {
                verdict.note = "measured with \(uv.idleConnections) idle connections, not \(Self.targetIdleConnections)"
            }
            verdicts.append(verdict)
        }
        return verdicts
    }

    var allTargetsMet: Bool { verdicts.allSatisfy(\.pass) }

    var json: BenchJSON {
        let verdicts = self.verdicts
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        var cpu = [CChar](repeating: 0, count: 256)
        ef_cpu_model(&cpu, cpu.count)
        return .object([
            ("benchmark", .string("echo")),
            ("build", .string(build)),
            (
                "machine",
                .object([
                    ("nproc", .int(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))),
                    ("cpu_model", .string(LatencyRun.cString(cpu))),
                    ("kernel", .string(Self.kernel())),
                    ("libwebsockets", .string(LibWebSocketsVersion.string)),
                    ("rlimit_nofile", .int(nofile)),
                    ("loadavg_1min_before", .number(loadBefore, digits: 2)),
                    ("loadavg_1min_after", .number(loadAfter, digits: 2)),
                ])
            ),
            (
                "parameters",
                .object([
                    ("host", .string(LatencyRun.host)),
                    ("payload", .string("83-byte JSON text frame, masked, one in flight")),
                    ("warmup", .int(settings.plan.warmup)),
                    ("round_trips", .int(settings.plan.roundTrips)),
                    ("block", .int(settings.plan.block)),
                    (
                        "method",
                        .string(
                            "0 idle: floor and every loop measured together, taking turns in blocks; N idle: each loop alone with N idle connections held by C code"
                        )
                    ),
                    ("max_seconds_per_run", .number(settings.plan.maxSeconds, digits: 1)),
                    ("idle_connections", .int(settings.idle)),
                    ("loops", .array(settings.loops.map { .string($0.rawValue) })),
                    ("percentiles", .string("nearest rank, microseconds")),
                    ("rss", .string("VmRSS of the whole process (server and C clients)")),
                ])
            ),
            ("results", .array(measurements.map(\.json))),
            ("verdicts", .array(verdicts.map(\.json))),
            ("all_targets_met", .bool(verdicts.allSatisfy(\.pass))),
            ("total_s", .number(totalSeconds, digits: 2)),
        ])
    }

    static func kernel() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "" }
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        }
        return field(&name.sysname) + " " + field(&name.release) + " " + field(&name.machine)
    }
}
