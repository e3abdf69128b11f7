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

    /// `micros` as RFC 3339 UTC with milliseconds: `2025-01-31T09:05:07.042Z` (one allocation:
    /// every log line is stamped with it).
    package static func rfc3339(micros: Int64) -> String {
        var seconds = time_t(micros / 1_000_000)
        let millis = Int(micros % 1_000_000 / 1_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func put(_ value: Int, width: Int, then separator: Unicode.Scalar) {
                var value = value
                for digit in stride(from: width - 1, through: 0, by: -1) {
                    buffer[index + digit] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                buffer[index + width] = UInt8(ascii: separator)
                index += width + 1
            }
            put(Int(parts.tm_year) + 1900, width: 4, then: "-")
            put(Int(parts.tm_mon) + 1, width: 2, then: "-")
            put(Int(parts.tm_mday), width: 2, then: "T")
            put(Int(parts.tm_hour), width: 2, then: ":")
            put(Int(parts.tm_min), width: 2, then: ":")
            put(Int(parts.tm_sec), width: 2, then: ".")
            put(millis, width: 3, then: "Z")
            return index
        }
    }
}
