/// Deterministic identifiers for one session: UUIDs (`dialog_id`) and prefixed hex ids
/// (`event_…`, `item_…`, `resp_…`, `call_…`, `sess_…`).
///
/// Two generators with the same seed produce the same ids in the same order, so a session
/// replayed with the same scenario, seed and client input carries identical ids.
package struct IDGenerator: Sendable, Hashable {
    private var random: SeededRandom

    /// Creates a generator whose ids are fully determined by `seed`.
    package init(seed: UInt64) {
        random = SeededRandom.stream(StreamNumber.identifiers, seed: seed)
    }

    /// A random (version 4 layout) UUID in lower case, 36 characters:
    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
    package mutating func uuid() -> String {
        var high = random.next()
        var low = random.next()
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60)  // RFC 4122 variant
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32]
        return groups.map { String(characters[$0]) }.joined(separator: "-")
    }

    /// `prefix` followed by `hexDigits` lower-case hex digits, e.g. `id(prefix: "event_")`.
    /// Each 16 digits are one draw, most significant digit first (ids are made per event, so
    /// they are written straight into the string's storage).
    package mutating func id(prefix: String, hexDigits: Int = 24) -> String {
        precondition(hexDigits > 0, "an id needs at least one digit")
        let prefixBytes = prefix.utf8
        return String(unsafeUninitializedCapacity: prefixBytes.count + hexDigits) { buffer in
            var index = 0
            for byte in prefixBytes {
                buffer[index] = byte
                index += 1
            }
            var remaining = hexDigits
            while remaining > 0 {
                let value = random.next()
                for digit in 0..<min(16, remaining) {
                    buffer[index] = Self.hexDigits[Int((value >> (60 - 4 * UInt64(digit))) & 0xF)]
                    index += 1
                }
                remaining -= 16
            }
            return index
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Stream numbers that separate the purposes drawing from one scenario seed.
package enum StreamNumber {
    /// Delay samples and jitter.
    package static let delays: UInt64 = 1
    /// Session identifiers.
    package static let identifiers: UInt64 = 2
    /// Trigger probabilities.
    package static let triggers: UInt64 = 3
    /// Fault probabilities and reorder permutations.
    package static let faults: UInt64 = 4
}
