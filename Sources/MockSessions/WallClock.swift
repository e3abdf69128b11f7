import Glibc

/// Calendar time (CLOCK_REALTIME), for what the control API shows people: the monotonic clock
/// of timers and journals says nothing outside the process.
package enum WallClock {
    /// Microseconds since the Unix epoch.
    package static func nowMicros() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

    /// `micros` as RFC 3339 UTC with milliseconds: `2025-01-31T09:05:07.042Z`.
    package static func rfc3339(micros: Int64) -> String {
        var seconds = time_t(micros / 1_000_000)
        let millis = Int32(micros % 1_000_000 / 1_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "."
            + padded(millis, 3) + "Z"
    }
}
