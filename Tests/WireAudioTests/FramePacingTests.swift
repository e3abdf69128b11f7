import Testing

@testable import WireAudio

@Suite struct FramePacingTests {
    @Test func protocolChunkSizes() {
        #expect(FramePacing.pcmBytes(milliseconds: 100, sampleRate: 16000) == 3200)
        #expect(FramePacing.pcmBytes(milliseconds: 20, sampleRate: 24000) == 960)
        #expect(FramePacing.pcmBytesPerMillisecond(sampleRate: 8000) == 16)
        #expect(FramePacing.milliseconds(pcmBytes: 3200, sampleRate: 16000) == 100)
        #expect(FramePacing.compressedBytes(milliseconds: 20, bitrate: 32000) == 80)
        #expect(FramePacing.dueTime(frame: 5, frameMs: 20, startMs: 100, speed: 2) == 150)
    }

    @Test func chunkingPCM() {
        let buffer = PCMBuffer.silence(milliseconds: 250, sampleRate: 16000)
        let frames = FramePacing.chunk(buffer, milliseconds: 100)
        #expect(frames.map(\.count) == [1600, 1600, 800])
        #expect(FramePacing.chunk(buffer, milliseconds: 100, padLast: true).map(\.count) == [1600, 1600, 1600])
        #expect(FramePacing.chunk(bytes: buffer.littleEndianBytes, size: 3200).map(\.count) == [3200, 3200, 1600])
    }

    @Test func summaryTracksGapsAndErrors() {
        var summary = AudioSummary(codec: .rawOpus, sampleRate: 16000)
        summary.record(frameBytes: 60, atMs: 0, durationMs: 20)
        summary.record(frameBytes: 61, atMs: 20, durationMs: 20)
        summary.record(frameBytes: 3, atMs: 95, durationMs: 0, decodeFailed: true)
        #expect(summary.frames == 3 && summary.bytes == 124)
        #expect(summary.durationMs == 40 && summary.decodeErrors == 1)
        #expect(summary.maxInterFrameGapMs == 75 && summary.spanMs == 95)
        #expect(AudioSummary.Codec.oggOpus.rawValue == "opus")
    }
}
