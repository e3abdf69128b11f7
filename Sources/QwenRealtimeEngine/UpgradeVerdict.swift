/// The answer to a WebSocket upgrade request on a Qwen realtime path (S1).
package enum UpgradeVerdict: Sendable, Hashable {
    /// Accept the upgrade and serve this profile for this model.
    case accept(profile: QwenProfile, model: String)
    /// Refuse with an HTTP status and a JSON body (`{"code","message","request_id"}`), naming
    /// the client obligation that was broken (for the journal).
    case reject(status: Int, bodyJSON: String, obligation: String)

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
