import AnswerAudio
import Testing
import WireJSON

/// A cache miss renders on a worker: the session waits before `response.created` and then
/// sends exactly what an inline render gives, on the scripted timeline.
@Suite struct AnswerAudioWaitTests {
    @Test func aResponseWaitsForItsAudioAndSendsTheSameFrames() throws {
        // Its own inline cache: the shared `.inline` one may hold this answer mid-render by a
        // test on another thread, and then this session waits too.
        let inline = try ServerVADTurnTests.spokenTurn(answerAudio: AnswerAudioCache(workers: 0))
        let worker = try ServerVADTurnTests.spokenTurn(answerAudio: AnswerAudioCache(workers: 1))
        #expect(worker.awaited >= 1)
        #expect(inline.awaited == 0)
        let audio = { (harness: QwenHarness) in
            harness.events("response.audio.delta").compactMap { $0["delta"]?.stringValue }
        }
        #expect(!audio(inline).isEmpty)
        #expect(audio(worker) == audio(inline))
        #expect(worker.compactTypes() == inline.compactTypes())
        let times = { (harness: QwenHarness) in harness.frames.filter { $0.type == "response.created" }.map(\.atMicros)
        }
        #expect(times(worker) == times(inline))
    }
}
