import ProtocolModel
package import ScenarioEngine
import Synchronization
package import WireJSON

/// The sessions the server has seen (open ones, and the last `closedLimit` closed ones holding
/// at most `closedByteLimit` of journals together), and
/// the faults the control API armed (on one session, or on every session of a test id, now and
/// later). Shared by every service thread (a mutex guards it); arming or disarming a live
/// session runs on that session's own service thread.
package final class SessionRegistry: Sendable {
    /// Arms or disarms faults on a live session, from any thread (the closures hop to its
    /// service thread).
    package struct SessionControl: Sendable {
        package let arm: @Sendable (FaultSpec) -> Void
        package let disarm: @Sendable (_ faultID: String) -> Void

        package init(arm: @escaping @Sendable (FaultSpec) -> Void, disarm: @escaping @Sendable (String) -> Void) {
            self.arm = arm
            self.disarm = disarm
        }
    }

    /// A fault armed through `POST /_mock/faults`: its id (`f1`, … unless the fault names one),
    /// its target and the sessions it was armed on.
    package struct ArmedFault: Sendable {
        package let id: String
        package let fault: FaultSpec
        /// The fault object as posted (listed by `GET /_mock/faults`).
        package let json: JSONValue
        package let target: Target
        package var sessions: [String]

        package enum Target: Sendable, Equatable {
            case session(String)
            case testID(String)
        }
    }

    package enum ArmError: Error, Equatable {
        case noOpenSession(String)
        case duplicateID(String)
    }

    private struct Record {
        package let journal: SessionJournal
        /// Nil once closed.
        package var control: SessionControl?
        /// The journal's retained bytes, fixed when the session closed.
        package var closedBytes = 0
    }

    private struct State {
        package var records: [String: Record] = [:]
        package var order: [String] = []
        package var nextNumber = 1
        var open = 0
        package var closedCount = 0
        package var closedBytes = 0
        package var faults: [ArmedFault] = []
        package var nextFaultNumber = 1
        /// Tasks waiting for a case's sessions to close, by waiter number.
        package var closeWaiters: [Int: (caseID: String, continuation: CheckedContinuation<Void, Never>)] = [:]
        package var nextWaiter = 0

        /// Whether a session of case `caseID` is open.
        package func hasOpenSession(caseID: String) -> Bool {
            records.values.contains { $0.control != nil && $0.journal.caseID == caseID }
        }

        /// Takes the waiters whose case has no open session left.
        package mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !closeWaiters.isEmpty else { return [] }  // the usual close: nobody waits
            let done = closeWaiters.filter { !hasOpenSession(caseID: $0.value.caseID) }
            for key in done.keys { closeWaiters[key] = nil }
            return done.values.map(\.continuation)
        }

        /// The fault's id: its own, or the next free `f<N>`.
        package mutating func faultID(for fault: FaultSpec) throws(ArmError) -> String {
            if let own = fault.id {
                guard !faults.contains(where: { $0.id == own }) else { throw .duplicateID(own) }
                return own
            }
            while faults.contains(where: { $0.id == "f\(nextFaultNumber)" }) { nextFaultNumber += 1 }
            defer { nextFaultNumber += 1 }
            return "f\(nextFaultNumber)"
        }
    }

    private let state = Mutex(State())
    /// The dashboard's live feed: sessions opened and closed, faults armed and removed (journals
    /// post their violations and faults).
    package let events = SessionEvents()
    private let closedLimit: Int
    private let closedByteLimit: Int

    package init(closedLimit: Int = 1000, closedByteLimit: Int = .max) {
        self.closedLimit = closedLimit
        self.closedByteLimit = closedByteLimit
    }

    /// Registers a new session under a fresh id (`s1`, `s2`, … in opening order) unless
    /// `limit` sessions are open already. Call it on the session's own service thread:
    /// `armNow` arms the faults already armed for its test id there and then (the session
    /// applies them once its connection is open).
    /// - Returns: its journal, or nil at the limit.
    package func add(
        limit: Int, _ makeJournal: (String) -> SessionJournal, control: SessionControl,
        armNow: (FaultSpec) -> Void
    ) -> SessionJournal? {
        let (journal, pending) = state.withLock { state -> (SessionJournal?, [FaultSpec]) in
            guard state.open < limit else { return (nil, []) }
            let id = "s\(state.nextNumber)"
            state.nextNumber += 1
            state.open += 1
            let journal = makeJournal(id)
            state.records[id] = Record(journal: journal, control: control)
            state.order.append(id)
            guard let testID = journal.testID else { return (journal, []) }
            var pending: [FaultSpec] = []
            for index in state.faults.indices where state.faults[index].target == .testID(testID) {
                state.faults[index].sessions.append(id)
                pending.append(state.faults[index].fault)
            }
            return (journal, pending)
        }
        for fault in pending { armNow(fault) }
        if let journal {
            events.post(
                "opened",
                [
                    "session": .string(journal.id), "protocol": .string(journal.protocolName),
                    "testId": journal.testID.map(JSONValue.string) ?? .null,
                    "caseId": journal.caseID.map(JSONValue.string) ?? .null,
                ])
        }
        return journal
    }

    /// Sessions registered and not closed yet.
    package var openCount: Int { state.withLock { $0.open } }

    package func markClosed(_ id: String) {
        // The journal is closed (it grows no more); its size is read outside the registry's lock.
        let bytes = journal(id)?.retainedBytes ?? 0
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.records[id]?.control != nil else { return [] }
            defer { trimClosed(&state) }
            state.records[id]?.control = nil
            state.records[id]?.closedBytes = bytes
            // A fault armed on this one session ends with it (its id is free again).
            state.faults.removeAll { $0.target == .session(id) }
            state.open -= 1
            state.closedCount += 1
            state.closedBytes += bytes
            return state.takeSatisfiedWaiters()
        }
        for continuation in woken { continuation.resume() }
        events.post("closed", ["session": .string(id)])
    }

    /// Waits until no session of case `caseID` is open, or `timeoutMillis` passed.
    package func waitUntilClosed(caseID: String, timeoutMillis: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = state.withLock { state -> Int? in
                guard state.hasOpenSession(caseID: caseID) else { return nil }
                state.nextWaiter += 1
                state.closeWaiters[state.nextWaiter] = (caseID, continuation)
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: .milliseconds(timeoutMillis))
                state.withLock { $0.closeWaiters.removeValue(forKey: waiter) }?.continuation.resume()
            }
        }
    }

    /// Drops the oldest closed sessions while over either limit.
    private func trimClosed(_ state: inout State) {
        guard state.closedCount > closedLimit || state.closedBytes > closedByteLimit else { return }
        state.order.removeAll { id in
            guard state.closedCount > closedLimit || state.closedBytes > closedByteLimit,
                let record = state.records[id],
                record.control == nil
            else { return false }
            state.records[id] = nil
            state.closedCount -= 1
            state.closedBytes -= record.closedBytes
            return true
        }
    }

    /// Closed sessions kept, and the journal bytes they hold.
    package var closedRetention: (sessions: Int, bytes: Int) { state.withLock { ($0.closedCount, $0.closedBytes) } }

    package var all: [SessionJournal] {
        state.withLock { state in state.order.compactMap { state.records[$0]?.journal } }
    }

    /// The journals of the open sessions, in no particular order (read without hashing an id,
    /// for a sweep over thousands of sessions).
    package var openJournals: [SessionJournal] {
        state.withLock { state in state.records.values.compactMap { $0.control != nil ? $0.journal : nil } }
    }

    package func journal(_ id: String) -> SessionJournal? { state.withLock { $0.records[id]?.journal } }

    /// Arms `fault` on one open session; the fault gets an id (its own or `f<N>`).
    package func arm(_ fault: FaultSpec, json: JSONValue, session id: String) throws(ArmError) -> ArmedFault {
        let (armed, control) = try state.withLock { state throws(ArmError) -> (ArmedFault, SessionControl) in
            guard let control = state.records[id]?.control else { throw .noOpenSession(id) }
            var fault = fault
            fault.id = try state.faultID(for: fault)
            let armed = ArmedFault(id: fault.id!, fault: fault, json: json, target: .session(id), sessions: [id])
            state.faults.append(armed)
            return (armed, control)
        }
        control.arm(armed.fault)
        events.post("faults", ["armed": .string(armed.id)])
        return armed
    }

    /// Arms `fault` on the open sessions with this test id and on every later one.
    package func arm(_ fault: FaultSpec, json: JSONValue, testID: String) throws(ArmError) -> ArmedFault {
        let (armed, controls) = try state.withLock { state throws(ArmError) -> (ArmedFault, [SessionControl]) in
            var fault = fault
            fault.id = try state.faultID(for: fault)
            var sessions: [String] = []
            var controls: [SessionControl] = []
            for id in state.order {
                guard let record = state.records[id], record.journal.testID == testID, let control = record.control
                else { continue }
                sessions.append(id)
                controls.append(control)
            }
            let armed = ArmedFault(id: fault.id!, fault: fault, json: json, target: .testID(testID), sessions: sessions)
            state.faults.append(armed)
            return (armed, controls)
        }
        for control in controls { control.arm(armed.fault) }
        events.post("faults", ["armed": .string(armed.id)])
        return armed
    }

    /// The faults armed through the control API, oldest first.
    package var faults: [ArmedFault] { state.withLock { $0.faults } }

    /// Removes the faults `matching` selects: later sessions no longer get them, and the open
    /// sessions they were armed on disarm them. Returns the removed ones.
    @discardableResult
    package func removeFaults(where matching: (ArmedFault) -> Bool) -> [ArmedFault] {
        let (removed, disarms) = state.withLock { state -> ([ArmedFault], [(SessionControl, String)]) in
            let removed = state.faults.filter(matching)
            state.faults.removeAll(where: matching)
            let disarms = removed.flatMap { fault in
                fault.sessions.compactMap { id in state.records[id]?.control.map { ($0, fault.id) } }
            }
            return (removed, disarms)
        }
        for (control, id) in disarms { control.disarm(id) }
        if !removed.isEmpty { events.post("faults", ["removed": .array(removed.map { .string($0.id) })]) }
        return removed
    }

    /// Forgets every closed session (their journals); open ones stay. Returns how many.
    package func forgetClosedSessions() -> Int {
        state.withLock { state in
            let closed = state.order.filter { state.records[$0]?.control == nil }
            for id in closed { state.records[id] = nil }
            state.order.removeAll { state.records[$0] == nil }
            for index in state.faults.indices { state.faults[index].sessions.removeAll { state.records[$0] == nil } }
            state.closedCount = 0
            state.closedBytes = 0
            return closed.count
        }
    }
}
