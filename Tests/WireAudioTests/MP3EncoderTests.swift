import Testing

@testable import WireAudio

@Suite struct MP3EncoderTests {
    @Test(arguments: [(8000, 16), (16000, 32), (24000, 48), (48000, 64)])
    func oneSecondGivesPlausibleFramesAndSize(rate: Int, kbps: Int) throws {
        let encoder = try MP3Encoder(sampleRate: rate, bitrateKbps: kbps)
        let source = VoiceSynthesizer(sampleRate: rate, seed: 3).synthesize("one two three four")
        let second = source.slice(fromMs: 0, toMs: 1000)
        var stream: [UInt8] = []
        for chunk in FramePacing.chunk(second, milliseconds: 100) {
            stream += try encoder.encode(chunk)  // streaming: frames come out as they are ready
        }
        let beforeFlush = stream.count
        stream += try encoder.flush()
        #expect(beforeFlush > 0)
        let (frames, covered) = MP3FrameHeader.scan(stream)
        #expect(covered == stream.count, "every byte belongs to a frame")
        #expect(frames.allSatisfy { $0.sampleRate == rate && $0.isMono && $0.bitrateKbps == kbps })
        let perFrame = encoder.samplesPerFrame
        #expect(frames.first?.samplesPerFrame == perFrame)
        let minimum = rate / perFrame  // 1 s of audio, plus up to ~2 frames of encoder delay and padding
        #expect(frames.count >= minimum && frames.count <= minimum + 4, "\(frames.count) frames of \(perFrame)")
        let expectedBytes = Double(kbps * 1000 / 8) * Double(frames.count * perFrame) / Double(rate)
        #expect(abs(Double(stream.count) - expectedBytes) <= Double(frames.count))
        print(
            "MEASURE mp3 \(rate) Hz \(kbps) kbps, 1 s: \(frames.count) frames × \(perFrame) samples, \(stream.count) bytes"
        )
    }

    @Test func rejectsWrongRateAndBadParameters() throws {
        let encoder = try MP3Encoder(sampleRate: 16000)
        #expect(throws: MP3Encoder.Failure.self) {
            try encoder.encode(PCMBuffer.silence(milliseconds: 10, sampleRate: 8000))
        }
        #expect(throws: MP3Encoder.Failure.self) { try MP3Encoder(sampleRate: 7000) }
    }

    @Test func frameScannerSkipsID3AndStopsAtGarbage() {
        let header: [UInt8] = [0xFF, 0xF3, 0x44, 0xC4]  // MPEG-2 Layer III, 32 kbps, 24 kHz, mono
        let parsed = MP3FrameHeader(header, at: 0)
        #expect(parsed?.version == 2 && parsed?.sampleRate == 24000 && parsed?.isMono == true)
        let frame = header + [UInt8](repeating: 0, count: (parsed?.frameLength ?? 4) - 4)
        let id3 = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2] + [0, 0]
        let (frames, covered) = MP3FrameHeader.scan(id3 + frame + frame + [1, 2, 3])
        #expect(frames.count == 2)
        #expect(covered == 2 * frame.count)
    }
}
