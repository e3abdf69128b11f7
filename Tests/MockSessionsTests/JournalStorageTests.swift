import MockSessions
import ProtocolModel
import Testing
import WireJSON

/// Issue 44 item 1: a journal keeps frames compactly (a few encoded bytes per audio frame, a
/// JSON frame as its bytes, full blocks compressed) and gives back the same entries and the
/// same JSON lines.
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

    /// A streaming session's mix, long enough for many blocks: JSON events out (with their
    /// bytes), audio both ways, now and then a state or a violation kept whole.
    static func streaming(count: Int) -> [(JournalEntry, [UInt8]?)] {
        (0..<count).map { index -> (JournalEntry, [UInt8]?) in
            let t = Int64(index) * 10_000 + Int64(index % 7)
            switch index % 9 {
            case 0, 4:
                let event: JSONValue = [
                    "event_id": .string("event_\(index)"), "type": "response.audio_transcript.delta",
                    "response_id": .string("resp_\(index / 30)"), "delta": .string("word \(index) "),
                    "n": .int(Int64(index)),
                ]
                let bytes = event.encoded()
                return (
                    .textFrame(
                        t: t, .out, json: event, eventType: "response.audio_transcript.delta",
                        byteLength: bytes.count), bytes
                )
            case 1: return (JournalEntry(t: t, kind: .state, state: "speaking \(index)"), nil)
            case 2:
                return (
                    .binaryFrame(
                        t: t, .out, byteLength: 3_200 + index,
                        audio: AudioSummary(
                            codec: "pcm", durationMs: 100, frames: 1, sampleRate: 24_000,
                            level: AudioLevel(rmsDb: -30 + Double(index % 50) / 10, peakDb: -100))), nil
                )
            case 3 where index % 27 == 3:
                return (
                    JournalEntry(t: t, kind: .violation, violation: Violation(obligation: "C\(index)", message: "m")),
                    nil
                )
            default:
                return (
                    JournalEntry(
                        t: -t, direction: .in, kind: .text, byteLength: 4_300 - index,
                        eventType: "input_audio_buffer.append",
                        audio: AudioSummary(codec: "pcm", durationMs: 100.25, frames: index % 3, sampleRate: nil)), nil
                )
            }
        }
    }

    /// Across many compressed blocks, the open one and a close that seals it, the entries come
    /// back the same from any point on.
    @Test func entriesComeBackFromAnyPointAcrossBlocks() {
        let journal = Self.journal()
        let recorded = Self.streaming(count: 3_000)
        for (entry, wire) in recorded { journal.record(entry, wireText: wire) }
        let expected = recorded.map(\.0)
        for from in stride(from: 0, through: 3_001, by: 97) + [2_999, 3_000, -1] {
            #expect(journal.entries.count == 3_000)
            let lines = journal.jsonLines(from: from)
            #expect(lines == JournalEntry.encodeLines(Array(expected.dropFirst(max(0, from)))), "from \(from)")
        }
        #expect(journal.entries == expected)
        journal.markClosed()
        #expect(journal.entries == expected)
        #expect(journal.jsonLines(from: 1_234) == JournalEntry.encodeLines(Array(expected.dropFirst(1_234))))
    }

    /// JSON events and audio summaries of a streaming session take well under half their size
    /// once their blocks are compressed, and the close compresses the last one.
    @Test func streamingJournalsAreCompressed() {
        let journal = Self.journal()
        let recorded = Self.streaming(count: 3_000).filter { $0.0.kind == .text || $0.0.kind == .binary }
        var json = 0
        for (entry, wire) in recorded {
            journal.record(entry, wireText: wire)
            json += wire?.count ?? 0
        }
        // What the layout before blocks took: a 40-byte record per frame, and each JSON frame's
        // bytes in an array of their own (a 32-byte header).
        let encoded = json + 40 * recorded.count + 32 * recorded.filter { $0.1 != nil }.count
        let open = journal.retainedBytes
        #expect(open * 3 < encoded, "\(open) bytes for \(encoded)")
        journal.markClosed()
        #expect(journal.retainedBytes < open)
        #expect(journal.entries == recorded.map(\.0))
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

/// An idle session's journal compresses its first events once it has been quiet a while; a
/// journal still being written, or quiet for less, is left as it is.
struct JournalCompactorTests {
    @Test func quietJournalsAreCompressedAndStayReadable() throws {
        let registry = SessionRegistry()
        let control = SessionRegistry.SessionControl(arm: { _ in }, disarm: { _ in })
        var journals: [SessionJournal] = []
        for _ in 0..<2 {
            journals.append(
                try #require(
                    registry.add(
                        limit: 10,
                        { id in
                            SessionJournal(
                                id: id, protocolName: "qwen-realtime", path: "/", testID: nil, caseID: nil,
                                startedAtMicros: 1_000_000, recordWriter: nil)
                        }, control: control, armNow: { _ in })))
        }
        let recorded = JournalStorageTests.streaming(count: 60).filter { $0.1 != nil }
        for journal in journals {
            for (index, (entry, wire)) in recorded.enumerated() {
                var entry = entry
                entry.t = Int64(index) * 1_000
                journal.record(entry, wireText: wire)
            }
        }
        // The second journal is written on to 1.5 s.
        var late = recorded[0].0
        late.t = 1_500_000
        journals[1].record(late, wireText: recorded[0].1)
        let expected = journals.map(\.entries)
        let before = journals.map(\.retainedBytes)
        let compactor = JournalCompactor(registry: registry)
        // 0.95 s after the start: the first journal has been quiet for less than a second.
        compactor.compactQuietJournals(atMicros: 1_000_000 + 950_000)
        #expect(journals.map(\.retainedBytes) == before)
        // 1.1 s after the start: the first has been quiet for over a second; the second wrote
        // last at 1.5 s.
        compactor.compactQuietJournals(atMicros: 1_000_000 + 1_100_000)
        #expect(journals[0].retainedBytes * 2 < before[0], "\(journals[0].retainedBytes) of \(before[0]) bytes")
        #expect(journals[1].retainedBytes == before[1])
        #expect(journals.map(\.entries) == expected)
    }
}
