/// Omni `turn_detection.idle_timeout_ms` (§3.3) as a value: when the model speaks first if the
/// user stays silent after an answer, and whether it already did in this silence (once per
/// silence; user input starts a new one).
struct IdleSilence: Sendable {
    /// When the model speaks first, if the user stays silent until then.
    private(set) var dueMicros: Int64?
    /// Whether the model already spoke first since the user's last input.
    private(set) var spokeFirst = false

    /// Whether the model may still speak first in this silence.
    var mayArm: Bool { !spokeFirst }

    /// An answer played: the model speaks first at `dueMicros` unless the user acts.
    mutating func arm(atMicros dueMicros: Int64) { self.dueMicros = dueMicros }

    /// User input: a new silence starts. Returns whether a pending timer is to be cancelled.
    mutating func userActed() -> Bool {
        spokeFirst = false
        defer { dueMicros = nil }
        return dueMicros != nil
    }

    /// Whether the model's turn is due at `now`.
    func isDue(atMicros now: Int64) -> Bool { dueMicros.map { $0 <= now } ?? false }

    /// The model spoke first: it waits for the user before it does again.
    mutating func spoke() {
        dueMicros = nil
        spokeFirst = true
    }
}
