import Glibc
import WireSocket

/// Random identifiers in the shapes both protocols use.
enum Identifiers {
    /// A version-4 UUID, `8-4-4-4-12` lower-case hex (the multimodal `task_id`).
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).leftPadded(to: 2) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }

    /// `prefix` followed by 32 random hex digits (`event_…`).
    static func prefixed(_ prefix: String) -> String {
        prefix + uuid().filter { $0 != "-" }
    }
}

/// Monotonic time in microseconds (``MonotonicClock``), for pacing, heartbeats and the playback model.
enum Clock {
    static func nowMicros() -> Int64 { MonotonicClock.nowMicros() }

    /// Sleeps until the monotonic time `micros` (returns at once if it has passed).
    static func sleep(untilMicros micros: Int64) async {
        let delay = micros - nowMicros()
        if delay > 0 { try? await Task.sleep(for: .microseconds(delay)) }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
