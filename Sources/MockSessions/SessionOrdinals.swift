import Synchronization

/// How many sessions each route key has started (issue 40 row 1): the plain routes, each
/// `/case/<id>/` route and each test id count on their own, so a conformance case's sessions
/// carry the same ids however many other cases run beside it. Thread-safe; bounded like
/// ``DialogMemory`` (beyond `capacity` keys the least recently used tenth is forgotten, and a
/// forgotten key starts again at 0).
package final class SessionOrdinals: Sendable {
    /// The key a session's ordinal is counted under: its test id, else its case, else the
    /// plain route (both protocols share it).
    package static func key(testID: String?, caseID: String?) -> String {
        if let testID { return "test:" + testID }
        if let caseID { return "case:" + caseID }
        return ""
    }

    private struct Entry {
        package var next: UInt64
        package var lastUse: UInt64
    }

    private struct State {
        package var entries: [String: Entry] = [:]
        package var uses: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most keys kept.
    package let capacity: Int

    package init(capacity: Int = 10_000) {
        precondition(capacity > 0, "at least one key is kept")
        self.capacity = capacity
    }

    /// The ordinal of the next session under `key` (0 for its first), counted.
    package func next(_ key: String) -> UInt64 {
        state.withLock { state in
            state.uses += 1
            var entry = state.entries[key] ?? Entry(next: 0, lastUse: 0)
            let ordinal = entry.next
            entry.next += 1
            entry.lastUse = state.uses
            state.entries[key] = entry
            if state.entries.count > capacity {
                let count = max(state.entries.count - capacity, capacity / 10)
                for (old, _) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }).prefix(count) {
                    state.entries.removeValue(forKey: old)
                }
            }
            return ordinal
        }
    }
}
