import AnswerAudio
import MultiModalDialogEngine
import ScenarioEngine
import Testing
import WireJSON

/// A cache miss renders on a worker: the round waits at RespondingStarted's time, then sends
/// exactly the frames an inline render gives, at the same scripted times.
@Suite struct AnswerAudioWaitTests {
    @Test(arguments: ["pcm", "mp3", "opus"])
    func aRoundWaitsForItsAudioAndSendsTheSameFrames(format: String) {
        var options = MultiModalDialogSessionOptions()
        options.answerAudio = AnswerAudioCache(workers: 1)
        var inlineOptions = MultiModalDialogSessionOptions()
        // Its own inline cache: the shared `.inline` one may hold this answer mid-render by a
        // test on another thread, and then this round waits too.
        inlineOptions.answerAudio = AnswerAudioCache(workers: 0)
        let (inlineFrames, inline) = DownlinkAudioTests.answerAudio(
            ["audio_format": .string(format)], options: inlineOptions)
        let (workerFrames, worker) = DownlinkAudioTests.answerAudio(["audio_format": .string(format)], options: options)
        #expect(worker.awaited >= 1)
        #expect(inline.awaited == 0)
        #expect(!inlineFrames.isEmpty)
        #expect(workerFrames.map(\.bytes) == inlineFrames.map(\.bytes))
        #expect(workerFrames.map(\.sendAtMicros) == inlineFrames.map(\.sendAtMicros))
        #expect(worker.events == inline.events)
    }
}
