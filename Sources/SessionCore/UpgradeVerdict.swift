package import WireJSON

/// An engine's answer to a WebSocket upgrade on its path (S1 of both protocols).
package enum UpgradeVerdict<Accepted: Sendable & Hashable>: Sendable, Hashable {
    /// Accept the upgrade with what the engine needs to open the session.
    case accept(Accepted)
    /// Refuse with this HTTP status and JSON body, naming the client obligation that was broken
    /// (for the journal).
    case reject(status: Int, body: JSONValue, obligation: String)

    /// Whether the upgrade is accepted.
    package var isAccepted: Bool {
        if case .accept = self { return true }
        return false
    }

    /// The HTTP status: 101 for an accepted upgrade.
    package var status: Int {
        switch self {
        case .accept: 101
        case .reject(let status, _, _): status
        }
    }
}
