/// A note describing one application of a fault, for the journal and the report.
package struct FaultNote: Sendable, Hashable {
    /// The fault's id from the scenario, if it has one.
    package var faultId: String?
    /// The fault kind as named in scenario files (`duplicate`, `close`, …).
    package var kind: String
    /// What happened, e.g. `dropped response.audio.delta (3120 bytes)`.
    package var detail: String

    /// Creates a note.
    package init(faultId: String?, kind: String, detail: String) {
        self.faultId = faultId
        self.kind = kind
        self.detail = detail
    }
}
