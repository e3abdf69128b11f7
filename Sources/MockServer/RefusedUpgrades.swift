import Synchronization

/// Upgrades the mock refused on conformance-case routes (`/case/<id>/…`): a refused client has
/// no session, so without this log its broken `C1` would be invisible to the case. Only case
/// routes are kept (a bounded number each), so load tests against the service paths cost nothing.
final class RefusedUpgrades: Sendable {
    /// One refusal.
    struct Refusal: Sendable, Hashable {
        /// When it was refused, in CLOCK_MONOTONIC microseconds.
        let atMicros: Int64
        /// The HTTP status of the refusal.
        let status: Int
        /// The obligation the refusal enforces (`mmd.C1`, `qrt.C1`).
        let obligation: String
        /// Why, as the refusal body says.
        let message: String
    }

    /// Refusals kept per case (a client that retries in a loop does not grow the log).
    static let limitPerCase = 100

    private let byCase = Mutex<[String: [Refusal]]>([:])

    func record(_ refusal: Refusal, caseID: String?) {
        guard let caseID else { return }
        byCase.withLock { log in
            if log[caseID, default: []].count < Self.limitPerCase { log[caseID, default: []].append(refusal) }
        }
    }

    func refusals(caseID: String) -> [Refusal] { byCase.withLock { $0[caseID] ?? [] } }
}
