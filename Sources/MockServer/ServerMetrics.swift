/// Counters for `GET /_mock/metrics` (Prometheus text format). Service-thread confined.
final class ServerMetrics {
    private(set) var sessionsTotal = 0
    private(set) var sessionsOpen = 0
    private(set) var framesIn = 0
    private(set) var framesOut = 0
    private(set) var bytesIn = 0
    private(set) var bytesOut = 0
    /// Upper bounds (seconds) of the send-lateness histogram buckets.
    static let latenessBuckets: [Double] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1]
    private var latenessCounts = [Int](repeating: 0, count: latenessBuckets.count)
    private var latenessCount = 0
    private var latenessSumSeconds = 0.0
    /// Raw lateness samples (µs) for benchmarks, the first `sampleLimit` frames.
    private(set) var latenessSamples: [Int64] = []
    private let sampleLimit = 1_000_000

    func sessionOpened() {
        sessionsTotal += 1
        sessionsOpen += 1
    }

    func sessionClosed() { sessionsOpen -= 1 }

    private(set) var sessionsRefused = 0
    private(set) var slowReadersClosed = 0

    /// An upgrade refused with 503 because `--max-sessions` were open.
    func sessionRefusedAtCapacity() { sessionsRefused += 1 }

    /// A session closed because its client stopped reading.
    func slowReaderClosed() { slowReadersClosed += 1 }

    func frameIn(bytes: Int) {
        framesIn += 1
        bytesIn += bytes
    }

    /// A frame went out `latenessMicros` after the time the engine scheduled it for.
    func frameOut(bytes: Int, latenessMicros: Int64) {
        framesOut += 1
        bytesOut += bytes
        if latenessSamples.count < sampleLimit { latenessSamples.append(latenessMicros) }
        let seconds = Double(latenessMicros) / 1_000_000
        latenessCount += 1
        latenessSumSeconds += seconds
        for (index, bound) in Self.latenessBuckets.enumerated() where seconds <= bound {
            latenessCounts[index] += 1
        }
    }

    /// The Prometheus exposition text.
    var prometheusText: String {
        var lines: [String] = []
        func counter(_ name: String, _ help: String, _ value: Int, type: String = "counter") {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)", "\(name) \(value)"]
        }
        counter("dialogmock_sessions_total", "Sessions accepted on the protocol routes.", sessionsTotal)
        counter("dialogmock_sessions_open", "Sessions open now.", sessionsOpen, type: "gauge")
        counter("dialogmock_sessions_refused_total", "Upgrades refused with 503 at --max-sessions.", sessionsRefused)
        counter("dialogmock_slow_readers_closed_total", "Sessions closed with 1008 because the client stopped reading.",
                slowReadersClosed)
        counter("dialogmock_frames_received_total", "WebSocket messages received from clients.", framesIn)
        counter("dialogmock_frames_sent_total", "WebSocket messages sent to clients.", framesOut)
        counter("dialogmock_bytes_received_total", "Payload bytes received from clients.", bytesIn)
        counter("dialogmock_bytes_sent_total", "Payload bytes sent to clients.", bytesOut)
        let name = "dialogmock_send_lateness_seconds"
        lines += ["# HELP \(name) How late frames went out relative to their scripted time.", "# TYPE \(name) histogram"]
        for (index, bound) in Self.latenessBuckets.enumerated() {
            lines.append("\(name)_bucket{le=\"\(bound)\"} \(latenessCounts[index])")
        }
        lines += ["\(name)_bucket{le=\"+Inf\"} \(latenessCount)", "\(name)_sum \(latenessSumSeconds)", "\(name)_count \(latenessCount)"]
        return lines.joined(separator: "\n") + "\n"
    }
}
