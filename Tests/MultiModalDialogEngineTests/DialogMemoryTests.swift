import MultiModalDialogEngine
import Testing

@Suite("S21 dialog memory is bounded")
struct DialogMemoryTests {
    @Test("Beyond its capacity the memory forgets the least recently used tenth at once")
    func forgetsTheLeastRecentlyUsedTenth() {
        let memory = DialogMemory(capacity: 20, historyLimit: 5)
        for index in 0..<20 { memory.open("dialog-\(index)") }
        // Touch the two oldest dialogs: they become the most recently used.
        #expect(memory.record(for: "dialog-0") != nil)
        memory.remember(.init(user: "hi", answer: "hello"), nextTurnIndex: 1, in: "dialog-1")
        memory.open("dialog-20")
        let kept = Set(memory.dialogIDs)
        #expect(kept.count == 19)
        #expect(kept.contains("dialog-0") && kept.contains("dialog-1") && kept.contains("dialog-20"))
        #expect(!kept.contains("dialog-2") && !kept.contains("dialog-3"))
        #expect(memory.record(for: "dialog-2") == nil)
    }

    @Test("A dialog keeps its latest exchanges and counts all of them")
    func historyIsCapped() throws {
        let memory = DialogMemory(capacity: 4, historyLimit: 3)
        for turn in 0..<7 {
            memory.remember(.init(user: "u\(turn)", answer: "a\(turn)"), nextTurnIndex: turn + 1, in: "d")
        }
        let record = try #require(memory.record(for: "d"))
        #expect(record.history.map(\.user) == ["u4", "u5", "u6"])
        #expect(record.exchangeCount == 7)
        #expect(record.turnIndex == 7)
    }

    @Test("Many sessions' dialogs never grow the memory past its capacity")
    func staysBounded() {
        let memory = DialogMemory(capacity: 100, historyLimit: 2)
        for index in 0..<5_000 {
            memory.remember(.init(user: "u", answer: "a"), nextTurnIndex: 1, in: "dialog-\(index)")
            #expect(memory.dialogIDs.count <= 100)
        }
    }
}
