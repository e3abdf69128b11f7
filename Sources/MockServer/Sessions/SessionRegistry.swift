import ScenarioEngine
import Synchronization
import WireJSON

/// The sessions the server has seen (open ones, and the last `closedLimit` closed ones), and
/// faults waiting for sessions that carry a test id. Shared by every service thread (a mutex
/// guards it); arming a live session runs on that session's own service thread.
final class SessionRegistry: Sendable {
    /// Arms a fault on a live session, from any thread (the closure hops to its service thread).
    typealias Arm = @Sendable (FaultSpec) -> Void

    private struct Record {
        let journal: SessionJournal
        /// Nil once closed.
        var arm: Arm?
    }

    private struct State {
        var records: [String: Record] = [:]
        var order: [String] = []
        var nextNumber = 1
        var open = 0
        var closedCount = 0
        /// Faults to arm on every session opened with this test id.
        var pendingByTestID: [String: [FaultSpec]] = [:]
    }

    private let state = Mutex(State())
    private let closedLimit: Int

    init(closedLimit: Int = 1000) { self.closedLimit = closedLimit }

    /// Registers a new session under a fresh id (`s1`, `s2`, … in opening order) unless
    /// `limit` sessions are open already. Call it on the session's own service thread:
    /// `armNow` arms the faults already waiting for its test id there and then (before any frame).
    /// - Returns: its journal, or nil at the limit.
    func add(limit: Int, _ makeJournal: (String) -> SessionJournal, arm: @escaping Arm,
             armNow: (FaultSpec) -> Void) -> SessionJournal? {
        let (journal, pending) = state.withLock { state -> (SessionJournal?, [FaultSpec]) in
            guard state.open < limit else { return (nil, []) }
            let id = "s\(state.nextNumber)"
            state.nextNumber += 1
            state.open += 1
            let journal = makeJournal(id)
            state.records[id] = Record(journal: journal, arm: arm)
            state.order.append(id)
            return (journal, journal.testID.map { state.pendingByTestID[$0] ?? [] } ?? [])
        }
        for fault in pending { armNow(fault) }
        return journal
    }

    /// Sessions registered and not closed yet.
    var openCount: Int { state.withLock { $0.open } }

    func markClosed(_ id: String) {
        state.withLock { state in
            guard state.records[id]?.arm != nil else { return }
            state.records[id]?.arm = nil
            state.open -= 1
            state.closedCount += 1
            guard state.closedCount > closedLimit else { return }
            // Drop the oldest closed sessions beyond the limit.
            var excess = state.closedCount - closedLimit
            state.order.removeAll { id in
                guard excess > 0, let record = state.records[id], record.arm == nil else { return false }
                state.records[id] = nil
                excess -= 1
                state.closedCount -= 1
                return true
            }
        }
    }

    var all: [SessionJournal] { state.withLock { state in state.order.compactMap { state.records[$0]?.journal } } }

    func journal(_ id: String) -> SessionJournal? { state.withLock { $0.records[id]?.journal } }

    /// Arms `fault` on one open session. Returns false when it is unknown or closed.
    func arm(_ fault: FaultSpec, session id: String) -> Bool {
        guard let arm = state.withLock({ $0.records[id]?.arm }) else { return false }
        arm(fault)
        return true
    }

    /// Arms `fault` on the open sessions with this test id and on every later one; returns
    /// how many open sessions got it now.
    func arm(_ fault: FaultSpec, testID: String) -> Int {
        let arms = state.withLock { state -> [Arm] in
            state.pendingByTestID[testID, default: []].append(fault)
            return state.order.compactMap { id in
                guard let record = state.records[id], record.journal.testID == testID else { return nil }
                return record.arm
            }
        }
        for arm in arms { arm(fault) }
        return arms.count
    }
}
