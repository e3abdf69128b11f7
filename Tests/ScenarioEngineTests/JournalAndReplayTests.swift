import ProtocolModel
import Testing
import WireJSON

@testable import ScenarioEngine

@Suite struct JournalAndReplayTests {
    static let journal: [JournalEntry] = [
        .textFrame(t: 0, .out, json: ["type": "session.created"], eventType: "session.created", byteLength: 26),
        .textFrame(t: 50_000, .in, json: ["type": "session.update"], eventType: "session.update", byteLength: 25),
        .textFrame(t: 80_000, .out, json: ["type": "session.updated"], eventType: "session.updated", byteLength: 26),
        .binaryFrame(
            t: 100_000, .in, byteLength: 3200,
            audio: AudioSummary(codec: "pcm", durationMs: 100, frames: 1, sampleRate: 16_000)),
        JournalEntry(t: 120_000, kind: .state, state: "Responding"),
        JournalEntry(t: 130_000, kind: .fault, fault: FaultNote(faultId: "f1", kind: "drop", detail: "dropped x")),
        .binaryFrame(t: 400_000, .out, byteLength: 1920, audio: AudioSummary(codec: "pcm", durationMs: 40)),
        JournalEntry(t: 410_000, direction: .out, kind: .text, byteLength: 3, text: "{x}"),
        JournalEntry(
            t: 420_000, kind: .violation, violation: Violation(obligation: "mmd.C8", message: "audio before Listening")),
        JournalEntry(t: 500_000, direction: .out, kind: .close, closeCode: 1000, closeReason: "bye"),
    ]

    @Test func jsonLinesRoundTrip() throws {
        let text = JournalEntry.encodeLines(Self.journal)
        #expect(text.split(separator: "\n").count == Self.journal.count)
        #expect(
            text.hasPrefix(
                #"{"t":0,"dir":"out","kind":"text","bytes":26,"event":"session.created","json":{"type":"session.created"}}"#
            ))
        #expect(try JournalEntry.decodeLines(text) == Self.journal)
    }

    /// A streaming session journals ~50 frames a second: a frame entry must stay small (the
    /// members only closes, faults, states and violations have live in one box).
    @Test func frameEntriesStayCompactAndRareMembersRoundTrip() {
        #expect(MemoryLayout<JournalEntry>.stride <= 128, "\(MemoryLayout<JournalEntry>.stride) bytes")
        var entry = JournalEntry.textFrame(t: 1, .in, json: ["type": "x"], byteLength: 12)
        let copy = entry
        entry.closeCode = 1000
        entry.state = "Listening"
        #expect(entry.closeCode == 1000 && entry.state == "Listening" && entry.text == nil)
        #expect(copy.closeCode == nil && copy.state == nil, "the copy keeps its own members")
        entry.closeCode = nil
        entry.state = nil
        #expect(entry == copy && entry.hashValue == copy.hashValue)
    }

    /// A proxied upstream frame the client never got (it had closed) keeps its mark through JSON Lines.
    @Test func undeliveredFramesKeepTheirMark() throws {
        var entry = JournalEntry.textFrame(t: 5, .out, json: ["type": "task-finished"], byteLength: 30)
        #expect(!entry.jsonLine.contains("undelivered"))
        entry.undelivered = true
        #expect(entry.jsonLine.hasSuffix(#","undelivered":true}"#))
        let back = try JournalEntry.decodeLines(JournalEntry.encodeLines([entry]))
        #expect(back == [entry] && back[0].undelivered)
    }

    @Test func badJournalLineIsReported() {
        #expect(throws: JournalDecodingError(line: 2, message: "missing integer \"t\"")) {
            try JournalEntry.decodeLines("{\"t\":1,\"kind\":\"state\"}\n{\"kind\":\"text\"}\n")
        }
    }

    @Test func replayAnchorsServerFramesToPrecedingClientFrame() {
        let scenario = Scenario.replay(journal: Self.journal, timeScale: 0.5)
        let steps = scenario.replay ?? []
        #expect(steps.map(\.afterClientFrame) == [0, 1, 2, 2, 2])
        #expect(steps.map(\.delayMicros) == [0, 15_000, 150_000, 155_000, 200_000])
        #expect(
            steps[2].frame == .synthesizedAudio(byteLength: 1920, audio: AudioSummary(codec: "pcm", durationMs: 40)))
        #expect(steps[3].frame == .text("{x}"))
        #expect(steps[4].frame == .close(code: 1000, reason: "bye"))
    }

    @Test func replayRuntimeReproducesOrderAndScaledTiming() {
        let clock = ManualClock()
        var runtime = ScenarioRuntime(scenario: Scenario.replay(journal: Self.journal, timeScale: 2), clock: clock)
        var sent: [(ScriptedFrame, Int64)] = []
        func collect(_ actions: [ScenarioAction]) {
            for case .send(let frame, let at) in actions { sent.append((frame, at)) }
        }
        collect(runtime.start())
        clock.advance(byMilliseconds: 70)
        collect(runtime.clientMessage(type: "session.update", json: ["type": "session.update"]))
        clock.advance(byMilliseconds: 30)
        collect(runtime.clientAudio(byteCount: 3200, durationMicros: 100_000))
        #expect(sent.map(\.1) == [0, 130_000, 700_000, 720_000, 900_000])
        #expect(sent.map(\.0) == (runtime.scenario.replay ?? []).map(\.frame))
        #expect(sent[0].0 == .json(["type": "session.created"]))
    }
}
