import MockSessions
import ProtocolModel
import Synchronization
import Testing
import WireJSON

/// The dashboard's feed: nothing is built while nobody listens; subscribers get each event as
/// one JSON object with its type.
@Suite struct SessionEventsTests {
    @Test func withoutASubscriberNothingIsBuilt() {
        let events = SessionEvents()
        let built = Mutex(0)
        events.post(
            "opened",
            {
                built.withLock { $0 += 1 }
                return ["session": "s1"]
            }())
        #expect(!events.isWatched)
        #expect(built.withLock { $0 } == 0)
    }

    @Test func subscribersGetEachEventUntilTheyLeave() throws {
        let events = SessionEvents()
        let received = Mutex<[String]>([])
        let first = events.subscribe { text in received.withLock { $0.append("a " + text) } }
        let second = events.subscribe { text in received.withLock { $0.append("b " + text) } }
        #expect(events.isWatched)
        events.post("closed", ["session": "s2"])
        #expect(
            received.withLock { $0 }.sorted() == [
                #"a {"session":"s2","type":"closed"}"#, #"b {"session":"s2","type":"closed"}"#,
            ])
        events.unsubscribe(first)
        events.unsubscribe(first)  // twice: no effect
        events.post("faults")
        #expect(received.withLock { $0 }.last == #"b {"type":"faults"}"#)
        events.unsubscribe(second)
        #expect(!events.isWatched)
        events.post("faults")
        #expect(received.withLock { $0 }.count == 3)
    }

    /// The journal announces what the dashboard pins (violations, faults), not frames.
    @Test func aJournalAnnouncesViolationsAndFaultsOnly() {
        let events = SessionEvents()
        let received = Mutex<[String]>([])
        _ = events.subscribe { text in received.withLock { $0.append(text) } }
        let journal = SessionJournal(
            id: "s7", protocolName: "chatter", path: "/chatter", testID: nil, caseID: nil, startedAtMicros: 0,
            recordWriter: nil, events: events)
        journal.record(JournalEntry(t: 1, direction: .in, kind: .text, byteLength: 2, text: "{}"))
        journal.record(JournalEntry(t: 2, kind: .state, state: "Listening"))
        journal.record(
            JournalEntry(t: 3, kind: .violation, violation: Violation(obligation: "x.C1", level: .should, "late")))
        #expect(received.withLock { $0 } == [#"{"session":"s7","label":"x.C1","type":"violation"}"#])
        #expect(journal.summary["violations"] == 1)
        #expect(journal.summary["mustViolations"] == 0)
    }
}
