import Testing

@testable import ScenarioEngine

@Suite struct CadenceTests {
    @Test func audioChunksFollowRealTimeFactor() {
        let cadence = AudioCadence(chunkMs: 40, realTimeFactor: 2)
        let chunks = cadence.chunks(forDurationMicros: 100_000)
        #expect(chunks.map(\.durationMicros) == [40_000, 40_000, 20_000])
        #expect(chunks.map(\.audioOffsetMicros) == [0, 40_000, 80_000])
        #expect(chunks.map(\.sendOffsetMicros) == [0, 20_000, 40_000])
        #expect(cadence.chunks(forDurationMicros: 0).isEmpty)
    }

    @Test func pcmByteCountIsWholeSamples() {
        #expect(AudioCadence.pcmByteCount(durationMicros: 100_000, sampleRate: 16_000) == 3200)
        #expect(AudioCadence.pcmByteCount(durationMicros: 40_000, sampleRate: 24_000) == 1920)
    }

    @Test func textPiecesFollowTokensPerSecond() {
        let cadence = TextCadence(timeToFirstTokenMs: 300, tokensPerSecond: 20, tokenization: .words)
        let pieces = cadence.pieces(of: "Hello there friend")
        #expect(pieces.map(\.text) == ["Hello ", "there ", "friend"])
        #expect(pieces.map(\.sendOffsetMicros) == [300_000, 350_000, 400_000])
    }

    @Test func autoTokenizationSplitsCJKCharacters() {
        let tokens = Tokenizer.tokens(of: "你好, world 再见", rule: .auto)
        #expect(tokens == ["你", "好", ", ", "world ", "再", "见"])
        #expect(tokens.joined() == "你好, world 再见")
        #expect(Tokenizer.tokens(of: "ab c", rule: .characters) == ["a", "b", " ", "c"])
    }

    @Test func speakingDurationFollowsTextAndRate() {
        let normal = Tokenizer.speakingDurationMicros(of: "one two three four five", rate: 1)
        let fast = Tokenizer.speakingDurationMicros(of: "one two three four five", rate: 2)
        #expect(normal == 1_900_000)
        #expect(fast == 950_000)
        #expect(Tokenizer.speakingDurationMicros(of: "你好", rate: 1) == 460_000)
        #expect(Tokenizer.speakingDurationMicros(of: "", rate: 1) == 0)
        #expect(Tokenizer.speakingDurationMicros(of: "don't stop", rate: 1) == 760_000)
    }

    @Test func synthesizedAudioDurationUsesSpokenText() {
        let content = TurnContent(answer: "A long displayed answer with many words", spoken: "Short one")
        #expect(content.synthesizedDurationMicros == 760_000)
        #expect(TurnContent(answer: "x", audio: .file(path: "a.wav")).synthesizedDurationMicros == 0)
    }
}
