/// Identifies a scheduled timer so it can be cancelled: a slot of the queue and the slot's
/// generation when the timer got it (a cancelled or fired timer's id never matches again).
package struct TimerID: Hashable, Sendable {
    let value: UInt64
    init(_ value: UInt64) { self.value = value }
    init(slot: UInt32, generation: UInt32) { value = UInt64(generation) << 32 | UInt64(slot) }
    var slot: Int { Int(truncatingIfNeeded: value & 0xFFFF_FFFF) }
    var generation: UInt32 { UInt32(truncatingIfNeeded: value >> 32) }
}

/// Deadlines in monotonic microseconds, earliest first (equal deadlines in the order their ids
/// were made). A binary min-heap over a slab of actions: an id names a slab slot, so
/// scheduling, cancelling and firing hash nothing, and a freed slot is reused (no allocation
/// per timer once the slab has grown). Cancelled entries stay in the heap until they surface
/// and are skipped (their slot's generation moved on).
struct TimerQueue {
    private struct Entry {
        let due: Int64
        /// Creation order of the id: breaks ties between equal deadlines.
        let sequence: UInt64
        let id: TimerID
    }

    private struct Slot {
        var generation: UInt32 = 0
        /// When the current id was made (see `Entry.sequence`).
        var sequence: UInt64 = 0
        var action: (() -> Void)?
    }

    private var heap: [Entry] = []
    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []
    private var nextSequence: UInt64 = 1
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func insert(due: Int64, action: @escaping () -> Void) -> TimerID {
        let id = makeID()
        insert(id, due: due, action: action)
        return id
    }

    /// A new timer's id, before its action exists (the id holds its slot until the timer is
    /// inserted and has fired, or is cancelled).
    mutating func makeID() -> TimerID {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = Int(free)
        } else {
            slot = slots.count
            slots.append(Slot())
        }
        slots[slot].sequence = nextSequence
        nextSequence += 1
        return TimerID(slot: UInt32(slot), generation: slots[slot].generation)
    }

    /// Schedules `action` under an id from ``makeID()``.
    mutating func insert(_ id: TimerID, due: Int64, action: @escaping () -> Void) {
        let slot = id.slot
        guard slot < slots.count, slots[slot].generation == id.generation, slots[slot].action == nil else { return }
        slots[slot].action = action
        count += 1
        heap.append(Entry(due: due, sequence: slots[slot].sequence, id: id))
        siftUp(heap.count - 1)
    }

    mutating func cancel(_ id: TimerID) {
        let slot = id.slot
        guard slot < slots.count, slots[slot].generation == id.generation, slots[slot].action != nil else { return }
        release(slot)
    }

    /// The earliest live deadline, dropping cancelled entries on the way.
    mutating func nextDue() -> Int64? {
        while let top = heap.first {
            if isLive(top.id) { return top.due }
            popTop()
        }
        return nil
    }

    /// Removes and returns the earliest action due at or before `now` (nil when none is).
    mutating func popDue(now: Int64) -> (() -> Void)? {
        while let top = heap.first, top.due <= now {
            popTop()
            guard isLive(top.id) else { continue }
            let action = slots[top.id.slot].action
            release(top.id.slot)
            return action
        }
        return nil
    }

    private func isLive(_ id: TimerID) -> Bool {
        slots[id.slot].generation == id.generation && slots[id.slot].action != nil
    }

    /// Frees a slot: its action goes, and ids of its old generation no longer match.
    private mutating func release(_ slot: Int) {
        slots[slot].action = nil
        slots[slot].generation &+= 1
        freeSlots.append(UInt32(slot))
        count -= 1
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private func less(_ a: Entry, _ b: Entry) -> Bool {
        a.due < b.due || (a.due == b.due && a.sequence < b.sequence)
    }

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
