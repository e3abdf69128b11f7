import Synchronization

/// The mock's per-dialog memory, shared by all sessions of a server (S21): how far each
/// `dialog_id`'s scripted conversation has got, and what was said. A session that resumes a
/// dialog continues its script at the next turn. Thread-safe (a mutex guards the records), so
/// sessions on any thread may share one instance.
///
/// Bounded, because a server runs for days: it keeps the `capacity` most recently used dialogs
/// (beyond that the least recently used tenth is forgotten at once, so eviction is rare) and the
/// last `historyLimit` exchanges of each, with a count of all of them.
package final class DialogMemory: Sendable {
    /// One exchange of a dialog: what the user said and what the mock answered.
    package struct Exchange: Sendable, Hashable {
        /// The user's utterance (recognised transcript or RequestToRespond text).
        package var user: String
        /// The answer text.
        package var answer: String

        /// Creates an exchange.
        package init(user: String, answer: String) {
            self.user = user
            self.answer = answer
        }
    }

    /// What the mock remembers about one dialog.
    package struct Record: Sendable, Hashable {
        /// Scripted turns used so far (the next answer is turn `turnIndex`).
        package var turnIndex = 0
        /// The latest exchanges, oldest first (at most the memory's `historyLimit`).
        package var history: [Exchange] = []
        /// Every exchange of the dialog, including those dropped from `history`.
        package var exchangeCount = 0

        /// Creates an empty record.
        package init() {}
    }

    /// The number of dialogs kept by default.
    package static let defaultCapacity = 1_000
    /// The number of exchanges kept per dialog by default.
    package static let defaultHistoryLimit = 50

    private struct Entry {
        var record: Record
        /// The value of `State.uses` when the dialog was last opened, read or extended.
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var uses: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most dialogs kept.
    package let capacity: Int
    /// The most exchanges kept per dialog.
    package let historyLimit: Int

    /// Creates an empty memory keeping at most `capacity` dialogs of `historyLimit` exchanges.
    package init(capacity: Int = DialogMemory.defaultCapacity, historyLimit: Int = DialogMemory.defaultHistoryLimit) {
        precondition(capacity > 0 && historyLimit > 0, "a dialog memory keeps at least one dialog and one exchange")
        self.capacity = capacity
        self.historyLimit = historyLimit
    }

    /// The record of `dialogID`, or nil if the dialog is unknown (or was forgotten).
    package func record(for dialogID: String) -> Record? {
        state.withLock { state in
            guard var entry = state.entries[dialogID] else { return nil }
            state.uses += 1
            entry.lastUse = state.uses
            state.entries[dialogID] = entry
            return entry.record
        }
    }

    /// Creates the record of `dialogID` if it is unknown; returns the (possibly existing) record.
    @discardableResult
    package func open(_ dialogID: String) -> Record {
        state.withLock { state in
            state.uses += 1
            if var existing = state.entries[dialogID] {
                existing.lastUse = state.uses
                state.entries[dialogID] = existing
                return existing.record
            }
            state.entries[dialogID] = Entry(record: Record(), lastUse: state.uses)
            evictIfFull(&state)
            return Record()
        }
    }

    /// Records one exchange and the turn index that follows it.
    package func remember(_ exchange: Exchange, nextTurnIndex: Int, in dialogID: String) {
        state.withLock { state in
            state.uses += 1
            var entry = state.entries.removeValue(forKey: dialogID) ?? Entry(record: Record(), lastUse: 0)
            entry.lastUse = state.uses
            entry.record.history.append(exchange)
            if entry.record.history.count > historyLimit {
                entry.record.history.removeFirst(entry.record.history.count - historyLimit)
            }
            entry.record.exchangeCount += 1
            entry.record.turnIndex = max(entry.record.turnIndex, nextTurnIndex)
            state.entries[dialogID] = entry
            evictIfFull(&state)
        }
    }

    /// The known dialog ids, sorted.
    package var dialogIDs: [String] {
        state.withLock { $0.entries.keys.sorted() }
    }

    /// Beyond `capacity`, forgets the least recently used tenth (at least one dialog).
    private func evictIfFull(_ state: inout State) {
        guard state.entries.count > capacity else { return }
        let excess = state.entries.count - capacity
        let count = max(excess, capacity / 10)
        let oldest = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(count)
        for (id, _) in oldest { state.entries.removeValue(forKey: id) }
    }
}
