import MockSessions
import ProtocolModel
import Testing
import WireJSON

/// Issue 44 item 1: a journal keeps frames compactly (a fixed record per audio frame, a JSON
/// frame as its bytes) and gives back the same entries and the same JSON lines.
struct JournalStorageTests {
    static func journal() -> SessionJournal {
        SessionJournal(
            id: "s1", protocolName: "qwen-realtime", path: "/", testID: nil, caseID: nil, startedAtMicros: 0,
            recordWriter: nil)
    }

    /// A session's mix: JSON frames both ways (with their bytes), audio summaries with and
    /// without a level or sample rate, binary frames, raw text, states, violations, faults,
    /// closes, a report, a proxied frame's payload, an undelivered frame.
    static func entries() -> [(JournalEntry, [UInt8]?)] {
        let created: JSONValue = [
            "event_id": "event_1", "type": "session.created",
            "session": ["id": "sess_1", "modalities": ["text", "audio"], "temperature": 0.8, "max_tokens": 1024],
        ]
        let update = Array(
            #"{ "type" : "session.update", "session": {"voice":"Cherry", "n": 1.0, "x": "\u00e9"}}"#.utf8)
        var undelivered = JournalEntry.binaryFrame(t: 90, .out, byteLength: 3)
        undelivered.undelivered = true
        var entries: [(JournalEntry, [UInt8]?)] = [
            (.textFrame(t: 1, .out, json: created, eventType: "session.created", byteLength: 99), created.encoded()),
            (
                .textFrame(
                    t: 2, .in, json: try! JSONValue.decode(update), eventType: "session.update",
                    byteLength: update.count), update
            ),
            (.textFrame(t: 3, .in, json: ["type": "x"], byteLength: 12), nil),
            (
                JournalEntry(t: 4, direction: .in, kind: .text, byteLength: 20, text: "not json"),
                Array("not json".utf8)
            ),
            (JournalEntry(t: 5, kind: .state, state: "listening"), nil),
            (JournalEntry(t: 6, kind: .violation, violation: Violation(obligation: "C2", message: "m")), nil),
            (JournalEntry(t: 7, kind: .report, json: ["ok": true]), nil),
            (.binaryFrame(t: 8, .in, byteLength: 640, payload: [1, 2, 3]), nil),
            (undelivered, nil),
            (JournalEntry(t: 9, direction: .in, kind: .close, closeCode: 1000, closeReason: "bye"), nil),
        ]
        for index in 0..<200 {
            var audio = AudioSummary(
                codec: index % 3 == 0 ? "opus" : "pcm", durationMs: 100.5, frames: index % 5 + 1,
                sampleRate: index % 4 == 0 ? nil : 16000)
            if index % 2 == 0 { audio.level = AudioLevel(rmsDb: -20.3 - Double(index % 7), peakDb: -3.1) }
            let t = Int64(10 + index)
            entries.append(
                index % 2 == 0
                    ? (
                        JournalEntry(
                            t: t, direction: .in, kind: .text, byteLength: 4_300,
                            eventType: "input_audio_buffer.append", audio: audio), nil
                    )
                    : (.binaryFrame(t: t, .out, byteLength: 4_800, audio: audio), nil))
        }
        entries.append((JournalEntry(t: 300, direction: .out, kind: .binary, byteLength: 7), nil))
        return entries
    }

    @Test func entriesAndLinesComeBackAsRecorded() {
        let journal = Self.journal()
        let recorded = Self.entries()
        for (entry, wire) in recorded { journal.record(entry, wireText: wire) }
        let expected = recorded.map(\.0)
        #expect(journal.entries == expected)
        #expect(journal.jsonLines == JournalEntry.encodeLines(expected))
        #expect(journal.jsonLines(from: 150) == JournalEntry.encodeLines(Array(expected.dropFirst(150))))
        #expect(journal.jsonLines(from: 10_000) == "")
    }

    /// An audio frame's summary takes a 40-byte record (a `JournalEntry` is 128 bytes, plus its
    /// event type's string); a JSON frame kept as its bytes takes little more than them (its
    /// record, the array's header, a new event type's name).
    @Test func audioFramesTakeAFixedSmallRecord() {
        let journal = Self.journal()
        for index in 0..<1_000 {
            let audio = AudioSummary(
                codec: "pcm", durationMs: 100, sampleRate: 16000, level: AudioLevel(rmsDb: -20, peakDb: -3))
            journal.record(
                JournalEntry(
                    t: Int64(index), direction: .in, kind: .text, byteLength: 4_300,
                    eventType: "input_audio_buffer.append", audio: audio))
        }
        #expect(journal.retainedBytes < 1_000 * 48)
        let created: JSONValue = ["type": "session.created", "session": ["id": "sess_1", "voice": "Cherry"]]
        let before = journal.retainedBytes
        journal.record(
            .textFrame(t: 2_000, .out, json: created, eventType: "session.created", byteLength: 60),
            wireText: created.encoded())
        #expect(journal.retainedBytes - before < 160 + created.encoded().count)
    }
}
