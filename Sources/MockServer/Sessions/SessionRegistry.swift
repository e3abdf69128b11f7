import ScenarioEngine
import WireJSON

/// The sessions the server has seen (open ones, and the last `closedLimit` closed ones), and
/// faults waiting for sessions that carry a test id. Service-thread confined.
final class SessionRegistry {
    struct Record {
        let journal: SessionJournal
        /// Arms a fault on the live session; nil once closed.
        var arm: ((FaultSpec) -> Void)?
    }

    private(set) var records: [String: Record] = [:]
    private var order: [String] = []
    private var nextNumber = 1
    private let closedLimit: Int
    /// Faults to arm on every session opened with this test id.
    private var pendingByTestID: [String: [FaultSpec]] = [:]

    init(closedLimit: Int = 1000) { self.closedLimit = closedLimit }

    /// A fresh session id (`s1`, `s2`, …).
    func makeID() -> String {
        defer { nextNumber += 1 }
        return "s\(nextNumber)"
    }

    /// Registers an opened session and arms the faults waiting for its test id.
    func add(_ journal: SessionJournal, arm: @escaping (FaultSpec) -> Void) {
        records[journal.id] = Record(journal: journal, arm: arm)
        order.append(journal.id)
        if let testID = journal.testID {
            for fault in pendingByTestID[testID] ?? [] { arm(fault) }
        }
    }

    func markClosed(_ id: String) {
        records[id]?.arm = nil
        let closed = order.filter { records[$0]?.journal.isOpen == false }
        if closed.count > closedLimit {
            for old in closed.prefix(closed.count - closedLimit) { records[old] = nil }
            order.removeAll { records[$0] == nil }
        }
    }

    var all: [SessionJournal] { order.compactMap { records[$0]?.journal } }

    /// Arms `fault` on one open session. Returns false when it is unknown or closed.
    func arm(_ fault: FaultSpec, session id: String) -> Bool {
        guard let arm = records[id]?.arm else { return false }
        arm(fault)
        return true
    }

    /// Arms `fault` on the open sessions with this test id and on every later one; returns
    /// how many open sessions got it now.
    func arm(_ fault: FaultSpec, testID: String) -> Int {
        pendingByTestID[testID, default: []].append(fault)
        var count = 0
        for id in order {
            if let record = records[id], record.journal.testID == testID, let arm = record.arm {
                arm(fault)
                count += 1
            }
        }
        return count
    }
}
