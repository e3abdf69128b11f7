import Synchronization

/// Counters for `GET /_mock/metrics` (Prometheus text format). Shared by every service thread
/// (a mutex guards them; each update is a few additions).
package final class ServerMetrics: Sendable {
    /// Upper bounds (seconds) of the send-lateness histogram buckets.
    package static let latenessBuckets: [Double] = [
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
    ]
    /// Bucket bounds in microseconds (the per-frame path compares integers).
    private static let latenessBucketMicros: [Int64] = latenessBuckets.map { Int64(($0 * 1_000_000).rounded()) }

    private struct State {
        package var sessionsTotal = 0
        package var sessionsOpen = 0
        package var sessionsRefused = 0
        package var slowReadersClosed = 0
        package var framesIn = 0
        package var framesOut = 0
        package var bytesIn = 0
        package var bytesOut = 0
        package var latenessCounts = [Int](repeating: 0, count: ServerMetrics.latenessBuckets.count)
        package var latenessCount = 0
        package var latenessSumMicros: Int64 = 0
        package var lateness = SendLateness()
    }

    private let state = Mutex(State())

    package init() {}

    package func sessionOpened() {
        state.withLock {
            $0.sessionsTotal += 1
            $0.sessionsOpen += 1
        }
    }

    package func sessionClosed() { state.withLock { $0.sessionsOpen -= 1 } }

    /// An upgrade refused with 503 because `--max-sessions` were open.
    package func sessionRefusedAtCapacity() { state.withLock { $0.sessionsRefused += 1 } }

    /// A session closed because its client stopped reading.
    package func slowReaderClosed() { state.withLock { $0.slowReadersClosed += 1 } }

    package func frameIn(bytes: Int) {
        state.withLock {
            $0.framesIn += 1
            $0.bytesIn += bytes
        }
    }

    /// A frame went out `latenessMicros` after the time the engine scheduled it for.
    package func frameOut(bytes: Int, latenessMicros: Int64) {
        state.withLock { state in
            state.framesOut += 1
            state.bytesOut += bytes
            state.lateness.record(latenessMicros)
            state.latenessCount += 1
            state.latenessSumMicros += latenessMicros
            for (index, bound) in Self.latenessBucketMicros.enumerated() where latenessMicros <= bound {
                state.latenessCounts[index] += 1
            }
        }
    }

    package var sessionsOpen: Int { state.withLock { $0.sessionsOpen } }

    /// How late every frame left, as a fixed-size histogram.
    package var lateness: SendLateness { state.withLock { $0.lateness } }

    /// The Prometheus exposition text.
    package var prometheusText: String {
        let state = self.state.withLock { $0 }
        var lines: [String] = []
        func counter(_ name: String, _ help: String, _ value: Int, type: String = "counter") {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)", "\(name) \(value)"]
        }
        counter("dialogmock_sessions_total", "Sessions accepted on the protocol routes.", state.sessionsTotal)
        counter("dialogmock_sessions_open", "Sessions open now.", state.sessionsOpen, type: "gauge")
        counter(
            "dialogmock_sessions_refused_total", "Upgrades refused with 503 at --max-sessions.", state.sessionsRefused)
        counter(
            "dialogmock_slow_readers_closed_total", "Sessions closed with 1008 because the client stopped reading.",
            state.slowReadersClosed)
        counter("dialogmock_frames_received_total", "WebSocket messages received from clients.", state.framesIn)
        counter("dialogmock_frames_sent_total", "WebSocket messages sent to clients.", state.framesOut)
        counter("dialogmock_bytes_received_total", "Payload bytes received from clients.", state.bytesIn)
        counter("dialogmock_bytes_sent_total", "Payload bytes sent to clients.", state.bytesOut)
        let name = "dialogmock_send_lateness_seconds"
        lines += [
            "# HELP \(name) How late frames went out relative to their scripted time.", "# TYPE \(name) histogram",
        ]
        for (index, bound) in Self.latenessBuckets.enumerated() {
            lines.append("\(name)_bucket{le=\"\(bound)\"} \(state.latenessCounts[index])")
        }
        lines += [
            "\(name)_bucket{le=\"+Inf\"} \(state.latenessCount)",
            "\(name)_sum \(Double(state.latenessSumMicros) / 1_000_000)", "\(name)_count \(state.latenessCount)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
