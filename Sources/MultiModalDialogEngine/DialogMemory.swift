import Synchronization

/// The mock's per-dialog memory, shared by all sessions of a server (S21): how far each
/// `dialog_id`'s scripted conversation has got, and what was said. A session that resumes a
/// dialog continues its script at the next turn. Thread-safe (a mutex guards the records), so
/// sessions on any thread may share one instance.
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
        /// The exchanges so far, oldest first.
        package var history: [Exchange] = []

        /// Creates an empty record.
        package init() {}
    }

    private let records = Mutex<[String: Record]>([:])

    /// Creates an empty memory.
    package init() {}

    /// The record of `dialogID`, or nil if the dialog is unknown.
    package func record(for dialogID: String) -> Record? {
        records.withLock { $0[dialogID] }
    }

    /// Creates the record of `dialogID` if it is unknown; returns the (possibly existing) record.
    @discardableResult
    package func open(_ dialogID: String) -> Record {
        records.withLock { all in
            if let existing = all[dialogID] { return existing }
            all[dialogID] = Record()
            return Record()
        }
    }

    /// Records one exchange and the turn index that follows it.
    package func remember(_ exchange: Exchange, nextTurnIndex: Int, in dialogID: String) {
        records.withLock { all in
            var record = all[dialogID] ?? Record()
            record.history.append(exchange)
            record.turnIndex = max(record.turnIndex, nextTurnIndex)
            all[dialogID] = record
        }
    }

    /// The known dialog ids, sorted.
    package var dialogIDs: [String] {
        records.withLock { $0.keys.sorted() }
    }
}
