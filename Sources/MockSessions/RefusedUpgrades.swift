package import ProtocolModel
import Synchronization
package import WireJSON

/// Upgrades the mock refused, with the test id or case route they carried: a refused client
/// has no session, so without this log its broken connect (`C1`) would be invisible to its
/// test (`GET /_mock/refusals`, the Python plugin's `violations()`) and to its conformance case.
///
/// Bounded: an origin (a test id, a case, or neither) keeps its first `limitPerOrigin`
/// refusals, so a client retrying in a loop adds no more; the log keeps the last `limit` of
/// all, dropping the oldest. Both count in ``dropped``.
package final class RefusedUpgrades: Sendable {
    /// One refusal.
    package struct Refusal: Sendable, Hashable {
        /// When it was refused, in CLOCK_MONOTONIC microseconds (the journals' time base).
        package let atMicros: Int64
        /// The same moment in calendar time (``WallClock``), for the listing.
        package let wallMicros: Int64
        /// The request path, without its query.
        package let path: String
        /// The test id it carried (`X-Test-Id`, else `?test_id=`, as sessions are filed).
        package let testID: String?
        /// The conformance case of a `/case/<id>/…` path.
        package let caseID: String?
        /// The protocol of the request's route: its path, and its URL's `model` where a protocol is
        /// chosen by model (Qwen-Audio-Live on the realtime path); nil on a path no protocol is
        /// served on.
        package let dialogProtocol: DialogProtocol?
        /// The HTTP status of the refusal.
        package let status: Int
        /// The connect obligation of the protocol on `path` (`mmd.C1`, `qrt.C1`, `qal.C1`); nil on
        /// a path no protocol is served on.
        package let obligation: String?
        /// What the client was told: the refusal body's `code: message`.
        package let reason: String

        package init(
            atMicros: Int64, wallMicros: Int64, path: String, testID: String?, caseID: String?,
            dialogProtocol: DialogProtocol?, status: Int, obligation: String?, reason: String
        ) {
            self.atMicros = atMicros
            self.wallMicros = wallMicros
            self.path = path
            self.testID = testID
            self.caseID = caseID
            self.dialogProtocol = dialogProtocol
            self.status = status
            self.obligation = obligation
            self.reason = reason
        }

        /// What was refused and why (`upgrade refused with 401 (InvalidApiKey: …)`).
        package var message: String { "upgrade refused with \(status) (\(reason))" }

        /// An entry of `GET /_mock/refusals`.
        package var summary: JSONValue {
            var object: JSONObject = [
                "time": .string(WallClock.rfc3339(micros: wallMicros)), "path": .string(path),
                "status": .int(Int64(status)), "reason": .string(reason),
            ]
            if let testID { object["testId"] = .string(testID) }
            if let caseID { object["caseId"] = .string(caseID) }
            if let dialogProtocol { object["protocol"] = .string(dialogProtocol.rawValue) }
            // The journal's violation shape, so a client of the list reads it like a session's.
            var violation: JSONObject = ["message": .string(Violation.Level.must.prefix + message)]
            if let obligation { violation["obligation"] = .string(obligation) }
            object["violation"] = .object(violation)
            return .object(object)
        }
    }

    /// Where refusals come from, for the per-origin cap.
    private struct Origin: Hashable {
        package let testID: String?
        package let caseID: String?
    }

    private struct State {
        /// Oldest first.
        package var kept: [Refusal] = []
        package var keptByOrigin: [Origin: Int] = [:]
        package var dropped = 0
    }

    /// The server's caps: refusals kept in all, and per test id or case.
    package static let kept = 1000
    package static let keptPerOrigin = 100

    /// Refusals kept in all.
    package let limit: Int
    /// Refusals kept per test id or case (and for those with neither).
    package let limitPerOrigin: Int
    private let state = Mutex(State())

    package init(limit: Int = kept, limitPerOrigin: Int = keptPerOrigin) {
        self.limit = limit
        self.limitPerOrigin = limitPerOrigin
    }

    package func record(_ refusal: Refusal) {
        let origin = Origin(testID: refusal.testID, caseID: refusal.caseID)
        state.withLock { state in
            guard state.keptByOrigin[origin, default: 0] < limitPerOrigin else {
                state.dropped += 1
                return
            }
            state.kept.append(refusal)
            state.keptByOrigin[origin, default: 0] += 1
            guard state.kept.count > limit else { return }
            let oldest = state.kept.removeFirst()
            let oldestOrigin = Origin(testID: oldest.testID, caseID: oldest.caseID)
            state.keptByOrigin[oldestOrigin]! -= 1
            if state.keptByOrigin[oldestOrigin] == 0 { state.keptByOrigin[oldestOrigin] = nil }
            state.dropped += 1
        }
    }

    /// The kept refusals `matching` selects, oldest first.
    package func refusals(where matching: (Refusal) -> Bool) -> [Refusal] {
        state.withLock { $0.kept.filter(matching) }
    }

    /// The kept refusals of conformance case `caseID`, oldest first.
    package func refusals(caseID: String) -> [Refusal] { refusals { $0.caseID == caseID } }

    /// Refusals not kept (over a cap) since the start or the last ``forgetAll()``.
    package var dropped: Int { state.withLock { $0.dropped } }

    /// Forgets every refusal and the dropped count (`POST /_mock/reset`); returns how many were kept.
    package func forgetAll() -> Int {
        state.withLock { state in
            defer { state = State() }
            return state.kept.count
        }
    }
}
