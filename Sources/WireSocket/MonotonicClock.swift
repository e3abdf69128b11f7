import Glibc

/// Monotonic time in microseconds (CLOCK_MONOTONIC), the time base of every timer and journal.
package enum MonotonicClock {
    package static func nowMicros() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
