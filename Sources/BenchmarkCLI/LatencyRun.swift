import EchoFloor
import Glibc
import WireSocket

/// Percentiles of one run's round trips, in microseconds.
struct LatencyStats {
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let p999: Double
    let max: Double
    let mean: Double

    /// Nearest-rank percentiles of `samples` (nanoseconds).
    init(nanoseconds samples: [Int64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Swift.max(0, Swift.min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1000
        }
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        p999 = rank(0.999)
        max = sorted.last.map { Double($0) / 1000 } ?? .nan
        mean = sorted.isEmpty ? .nan : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
    }

    var json: BenchJSON {
        .object([
            ("count", .int(count)), ("p50", .number(p50)), ("p90", .number(p90)), ("p99", .number(p99)),
            ("p99_9", .number(p999)), ("max", .number(max)), ("mean", .number(mean)),
        ])
    }
}

/// One measured configuration.
struct Measurement {
    var server: String
    var eventLoop: String?
    var idleConnections: Int
    var stats: LatencyStats
    var hitTimeCap: Bool
    var wallSeconds: Double
    var clientCPUMicrosPerRoundTrip: Double
    var serverCPUMicrosPerRoundTrip: Double?
    var idle: IdleReport?

    var json: BenchJSON {
        var members: [(String, BenchJSON)] = [
            ("server", .string(server)),
            ("event_loop", eventLoop.map(BenchJSON.string) ?? .null),
            ("idle_connections", .int(idleConnections)),
            ("latency_us", stats.json),
            ("hit_time_cap", .bool(hitTimeCap)),
            ("wall_s", .number(wallSeconds, digits: 3)),
            ("round_trips_per_s", .number(wallSeconds > 0 ? Double(stats.count) / wallSeconds : 0, digits: 0)),
            ("server_cpu_us_per_round_trip", serverCPUMicrosPerRoundTrip.map { .number($0, digits: 2) } ?? .null),
            ("client_cpu_us_per_round_trip", .number(clientCPUMicrosPerRoundTrip, digits: 2)),
        ]
        if let idle { members.append(("idle", idle.json)) }
        return .object(members)
    }
}

/// How the idle connections were opened and what they cost.
struct IdleReport {
    var requested: Int
    var opened: Int
    var openSeconds: Double
    var rssKiBBefore: Int
    var rssKiBAfter: Int
    var answeredAfterRun: Int
    var openError: String?

    var json: BenchJSON {
        var members: [(String, BenchJSON)] = [
            ("requested", .int(requested)),
            ("opened", .int(opened)),
            ("open_s", .number(openSeconds, digits: 3)),
            ("rss_kib_before", .int(rssKiBBefore)),
            ("rss_kib_after", .int(rssKiBAfter)),
            (
                "rss_kib_per_connection",
                .number(opened > 0 ? Double(rssKiBAfter - rssKiBBefore) / Double(opened) : 0, digits: 2)
            ),
            ("answered_echo_after_run", .int(answeredAfterRun)),
        ]
        if let openError { members.append(("open_error", .string(openError))) }
        return .object(members)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The C client's knobs for one run.
struct RoundTripPlan {
    var warmup: Int
    var roundTrips: Int
    var block: Int
    var maxSeconds: Double
}

/// One server the C client measures.
struct Target {
    var server: String
    var eventLoop: String?
    var idleConnections: Int
    var port: UInt16
    var path: String
    var serverCPUClock: clockid_t?
}

enum LatencyRun {
    static let host = "127.0.0.1"

    /// Runs the C round-trip client (on its own pthread) against every target, interleaved in
    /// blocks.
    static func measure(_ targets: [Target], plan: RoundTripPlan) throws(BenchError) -> [Measurement] {
        var cStrings: [UnsafeMutablePointer<CChar>] = []
        defer { for string in cStrings { free(string) } }
        let hostPointer = strdup(host)!
        cStrings.append(hostPointer)
        var cTargets: [ef_rtt_target] = []
        for target in targets {
            let path = strdup(target.path)!
            cStrings.append(path)
            cTargets.append(
                ef_rtt_target(
                    host: hostPointer, port: target.port, path: path,
                    has_server_cpu_clock: target.serverCPUClock == nil ? 0 : 1,
                    server_cpu_clock: target.serverCPUClock ?? 0))
        }
        var cPlan = ef_rtt_plan(
            warmup: Int32(plan.warmup), round_trips: Int32(plan.roundTrips), block: Int32(plan.block),
            max_seconds: plan.maxSeconds)
        var results = [ef_rtt_result](repeating: ef_rtt_result(), count: targets.count)
        var error = [CChar](repeating: 0, count: 512)
        let rc = ef_rtt_run(&cTargets, Int32(cTargets.count), &cPlan, &results, &error, error.count)
        defer { for index in results.indices { ef_rtt_result_free(&results[index]) } }
        guard rc == 0 else {
            let names = targets.map { "\($0.server)/\($0.eventLoop ?? "-")/idle=\($0.idleConnections)" }
            throw BenchError("round trips against \(names.joined(separator: ", ")): \(cString(error))")
        }
        return zip(targets, results).map { target, result in
            let samples = Array(UnsafeBufferPointer(start: result.samples_ns, count: Int(result.count)))
            let count = Double(max(1, samples.count))
            return Measurement(
                server: target.server, eventLoop: target.eventLoop, idleConnections: target.idleConnections,
                stats: LatencyStats(nanoseconds: samples), hitTimeCap: result.hit_time_cap != 0,
                wallSeconds: Double(result.wall_ns) / 1e9,
                clientCPUMicrosPerRoundTrip: Double(result.client_cpu_ns) / 1000 / count,
                serverCPUMicrosPerRoundTrip: result.server_cpu_ns >= 0
                    ? Double(result.server_cpu_ns) / 1000 / count : nil,
                idle: nil)
        }
    }

    /// Opens `idle` connections to `server`, measures it alone, checks the idle connections still
    /// answer, closes them.
    static func measureWithIdle(
        _ server: BenchEchoServer, loop: WebSocketServer.EventLoop, idle: Int,
        clock: clockid_t?, plan: RoundTripPlan
    ) throws(BenchError) -> Measurement {
        let rssBefore = ef_rss_kib()
        var error = [CChar](repeating: 0, count: 512)
        let started = now()
        let set = host.withCString { hostPointer in
            BenchEchoServer.path.withCString { pathPointer in
                ef_idle_open(hostPointer, server.port, pathPointer, Int32(idle), 60, &error, error.count)
            }
        }
        let openSeconds = now() - started
        guard let set else { throw BenchError("idle connections: out of memory") }
        defer { ef_idle_close(set) }
        let opened = Int(ef_idle_count(set))
        // Let the service thread settle after the last handshake before measuring.
        usleep(200_000)
        let rssAfter = ef_rss_kib()
        let target = Target(
            server: "wiresocket", eventLoop: loop.rawValue, idleConnections: opened, port: server.port,
            path: BenchEchoServer.path, serverCPUClock: clock)
        var measurement = try measure([target], plan: plan)[0]
        let answered = Int(ef_idle_verify(set, 30))
        measurement.idle = IdleReport(
            requested: idle, opened: opened, openSeconds: openSeconds, rssKiBBefore: rssBefore,
            rssKiBAfter: rssAfter, answeredAfterRun: answered,
            openError: opened < idle ? cString(error) : nil)
        return measurement
    }

    /// Monotonic seconds (``MonotonicClock``).
    static func now() -> Double { Double(MonotonicClock.nowMicros()) / 1e6 }

    static func cString(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
