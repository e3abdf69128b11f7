/// A client deviation from the protocol noticed by the server (not an error of the mock).
package struct Violation: Sendable, Hashable {
    /// Obligation id from the specs, e.g. `mmd.C8`, `qrt.C11`.
    package var obligation: String
    /// What the client did.
    package var message: String

    /// Creates a violation record.
    package init(obligation: String, message: String) {
        self.obligation = obligation
        self.message = message
    }
}
