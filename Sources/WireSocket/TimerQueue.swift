/// Identifies a scheduled timer so it can be cancelled.
package struct TimerID: Hashable, Sendable {
    let value: UInt64
    init(_ value: UInt64) { self.value = value }
}

/// Deadlines in monotonic microseconds, earliest first. A binary min-heap with lazy
/// cancellation: cancelled entries stay in the heap until they surface and are skipped.
struct TimerQueue {
    private struct Entry {
        let due: Int64
        let id: UInt64
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { actions.isEmpty }
    var count: Int { actions.count }

    mutating func insert(due: Int64, action: @escaping () -> Void) -> TimerID {
        let id = makeID()
        insert(id, due: due, action: action)
        return id
    }

    /// A new timer's id, before its action exists.
    mutating func makeID() -> TimerID {
        defer { nextID += 1 }
        return TimerID(nextID)
    }

    /// Schedules `action` under an id from ``makeID()``.
    mutating func insert(_ id: TimerID, due: Int64, action: @escaping () -> Void) {
        actions[id.value] = action
        heap.append(Entry(due: due, id: id.value))
        siftUp(heap.count - 1)
    }

    mutating func cancel(_ id: TimerID) {
        actions[id.value] = nil
    }

    /// The earliest live deadline, dropping cancelled entries on the way.
    mutating func nextDue() -> Int64? {
        while let top = heap.first {
            if actions[top.id] != nil { return top.due }
            popTop()
        }
        return nil
    }

    /// Removes and returns the actions due at or before `now`, in deadline order.
    mutating func popDue(now: Int64) -> [() -> Void] {
        var due: [() -> Void] = []
        while let top = heap.first, top.due <= now {
            popTop()
            if let action = actions.removeValue(forKey: top.id) { due.append(action) }
        }
        return due
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private func less(_ a: Entry, _ b: Entry) -> Bool { a.due < b.due || (a.due == b.due && a.id < b.id) }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
