import Synchronization

/// The time source of a scenario runtime, in microseconds on a monotonic scale.
///
/// The server passes a wrapper over its monotonic clock; tests pass ``ManualClock``.
package protocol ScenarioClock: Sendable {
    /// The current time in microseconds (only differences are meaningful).
    var nowMicros: Int64 { get }
}

/// A clock that moves only when told to; for deterministic tests.
package final class ManualClock: ScenarioClock {
    private let current: Mutex<Int64>

    /// Creates a clock reading `startMicros`.
    package init(startMicros: Int64 = 0) {
        current = Mutex(startMicros)
    }

    /// The time last set or advanced to.
    package var nowMicros: Int64 {
        current.withLock { $0 }
    }

    /// Moves the clock forward by `micros` (negative values are a programmer error).
    package func advance(byMicros micros: Int64) {
        precondition(micros >= 0, "a monotonic clock cannot go back")
        current.withLock { $0 += micros }
    }

    /// Moves the clock forward by `milliseconds`.
    package func advance(byMilliseconds milliseconds: Int64) {
        advance(byMicros: milliseconds * 1000)
    }

    /// Sets the clock to `micros`, which must not be earlier than now.
    package func set(toMicros micros: Int64) {
        current.withLock {
            precondition(micros >= $0, "a monotonic clock cannot go back")
            $0 = micros
        }
    }
}
