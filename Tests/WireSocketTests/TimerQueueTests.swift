import Testing

@testable import WireSocket

/// The service loop's timer queue: deadline order, ties in creation order, cancellation, and ids
/// that stay dead once their slot is reused.
@Suite struct TimerQueueTests {
    /// Runs everything due at `now`; returns how many actions ran.
    private func fire(_ queue: inout TimerQueue, now: Int64) -> Int {
        var fired = 0
        while let action = queue.popDue(now: now) {
            action()
            fired += 1
        }
        return fired
    }

    @Test func actionsRunInDeadlineOrderAndTiesInCreationOrder() {
        var queue = TimerQueue()
        let log = Log()
        _ = queue.insert(due: 30) { log.add("c") }
        _ = queue.insert(due: 10) { log.add("a1") }
        _ = queue.insert(due: 20) { log.add("b") }
        _ = queue.insert(due: 10) { log.add("a2") }
        #expect(queue.count == 4)
        #expect(queue.nextDue() == 10)
        #expect(fire(&queue, now: 9) == 0)
        #expect(fire(&queue, now: 20) == 3)
        #expect(log.entries == ["a1", "a2", "b"])
        #expect(queue.nextDue() == 30)
        #expect(fire(&queue, now: 100) == 1)
        #expect(queue.isEmpty && queue.nextDue() == nil)
    }

    @Test func aCancelledTimerNeverRunsAndItsStaleIDCannotCancelTheSlotsNextTimer() {
        var queue = TimerQueue()
        let log = Log()
        let first = queue.insert(due: 10) { log.add("first") }
        queue.cancel(first)
        #expect(queue.isEmpty)
        // The freed slot is reused by the next timer; the first id no longer names it.
        let second = queue.insert(due: 10) { log.add("second") }
        #expect(second.slot == first.slot && second != first)
        queue.cancel(first)
        #expect(queue.count == 1)
        #expect(fire(&queue, now: 10) == 1)
        #expect(log.entries == ["second"])
        // A fired timer's id is dead too.
        queue.cancel(second)
        #expect(queue.isEmpty)
    }

    @Test func anIDMadeBeforeItsActionKeepsItsPlaceAmongEqualDeadlines() {
        var queue = TimerQueue()
        let log = Log()
        let early = queue.makeID()
        _ = queue.insert(due: 5) { log.add("later id") }
        queue.insert(early, due: 5) { log.add("earlier id") }
        #expect(fire(&queue, now: 5) == 2)
        #expect(log.entries == ["earlier id", "later id"])
    }

    @Test func anActionMayScheduleAndCancelWhileTheQueueFires() {
        var queue = TimerQueue()
        let log = Log()
        let doomed = queue.insert(due: 20) { log.add("doomed") }
        _ = queue.insert(due: 10) { log.add("first") }
        #expect(fire(&queue, now: 10) == 1)
        queue.cancel(doomed)
        _ = queue.insert(due: 15) { log.add("added") }
        #expect(fire(&queue, now: 30) == 1)
        #expect(log.entries == ["first", "added"])
        // Many timers, every other one cancelled: only the live ones fire.
        for round in 0..<1000 {
            let id = queue.insert(due: Int64(round)) {}
            if round % 2 == 0 { queue.cancel(id) }
        }
        #expect(queue.count == 500)
        #expect(fire(&queue, now: 1000) == 500)
        #expect(queue.isEmpty)
    }
}

/// Labels appended by timer actions.
private final class Log {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
