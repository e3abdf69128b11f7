import MultiModalDialogEngine
import ScenarioEngine
import SessionCore
import Testing
import WireAudio
import WireJSON

@Suite("Downlink audio formats (§7.2, S8)")
struct DownlinkAudioTests {
    static let sentence = "Hello there, how are you doing today?"

    /// The binary frames of one transcript round with these downstream settings.
    static func answerAudio(
        _ downstream: JSONObject, scenario: Scenario = TestScenarios.plain,
        options: MultiModalDialogSessionOptions = MultiModalDialogSessionOptions()
    ) -> (frames: [ScheduledFrame], harness: SessionHarness) {
        let harness = SessionHarness(scenario: scenario, options: options)
        harness.start(["downstream": .object(downstream)])
        harness.directive("RequestToRespond", input: ["type": "transcript", "text": .string(sentence)])
        harness.advance(until: "RespondingEnded")
        return (harness.audioFrames, harness)
    }

    static func bytes(_ frames: [ScheduledFrame]) -> [UInt8] { frames.flatMap(\.bytes) }

    @Test("pcm at 8/16/24/48 kHz: byte counts follow the rate, the duration stays the same, chunks are 40 ms")
    func pcmRates() {
        var durations: [Double] = []
        for rate in [8000, 16000, 24000, 48000] {
            let (frames, _) = Self.answerAudio(["sample_rate": .int(Int64(rate))])
            let total = Self.bytes(frames).count
            durations.append(Double(total) / Double(rate * 2))
            #expect(frames.dropLast().allSatisfy { $0.bytes.count == rate * 2 * 40 / 1000 }, "\(rate) Hz")
        }
        #expect(durations.allSatisfy { abs($0 - durations[0]) < 0.01 }, "\(durations)")
        #expect(durations[0] > 1.5, "\(durations)")
    }

    @Test("mp3: the frames form a valid mono MP3 stream at the requested rate")
    func mp3() {
        let (frames, _) = Self.answerAudio(["audio_format": "mp3", "sample_rate": 24000])
        let stream = Self.bytes(frames)
        let (headers, scanned) = MP3FrameHeader.scan(stream)
        #expect(!headers.isEmpty)
        #expect(scanned == stream.count)
        #expect(headers.allSatisfy { $0.sampleRate == 24000 && $0.isMono })
        let seconds = Double(headers.count * headers[0].samplesPerFrame) / 24000
        #expect(seconds > 1.5 && seconds < 4, "\(seconds) s")
    }

    @Test("opus: an Ogg Opus stream that decodes to the answer's length; raw-opus: one packet per frame")
    func opus() throws {
        let (ogg, _) = Self.answerAudio(["audio_format": "opus", "sample_rate": 24000, "frame_size": 20])
        let stream = Self.bytes(ogg)
        #expect(Array(stream.prefix(4)) == Array("OggS".utf8))
        let demuxer = OggOpusDemuxer()
        let packets = try demuxer.feed(stream)
        #expect(demuxer.endOfStream)
        let decoded = try OpusDecoder(sampleRate: 24000).decode(packets: packets)
        let (pcm, _) = Self.answerAudio(["sample_rate": 24000])
        let pcmSeconds = Double(Self.bytes(pcm).count) / 48000
        #expect(abs(decoded.duration - pcmSeconds) < 0.05, "\(decoded.duration) vs \(pcmSeconds)")
        let (raw, _) = Self.answerAudio(["audio_format": "raw-opus", "sample_rate": 16000, "frame_size": 60])
        let decoder = try OpusDecoder(sampleRate: 16000)
        for frame in raw {
            #expect(try decoder.decode(frame.bytes).count == 960)
        }
    }

    @Test("volume and speech_rate change the audio")
    func volumeAndSpeechRate() {
        func pcm(_ settings: JSONObject) -> PCMBuffer {
            PCMBuffer(littleEndianBytes: Self.bytes(Self.answerAudio(settings).frames), sampleRate: 24000)
        }
        let quiet = pcm(["volume": 20])
        let loud = pcm(["volume": 100])
        #expect(loud.rms > quiet.rms * 4, "\(loud.rms) vs \(quiet.rms)")
        let normal = pcm(["speech_rate": 100])
        let fast = pcm(["speech_rate": 200])
        let ratio = Double(fast.count) / Double(normal.count)
        #expect(ratio > 0.4 && ratio < 0.65, "ratio \(ratio)")
    }

    @Test("downstream.type Text: a round without audio; transmit_rate_limit spaces the frames")
    func textOnlyAndRateLimit() {
        let (none, harness) = Self.answerAudio(["type": "Text"])
        #expect(none.isEmpty)
        #expect(harness.events.contains("RespondingStarted") && harness.events.contains("RespondingEnded"))
        let (limited, _) = Self.answerAudio(["transmit_rate_limit": 24000])
        let first = limited[0].sendAtMicros
        var sent = 0
        for frame in limited {
            #expect(frame.sendAtMicros - first >= Int64(sent) * 1_000_000 / 24000)
            sent += frame.bytes.count
        }
    }

    @Test("fixture answers (.file) are read relative to the base directory and resampled")
    func fixtureAnswer() {
        let scenario = Scenario(
            name: "file", seed: 1,
            turns: TurnScript(list: [
                TurnContent(transcript: "x", answer: "From a file.", audio: .file(path: "speech-16k.wav"))
            ]))
        var options = MultiModalDialogSessionOptions()
        options.audioBaseDirectory = TestScenarios.repositoryRoot + "/Tests/WireAudioTests/Fixtures"
        let harness = SessionHarness(scenario: scenario, options: options)
        harness.start()
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "x"])
        harness.advance(until: "RespondingEnded")
        let seconds = Double(Self.bytes(harness.audioFrames).count) / 48000
        #expect(abs(seconds - 2.125) < 0.05, "\(seconds) s")
        #expect(!harness.events.contains("Error"))
    }
}

@Suite("Determinism")
struct DeterminismTests {
    static func run(seed: UInt64) throws -> [ScheduledFrame] {
        var scenario = try TestScenarios.repositoryDefault()
        scenario.seed = seed
        let harness = SessionHarness(scenario: scenario)
        harness.start()
        harness.streamUntilSpeechEnded(try TestScenarios.speech())
        harness.advance(until: "RespondingEnded")
        harness.directive("LocalRespondingEnded")
        harness.directive("RequestToRespond", input: ["type": "prompt", "text": "more"])
        harness.advance(until: "RespondingEnded", count: 2)
        return harness.sent
    }

    @Test("same scenario, seed and input → identical frames (bytes, times, ids)")
    func sameInputsSameFrames() throws {
        let first = try Self.run(seed: 7)
        let second = try Self.run(seed: 7)
        #expect(first.count > 20)
        #expect(first == second)
        let other = try Self.run(seed: 8)
        #expect(first != other)
    }
}
