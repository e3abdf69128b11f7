import ProtocolModel
import Testing
import WireJSON

@testable import ScenarioEngine

/// `record-to-scenario`'s conversion: a journal becomes a scenario file whose `replay` loads back
/// to the same steps, with ids rewritten the same way everywhere and audio moved out to files.
@Suite struct RecordedScenarioTests {
    static let journal: [JournalEntry] = [
        .textFrame(
            t: 0, .out, json: ["event_id": "event_a1", "type": "session.created", "session": ["id": "sess_x9"]],
            eventType: "session.created", byteLength: 60),
        .textFrame(t: 50_000, .in, json: ["type": "session.update"], eventType: "session.update", byteLength: 25),
        .textFrame(
            t: 80_000, .out,
            json: ["event_id": "event_b2", "type": "response.audio.delta", "response_id": "resp_7", "delta": "AAEC"],
            eventType: "response.audio.delta", byteLength: 80),
        .binaryFrame(t: 100_000, .in, byteLength: 3200),
        .binaryFrame(t: 120_000, .out, byteLength: 3, payload: [7, 8, 9]),
        .textFrame(
            t: 130_000, .out, json: ["event_id": "event_c3", "type": "response.done", "response": ["id": "resp_7"]],
            eventType: "response.done", byteLength: 70),
        JournalEntry(t: 500_000, direction: .out, kind: .close, closeCode: 1000, closeReason: "bye"),
    ]

    @Test func theScenarioFileLoadsBackAsTheReplay() throws {
        let recorded = RecordedScenario(journal: Self.journal, name: "call")
        #expect(recorded.stepCount == 5)
        #expect(recorded.audioFiles.map(\.path) == ["call.audio/0001.pcm", "call.audio/0002.bin"])
        #expect(recorded.audioFiles.map(\.bytes) == [[0, 1, 2], [7, 8, 9]])
        let scenario = try Scenario.load(bytes: recorded.document.encoded(), file: "call.json")
        let steps = try #require(scenario.replay)
        #expect(steps.map(\.afterClientFrame) == [0, 1, 2, 2, 2])
        #expect(steps.map(\.delayMicros) == [0, 30_000, 20_000, 30_000, 400_000])
        #expect(scenario.replayClientFrames == ["session.update", "binary"])
        #expect(scenario.policies.serverSilenceTimeoutMs == nil)
        // Ids: the same recorded id, the same new id; audio out of the frame, named beside it.
        #expect(
            steps[0].frame
                == .json(["event_id": "event_rec1", "type": "session.created", "session": ["id": "sess_rec2"]]))
        #expect(
            steps[1].frame
                == .json([
                    "event_id": "event_rec3", "type": "response.audio.delta", "response_id": "resp_rec4", "delta": "",
                ]))
        #expect(steps[1].audioFile == "call.audio/0001.pcm" && steps[1].audioPointer == "/delta")
        #expect(steps[2].frame == .synthesizedAudio(byteLength: 3, audio: nil))
        #expect(steps[2].audioFile == "call.audio/0002.bin" && steps[2].payload == nil)
        #expect(
            steps[3].frame
                == .json(["event_id": "event_rec5", "type": "response.done", "response": ["id": "resp_rec4"]]))
        #expect(steps[4].frame == .close(code: 1000, reason: "bye"))
        // Deterministic: the same journal gives the same file.
        #expect(RecordedScenario(journal: Self.journal, name: "call").document == recorded.document)
    }

    /// A journal that kept a binary frame's bytes (`data`) replays them, through a JSON Lines round trip.
    @Test func keptBinaryBytesRoundTripAndReplay() throws {
        let text = JournalEntry.encodeLines(Self.journal)
        #expect(text.contains(#""data":"BwgJ""#))
        let decoded = try JournalEntry.decodeLines(text)
        #expect(decoded == Self.journal)
        #expect(Scenario.replay(journal: decoded).replay?.first { $0.payload != nil }?.payload == [7, 8, 9])
    }

    @Test(arguments: [
        (#"{"replay":{"steps":[{"after":1,"json":{},"text":"x"}]}}"#, "replay.steps[0]: expected exactly one of"),
        (#"{"replay":{"steps":[{"after":-1,"text":"x"}]}}"#, "replay.steps[0].after"),
        (#"{"replay":{"steps":[{"text":"x","audioFile":"../a.pcm"}]}}"#, "must be a path inside the scenario's folder"),
        (#"{"replay":{"stepz":[]}}"#, "did you mean \"steps\""),
        (#"{"replay":{"clientFrames":[1]}}"#, "replay.clientFrames[0]: expected a message name"),
    ])
    func badReplaySectionsNameTheField(text: String, message: String) {
        do {
            _ = try Scenario.load(text: text, file: "r.json")
            Issue.record("\(text) loaded")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }
}
