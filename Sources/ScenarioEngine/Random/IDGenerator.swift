/// Deterministic identifiers for one session: UUIDs (`dialog_id`) and prefixed hex ids
/// (`event_…`, `item_…`, `resp_…`, `call_…`, `sess_…`).
///
/// Two generators with the same seed and session ordinal produce the same ids in the same
/// order, so a session replayed with the same scenario, seed, ordinal and client input carries
/// identical ids; sessions with different ordinals get different ids, as the service issues
/// unique ones (issue 40 row 1). Every id of a session, whatever its kind, draws fresh 64-bit
/// values from one stream (no id reuses another's draw or digits).
package struct IDGenerator: Sendable, Hashable {
    private var random: SeededRandom

    /// Creates a generator whose ids are fully determined by `seed` and `sessionOrdinal`
    /// (the how-many-th session of its route, from 0). Ordinal 0 gives the ids sessions had
    /// before ordinals existed, so recorded fixtures stay valid.
    package init(seed: UInt64, sessionOrdinal: UInt64 = 0) {
        random = SeededRandom.stream(StreamNumber.identifiers, seed: Self.mix(seed, sessionOrdinal))
    }

    /// The seed of session `ordinal`'s id stream: `seed` itself for ordinal 0, else `seed` mixed
    /// with the ordinal by a bijective 64-bit finaliser, so distinct ordinals give distinct streams.
    static func mix(_ seed: UInt64, _ ordinal: UInt64) -> UInt64 {
        guard ordinal > 0 else { return seed }
        var z = ordinal &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return seed ^ (z ^ (z >> 31))
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
