import Dispatch

/// The clients' own deadlines (a track's playback end, the heartbeat ticker, a close after a
/// terminal error) on one serial dispatch queue. Its thread is not the Swift cooperative pool,
/// so a busy pool (a test process running many suites at once) does not make a client late
/// for a protocol deadline such as LocalRespondingEnded after playback.
enum ClientTimers {
    private static let queue = DispatchQueue(label: "dialogclients.timers", qos: .userInteractive)

    /// Runs `work` on the timer queue at monotonic time `micros` (at once if it has passed).
    static func run(atMicros micros: Int64, _ work: @escaping @Sendable () -> Void) {
        let delay = max(0, micros - Clock.nowMicros())
        queue.asyncAfter(deadline: .now() + .microseconds(Int(delay)), execute: work)
    }

    /// Runs `work` every `periodMillis` until it returns false.
    static func repeatEvery(millis periodMillis: Int, _ work: @escaping @Sendable () -> Bool) {
        queue.asyncAfter(deadline: .now() + .milliseconds(periodMillis)) {
            if work() { repeatEvery(millis: periodMillis, work) }
        }
    }
}
