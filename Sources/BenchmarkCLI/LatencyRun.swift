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
            ("rss_kib_per_connection", .number(opened > 0 ? Double(rssKiBAfter - rssKiBBefore) / Double(opened) : 0, digits: 2)),
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
    var maxSeconds: Double
}

enum LatencyRun {
    static let host = "127.0.0.1"

    /// Runs the C round-trip client (on its own pthread) against `port`/`path`.
    static func measure(server: String, eventLoop: String?, idleConnections: Int, port: UInt16, path: String,
                        serverCPUClock: clockid_t?, plan: RoundTripPlan) throws(BenchError) -> Measurement {
        var result = ef_rtt_result()
        var error = [CChar](repeating: 0, count: 512)
        let rc = host.withCString { hostPointer in
            path.withCString { pathPointer in
                var options = ef_rtt_options(
                    host: hostPointer, port: port, path: pathPointer, warmup: Int32(plan.warmup),
                    round_trips: Int32(plan.roundTrips), max_seconds: plan.maxSeconds,
                    has_server_cpu_clock: serverCPUClock == nil ? 0 : 1, server_cpu_clock: serverCPUClock ?? 0)
                return ef_rtt_run(&options, &result, &error, error.count)
            }
        }
        defer { ef_rtt_result_free(&result) }
        guard rc == 0 else {
            throw BenchError("\(server) \(eventLoop ?? "") idle=\(idleConnections): \(cString(error))")
        }
        let samples = Array(UnsafeBufferPointer(start: result.samples_ns, count: Int(result.count)))
        let count = Double(max(1, samples.count))
        return Measurement(
            server: server, eventLoop: eventLoop, idleConnections: idleConnections,
            stats: LatencyStats(nanoseconds: samples), hitTimeCap: result.hit_time_cap != 0,
            wallSeconds: Double(result.wall_ns) / 1e9,
            clientCPUMicrosPerRoundTrip: Double(result.client_cpu_ns) / 1000 / count,
            serverCPUMicrosPerRoundTrip: result.server_cpu_ns >= 0 ? Double(result.server_cpu_ns) / 1000 / count : nil,
            idle: nil)
    }

    /// The floor: the plain blocking C echo server, one connection.
    static func measureFloor(plan: RoundTripPlan) throws(BenchError) -> Measurement {
        var port: UInt16 = 0
        var error = [CChar](repeating: 0, count: 512)
        guard let floor = ef_floor_start(&port, &error, error.count) else {
            throw BenchError("floor server: \(cString(error))")
        }
        defer { ef_floor_stop(floor) }
        return try measure(server: "floor", eventLoop: nil, idleConnections: 0, port: port, path: "/",
                           serverCPUClock: ef_floor_cpu_clock(floor), plan: plan)
    }

    /// WireSocket with `loop`: 0 idle connections, then `idle` idle connections.
    static func measureWireSocket(loop: WebSocketServer.EventLoop, idle: Int, plan: RoundTripPlan,
                                  progress: (String) -> Void) throws(BenchError) -> [Measurement] {
        let server: BenchEchoServer
        do {
            server = try BenchEchoServer(eventLoop: loop)
        } catch {
            throw BenchError("WireSocket \(loop.rawValue): \(error)")
        }
        defer { server.stop() }
        let clock = server.serviceThreadCPUClock()
        let name = "wiresocket"
        progress("\(name) \(loop.rawValue), 0 idle connections")
        var results = [try measure(server: name, eventLoop: loop.rawValue, idleConnections: 0, port: server.port,
                                   path: BenchEchoServer.path, serverCPUClock: clock, plan: plan)]
        guard idle > 0 else { return results }

        progress("\(name) \(loop.rawValue), opening \(idle) idle connections")
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
        // Let the service thread finish registering the last connections before measuring.
        usleep(200_000)
        let rssAfter = ef_rss_kib()
        progress("\(name) \(loop.rawValue), \(opened) idle connections")
        var measurement = try measure(server: name, eventLoop: loop.rawValue, idleConnections: opened,
                                      port: server.port, path: BenchEchoServer.path, serverCPUClock: clock, plan: plan)
        let answered = Int(ef_idle_verify(set, 30))
        measurement.idle = IdleReport(
            requested: idle, opened: opened, openSeconds: openSeconds, rssKiBBefore: rssBefore,
            rssKiBAfter: rssAfter, answeredAfterRun: answered,
            openError: opened < idle ? cString(error) : nil)
        results.append(measurement)
        return results
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func cString(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
